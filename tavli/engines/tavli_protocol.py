"""The Tavli engine protocol: any of the three games, any level, one text line each way.

A program (a GUI, another engine's test harness) sends commands; every command but
``quit`` is answered with exactly one line, and a line that cannot be obeyed with one
line ``error: REASON`` that changes nothing (see docs/engine.md for the full list)::

    set variant plakoto        -> ok
    set level champion         -> ok
    position start             -> ok
    play 6 5                   -> 24/13
    hint 6 5 2                 -> hint 24/13 equity +0.121 ; 24/19 24/18 equity +0.043
    evaluate                   -> evaluate win 0.5123 win2 0.1234 lose2 0.1100 equity +0.0369
    set score 2 4 5            -> ok          (points won: the side to move's, the other's, match length)
    quit

>>> engine = Engine("advanced")
>>> engine.answer("position start")
'ok'
>>> engine.answer("play 3 1")
'8/5 6/5'
>>> engine.answer("play 7 1")
'error: dice must be two numbers from 1 to 6, not (7, 1)'

``EngineClient`` runs such a program as a ``tavli.bots.Player``, so ``tavli.bots.duel``
can measure it against any other player.
"""

from __future__ import annotations

import contextlib
import subprocess
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import TextIO

from tavli import __version__
from tavli.bots.levels import DEFAULT_LEVEL, LEVELS
from tavli.bots.match_equity import MatchEquityError, MatchScore
from tavli.bots.neural import Evaluator, NeuralBot
from tavli.dice import Dice
from tavli.errors import TavliError
from tavli.match import MatchSettings
from tavli.position import LegalPlays, Position
from tavli.variants import BLACK, VARIANTS, WHITE, Color, Variant, variant_from_string

PROTOCOL_VERSION = 1
MAX_MATCH_LENGTH = 64
COMMANDS = ("tavli", "help", "options", "set", "position", "play", "hint", "evaluate", "apply", "quit")


class EngineProtocolError(TavliError):
    """A command the engine cannot obey, or an engine's answer that cannot be used."""


@dataclass(frozen=True)
class ScoreSetting:
    """``set score``: points won by the side to move and by his opponent, the match
    length, and optionally the match's order of games and the number (from 1) of
    the game being played."""

    mine: int
    theirs: int
    length: int
    games: tuple[str, ...] | None = None
    game: int = 1

    def match_score(self, variant: Variant) -> MatchScore:
        """The ``MatchScore`` of the side to move in a game of ``variant``."""
        try:
            return MatchScore.in_game(variant, self.mine, self.theirs, self.length, self.games, self.game - 1)
        except MatchEquityError as exc:
            raise EngineProtocolError(f"{exc}: set the score again") from None

    def __str__(self) -> str:
        text = f"{self.mine} {self.theirs} {self.length}"
        return text if self.games is None else f"{text} {','.join(self.games)} {self.game}"


