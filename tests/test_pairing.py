"""The tournaments' pairing (``tavli.server.cafe.pairing``): hand-worked knockouts, Swiss rounds,
round-robin schedules and arena scores, and properties over random events."""

from __future__ import annotations

import itertools
import random
import re

import networkx as nx
import pytest
from benchmark_module import benchmark
from hypothesis import given, settings
from hypothesis import strategies as st

from tavli.server.cafe.pairing import (
    ArenaScore,
    Entrant,
    Pairing,
    PairingError,
    arena_pairings,
    arena_scores,
    bracket_order,
    consolation_first_round,
    knockout_first_round,
    knockout_next_round,
    qualifiers,
    round_robin_groups,
    round_robin_schedule,
    standings,
    swiss_round,
)

FIVE = [Entrant("A", 1900), Entrant("B", 1800), Entrant("C", 1700), Entrant("D", 1600), Entrant("E", 1500)]


def shown(round_: list[Pairing]) -> list[tuple[str, str | None]]:
    return [(p.white, p.black) for p in round_]


def decided(round_: list[Pairing], *winners: str) -> list[Pairing]:
    """The round with each real pairing won by whichever of ``winners`` played in it."""
    return [p if p.black is None else p.won(next(w for w in winners if w in (p.white, p.black))) for p in round_]


# -- knockout ---------------------------------------------------------------------------------------


def test_an_eight_player_bracket_stands_in_seed_order_and_the_top_two_meet_only_in_the_final() -> None:
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert bracket_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
    players = [Entrant(f"s{k}", 2000 - 10 * k) for k in range(1, 9)]
    first = knockout_first_round(list(reversed(players)))
    assert shown(first) == [("s1", "s8"), ("s4", "s5"), ("s2", "s7"), ("s3", "s6")]
    assert [p.why for p in first][:2] == [{"rule": "seed", "seeds": [1, 8]}, {"rule": "seed", "seeds": [4, 5]}]
    semis = knockout_next_round([p.won(p.white) for p in first])
    assert shown(semis) == [("s1", "s4"), ("s2", "s3")]
    final = knockout_next_round([p.won(p.white) for p in semis])
    assert shown(final) == [("s1", "s2")]
    assert knockout_next_round([final[0].won("s2")]) == []


def test_a_six_player_knockout_gives_its_byes_to_the_top_two_seeds() -> None:
    players = [Entrant(n, r) for n, r in zip("abcdef", [1900, 1850, 1800, 1750, 1700, 1650], strict=True)]
    first = knockout_first_round(players)
    assert shown(first) == [("a", None), ("d", "e"), ("b", None), ("c", "f")]
    assert first[0].winner == "a" and first[0].why == {"rule": "bye", "seed": 1}
    assert first[2].why == {"rule": "bye", "seed": 2}
    second = knockout_next_round([first[0], first[1].won("e"), first[2], first[3].won("f")])
    assert shown(second) == [("a", "e"), ("b", "f")]
    assert second[1].why == {"rule": "bracket", "from": [3, 4]}
    consolation = consolation_first_round(players, [first[0], first[1].won("e"), first[2], first[3].won("f")])
    assert shown(consolation) == [("c", "d")] and consolation[0].why["rule"] == "consolation"


def test_a_knockout_drawn_by_lot_is_the_lot_s() -> None:
    players = [Entrant(f"p{k}", 1500 + k) for k in range(12)]
    one = knockout_first_round(players, random.Random(3))
    assert one == knockout_first_round(players, random.Random(3))
    assert {p.why["rule"] for p in one} == {"lot", "bye"} and sum(p.is_bye for p in one) == 4
    assert one != knockout_first_round(players)


