"""GNU Backgammon's ``.mat`` match files for Portes: export from match records, import into them.

Portes is backgammon without the doubling cube and without the triple win:
a gammon scores 2 and so does what backgammon calls a backgammon. A
``.mat`` file holds a match (``N point match``) of games; each game opens
with the score line and lists the turns in two columns, each player's
moves from his own side (points 24 to 1, 25 the bar, 0 off), one checker
step at a time. See docs/formats.md ("GNU Backgammon .mat files").

>>> record = import_mat(SAMPLE)
>>> record.games[0].end
GameEnd(winner=<Color.BLACK: 1>, points=1, reason='resigned')
>>> print(export_mat(record).split("\\n\\n")[2])
 Game 1
 Ada : 0                        Bob : 0
  1)                             52: 13/8 13/11
  2) 31: 8/5 6/5                 66: 24/18 24/18 13/7 13/7
                                  Wins 1 point
"""

from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass, field
from pathlib import Path

from tavli.bots import BOTS
from tavli.dice import Dice
from tavli.errors import Reason, TavliError
from tavli.formats.record import (
    MAX_GAME_POINTS,
    GameEnd,
    MatchRecord,
    PlayerInfo,
    RecordedGame,
    RecordError,
    TurnRecord,
)
from tavli.game import Game
from tavli.match import MatchSettings
from tavli.position import Position
from tavli.variants import BLACK, WHITE, Color

COLUMN = 28
"""Width of the first player's column of moves, as GNU Backgammon writes it."""

SAMPLE = """\
; [Site "example"]

 1 point match

 Game 1
 Ada : 0                        Bob : 0
  1)                             52: 13/8 13/11
  2) 31: 8/5 6/5                 66: 24/18 24/18 13/7 13/7
                                  Wins 1 point
"""


class MatError(TavliError):
    """A ``.mat`` file that cannot be imported, or a record that cannot be exported: one line, naming where."""


# -- export ------------------------------------------------------------------
def mat_name(info: PlayerInfo, color: Color) -> str:
    """A player's name as one word (``.mat`` names end at the first space)."""
    name = info.name if info.kind == "human" else f"bot-{info.name}"
    name = re.sub(r"[\s:;]+", "_", name).strip("_")
    return name or str(color)


def backgammon(final: Position) -> bool:
    """Whether backgammon scores this finished game 3: the loser bore off nothing and still has
    a checker on the bar or in the winner's home board. Portes scores it 2.

    >>> backgammon(Position.from_string("portes 14w..................1w.... w 0:0 0:15"))
    True
    >>> backgammon(Position.from_string("portes 14w.....1w................. w 0:0 0:15"))
    False
    """
    result = final.result()
    if result is None or result.winner is None:
        return False
    loser = result.winner.other
    return final.borne_off(loser) == 0 and (final.on_bar(loser) > 0
                                             or any(final.checkers(loser, p) for p in range(19, 25)))


def export_mat(record: MatchRecord, *, site: str = "Tavli") -> str:
    """The Portes games of ``record`` as a ``.mat`` file.

    Games of Plakoto and Fevga are left out; each game's score line carries
    the match score before it, so the score stays right. A game still going
    on is written up to its last turn, with no winner; so is the game of an
    aborted match (``MatchRecord.aborted``): GNU Backgammon knows no abort,
    and opens the file as a match left unfinished, its moves as they stand. A series of games
    (``record.series``) is written as a money session (``0 point match``).

    Backgammon scores 3 a game that Portes scores 2: the winner bears off his
    last checker while the loser, with none off, still has one on the bar or
    in the winner's home board. Such a game is written without its last
    move, ending with the loser resigning a gammon (``Wins 2 points``), so
    that GNU Backgammon keeps the Portes score and plays out every game.
    """
    if not any(g.variant == "portes" for g in record.games):
        raise MatError("the record has no game of Portes: .mat files hold backgammon games only")
    names = {c: mat_name(record.players[c], c) for c in (WHITE, BLACK)}
    if names[WHITE] == names[BLACK]:
        names = {c: f"{names[c]}-{c}" for c in (WHITE, BLACK)}
    length = 0 if record.series else record.settings.length
    created = record.meta.get("created", _dt.date.today().isoformat())[:10].replace("-", ".")
    lines = [f'; [Site "{site}"]', f'; [Player 1 "{names[WHITE]}"]', f'; [Player 2 "{names[BLACK]}"]',
             f'; [EventDate "{created}"]', '; [Variation "Backgammon"]', "", f" {length} point match", ""]
    score = {WHITE: 0, BLACK: 0}
    number = 0
    for game in record.games:
        if game.variant == "portes":
            number += 1
            lines += _export_game(game, number, names, score)
        if game.end is not None and game.end.winner is not None:
            score[game.end.winner] += game.end.points
    return "\n".join(lines) + "\n"


