"""Move notation in the backgammon convention, from the mover's side.

Written: ``24/18 13/11``, ``13/7(2)``, ``8/4*/2`` (``*`` marks a hit in
Portes, a pin in Plakoto), ``bar/22``, ``6/off``. Read: the same, with ``-``
for ``/``, ``b``/``o`` for bar/off, ``25``/``0``, commas, the steps in any
order, and the whole path or only its ends (``24/13``).

>>> from tavli import Position, Dice
>>> pos = Position.start("portes")
>>> str(pos.parse_play("13-11 24-18", "62"))
'24/18 13/11'
>>> str(pos.parse_play("6/1", Dice(5, 1)))
Traceback (most recent call last):
...
tavli.errors.IllegalPlayError: 6/1 is blocked
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple, Protocol

import numpy as np

from tavli import _kernel as K
from tavli.dice import Dice
from tavli.errors import AmbiguousPlayError, IllegalPlayError, NotationError, Reason
from tavli.variants import Variant


class Step(NamedTuple):
    """One die's move of one checker, in the mover's numbering (25 = bar, 0 = off)."""

    src: int
    dst: int
    hit: bool = False
    """Portes: hit a blot. Plakoto: pinned a lone checker."""

    def __str__(self) -> str:
        return format_steps((self,))


@dataclass(frozen=True)
class Play:
    """A whole turn: the steps in the order played (empty when the turn passes).

    ``str(play)`` is standard notation such as ``13/7*/5 6/5``.
    """

    steps: tuple[Step, ...]

    def __str__(self) -> str:
        return format_steps(self.steps)

    def __len__(self) -> int:
        return len(self.steps)

    @property
    def is_pass(self) -> bool:
        return not self.steps


PASS = Play(())
"""The play of a turn that passes."""


class LegalList(Protocol):
    """What reading a play needs of a roll's legal plays (``tavli.position.LegalPlays``)."""

    def __len__(self) -> int: ...

    def __getitem__(self, i: int) -> Play: ...

    def __iter__(self) -> Iterator[Play]: ...

    def find_result(self, state: np.ndarray) -> int: ...


class Board(Protocol):
    """What reading a play needs of a position (``tavli.position.Position``): notation does not
    import the positions, which write and read plays through it."""

    @property
    def variant(self) -> Variant: ...

    @property
    def state(self) -> np.ndarray: ...

    def legal_plays(self, dice: Dice) -> LegalList: ...


PASS_WORDS = frozenset({"", "-", "pass", "none", "no move", "nomove", "cannot move"})


def point_name(p: int) -> str:
    return "bar" if p == 25 else "off" if p == 0 else str(p)


def format_steps(steps: Iterable[Step]) -> str:
    """Standard notation of steps: one checker's steps chained, equal moves counted."""
    chains: list[list[tuple[int, bool]]] = []  # [(point, hit on landing)], first = source
    for st in steps:
        for chain in chains:
            if chain[-1][0] == st.src and st.src != 0:
                chain.append((st.dst, st.hit))
                break
        else:
            chains.append([(st.src, False), (st.dst, st.hit)])
    texts = []
    for chain in sorted(chains, key=lambda c: (-c[0][0], -c[-1][0])):
        parts = [point_name(chain[0][0])]
        for point, hit in chain[1:-1]:
            if hit:
                parts.append(f"{point}*")
        last, hit = chain[-1]
        parts.append(point_name(last) + ("*" if hit else ""))
        texts.append("/".join(parts))
    counts: dict[str, int] = {}  # a plain dict: this runs for every legal play of every roll
    for text in texts:
        counts[text] = counts.get(text, 0) + 1
    out: list[str] = []
    for text in texts:
        if text in counts:
            n = counts.pop(text)
            out.append(f"{text}({n})" if n > 1 else text)
    return " ".join(out)


@dataclass(frozen=True)
class Movement:
    """One checker's path as written: points from source to destination."""

    points: tuple[int, ...]
    hits: tuple[bool, ...]
    """For each point after the source: must the checker hit or pin there?"""

    def __str__(self) -> str:
        return "/".join(point_name(p) + ("*" if h else "")
                        for p, h in zip(self.points, (False, *self.hits), strict=True))


_POINT = r"(?:bar|off|b|o|\d{1,2})\*?"
_TOKEN = re.compile(rf"({_POINT}(?:[/-]{_POINT})+)(?:\((\d)\))?")


def _point_value(text: str, token: str) -> int:
    t = text.rstrip("*")
    if t in ("bar", "b"):
        return 25
    if t in ("off", "o"):
        return 0
    value = int(t)
    if not 0 <= value <= 25:
        raise NotationError("{token}: there is no point {point}", token=token, point=value)
    return value


