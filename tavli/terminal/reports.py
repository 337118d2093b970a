"""The study commands' answers as the terminal shows them, in English or Greek: a match's
analysis (``tavli analyse``), the opening tables (``tavli openings``), the match equity table
(``tavli met``), rollouts (``tavli rollout``), and the matches ``tavli play`` kept
(``tavli matches``), and a roll's plays ranked (``tavli hint``).

Each view is a ``rich`` renderable built from the library's results; its words come from
``tavli.terminal.words.Words``, so a Greek terminal gets Greek words and Greek figures (0,125).

>>> from tavli.study.openings import shipped
>>> from tavli.terminal.board import render_text
>>> "Φεύγα" in render_text(openings_view(shipped(), ["fevga"], "el"))
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from tavli.dice import Dice
from tavli.match import TAVLI_SEQUENCE
from tavli.position import Position
from tavli.terminal.board import board
from tavli.terminal.words import SEAT_KINDS, Words
from tavli.variants import BLACK, WHITE, Color

if TYPE_CHECKING:
    from tavli.bots.rollout import RolloutResult
    from tavli.formats.record import MatchRecord
    from tavli.study.analysis import Decision, MatchAnalysis, RankedPlay
    from tavli.study.openings import OpeningTables

PLAY_WIDTH = 24
"""Characters a play's notation takes in the lists of plays, so the figures line up."""

STARTERS = {"roll-off": "a roll-off starts it", "me": "the row's side starts it",
            "opponent": "the column's side starts it"}
"""Who starts the next game, for the match equity table's title."""

PLAYER_FIGURES = ("error rate", "MWC lost", "turns", "unforced", "doubtful plays", "errors", "blunders", "luck",
                  "result", "less luck")
GAMES_COLUMNS = ("game", "variant", "score", "winner", "White rate", "Black rate", "White MWC lost", "Black MWC lost",
                 "White luck", "Black luck")
OPENINGS_COLUMNS = ("roll", "best play", "rollout", "2-ply", "trials")
ROLL_COLUMNS = ("play", "rollout", "against the best", "2-ply", "trials")
KEPT_COLUMNS = ("match", "players", "length", "score", "state")
HEADINGS = (*PLAYER_FIGURES, *GAMES_COLUMNS, *OPENINGS_COLUMNS, *ROLL_COLUMNS, *KEPT_COLUMNS, *STARTERS.values())
"""Words said by name: the tables' headings and who starts the next game."""


def _table(words: Words, title: Text | str | None, columns: Sequence[str], left: int = 1,
           caption: Text | str | None = None, lines: box.Box = box.HEAVY_HEAD) -> Table:
    """A table whose first ``left`` columns are text (left-aligned) and the rest figures; a
    heading may wrap between its words but never loses a letter."""
    table = Table(title=title, caption=caption, box=lines)
    for k, name in enumerate(columns):
        heading = words.plain(name)
        table.add_column(heading, justify="left" if k < left else "right", no_wrap=k == 0,
                         min_width=max(len(word) for word in heading.split()))
    return table


# -- the analysis of a match ----------------------------------------------------

