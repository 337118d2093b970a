"""Evaluators, the bots' levels and the network files.

The shipped networks change as training improves, so the checks on them are ones any
network must pass (legal choices, consistent chances, sure wins taken); exact values come
from small networks built by hand.
"""

from __future__ import annotations

import json
import math
import random
import time
from pathlib import Path

import numpy as np
import pytest

from tavli import BLACK, WHITE, Dice, Position, TavliError
from tavli import _kernel as K
from tavli.bots import RandomBot, bearoff
from tavli.bots.features import INPUT_GROUP_ENDS, N_INPUTS
from tavli.bots.match_equity import MatchScore
from tavli.bots.network import Network
from tavli.bots.neural import (
    DEFAULT_LEVEL,
    LEVELS,
    NOISE_RULES,
    Analysis,
    Evaluator,
    NeuralBot,
    Probabilities,
    WeightsError,
    roll_luck,
)
from tavli.match import MatchSettings
from tavli.variants import GAMES, Fevga, Plakoto

WEIGHTS = Path(__file__).resolve().parent.parent / "tavli" / "weights"


def positions_with_rolls(game: str, seed: int, count: int) -> list[tuple[Position, Dice]]:
    """Positions from random games, each with a roll that has at least two plays."""
    rng = random.Random(seed)
    bot = RandomBot(seed)
    out: list[tuple[Position, Dice]] = []
    while len(out) < count:
        pos = Position.start(game, rng.choice((WHITE, BLACK)))
        for _ in range(rng.randint(2, 60)):
            legal = pos.legal_plays(Dice(rng.randint(1, 6), rng.randint(1, 6)))
            after = legal.after(bot.choose(legal)) if len(legal) else pos.pass_turn()
            if after.result() is not None:
                break
            pos = after
        dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
        if len(pos.legal_plays(dice)) >= 2:
            out.append((pos, dice))
    return out


def save_network(path: Path, network: Network, meta: dict[str, object]) -> None:
    w1, b1, w2, b2 = network
    np.savez(path, w1=w1, b1=b1, w2=w2, b2=b2, meta=np.array(json.dumps(meta)))


def constant_network(kernel_id: int, b2: tuple[float, float, float], hidden: int = 3) -> Network:
    """A network that answers sigmoid(b2) whatever the position."""
    return (np.zeros((N_INPUTS[kernel_id], hidden), np.float32), np.zeros(hidden, np.float32),
            np.zeros((3, hidden), np.float32), np.array(b2, np.float32))


def sigmoid(a: float) -> float:
    return 1 / (1 + math.exp(-a))


# -- Probabilities ------------------------------------------------------------------

@pytest.mark.parametrize(("win", "win2", "lose2", "equity"), [
    (1.0, 1.0, 0.0, 2.0),
    (1.0, 0.0, 0.0, 1.0),
    (0.0, 0.0, 1.0, -2.0),
    (0.0, 0.0, 0.0, -1.0),
    (0.5, 0.0, 0.0, 0.0),
    (0.6, 0.2, 0.1, 0.3),
])
def test_equity(win: float, win2: float, lose2: float, equity: float) -> None:
    p = Probabilities(win, win2, lose2)
    assert p.equity == pytest.approx(equity)
    assert Analysis(3, p, 1).equity == p.equity


def test_probabilities_text() -> None:
    text = str(Probabilities(0.6, 0.2, 0.1))
    assert text == "win 60.0% (2 points 20.0%), lose 2 points 10.0%, equity +0.300"


# -- loading -------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_shipped_networks_load(game: str) -> None:
    bearoff.load()  # the tables are shared; time the network alone
    start = time.perf_counter()
    ev = Evaluator.from_file(WEIGHTS / f"{game}.npz")
    assert time.perf_counter() - start < 1.0
    kernel_id = Position.start(game).variant.kernel_id
    assert ev.kernel_id == kernel_id
    assert ev.meta["variant"] == game
    w1, b1, w2, b2 = ev.network
    assert w1.shape[0] in INPUT_GROUP_ENDS[kernel_id]
    assert w1.shape[1] == len(b1) and w2.shape == (3, len(b1)) and b2.shape == (3,)
    assert all(a.dtype == np.float32 and a.flags.c_contiguous for a in ev.network)
    shipped = Evaluator.for_variant(game)
    assert shipped is Evaluator.for_variant(game)  # loaded once
    for a, b in zip(shipped.network, ev.network, strict=True):
        np.testing.assert_array_equal(a, b)