def test_a_round_not_over_and_bad_entries_are_refused_in_words() -> None:
    with pytest.raises(PairingError, match="the round is not over: a against b has no winner"):
        knockout_next_round([Pairing("a", "b")])
    with pytest.raises(PairingError, match="this tournament takes 2 to 1024 players, not 1"):
        knockout_first_round([Entrant("a", 1500)])
    with pytest.raises(PairingError, match="two players are called a"):
        swiss_round([Entrant("a", 1500), Entrant("a", 1600)], [])
    with pytest.raises(PairingError, match="the winner c did not play a against b"):
        Pairing("a", "b", "c")
    with pytest.raises(PairingError, match="zed is not a player of this event"):
        standings(FIVE, [[Pairing("A", "zed", "A")]])
    with pytest.raises(PairingError, match="every player has had a bye: round 4 cannot be paired"):
        trio = FIVE[:3]
        swiss_round(trio, [[Pairing(n, None, n)] for n in "ABC"])
    with pytest.raises(PairingError, match="cannot split 5 players into 3 groups of 2 to 12"):
        round_robin_groups(FIVE, 3)
    assert isinstance(PairingError("two players are called {name}", name="a"), ValueError)


# -- Swiss ---------------------------------------------------------------------------------------------


def test_a_five_player_swiss_over_three_rounds_with_its_byes() -> None:
    first = swiss_round(FIVE, [])
    assert shown(first) == [("E", None), ("A", "B"), ("C", "D")]
    assert [p.why for p in first] == [{"rule": "bye", "score": 0}, {"rule": "score-group", "scores": [0, 0]},
                                      {"rule": "score-group", "scores": [0, 0]}]
    rounds = [decided(first, "A", "C")]  # A 1, C 1, E 1 (the bye), B 0, D 0
    second = swiss_round(FIVE, rounds)
    # D, lowest of all, takes the bye; A, C and E share a score: E, the lowest, floats down to B
    assert shown(second) == [("D", None), ("A", "C"), ("B", "E")]
    assert second[2].why == {"rule": "near-score", "scores": [0, 1]}
    rounds.append(decided(second, "C", "E"))  # C 2, E 2, A 1, D 1, B 0
    third = swiss_round(FIVE, rounds)
    # E and D have had their byes: B, the lowest without one, takes it; white to who had it less
    assert shown(third) == [("B", None), ("E", "C"), ("D", "A")]
    assert third[1].why == {"rule": "score-group", "scores": [2, 2]}
    rounds.append(decided(third, "E", "A"))
    table = standings(FIVE, rounds)
    assert [(s.name, s.points) for s in table] == [("E", 3), ("C", 2), ("A", 2), ("B", 1), ("D", 1)]
    c, a = table[1], table[2]
    assert (c.buchholz, c.median_buchholz, c.sonneborn_berger) == (6, 2, 3)
    assert (a.buchholz, a.median_buchholz, a.sonneborn_berger) == (4, 1, 2)
    assert table[3].buchholz == 5 and table[4].buchholz == 4  # B over D on Buchholz
    assert c.tiebreaks() == {"buchholz": 6, "median_buchholz": 2, "sonneborn_berger": 3, "rating": 1700}


def test_a_second_meeting_is_made_only_when_nothing_else_pairs_everyone() -> None:
    two = FIVE[:2]
    rounds = [[Pairing("A", "B", "A")]]
    again = swiss_round(two, rounds)
    assert shown(again) == [("B", "A")] and again[0].why == {"rule": "repeat", "scores": [0, 1]}