def analysis_view(found: MatchAnalysis, top: int = 10, language: str = "en", boards: bool = False) -> Group:
    """``tavli analyse``'s answer: each player's error rate, luck and result, each game's, and
    the ``top`` costliest mistakes with the plays that were better (with ``boards``, each
    mistake's board before the play, seen by the player who made it)."""
    words = Words(language)
    num = words.number
    scored = found.length is not None
    title = words("Analysis at {depth}-ply (error rate: millipoints lost per unforced decision)", depth=found.depth)
    if scored:
        title.append("\n")
        title.append_text(words("match to {length}: plays ranked by the chance of winning the match (MWC) at the "
                                "score, losses in points of a game at that score", length=found.length))

    def points_lost(mwc_loss: float | None) -> str:
        return words.plain("{value} pp", value=num(100 * (mwc_loss or 0.0), ".1f"))

    # A row per figure and a column per player, as GNU Backgammon shows a match's statistics:
    # a long name wraps in its heading and never squeezes the figures.
    sides = [words.color(c) for c in found.players]
    names = [_player_name(words, found.names.get(c, "")) for c in found.players]
    players = Table(title=title, box=box.SIMPLE_HEAD)
    players.add_column("")
    for side, name in zip(sides, names, strict=True):
        players.add_column(words.plain("{side} ({kind})", side=side, kind=name) if name else side, justify="right")
    stats = list(found.players.values())
    figures = {"error rate": [num(p.error_rate, ".1f") for p in stats],
               "MWC lost": [points_lost(p.mwc_loss) for p in stats] if scored else None,
               "turns": [str(p.decisions) for p in stats], "unforced": [str(p.unforced) for p in stats],
               "doubtful plays": [str(p.doubtful) for p in stats], "errors": [str(p.errors) for p in stats],
               "blunders": [str(p.blunders) for p in stats], "luck": [num(p.luck, "+.3f") for p in stats],
               "result": [num(p.result, "+.0f") for p in stats],
               "less luck": [num(p.luck_adjusted, "+.3f") for p in stats]}
    for name in PLAYER_FIGURES:
        if (row := figures[name]) is not None:
            players.add_row(words.plain(name), *row)
    shown_columns = [c for c in GAMES_COLUMNS if scored or (c != "score" and "MWC" not in c)]
    games = _table(words, words("Games"), shown_columns, left=0, lines=box.SIMPLE_HEAD)
    games.columns[1].justify = games.columns[3 if scored else 2].justify = "left"  # the game's name, the winner
    for g in found.games:
        if not g.finished:
            winner = words.plain("not over")
        elif g.winner is None:
            winner = words.plain("tie")
        else:
            winner = words.plain("{side} +{points}", side=words.color(g.winner), points=g.points)
        at_score = [f"{g.score[WHITE]}-{g.score[BLACK]}"] if g.score is not None else []
        lost = [points_lost(g.players[c].mwc_loss) for c in (WHITE, BLACK)] if scored else []
        games.add_row(str(g.index + 1), words.game(g.variant), *at_score, winner,
                      num(g.players[WHITE].error_rate, ".1f"), num(g.players[BLACK].error_rate, ".1f"), *lost,
                      num(g.players[WHITE].luck, "+.3f"), num(g.players[BLACK].luck, "+.3f"))
    shown: list[RenderableType] = [players, games]
    mistakes = found.mistakes(top)
    if top and not mistakes:
        shown.append(words("No doubtful play, error or blunder."))
    elif mistakes:
        head = (words("The costliest mistake", "bold") if len(mistakes) == 1 else
                words("The {count} costliest mistakes", "bold", count=len(mistakes)))
        head.append_text(words(" (equity in points per game for the player; MWC: his chance of winning the match)")
                         if scored else words(" (equity in points per game for the player)"))
        shown.append(head)
        for d in mistakes:
            lines = _mistake_lines(words, d)
            shown.append(lines[0])
            if boards:
                shown.append(board(Position.from_string(d.position), bottom=d.color, dice=d.dice, language=language))
            shown.extend(lines[1:])
    return Group(*shown)


def _player_name(words: Words, name: str) -> str:
    """A record's name for a player in the language: a bot's is its level (``bot expert``)."""
    kind, _, level = name.partition(" ")
    return words.plain("bot {level}", level=words.plain(level)) if kind == "bot" and level in SEAT_KINDS else name


def _mistake_lines(words: Words, d: Decision) -> list[Text]:
    """A mistake: where, what was played and what it lost, then the plays valued there."""
    num = words.number
    at = Text() if d.away is None else words(" at {mine}-away/{theirs}-away", mine=d.away[0], theirs=d.away[1])
    lost = Text("-" + num(d.loss, ".3f"))
    if d.mwc_loss is not None:
        lost.append_text(words(", MWC -{points} pp", points=num(100 * d.mwc_loss, ".2f")))
    lines = [words("game {game}, turn {turn}{at}: {side} {dice} played {play}, {skill} ({lost})", game=d.game + 1,
                   turn=d.turn, at=at, side=words.color(d.color), dice=Dice(max(d.dice), min(d.dice)),
                   play=(d.played, "bold"), skill=words.plain(d.skill), lost=lost)]
    for rank, c in enumerate(d.candidates, start=1):
        how = words.plain("rollout") if c.depth < 0 else words.plain("{depth}-ply", depth=c.depth)
        figures = num(c.equity, "+.3f") + ("" if c.ci95 is None else " ± " + num(c.ci95, ".3f"))
        match = Text() if c.mwc is None else words("MWC {percent}; ", percent=num(100 * c.mwc, ".2f") + "%")
        line = words("    {rank}. {play} {figures} ({match}{how}; win {percent})", rank=rank,
                     play=(c.play or words.plain("(no play)")).ljust(PLAY_WIDTH), figures=figures, match=match,
                     how=how, percent=num(100 * c.win, ".1f") + "%")
        if c.play == d.played:
            line.append_text(words("  <- played"))
        lines.append(line)
    return lines