def test_house_rules_share_their_games_network() -> None:
    for variant, game in ((Plakoto(mother_pin="single"), "plakoto"), (Fevga(prime_limits=False), "fevga")):
        ev = Evaluator.for_variant(variant)
        np.testing.assert_array_equal(ev.network[0], Evaluator.for_variant(game).network[0])
        p = ev.probabilities(Position.start(variant))
        assert 0 < p.win < 1


@pytest.mark.parametrize("game", GAMES)
def test_start_position_chances_are_consistent(game: str) -> None:
    p = Evaluator.for_variant(game).probabilities(Position.start(game))
    assert 0.0 < p.win < 1.0
    assert 0.0 <= p.win2 <= p.win
    assert 0.0 <= p.lose2 <= 1.0 - p.win
    # the same position with the other colour to move is the same for the network
    assert Evaluator.for_variant(game).probabilities(Position.start(game, BLACK)) == p


def test_wrong_game_is_refused() -> None:
    ev = Evaluator.for_variant("portes")
    with pytest.raises(TavliError, match="this network plays portes, not fevga"):
        ev.probabilities(Position.start("fevga"))
    with pytest.raises(TavliError, match="not plakoto"):
        ev.analyse(Position.start("plakoto").legal_plays(Dice(6, 5)))


def test_a_network_file_built_by_hand(tmp_path: Path) -> None:
    path = tmp_path / "constant.npz"
    save_network(path, constant_network(K.PLAKOTO, (0.0, -1.0, -2.0)), {"variant": "plakoto", "kernel_id": 1})
    ev = Evaluator.from_file(path)
    assert ev.kernel_id == K.PLAKOTO and ev.meta["variant"] == "plakoto"
    p = ev.probabilities(Position.start("plakoto"))
    assert (p.win, p.win2, p.lose2) == pytest.approx((0.5, sigmoid(-1.0), sigmoid(-2.0)), abs=1e-7)
    # after any play the opponent is to roll: his chances turned over
    legal = Position.start("plakoto").legal_plays(Dice(6, 5))
    for a in ev.analyse(legal):
        assert a.depth == 0
        assert (a.probabilities.win, a.probabilities.win2, a.probabilities.lose2) == pytest.approx(
            (0.5, sigmoid(-2.0), sigmoid(-1.0)), abs=1e-7)


def test_inconsistent_outputs_are_bounded(tmp_path: Path) -> None:
    # raw outputs win 0.27 < win2 0.88 and lose2 0.95 > 1 - win: cut to the bounds
    ev = Evaluator(K.PORTES, constant_network(K.PORTES, (-1.0, 2.0, 3.0)), {"variant": "portes"})
    p = ev.probabilities(Position.start("portes"))
    assert p.win == pytest.approx(sigmoid(-1.0), abs=1e-7)
    assert p.win2 == p.win
    assert p.lose2 == pytest.approx(1 - p.win)


def test_races_at_home_use_the_bearoff_tables() -> None:
    ev = Evaluator(K.PORTES, constant_network(K.PORTES, (0.0, 0.0, 0.0)), {"variant": "portes"})
    sure_win = ev.probabilities(Position.from_checkers("portes", WHITE, {1: 1}, {6: 15}))
    assert sure_win == Probabilities(1, 1, 0)
    sure_loss = ev.probabilities(Position.from_checkers("portes", WHITE, {6: 15}, {1: 1}))
    assert (sure_loss.win, sure_loss.win2) == (0.0, 0.0) and 0 < sure_loss.lose2 < 1
    # not yet a race: the network's constant answer
    outside = Position.from_checkers("portes", WHITE, {7: 1}, {6: 15})
    assert ev.probabilities(outside) == Probabilities(0.5, 0.5, 0.5)