def swiss_event(data: st.DataObject) -> tuple[list[Entrant], list[list[Pairing]], int]:
    count = data.draw(st.integers(2, 11), label="players")
    ratings = data.draw(st.lists(st.integers(1200, 2000), min_size=count, max_size=count), label="ratings")
    players = [Entrant(f"p{k}", r) for k, r in enumerate(ratings)]
    return players, [], data.draw(st.integers(1, count if count % 2 else count - 1), label="rounds")


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_swiss_rounds_pair_everyone_once_no_second_bye_no_needless_repeat(data: st.DataObject) -> None:
    players, rounds, total = swiss_event(data)
    names = {p.name for p in players}
    byes: set[str] = set()
    for _ in range(total):
        pairs = swiss_round(players, rounds)
        seated = [n for p in pairs for n in (p.white, p.black) if n is not None]
        assert sorted(seated) == sorted(names)  # everyone in exactly one pairing
        bye = [p.white for p in pairs if p.black is None]
        assert len(bye) == len(names) % 2 and not byes & set(bye)
        byes |= set(bye)
        met = {frozenset((p.white, p.black)) for r in rounds for p in r if p.black is not None}
        real = [frozenset((p.white, p.black)) for p in pairs if p.black is not None]
        if any(pair in met for pair in real):  # then no pairing of the same players avoids it
            fresh: nx.Graph[str] = nx.Graph()
            fresh.add_nodes_from(n for pair in real for n in pair)
            fresh.add_edges_from((a, b) for a, b in itertools.combinations(sorted(fresh.nodes), 2)
                                 if frozenset((a, b)) not in met)
            assert 2 * len(nx.max_weight_matching(fresh, maxcardinality=True)) < len(fresh.nodes)
        rounds.append([p if p.black is None else p.won(data.draw(st.sampled_from([p.white, p.black])))
                       for p in pairs])
        table = standings(players, rounds)
        assert sum(s.points for s in table) == sum(len(r) for r in rounds)  # a point a win, a point a bye
        assert [s.points for s in table] == sorted((s.points for s in table), reverse=True)