def _export_game(game: RecordedGame, number: int, names: dict[Color, str],
                 score: dict[Color, int]) -> list[str]:
    lines = [f" Game {number}",
             " " + f"{names[WHITE]} : {score[WHITE]}".ljust(COLUMN + 3) + f"{names[BLACK]} : {score[BLACK]}"]
    # White's and Black's moves in turn, White's first (a game resigned before any move has none)
    cells = [""] if game.first == BLACK and game.turns else []
    history = game.replay().history
    if history and backgammon(history[-1].after):
        history = history[:-1]  # the loser resigns a gammon instead: backgammon would score the end 3
    for turn, played in zip(game.turns, history, strict=False):
        steps = " ".join(f"{st.src}/{st.dst}{'*' if st.hit else ''}" for st in played.play.steps)
        cells.append(f"{turn.dice.first}{turn.dice.second}: {steps}".rstrip())
    for row in range(0, len(cells), 2):
        left = cells[row]
        right = cells[row + 1] if row + 1 < len(cells) else ""
        if right:
            left = left.ljust(COLUMN) if len(left) < COLUMN else left + " "
        lines.append(f"{row // 2 + 1:3d}) {left}{right}".rstrip())
    end = game.end
    if end is not None and end.winner is not None:
        indent = 6 if end.winner == WHITE else COLUMN + 6
        lines.append(" " * indent + f"Wins {end.points} point{'s' if end.points != 1 else ''}")
    lines.append("")
    return lines


# -- import ------------------------------------------------------------------
_LENGTH = re.compile(r"^\s*(\d+)\s+point\s+match\s*$", re.I)
_GAME = re.compile(r"^\s*Game\s+(\d+)\s*$", re.I)
_SCORE = re.compile(r"^\s*(\S.*?)\s*:\s*(\d+)\s+(\S.*?)\s*:\s*(\d+)\s*$")
_TURN = re.compile(r"^\s*(\d+)\)(.*)$")
_DICE = re.compile(r"(?<![\d/])([1-6])([1-6]):")
_WINS = re.compile(r"^(\s*)Wins\s+(\d+)\s+points?(?:\s+and\s+the\s+match)?\s*$", re.I)
_CUBE = re.compile(r"\b(doubles|takes|drops|accepts|rejects|beavers|raccoons)\b", re.I)
_VARIATION = re.compile(r"^\s*;\s*\[\s*Variation\s+\"([^\"]*)\"\s*\]", re.I)
RIGHT_FROM = 16
"""A lone move or win starting at this column or later is the second player's."""


@dataclass
class _Game:
    line: int
    scores: tuple[int, int] | None = None
    entries: list[tuple[int, Color, str]] = field(default_factory=list)  # (line, side, "DD: moves")
    wins: tuple[int, Color, int] | None = None  # (line, side, points)


def _player(name: str) -> PlayerInfo:
    level = name[4:] if name.startswith("bot-") else ""
    return PlayerInfo("bot", level) if level in BOTS else PlayerInfo("human", name)


