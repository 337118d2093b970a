"""The one-sided bear-off database: indexing, exact values, cache, race chances."""

from __future__ import annotations

import functools
import itertools
import random
import time
from collections.abc import Iterator
from math import comb
from pathlib import Path

import numpy as np
import pytest

from tavli.bots import bearoff as B
from tavli.dice import ALL_ROLLS
from tavli.position import Position
from tavli.variants import GAMES, WHITE

Tables = tuple[np.ndarray, np.ndarray]


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A private cache folder for the whole module (``$TAVLI_CACHE``)."""
    folder = tmp_path_factory.mktemp("tavli-cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TAVLI_CACHE", str(folder))
        B.load.cache_clear()
        yield folder
        B.load.cache_clear()


@pytest.fixture(scope="module")
def tables(cache: Path) -> Tables:
    """The tables, built once for this module into the private cache."""
    start = time.perf_counter()
    finish, first_off = B.load()
    elapsed = time.perf_counter() - start
    size = B.cache_path().stat().st_size
    print(f"\nbear-off tables built in {elapsed:.1f} s; cache file {size / 1e6:.2f} MB")
    return finish, first_off


def index_of(counts: dict[int, int]) -> int:
    """Index of a position given as {point: checkers}."""
    return int(B.position_index(np.array([counts.get(p, 0) for p in range(1, 7)], np.int64)))


def mean_rolls(row: np.ndarray) -> float:
    return float((row.astype(np.float64) * np.arange(B.MAX_ROLLS)).sum())


def rolls() -> Iterator[tuple[int, int, float]]:
    """The 21 distinct rolls with their chances."""
    for d1, d2 in ALL_ROLLS:
        yield d1, d2, (1 if d1 == d2 else 2) / 36


# -- indexing -----------------------------------------------------------------
def test_sizes() -> None:
    assert B.N_POSITIONS == comb(21, 6) == 54264
    assert B.MAX_ROLLS == 32


@functools.cache
def every_position() -> tuple[tuple[int, ...], ...]:
    """The counts of every position, by index (the Python inverse)."""
    return tuple(B.position_counts(i) for i in range(B.N_POSITIONS))


def test_index_round_trips_on_every_position() -> None:
    seen = set()
    for i, counts in enumerate(every_position()):
        assert len(counts) == 6 and min(counts) >= 0 and sum(counts) <= 15
        assert int(B.position_index(np.array(counts, np.int64))) == i
        seen.add(counts)
    assert len(seen) == B.N_POSITIONS
    assert B.position_counts(0) == (0,) * 6
    with pytest.raises(ValueError):
        B.position_counts(B.N_POSITIONS)


def test_index_of_int8_counts_and_every_single_move_lowers_it() -> None:
    rng = random.Random(5)
    for _ in range(2000):
        i = rng.randrange(1, B.N_POSITIONS)
        counts = list(B.position_counts(i))
        assert int(B.position_index(np.array(counts, np.int8))) == i
        for src in range(1, 7):
            if counts[src - 1] == 0:
                continue
            for dst in range(src):
                after = counts.copy()
                after[src - 1] -= 1
                if dst:
                    after[dst - 1] += 1
                assert int(B.position_index(np.array(after, np.int64))) < i


# -- the tables -----------------------------------------------------------------
@pytest.mark.slow
def test_shapes_and_rows_are_distributions(tables: Tables) -> None:
    for table in tables:
        assert table.shape == (B.N_POSITIONS, B.MAX_ROLLS)
        assert table.dtype == np.float32
        assert not table.flags.writeable
        assert table.min() >= 0
        np.testing.assert_allclose(table.sum(axis=1, dtype=np.float64), 1.0, atol=2e-6)


def test_first_off_is_zero_rolls_once_a_checker_is_off(tables: Tables) -> None:
    _, first_off = tables
    totals = np.array([sum(c) for c in every_position()])
    assert (totals == 15).sum() == comb(20, 5)
    np.testing.assert_array_equal(first_off[totals < 15, 0], 1.0)
    np.testing.assert_array_equal(first_off[totals == 15, 0], 0.0)


def test_trivial_positions(tables: Tables) -> None:
    finish, first_off = tables
    assert finish[0, 0] == 1 and first_off[0, 0] == 1
    for counts in ({1: 1}, {1: 2}, {2: 1}, {1: 1, 2: 1}):
        assert finish[index_of(counts), 1] == 1.0, counts
    # any position with checkers left needs at least one roll
    assert (finish[1:, 0] == 0).all()


@pytest.mark.parametrize("point", range(1, 7))
def test_one_checker_by_hand(tables: Tables, point: int) -> None:
    """A lone checker on ``point`` is off in one roll when the roll's pips reach it.

    Otherwise it has at most 3 pips to go, and every roll moves 3 or more.
    """
    finish, _ = tables
    reach = sum(1 for d1 in range(1, 7) for d2 in range(1, 7)
                if (4 * d1 if d1 == d2 else d1 + d2) >= point)
    row = finish[index_of({point: 1})]
    assert row[1] == pytest.approx(reach / 36, abs=1e-6)
    assert row[2] == pytest.approx(1 - reach / 36, abs=1e-6)
    assert row[3:].sum() == 0
    if point == 6:
        assert reach == 27


def test_first_checker_off_from_fifteen_on_the_six_point(tables: Tables) -> None:
    """First roll: any 6 (11 rolls), 5-1 and 4-2 (6 to 5 or 4, then off exactly), 3-3 and 2-2."""
    _, first_off = tables
    row = first_off[index_of({6: 15})]
    assert row[1] == pytest.approx(17 / 36, abs=1e-6)


def test_mean_rolls_of_fifteen_on_the_six_point(tables: Tables) -> None:
    finish, _ = tables
    mean = mean_rolls(finish[index_of({6: 15})])
    print(f"\nmean rolls to bear off 15 checkers from the 6 point: {mean:.4f}")
    # 90 pips at 49/6 pips a roll on average is a floor; wastage adds about a roll
    assert 90 / (49 / 6) < mean < 13.5
    assert mean > mean_rolls(finish[index_of({6: 14})]) > mean_rolls(finish[index_of({5: 15})])
    # four rolls at least, and only four 6-6 in a row do it in four
    assert finish[index_of({6: 15}), :4].sum() == 0
    assert finish[index_of({6: 15}), 4] == pytest.approx(36.0**-4, rel=1e-4)


@functools.cache
def play_results(counts: tuple[int, ...], d1: int, d2: int) -> tuple[tuple[int, ...], ...]:
    """Counts after each legal play, from ``tavli.Position`` (the opponent far away)."""
    pos = Position.from_checkers("portes", WHITE, {p + 1: c for p, c in enumerate(counts) if c}, {6: 15})
    results = pos.legal_plays((d1, d2)).results
    return tuple(tuple(int(x) for x in row[1:7]) for row in results) or (counts,)


@functools.cache
def one_sided(counts: tuple[int, ...]) -> tuple[float, tuple[float, ...]]:
    """(mean, distribution) of the rolls to bear off, fewest expected rolls, in plain Python."""
    dist = [0.0] * B.MAX_ROLLS
    if sum(counts) == 0:
        dist[0] = 1.0
        return 0.0, tuple(dist)
    mean = 1.0
    for d1, d2, p in rolls():
        best = min(play_results(counts, d1, d2), key=lambda c: one_sided(c)[0])
        child_mean, child = one_sided(best)
        mean += p * child_mean
        for n in range(1, B.MAX_ROLLS):
            dist[n] += p * child[n - 1]
    return mean, tuple(dist)


def test_small_positions_against_a_plain_python_recursion(tables: Tables) -> None:
    finish, _ = tables
    checked = 0
    for counts in itertools.product(range(4), repeat=6):
        if not 0 < sum(counts) <= 3:
            continue
        _, dist = one_sided(counts)
        np.testing.assert_allclose(finish[index_of(dict(enumerate(counts, 1)))], dist, atol=2e-6,
                                   err_msg=str(counts))
        checked += 1
    assert checked == comb(9, 6) - 1


# -- the cache -----------------------------------------------------------------
def test_cache_location(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("TAVLI_CACHE", str(tmp_path / "a"))
    assert B.cache_dir() == tmp_path / "a"
    monkeypatch.delenv("TAVLI_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert B.cache_dir() == tmp_path / "xdg" / "tavli"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert B.cache_dir() == tmp_path / "home" / ".cache" / "tavli"
    assert f"v{B.FORMAT_VERSION}" in B.cache_path().name and B.cache_path().suffix == ".npz"


def test_cache_is_read_back_without_building(tables: Tables, cache: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    assert B.cache_path().parent == cache and B.cache_path().is_file()
    assert [p.name for p in cache.iterdir()] == [B.cache_path().name]  # no temporary left
    assert B.load() is B.load()  # memoised

    def no_build() -> Tables:
        raise AssertionError("the cache should have been read")

    monkeypatch.setattr(B, "build", no_build)
    B.load.cache_clear()
    try:
        finish, first_off = B.load()
    finally:
        B.load.cache_clear()
    np.testing.assert_array_equal(finish, tables[0])
    np.testing.assert_array_equal(first_off, tables[1])


@pytest.mark.parametrize("damage", ["garbage", "truncated", "wrong shape"])
def test_a_damaged_cache_is_rebuilt(tables: Tables, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                    damage: str) -> None:
    monkeypatch.setenv("TAVLI_CACHE", str(tmp_path))
    path = B.cache_path()
    if damage == "garbage":
        path.write_bytes(b"not a zip file at all")
    elif damage == "truncated":
        np.savez_compressed(path, finish=tables[0], first_off=tables[1])
        path.write_bytes(path.read_bytes()[:5000])
    else:
        np.savez_compressed(path, finish=tables[0][:10], first_off=tables[1][:10])
    builds = []

    def fake_build() -> Tables:
        builds.append(1)
        return tables[0].copy(), tables[1].copy()

    monkeypatch.setattr(B, "build", fake_build)
    B.load.cache_clear()
    try:
        finish, _ = B.load()
    finally:
        B.load.cache_clear()
    assert builds == [1]
    np.testing.assert_array_equal(finish, tables[0])
    reread = B.read_cache(path)  # rewritten whole
    assert reread is not None
    np.testing.assert_array_equal(reread[1], tables[1])
    assert [p.name for p in tmp_path.iterdir()] == [path.name]


# -- races -----------------------------------------------------------------------
def race(white: dict[int, int], black: dict[int, int], variant: str = "portes") -> Position:
    """White on roll; each side's layout in his own numbering."""
    return Position.from_checkers(variant, WHITE, white, black)


