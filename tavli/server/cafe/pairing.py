"""The pairing of the café's tournaments, pure logic: knockout brackets (seeded or drawn by lot, byes to
the top seeds, a consolation bracket), Swiss rounds (networkx's maximum-weight matching, score group by
score group), round-robin schedules and groups, and the arena's pairs and streak scoring; the standings
with their tie-breaks. Every ``Pairing`` carries its ``why``, a small JSON-ready dict naming the rule
that made it (docs/tournaments.md, "Pairing").

>>> players = [Entrant("ann", 1700), Entrant("bob", 1600), Entrant("cy", 1500)]
>>> [(p.white, p.black) for p in knockout_first_round(players)]
[('ann', None), ('bob', 'cy')]
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import networkx as nx

from tavli.errors import TavliError

Why = dict[str, Any]
"""Why a pair was made: ``{"rule": ..., ...}``, JSON-ready."""

MOST_PLAYERS = 1024
"""The most players a knockout or a Swiss takes."""
MOST_ROUND_ROBIN = 12
"""The most players of one round-robin (or of one of its groups)."""
BYE_POINTS = 1
"""A Swiss bye's worth, the same as a win."""


class PairingError(TavliError):
    """Players or rounds a pairing cannot be made from: too few or too many players, a name twice, a
    result that is not there yet.

    >>> str(PairingError("two players are called {name}", name="ann"))
    'two players are called ann'
    """


@dataclass(frozen=True)
class Entrant:
    """A player of a tournament: a name and the rating he brings.

    >>> Entrant("ann", 1650.5).rating
    1650.5
    """

    name: str
    rating: float


@dataclass(frozen=True)
class Pairing:
    """One pair of a round: ``white`` against ``black`` (``None``: a bye), the ``winner`` once known (a
    bye's is its player), and ``why`` the pair was made.

    >>> Pairing("ann", None, "ann", {"rule": "bye"}).is_bye
    True
    """

    white: str
    black: str | None
    winner: str | None = None
    why: Why = field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self) -> None:
        if self.winner is not None and self.winner not in (self.white, self.black):
            raise PairingError("the winner {name} did not play {white} against {black}",
                               name=self.winner, white=self.white, black=self.black)

    @property
    def is_bye(self) -> bool:
        return self.black is None

    @property
    def loser(self) -> str | None:
        """The one who lost, once known (a bye has none)."""
        if self.winner is None or self.black is None:
            return None
        return self.black if self.winner == self.white else self.white

    def won(self, winner: str) -> Pairing:
        """The same pairing with its winner."""
        return Pairing(self.white, self.black, winner, self.why)


Round = Sequence[Pairing]


def _checked(players: Sequence[Entrant], least: int, most: int) -> list[Entrant]:
    """The players, checked: their count within the format's, no name twice."""
    if not least <= len(players) <= most:
        raise PairingError("this tournament takes {least} to {most} players, not {count}",
                           least=least, most=most, count=len(players))
    seen: set[str] = set()
    for p in players:
        if p.name in seen:
            raise PairingError("two players are called {name}", name=p.name)
        seen.add(p.name)
    return list(players)


def _by_rating(players: Sequence[Entrant]) -> list[Entrant]:
    return sorted(players, key=lambda p: (-p.rating, p.name))


# -- knockout ---------------------------------------------------------------------------------------