def import_mat(text: str, *, source: str = "") -> MatchRecord:
    """A record of the Portes games of a ``.mat`` file; MatError naming the line if it cannot be,
    after the ``source`` (the file's name) if given.

    The file's first player is White, the second Black. Refused, as Portes
    has no place for them: cube actions, a game scored 3 (a backgammon), a
    variation other than backgammon, and a match that does not start at 0-0
    or whose score lines do not follow from its games.

    >>> import_mat(" 3 point match\\n", source="x.mat")
    Traceback (most recent call last):
    ...
    tavli.formats.mat.MatError: x.mat: no game in the file
    """
    try:
        return _import_mat(text)
    except MatError as e:
        if not source:
            raise
        raise MatError("{source}: {reason}", source=source, reason=e) from None


def _import_mat(text: str) -> MatchRecord:
    length: int | None = None
    games: list[_Game] = []
    names: tuple[str, str] | None = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip().replace("\t", "    ")
        at = Reason("line {line}", line=number)
        if (m := _VARIATION.match(line)) is not None and m.group(1).strip().lower() != "backgammon":
            raise MatError("{at}: the variation {name!r} does not start as Portes does", at=at, name=m.group(1))
        if not line.strip() or line.lstrip().startswith(";"):
            continue
        if (m := _LENGTH.match(line)) is not None:
            if length is not None or games:
                raise MatError("{at}: a second match length", at=at)
            length = int(m.group(1))
        elif (m := _GAME.match(line)) is not None:
            if length is None:
                raise MatError("{at}: a game before the match length (' N point match')", at=at)
            if games and games[-1].scores is None:
                raise MatError("{at}: game {game} has no score line", at=at, game=len(games))
            games.append(_Game(number))
        elif not games:
            raise MatError("{at}: cannot read {text!r} before the first game", at=at, text=line.strip())
        elif games[-1].scores is None:
            m = _SCORE.match(line)
            if m is None:
                raise MatError("{at}: expected the score line 'NAME : POINTS   NAME : POINTS', not {text!r}",
                               at=at, text=line.strip())
            pair = (m.group(1), m.group(3))
            if names is not None and pair != names:
                raise MatError("{at}: the players are {player1} and {player2}, not {name1} and {name2}",
                               at=at, player1=names[0], player2=names[1], name1=pair[0], name2=pair[1])
            names = pair
            games[-1].scores = (int(m.group(2)), int(m.group(4)))
        elif _CUBE.search(line):
            raise MatError("{at}: a cube action ({text!r}): Portes is played without the cube",
                           at=at, text=line.strip())
        elif (m := _WINS.match(line)) is not None:
            if games[-1].wins is not None:
                raise MatError("{at}: the game was already won", at=at)
            games[-1].wins = (number, WHITE if len(m.group(1)) < RIGHT_FROM else BLACK, int(m.group(2)))
        elif (m := _TURN.match(line)) is not None:
            if games[-1].wins is not None:
                raise MatError("{at}: a move after the game was won", at=at)
            games[-1].entries += _entries(line, m, number, at)
        else:
            raise MatError("{at}: cannot read {text!r}", at=at, text=line.strip())
    if length is None:
        raise MatError("no match length (' N point match'): not a .mat file")
    if not games:
        raise MatError("no game in the file")
    if names is None or games[-1].scores is None:
        raise MatError("game {game} has no score line", game=len(games))
    players = {WHITE: _player(names[0]), BLACK: _player(names[1])}
    recorded: list[RecordedGame] = []
    score = (0, 0)
    for k, game in enumerate(games, 1):
        at = Reason("line {line}, game {game}", line=game.line, game=k)
        if game.scores != score:
            raise MatError("{at}: the score line says {said}, but the games before make it {score}" if k > 1 else
                           "{at}: the score line says {said}, but a match starts at {score}", at=at,
                           said=f"{game.scores[0]}-{game.scores[1]}",  # type: ignore[index]
                           score=f"{score[0]}-{score[1]}")
        if recorded and recorded[-1].end is None:
            raise MatError("{at}: game {game} has no winner, yet another game follows", at=at, game=k - 1)
        g = _import_game(game)
        if g.end is not None and g.end.winner is not None:
            score = (score[0] + g.end.points, score[1]) if g.end.winner == WHITE else \
                (score[0], score[1] + g.end.points)
        recorded.append(g)
    record = MatchRecord(MatchSettings(length=max(length, 1), games=("portes",)), players, recorded,
                         {"source": "GNU Backgammon .mat"}, series=length == 0)
    try:
        record.check()
    except RecordError as e:
        raise MatError(e.reason) from None
    return record