def chances(tables: Tables, pos: Position) -> tuple[float, float, float]:
    assert B.all_home(pos.state, pos.variant.kernel_id)
    w, w2, l2 = B.race_probabilities(pos.state, pos.variant.kernel_id, *tables)
    return float(w), float(w2), float(l2)


@pytest.mark.parametrize("variant", GAMES)
def test_all_home(variant: str) -> None:
    kid = Position.start(variant).variant.kernel_id
    assert not B.all_home(Position.start(variant).state, kid)
    assert B.all_home(race({1: 3, 6: 2}, {6: 4, 1: 1}, variant).state, kid)
    assert B.all_home(race({}, {6: 1}, variant).state, kid)
    assert not B.all_home(race({7: 1}, {6: 4}, variant).state, kid)
    assert not B.all_home(race({1: 1}, {7: 1}, variant).state, kid)
    assert not B.all_home(race({1: 1}, {18: 1}, variant).state, kid)
    assert B.all_home(race({1: 1}, {6: 1}, variant).pass_turn().state, kid)
    if variant == "portes":
        assert not B.all_home(race({1: 1}, {25: 1}).state, kid)
        assert not B.all_home(race({1: 1, 25: 1}, {1: 1}).state, kid)


def test_a_checker_on_the_one_point_wins_at_once(tables: Tables) -> None:
    assert chances(tables, race({1: 1}, {1: 1})) == (1.0, 0.0, 0.0)
    assert chances(tables, race({1: 1}, {6: 15})) == (1.0, 1.0, 0.0)