# -- the opening tables ---------------------------------------------------------

def openings_view(tables: OpeningTables, games: Sequence[str], language: str = "en") -> Group:
    """``tavli openings``'s answer: each game's best play of every opening roll."""
    words = Words(language)
    num = words.number
    shown: list[Table] = []
    for g in games:
        mean = tables.mean(g)
        caption = None if mean is None else words.plain(
            "the starter's edge after his first roll: {mean} points per game (mean over the 36 throws)",
            mean=num(mean, "+.3f"))
        table = _table(words, words("{game}: the best play of each opening roll", game=words.game(g)),
                       OPENINGS_COLUMNS, left=2, caption=caption)
        for d in tables.rolls(g):
            best = tables.summary(g, d)[0]
            table.add_row(str(d), best.play, num(best.equity, "+.3f") + " ± " + num(best.ci95, ".3f"),
                          num(best.ply2, "+.3f"), str(best.trials))
        shown.append(table)
    return Group(*shown)


def opening_roll_view(tables: OpeningTables, game: str, dice: Dice, language: str = "en") -> Group:
    """``tavli openings GAME ROLL``'s answer: every play of one opening roll worth a look, the
    rolled-out ones first and up to eight in all."""
    words = Words(language)
    num = words.number
    plays = tables.summary(game, dice)
    shown = [p for k, p in enumerate(plays) if p.rolled_out or k < 8]
    table = _table(words, words("{game}, opening roll {dice}: the starter's points per game after each play",
                                game=words.game(game), dice=dice),
                   ROLL_COLUMNS,
                   caption=words("rollouts of the {level} level, luck subtracted, ± 95%; ≈: not told apart from the "
                                 "best; the rest by 2-ply only", level=words.plain(tables.settings.level)))
    for k, p in enumerate(shown):
        if p.rolled_out:
            against = "" if k == 0 else (num(p.diff, "+.3f") + " ± " + num(p.diff_ci95, ".3f")
                                         + ("" if p.separated else " ≈"))
            table.add_row(p.play, num(p.equity, "+.3f") + " ± " + num(p.ci95, ".3f"), against, num(p.ply2, "+.3f"),
                          str(p.trials))
        else:
            table.add_row(p.play, "", words.plain("(2-ply {diff})", diff=num(p.ply2 - shown[0].ply2, "+.3f")),
                          num(p.ply2, "+.3f"), "")
    more = len(plays) - len(shown)
    return Group(table, *([words("{count} more plays, further behind by 2-ply", count=more)] if more else []))


# -- the match equity table -----------------------------------------------------

def met_view(equity: Sequence[Sequence[float]], next_game: str, starter: str, language: str = "en") -> Table:
    """``tavli met``'s table: ``equity[i][j]``, the chance of winning the match needing ``i + 1``
    points against ``j + 1``, when ``next_game`` comes next and ``starter`` (``roll-off``,
    ``me``: the row's side, ``opponent``) starts it."""
    words = Words(language)
    length = len(equity)
    table = Table(title=words("Match equity, {length}-point match: {game} next, {who}", length=length,
                              game=words.game(next_game), who=words.plain(STARTERS[starter])),
                  caption=words("% chance of winning the match, needing the row's points against the column's"))
    table.add_column(words.plain("needs"), justify="right", style="bold")
    for j in range(1, length + 1):
        table.add_column(words.plain("{points}-away", points=j), justify="right")
    for i, row in enumerate(equity, start=1):
        table.add_row(words.plain("{points}-away", points=i), *(words.number(100 * e, ".1f") for e in row))
    return table


# -- rollouts -------------------------------------------------------------------

