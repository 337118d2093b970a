"""Play a Tavli match in the terminal (``tavli play``): the board drawn with ``rich``, human
seats typing moves in notation or by number, bots playing their own moves; the match kept in
its record as it goes."""

from __future__ import annotations

import contextlib
import random
import shlex
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.text import Text

from tavli.bots import Player, make_bot
from tavli.dice import Dice, DiceRoller
from tavli.formats.record import MatchRecord, PlayerInfo, write
from tavli.match import TAVLI_SEQUENCE, GameRecord, Match, MatchSettings
from tavli.position import LegalPlays, Play, Position
from tavli.study.chances import chances_of
from tavli.terminal.board import board, viewer_point
from tavli.terminal.prompt import (
    LIST_LIMIT,
    LeaveMatch,
    answer_prompt,
    console_reader,
    numbered_plays,
    resignation,
)
from tavli.terminal.styles import CHECKER_STYLE, ERROR_STYLE, NOTE_STYLE
from tavli.terminal.words import (
    HINT_LEVEL,
    SEAT_KINDS,
    Words,
    accept_prompt,
    command_words,
    header_words,
    hint_lines,
    match_won_words,
    mover_text,
    offer_words,
    result_words,
    score_words,
)
from tavli.variants import BLACK, WHITE, Color

TUTOR_DEPTH = 1
"""Plies of the tutor's judgement of a play: the web app's hints' depth."""


class Resigned(Exception):
    """The human to play resigned, and the game (or the match) is over."""


@dataclass
class Seat:
    """Who plays one side: a human at the keyboard or a bot."""

    color: Color
    kind: str
    bot: Player | None = None
    label: str = ""

    @property
    def is_human(self) -> bool:
        return self.bot is None


def make_seats(seats: Mapping[Color, str], roller: DiceRoller, language: str = "en") -> dict[Color, Seat]:
    """Seats from their kinds; a random bot takes its seed from the dice, so a
    seeded match replays the same."""
    out: dict[Color, Seat] = {}
    humans = sum(kind == "human" for kind in seats.values())
    for color in (WHITE, BLACK):
        kind = seats[color]
        if kind not in SEAT_KINDS:
            raise ValueError(f"unknown player {kind!r}: choose {', '.join(SEAT_KINDS)}")
        bot: Player | None = None
        if kind != "human":
            # only bots that draw random numbers take a seed (from the dice, so a seeded match replays)
            rng = random.Random(_seed_from(roller)) if _draws_random(kind) else None
            bot = make_bot(kind, rng)
        out[color] = Seat(color, kind, bot, seat_label(color, kind, humans, language))
    return out


def seat_label(color: Color, kind: str, humans: int, language: str = "en") -> str:
    """``Black (heuristic)``; ``White (you)`` against a bot; ``White`` between two humans."""
    words = Words(language)
    side = words.color(color)
    if kind != "human":
        return words.plain("{side} ({kind})", side=side, kind=words.plain(kind))
    return words.plain("{side} (you)", side=side) if humans == 1 else side


def _draws_random(kind: str) -> bool:
    from tavli.bots.levels import LEVELS

    return kind == "random" or (kind in LEVELS and LEVELS[kind].noise > 0)


def _seed_from(roller: DiceRoller) -> int:
    seed = 0
    for _ in range(16):
        seed = seed * 6 + roller.die() - 1
    return seed