def test_double_games_by_hand(tables: Tables) -> None:
    # the mover has 15 on his 6 point, the opponent one checker on his 1 point:
    # the mover loses two unless his first roll bears a checker off (17 of 36)
    assert chances(tables, race({6: 15}, {1: 1})) == pytest.approx((0.0, 0.0, 19 / 36), abs=1e-6)
    # one checker on the 6 point: off in one roll (27/36) or two; the
    # opponent with 15 on his 6 point needs 4 rolls at least, and gets none
    # off in his first roll 19 times in 36
    w, w2, l2 = chances(tables, race({6: 1}, {6: 15}))
    assert (w, l2) == pytest.approx((1.0, 0.0), abs=1e-6)
    assert w2 == pytest.approx(27 / 36 + 9 / 36 * 19 / 36, abs=1e-6)
    # once some of a side's checkers are off it cannot lose double
    _, w2, l2 = chances(tables, race({6: 14}, {6: 15}))
    assert w2 > 0 and l2 == 0
    _, w2, l2 = chances(tables, race({6: 15}, {6: 14}))
    assert w2 == 0 and l2 > 0


def test_identical_positions_favour_the_side_on_roll(tables: Tables) -> None:
    rng = random.Random(11)
    for _ in range(200):
        layout: dict[int, int] = {}
        for _ in range(rng.randint(1, 15)):
            p = rng.randint(1, 6)
            layout[p] = layout.get(p, 0) + 1
        w, w2, l2 = chances(tables, race(layout, layout))
        assert 0.5 < w <= 1.0
        assert 0 <= w2 <= w and 0 <= l2 <= 1 - w + 1e-9
        if sum(layout.values()) < 15:
            assert w2 == 0 and l2 == 0