def parse_movements(text: str) -> list[Movement]:
    """Read notation into movements; raise NotationError if it cannot be read."""
    clean = text.strip().lower()
    if clean in PASS_WORDS:
        return []
    movements: list[Movement] = []
    for token in re.split(r"[\s,]+", clean):
        if not token:
            continue
        m = _TOKEN.fullmatch(token)
        if not m:
            raise NotationError("cannot read {token!r}: write moves like 24/18, 13/7(2), bar/22 or 6/off",
                                token=token)
        parts = re.split(r"[/-]", m.group(1))
        points = tuple(_point_value(p, token) for p in parts)
        hits = tuple(p.endswith("*") for p in parts[1:])
        for a, b in itertools.pairwise(points):
            if a == 0:
                raise NotationError("{token}: a checker borne off cannot move again", token=token)
            if b == 25:
                raise NotationError("{token}: a checker cannot move to the bar", token=token)
            if b != 0 and b >= a:
                raise NotationError("{token}: checkers move from higher to lower points", token=token)
        repeat = int(m.group(2) or 1)
        if not 1 <= repeat <= 4:
            raise NotationError("{token}: a move can be repeated 1 to 4 times", token=token)
        movements.extend([Movement(points, hits)] * repeat)
    return movements


def _single_steps(state: np.ndarray, die: int, params: int) -> list[tuple[int, int]]:
    buf = np.empty((16, 2), np.int64)
    n = K.die_steps(state, die, params, buf)
    return [(int(buf[i, 0]), int(buf[i, 1])) for i in range(n)]


def realize(pos: Board, dice: Dice, movements: Sequence[Movement]) -> dict[bytes, tuple[Step, ...]]:
    """Every way to play the movements die by die: {result state: steps}.

    Each die is checked by the rules of the game; the whole-turn rules
    (most dice, higher die, Fevga's prime limits) are not.
    """
    params = pos.variant.params
    variant = pos.variant.kernel_id
    found: dict[bytes, tuple[Step, ...]] = {}
    seen: set[tuple[bytes, tuple[int, ...], tuple[tuple[int, int], ...]]] = set()
    # pending: (movement index, index of the next point to reach, current point)
    start = tuple((i, 1, mv.points[0]) for i, mv in enumerate(movements))

    def search(state: np.ndarray, left: tuple[int, ...], pending: tuple[tuple[int, int, int], ...],
               steps: tuple[Step, ...]) -> None:
        if not pending:
            result = state.tobytes()
            # keep the way with the fewest hits: it tells whether the
            # result can be reached hitting only where the text says
            if result not in found or _hits(steps) < _hits(found[result]):
                found[result] = steps
            return
        key = (state.tobytes(), left, tuple(sorted((i, j) for i, j, _ in pending)))
        if key in seen:
            return
        seen.add(key)
        for slot, (i, j, cur) in enumerate(pending):
            target = movements[i].points[j]
            for die in sorted(set(left), reverse=True):
                for src, dst in _single_steps(state, die, params):
                    if src != cur:
                        continue
                    if target != 0 and (dst == 0 or dst < target):
                        continue
                    child = state.copy()
                    _, hit = K.apply_step(child, src, dst, variant, np.uint64(0))
                    nj = j
                    if dst == target:
                        if movements[i].hits[j - 1] and not hit:
                            continue
                        nj = j + 1
                    rest = list(left)
                    rest.remove(die)
                    moved = list(pending)
                    if nj == len(movements[i].points):
                        del moved[slot]
                    else:
                        moved[slot] = (i, nj, dst)
                    search(child, tuple(rest), tuple(moved), (*steps, Step(src, dst, bool(hit))))

    search(pos.state.copy(), dice.moves, start, ())
    return found


def parse_play(pos: Board, text: str, dice: Dice) -> Play:
    """The legal play that ``text`` describes; IllegalPlayError says why not."""
    movements = parse_movements(text)
    legal = pos.legal_plays(dice)
    if not movements:
        if len(legal) == 0:
            return PASS
        if len(legal) == 1:
            raise IllegalPlayError("you cannot pass: there is 1 legal play with {dice}", dice=dice)
        raise IllegalPlayError("you cannot pass: there are {count} legal plays with {dice}",
                               count=len(legal), dice=dice)
    realized = realize(pos, dice, movements)
    matches: dict[int, int] = {}  # legal play -> fewest hits of a way to reach it
    for state, steps in realized.items():
        k = legal.find_result(np.frombuffer(state, np.int8))
        if k >= 0:
            matches[k] = min(_hits(steps), matches.get(k, 99))
    if len(matches) > 1:
        # Hits are marked with '*': a path written without marks means no
        # hit there, so '13/5' is the play around a blot, '13/7*/5' the hit.
        marked = sum(sum(m.hits) for m in movements)
        exact = [k for k, hits in matches.items() if hits == marked]
        if len(exact) == 1:
            return legal[exact[0]]
        options = [legal[k] for k in sorted(matches)[:3]]
        if len(options) == 2:
            raise AmbiguousPlayError("{text} is ambiguous: it could be {first} or {second}",
                                     text=text.strip(), first=options[0], second=options[1])
        raise AmbiguousPlayError("{text} is ambiguous: it could be {first} or {second} or {third}",
                                 text=text.strip(), first=options[0], second=options[1], third=options[2])
    if len(matches) == 1:
        return legal[next(iter(matches))]
    raise IllegalPlayError(explain(pos, dice, movements, realized, len(legal)))