@dataclass
class TerminalMatch:
    """A match played at the terminal, turn by turn, until it ends or the human leaves."""

    match: Match
    seats: dict[Color, Seat]
    console: Console
    read_line: Callable[[str], str]
    last_marks: dict[Color, frozenset[int]] = field(default_factory=dict)
    """The points of the last move, in each side's numbering."""
    words: Words = field(default_factory=Words)
    """The words of everything it says, in the player's language."""
    origin: MatchRecord | None = None
    """The record a resumed match went on from."""
    tutor: bool = False
    """Ask before a human's blunder is played."""
    chances: bool = False
    """Show each side's chance of winning the match beside the board."""
    save: Path | None = None
    """Where the match is kept: written after every turn and every roll of a human's, so that
    nothing is lost however the program stops."""

    # -- who is who -------------------------------------------------------
    @property
    def names(self) -> dict[Color, str]:
        return {color: seat.label for color, seat in self.seats.items()}

    @property
    def humans(self) -> list[Color]:
        return [color for color, seat in self.seats.items() if seat.is_human]

    def viewer(self, position: Position) -> Color:
        """The side drawn at the bottom: the only human, else the side to move (White for bots)."""
        humans = self.humans
        if len(humans) == 1:
            return humans[0]
        return position.turn if humans else WHITE

    # -- output -------------------------------------------------------------
    def say(self, template: str, style: str = "", /, **params: object) -> None:
        self.console.print(self.words(template, style, **params))

    @property
    def commands(self) -> dict[str, tuple[str, ...]]:
        return command_words(self.words.language)

    def mover(self, color: Color) -> Text:
        """``● Black (heuristic)`` in Black's colour."""
        return mover_text(color, self.names[color])

    def show_board(self, record: GameRecord, dice: Dice | None = None, header: bool = True) -> None:
        position = record.game.position
        viewer = self.viewer(position)
        self.console.print()
        if header:
            self.console.print(self.header(record))
        extra = [self.chances_text()] if self.chances else []
        self.console.print(board(position, bottom=viewer, dice=dice, names=self.names,
                                 marks=self.last_marks.get(viewer, frozenset()), language=self.words.language,
                                 extra=extra))

    def chances_text(self) -> Text:
        """``  Match chances: White 54.2%, Black 45.8%`` (``tavli.study.chances``)."""
        found = chances_of(self.match)
        white_percent, black_percent = (self.words.number(100 * x, ".1f") + "%" for x in (found.white, found.black))
        return self.words("  Match chances: {white}, {black}",
                          white=self.words("White {percent}", CHECKER_STYLE[WHITE], percent=white_percent),
                          black=self.words("Black {percent}", CHECKER_STYLE[BLACK], percent=black_percent))

    def keep(self) -> None:
        """Write the match to ``save`` as it stands (quietly: a failure is said at the end)."""
        if self.save is not None:
            with contextlib.suppress(OSError):
                write(self.record(), self.save)

    def record(self) -> MatchRecord:
        """The match record so far; a resumed match keeps its record's meta and the names of
        players who kept their seats."""
        origin = self.origin
        players = {}
        for color, seat in self.seats.items():
            info = PlayerInfo("human", "") if seat.is_human else PlayerInfo("bot", seat.kind)
            before = origin.players.get(color) if origin is not None else None
            players[color] = before if before is not None and before.kind == info.kind and (
                info.kind == "human" or before.name == info.name) else info
        return MatchRecord.from_match(self.match, players, meta=None if origin is None else origin.meta)

    def game_number(self, record: GameRecord) -> int:
        return self.match.records.index(record) + 1

    def header(self, record: GameRecord) -> Text:
        """``Game 2: Plakoto (Portes, Plakoto, Fevga) · White 1, Black 0 · match to 5``."""
        return header_words(self.words, self.match.settings.games, self.game_number(record),
                            record.game.variant.name, self.score_text())

    def score_text(self) -> Text:
        """``White 1, Black 0 · match to 5``."""
        return score_words(self.words, self.match.score, self.match.settings.length)

    # -- input --------------------------------------------------------------
    def ask(self, prompt: str) -> str:
        return self.read_line(prompt)

    def pause(self, prompt: str) -> None:
        """Wait for Enter when someone is at the keyboard."""
        if self.humans:
            self.ask(self.words.plain("{prompt} [Enter] ", prompt=prompt))

    # -- the flow -----------------------------------------------------------
    def run(self) -> Color | None:
        """Play until the match ends; return the winner."""
        record = self.match.records[-1]
        if len(self.match.records) > 1 or record.game.history or self.match.dice is not None:
            self.say("The match goes on: {score}.", score=self.score_text())
        if record.game.history or self.match.dice is not None:  # resumed within a game: its start is past
            self.console.print()
            self.console.rule(self.header(record))
        else:
            self.announce_game(record)
        while not self.match.is_over:
            record = self.match.records[-1]
            self.take_turn(record)
            self.keep()
            if record.game.is_over:
                self.announce_result(record)
                if not self.match.is_over:
                    self.pause(self.words.plain("Game {n} is next.", n=len(self.match.records)))
                    self.announce_game(self.match.records[-1])
        winner = self.match.winner
        assert winner is not None
        score = self.match.score
        self.console.print()
        self.console.print(match_won_words(self.words, self.mover(winner), score[winner], score[winner.other],
                                           self.match.settings.length))
        return winner

    def announce_game(self, record: GameRecord) -> None:
        self.console.print()
        self.console.rule(self.header(record))
        starter = self.words.color(record.game.turn)
        if record.opening_rolls:
            for white, black in record.opening_rolls:
                rolls = {"white": self.words("White {points}", CHECKER_STYLE[WHITE], points=white),
                         "black": self.words("Black {points}", CHECKER_STYLE[BLACK], points=black)}
                if white == black:
                    self.say("Opening roll: {white}, {black}: equal, roll again.", **rolls)
                else:
                    self.say("Opening roll: {white}, {black}: {side} starts.", side=starter, **rolls)
        else:
            self.say("{side} won the last game and starts.", side=starter)
        self.last_marks = {}
        if not self.humans:
            self.show_board(record, header=False)

    def take_turn(self, record: GameRecord) -> None:
        seat = self.seats[self.match.turn]
        dice = self.match.dice or self.match.roll()  # a resumed match may hold a roll still to play
        legal = self.match.legal_plays()
        if seat.bot is not None:
            play = legal[self.bot_choice(seat.bot, legal)] if len(legal) else None
        else:
            self.keep()  # the roll is kept before the player sees it: stopping the program rolls nothing anew
            self.show_board(record, dice)
            try:
                play = self.human_play(seat, legal)
            except Resigned:
                return
        self.commit(seat, dice, play)

    def bot_choice(self, bot: Player, legal: LegalPlays) -> int:
        """A neural bot plays for the match (``tavli.bots.match_equity``), the others as they always do."""
        from tavli.bots.match_equity import MatchScore
        from tavli.bots.neural import NeuralBot

        if isinstance(bot, NeuralBot):
            return bot.choose(legal, MatchScore.of(self.match))
        return bot.choose(legal)

    def commit(self, seat: Seat, dice: Dice, play: Play | None) -> None:
        """Play the chosen move, tell it, and note its points for the next board."""
        position = self.match.game.position
        self.match.play(play)
        mover = self.mover(seat.color)
        if play is None or play.is_pass:
            self.say("{side} rolls {dice}: no legal play, the turn passes." if seat.bot is not None else
                     "{side} rolled {dice}: no legal play, the turn passes.", side=mover, dice=dice)
            return
        self.say("{side} rolls {dice} and plays {play}." if seat.bot is not None else
                 "{side} rolled {dice} and plays {play}.", side=mover, dice=dice, play=(str(play), "bold"))
        self.last_marks = {color: self.play_points(position, play, color) for color in (WHITE, BLACK)}

    @staticmethod
    def play_points(position: Position, play: Play, viewer: Color) -> frozenset[int]:
        points = {viewer_point(position.variant, viewer, position.turn, p)
                  for step in play.steps for p in (step.src, step.dst)}
        return frozenset(p for p in points if p is not None)

    def announce_result(self, record: GameRecord) -> None:
        result = record.game.result
        assert result is not None
        self.show_board(record)
        self.console.print()
        winner = None if result.winner is None else self.mover(result.winner)
        self.console.print(result_words(self.words, self.game_number(record), record.game.variant.name, result, winner))
        self.say("Score: {score}", score=self.score_text())

    # -- a human's turn -----------------------------------------------------
    def human_play(self, seat: Seat, legal: LegalPlays) -> Play | None:
        """Ask until the human gives a legal play; None passes a turn that has no play."""
        if not len(legal):
            self.ask(self.words.plain("No legal play with {dice}: press Enter to pass. ", dice=legal.dice))
            return None
        if len(legal) <= LIST_LIMIT:
            self.show_plays(legal)
            if len(legal) > 1:
                self.say("Type a move like {play}, or its number; help for help.", NOTE_STYLE, play=legal[0])
        else:
            self.say("{count} legal plays: type a move like {play}, or list to see them numbered; help for help.",
                     NOTE_STYLE, count=len(legal), play=legal[0])
        prompt = self.words.plain("{side} to play {dice} › ", side=self.words.color(seat.color), dice=legal.dice)
        while True:
            play = self.read_play(legal, self.ask(prompt))
            if play is not None and (not self.tutor or self.tutor_allows(legal, play)):
                return play

    def tutor_allows(self, legal: LegalPlays, play: Play) -> bool:
        """The tutor (``--tutor``): a blunder, by the hints' judgement at the match's score
        (``tavli.study.analysis``), is played only once the player says so, as on the web app's board."""
        from tavli.bots.match_equity import MatchScore
        from tavli.study.analysis import evaluate_decision

        if len(legal) < 2:
            return True
        decision = evaluate_decision(legal.position, legal.dice, str(play), TUTOR_DEPTH,
                                     score=MatchScore.of(self.match))
        if decision.skill != "blunder":
            return True
        self.say("{play} is a blunder: it gives up {loss} points against {best}.", ERROR_STYLE,
                 play=(str(play), "bold"), loss=self.words.number(decision.loss, ".3f"), best=(decision.best, "bold"))
        return self.ask(self.words.plain("Play it anyway? [y/N] ")).strip().lower() in self.commands["yes"]

    def show_plays(self, legal: LegalPlays) -> None:
        if len(legal) == 1:
            self.say("Only one legal play: {play} (Enter plays it).", NOTE_STYLE, play=(str(legal[0]), "bold"))
            return
        self.console.print(numbered_plays(legal))

    def read_play(self, legal: LegalPlays, line: str) -> Play | None:
        """The play that ``line`` names, or None after handling a command or showing an error."""
        actions: dict[str, Callable[[list[str]], None]] = {
            "list": lambda _: self.show_plays(legal),
            "board": lambda _: self.show_board(self.match.records[-1], legal.dice),
            "hint": lambda _: self.show_hint(legal),
            "position": lambda _: self.show_position(legal),
            "resign": lambda args: self.resign(legal, args),
        }
        return answer_prompt(line, legal, self.words, self.console, self.ask, actions)

    def resign(self, legal: LegalPlays, what: list[str]) -> None:
        """``resign`` (the game, 1 point), ``resign 2`` or ``resign match``: a bot takes the
        offer when it is worth what it expects from playing on (``NeuralBot.accepts_resignation``,
        at the match's score), a human is asked. Raises ``Resigned`` once the game is over."""
        commands, match = self.commands, self.match
        mine = match.turn
        theirs = self.seats[mine.other]
        points = resignation(what, self.words, self.console)
        if points is None:
            return
        if points == "match":
            score = dict(match.score)
            score[mine.other] = match.settings.length
            prompt = self.words.plain("Resign the match? {side} wins it {won}-{lost}. [y/N] ",
                                      side=self.names[mine.other], won=score[mine.other], lost=score[mine])
            if self.ask(prompt).strip().lower() in commands["yes"]:
                match.resign_match(mine)
                raise Resigned
            return
        self.console.print(offer_words(self.words, self.mover(mine), points))
        if theirs.bot is not None:
            from tavli.bots.match_equity import MatchScore
            from tavli.bots.neural import NeuralBot

            judge = theirs.bot if isinstance(theirs.bot, NeuralBot) else NeuralBot(HINT_LEVEL)
            takes = judge.accepts_resignation(legal, points, MatchScore.of(match))
        else:
            takes = self.ask(accept_prompt(self.words, theirs.label, points)).strip().lower() in commands["yes"]
        if not takes:
            self.say("{side} declines: play on.", side=self.mover(mine.other))
            return
        self.say("{side} accepts.", side=self.mover(mine.other))
        match.resign(mine, points)
        raise Resigned

    def show_position(self, legal: LegalPlays) -> None:
        """The position string (and a Portes position's GNU Backgammon ID), with the command that
        ranks the roll's plays at this score, to study it later."""
        position, dice = legal.position, legal.dice
        length, score = self.match.settings.length, self.match.score
        self.say("Position: {position}", NOTE_STYLE, position=(str(position), "bold"))
        if position.variant.name == "portes":
            self.say("GNU Backgammon Position ID: {id}", NOTE_STYLE, id=(position.gnubg_id(), "bold"))
        games = self.match.settings.games
        order = "tavli" if games == TAVLI_SEQUENCE else ",".join(games)
        match = f" --match {length} --score {score[WHITE]}-{score[BLACK]} --games {order}"
        command = f"tavli hint '{position}' {dice.first}{dice.second}{match}"
        self.say("Its plays, ranked: {command}", NOTE_STYLE, command=(command, "bold"))

    def show_hint(self, legal: LegalPlays) -> None:
        """The best plays for the match at its score, by the expert bot (as its bots play): each
        play's chance of winning the match, what it gives up against the best, and its expected
        points in the game."""
        from tavli.bots.match_equity import MatchScore
        from tavli.bots.neural import NeuralBot

        found = NeuralBot(HINT_LEVEL).analyse(legal, MatchScore.of(self.match))[:3]
        for line in hint_lines(self.words, [(str(legal[a.index]), a.match_equity or 0.0, a.equity) for a in found]):
            self.console.print(line)