def test_the_variants_read_the_opponent_alike(tables: Tables) -> None:
    rng = random.Random(3)
    for _ in range(50):
        sides = []
        for _ in range(2):
            layout: dict[int, int] = {}
            for _ in range(rng.randint(1, 15)):
                p = rng.randint(1, 6)
                layout[p] = layout.get(p, 0) + 1
            sides.append(layout)
        expected = chances(tables, race(*sides))
        for variant in ("plakoto", "fevga"):
            assert chances(tables, race(*sides, variant=variant)) == expected
        # and from the other side: the opponent on roll
        flipped = race(*sides).pass_turn()
        w, _, _ = chances(tables, flipped)
        assert w == chances(tables, race(sides[1], sides[0]))[0]


@functools.cache
def two_sided(mover: tuple[int, ...], other: tuple[int, ...]) -> float:
    """Exact chance that the mover, on roll, bears off first (both playing to win)."""
    total = 0.0
    for d1, d2, p in rolls():
        total += p * max(1.0 if sum(c) == 0 else 1.0 - two_sided(other, c)
                         for c in play_results(mover, d1, d2))
    return total


def test_win_chances_against_an_exact_two_sided_recursion(tables: Tables) -> None:
    rng = random.Random(2024)
    worst = 0.0
    for _ in range(25):
        sides = []
        for _ in range(2):
            counts = [0] * 6
            for _ in range(rng.randint(2, 3)):
                counts[rng.randrange(6)] += 1
            sides.append(tuple(counts))
        mover, other = sides
        w, w2, l2 = chances(tables, race({p + 1: c for p, c in enumerate(mover) if c},
                                         {p + 1: c for p, c in enumerate(other) if c}))
        exact = two_sided(mover, other)
        assert w == pytest.approx(exact, abs=0.01), (mover, other)
        assert w2 == 0 and l2 == 0
        worst = max(worst, abs(w - exact))
    print(f"\nlargest one-sided vs two-sided difference: {worst:.5f}")
