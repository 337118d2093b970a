"""tavli.bots.teacher: positions of a network's games, a teacher's chances for them, and the network
learning them; `tavli teach`."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from conftest import run_tavli

from tavli import Dice, Position
from tavli.bots.bearoff import all_home
from tavli.bots.features import N_INPUTS
from tavli.bots.gnubg_player import available as gnubg_available
from tavli.bots.network import new_network
from tavli.bots.neural import Evaluator
from tavli.bots.teacher import (
    Lesson,
    SearchTeacher,
    TeacherError,
    fit,
    label,
    learning_rates,
    make_teacher,
    sample,
)


@pytest.fixture(scope="module")
def fevga() -> Evaluator:
    return Evaluator.for_variant("fevga")


def test_samples_are_positions_before_a_roll_and_never_a_race_at_home(fevga: Evaluator) -> None:
    lesson = sample(fevga, "fevga", 300, explore=0.1, seed=3)
    assert len(lesson) == 300 and lesson.variant == "fevga"
    assert not any(all_home(s, fevga.kernel_id) for s in lesson.states)
    assert (lesson.states[0] == Position.start("fevga").state).all()
    assert len({s.tobytes() for s in lesson.states}) > 250  # whole games, not one position again
    # the same seed plays the same games; exploring plays others
    assert (sample(fevga, "fevga", 300, explore=0.1, seed=3).states == lesson.states).all()
    assert not (sample(fevga, "fevga", 300, explore=1.0, seed=3).states == lesson.states).all()


def test_a_network_samples_only_its_own_game(fevga: Evaluator) -> None:
    with pytest.raises(TeacherError, match="does not play portes"):
        sample(fevga, "portes", 10)


def test_a_network_at_0_ply_teaches_its_own_chances_and_at_1_ply_its_search(fevga: Evaluator) -> None:
    lesson = sample(fevga, "fevga", 30, seed=5)
    at0 = label(lesson, SearchTeacher(fevga, 0))
    for i in (0, 10, 29):
        p = fevga.probabilities(lesson.position(i))
        assert np.allclose(at0.targets[i], [p.win, p.win2, p.lose2])
    at1 = label(lesson, SearchTeacher(fevga, 1))
    assert not np.allclose(at0.targets, at1.targets, atol=1e-3)
    with pytest.raises(TeacherError, match="0 or 1 ply"):
        SearchTeacher(fevga, 2)


def test_one_ply_is_the_mean_over_the_throws_of_the_best_play_by_0_ply(fevga: Evaluator) -> None:
    position = Position.start("fevga").play("24/13", Dice(6, 5))
    total = 0.0
    for a in range(1, 7):
        for b in range(1, 7):
            legal = position.legal_plays(Dice(a, b))
            total += (fevga.analyse(legal, 0)[0].equity if len(legal) else
                      -fevga.probabilities(position.pass_turn()).equity)
    assert SearchTeacher(fevga, 1).probabilities(position).equity == pytest.approx(total / 36, abs=1e-6)


@pytest.mark.slow
def test_a_network_taught_its_own_chances_stays_and_one_taught_its_search_moves_towards_it(fevga: Evaluator) -> None:
    lesson = sample(fevga, "fevga", 1500, seed=7)
    own = fit(fevga.network, label(lesson, SearchTeacher(fevga, 0)), epochs=2, seed=1)
    assert own.before < 1e-6 and own.after < 0.01
    assert own.held_out == 300
    # The shipped network has learned its own 1-ply search from millions of positions, so a
    # short fit cannot be expected to close the gap further; one whose outputs start off it must.
    searched = label(lesson, SearchTeacher(fevga, 1))
    w1, b1, w2, b2 = fevga.network
    off = (w1, b1, w2, b2 + np.float32(0.5))
    taught = fit(off, searched, epochs=6, rate=1e-3, seed=1)
    assert taught.after < taught.before / 2
    # and the network file it makes plays: the weights moved, the inputs it reads did not
    assert taught.network[0].shape == fevga.network[0].shape
    assert not np.allclose(taught.network[0], fevga.network[0])


def test_a_network_widened_for_its_lesson_starts_where_it_was(fevga: Evaluator) -> None:
    lesson = label(sample(fevga, "fevga", 200, seed=9), SearchTeacher(fevga, 1))
    hidden = fevga.network[1].shape[0]
    narrow = fit(fevga.network, lesson, epochs=1, seed=1)
    wide = fit(fevga.network, lesson, epochs=1, seed=1, hidden=hidden + 16)
    assert wide.network[0].shape == (fevga.network[0].shape[0], hidden + 16)
    assert wide.network[2].shape == (3, hidden + 16)
    assert wide.before == pytest.approx(narrow.before, abs=1e-6)  # the new units were silent
    assert fit(fevga.network, lesson, epochs=1, hidden=8).network[1].shape[0] == hidden  # never narrowed


def test_learning_rates_halve_over_the_second_half() -> None:
    assert learning_rates(0.1, 1) == [0.1]
    assert learning_rates(0.1, 6) == pytest.approx([0.1, 0.1, 0.1, 0.05, 0.025, 0.0125])


def test_a_lesson_is_saved_and_read_and_a_bad_file_is_refused(fevga: Evaluator, tmp_path: Path) -> None:
    lesson = label(sample(fevga, "fevga", 20, seed=2), SearchTeacher(fevga, 0))
    lesson.save(tmp_path / "lesson.npz")
    again = Lesson.load(tmp_path / "lesson.npz")
    assert again.variant == "fevga" and (again.states == lesson.states).all()
    assert np.allclose(again.targets, lesson.targets)
    (tmp_path / "bad.npz").write_text("not a lesson")
    with pytest.raises(TeacherError, match="not a file of taught positions"):
        Lesson.load(tmp_path / "bad.npz")
    sample(fevga, "fevga", 5).save(tmp_path / "unlabelled.npz")
    with pytest.raises(TeacherError, match="without a teacher's chances"):
        Lesson.load(tmp_path / "unlabelled.npz")


def test_teachers_are_refused_where_they_cannot_teach(fevga: Evaluator) -> None:
    with pytest.raises(TeacherError, match="Portes only"):
        make_teacher("gnubg", 0, fevga, "fevga")
    with pytest.raises(TeacherError, match="unknown teacher"):
        make_teacher("oracle", 0, fevga, "fevga")
    with pytest.raises(TeacherError, match="at least two positions"):
        fit(fevga.network, label(sample(fevga, "fevga", 1), SearchTeacher(fevga, 0)), epochs=1)


@pytest.mark.gnubg
@pytest.mark.skipif(not gnubg_available(), reason="needs GNU Backgammon's module (pip install gnubg)")
def test_gnu_backgammon_teaches_portes() -> None:
    portes = Evaluator.for_variant("portes")
    lesson = label(sample(portes, "portes", 4000, seed=11), make_teacher("gnubg", 0, portes, "portes"))
    # GNU Backgammon's chances are its own: its view of the start, and not ours
    start = lesson.position(0)
    assert lesson.targets[0] == pytest.approx([0.5, 0.14, 0.14], abs=0.05)
    assert not np.allclose(lesson.targets[0], [portes.probabilities(start).win, portes.probabilities(start).win2,
                                               portes.probabilities(start).lose2], atol=1e-4)
    # a network that knows nothing yet comes close to it on positions it did not learn
    fresh = new_network(portes.kernel_id, hidden=32, seed=3, inputs=portes.network[0].shape[0])
    taught = fit(fresh, lesson, epochs=40, rate=3e-3, seed=1)
    assert taught.before > 0.3 and taught.after < 0.5 * taught.before


tavli = run_tavli


@pytest.mark.slow
def test_tavli_teach_saves_a_network_that_plays_and_learns_again_from_its_lesson(tmp_path: Path,
                                                                                 fevga: Evaluator) -> None:
    out, lesson = tmp_path / "taught.npz", tmp_path / "lesson.npz"
    wider = fevga.network[1].shape[0] + 4  # --hidden widens only a network narrower than it
    run = tavli("teach", str(out), "--variant", "fevga", "--teacher", "network", "--ply", "1", "--positions", "60",
                "--epochs", "2", "--rate", "1e-3", "--jobs", "2", "--save-lesson", str(lesson), "--hidden", str(wider))
    assert run.returncode == 0, run.stderr
    assert "fevga: 60 positions (60 new, valued by network at 1 ply)" in run.stdout
    taught = Evaluator.from_file(out)
    assert taught.kernel_id == fevga.kernel_id
    meta = taught.meta["taught"]
    assert isinstance(meta, dict) and meta["teacher"] == "network" and meta["ply"] == 1 and meta["positions"] == 60
    assert taught.network[0].shape == (fevga.network[0].shape[0], wider)
    assert taught.meta["hidden"] == wider and taught.network[0].shape[0] <= N_INPUTS[2]
    assert len(Lesson.load(lesson)) == 60
    json.dumps(taught.meta)  # the file's meta stays plain data
    # the lesson again and new positions beside it, from the taught network's own games
    again = tavli("teach", str(tmp_path / "again.npz"), "--variant", "fevga", "--network", str(out),
                  "--lesson", str(lesson), "--teacher", "network", "--positions", "20", "--jobs", "1", "--epochs", "1")
    assert again.returncode == 0, again.stderr
    assert f"fevga: 80 positions (60 from {lesson}, 20 new, valued by network at 0 ply)" in again.stdout
    assert Evaluator.from_file(tmp_path / "again.npz").meta["taught"]["positions"] == 80  # type: ignore[index]


@pytest.mark.parametrize(("args", "message"), [
    (["--variant", "fevga"], "GNU Backgammon teaches Portes only, not fevga"),
    (["--variant", "fevga", "--teacher", "network", "--ply", "2"], "a network teaches at 0 or 1 ply"),
    (["--variant", "plakoto", "--network", "tavli/weights/fevga.npz", "--teacher", "network"],
     "is not a plakoto network"),
    (["--variant", "fevga", "--teacher", "network", "--lesson", "README.md"], "is not a file of taught positions"),
    (["--variant", "fevga", "--teacher", "network", "--lesson", "missing.npz"], "does not exist"),
    (["--variant", "fevga", "--teacher", "network", "--positions", "0"], "nothing to learn from"),
    (["--variant", "fevga", "--positions", "-3"], "-3 is not in the range x>=0"),
])
def test_tavli_teach_refuses_bad_options_in_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    run = tavli("teach", str(tmp_path / "out.npz"), *args)
    assert run.returncode == 2
    assert message in run.stderr
    assert "Traceback" not in run.stderr
    assert not (tmp_path / "out.npz").exists()
