"""Match records: every game of a match, roll by roll, in one documented JSON format.

A record holds the settings and house rules, the players, and for each game
the roll-off, the dice's seed commitment and revealed seed, every roll and
play with the position it led to, and how the game ended. ``loads`` checks
all of it (every play against the rules, every die against its seed) and
names the place of the first fault; ``dumps`` writes it back unchanged.
The format is described in docs/formats.md ("Match record").

>>> from tavli.dice import DiceRoller
>>> from tavli.match import Match, MatchSettings
>>> m = Match(MatchSettings(length=1, games=("portes",)), DiceRoller(seed=3))
>>> _ = m.roll(); _ = m.play(m.legal_plays()[0])
>>> record = MatchRecord.from_match(m, {WHITE: PlayerInfo("human", "Ada"), BLACK: PlayerInfo("bot", "expert")})
>>> loads(dumps(record)) == record
True
>>> len(record.games[0].turns), record.games[0].end is None
(1, True)
>>> again = record.to_match()  # the match as the record leaves it, ready to go on
>>> again.game.position == m.game.position, again.turn == m.turn
(True, True)
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import re
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tavli.dice import Dice, DiceRoller
from tavli.errors import Reason, TavliError
from tavli.fairdice import check_game, commitment, dice_of_rolls
from tavli.game import Game
from tavli.match import ABORTED, MATCH_ENDINGS, Match, MatchSettings
from tavli.variants import BLACK, WHITE, Color, variant_from_string

FORMAT = "tavli-match"
VERSION = 1
KINDS = ("human", "bot")
MAX_GAME_POINTS = 2
"""No game of Tavli is worth more: a double game (gammon, a pinned mother)."""

_COLORS = {"white": WHITE, "black": BLACK}
_HEX64 = re.compile(r"[0-9a-f]{64}")


class RecordError(TavliError):
    """A match record that cannot be read or does not replay: one line, naming where.

    >>> loads('{"format": "tavli-match", "version": 9}')
    Traceback (most recent call last):
    ...
    tavli.formats.record.RecordError: version 9 is not supported: this Tavli reads version 1
    """


def color_name(color: Color) -> str:
    """``white`` or ``black``, as the record writes a side."""
    return "white" if color == WHITE else "black"


@dataclass(frozen=True)
class PlayerInfo:
    """Who played a side: a person (``kind`` "human", ``name`` free, may be "") or a bot (its level)."""

    kind: str
    name: str

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise RecordError("a player is human or bot, not {kind!r}", kind=self.kind)

    def __str__(self) -> str:
        if self.kind == "bot":
            return f"bot {self.name}"
        return self.name or "human"


@dataclass(frozen=True)
class TurnRecord:
    """One turn: the side, its roll, its play in notation ("" for a pass) and the position after it."""

    color: Color
    dice: Dice
    play: str
    position: str


@dataclass(frozen=True)
class GameEnd:
    """How a game ended: ``winner`` None for a tie; ``reason`` as ``GameResult.reason``
    (``bore off all checkers``, ``mother pinned``, ``resigned``, ``claimed: ...``)."""

    winner: Color | None
    points: int
    reason: str


@dataclass
class RecordedGame:
    """One game of the record.

    ``variant`` is ``str(Variant)`` (house rules included); ``first`` moved
    first; ``opening`` is the roll-off, (White's die, Black's die) per roll,
    empty when no roll-off was held (the winner of the last game starts);
    ``commitment`` is the SHA-256 hex of the dice's seed and ``seed`` the
    seed in hex, given once the game is over (both None for dice without a
    published seed); ``end`` is None while the game goes on; ``rolled`` is the
    roll of the side to move, made and not yet played (a match saved mid-turn).
    """

    variant: str
    first: Color
    opening: list[tuple[int, int]]
    commitment: str | None
    seed: str | None
    turns: list[TurnRecord]
    end: GameEnd | None
    rolled: Dice | None = None

    @classmethod
    def from_game(cls, game: Game, opening: Sequence[tuple[int, int]] = (), seed: bytes | None = None,
                  reveal: bool | None = None, rolled: Dice | None = None) -> RecordedGame:
        """The record of a game played so far; ``seed`` (the dice's seed, if any) is given in full
        only when ``reveal`` is true (default: once the game is over), its commitment always;
        ``rolled`` is a roll made and not yet played."""
        result = game.result
        reveal = result is not None if reveal is None else reveal
        return cls(variant=str(game.variant), first=game.start.turn,
                   opening=[(int(w), int(b)) for w, b in opening],
                   commitment=commitment(seed) if seed is not None else None,
                   seed=seed.hex() if seed is not None and reveal else None,
                   turns=[TurnRecord(t.color, t.dice, "" if t.play.is_pass else str(t.play), str(t.after))
                          for t in game.history],
                   end=GameEnd(result.winner, result.points, result.reason) if result is not None else None,
                   rolled=rolled if result is None else None)

    def replay(self) -> Game:
        """The game with every turn played and checked by the rules.

        Raises RecordError naming the turn that does not replay (an illegal
        play, the wrong side or a position that differs from the record),
        and when the end does not fit the last position.
        """
        try:
            variant = variant_from_string(self.variant)
        except TavliError as e:
            raise RecordError("variant: {reason}", reason=e) from None
        game = Game(variant, self.first)
        for number, turn in enumerate(self.turns, 1):
            if game.result is not None:
                raise RecordError("turn {number}: the game was over after turn {last} ({result})",
                                  number=number, last=number - 1, result=game.result.words())
            if turn.color != game.turn:
                raise RecordError("turn {number}: it is {side}'s turn, not {color}'s",
                                  number=number, side=_side(game.turn), color=_side(turn.color))
            try:
                game.play(turn.dice, turn.play or None)
            except TavliError as e:
                if turn.play:
                    raise RecordError("turn {number}: {play} with {dice}: {reason}",
                                      number=number, play=turn.play, dice=turn.dice, reason=e) from None
                raise RecordError("turn {number}: pass with {dice}: {reason}",
                                  number=number, dice=turn.dice, reason=e) from None
            if str(game.position) != turn.position:
                if turn.play:
                    raise RecordError("turn {number}: {play} leads to {position}, not {expected}",
                                      number=number, play=turn.play, position=game.position, expected=turn.position)
                raise RecordError("turn {number}: pass leads to {position}, not {expected}",
                                  number=number, position=game.position, expected=turn.position)
        self._check_end(game)
        return game

    def _check_end(self, game: Game) -> None:
        end, result = self.end, game.result
        if result is not None:
            if end is None:
                raise RecordError("the game is over after turn {last} ({result}) but the record gives no end",
                                  last=len(self.turns), result=result.words())
            if (end.winner, end.points) != (result.winner, result.points):
                raise RecordError("end: the last position gives {result}, not {end}",
                                  result=result.words(), end=_end_words(end))
            return
        if end is None:
            return
        # ended before the position did: a resignation, a claim, an abort
        if end.reason == ABORTED:
            if end.winner is not None or end.points != 0 or len({turn.color for turn in self.turns}) > 1:
                raise RecordError("end: an aborted game has no winner and no points, and ends before both "
                                  "sides have played")
            return
        if end.winner is None:
            raise RecordError("end: a game ended before the rules end it needs a winner (a resignation, a claim)")
        if end.reason in MATCH_ENDINGS:  # worth the points still missing: MatchRecord.check sees it ends the match
            if end.points < 1:
                raise RecordError("end: a resigned match gives 1 point or more, not {points}", points=end.points)
            return
        if not 1 <= end.points <= MAX_GAME_POINTS:
            raise RecordError("end: a resigned or claimed game is worth 1 or 2 points, not {points}",
                              points=end.points)

    def dice(self) -> list[int]:
        """Every die of the game in the order drawn: the roll-off, then each turn's roll."""
        return dice_of_rolls(self.opening, [t.dice for t in self.turns])


@dataclass
class MatchRecord:
    """A whole match (or, with ``series``, a series of games outside a match).

    ``meta`` is free text (``created``, ``site``, ``event``...). In a series
    (bot games from ``tavli selfplay``, a money session of GNU Backgammon)
    the games follow the settings' order of games and house rules, and the
    settings' length is not used.
    """

    settings: MatchSettings
    players: dict[Color, PlayerInfo]
    games: list[RecordedGame]
    meta: dict[str, str] = field(default_factory=dict)
    series: bool = False

    @property
    def score(self) -> dict[Color, int]:
        """Points won by each side in the games that have ended."""
        score = {WHITE: 0, BLACK: 0}
        for game in self.games:
            if game.end is not None and game.end.winner is not None:
                score[game.end.winner] += game.end.points
        return score

    @property
    def winner(self) -> Color | None:
        """The side that won the match (None in a series and while the match goes on)."""
        if self.series:
            return None
        score = self.score
        return next((c for c in (WHITE, BLACK) if score[c] >= self.settings.length), None)

    @property
    def aborted(self) -> bool:
        """Whether the match was aborted (``tavli.match.Match.abort``): its first game ended with
        no winner, before both sides had played, and no game follows."""
        end = self.games[0].end if self.games and not self.series else None
        return end is not None and end.reason == ABORTED

    @classmethod
    def from_match(cls, match: Match, players: dict[Color, PlayerInfo], seeds: Sequence[bytes] = (),
                   meta: dict[str, str] | None = None) -> MatchRecord:
        """The record of a match played so far.

        ``seeds`` are the games' dice seeds (``SeededRoller.seeds``): each
        game's commitment is recorded, its seed only once the game is over.
        ``meta`` defaults to the date and time of now (``created``, UTC).
        """
        last = len(match.records) - 1
        games = [RecordedGame.from_game(rec.game, rec.opening_rolls, seeds[k] if k < len(seeds) else None,
                                        rolled=match.dice if k == last else None)
                 for k, rec in enumerate(match.records)]
        if meta is None:
            meta = {"created": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")}
        return cls(match.settings, dict(players), games, dict(meta))

    def check(self) -> list[Game]:
        """Check the whole record and return each game replayed; RecordError naming where."""
        out = []
        score = {WHITE: 0, BLACK: 0}
        for index, game in enumerate(self.games):
            number = index + 1
            if not self.series and any(score[c] >= self.settings.length for c in (WHITE, BLACK)):
                raise RecordError("game {number}: the match was over after game {last} "
                                  "({white}-{black}, match to {length})", number=number, last=index,
                                  white=score[WHITE], black=score[BLACK], length=self.settings.length)
            if index and self.games[index - 1].end is None:
                raise RecordError("game {number}: game {last} has no end, so no game can follow it",
                                  number=number, last=index)
            if game.end is not None and game.end.reason == ABORTED and (index or self.series):
                raise RecordError("game {number}: end: only the first game of a match can be aborted",
                                  number=number)
            before = self.games[index - 1].end if index else None
            if before is not None and before.reason == ABORTED:
                raise RecordError("game {number}: the match was aborted, so no game can follow it", number=number)
            if game.rolled is not None and (game.end is not None or self.series):
                raise RecordError("game {number}: rolled: only the game going on in a match has a roll "
                                  "still to play", number=number)
            expected = str(self.settings.variant(index))
            if game.variant != expected:
                raise RecordError("game {number}: the settings make this game {expected}, not {variant}",
                                  number=number, expected=expected, variant=game.variant)
            try:
                _check_opening(game)
                replayed = game.replay()
                _check_seed(game)
            except RecordError as e:
                turn = str(e).startswith("turn ")  # "game 2, turn 5: ..."
                raise RecordError("game {number}, {reason}" if turn else "game {number}: {reason}",
                                  number=number, reason=e) from None
            if game.end is not None and game.end.winner is not None:
                score[game.end.winner] += game.end.points
                if game.end.reason in MATCH_ENDINGS and (self.series or score[game.end.winner]
                                                          != self.settings.length):
                    raise RecordError("game {number}: end: a resigned match gives the winner the points still "
                                      "missing, not {points}", number=number, points=game.end.points)
            out.append(replayed)
        return out

    def to_match(self, roller: DiceRoller | None = None) -> Match:
        """The match as the record leaves it, ready to go on: every game played again through
        ``Match`` (its roll-offs, rolls, plays, resignations and claims), with any roll still to
        play; later dice come from ``roller`` (default: cryptographic dice). A match already won
        (or aborted) is returned over (``is_over``). RecordError for a series, which is not a match, and for a
        record whose games do not follow one another as a match plays them (who starts a game)."""
        if self.series:
            raise RecordError("a series of games is not a match: there is no match to go on with")
        self.check()
        replaying = _ReplayingRoller((die for game in self.games for roll in game.opening for die in roll),
                                     roller or DiceRoller())
        match = Match(self.settings, replaying)
        for number, game in enumerate(self.games, 1):
            if match.game.start.turn != game.first:
                raise RecordError("game {number}: first: the match makes {side} start it, not {first}",
                                  number=number, side=_side(match.game.start.turn), first=_side(game.first))
            playing = match.game  # a game that ends starts the next: match.game moves on
            for turn in game.turns:
                match.roll(turn.dice)
                match.play(turn.play or None)
            if game.end is not None and game.end.reason == ABORTED and playing.result is None:
                match.abort()
            elif game.end is not None and game.end.winner is not None and playing.result is None:
                match.concede(game.end.winner.other, game.end.reason, game.end.points)
            if game.rolled is not None:
                match.roll(game.rolled)
        return match


class _ReplayingRoller(DiceRoller):
    """The dice a record gives first (its roll-offs), then ``then``'s."""

    def __init__(self, dice: Iterable[int], then: DiceRoller) -> None:
        super().__init__(0)
        self._dice = deque(dice)
        self._then = then

    def start_game(self, index: int) -> None:
        self._then.start_game(index)

    def die(self) -> int:
        return self._dice.popleft() if self._dice else self._then.die()


def _line(error: BaseException) -> str:
    return str(error).splitlines()[0] if str(error) else type(error).__name__


def _side(color: Color) -> Reason:
    return Reason("White") if color == WHITE else Reason("Black")


def _end_words(end: GameEnd) -> Reason:
    if end.winner is None:
        return Reason("a tie")
    return Reason("{side} wins {points} point" if end.points == 1 else "{side} wins {points} points",
                  side=_side(end.winner), points=end.points)


def _check_opening(game: RecordedGame) -> None:
    for k, (white, black) in enumerate(game.opening, 1):
        last = k == len(game.opening)
        if not last and white != black:
            raise RecordError("opening: roll {number} ({white}-{black}) decided the start, so no roll may follow it",
                              number=k, white=white, black=black)
        if last and white == black:
            raise RecordError("opening: the last roll ({white}-{black}) is equal and decides nothing",
                              white=white, black=black)
    if game.opening:
        white, black = game.opening[-1]
        starter = WHITE if white > black else BLACK
        if starter != game.first:
            raise RecordError("opening: {starter} won the roll-off, but first is {first}",
                              starter=_side(starter), first=_side(game.first))


def _check_seed(game: RecordedGame) -> None:
    if game.seed is None:
        return
    if game.commitment is None:
        raise RecordError("seed: a seed needs the commitment published before the game")
    try:
        check_game(game.seed, game.commitment, game.dice())
    except TavliError as e:
        raise RecordError("seed: {reason}", reason=e) from None


# -- writing -----------------------------------------------------------------
def to_json(record: MatchRecord) -> dict[str, Any]:
    """The record as JSON values (what ``dumps`` writes)."""
    s = record.settings
    out: dict[str, Any] = {
        "format": FORMAT, "version": VERSION, "meta": dict(record.meta),
        "settings": {"length": 0 if record.series else s.length, "games": list(s.games),
                     "mother_pin": s.mother_pin, "prime_limits": s.prime_limits,
                     "prime_in_opponent_start": s.prime_in_opponent_start},
        "players": {color_name(c): {"kind": p.kind, "name": p.name} for c, p in sorted(record.players.items())},
        "games": [_game_json(g) for g in record.games]}
    return out


def _game_json(game: RecordedGame) -> dict[str, Any]:
    end = game.end
    return {
        "variant": game.variant, "first": color_name(game.first),
        "opening": [list(r) for r in game.opening],
        "commitment": game.commitment, "seed": game.seed,
        "turns": [{"color": color_name(t.color), "dice": list(t.dice), "play": t.play, "position": t.position}
                  for t in game.turns],
        "end": None if end is None else {"winner": None if end.winner is None else color_name(end.winner),
                                         "points": end.points, "reason": end.reason},
        **({} if game.rolled is None else {"rolled": list(game.rolled)})}


def dumps(record: MatchRecord) -> str:
    """The record as text: indented JSON with one line per turn, ending in a newline."""
    return _pretty(to_json(record), "") + "\n"


def _flat(value: object) -> bool:
    """Written on one line: holds no object, and no container holding a container."""
    if isinstance(value, dict):
        return all(not isinstance(v, dict | list) or (isinstance(v, list) and not any(
            isinstance(x, dict | list) for x in v)) for v in value.values())
    if isinstance(value, list):
        return all(not isinstance(v, dict) and (not isinstance(v, list) or _flat(v)) for v in value)
    return True


def _pretty(value: object, indent: str) -> str:
    if _flat(value) or not value:
        return json.dumps(value, ensure_ascii=False)
    inner = indent + "  "
    if isinstance(value, dict):
        items = [f"{inner}{json.dumps(k)}: {_pretty(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + f"\n{indent}}}"
    assert isinstance(value, list)
    return "[\n" + ",\n".join(inner + _pretty(v, inner) for v in value) + f"\n{indent}]"


def write(record: MatchRecord, path: str | Path) -> None:
    """Write the record to a file (UTF-8), whole or not at all: the file is replaced only once
    the new text is written, so a program stopped while writing leaves the last record."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        tmp.write_text(dumps(record), encoding="utf-8")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


# -- reading -----------------------------------------------------------------
_Where = Callable[[Reason], RecordError]
"""Puts a reason in its place in the record: ``RecordError`` alone for the whole record."""


class _Reader:
    """Typed access to JSON values that names where a fault is. ``what`` names a value: its
    field, or a reason (``each game``)."""

    def __init__(self, where: _Where = RecordError) -> None:
        self.where = where

    def fail(self, reason: Reason) -> RecordError:
        return self.where(reason)

    def fields(self, value: object, required: Sequence[str], optional: Sequence[str] = ()) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(Reason("expected a JSON object, not {kind}", kind=_kind(value)))
        for key in value:
            if key not in required and key not in optional:
                raise self.fail(Reason("unknown field {key!r}", key=key))
        for key in required:
            if key not in value:
                raise self.fail(Reason("missing field {key!r}", key=key))
        return value

    def of(self, value: object, kind: type, what: str | Reason) -> Any:
        if type(value) is not kind:  # bool is not an int here
            raise self.fail(Reason("{what} must be {wanted}, not {kind}", what=what, wanted=_TYPE_NAMES[kind],
                                   kind=_kind(value)))
        return value

    def color(self, value: object, what: str) -> Color:
        if not isinstance(value, str) or value not in _COLORS:
            raise self.fail(Reason("{what} must be \"white\" or \"black\", not {value}", what=what,
                                   value=json.dumps(value)))
        return _COLORS[value]

    def dice(self, value: object, what: str | Reason) -> tuple[int, int]:
        if (not isinstance(value, list) or len(value) != 2
                or not all(type(d) is int and 1 <= d <= 6 for d in value)):
            raise self.fail(Reason("{what} must be two numbers from 1 to 6 like [6, 2], not {value}", what=what,
                                   value=json.dumps(value)))
        return value[0], value[1]

    def hex64(self, value: object, what: str) -> str | None:
        if value is None:
            return None
        if not isinstance(value, str) or not _HEX64.fullmatch(value):
            raise self.fail(Reason("{what} must be 64 lowercase hex digits or null", what=what))
        return value

    def guard(self, make: Callable[[], Any]) -> Any:
        try:
            return make()
        except RecordError:
            raise
        except TavliError as e:
            raise self.fail(e.reason) from None
        except TypeError as e:  # Python's own words: they show as they are
            raise self.fail(Reason("{words}", words=_line(e))) from None


_TYPE_NAMES = {int: Reason("a whole number"), str: Reason("text"), bool: Reason("true or false"),
               list: Reason("a list"), dict: Reason("an object")}
_KINDS = {bool: Reason("true or false"), int: Reason("a number"), float: Reason("a number"), str: Reason("text"),
          list: Reason("a list"), dict: Reason("an object")}


def _kind(value: object) -> Reason | str:
    if value is None:
        return "null"
    return _KINDS.get(type(value), type(value).__name__)


def from_json(data: object) -> MatchRecord:
    """A record from JSON values, fully checked (see ``loads``)."""
    top = _Reader()
    if not isinstance(data, dict):
        raise RecordError("a match record is a JSON object, not {kind}", kind=_kind(data))
    if data.get("format") != FORMAT:
        raise RecordError("not a Tavli match record: \"format\" must be {format!r}", format=FORMAT)
    version = data.get("version")
    if version != VERSION:
        raise RecordError("version {version} is not supported: this Tavli reads version {supported}",
                          version=json.dumps(version), supported=VERSION)
    d = top.fields(data, ("format", "version", "settings", "players", "games"), ("meta",))
    meta = _read_meta(d.get("meta", {}))
    settings, series = _read_settings(d["settings"])
    players = _read_players(d["players"])
    games_value = top.of(d["games"], list, "games")
    games = [_read_game(g, k) for k, g in enumerate(games_value, 1)]
    record = MatchRecord(settings, players, games, meta, series)
    record.check()
    return record


def _read_meta(value: object) -> dict[str, str]:
    r = _Reader(lambda reason: RecordError("meta: {reason}", reason=reason))
    if not isinstance(value, dict):
        raise r.fail(Reason("expected a JSON object, not {kind}", kind=_kind(value)))
    for key, text in value.items():
        if not isinstance(text, str):
            raise r.fail(Reason("{key} must be text, not {kind}", key=key, kind=_kind(text)))
    return dict(value)


def _read_settings(value: object) -> tuple[MatchSettings, bool]:
    r = _Reader(lambda reason: RecordError("settings: {reason}", reason=reason))
    s = r.fields(value, ("length", "games"), ("mother_pin", "prime_limits", "prime_in_opponent_start"))
    length = r.of(s["length"], int, "length")
    if length < 0:
        raise r.fail(Reason("length must be 1 or more (0 for a series of games), not {length}", length=length))
    games = r.of(s["games"], list, "games")
    for name in games:
        r.of(name, str, Reason("each game"))
    mother_pin = r.of(s.get("mother_pin", "double"), str, "mother_pin")
    prime_limits = r.of(s.get("prime_limits", True), bool, "prime_limits")
    prime_start = r.of(s.get("prime_in_opponent_start", True), bool, "prime_in_opponent_start")
    settings = r.guard(lambda: MatchSettings(length=max(length, 1), games=tuple(games), mother_pin=mother_pin,
                                             prime_limits=prime_limits, prime_in_opponent_start=prime_start))
    return settings, length == 0


def _read_players(value: object) -> dict[Color, PlayerInfo]:
    r = _Reader(lambda reason: RecordError("players: {reason}", reason=reason))
    p = r.fields(value, ("white", "black"))
    out = {}
    for name, color in _COLORS.items():
        pr = _Reader(_player_where(color))
        info = pr.fields(p[name], ("kind", "name"))
        kind = pr.of(info["kind"], str, "kind")
        if kind not in KINDS:
            raise pr.fail(Reason("kind must be \"human\" or \"bot\", not {kind}", kind=json.dumps(kind)))
        out[color] = PlayerInfo(kind, pr.of(info["name"], str, "name"))
    return out


def _player_where(color: Color) -> _Where:
    if color == WHITE:
        return lambda reason: RecordError("players, white: {reason}", reason=reason)
    return lambda reason: RecordError("players, black: {reason}", reason=reason)


def _read_game(value: object, number: int) -> RecordedGame:
    r = _Reader(lambda reason: RecordError("game {number}: {reason}", number=number, reason=reason))
    g = r.fields(value, ("variant", "first", "turns", "end"), ("opening", "commitment", "seed", "rolled"))
    variant_text = r.of(g["variant"], str, "variant")
    first = r.color(g["first"], "first")
    opening = [r.dice(roll, Reason("each roll-off")) for roll in r.of(g.get("opening", []), list, "opening")]
    turns = [_read_turn(t, number, k) for k, t in enumerate(r.of(g["turns"], list, "turns"), 1)]
    r.guard(lambda: variant_from_string(variant_text))
    return RecordedGame(variant=variant_text, first=first, opening=opening,
                        commitment=r.hex64(g.get("commitment"), "commitment"), seed=r.hex64(g.get("seed"), "seed"),
                        turns=turns, end=_read_end(g["end"], number),
                        rolled=None if g.get("rolled") is None else Dice(*r.dice(g["rolled"], "rolled")))


def _read_turn(value: object, game: int, number: int) -> TurnRecord:
    r = _Reader(lambda reason: RecordError("game {game}, turn {number}: {reason}", game=game, number=number,
                                           reason=reason))
    t = r.fields(value, ("color", "dice", "play", "position"))
    return TurnRecord(r.color(t["color"], "color"), Dice(*r.dice(t["dice"], "dice")),
                      r.of(t["play"], str, "play").strip(), r.of(t["position"], str, "position"))


def _read_end(value: object, game: int) -> GameEnd | None:
    if value is None:
        return None
    r = _Reader(lambda reason: RecordError("game {game}, end: {reason}", game=game, reason=reason))
    e = r.fields(value, ("winner", "points", "reason"))
    winner = None if e["winner"] is None else r.color(e["winner"], "winner")
    points = r.of(e["points"], int, "points")
    if points < 0 or (winner is None) != (points == 0):
        raise r.fail(Reason("a tie is worth 0 points and a win 1 or more, not {points}", points=points))
    return GameEnd(winner, points, r.of(e["reason"], str, "reason"))


def loads(text: str | bytes) -> MatchRecord:
    """Read a record from text and check it: every play against the rules,
    every die against its seed, each game's end against its last position.
    RecordError (one line, naming where) if anything is wrong."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as e:  # JSONDecodeError, bad UTF-8
        raise RecordError("not JSON: {reason}", reason=_line(e)) from None
    return from_json(data)


def read(path: str | Path) -> MatchRecord:
    """Read a record file; RecordError naming the file if it cannot be read."""
    try:
        text = Path(path).read_bytes()
    except OSError as e:
        raise RecordError("cannot read {path}: {reason}", path=path, reason=e.strerror or e) from None
    return loads(text)