# -- knockout properties -----------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(count=st.integers(2, 40), seed=st.integers(0, 1000), lot=st.booleans())
def test_knockout_rounds_halve_down_to_one_winner(count: int, seed: int, lot: bool) -> None:
    rng = random.Random(seed)
    players = [Entrant(f"p{k}", rng.randint(1200, 2000)) for k in range(count)]
    round_ = knockout_first_round(players, random.Random(seed) if lot else None)
    size = len(round_)
    assert size & (size - 1) == 0 and size < count <= 2 * size
    assert sorted(n for p in round_ for n in (p.white, p.black) if n) == sorted(p.name for p in players)
    assert sum(p.is_bye for p in round_) == 2 * size - count
    rounds = 1
    while True:
        done = [p if p.winner else p.won(rng.choice([p.white, p.black or p.white])) for p in round_]
        nxt = knockout_next_round(done)
        if not nxt:
            assert len(done) == 1
            break
        assert 2 * len(nxt) == len(done)
        round_, rounds = nxt, rounds + 1
    assert 1 << rounds == 2 * size
    if not lot and size > 1:
        top = sorted(players, key=lambda p: (-p.rating, p.name))
        first = knockout_first_round(players)
        upper = {n for p in first[:size // 2] for n in (p.white, p.black)}
        assert top[0].name in upper and top[1].name not in upper  # the top two meet in the final at the earliest


# -- round-robin ------------------------------------------------------------------------------------------


def test_a_four_player_round_robin_schedule() -> None:
    players = [Entrant(n, r) for n, r in zip("abcd", [1900, 1800, 1700, 1600], strict=True)]
    schedule = round_robin_schedule(players)
    assert [shown(r) for r in schedule] == [[("a", "d"), ("b", "c")], [("c", "a"), ("d", "b")],
                                            [("a", "b"), ("c", "d")]]
    assert schedule[1][0].why == {"rule": "round-robin", "round": 2}


def test_a_five_player_round_robin_gives_each_a_bye() -> None:
    schedule = round_robin_schedule(FIVE)
    assert [shown(r) for r in schedule] == [
        [("A", None), ("B", "E"), ("C", "D")],
        [("E", "A"), ("D", None), ("B", "C")],
        [("A", "D"), ("E", "C"), ("B", None)],
        [("C", "A"), ("D", "B"), ("E", None)],
        [("A", "B"), ("C", None), ("D", "E")],
    ]  # the circle: A stays, the others (and the bye) turn one place each round
    assert schedule[0][0].why == {"rule": "bye", "round": 1}


@settings(max_examples=20, deadline=None)
@given(count=st.integers(2, 12))
def test_a_round_robin_meets_everyone_once(count: int) -> None:
    players = [Entrant(f"p{k}", 1500 + k) for k in range(count)]
    schedule = round_robin_schedule(players)
    met = [frozenset((p.white, p.black)) for r in schedule for p in r if p.black is not None]
    assert sorted(map(sorted, met)) == sorted(sorted(pair) for pair in itertools.combinations(
        (p.name for p in players), 2))
    for r in schedule:
        assert sorted(n for p in r for n in (p.white, p.black) if n) == sorted(p.name for p in players)
    assert len(schedule) == count - 1 + count % 2


def test_groups_snake_by_rating_and_their_top_go_on() -> None:
    players = [Entrant(f"p{k}", 2000 - k) for k in range(8)]
    groups = round_robin_groups(players, 2)
    assert [[p.name for p in g] for g in groups] == [["p0", "p3", "p4", "p7"], ["p1", "p2", "p5", "p6"]]
    group = groups[1]
    played = [[p.won(max(p.white, p.black or p.white)) for p in r] for r in round_robin_schedule(group)]
    assert [p.name for p in qualifiers(group, played, 2)] == ["p6", "p5"]
    with pytest.raises(PairingError):
        round_robin_schedule([Entrant(f"p{k}", 1500) for k in range(13)])


# -- arena ------------------------------------------------------------------------------------------------


def test_arena_scores_a_streak_double_until_a_loss() -> None:
    results = "WWWLWWWW"
    matches = [Pairing("a", f"o{k}", "a" if r == "W" else f"o{k}") for k, r in enumerate(results)]
    scores = arena_scores(matches)
    assert scores["a"] == ArenaScore(points=2 + 2 + 4 + 0 + 2 + 2 + 4 + 4, streak=4)
    assert scores["a"].on_fire and scores["o3"] == ArenaScore(2, 1) and scores["o0"] == ArenaScore(0, 0)
    assert arena_scores([Pairing("a", "b")]) == {}  # still in play


def test_arena_pairs_by_score_then_rating_never_the_last_opponent_when_another_waits() -> None:
    waiting = [Entrant("a", 1500), Entrant("b", 1900), Entrant("c", 1700), Entrant("d", 1600), Entrant("e", 1400)]
    scores = {"a": ArenaScore(8, 3), "b": ArenaScore(2, 1), "c": ArenaScore(2, 0), "d": ArenaScore(0, 0)}
    pairs = arena_pairings(waiting, scores, {"a": "b", "b": "a"})
    assert shown(pairs) == [("a", "c"), ("b", "d")]  # e waits
    assert pairs[0].why == {"rule": "arena", "scores": [8, 2]}
    again = arena_pairings(waiting[:2], scores, {"a": "b", "b": "a"})
    assert shown(again) == [("a", "b")] and again[0].why["rule"] == "only-two-waiting"
    assert arena_pairings(waiting[:1], scores, {}) == []


@settings(max_examples=30, deadline=None)
@given(results=st.lists(st.booleans(), max_size=30))
def test_arena_points_are_two_a_win_and_double_from_the_third_in_a_row(results: list[bool]) -> None:
    matches = [Pairing("a", f"o{k}", "a" if won else f"o{k}") for k, won in enumerate(results)]
    expected, run = 0, 0
    for won in results:
        run = run + 1 if won else 0
        expected += 0 if not won else 4 if run >= 3 else 2
    assert arena_scores(matches).get("a", ArenaScore()).points == expected


def test_the_swiss_benchmark_runs_tiny(capsys: pytest.CaptureFixture[str]) -> None:
    swiss_pairing = benchmark("speed/swiss_pairing")
    swiss_pairing.main(["--players", "9", "--rounds", "3", "--repeats", "1"])
    assert re.search(r"Swiss round 4 of 9 players, .* ratio to the 1 s floor \d+\.\d\d", capsys.readouterr().out)
