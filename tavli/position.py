"""Positions, steps and plays: the value types of the library.

>>> from tavli import Position, Dice
>>> pos = Position.start("portes")
>>> plays = pos.legal_plays(Dice(6, 2))
>>> len(plays)
14
>>> after = pos.play(pos.parse_play("24/18 13/11", Dice(6, 2)))
>>> str(after)
'portes 2b....5w.3w..1w5b4w...3b1w5b....1w b 0:0 0:0'
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping, Sequence
from typing import NamedTuple, overload

import numpy as np

from tavli import _kernel as K
from tavli.dice import Dice
from tavli.errors import IllegalPlayError, PositionFormatError, Reason, TavliError
from tavli.gnubg_id import decode_position_id, encode_position_id
from tavli.notation import PASS as PASS
from tavli.notation import Play as Play
from tavli.notation import Step as Step
from tavli.notation import format_steps, parse_play
from tavli.position_text import PointView as PointView
from tavli.position_text import check_borne_off, format_position, parse_position
from tavli.variants import BLACK, WHITE, Color, Variant, make_variant

CHECKERS = 15
BAR = 25
OFF = 0


class GameResult(NamedTuple):
    """How a game ended: ``winner`` is None for a tie."""

    winner: Color | None
    points: int
    reason: str

    def __str__(self) -> str:
        return str(self.words())

    def words(self) -> Reason:
        """The result in words, as a ``Reason`` (``str(result)``): the reasons the library gives
        are templates of their own, a reason given by a caller (a claim) is filled in as it is.

        >>> GameResult(WHITE, 2, "double game: the loser bore off nothing").words().template
        'White wins {points} points ({reason})'
        """
        why = self.why()
        if self.winner is None and self.reason == "aborted":  # tavli.match.ABORTED: no game was played out
            return Reason("no result ({reason})", reason=why)
        if self.winner is None:
            return Reason("tie ({reason})", reason=why)
        if self.winner == WHITE:
            return Reason("White wins {points} point ({reason})" if self.points == 1
                          else "White wins {points} points ({reason})", points=self.points, reason=why)
        return Reason("Black wins {points} point ({reason})" if self.points == 1
                      else "Black wins {points} points ({reason})", points=self.points, reason=why)

    def why(self) -> Reason:
        """Why the game ended, as a ``Reason``: a reason given by a caller is its own template.

        >>> GameResult(None, 0, "both mothers pinned").why().words("el")
        'πλακώθηκαν και οι δύο μάνες'
        """
        return _RESULT_REASONS.get(self.reason) or Reason(self.reason)


_RESULT_REASONS = {
    "bore off all checkers": Reason("bore off all checkers"),
    "double game: the loser bore off nothing": Reason("double game: the loser bore off nothing"),
    "mother pinned": Reason("mother pinned"),
    "both mothers pinned": Reason("both mothers pinned"),
    "neither side can move": Reason("neither side can move"),
    "resigned": Reason("resigned"),
    "resigned the match": Reason("resigned the match"),
    "lost on time": Reason("lost on time"),
    "claimed: the opponent was absent": Reason("claimed: the opponent was absent"),
    "forfeited: did not come": Reason("forfeited: did not come"),
    "aborted": Reason("aborted"),
}
"""Why a game ended, for the reasons the library gives (``Position.result``, ``Match.resign``,
``tavli.match.CLAIMED``, ``tavli.match.ABORTED``)."""


class StepNode(NamedTuple):
    """A board on the way through a play (``LegalPlays.step_tree``): the steps on from it, each
    with the index of the node it leads to, and the index of the play it completes, if any."""

    next: tuple[tuple[Step, int], ...]
    play: int | None


@functools.cache
def _point_views() -> list[list[list[PointView]]]:
    """``views[white][black][pin]``: every point as ``Position.points`` shows it (White's frame),
    made once: a server shows a board after every play."""
    pins = {0: None, K.PIN_MINE: WHITE, K.PIN_THEIRS: BLACK}
    return [[[PointView(white, black, pins.get(pin)) for pin in range(max(pins) + 1)]
             for black in range(CHECKERS + 1)] for white in range(CHECKERS + 1)]


def generate_rows(state: np.ndarray, d1: int, d2: int, params: int) -> np.ndarray:
    """Run the kernel's generator (rows as in ``_kernel.generate``), growing the workspace if needed."""
    return K.with_workspace(lambda ws: K.generate(state, d1, d2, params, ws.states, ws.steps, ws.hashes, ws.ints))


def generate(state: np.ndarray, d1: int, d2: int, params: int) -> tuple[int, np.ndarray, np.ndarray]:
    """Legal plays as ``(count, result states, steps[count, 4, (from, to, hit)])``."""
    rows = generate_rows(state, d1, d2, params)
    return len(rows), rows[:, :K.STATE_SIZE], rows[:, K.STATE_SIZE:].reshape(len(rows), 4, 3)


class Position:
    """A position of one of the games with the side to move. Immutable.

    Points are numbered by each side from his own home (1..24; 25 is the bar,
    0 is off). Use ``Position.start``, ``Position.from_string``,
    ``Position.from_gnubg_id`` or ``Position.from_checkers`` to make one.
    """

    __slots__ = ("_key", "_state", "turn", "variant")

    variant: Variant
    turn: Color
    _state: np.ndarray
    _key: bytes | None

    def __init__(self, variant: Variant, turn: Color, state: np.ndarray) -> None:
        """Wrap a kernel state seen by ``turn``; prefer the named constructors."""
        self.variant = variant
        self.turn = Color(turn)
        self._state = state
        self._state.flags.writeable = False
        self._key: bytes | None = None

    # -- construction ---------------------------------------------------
    @classmethod
    def start(cls, variant: Variant | str, turn: Color = WHITE) -> Position:
        """The starting position of a game."""
        v = make_variant(variant)
        layout = dict(v.start_points)
        return cls.from_checkers(v, turn, layout, layout)

    @classmethod
    def from_checkers(cls, variant: Variant | str, turn: Color, white: Mapping[int, int],
                      black: Mapping[int, int], pinned: Mapping[int, Color] | None = None) -> Position:
        """Build and check a position.

        ``white`` and ``black`` map points in that side's own numbering
        (1..24, 25 = bar) to checker counts; the rest of the 15 are borne
        off. ``pinned`` maps a point in White's numbering to the colour of
        the lone checker pinned there (Plakoto).

        >>> Position.from_checkers("portes", WHITE, {1: 15}, {1: 15}).pip_count(WHITE)
        15
        """
        v = make_variant(variant)
        sides = {WHITE: dict(white), BLACK: dict(black)}
        s = np.zeros(K.STATE_SIZE, np.int8)
        for color, layout in sides.items():
            total = 0
            for point, count in layout.items():
                if not (isinstance(point, int) and 1 <= point <= 25):
                    raise TavliError("White has checkers on point {point!r}: points are 1 to 24, 25 is the bar"
                                     if color == WHITE else
                                     "Black has checkers on point {point!r}: points are 1 to 24, 25 is the bar",
                                     point=point)
                if point == BAR and not v.has_bar and count:
                    raise TavliError("plakoto has no bar" if v.name == "plakoto" else "fevga has no bar")
                if not isinstance(count, int) or count < 0:
                    raise TavliError("White has {count!r} checkers on point {point}" if color == WHITE
                                     else "Black has {count!r} checkers on point {point}",
                                     count=count, point=point)
                total += count
            if total > CHECKERS:
                raise TavliError("White has {count} checkers on the board: at most {most}" if color == WHITE
                                 else "Black has {count} checkers on the board: at most {most}",
                                 count=total, most=CHECKERS)
            layout[OFF] = CHECKERS - total
        # White's frame: White's own points, Black's checkers by White's numbering
        for point, count in sides[WHITE].items():
            s[point] = count
        for point, count in sides[BLACK].items():
            wp = point if point in (OFF, BAR) else v.other_numbering(point)
            s[K.OPP + wp] = count
        for wp in range(1, 25):
            if s[wp] and s[K.OPP + wp] and v.kernel_id != K.PLAKOTO:
                raise TavliError("both sides have checkers on White's point {point}", point=wp)
        for wp, color in (pinned or {}).items():
            if not (isinstance(wp, int) and 1 <= wp <= 24):
                raise TavliError("a pin must be on a point 1 to 24, not {point!r}", point=wp)
            if v.kernel_id != K.PLAKOTO:
                raise TavliError("portes has no pinned checkers" if v.name == "portes"
                                 else "fevga has no pinned checkers")
            mine, theirs = (s[wp], s[K.OPP + wp]) if color == WHITE else (s[K.OPP + wp], s[wp])
            if mine != 1 or theirs < 1:
                raise TavliError("the pinned White checker on White's point {point} must be alone "
                                 "under one or more opposing checkers" if color == WHITE else
                                 "the pinned Black checker on White's point {point} must be alone "
                                 "under one or more opposing checkers", point=wp)
            s[K.PIN + wp] = K.PIN_MINE if color == WHITE else K.PIN_THEIRS
        for wp in range(1, 25):
            if s[wp] and s[K.OPP + wp] and not s[K.PIN + wp]:
                raise TavliError("both sides have checkers on White's point {point}: say who is pinned there",
                                 point=wp)
        if turn == BLACK:
            s = K.flip(s, v.params)
        return cls(v, Color(turn), s)

    @classmethod
    def from_string(cls, text: str) -> Position:
        """Read the position string written by ``str(position)`` (see docs/formats.md)."""
        parsed = parse_position(text)
        try:
            result = cls.from_checkers(parsed.variant, parsed.turn, parsed.white, parsed.black, parsed.pinned)
        except PositionFormatError:
            raise
        except TavliError as e:
            raise PositionFormatError(e.reason) from None
        check_borne_off(parsed, result.borne_off(WHITE), result.borne_off(BLACK))
        return result

    @classmethod
    def from_gnubg_id(cls, position_id: str, turn: Color = WHITE) -> Position:
        """Read a GNU Backgammon Position ID (Portes); ``turn`` names the player on roll."""
        opponent, mover = decode_position_id(position_id)
        white, black = (mover, opponent) if turn == WHITE else (opponent, mover)
        try:
            return cls.from_checkers("portes", turn, white, black)
        except PositionFormatError:
            raise
        except ValueError as e:
            raise PositionFormatError("{text!r}: {reason}", text=position_id, reason=e) from None

    def gnubg_id(self) -> str:
        """The GNU Backgammon Position ID of a Portes position."""
        if self.variant.name != "portes":
            raise PositionFormatError("GNU Backgammon Position IDs exist for Portes only")
        return encode_position_id([self.checkers(self.turn.other, point) for point in range(1, 26)],
                                  [self.checkers(self.turn, point) for point in range(1, 26)])

    def __str__(self) -> str:
        return format_position(self)

    def __repr__(self) -> str:
        return f"Position.from_string({str(self)!r})"

    @property
    def key(self) -> bytes:
        """The kernel state as bytes: equal positions of one game have equal keys."""
        if self._key is None:
            self._key = self._state.tobytes()
        return self._key

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Position) and self.turn == other.turn and self.key == other.key
                and self.variant == other.variant)

    def __hash__(self) -> int:
        return hash((self.key, self.turn, self.variant))

    # -- reading ----------------------------------------------------------
    @property
    def state(self) -> np.ndarray:
        """The read-only kernel array, seen by the side to move (for engines)."""
        return self._state

    def _frame(self, color: Color) -> np.ndarray:
        return self._state if color == self.turn else K.flip(self._state, self.variant.params)

    def checkers(self, color: Color, point: int) -> int:
        """Checkers of ``color`` on his own point (0 = off, 25 = bar)."""
        return int(self._frame(color)[point])

    def borne_off(self, color: Color) -> int:
        return self.checkers(color, OFF)

    def on_bar(self, color: Color) -> int:
        return self.checkers(color, BAR)

    def point(self, white_point: int) -> PointView:
        """The checkers on a point given in White's numbering."""
        s = self._frame(WHITE)
        pin = int(s[K.PIN + white_point])
        pinned = None if not pin else (WHITE if pin == K.PIN_MINE else BLACK)
        return PointView(int(s[white_point]), int(s[K.OPP + white_point]), pinned)

    def points(self) -> list[PointView]:
        """What stands on each point, White's points 1 to 24 in order (``point`` for all at once).

        >>> Position.start("portes").points()[5]
        PointView(white=5, black=0, pinned=None)
        """
        s = self._frame(WHITE).tolist()
        views = _point_views()
        return [views[s[p]][s[K.OPP + p]][s[K.PIN + p]] for p in range(1, 25)]

    def is_pinned(self, color: Color, point: int) -> bool:
        """Is the checker of ``color`` on his own ``point`` pinned?"""
        return bool(self._frame(color)[K.PIN + point] == K.PIN_MINE)

    def pip_count(self, color: Color) -> int:
        """Pips ``color`` needs to bear off everything (the bar counts 25)."""
        s = self._frame(color).tolist()
        return sum(p * s[p] for p in range(1, 26))

    def layout(self, color: Color) -> dict[int, int]:
        """{own point: checkers} for ``color``, bar included, off left out."""
        s = self._frame(color)
        return {p: int(s[p]) for p in range(1, 26) if s[p]}

    # -- playing ----------------------------------------------------------
    def legal_plays(self, dice: Dice | tuple[int, int] | str) -> LegalPlays:
        """Every legal play of the roll, equal results merged.

        An empty result means the turn passes.
        """
        d = dice if type(dice) is Dice and 0 < dice[0] < 7 and 0 < dice[1] < 7 else Dice.of(dice)
        rows = generate_rows(self._state, d.first, d.second, self.variant.params)
        return LegalPlays(self, d, rows)

    def parse_play(self, text: str, dice: Dice | tuple[int, int] | str) -> Play:
        """Read move notation and check it against the legal plays."""
        return parse_play(self, text, Dice.of(dice))

    def play(self, play: Play | str, dice: Dice | tuple[int, int] | str | None = None) -> Position:
        """The position after ``play``, with the other side to move.

        The play is checked: it must be legal for ``dice`` if given (needed
        for notation), else for the dice its steps use.
        """
        if isinstance(play, str):
            if dice is None:
                raise TavliError("dice are needed to read a play written in notation")
            play = self.parse_play(play, dice)
        if dice is None:
            dice = self._dice_of(play)
        legal = self.legal_plays(dice)
        return legal.after(legal.index(play))

    def _dice_of(self, play: Play) -> Dice:
        if play.is_pass:
            raise TavliError("dice are needed to check a pass")
        values = sorted({abs(st.src - st.dst) for st in play.steps if st.dst != OFF})
        if len(play.steps) >= 3 and len(values) <= 1 and values:
            return Dice(values[0], values[0])
        if len(play.steps) == 2 and len(values) == 2:
            return Dice(values[1], values[0])
        raise TavliError("cannot tell the dice of {play}: give them", play=play)

    def replay(self, steps: Sequence[Step]) -> tuple[list[Step], np.ndarray] | None:
        """Play single steps die by die with the rules of each die; None if one is not legal.

        Returns the steps with their hits worked out, and the resulting kernel state.
        """
        s = self._state.copy()
        buf = np.empty((16, 2), np.int64)
        out = []
        for st in steps:
            die = st.src - st.dst if st.dst != OFF else None
            if die is not None and not 1 <= die <= 6:
                return None  # a step is one die's move
            found = False
            for d in range(1, 7) if die is None else (die,):
                n = K.die_steps(s, d, self.variant.params, buf)
                if any(buf[k, 0] == st.src and buf[k, 1] == st.dst for k in range(n)):
                    found = True
                    break
            if not found:
                return None
            _, hit = K.apply_step(s, st.src, st.dst, self.variant.kernel_id, np.uint64(0))
            out.append(Step(st.src, st.dst, bool(hit)))
        return out, s

    def pass_turn(self) -> Position:
        """The same board with the other side to move."""
        return Position(self.variant, self.turn.other, K.flip(self._state, self.variant.params))

    def result(self) -> GameResult | None:
        """Whether the game is over in this position: None while it goes on."""
        code = int(K.outcome(self._state, self.variant.params))
        if code == K.ONGOING:
            return None
        if code == K.TIE:
            if self.variant.kernel_id == K.PLAKOTO and self._both_mothers_pinned():
                return GameResult(None, 0, "both mothers pinned")
            return GameResult(None, 0, "neither side can move")
        winner = self.turn if code > 0 else self.turn.other
        points = abs(code)
        return GameResult(winner, points, self._reason(winner, points))

    def _both_mothers_pinned(self) -> bool:
        s = self._state
        return bool(s[24] == 1 and s[K.PIN + 24] == K.PIN_MINE
                    and s[K.OPP + 1] == 1 and s[K.PIN + 1] == K.PIN_THEIRS)

    def _reason(self, winner: Color, points: int) -> str:
        if self.borne_off(winner) == CHECKERS:
            return "double game: the loser bore off nothing" if points == 2 else "bore off all checkers"
        return "mother pinned"