def bracket_order(size: int) -> list[int]:
    """The seeds (from 1) in the order they stand in a bracket of ``size`` (a power of two), so that
    seeds 1 and 2 meet at the earliest in the final, 1 to 4 in the semi-finals, and so on.

    >>> bracket_order(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for s in order for seed in (s, total - s)]
    return order


def knockout_first_round(players: Sequence[Entrant], rng: random.Random | None = None) -> list[Pairing]:
    """The first round of a knockout: seeded by rating (1 against N, 2 against N-1, in bracket order),
    or, given ``rng``, seeded by lot. When the count is not a power of two the top seeds get the byes.

    >>> ps = [Entrant(n, r) for n, r in [("a", 1900), ("b", 1800), ("c", 1700), ("d", 1600)]]
    >>> [(p.white, p.black, p.why["seeds"]) for p in knockout_first_round(ps)]
    [('a', 'd', [1, 4]), ('b', 'c', [2, 3])]
    """
    seeded = _by_rating(_checked(players, 2, MOST_PLAYERS))
    if rng is not None:
        rng.shuffle(seeded)
    rule = "seed" if rng is None else "lot"
    size = 1 << (len(seeded) - 1).bit_length()
    order = bracket_order(size)
    out = []
    for top, low in zip(order[::2], order[1::2], strict=True):
        first = seeded[top - 1].name
        if low > len(seeded):
            out.append(Pairing(first, None, first, {"rule": "bye", "seed": top}))
        else:
            out.append(Pairing(first, seeded[low - 1].name, None, {"rule": rule, "seeds": [top, low]}))
    return out


def _finished(round_: Round) -> None:
    for p in round_:
        if p.winner is None:
            raise PairingError("the round is not over: {white} against {black} has no winner",
                               white=p.white, black=p.black)


def knockout_next_round(previous: Round) -> list[Pairing]:
    """The next round of a knockout bracket: the winners of the previous round, two pairings' winners
    at a time in bracket order. Empty after the final.

    >>> final = knockout_next_round([Pairing("a", "d", "a"), Pairing("b", "c", "c")])
    >>> [(p.white, p.black, p.why) for p in final]
    [('a', 'c', {'rule': 'bracket', 'from': [1, 2]})]
    >>> knockout_next_round([p.won("c") for p in final])
    []
    """
    _finished(previous)
    winners = [p.winner for p in previous if p.winner is not None]
    if len(winners) < 2:
        return []
    return [Pairing(winners[k], winners[k + 1], None, {"rule": "bracket", "from": [k + 1, k + 2]})
            for k in range(0, len(winners) - 1, 2)]


def consolation_first_round(players: Sequence[Entrant], first_round: Round) -> list[Pairing]:
    """The first round of the consolation bracket: the first round's losers (not the byes), in a
    knockout of their own seeded by rating. Empty when fewer than two lost.

    >>> ps = [Entrant(n, r) for n, r in [("a", 1900), ("b", 1800), ("c", 1700), ("d", 1600)]]
    >>> first = [p.won(p.white) for p in knockout_first_round(ps)]
    >>> [(p.white, p.black, p.why["rule"]) for p in consolation_first_round(ps, first)]
    [('c', 'd', 'consolation')]
    """
    _finished(first_round)
    losers = {p.loser for p in first_round if p.loser is not None}
    entrants = [p for p in players if p.name in losers]
    if len(entrants) < 2:
        return []
    return [Pairing(p.white, p.black, p.winner, {**p.why, "rule": "consolation" if p.black else "bye"})
            for p in knockout_first_round(entrants)]


# -- what the rounds played so far say ---------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    """A player's place: his points and the tie-breaks, in the order they count.

    >>> Standing("ann", 2, 3, 1, 1, 1500).tiebreaks()
    {'buchholz': 3, 'median_buchholz': 1, 'sonneborn_berger': 1, 'rating': 1500}
    """

    name: str
    points: int
    buchholz: int
    median_buchholz: int
    sonneborn_berger: int
    rating: float

    def tiebreaks(self) -> dict[str, float]:
        return {"buchholz": self.buchholz, "median_buchholz": self.median_buchholz,
                "sonneborn_berger": self.sonneborn_berger, "rating": self.rating}


@dataclass
class _Record:
    """What one player did in the rounds so far."""

    points: int = 0
    opponents: list[str] = field(default_factory=list)
    beaten: list[str] = field(default_factory=list)
    byes: int = 0
    whites: int = 0
    blacks: int = 0
    last: str = ""  # "white", "black" or ""


def _records(players: Sequence[Entrant], rounds: Sequence[Round], bye_points: int) -> dict[str, _Record]:
    records = {p.name: _Record() for p in players}

    def of(name: str) -> _Record:
        if name not in records:
            raise PairingError("{name} is not a player of this event", name=name)
        return records[name]

    for round_ in rounds:
        _finished(round_)
        for p in round_:
            white = of(p.white)
            if p.black is None:
                white.byes += 1
                white.points += bye_points
                continue
            black = of(p.black)
            white.opponents.append(p.black)
            black.opponents.append(p.white)
            white.whites, white.last = white.whites + 1, "white"
            black.blacks, black.last = black.blacks + 1, "black"
            winner, loser = (white, p.black) if p.winner == p.white else (black, p.white)
            winner.points += 1
            winner.beaten.append(loser)
    return records


def standings(players: Sequence[Entrant], rounds: Sequence[Round], bye_points: int = BYE_POINTS) -> list[Standing]:
    """The players in their order after ``rounds``: points (a win 1, a bye ``bye_points``), then
    Buchholz (the opponents' points), median Buchholz (the same without the best and the worst
    opponent, from three opponents on), Sonneborn-Berger (the points of the opponents beaten), rating.

    >>> ps = [Entrant("ann", 1500), Entrant("bob", 1600), Entrant("cy", 1400)]
    >>> rounds = [[Pairing("bob", "ann", "ann"), Pairing("cy", None, "cy")]]
    >>> [(s.name, s.points, s.buchholz) for s in standings(ps, rounds)]
    [('ann', 1, 0), ('cy', 1, 0), ('bob', 0, 1)]
    """
    records = _records(players, rounds, bye_points)
    out = []
    for p in players:
        r = records[p.name]
        theirs = sorted(records[o].points for o in r.opponents)
        median = theirs[1:-1] if len(theirs) >= 3 else theirs
        out.append(Standing(p.name, r.points, sum(theirs), sum(median),
                            sum(records[o].points for o in r.beaten), p.rating))
    return sorted(out, key=lambda s: (-s.points, -s.buchholz, -s.median_buchholz, -s.sonneborn_berger,
                                      -s.rating, s.name))


def _colours(a: str, b: str, records: Mapping[str, _Record]) -> tuple[str, str]:
    """Who of ``a`` (the higher ranked) and ``b`` takes white: the one who had it less often, then the
    one who had black last, then ``a``."""
    ra, rb = records[a], records[b]
    if ra.whites != rb.whites:
        return (a, b) if ra.whites < rb.whites else (b, a)
    if ra.last != rb.last:
        return (b, a) if rb.last == "black" or ra.last == "white" else (a, b)
    return a, b


# -- Swiss ---------------------------------------------------------------------------------------------

# The weights, lexicographic: each term outweighs the sum of every term below it over a whole round.
_PICK = 1 << 29  # who is left to float down from an odd group: the lowest ranked (above any rating difference)
_SCORE = 1 << 35  # a score difference, squared
_FLOATER = 1 << 57  # a player floated down from above is paired before any score is weighed
_REPEAT = 1 << 68  # a second meeting outweighs everything else
_BASE = 1 << 90  # keeps every weight positive
_BLOCK = 32  # a score group is matched this many players at a time, by rating: the matching grows as the cube
_SPARE = "\0float"  # the node an odd group's floater is matched with


def _weight(a: str, b: str, records: Mapping[str, _Record], ratings: Mapping[str, float],
            met: Counter[frozenset[str]], floaters: set[str]) -> int:
    score = (records[a].points - records[b].points) ** 2 * _SCORE
    rating = min(1000, round(abs(ratings[a] - ratings[b]))) ** 2
    return (_BASE - met[frozenset((a, b))] * _REPEAT - score - rating
            + _FLOATER * ((a in floaters) + (b in floaters)))


def _matched(names: Sequence[str], records: Mapping[str, _Record], ratings: Mapping[str, float],
             met: Counter[frozenset[str]], floaters: set[str], repeats: bool) -> list[tuple[str, str]]:
    """A maximum-cardinality matching of ``names`` (in rank order) of the most weight (networkx), over
    the pairs that have not met unless ``repeats``. When their count is odd, the one left over is the
    lowest ranked who can be (not a floater)."""
    graph: nx.Graph[str] = nx.Graph()
    graph.add_nodes_from(names)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if repeats or not met[frozenset((a, b))]:
                graph.add_edge(a, b, weight=_weight(a, b, records, ratings, met, floaters))
    if len(names) % 2:
        spare = [n for n in names if n not in floaters]
        for k, name in enumerate(reversed(spare)):
            graph.add_edge(_SPARE, name, weight=_BASE - k * _PICK)
    return [(a, b) for a, b in nx.max_weight_matching(graph, maxcardinality=True) if _SPARE not in (a, b)]


def swiss_round(players: Sequence[Entrant], rounds: Sequence[Round], absent: Collection[str] = ()) -> list[Pairing]:
    """The next Swiss round after ``rounds``. An odd count gives a bye (a point) to the lowest-ranked
    player (points, then rating) who has had none. The rest are paired score group by score group, from
    the top (a large group 32 players at a time, by rating), a group's lowest ranked odd one out floating
    down to the next: the weights of networkx's maximum-weight matching prefer equal scores, then near
    ratings, and never pair two who have met.
    Should that leave players unpaired, everyone is paired at once, a second meeting allowed only
    where no pairing avoids it. Colours alternate: the one who had white less often takes it. The
    players ``absent`` (withdrawn) keep their results but are paired no more.

    >>> ps = [Entrant("ann", 1800), Entrant("bob", 1700), Entrant("cy", 1600)]
    >>> first = swiss_round(ps, [])
    >>> [(p.white, p.black, p.why["rule"]) for p in first]
    [('cy', None, 'bye'), ('ann', 'bob', 'score-group')]
    >>> [(p.white, p.black) for p in swiss_round(ps, [[first[0], first[1].won("ann")]])]
    [('bob', None), ('cy', 'ann')]
    """
    _checked(players, 2, MOST_PLAYERS)
    records = _records(players, rounds, BYE_POINTS)
    ratings = {p.name: p.rating for p in players}
    ranked = [p.name for p in sorted(players, key=lambda p: (-records[p.name].points, -p.rating, p.name))
              if p.name not in absent]
    out: list[Pairing] = []
    if len(ranked) % 2:
        free = [n for n in ranked if not records[n].byes]
        if not free:
            raise PairingError("every player has had a bye: round {number} cannot be paired", number=len(rounds) + 1)
        bye = free[-1]
        out.append(Pairing(bye, None, bye, {"rule": "bye", "score": records[bye].points}))
        ranked.remove(bye)
    met = Counter(frozenset((p.white, p.black)) for r in rounds for p in r if p.black is not None)
    pairs = _by_score_groups(ranked, records, ratings, met)
    if pairs is None:
        pairs = _matched(ranked, records, ratings, met, set(), repeats=True)
    rank = {name: k for k, name in enumerate(ranked)}
    for a, b in sorted((tuple(sorted(pair, key=rank.__getitem__)) for pair in pairs), key=lambda q: rank[q[0]]):
        white, black = _colours(a, b, records)
        scores = [records[white].points, records[black].points]
        rule = ("repeat" if met[frozenset((a, b))] else "score-group" if scores[0] == scores[1] else "near-score")
        out.append(Pairing(white, black, None, {"rule": rule, "scores": scores}))
    return out


def _by_score_groups(ranked: Sequence[str], records: Mapping[str, _Record], ratings: Mapping[str, float],
                     met: Counter[frozenset[str]]) -> list[tuple[str, str]] | None:
    """Each score group matched in turn from the top, with those floated down from above, never two
    who have met; ``None`` when someone is left unpaired at the bottom."""
    groups: dict[int, list[str]] = defaultdict(list)
    for name in ranked:
        groups[records[name].points].append(name)
    pairs: list[tuple[str, str]] = []
    carried: list[str] = []
    for score in sorted(groups, reverse=True):
        group = groups[score]
        for start in range(0, len(group), _BLOCK):
            names = carried + group[start:start + _BLOCK]
            found = _matched(names, records, ratings, met, set(carried), repeats=False)
            pairs += found
            paired = {n for pair in found for n in pair}
            carried = [n for n in names if n not in paired]
    return None if carried else pairs


# -- round-robin ---------------------------------------------------------------------------------------


def round_robin_schedule(players: Sequence[Entrant]) -> list[list[Pairing]]:
    """Every round of a round-robin (the circle method): everyone meets everyone once; with an odd
    count each round one player has a bye. Colours alternate round by round.

    >>> ps = [Entrant(n, 1500) for n in "abcd"]
    >>> [[(p.white, p.black) for p in r] for r in round_robin_schedule(ps)]
    [[('a', 'd'), ('b', 'c')], [('c', 'a'), ('d', 'b')], [('a', 'b'), ('c', 'd')]]
    """
    names: list[str | None] = [p.name for p in _by_rating(_checked(players, 2, MOST_ROUND_ROBIN))]
    if len(names) % 2:
        names.append(None)
    n = len(names)
    schedule = []
    for number in range(1, n):
        round_ = []
        for i in range(n // 2):
            a, b = names[i], names[n - 1 - i]
            if i == 0 and number % 2 == 0:
                a, b = b, a
            if a is None or b is None:
                alone = a if a is not None else b
                assert alone is not None
                round_.append(Pairing(alone, None, alone, {"rule": "bye", "round": number}))
            else:
                round_.append(Pairing(a, b, None, {"rule": "round-robin", "round": number}))
        schedule.append(round_)
        names = [names[0], names[-1], *names[1:-1]]
    return schedule


def round_robin_groups(players: Sequence[Entrant], groups: int) -> list[list[Entrant]]:
    """The players split into ``groups`` round-robin groups, snaking by rating (1, 2, 3 in groups A, B,
    C, then 4, 5, 6 in C, B, A) so the groups are of even strength.

    >>> ps = [Entrant(n, r) for n, r in zip("abcdef", [1900, 1800, 1700, 1600, 1500, 1400], strict=True)]
    >>> [[p.name for p in g] for g in round_robin_groups(ps, 2)]
    [['a', 'd', 'e'], ['b', 'c', 'f']]
    """
    seeded = _by_rating(_checked(players, 2, MOST_PLAYERS))
    if groups < 1 or not 2 * groups <= len(seeded) <= MOST_ROUND_ROBIN * groups:
        raise PairingError("cannot split {count} players into {groups} groups of 2 to 12",
                           count=len(seeded), groups=groups)
    out: list[list[Entrant]] = [[] for _ in range(groups)]
    for k, p in enumerate(seeded):
        lap, at = divmod(k, groups)
        out[at if lap % 2 == 0 else groups - 1 - at].append(p)
    return out


def qualifiers(players: Sequence[Entrant], rounds: Sequence[Round], top: int) -> list[Entrant]:
    """The ``top`` players of a group by its standings (a bye scores nothing), to go on to a knockout.

    >>> ps = [Entrant("a", 1500), Entrant("b", 1400), Entrant("c", 1300)]
    >>> done = [[p.won(min(p.white, p.black or p.white)) for p in r] for r in round_robin_schedule(ps)]
    >>> [p.name for p in qualifiers(ps, done, 2)]
    ['a', 'b']
    """
    by_name = {p.name: p for p in players}
    return [by_name[s.name] for s in standings(players, rounds, bye_points=0)[:top]]


# -- arena ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ArenaScore:
    """A player's arena score: his points, and his current run of wins (from the third, a win
    counts double).

    >>> arena_scores([Pairing("a", "b", "a")])["a"]
    ArenaScore(points=2, streak=1)
    """

    points: int = 0
    streak: int = 0

    @property
    def on_fire(self) -> bool:
        """Whether his next win counts double."""
        return self.streak >= 2

    def after(self, won: bool) -> ArenaScore:
        if not won:
            return ArenaScore(self.points, 0)
        return ArenaScore(self.points + (4 if self.on_fire else 2), self.streak + 1)


def arena_scores(matches: Sequence[Pairing]) -> dict[str, ArenaScore]:
    """Each player's arena score after ``matches`` (in the order they ended; those without a winner
    are still in play and count nothing): 2 points a win, 0 a loss, and after two wins in a row each
    further win counts double until a loss.

    >>> won = [Pairing("a", x, "a") for x in "bcdb"] + [Pairing("a", "c", "c"), Pairing("a", "d", "a")]
    >>> arena_scores(won)["a"].points
    14
    """
    scores: dict[str, ArenaScore] = defaultdict(ArenaScore)
    for m in matches:
        if m.winner is None or m.black is None:
            continue
        for name in (m.white, m.black):
            scores[name] = scores[name].after(m.winner == name)
    return dict(scores)


def arena_pairings(waiting: Sequence[Entrant], scores: Mapping[str, ArenaScore],
                   last_opponent: Mapping[str, str]) -> list[Pairing]:
    """Pairs among the players ``waiting`` now: in order of score, then rating, each with the next one
    down who was not his last opponent; two who just met are paired again only when nobody else
    waits. Whoever is left waits for the next one to finish.

    >>> ws = [Entrant("a", 1800), Entrant("b", 1700), Entrant("c", 1600)]
    >>> [(p.white, p.black) for p in arena_pairings(ws, {}, {"a": "b", "b": "a"})]
    [('a', 'c')]
    """
    _checked(waiting, 0, MOST_PLAYERS * 8)
    zero = ArenaScore()
    order = sorted(waiting, key=lambda p: (-scores.get(p.name, zero).points, -p.rating, p.name))
    free = [p.name for p in order]
    points = {p.name: scores.get(p.name, zero).points for p in order}
    out = []
    while len(free) >= 2:
        first = free.pop(0)
        fresh = [n for n in free if last_opponent.get(first) != n and last_opponent.get(n) != first]
        if fresh:
            rule = "arena"
        elif len(waiting) == 2:
            fresh, rule = free, "only-two-waiting"
        else:
            continue
        other = fresh[0]
        free.remove(other)
        out.append(Pairing(first, other, None, {"rule": rule, "scores": [points[first], points[other]]}))
    return out