def rollout_view(position: Position, dice: Dice | None, level: str, rows: Sequence[tuple[str, RolloutResult]],
                 luck: bool, language: str = "en") -> Group:
    """``tavli rollout``'s answer: the position's value, or each of its best plays' with
    ``dice``; ``rows`` pair a play (empty for the position) with its rollout."""
    words = Words(language)
    num = words.number
    side = words.color(position.turn)
    head = (words("{position} ({side} to roll); {level} plays both sides", position=position, side=side,
                  level=words.plain(level)) if dice is None else
            words("{position} ({side} to play {dice}); {level} plays both sides", position=position, side=side,
                  dice=dice, level=words.plain(level)))
    lines = [head]
    for play, r in rows:
        line = words("{play}{equity} ± {ci95} over {trials} trials (win {win}, 2 points {win2}, lose 2 points "
                     "{lose2})", play=play.ljust(PLAY_WIDTH) + " " if dice is not None else "",
                     equity=num(r.equity, "+.3f"), ci95=num(r.ci95, ".3f"), trials=r.trials,
                     win=num(100 * r.win, ".1f") + "%", win2=num(100 * r.win2, ".1f") + "%",
                     lose2=num(100 * r.lose2, ".1f") + "%")
        if luck:
            line.append_text(words("; without luck subtraction {equity} ± {ci95}", equity=num(r.raw_equity, "+.3f"),
                                   ci95=num(r.raw_ci95, ".3f")))
        lines.append(line)
    return Group(*lines)


# -- the kept matches -----------------------------------------------------------

def kept_view(kept: Sequence[tuple[str, MatchRecord]], language: str = "en") -> Table:
    """``tavli matches``'s table: each kept match's name, its players, length and order of
    games, its score, and whether it is won; a row fits in 80 columns, in Greek too."""
    words = Words(language)
    table = _table(words, None, KEPT_COLUMNS, left=len(KEPT_COLUMNS), lines=box.SIMPLE_HEAD)
    table.show_edge = table.pad_edge = False
    table.padding = (0, 1, 0, 0)  # with the blank column lines: two spaces between columns
    for column in table.columns:
        column.no_wrap = True

    def player(record: MatchRecord, color: Color) -> str:
        who = record.players[color]
        if who.kind == "bot":
            return words.plain(who.name) if who.name in SEAT_KINDS else who.name
        return who.name or words.plain("human")

    for name, record in kept:
        games = record.settings.games
        order = words.plain("Tavli") if games == TAVLI_SEQUENCE else ", ".join(words.game(g) for g in games)
        winner = record.winner
        state = (words("goes on", "green") if winner is None else
                 words("{side} won", side=words.color(winner)))
        score = record.score
        table.add_row(name, words.plain("{white} – {black}", white=player(record, WHITE), black=player(record, BLACK)),
                      words.plain("to {length}, {order}", length=record.settings.length, order=order),
                      f"{score[WHITE]}-{score[BLACK]}", state)
    return table


def hint_view(position: Position, dice: Dice, ranked: Sequence[RankedPlay], match: tuple[int, str, str] | None,
              language: str = "en") -> Group:
    """``tavli hint``'s answer: every play of ``dice`` ranked (``tavli.study.analysis.rank_plays``),
    with its values, in a table; ``match`` is the match's length, score and order when the plays
    are ranked for the match."""
    words = Words(language)
    side = words.color(position.turn)
    if not ranked:
        return Group(words("{side} cannot play {dice} in {position}: the turn passes", side=side, dice=dice,
                           position=position))
    if match is None:
        head = words("{side} to play {dice} in {position}", side=side, dice=dice, position=position)
    else:
        length, score, order = match
        head = words("{side} to play {dice} in {position}, match to {length} at {score} ({order} order), "
                     "ranked for the match", side=side, dice=dice, position=position, length=length, score=score,
                     order=order)
    table = Table(box=None, pad_edge=False, header_style="bold")
    names = ["", words.plain("play"), words.plain("equity"), words.plain("win"), words.plain("win 2"),
             words.plain("lose 2"), *([words.plain("match")] if match else []), words.plain("loss"),
             words.plain("ply"), ""]
    for k, name in enumerate(names):
        table.add_column(name, justify="left" if k in (0, 1, len(names) - 1) else "right", no_wrap=True,
                         min_width=7 if k == len(names) - 1 else None)  # "blunder" whole
    for k, r in enumerate(ranked, 1):
        p = r.probabilities
        mwc = [] if r.mwc is None else [words.number(100 * r.mwc, ".1f") + "%"]
        chances = [words.number(100 * x, ".1f") + "%" for x in (p.win, p.win2, p.lose2)]
        table.add_row(str(k), str(r.play), words.number(r.equity, "+.3f"), *chances, *mwc,
                      words.number(-r.loss, "+.3f") if k > 1 else "", str(r.depth),
                      words.plain(r.skill) if r.skill else "")
    note = words("equity: points per game after the play for the side playing (-2 to +2); plays within reach of "
                 "the best are searched deeper and ranked first")
    if match:
        note.append_text(words("; match: his chance of winning the match after it, by which the plays are ranked"))
    return Group(head, table, note)