def _int(word: str, what: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise EngineProtocolError(f"{what} must be a whole number, not {word!r}") from None


def _dice(words: Sequence[str]) -> tuple[Dice, list[str]]:
    """The dice at the start of ``words``, written ``6 5`` or in one word (``65``, ``6-5``), and
    the words after them."""
    if words and len(words[0]) > 1:
        try:
            return Dice.parse(words[0]), list(words[1:])
        except ValueError:
            raise EngineProtocolError(f"dice are two numbers from 1 to 6, like 6 5 or 65, not {words[0]!r}") from None
    if len(words) < 2:
        raise EngineProtocolError("give two dice, like: play 6 5")
    return Dice.of((_int(words[0], "a die"), _int(words[1], "a die"))), list(words[2:])


def _turn(word: str) -> Color:
    if word not in ("w", "b"):
        raise EngineProtocolError(f"the side to move is w or b, not {word!r}")
    return WHITE if word == "w" else BLACK


class Engine:
    """The state of one engine session (level, seed, game, position, score) and
    the answer to each command line."""

    def __init__(self, level: str = DEFAULT_LEVEL, seed: int | None = None) -> None:
        self.bot = NeuralBot(level, seed=seed)
        self.seed = seed
        self.position = Position.start("portes")
        self.score: ScoreSetting | None = None

    @property
    def variant(self) -> Variant:
        return self.position.variant

    def answer(self, line: str) -> str | None:
        """The one-line answer to ``line`` (None for a blank line or ``quit``);
        a command that cannot be obeyed gets ``error: REASON`` and changes nothing."""
        words = line.split()
        if not words or words[0].lower() == "quit":
            return None
        try:
            return self._dispatch(words[0].lower(), words[1:])
        except ValueError as e:  # every library error is one
            return f"error: {e}"
        except Exception as e:  # the engine never dies of a line it was sent
            return f"error: internal error ({type(e).__name__}: {e})"

    def _dispatch(self, command: str, args: list[str]) -> str:
        if command == "tavli":
            return f"id tavli {__version__} protocol {PROTOCOL_VERSION}"
        if command == "help":
            return "commands " + " ".join(COMMANDS)
        if command == "options":
            return self._options()
        if command == "set":
            return self._set(args)
        if command == "position":
            return self._position(args)
        if command == "play":
            return self._play(args)
        if command == "hint":
            return self._hint(args)
        if command == "evaluate":
            return self._evaluate(args)
        if command == "apply":
            return self._apply(args)
        raise EngineProtocolError(f"unknown command {command!r} (commands: {', '.join(COMMANDS)})")

    def _options(self) -> str:
        seed = "none" if self.seed is None else str(self.seed)
        score = "money" if self.score is None else str(self.score)
        return f"options level {self.bot.name} seed {seed} variant {self.variant} score {score}"

    # -- set --------------------------------------------------------------------

    def _set(self, args: list[str]) -> str:
        if len(args) < 2:
            raise EngineProtocolError("write set NAME VALUE, like: set level expert")
        name, values = args[0].lower(), args[1:]
        if name == "level":
            self._one(name, values)
            if values[0] not in LEVELS:
                raise EngineProtocolError(f"unknown level {values[0]!r}: choose one of {', '.join(LEVELS)}")
            self.bot = NeuralBot(values[0], seed=self.seed)
        elif name == "seed":
            self._one(name, values)
            seed = None if values[0] == "none" else _int(values[0], "the seed")
            self.bot = NeuralBot(self.bot.name, seed=seed)
            self.seed = seed
        elif name == "variant":
            self._one(name, values)
            variant = variant_from_string(values[0])
            if variant.name != self.variant.name:
                self.position = Position.start(variant)
            else:
                self.position = self._in(variant)
        elif name == "score":
            self.score = self._score(values)
        elif any(name in cls.__dataclass_fields__ for cls in VARIANTS.values()):
            self._one(name, values)
            self.position = self._in(variant_from_string(f"{self.variant},{name}={values[0]}"))
        else:
            raise EngineProtocolError(f"unknown option {name!r}: set level, seed, variant, score "
                                      "or a house rule (mother_pin, prime_limits, prime_in_opponent_start)")
        return "ok"

    @staticmethod
    def _one(name: str, values: list[str]) -> None:
        if len(values) != 1:
            raise EngineProtocolError(f"set {name} takes one value, not {len(values)}")

    def _in(self, variant: Variant) -> Position:
        """The current position under other house rules of the same game."""
        _, *rest = str(self.position).split(" ", 1)
        return Position.from_string(f"{variant} {rest[0]}")

    def _score(self, values: list[str]) -> ScoreSetting | None:
        if values == ["money"]:
            return None
        if len(values) not in (3, 5):
            raise EngineProtocolError("write set score MINE THEIRS LENGTH [ORDER GAME], like: set score 2 4 5, "
                                      "or set score money")
        mine, theirs, length = (_int(v, "a score") for v in values[:3])
        if not 1 <= length <= MAX_MATCH_LENGTH:
            raise EngineProtocolError(f"a match is played to 1 to {MAX_MATCH_LENGTH} points, not {length}")
        if not (0 <= mine < length and 0 <= theirs < length):
            raise EngineProtocolError(f"in a match to {length} each side has 0 to {length - 1} points, "
                                      f"not {mine} and {theirs}")
        setting = ScoreSetting(mine, theirs, length)
        if len(values) == 5:
            game = _int(values[4], "the game number")
            if game < 1:
                raise EngineProtocolError(f"games are numbered from 1, not {game}")
            setting = ScoreSetting(mine, theirs, length, MatchSettings.parse_games(values[3]), game)
        setting.match_score(self.variant)  # checks it fits the game being played
        return setting

    def _match_score(self) -> MatchScore | None:
        return None if self.score is None else self.score.match_score(self.variant)

    # -- the position -------------------------------------------------------------

    def _position(self, args: list[str]) -> str:
        if not args:
            return f"position {self.position}"
        if args[0] == "start":
            if len(args) > 2:
                raise EngineProtocolError("write position start [w|b]")
            self.position = Position.start(self.variant, _turn(args[1]) if len(args) == 2 else WHITE)
        elif args[0] == "gnubg":
            if len(args) not in (2, 3):
                raise EngineProtocolError("write position gnubg POSITION-ID [w|b]")
            if self.variant.name != "portes":
                raise EngineProtocolError("a GNU Backgammon Position ID is a Portes position: set variant portes")
            self.position = Position.from_gnubg_id(args[1], _turn(args[2]) if len(args) == 3 else WHITE)
        else:
            self.position = Position.from_string(" ".join(args))
        return "ok"

    def _legal(self, dice: Dice) -> LegalPlays:
        if self.position.result() is not None:
            raise EngineProtocolError(f"the game is over: {self.position.result()}")
        return self.position.legal_plays(dice)

    def _play(self, args: list[str]) -> str:
        dice, rest = _dice(args)
        if rest:
            raise EngineProtocolError("write play D1 D2, like: play 6 5")
        legal = self._legal(dice)
        if len(legal) == 0:
            return "none"
        return str(legal[self.bot.choose(legal, self._match_score())])

    def _hint(self, args: list[str]) -> str:
        dice, rest = _dice(args)
        if len(rest) > 1:
            raise EngineProtocolError("write hint D1 D2 [N], like: hint 6 5 3")
        count = _int(rest[0], "the number of plays") if rest else 3
        if count < 1:
            raise EngineProtocolError(f"ask for 1 play or more, not {count}")
        legal = self._legal(dice)
        if len(legal) == 0:
            return "hint none"
        entries = []
        for a in self.bot.analyse(legal, self._match_score())[:count]:
            entry = f"{legal[a.index]} equity {a.equity:+.4f}"
            if a.match_equity is not None:
                entry += f" match {a.match_equity:.4f}"
            entries.append(entry)
        return "hint " + " ; ".join(entries)

    def _evaluate(self, args: list[str]) -> str:
        if args:
            raise EngineProtocolError("evaluate takes no arguments")
        if self.position.result() is not None:
            raise EngineProtocolError(f"the game is over: {self.position.result()}")
        p = Evaluator.for_variant(self.variant.name).probabilities(self.position)
        text = f"evaluate win {p.win:.4f} win2 {p.win2:.4f} lose2 {p.lose2:.4f} equity {p.equity:+.4f}"
        score = self._match_score()
        if score is not None:
            text += f" match {score.after_game().value(p.win, p.win2, p.lose2):.4f}"
        return text

    def _apply(self, args: list[str]) -> str:
        dice, rest = _dice(args)
        if not rest:
            raise EngineProtocolError("write apply D1 D2 PLAY, like: apply 6 5 24/18 13/8 (or none)")
        legal = self._legal(dice)
        play = self.position.parse_play(" ".join(rest), legal.dice)
        self.position = self.position.pass_turn() if len(legal) == 0 else legal.after(legal.index(play))
        return f"position {self.position}"


def serve(inp: Iterable[str], out: TextIO, level: str = DEFAULT_LEVEL, seed: int | None = None) -> None:
    """Answer command lines from ``inp`` until ``quit`` or the end of input."""
    engine = Engine(level, seed)
    for line in inp:
        if line.lower().split()[:1] == ["quit"]:
            break
        reply = engine.answer(line)
        if reply is not None:
            out.write(reply + "\n")
            out.flush()


class EngineClient:
    """A program that speaks this protocol, started as a process, playing as a
    ``tavli.bots.Player``: each choice sends ``position`` and ``play`` and checks
    the answer is a legal play. ``setup`` lines (like ``set level beginner``) are
    sent first; each must be answered ``ok``.

    >>> import sys
    >>> command = [sys.executable, "-c", "from tavli.cli import main; main()", "engine", "--protocol", "tavli"]
    >>> with EngineClient(command, ["set level advanced"]) as engine:
    ...     legal = Position.start("fevga").legal_plays(Dice(6, 5))
    ...     str(legal[engine.choose(legal)])
    '24/13'
    """

    def __init__(self, command: Sequence[str], setup: Sequence[str] = (), name: str | None = None) -> None:
        self.name = name or " ".join(command)
        self._process = subprocess.Popen(list(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         text=True, bufsize=1)
        try:
            for line in setup:
                reply = self.send(line)
                if reply != "ok":
                    raise EngineProtocolError(f"{self.name} answered {line!r} with: {reply}")
        except BaseException:
            self.close()
            raise

    def send(self, line: str) -> str:
        """Send one command line and return the engine's answer; an ``error`` answer raises."""
        stdin, stdout = self._process.stdin, self._process.stdout
        assert stdin is not None and stdout is not None
        try:
            stdin.write(line + "\n")
            stdin.flush()
        except (BrokenPipeError, OSError):
            raise EngineProtocolError(f"{self.name} has stopped") from None
        reply = stdout.readline()
        if not reply:
            raise EngineProtocolError(f"{self.name} has stopped (sent: {line!r})")
        reply = reply.rstrip("\n")
        if reply.startswith("error"):
            raise EngineProtocolError(f"{self.name} answered {line!r} with: {reply}")
        return reply

    def choose(self, legal: LegalPlays) -> int:
        self.send(f"position {legal.position}")
        reply = self.send(f"play {legal.dice.first} {legal.dice.second}")
        try:
            play = legal.position.parse_play(reply, legal.dice)
        except TavliError as e:
            raise EngineProtocolError(f"{self.name} played {reply!r} with {legal.dice} in "
                                      f"{legal.position}: {e}") from None
        return legal.index(play)

    def close(self) -> None:
        """Send ``quit`` and wait for the program to end."""
        if self._process.poll() is None:
            try:
                assert self._process.stdin is not None
                self._process.stdin.write("quit\n")
                self._process.stdin.close()
            except (BrokenPipeError, OSError):
                pass
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        for stream in (self._process.stdin, self._process.stdout):
            if stream is not None and not stream.closed:
                with contextlib.suppress(BrokenPipeError, OSError):
                    stream.close()

    def __enter__(self) -> EngineClient:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()