def play_match(settings: MatchSettings, seats: dict[Color, str], roller: DiceRoller, *,
               console: Console | None = None, read_line: Callable[[str], str] | None = None,
               save: Path | None = None, language: str = "en",
               record: MatchRecord | None = None, tutor: bool = False, chances: bool = False) -> Color | None:
    """Play a match at the terminal; return the winner (None if the match was left).

    ``seats`` says who plays each side: ``human``, ``random``, ``heuristic``
    or a neural level (``beginner`` ... ``champion``).
    ``read_line(prompt)`` reads a human's answer (default: the console's
    input); end of input leaves the match cleanly, and so does Ctrl-C (with
    exit status 130). With ``save``, the match record (tavli.formats.record) is
    written there when the match ends or stops. Everything is said in
    ``language`` (``en`` or ``el``). With ``record`` (``tavli.formats.record``), the
    match goes on from where the record leaves it, with its settings; the
    dice from then on are ``roller``'s. With ``tutor``, a human's blunder is
    played only once he confirms it; with ``chances``, each board shows each
    side's chance of winning the match (``tavli.study.chances``).
    """
    words = Words(language)
    console = console or Console(highlight=False)
    players = make_seats(seats, roller, language)
    match = record.to_match(roller) if record is not None else Match(settings, roller)
    session = TerminalMatch(match, players, console, read_line or console_reader(console), words=words,
                            origin=record, tutor=tutor, chances=chances, save=save)
    try:
        return session.run()
    except (EOFError, LeaveMatch) as e:
        console.print()
        session.say("End of input: the match stops at {score}." if isinstance(e, EOFError) else
                    "You left the match: the match stops at {score}.", score=session.score_text())
        return None
    except KeyboardInterrupt:
        console.print()
        session.say("Interrupted: the match stops at {score}.", score=session.score_text())
        raise SystemExit(130) from None
    finally:
        if save is not None:
            save_match(session, save)


def save_match(session: TerminalMatch, path: Path) -> None:
    """Write the record of the match played so far, and say where (or why not), with the
    command that goes on with a match not yet won."""
    try:
        write(session.record(), path)
    except OSError as e:
        session.say("✗ cannot save the match in {path}: {why}", ERROR_STYLE, path=path, why=e.strerror or e)
        return
    words, quoted = session.words, shlex.quote(str(path))
    said = [words("The match is saved in {path}.", path=path)]
    if not session.match.is_over:
        said.append(words("To go on with it: {command}", command=(f"tavli play --resume {quoted}", "bold")))
    else:
        said.append(words("To review it, every play against the best: {command}",
                          command=(f"tavli analyse {quoted}", "bold")))
    for line in said:
        session.console.print(line, soft_wrap=True)  # unbroken, to be copied whole


