"""Self-play training: checkpoints, resuming, the learning-rate schedule and ``tavli train``."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from importlib import resources
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from tavli import Position, TavliError
from tavli import _kernel as K
from tavli.bots.features import N_INPUTS
from tavli.bots.gnubg_player import available
from tavli.bots.network import new_network
from tavli.bots.neural import Evaluator, NeuralBot
from tavli.bots.training import TrainConfig, Trainer, TrainState, measure_yardstick, new_state
from tavli.cli import cli


def tiny(variant: str = "portes", games: int = 200, **kw: object) -> TrainConfig:
    return TrainConfig(variant=variant, games=games, hidden=6, threads=1, eval_every=0,
                       checkpoint_every=10**6, **kw)  # type: ignore[arg-type]


def tavli_command(*args: str) -> list[str]:
    script = Path(sys.executable).parent / "tavli"
    if script.is_file():
        return [str(script), *args]
    return [sys.executable, "-c", "from tavli.cli import main; main()", *args]


# -- the schedule ------------------------------------------------------------------------

def test_alpha_schedule() -> None:
    config = TrainConfig(alpha=0.2, alpha_min=0.01, half_life=1000)
    assert config.alpha_at(0) == 0.2
    assert config.alpha_at(1000) == pytest.approx(0.1)
    assert config.alpha_at(2000) == pytest.approx(0.05)
    assert config.alpha_at(500) == pytest.approx(0.2 / 2 ** 0.5)
    assert config.alpha_at(10_000) == 0.01  # the floor
    rates = [config.alpha_at(g) for g in range(0, 10_000, 250)]
    assert all(a >= b for a, b in itertools.pairwise(rates))
    default = TrainConfig()
    assert default.alpha_at(default.half_life) == pytest.approx(default.alpha / 2)


# -- a tiny run ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, TrainState]:
    path = tmp_path_factory.mktemp("train") / "portes.npz"
    state = Trainer(new_state(tiny()), path).run(progress=False)
    return path, state


def test_a_tiny_run_writes_a_loadable_checkpoint(trained: tuple[Path, TrainState]) -> None:
    path, state = trained
    assert state.games == 200
    assert state.turns > 200 * 10
    assert state.seconds > 0
    ev = Evaluator.from_file(path)
    assert ev.kernel_id == 0 and ev.meta["variant"] == "portes"
    assert ev.meta["games"] == 200 and ev.meta["hidden"] == 6
    assert ev.network[0].shape == (N_INPUTS[0], 6)
    fresh = new_network(0, hidden=6, seed=1)
    assert not np.array_equal(ev.network[0], fresh[0])  # training moved the weights
    for saved, live in zip(ev.network, state.network, strict=True):
        np.testing.assert_array_equal(saved, live)
    # a checkpoint plays
    bot = NeuralBot("advanced", evaluators={0: ev})
    legal = Position.start("portes").legal_plays("62")
    assert 0 <= bot.choose(legal) < len(legal)
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary left behind


def test_resume_continues_from_the_saved_count(trained: tuple[Path, TrainState], tmp_path: Path) -> None:
    path, _ = trained
    copy = tmp_path / "resumed.npz"
    copy.write_bytes(path.read_bytes())
    state = TrainState.load(copy)
    assert (state.games, state.config.hidden, state.config.variant) == (200, 6, "portes")
    before = tuple(a.copy() for a in state.network)
    turns, seconds = state.turns, state.seconds
    state.config.games = 300
    state = Trainer(state, copy).run(progress=False)
    assert state.games == 300
    assert state.turns > turns and state.seconds > seconds
    assert not np.array_equal(state.network[0], before[0])
    again = TrainState.load(copy)
    assert again.games == 300 and again.turns == state.turns
    assert again.config == state.config


def test_checkpoint_keeps_the_config_and_log(tmp_path: Path) -> None:
    config = tiny("fevga", games=0, alpha=0.05, seed=9)
    state = new_state(config)
    state.log.append({"games": 0, "seconds": 0.5, "ppg": -1.0, "ci95": 0.1})
    state.save(tmp_path / "f.npz")
    back = TrainState.load(tmp_path / "f.npz")
    assert back.config == config
    assert back.log == state.log
    for a, b in zip(back.network, state.network, strict=True):
        np.testing.assert_array_equal(a, b)
    # the same seed makes the same fresh network, another seed another one
    np.testing.assert_array_equal(new_state(config).network[0], state.network[0])
    assert not np.array_equal(new_state(tiny("fevga", seed=10)).network[0], state.network[0])


def test_measuring_strength_is_logged(tmp_path: Path) -> None:
    config = tiny("plakoto", games=100, yardstick_games=0)
    config.eval_every = 100
    config.eval_games = 2
    state = Trainer(new_state(config), tmp_path / "p.npz").run(progress=False)
    assert len(state.log) >= 1
    entry = state.log[-1]
    assert set(entry) == {"games", "seconds", "ppg", "ci95"}
    assert -2 <= entry["ppg"] <= 2
    assert TrainState.load(tmp_path / "p.npz").log == state.log


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["portes", "fevga"])
def test_the_yardstick_is_logged(tmp_path: Path, variant: str) -> None:
    config = tiny(variant, games=100, yardstick_games=4, eval_games=2)
    config.eval_every = 100
    state = Trainer(new_state(config), tmp_path / "c.npz").run(progress=False)
    assert [e["games"] for e in state.log][:1] == [0]  # the untrained network first, then as it trains
    references = ["shipped"] + (["gnubg"] if variant == "portes" and available() else [])
    for entry in state.log:
        assert set(entry) == {"games", "seconds", "ppg", "ci95", "yardstick_games",
                              *references, *(f"{r}_ci95" for r in references)}
        assert entry["yardstick_games"] == 4
        # a network 100 games old loses to the shipped one and to GNU Backgammon, luck or not
        for name in references:
            assert entry[name] < 0 and entry[f"{name}_ci95"] >= 0
    assert TrainState.load(tmp_path / "c.npz").log == state.log


@pytest.mark.slow
def test_the_yardstick_replays_the_same_dice_and_judges_the_network() -> None:
    untrained = new_state(tiny("fevga"))
    # sixteen games: over four, the luck the shipped network reads into one long game of the
    # untrained one's can outweigh every point played (+10 a game less luck, seen)
    first = measure_yardstick(untrained, games=16, seed=2)
    assert measure_yardstick(untrained, games=16, seed=2) == first  # the same network, the same dice
    shipped = TrainState.load(Path(resources.files("tavli") / "weights" / "fevga.npz"))  # type: ignore[arg-type]
    same = measure_yardstick(shipped, games=4, seed=2)
    assert same == {"shipped": 0.0, "shipped_ci95": 0.0}  # the shipped network against itself: even
    assert first["shipped"] < -0.5


@pytest.mark.gnubg
def test_the_yardstick_measures_against_gnubg_in_portes() -> None:
    pytest.importorskip("gnubg")
    figures = measure_yardstick(new_state(tiny("portes")), games=2, seed=1)
    assert set(figures) == {"shipped", "shipped_ci95", "gnubg", "gnubg_ci95"}


# -- bad checkpoints ---------------------------------------------------------------------

def test_garbage_checkpoint(tmp_path: Path) -> None:
    path = tmp_path / "bad.npz"
    path.write_bytes(b"this is no checkpoint")
    with pytest.raises(TavliError, match="cannot resume from"):
        TrainState.load(path)
    with pytest.raises(TavliError, match="cannot resume from"):
        TrainState.load(tmp_path / "missing.npz")


def test_checkpoint_with_an_unknown_setting(tmp_path: Path) -> None:
    state = new_state(tiny())
    state.save(tmp_path / "ok.npz")
    with np.load(tmp_path / "ok.npz") as data:
        arrays = {k: data[k] for k in data.files}
    meta = json.loads(str(arrays["meta"]))
    meta["config"]["momentum"] = 0.9
    np.savez(tmp_path / "odd.npz", **{**arrays, "meta": np.array(json.dumps(meta))})
    with pytest.raises(TavliError, match="cannot resume from"):
        TrainState.load(tmp_path / "odd.npz")
    del meta["config"]
    np.savez(tmp_path / "noconfig.npz", **{**arrays, "meta": np.array(json.dumps(meta))})
    with pytest.raises(TavliError, match="cannot resume from"):
        TrainState.load(tmp_path / "noconfig.npz")


def with_arrays(src: Path, dst: Path, **arrays: np.ndarray) -> Path:
    with np.load(src) as data:
        np.savez(dst, **{**{k: data[k] for k in data.files}, **arrays})
    return dst


def test_a_network_from_before_new_inputs_loads_with_them_silent(trained: tuple[Path, TrainState],
                                                                 tmp_path: Path) -> None:
    path, state = trained
    older = with_arrays(path, tmp_path / "older.npz", w1=state.network[0][:-4])  # four inputs fewer
    loaded = TrainState.load(older)
    assert loaded.network[0].shape == state.network[0].shape
    assert not loaded.network[0][-4:].any()
    np.testing.assert_array_equal(loaded.network[0][:-4], state.network[0][:-4])


@pytest.mark.parametrize("bad", ["more inputs", "hidden mismatch", "outputs"])
def test_a_checkpoint_whose_arrays_do_not_fit_is_refused(trained: tuple[Path, TrainState], tmp_path: Path,
                                                         bad: str) -> None:
    path, state = trained
    w1, b1, w2, _ = state.network
    arrays = {"more inputs": {"w1": np.concatenate([w1, w1[:1]])},
              "hidden mismatch": {"b1": b1[:-1]},
              "outputs": {"w2": w2[:2]}}[bad]
    with pytest.raises(TavliError, match="not a portes network"):
        TrainState.load(with_arrays(path, tmp_path / "bad.npz", **arrays))


def test_truncated_checkpoint(trained: tuple[Path, TrainState], tmp_path: Path) -> None:
    data = trained[0].read_bytes()
    path = tmp_path / "cut.npz"
    path.write_bytes(data[:len(data) // 2])
    with pytest.raises(TavliError, match="cannot resume from"):
        TrainState.load(path)


# -- tavli train ---------------------------------------------------------------------------

@pytest.mark.slow
def test_train_command_and_resume(tmp_path: Path) -> None:
    path = tmp_path / "ck.npz"
    runner = CliRunner()
    args = ["train", "--variant", "fevga", "--checkpoint", str(path), "--threads", "1", "--hidden", "5",
            "--eval-every", "0"]
    first = runner.invoke(cli, [*args, "--games", "100"])
    assert first.exit_code == 0, first.output
    assert "fevga: 100 games" in first.stdout and f"saved {path}" in first.stdout
    assert Evaluator.from_file(path).network[0].shape == (N_INPUTS[2], 5)
    second = runner.invoke(cli, [*args, "--games", "200"])
    assert second.exit_code == 0, second.output
    assert "resuming" in second.stderr and "at 100 games" in second.stderr
    assert "fevga: 200 games" in second.stdout
    assert TrainState.load(path).games == 200
    fresh = runner.invoke(cli, [*args, "--games", "100", "--fresh"])
    assert fresh.exit_code == 0 and "resuming" not in fresh.stderr
    assert TrainState.load(path).games == 100


@pytest.mark.slow
@pytest.mark.parametrize(("field", "option", "value", "other", "refused", "step"), [
    ("explore", "--explore", 0.5, 0.1, "2", 100),
    ("lookahead", "--lookahead", 1, 0, "3", 10),  # twenty times the cost of a game: fewer games
    ("td_lambda", "--lambda", 0.7, 0.5, "1", 100),
])
def test_a_training_setting_trains_otherwise_and_is_kept(tmp_path: Path, field: str, option: str, value: float,
                                                         other: float, refused: str, step: int) -> None:
    # games come in calls of 100 (5 with lookahead): a run may end a little past its goal
    plain = Trainer(new_state(tiny("fevga", games=step)), tmp_path / "a.npz").run(progress=False)
    again = Trainer(new_state(tiny("fevga", games=step)), tmp_path / "b.npz").run(progress=False)
    changed = Trainer(new_state(tiny("fevga", games=step, **{field: value})), tmp_path / "c.npz").run(progress=False)
    np.testing.assert_array_equal(plain.network[0], again.network[0])  # one thread, one seed: repeatable
    assert not np.array_equal(plain.network[0], changed.network[0])
    assert getattr(TrainState.load(tmp_path / "a.npz").config, field) == getattr(TrainConfig(), field)
    assert getattr(TrainState.load(tmp_path / "c.npz").config, field) == value
    # a resume keeps the checkpoint's setting unless told otherwise; a value out of range is refused
    args = ["train", "--variant", "fevga", "--checkpoint", str(tmp_path / "c.npz"), "--threads", "1",
            "--eval-every", "0"]
    assert CliRunner().invoke(cli, [*args, "--games", str(2 * step)]).exit_code == 0
    assert getattr(TrainState.load(tmp_path / "c.npz").config, field) == value
    assert CliRunner().invoke(cli, [*args, "--games", str(3 * step), option, str(other)]).exit_code == 0
    assert getattr(TrainState.load(tmp_path / "c.npz").config, field) == other
    assert CliRunner().invoke(cli, [*args, "--games", str(4 * step)]).exit_code == 0
    kept = TrainState.load(tmp_path / "c.npz")
    assert getattr(kept.config, field) == other and kept.games >= 4 * step
    bad = CliRunner().invoke(cli, [*args, "--games", str(kept.games + step), option, refused])
    assert bad.exit_code == 2 and option in bad.output
    assert TrainState.load(tmp_path / "c.npz").games == kept.games  # the refused run trained nothing


@pytest.mark.slow
def test_alpha_min_is_kept_and_can_be_lowered_on_resume(tmp_path: Path) -> None:
    path = tmp_path / "c.npz"
    args = ["train", "--variant", "fevga", "--checkpoint", str(path), "--threads", "1", "--hidden", "5",
            "--eval-every", "0"]
    assert CliRunner().invoke(cli, [*args, "--games", "100"]).exit_code == 0
    assert TrainState.load(path).config.alpha_min == 0.02  # the default floor
    assert CliRunner().invoke(cli, [*args, "--games", "150", "--alpha-min", "0.005"]).exit_code == 0
    config = TrainState.load(path).config
    assert config.alpha_min == 0.005 and config.alpha_at(10**7) == 0.005
    assert CliRunner().invoke(cli, [*args, "--games", "200"]).exit_code == 0
    assert TrainState.load(path).config.alpha_min == 0.005  # a resume keeps it unless told otherwise
    bad = CliRunner().invoke(cli, [*args, "--games", "300", "--alpha-min", "0"])
    assert bad.exit_code == 2 and "--alpha-min" in bad.output
    assert TrainState.load(path).games == 200


def some_positions(variant: str, n: int, seed: int = 3) -> list[Position]:
    rng = np.random.default_rng(seed)
    position, found = Position.start(variant), list[Position]()
    while len(found) < n and position.result() is None:
        legal = position.legal_plays((int(rng.integers(1, 7)), int(rng.integers(1, 7))))
        position = legal.after(int(rng.integers(len(legal)))) if len(legal) else position.pass_turn()
        found.append(position)
    return found


def test_widening_keeps_every_value(trained: tuple[Path, TrainState]) -> None:
    state = TrainState.load(trained[0])
    positions = some_positions("portes", 30)
    before = Evaluator(K.PORTES, state.network, {"variant": "portes"})
    state.widen(10)
    after = Evaluator(K.PORTES, state.network, {"variant": "portes"})
    assert state.network[0].shape == (N_INPUTS[K.PORTES], 10) and state.config.hidden == 10
    for position in positions:
        assert after.probabilities(position) == pytest.approx(before.probabilities(position), abs=1e-6)
    with pytest.raises(TavliError, match="grow, not shrink"):
        state.widen(9)
    assert state.network[0].shape[1] == 10


@pytest.mark.slow
def test_train_widens_on_resume_and_the_new_units_learn(tmp_path: Path) -> None:
    path = tmp_path / "c.npz"
    args = ["train", "--variant", "fevga", "--checkpoint", str(path), "--threads", "1", "--eval-every", "0"]
    assert CliRunner().invoke(cli, [*args, "--games", "100", "--hidden", "5"]).exit_code == 0
    result = CliRunner().invoke(cli, [*args, "--games", "200", "--hidden", "8"])
    assert result.exit_code == 0 and "with 8 hidden units" in result.output
    state = TrainState.load(path)
    assert state.games == 200 and state.config.hidden == 8 and state.network[0].shape[1] == 8
    assert np.all(state.network[2][:, 5:] != 0.0)  # the new units started silent and have learned
    bad = CliRunner().invoke(cli, [*args, "--games", "300", "--hidden", "6"])
    assert bad.exit_code != 0 and "grow, not shrink" in bad.output and len(bad.output.splitlines()) == 1
    assert TrainState.load(path).games == 200


def test_train_refuses_another_games_checkpoint(tmp_path: Path) -> None:
    path = tmp_path / "fevga.npz"
    new_state(tiny("fevga")).save(path)
    run = subprocess.run(tavli_command("train", "--variant", "portes", "--checkpoint", str(path)),
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr.splitlines() == [f"error: {path} trains fevga, not portes"]
    assert TrainState.load(path).games == 0  # left alone


def test_train_reports_a_corrupt_checkpoint_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "junk.npz"
    path.write_bytes(b"junk")
    run = subprocess.run(tavli_command("train", "--variant", "portes", "--checkpoint", str(path)),
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    lines = run.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: cannot resume from {path}")
    assert path.read_bytes() == b"junk"


def png_width(path: Path) -> int:
    return int.from_bytes(path.read_bytes()[16:20], "big")


@pytest.mark.slow
def test_plot_training_draws_every_game(trained: tuple[Path, TrainState], tmp_path: Path) -> None:
    path, _ = trained
    other = new_state(tiny("fevga"))
    other.log = [{"games": 0, "seconds": 0.0, "ppg": -1.2, "ci95": 0.1},
                 {"games": 100, "seconds": 1.0, "ppg": 0.5, "ci95": float("inf")}]
    fevga = tmp_path / "fevga.npz"
    other.save(fevga)
    out = tmp_path / "plot.png"
    result = CliRunner().invoke(cli, ["plot-training", str(path), str(fevga), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert out.stat().st_size > 10_000  # axes, two lines and a legend, not an empty canvas
    assert png_width(out) == 550  # the heuristic's panel alone
    # logs with the yardstick get its panels: the shipped network's and GNU Backgammon's
    other.log = [{"games": 0, "seconds": 0.0, "ppg": -1.2, "ci95": 0.1, "shipped": -1.5, "shipped_ci95": 0.2,
                  "gnubg": -1.6, "gnubg_ci95": 0.2, "yardstick_games": 10},
                 {"games": 100, "seconds": 1.0, "ppg": 0.5, "ci95": 0.3, "shipped": -0.4, "shipped_ci95": 0.1,
                  "gnubg": -0.7, "gnubg_ci95": 0.1, "yardstick_games": 10}]
    other.save(fevga)
    result = CliRunner().invoke(cli, ["plot-training", str(path), str(fevga), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert png_width(out) == 3 * 550
    missing = CliRunner().invoke(cli, ["plot-training", str(tmp_path / "none.npz"), "--out", str(out)])
    assert missing.exit_code == 2 and "does not exist" in missing.output


@pytest.mark.slow
def test_train_reports_the_yardstick(tmp_path: Path) -> None:
    path = tmp_path / "y.npz"
    args = ["train", "--variant", "fevga", "--checkpoint", str(path), "--threads", "1", "--hidden", "5",
            "--games", "100", "--eval-every", "100", "--eval-games", "2", "--yardstick-games", "2"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stdout.splitlines() if line.startswith("  at ")]
    assert lines and all("vs heuristic (0-ply); " in line and " vs shipped network, less luck" in line
                         for line in lines)
    assert TrainState.load(path).config.yardstick_games == 2
    again = CliRunner().invoke(cli, [*args[:-6], "--games", "150", "--eval-every", "0", "--yardstick-games", "0"])
    assert again.exit_code == 0, again.output
    assert TrainState.load(path).config.yardstick_games == 0  # a resume takes the new setting


@pytest.mark.slow
def test_without_gnubg_the_yardstick_leaves_it_out(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from tavli.bots import gnubg_player
    monkeypatch.setattr(gnubg_player, "available", lambda: False)  # as where the module is not installed
    figures = measure_yardstick(new_state(tiny("portes")), games=2, seed=1)
    assert set(figures) == {"shipped", "shipped_ci95"}
    args = ["train", "--variant", "portes", "--checkpoint", str(tmp_path / "p.npz"), "--threads", "1",
            "--hidden", "5", "--games", "100", "--eval-every", "100", "--eval-games", "2", "--yardstick-games", "2"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "note: GNU Backgammon's module (pip install gnubg) cannot be imported" in result.stderr
    assert all("gnubg" not in entry for entry in TrainState.load(tmp_path / "p.npz").log)



@pytest.mark.slow
def test_a_slow_run_saves_by_the_clock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # far fewer games than checkpoint_every: only the clock brings a save before the last one
    import tavli.bots.training as T

    written: list[int] = []
    save = TrainState.save

    def counted(self: TrainState, path: Path) -> None:
        written.append(self.games)
        save(self, path)

    monkeypatch.setattr(TrainState, "save", counted)
    config = tiny("fevga", games=30, lookahead=1)  # a few seconds, five games a call
    state = Trainer(new_state(config), tmp_path / "a.npz").run(progress=False)
    assert written == [state.games]  # the clock's ten minutes never came: only the save at the end
    written.clear()
    monkeypatch.setattr(T, "SAVE_SECONDS", 0.0)
    state = Trainer(new_state(config), tmp_path / "b.npz").run(progress=False)
    assert len(written) >= 2 and written[-1] == state.games >= 30
    assert TrainState.load(tmp_path / "b.npz").games == state.games


# -- the inputs a network reads -------------------------------------------------------------

@pytest.mark.slow
def test_a_new_network_can_leave_out_the_last_groups_of_inputs(tmp_path: Path) -> None:
    path = tmp_path / "fevga.npz"
    args = ["train", "--variant", "fevga", "--checkpoint", str(path), "--threads", "1", "--hidden", "5",
            "--eval-every", "0"]
    first = CliRunner().invoke(cli, [*args, "--games", "100", "--inputs", "253"])
    assert first.exit_code == 0, first.output
    state = TrainState.load(path)
    assert state.network[0].shape == (253, 5) and state.config.inputs == 253
    assert np.any(state.network[0][:253] != new_network(K.FEVGA, 5, 1, 253)[0])  # it trained
    assert Evaluator.from_file(path).network[0].shape[0] == 253
    assert json.loads(str(np.load(path)["meta"]))["inputs"] == 253
    # resumed, it stays at 253; told so, it reads them all, the new ones silent at first
    resumed = CliRunner().invoke(cli, [*args, "--games", "150"])
    assert resumed.exit_code == 0, resumed.output
    assert TrainState.load(path).network[0].shape[0] == 253
    before = Evaluator.from_file(path)
    state = TrainState.load(path)
    state.read_more(0)
    assert state.network[0].shape[0] == N_INPUTS[K.FEVGA] and not state.network[0][253:].any()
    after = Evaluator(K.FEVGA, state.network, {"variant": "fevga"})
    for position in some_positions("fevga", 20):
        assert after.probabilities(position) == pytest.approx(before.probabilities(position), abs=1e-6)
    grown = CliRunner().invoke(cli, [*args, "--games", "200", "--inputs", "0"])
    assert grown.exit_code == 0, grown.output
    assert TrainState.load(path).network[0].shape[0] == N_INPUTS[K.FEVGA]
    # a resume cannot read fewer; a width that is not where a group ends is refused, in one line
    fewer = CliRunner().invoke(cli, [*args, "--games", "250", "--inputs", "253"])
    assert fewer.exit_code == 2 and "it can read more, not 253" in fewer.output
    assert len(fewer.output.strip().splitlines()) == 1
    odd = CliRunner().invoke(cli, [*args, "--games", "100", "--fresh", "--inputs", "250"])
    assert odd.exit_code == 2 and "not 250" in odd.output and len(odd.output.strip().splitlines()) == 1
    assert TrainState.load(path).games == 200