def explain(pos: Board, dice: Dice, movements: Sequence[Movement],
            realized: dict[bytes, tuple[Step, ...]], n_legal: int) -> Reason:
    """Why the movements are not a legal play, in a player's words."""
    written = " ".join(str(m) for m in movements)
    if n_legal == 0:
        return Reason("no play is possible with {dice}: the turn passes", dice=dice)
    if realized:
        return _explain_turn(pos, dice, realized)
    if len(movements) > len(dice.moves):
        return Reason("{play} moves {count} checkers: the dice {dice} give {moves} moves",
                      play=written, count=len(movements), dice=dice, moves=len(dice.moves))
    for mv in movements:
        reason = _explain_movement(pos, dice, mv)
        if reason:
            return reason
    return Reason("{play} cannot be played with {dice}", play=written, dice=dice)


def _explain_turn(pos: Board, dice: Dice, realized: dict[bytes, tuple[Step, ...]]) -> Reason:
    legal = pos.legal_plays(dice)
    most = max(len(p) for p in legal)
    used = max(len(steps) for steps in realized.values())
    if used < most:
        if most == 2 and not dice.is_double:
            return Reason("you must use both dice")
        return Reason("you must play {most} of your {moves} moves: as many as the position allows",
                      most=most, moves=len(dice.moves))
    if most == 1 and not dice.is_double:
        return Reason("you must play the higher die ({die})", die=dice.high)
    if pos.variant.name == "fevga":
        state = np.frombuffer(next(iter(realized)), np.int8)
        return _explain_prime(state, pos.variant.params)
    return Reason("that play is not legal with {dice}", dice=dice)


def _explain_prime(s: np.ndarray, params: int) -> Reason:
    if all(s[p] for p in range(19, 25)):
        return Reason("you may not hold all six points of your starting table (19 to 24)")
    if (params >> 5) & 1 and all(s[p] for p in range(7, 13)):
        return Reason("you may not hold all six points of your opponent's starting table (7 to 12)")
    return Reason("you may not trap all your opponent's checkers behind six points: break the block")


def _explain_movement(pos: Board, dice: Dice, mv: Movement) -> Reason | None:
    s = pos.state
    variant = pos.variant
    src = mv.points[0]
    if src == 25 and (not variant.has_bar or s[25] == 0):
        return Reason("you have no checker on the bar")
    if variant.has_bar and s[25] > 0 and src != 25:
        return Reason("you must enter your checkers from the bar first")
    if src != 25 and s[src] == 0:
        return Reason("you have no checker on point {point}", point=src)
    if variant.kernel_id == K.PLAKOTO and s[K.PIN + src] == K.PIN_MINE:
        return Reason("your checker on {point} is pinned", point=src)
    if variant.kernel_id == K.FEVGA and src == 24:
        passed = s[0] > 0 or any(s[p] for p in range(1, 12))
        if not passed and any(s[p] for p in range(12, 24)):
            return Reason("your first checker must pass 12 first")
    sums = _reachable_sums(dice)
    for a, b in itertools.pairwise(mv.points):
        hop = f"{point_name(a)}/{point_name(b)}"
        if b == 0:
            if any(s[p] for p in range(7, 26)):
                return Reason("you cannot bear off until all your checkers are in your home table")
            if not any(d >= a for d in sums):
                if a == 1:
                    return Reason("{hop} needs 1 pip: the dice {dice} do not give that", hop=hop, dice=dice)
                return Reason("{hop} needs {pips} pips: the dice {dice} do not give that",
                              hop=hop, pips=a, dice=dice)
            if not any(d == a for d in sums) and any(s[p] for p in range(a + 1, 7)):
                return Reason("you cannot bear off from {point} with a higher die while you have "
                              "checkers on higher points", point=a)
            continue
        distance = a - b
        if distance not in sums:
            if distance == 1:
                return Reason("{hop} is 1 pip: the dice {dice} do not make that", hop=hop, dice=dice)
            return Reason("{hop} is {pips} pips: the dice {dice} do not make that",
                          hop=hop, pips=distance, dice=dice)
        if not bool(K.is_open(s, b, variant.kernel_id)):
            return Reason("{hop} is blocked", hop=hop)
    return None


def _reachable_sums(dice: Dice) -> set[int]:
    if dice.is_double:
        return {dice.first * k for k in range(1, 5)}
    return {dice.first, dice.second, dice.first + dice.second}


def _hits(steps: Sequence[Step]) -> int:
    return sum(st.hit for st in steps)