def wrote(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def one_line_error(path: Path) -> str:
    with pytest.raises(WeightsError) as info:
        Evaluator.from_file(path)
    message = str(info.value)
    assert "\n" not in message
    assert str(path) in message
    return message


def test_missing_file(tmp_path: Path) -> None:
    assert one_line_error(tmp_path / "nowhere.npz").startswith("cannot read network")


def test_not_a_network_file(tmp_path: Path) -> None:
    path = wrote(tmp_path / "text.npz", b"not a network at all")
    assert one_line_error(path).startswith("cannot read network")


def test_an_array_missing(tmp_path: Path) -> None:
    w1, b1, _, b2 = constant_network(K.PORTES, (0, 0, 0))
    path = tmp_path / "no-w2.npz"
    np.savez(path, w1=w1, b1=b1, b2=b2, meta=np.array(json.dumps({"kernel_id": 0})))
    assert "w2" in one_line_error(path)


def test_a_network_of_another_shape(tmp_path: Path) -> None:
    # Plakoto inputs under Portes' name: more than Portes has
    path = tmp_path / "mismatch.npz"
    save_network(path, constant_network(K.PLAKOTO, (0, 0, 0)), {"variant": "portes", "kernel_id": 0})
    assert "does not fit" in one_line_error(path)
    w1, b1, w2, b2 = constant_network(K.FEVGA, (0, 0, 0), hidden=4)
    save_network(path, (w1, b1, w2[:, :3], b2), {"variant": "fevga", "kernel_id": 2})
    assert "does not fit" in one_line_error(path)
    save_network(path, constant_network(K.FEVGA, (0, 0, 0)), {"variant": "fevga", "kernel_id": 7})
    assert "does not fit" in one_line_error(path)


@pytest.mark.parametrize("game", GAMES)
def test_a_network_from_before_inputs_were_added(tmp_path: Path, game: str) -> None:
    # inputs are only added at the end: a network saved with fewer keeps its own inputs, does
    # not compute the rest, and judges every position exactly as the full network with those
    # rows zero; it is the same network by its fingerprint too
    kernel_id = Position.start(game).variant.kernel_id
    n_in = N_INPUTS[kernel_id]
    rng = np.random.default_rng(3)
    w1 = rng.normal(0, 0.3, (n_in, 5)).astype(np.float32)
    b1, w2, b2 = (rng.normal(0, 0.3, shape).astype(np.float32) for shape in ((5,), (3, 5), (3,)))
    meta = {"variant": game, "kernel_id": kernel_id}
    for older_inputs in INPUT_GROUP_ENDS[kernel_id][-2::-2]:
        w1[older_inputs:] = 0.0
        save_network(tmp_path / "full.npz", (w1, b1, w2, b2), meta)
        save_network(tmp_path / "older.npz", (w1[:older_inputs], b1, w2, b2), meta)
        full, older = (Evaluator.from_file(tmp_path / name) for name in ("full.npz", "older.npz"))
        assert older.network[0].shape == (older_inputs, 5)
        assert older.fingerprint == full.fingerprint
        pos = Position.start(game)
        for dice in (Dice(6, 5), Dice(3, 1), Dice(2, 2), Dice(6, 4), Dice(5, 5), Dice(4, 1)):
            assert older.probabilities(pos) == full.probabilities(pos)
            legal = pos.legal_plays(dice)
            assert older.analyse(legal, 1) == full.analyse(legal, 1)
            pos = legal.after(older.analyse(legal, 0)[0].index) if len(legal) else pos.pass_turn()


def test_a_network_whose_inputs_end_inside_a_group(tmp_path: Path) -> None:
    w1, b1, w2, b2 = constant_network(K.FEVGA, (0, 0, 0))
    path = tmp_path / "short.npz"
    meta = {"variant": "fevga", "kernel_id": K.FEVGA}
    first = INPUT_GROUP_ENDS[K.FEVGA][0]  # the inputs every network reads
    for cut in (first - 1, first + 1, N_INPUTS[K.FEVGA] - 1):  # none is where a group ends
        save_network(path, (w1[:cut], b1, w2, b2), meta)
        assert "does not fit" in one_line_error(path)
    save_network(path, (w1[:first], b1, w2, b2), meta)
    assert Evaluator.from_file(path).network[0].shape[0] == first


@pytest.mark.parametrize("cut", [0, 2])
def test_a_truncated_file(tmp_path: Path, cut: int) -> None:
    data = (WEIGHTS / "portes.npz").read_bytes()
    one_line_error(wrote(tmp_path / "cut.npz", data[:len(data) // 2] if cut else b""))


def test_meta_without_the_game(tmp_path: Path) -> None:
    path = tmp_path / "no-game.npz"
    save_network(path, constant_network(K.PORTES, (0, 0, 0)), {"variant": "portes"})
    one_line_error(path)


# -- levels and the bot ------------------------------------------------------------------

def test_levels() -> None:
    names = list(LEVELS)
    assert names == ["beginner", "casual", "intermediate", "advanced", "expert", "champion"]
    assert DEFAULT_LEVEL in LEVELS
    depths = [LEVELS[n].depth for n in names]
    noises = [LEVELS[n].noise for n in names]
    assert depths == sorted(depths) and depths[-1] == 2
    assert noises == sorted(noises, reverse=True) and noises[-1] == 0.0
    assert all(LEVELS[n].noise == 0 for n in names if LEVELS[n].depth > 0)
    assert all(LEVELS[n].name == n and LEVELS[n].description for n in names)


def test_every_level_has_a_lobby_rating_rising_with_its_strength() -> None:
    ratings = [rating for level in LEVELS.values() if (rating := level.lobby_rating) is not None]
    assert len(ratings) == len(LEVELS)  # the lobby offers every level
    assert ratings == sorted(set(ratings))  # each above the one below


def test_unknown_level() -> None:
    with pytest.raises(ValueError, match=r"unknown level 'grandmaster'.*beginner.*champion"):
        NeuralBot("grandmaster")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("level", list(LEVELS))
def test_every_level_chooses_a_legal_play(game: str, level: str) -> None:
    bot = NeuralBot(level, seed=1)
    count = 12 if LEVELS[level].depth < 2 else 4
    for pos, dice in positions_with_rolls(game, 3, count):
        legal = pos.legal_plays(dice)
        k = bot.choose(legal)
        assert isinstance(k, int) and 0 <= k < len(legal)
        assert pos.parse_play(str(legal[k]), dice) in legal
    single = Position.from_checkers("portes", WHITE, {1: 1}, {6: 15}).legal_plays(Dice(2, 1))
    assert len(single) == 1 and bot.choose(single) == 0


@pytest.mark.parametrize("level", ["beginner", "casual", "intermediate"])
def test_noisy_levels_repeat_with_a_seed(level: str) -> None:
    rolls = [pos.legal_plays(dice) for game in GAMES for pos, dice in positions_with_rolls(game, 9, 10)]
    first_bot = NeuralBot(level, seed=5)
    first = [first_bot.choose(legal) for legal in rolls]
    again_bot = NeuralBot(level, seed=5)
    assert [again_bot.choose(legal) for legal in rolls] == first
    other = NeuralBot(level, seed=6)
    best = NeuralBot("advanced")
    if level == "beginner":
        assert [other.choose(legal) for legal in rolls] != first
        assert [best.choose(legal) for legal in rolls] != first


@pytest.mark.parametrize("game", ["plakoto", "fevga", "portes"])
def test_noisy_levels_choose_among_the_best_few_where_the_game_asks(game: str) -> None:
    limit = NOISE_RULES[game].choices
    bot = NeuralBot("beginner", seed=3)
    outside = 0
    for pos, dice in positions_with_rolls(game, 11, 40):
        legal = pos.legal_plays(dice)
        ranks = [a.index for a in bot.analyse(legal)]
        for _ in range(5):
            rank = ranks.index(bot.choose(legal))
            outside += rank >= 3
            if limit is not None:
                assert rank < limit
    if limit is None:
        assert outside > 0  # Portes keeps noise over every play


def test_fevga_noise_fades_as_the_game_becomes_one_sided() -> None:
    rule = NOISE_RULES["fevga"]
    assert rule.calm_at is not None
    assert rule.sigma(0.1, 0.0) == pytest.approx(0.1 * rule.scale)
    assert rule.sigma(0.1, rule.calm_at / 2) == pytest.approx(0.05 * rule.scale)
    assert rule.sigma(0.1, -rule.calm_at) == 0.0 == rule.sigma(0.1, 3 * rule.calm_at)
    assert NOISE_RULES["portes"].sigma(0.1, 1.9) == 0.1  # the other games keep their noise whole
    beginner, best = NeuralBot("beginner", seed=2), NeuralBot("advanced")
    one_sided = balanced = 0
    differs = False
    for pos, dice in positions_with_rolls("fevga", 5, 300):
        legal = pos.legal_plays(dice)
        if len(legal) < 2:
            continue
        value = best.analyse(legal)[0].equity
        if abs(value) >= rule.calm_at:
            one_sided += 1
            assert beginner.choose(legal) == best.choose(legal)
        elif abs(value) < 0.3:
            balanced += 1
            differs = differs or any(beginner.choose(legal) != best.choose(legal) for _ in range(5))
    assert one_sided > 0 and balanced > 0 and differs


def test_advanced_level_is_deterministic_without_a_seed() -> None:
    rolls = [pos.legal_plays(dice) for pos, dice in positions_with_rolls("portes", 4, 10)]
    a, b = NeuralBot("advanced"), NeuralBot("advanced")
    assert [a.choose(legal) for legal in rolls] == [b.choose(legal) for legal in rolls]


SURE_WINS = [
    ("portes", {6: 1, 5: 1}, {13: 15}, Dice(6, 5)),
    ("fevga", {6: 1, 4: 1}, {20: 15}, Dice(6, 4)),
    ("plakoto", {6: 1, 3: 1}, {13: 15}, Dice(6, 3)),
]


def check_sure_win(game: str, white: dict[int, int], black: dict[int, int], dice: Dice, level: str) -> None:
    legal = Position.from_checkers(game, WHITE, white, black).legal_plays(dice)
    winning = [k for k in range(len(legal)) if legal.after(k).result() is not None]
    assert len(legal) >= 2 and len(winning) == 1
    bot = NeuralBot(level)
    best = bot.analyse(legal)[0]
    assert best.index == winning[0]
    assert best.probabilities == Probabilities(1.0, 1.0, 0.0)  # Black has none off: 2 points
    assert bot.choose(legal) == winning[0]


@pytest.mark.parametrize(("game", "white", "black", "dice"), SURE_WINS)
@pytest.mark.parametrize("level", ["advanced", "expert"])
def test_a_sure_win_is_taken(game: str, white: dict[int, int], black: dict[int, int], dice: Dice,
                             level: str) -> None:
    check_sure_win(game, white, black, dice, level)


@pytest.mark.parametrize(("game", "white", "black", "dice"), [SURE_WINS[0], SURE_WINS[2]])
def test_champion_takes_a_sure_win(game: str, white: dict[int, int], black: dict[int, int],
                                   dice: Dice) -> None:
    # the other play wins for sure one turn later, whatever the network
    check_sure_win(game, white, black, dice, "champion")


@pytest.mark.parametrize("level", ["advanced", "expert", "champion"])
def test_values_stay_within_bounds(level: str) -> None:
    legal = Position.from_checkers("fevga", WHITE, {6: 1, 4: 1}, {20: 15}).legal_plays(Dice(6, 4))
    for a in NeuralBot(level).analyse(legal):
        assert 0.0 <= a.probabilities.win <= 1.0 + 1e-12
        assert a.equity <= 2.0 + 1e-12


def test_a_hand_made_network_steers_the_bot() -> None:
    # the side to roll likes his own pip count low: so the side that moved prefers the play
    # that leaves the opponent the most pips, that is, the hit
    w1 = np.zeros((N_INPUTS[K.PORTES], 1), np.float32)
    w1[192 + 4, 0] = -1.0  # the mover's pips / 100
    network = (w1, np.zeros(1, np.float32), np.array([[5.0], [0.0], [0.0]], np.float32),
               np.array([-2.5, -20.0, -20.0], np.float32))
    ev = Evaluator(K.PORTES, network, {"variant": "portes"})
    bot = NeuralBot("advanced", evaluators={K.PORTES: ev})
    checked = 0
    for pos, dice in positions_with_rolls("portes", 21, 25):
        legal = pos.legal_plays(dice)
        if any(bearoff.all_home(r, K.PORTES) or K.outcome(r, K.PORTES) for r in legal.results):
            continue  # the tables or the rules answer there, not the network
        their_pips = [legal.after(k).pip_count(legal.after(k).turn) for k in range(len(legal))]
        assert their_pips[bot.choose(legal)] == max(their_pips)
        checked += len(set(their_pips)) > 1
    assert checked >= 3
    # Black's blot on White's 9, four pips in front of White's checkers: 4-2 hits
    legal = Position.from_checkers("portes", WHITE, {13: 15}, {16: 1, 1: 14}).legal_plays(Dice(4, 2))
    assert "*" in str(legal[bot.choose(legal)])


# -- analyse --------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_analyse_is_sorted_best_first(game: str) -> None:
    ev = Evaluator.for_variant(game)
    pos, dice = positions_with_rolls(game, 14, 1)[0]
    legal = pos.legal_plays(dice)
    for depth in (0, 1, 2):
        found = ev.analyse(legal, depth)
        assert sorted(a.index for a in found) == list(range(len(legal)))
        keys = [(-a.depth, -a.equity) for a in found]
        assert keys == sorted(keys)
        assert found[0].depth == depth
        assert all(a.depth <= depth for a in found)
        assert sum(a.depth >= 1 for a in found) <= 8 and sum(a.depth == 2 for a in found) <= 3
        for a in found:
            p = a.probabilities
            assert 0 <= p.win2 <= p.win <= 1 and 0 <= p.lose2 <= 1 - p.win + 1e-12
    # 0 ply: the opponent's own chances, turned over (the plays of a roll are valued as a batch, in
    # float32 sums of another order than one position's: within a millionth)
    for a in ev.analyse(legal, 0):
        after = legal.after(a.index)
        if after.result() is None:
            theirs = ev.probabilities(after)
            assert (a.probabilities.win, a.probabilities.win2, a.probabilities.lose2) == pytest.approx(
                (1 - theirs.win, theirs.lose2, theirs.win2), abs=1e-6)


def test_analyse_three_plies_deep_with_its_own_filters() -> None:
    ev = Evaluator.for_variant("portes")
    pos, dice = positions_with_rolls("portes", 14, 1)[0]
    legal = pos.legal_plays(dice)
    found = ev.analyse(legal, 3, ((4, 1.0), (2, 1.0), (1, 1.0)))
    assert [sum(a.depth == d for a in found) for d in (3, 2, 1)] == [1, 1, 2]
    deeper = ev.analyse(legal, 3, ((4, 1.0), (2, 1.0), (2, 1.0)))
    by_index = {a.index: a for a in found}
    assert found[0].index in {a.index for a in deeper if a.depth == 3}
    assert deeper[0].depth == 3 and by_index[deeper[0].index].depth >= 2
    with pytest.raises(ValueError, match="0 to 3 plies"):
        ev.analyse(legal, 4)
    with pytest.raises(ValueError, match="needs 2 filters, not 1"):
        ev.analyse(legal, 2, ((8, 0.16),))


def test_deciding_searches_less_and_chooses_the_same() -> None:
    ev = Evaluator.for_variant("plakoto")
    for pos, dice in positions_with_rolls("plakoto", 6, 8):
        legal = pos.legal_plays(dice)
        if len(legal) < 2:
            continue
        full, quick = ev.analyse(legal, 2), ev.analyse(legal, 2, decide=True)
        assert quick[0].index == full[0].index
        assert sum(a.depth for a in quick) <= sum(a.depth for a in full)
        assert NeuralBot("champion").choose(legal) == full[0].index


def test_bot_analyse_uses_its_level() -> None:
    legal = Position.start("portes").legal_plays(Dice(4, 3))
    assert {a.depth for a in NeuralBot("casual").analyse(legal)} == {0}
    assert NeuralBot("expert").analyse(legal)[0].depth == 1
    assert NeuralBot("champion").analyse(legal)[0].depth == 2


def test_analyse_grows_a_small_workspace() -> None:
    ev = Evaluator.for_variant("portes")
    legal = Position.start("portes").legal_plays(Dice(6, 5))
    normal = [(a.index, a.equity) for a in ev.analyse(legal, 1)]
    saved = K.use_workspace(K.Workspace(nodes=16, plays=16))
    try:
        small = [(a.index, a.equity) for a in ev.analyse(legal, 1)]
    finally:
        K.use_workspace(saved)
    assert [i for i, _ in small] == [i for i, _ in normal]
    assert [e for _, e in small] == pytest.approx([e for _, e in normal])


# -- luck ---------------------------------------------------------------------------------

WEIGHT = {Dice(a, b): 1 if a == b else 2 for a in range(1, 7) for b in range(a, 7)}


@pytest.mark.parametrize("game", GAMES)
def test_roll_equities_are_the_best_plays_at_0_ply(game: str) -> None:
    ev = Evaluator.for_variant(game)
    for pos, _ in positions_with_rolls(game, 31, 3):
        values = ev.roll_equities(pos)
        assert set(values) == set(WEIGHT)
        for dice, value in values.items():
            legal = pos.legal_plays(dice)
            if len(legal):
                assert value == pytest.approx(ev.analyse(legal, 0)[0].equity, abs=1e-9)
            else:  # he passes: his equity is the opponent's, turned over
                assert value == pytest.approx(-ev.probabilities(pos.pass_turn()).equity, abs=1e-6)


@pytest.mark.parametrize("game", GAMES)
def test_luck_averages_zero_over_the_throws(game: str) -> None:
    ev = Evaluator.for_variant(game)
    for pos, _ in positions_with_rolls(game, 32, 4):
        luck = {dice: ev.luck(pos, dice) for dice in WEIGHT}
        assert sum(WEIGHT[d] * x for d, x in luck.items()) == pytest.approx(0.0, abs=1e-9)
        assert max(luck.values()) > 0 > min(luck.values())
        assert ev.luck(pos, Dice(5, 2)) == ev.luck(pos, Dice(2, 5))


def test_luck_at_a_score_is_in_match_winning_chance() -> None:
    from tavli.bots.match_equity import MatchScore
    from tavli.match import MatchSettings

    ev = Evaluator.for_variant("portes")
    position = Position.from_string(GAMMON_GO)
    # 2-away against 1-away a 2-point win is the match: each roll is valued by the best play
    # for the match, which is the hit with 3-1 (the money play too), and the luck is that
    # chance against the mean of the 36 throws
    score = MatchScore.at(MatchSettings(length=5), need=2, opp_need=1, game=0)
    after = score.after_game()
    values = ev.roll_probabilities(position, after)
    assert set(values) == set(WEIGHT)
    for dice, p in values.items():
        legal = position.legal_plays(dice)
        best = max(ev.analyse(legal, 0, after=after), key=lambda a: a.match_equity or 0.0)
        assert after.value(p.win, p.win2, p.lose2) == pytest.approx(best.match_equity, abs=1e-9)
    luck = {d: ev.luck(position, d, after) for d in WEIGHT}
    assert sum(WEIGHT[d] * x for d, x in luck.items()) == pytest.approx(0.0, abs=1e-9)
    # at 1-away each the match is the game: match-equity luck is luck in the chance of winning
    dmp = MatchScore.at(MatchSettings(length=3, games=("portes",)), need=1, opp_need=1, game=0).after_game()
    by_win = roll_luck(ev.roll_probabilities(position, dmp), Dice(3, 1), lambda p: p.win)
    assert ev.luck(position, Dice(3, 1), dmp) == pytest.approx(by_win)
    # and the best play for the game's chance is not the best for points: the two meters differ
    assert ev.roll_probabilities(position, dmp)[Dice(1, 3)] != ev.roll_probabilities(position)[Dice(1, 3)]


def test_dancing_is_bad_luck_and_entering_good() -> None:
    # Black holds his 2 to 6: White, on the bar, enters only with a 1
    pos = Position.from_checkers("portes", WHITE, {25: 1, 6: 14},
                                 {2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 5})
    ev = Evaluator.for_variant("portes")
    assert all(ev.luck(pos, d) > 0 for d in WEIGHT if 1 in d)
    assert all(ev.luck(pos, d) < 0 for d in WEIGHT if 1 not in d)


def test_luck_refuses_another_game() -> None:
    with pytest.raises(TavliError, match="plays portes"):
        Evaluator.for_variant("portes").luck(Position.start("fevga"), Dice(3, 1))


def test_roll_equities_grow_a_small_workspace() -> None:
    ev = Evaluator.for_variant("plakoto")
    pos = positions_with_rolls("plakoto", 33, 1)[0][0]
    normal = ev.roll_equities(pos)
    saved = K.use_workspace(K.Workspace(nodes=16, plays=16))
    try:
        small = ev.roll_equities(pos)
    finally:
        K.use_workspace(saved)
    assert small == pytest.approx(normal)


# -- score-aware play ----------------------------------------------------------

GAMMON_GO = "portes 2w.2w...........1b1w....3b3b3b5b w 0:0 10:0"
"""White has borne off 10 checkers, Black none, with one Black checker still on White's side
(point 17 from White's view): with 3-1, hitting it (16/15*/12) plays for a 2-point win at a
small risk, 16/12 safely for the game."""


def test_score_changes_the_play_for_points_or_for_the_match() -> None:
    from tavli.bots.match_equity import MatchScore
    from tavli.match import MatchSettings

    position = Position.from_string(GAMMON_GO)
    legal = position.legal_plays(Dice(3, 1))
    hit, safe = legal.index(position.parse_play("16/15*/12", "31")), legal.index(position.parse_play("16/12", "31"))
    for level in ("advanced", "expert"):
        bot = NeuralBot(level)
        money = {a.index: a for a in bot.analyse(legal)}
        # for points, the hit's extra 2-point wins outweigh its few lost games
        assert money[hit].equity > money[safe].equity
        assert money[hit].probabilities.win < money[safe].probabilities.win
        assert bot.choose(legal) == hit
        # at 1-away each a won game is the match whatever its points: the match equity after
        # a play is just its chance of winning the game, which the safe play has more of
        dmp = MatchScore.at(MatchSettings(length=3, games=("portes",)), need=1, opp_need=1, game=0)
        at = dmp.after_game()
        assert (at.win1, at.win2, at.tie, at.lose1, at.lose2) == pytest.approx((1.0, 1.0, 0.5, 0.0, 0.0))
        at_dmp = {a.index: a for a in bot.analyse(legal, dmp)}
        for a in at_dmp.values():
            assert a.match_equity == pytest.approx(a.probabilities.win)
        assert bot.choose(legal, dmp) == safe
        # 2-away against 1-away a 2-point win is the match and a 1-point win only DMP: go for it
        gammon_go = MatchScore.at(MatchSettings(length=5), need=2, opp_need=1, game=0)
        assert bot.choose(legal, gammon_go) == hit


def test_money_weights_rank_as_points_per_game() -> None:
    from tavli.bots.match_equity import MONEY

    ev = Evaluator.for_variant("plakoto")
    for position, dice in positions_with_rolls("plakoto", 11, 6):
        legal = position.legal_plays(dice)
        plain = ev.analyse(legal, 1)
        weighted = ev.analyse(legal, 1, after=MONEY)
        assert [a.index for a in plain] == [a.index for a in weighted]
        assert all(a.match_equity == pytest.approx(a.equity) for a in weighted)


def test_the_search_values_the_opponents_plays_by_his_own_match_equity() -> None:
    from tavli.bots.match_equity import MatchEquity
    from tavli.bots.neural import search_weights
    from tavli.match import MatchSettings

    table = MatchEquity.for_settings(MatchSettings(length=7))
    for need, opp_need, game in ((1, 2, 0), (2, 1, 1), (3, 7, 2), (5, 4, 4), (1, 1, 1)):
        mine = search_weights(table.after_game(need, opp_need, game))
        his = table.after_game(opp_need, need, game).weights()
        assert mine[1] == pytest.approx(np.array(his))


def test_a_resignation_is_taken_by_what_playing_on_is_worth_at_the_score() -> None:
    bot = NeuralBot("expert")
    # White, to play, is all but gammoned: Black bears off while White's checkers are a board away
    gammoned = Position.from_checkers("portes", WHITE, {12: 15}, {p: 3 for p in range(1, 6)})
    assert not bot.accepts_resignation(gammoned, 1) and bot.accepts_resignation(gammoned, 2)
    legal = gammoned.legal_plays(Dice(6, 5))  # after his roll: from his best play of it
    assert not bot.accepts_resignation(legal, 1) and bot.accepts_resignation(legal, 2)
    settings = MatchSettings(length=5, games=("portes",))
    one_away = MatchScore.at(settings, need=5, opp_need=1, game=0)  # the resigner's score: the bot needs 1
    assert bot.accepts_resignation(gammoned, 1, one_away) and bot.accepts_resignation(legal, 1, one_away)
    two_away = MatchScore.at(settings, need=5, opp_need=2, game=0)  # a 2-point win is the match
    assert not bot.accepts_resignation(legal, 1, two_away) and bot.accepts_resignation(legal, 2, two_away)
    far = MatchScore.at(settings, need=1, opp_need=5, game=0)  # 1 point of the 5 the bot needs is too little
    assert not bot.accepts_resignation(gammoned, 1, far)