def _entries(line: str, m: re.Match[str], number: int, at: Reason) -> list[tuple[int, Color, str]]:
    """The one or two moves of a numbered line, each with its side."""
    body_at = m.start(2)
    body = m.group(2)
    starts = [d.start() for d in _DICE.finditer(body)]
    if not starts:
        if body.strip():
            raise MatError("{at}: cannot read {text!r}", at=at, text=body.strip())
        raise MatError("{at}: a numbered line without moves", at=at)
    if starts[0] and body[:starts[0]].strip():
        raise MatError("{at}: cannot read {text!r}", at=at, text=body[:starts[0]].strip())
    if len(starts) > 2:
        raise MatError("{at}: more than two moves on one line", at=at)
    texts = [body[a:b].strip() for a, b in zip(starts, [*starts[1:], len(body)], strict=True)]
    if len(texts) == 2:
        return [(number, WHITE, texts[0]), (number, BLACK, texts[1])]
    side = WHITE if body_at + starts[0] < RIGHT_FROM else BLACK
    return [(number, side, texts[0])]


def _import_game(game: _Game) -> RecordedGame:
    first = game.entries[0][1] if game.entries else WHITE
    g = Game("portes", first)
    turns: list[TurnRecord] = []
    for number, color, text in game.entries:
        at = Reason("line {line}", line=number)
        if g.result is not None:
            raise MatError("{at}: a move after the game was over ({result})", at=at, result=g.result.words())
        if color != g.turn:  # the other side's turn
            raise MatError("{at}: the first player moves, but it is the second player's turn" if color == WHITE else
                           "{at}: the second player moves, but it is the first player's turn", at=at)
        dice_text, _, play_text = text.partition(":")
        dice = Dice.parse(dice_text)
        play = play_text.strip()
        try:
            turn = g.play(dice, play or None)
        except TavliError as e:  # one line, translated on its own
            if not play:
                raise MatError("{at}: no move with {dice}: {reason}", at=at, dice=dice, reason=e) from None
            raise MatError("{at}: {play} with {dice}: {reason}", at=at, play=play, dice=dice, reason=e) from None
        turns.append(TurnRecord(turn.color, dice, "" if turn.play.is_pass else str(turn.play), str(g.position)))
    result = g.result
    end = None if result is None else GameEnd(result.winner, result.points, result.reason)
    if game.wins is not None:
        number, winner, points = game.wins
        at = Reason("line {line}", line=number)
        if points > MAX_GAME_POINTS:
            raise MatError("{at}: a game scored {points} (a backgammon or a doubled cube): Portes scores a game 1 or 2",
                           at=at, points=points)
        if result is None:
            end = GameEnd(winner, points, "resigned")
        elif result.winner != winner:
            raise MatError("{at}: the win is written for the first player, but the second player bore off"
                           if winner == WHITE else
                           "{at}: the win is written for the second player, but the first player bore off", at=at)
        elif points != result.points:
            raise MatError("{at}: the game is scored {points}, but Portes scores it {scored}",
                           at=at, points=points, scored=result.points)
    elif result is not None:
        raise MatError("{at}: the game is over but the file does not say who wins",
                       at=Reason("line {line}", line=game.entries[-1][0]))
    return RecordedGame("portes", first, [], None, None, turns, end)


def read_mat(path: str | Path) -> MatchRecord:
    """Import a ``.mat`` file; MatError naming the file and line if it cannot be read."""
    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError as e:
        raise MatError("cannot read {path}: {reason}", path=path, reason=e.strerror or e) from None
    return import_mat(text, source=str(path))