_STEP_SHIFTS = np.arange(12, dtype=np.int64) * 5
"""A generated play's 12 step numbers (``(src, dst, hit)`` four times, each under 32) packed in one int."""


@functools.lru_cache(maxsize=1 << 17)
def _notation_of_steps(key: int) -> str | None:
    """The notation of a generated play's steps (packed by ``_STEP_SHIFTS``), or None where it
    depends on the position: a checker's later step was found first, and whether its steps may
    be put in order is the rules' to say (``LegalPlays._checker_order``). The same steps recur
    over and over (the same few plays of 6-5 from many positions): they are written once."""
    row = [(key >> shift) & 31 for shift in range(0, 60, 5)]
    steps = [Step(row[k], row[k + 1], row[k + 2] == 1) for k in range(0, 12, 3) if row[k] or row[k + 1]]
    if any(steps[j].dst == steps[k].src for k in range(len(steps)) for j in range(k + 1, len(steps))):
        return None
    return format_steps(steps)


class LegalPlays(Sequence[Play]):
    """The legal plays of one roll in one position, with their results."""

    __slots__ = ("_given", "_index", "_n", "_rows", "dice", "position")

    def __init__(self, position: Position, dice: Dice, rows: np.ndarray) -> None:
        self.position = position
        self.dice = dice
        self._rows = rows
        self._n = len(rows)
        self._index: dict[bytes, int] | None = None
        self._given: dict[Play, int] = {}  # plays handed out, so index() finds them at once

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, i: int) -> Play: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[Play]: ...

    def __getitem__(self, i: int | slice) -> Play | Sequence[Play]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(self._n))]
        if not -self._n <= i < self._n:
            raise IndexError(i)
        i %= self._n
        row = self._rows[i, K.STATE_SIZE:].tolist()
        steps = [Step(row[k], row[k + 1], bool(row[k + 2])) for k in range(0, 12, 3) if row[k] or row[k + 1]]
        play = Play(self._checker_order(steps, self._rows[i, :K.STATE_SIZE]))
        self._given[play] = i
        return play

    def _checker_order(self, steps: list[Step], result: np.ndarray) -> tuple[Step, ...]:
        """The steps with a checker's moves in the order it makes them, where the rules allow.

        The generator may find 9/3 then 13/9 first; 13/9 then 9/3 (written
        13/3) reaches the same position and is kept if it is legal die by
        die (in Fevga it may not be, before the lead checker has passed).
        """
        for _ in range(len(steps)):
            swap = next(((i, j) for i in range(len(steps)) for j in range(i + 1, len(steps))
                         if steps[j].dst == steps[i].src and steps[i].src != OFF), None)
            if swap is None:
                break
            i, j = swap
            reordered = [*steps[:i], steps[j], *steps[i:j], *steps[j + 1:]]
            replayed = self.position.replay(reordered)
            if replayed is None or not np.array_equal(replayed[1], result):
                break
            steps = replayed[0]
        return tuple(steps)

    def __iter__(self) -> Iterator[Play]:
        return (self[k] for k in range(self._n))

    def notations(self) -> list[str]:
        """Every play in standard notation, in order: ``[str(play) for play in self]``, made
        without building the plays (a server lists them for every roll).

        >>> from tavli import Position
        >>> Position.start("portes").legal_plays("6-6").notations()[:3]
        ['24/18(2) 13/7(2)', '24/18(2) 13/7 8/2', '24/18(2) 8/2(2)']
        """
        packed = (self._rows[:, K.STATE_SIZE:K.STATE_SIZE + 12].astype(np.int64) << _STEP_SHIFTS).sum(axis=1)
        out = []
        for i, key in enumerate(packed.tolist()):
            text = _notation_of_steps(key)
            out.append(str(self[i]) if text is None else text)
        return out

    @property
    def results(self) -> np.ndarray:
        """Kernel states after each play, still seen by the mover (read-only view)."""
        view = self._rows[:, :K.STATE_SIZE]
        view.flags.writeable = False
        return view

    def after(self, i: int) -> Position:
        """The position after play ``i``, the other side to move."""
        if self._n == 0 and i == 0:
            return self.position.pass_turn()
        p = self.position
        return Position(p.variant, p.turn.other, K.flip(self._rows[i, :K.STATE_SIZE], p.variant.params))

    def positions(self) -> list[Position]:
        """Every resulting position, in the order of the plays."""
        return [self.after(i) for i in range(self._n)] if self._n else [self.position.pass_turn()]

    def find_result(self, state: np.ndarray) -> int:
        """Index of the play whose result (mover's view) is ``state``, or -1."""
        if self._index is None:
            self._index = {self._rows[k, :K.STATE_SIZE].tobytes(): k for k in range(self._n)}
        return self._index.get(state.tobytes(), -1)

    def step_tree(self) -> list[StepNode]:
        """Every way to make the legal plays one die at a time, as a graph a board can walk.

        Node 0 is the position before the first step; each node lists the legal steps on from
        it and the node each leads to, and says which play it completes, if any. Different
        orders (and different routes: 13/7/6 or 13/12/6 with 6-1) that reach the same board
        with the same dice left meet in one node, so the graph stays small even for a double
        with hundreds of plays. Only steps that lead on to a legal play are listed.

        >>> from tavli import Position
        >>> tree = Position.start("portes").legal_plays("6-5").step_tree()
        >>> sorted(str(step) for step, _ in tree[0].next)
        ['13/7', '13/8', '24/18', '8/2', '8/3']
        """
        nodes, edges = self.step_graph()
        rows = edges.tolist()
        return [StepNode(tuple((Step(src, dst, bool(hit)), child) for src, dst, hit, child in rows[first:first + n]),
                         None if play < 0 else play) for play, first, n in nodes.tolist()]

    def step_graph(self) -> tuple[np.ndarray, np.ndarray]:
        """``step_tree`` as two arrays, as the compiled kernel finds it: per node (start first)
        ``(play or -1, first edge, edge count)``, per edge ``(from, to, hit, node)`` in the mover's
        numbering. A server sends the graph with every roll: this is its fast path.

        >>> from tavli import Position
        >>> nodes, edges = Position.start("portes").legal_plays("2-1").step_graph()
        >>> play, first, count = nodes[0].tolist()
        >>> play, count, edges[first].tolist()
        (-1, 7, [24, 22, 0, 18])
        """
        if self._n == 0:
            return np.array([[-1, 0, 0]], np.int64), np.empty((0, K.STEP_EDGE), np.int64)
        d1, d2 = self.dice
        steps = self._rows[:, K.STATE_SIZE:K.STATE_SIZE + 12].reshape(self._n, 4, 3)
        lengths = ((steps[:, :, 0] != 0) | (steps[:, :, 1] != 0)).sum(axis=1).astype(np.int64)
        results = np.ascontiguousarray(self._rows[:, :K.STATE_SIZE])
        capacity = 1024 if d1 == d2 else 128
        while True:
            nodes = np.empty((capacity, 3), np.int64)
            edges = np.empty((8 * capacity, K.STEP_EDGE), np.int64)
            count, edge_count = K.step_graph(self.position._state, d1, d2, self.position.variant.params,
                                             results, lengths, capacity, edges, nodes)
            if count >= 0:
                break
            capacity *= 4
        # children were numbered before their parents: the start (the last) becomes node 0
        nodes, edges = nodes[count - 1::-1].copy(), edges[:edge_count].copy()
        edges[:, 3] = count - 1 - edges[:, 3]
        return nodes, edges

    def index(self, play: object, start: int = 0, stop: int | None = None) -> int:
        """Index of the legal play with the same result as ``play``; IllegalPlayError if none."""
        if not isinstance(play, Play):
            raise TypeError("expected a Play")
        if self._n == 0:
            if play.is_pass:
                return 0
            raise IllegalPlayError("no play is possible with {dice}: the turn passes", dice=self.dice)
        if play.is_pass:
            raise IllegalPlayError("you cannot pass: {count} legal plays with {dice}", count=self._n, dice=self.dice)
        k = self._given.get(play, -1)
        if k >= 0:
            return k
        replayed = self.position.replay(play.steps)
        k = self.find_result(replayed[1]) if replayed is not None else -1
        if k < 0:
            raise IllegalPlayError("{play} is not a legal play with {dice}", play=play, dice=self.dice)
        return k

    def is_listed(self, play: Play, i: int) -> bool:
        """Is ``play`` the very play this list gives at index ``i``?"""
        return self._given.get(play, -1) == i

    def __contains__(self, play: object) -> bool:
        try:
            self.index(play)
        except (IllegalPlayError, TypeError):
            return False
        return True
