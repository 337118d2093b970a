"""Tavli's engine protocol: sessions in every game and level, the match score, legal answers
on random positions, bad lines, a real process, and the client that drives one."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tavli import Dice, Position
from tavli.bots.duel import duel
from tavli.bots.levels import LEVELS
from tavli.bots.match_equity import MatchScore
from tavli.bots.neural import Evaluator, NeuralBot
from tavli.engines.tavli_protocol import Engine, EngineClient, EngineProtocolError
from tavli.match import MatchSettings

GAMMON_GO = "portes 2w.2w...........1b1w....3b3b3b5b w 0:0 10:0"
"""White has borne off 10 checkers, Black none, one Black checker still back: with 3-1 the hit
16/15*/12 plays for a 2-point win at a small risk, 16/12 safely for the game (tests/test_neural.py)."""

GAMES = ("portes", "plakoto", "fevga")


def engine_command(*args: str) -> list[str]:
    script = Path(sys.executable).parent / "tavli"
    if script.is_file():
        return [str(script), "engine", *args]
    return [sys.executable, "-c", "from tavli.cli import main; main()", "engine", *args]


def game_positions(variant: str, seed: int, turns: int = 400) -> list[tuple[Position, Dice]]:
    """(position, roll) along random games of ``variant``, the game over positions left out."""
    rng = random.Random(seed)
    out: list[tuple[Position, Dice]] = []
    position = Position.start(variant)
    while len(out) < turns:
        if position.result() is not None:
            position = Position.start(variant, position.turn)
        dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
        out.append((position, dice))
        legal = position.legal_plays(dice)
        position = legal.after(rng.randrange(len(legal))) if len(legal) else position.pass_turn()
    return out


def state(engine: Engine) -> tuple[str, str | None]:
    return engine.answer("options") or "", engine.answer("position")


# -- sessions --------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_a_process_plays_a_session_in_each_game(game: str) -> None:
    positions = [(p, d) for p, d in game_positions(game, seed=len(game)) if len(p.legal_plays(d)) > 1][:25]
    blocked = next((p, d) for p, d in game_positions(game, seed=1, turns=3000) if not len(p.legal_plays(d)))
    lines = ["tavli", f"set variant {game}", "set level advanced", "options", "position start", "play 6 5",
             "hint 6 5 2", "evaluate", f"position {blocked[0]}", f"play {blocked[1].first} {blocked[1].second}"]
    for position, dice in positions:
        lines += [f"position {position}", f"play {dice.first} {dice.second}"]
    run = subprocess.run(engine_command(), input="\n".join([*lines, "quit", "tavli"]) + "\n",
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    replies = run.stdout.splitlines()
    assert len(replies) == len(lines)  # one line for each command, none after quit
    assert replies[0] == "id tavli 0.1.0 protocol 1"
    assert replies[1:3] == ["ok", "ok"]
    assert replies[3] == f"options level advanced seed none variant {game} score money"
    start = Position.start(game)
    bot = NeuralBot("advanced")
    legal = start.legal_plays("65")
    assert replies[5] == str(legal[bot.choose(legal)])
    best = bot.analyse(legal)
    assert replies[6] == "hint " + " ; ".join(f"{legal[a.index]} equity {a.equity:+.4f}" for a in best[:2])
    p = Evaluator.for_variant(game).probabilities(start)
    assert replies[7] == (f"evaluate win {p.win:.4f} win2 {p.win2:.4f} lose2 {p.lose2:.4f} "
                          f"equity {p.equity:+.4f}")
    assert replies[8:10] == ["ok", "none"]
    for k, (position, dice) in enumerate(positions):
        assert replies[10 + 2 * k] == "ok"
        legal = position.legal_plays(dice)
        play = position.parse_play(replies[11 + 2 * k], dice)
        assert legal.index(play) == bot.choose(legal), (str(position), dice)  # as in-process


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_can_be_chosen(level: str) -> None:
    engine = Engine("advanced", seed=5)
    twin = NeuralBot(level, seed=5)
    assert engine.answer(f"set level {level}") == "ok"
    assert engine.answer("options") == f"options level {level} seed 5 variant portes score money"
    for game in GAMES:
        assert engine.answer(f"set variant {game}") == "ok"
        for position, dice in game_positions(game, seed=2, turns=40)[::8]:
            assert engine.answer(f"position {position}") == "ok"
            legal = position.legal_plays(dice)
            reply = engine.answer(f"play {dice.first} {dice.second}")
            if not len(legal):
                assert reply == "none"
            else:
                assert reply == str(legal[twin.choose(legal)])  # the level's own choice, noise and all


def test_the_seed_repeats_a_noisy_level() -> None:
    answers = []
    for _ in range(2):
        engine = Engine("beginner")
        engine.answer("set seed 11")
        replies = []
        for position, dice in game_positions("plakoto", seed=4, turns=60):
            engine.answer(f"position {position}")
            replies.append(engine.answer(f"play {dice.first} {dice.second}"))
        answers.append(replies)
    assert answers[0] == answers[1]
    engine = Engine("beginner")
    assert engine.answer("set seed none") == "ok" and "seed none" in (engine.answer("options") or "")


def test_the_score_changes_the_play() -> None:
    engine = Engine("expert")
    position = Position.from_string(GAMMON_GO)
    assert engine.answer(f"position {GAMMON_GO}") == "ok"
    hit, safe = str(position.parse_play("16/15*/12", "31")), str(position.parse_play("16/12", "31"))
    assert engine.answer("play 3 1") == hit  # for points, the hit's 2-point wins pay
    assert engine.answer("set score 2 2 3") == "ok"  # 1-away each: only the game counts
    assert engine.answer("play 3 1") == safe
    hint = engine.answer("hint 3 1 2") or ""
    assert hint.startswith(f"hint {safe} equity ") and " match " in hint
    assert engine.answer("set score 3 4 5") == "ok"  # 2-away against 1-away: a 2-point win is the match
    assert engine.answer("play 3 1") == hit
    assert engine.answer("set score money") == "ok"
    assert engine.answer("play 3 1") == hit
    assert engine.answer("options") == "options level expert seed none variant portes score money"


def test_evaluate_at_a_score_gives_the_match_equity() -> None:
    engine = Engine("advanced")
    engine.answer(f"position {GAMMON_GO}")
    engine.answer("set score 2 2 3")
    words = (engine.answer("evaluate") or "").split()
    values = dict(zip(words[1::2], words[2::2], strict=True))
    assert float(values["match"]) == pytest.approx(float(values["win"]), abs=1e-4)  # DMP: the game is the match
    engine.answer("set score 0 2 5")
    words = (engine.answer("evaluate") or "").split()
    values = dict(zip(words[1::2], words[2::2], strict=True))
    p = Evaluator.for_variant("portes").probabilities(Position.from_string(GAMMON_GO))
    score = MatchScore.at(MatchSettings(length=5, games=("portes",)), need=5, opp_need=3, game=0)
    assert float(values["match"]) == pytest.approx(score.after_game().value(p.win, p.win2, p.lose2), abs=1e-4)


def test_a_tavli_match_score_names_the_game_being_played() -> None:
    engine = Engine("advanced")
    assert engine.answer("set variant plakoto") == "ok"
    assert engine.answer("set score 1 3 5 tavli 2") == "ok"  # game 2 of portes, plakoto, fevga
    assert engine.answer("options") == ("options level advanced seed none variant plakoto "
                                        "score 1 3 5 portes,plakoto,fevga 2")
    assert engine.answer("play 6 5") is not None
    error = engine.answer("set score 1 3 5 tavli 3")
    assert error == "error: game 3 of the match is fevga, but the position is plakoto: set the score again"
    engine.answer("set variant fevga")  # the score now names the wrong game: play says so
    assert (engine.answer("play 6 5") or "").startswith("error: game 2 of the match is plakoto")


def test_house_rules() -> None:
    engine = Engine("advanced")
    # Fevga without prime limits: the position is kept, the rules change
    engine.answer("set variant fevga")
    engine.answer("apply 6 5 24/13")
    assert engine.answer("set prime_limits off") == "ok"
    assert engine.answer("position") == "position fevga,prime_limits=off ...........15b1w..........14w b 0:0 0:0"
    assert engine.answer("set variant fevga") == "ok"  # the same game: the defaults, the same position
    assert engine.answer("position") == "position fevga ...........15b1w..........14w b 0:0 0:0"
    assert engine.answer("set mother_pin single") == ("error: fevga has no option 'mother_pin' "
                                                      "(options: prime_limits, prime_in_opponent_start)")
    assert engine.answer("set variant plakoto,mother_pin=off") == "ok"  # another game: its start
    assert engine.answer("position") == "position plakoto,mother_pin=off 15b......................15w w 0:0 0:0"
    # a position string names its game and house rules
    assert engine.answer("position plakoto,mother_pin=single 15b......................15w b 0:0 0:0") == "ok"
    assert (engine.answer("options") or "").endswith("variant plakoto,mother_pin=single score money")


def test_dice_in_one_word_or_two() -> None:
    engine = Engine("advanced")
    assert engine.answer("set variant plakoto") == "ok"
    answers = {engine.answer(f"play {dice}") for dice in ("6 3", "63", "6-3", "3,6")}
    assert len(answers) == 1 and answers != {"none"}
    assert engine.answer("hint 63 2") == engine.answer("hint 6 3 2")
    after = Position.start("plakoto").play("24/18 24/21", "63")
    assert engine.answer("apply 63 24/18 24/21") == f"position {after}"


def test_apply_plays_a_move_and_gnubg_ids_are_read() -> None:
    engine = Engine("advanced")
    assert engine.answer("position start b") == "ok"
    assert engine.answer("apply 6 2 13/11 24/18") == f"position {Position.start('portes', 1).play('24/18 13/11', '62')}"
    assert engine.answer("position gnubg 4HPwATDgc/ABMA") == "ok"
    assert engine.answer("position") == f"position {Position.start('portes')}"
    assert engine.answer("position gnubg 4HPwATDgc/ABMA b") == "ok"
    assert engine.answer("position") == f"position {Position.start('portes', 1)}"


# -- bad lines ------------------------------------------------------------------------------

BAD_LINES = [
    ("bogus", "unknown command 'bogus'"),
    ("play", "give two dice, like: play 6 5"),
    ("play 6", "give two dice, like: play 6 5"),
    ("play 73", "dice are two numbers from 1 to 6, like 6 5 or 65, not '73'"),
    ("play 65 4", "write play D1 D2"),
    ("hint 65 2 1", "write hint D1 D2 [N]"),
    ("play 6 five", "a die must be a whole number, not 'five'"),
    ("play 0 3", "dice must be two numbers from 1 to 6"),
    ("play 6 5 4", "write play D1 D2"),
    ("hint 6 5 0", "ask for 1 play or more"),
    ("hint 6 5 x", "the number of plays must be a whole number"),
    ("evaluate now", "evaluate takes no arguments"),
    ("set", "write set NAME VALUE"),
    ("set level", "write set NAME VALUE"),
    ("set level wizard", "unknown level 'wizard'"),
    ("set level expert champion", "set level takes one value, not 2"),
    ("set seed x", "the seed must be a whole number"),
    ("set variant chess", "unknown game 'chess'"),
    ("set variant fevga,prime_limits=maybe", "option prime_limits must be on or off"),
    ("set colour red", "unknown option 'colour'"),
    ("set mother_pin single", "portes has no option 'mother_pin'"),
    ("set score 1 2", "write set score MINE THEIRS LENGTH"),
    ("set score 5 2 5", "each side has 0 to 4 points"),
    ("set score -1 2 5", "each side has 0 to 4 points"),
    ("set score 0 0 0", "a match is played to 1 to 64 points"),
    ("set score 0 0 999999", "a match is played to 1 to 64 points"),
    ("set score a b c", "a score must be a whole number"),
    ("set score 1 1 5 chess 1", "unknown game 'chess'"),
    ("set score 1 1 5 tavli 0", "games are numbered from 1"),
    ("set score 1 1 5 tavli 2", "game 2 of the match is plakoto, but the position is portes"),
    ("position start x", "the side to move is w or b"),
    ("position start w w", "write position start"),
    ("position portes 2b....5w w 0:0 0:0", "the board has"),
    ("position portes 2b....5w.3w...5b5w...3b.5b....2w w 0:0 0:0 extra", "5 fields"),
    ("position gnubg !!!", "Position ID"),
    ("apply 6 5", "write apply D1 D2 PLAY"),
    ("apply 6 5 6/1", "6/1"),
    ("apply 3 1 24/21", "you must use both dice"),
]


@pytest.mark.parametrize(("line", "message"), BAD_LINES)
def test_a_bad_line_gets_one_error_line_and_changes_nothing(line: str, message: str) -> None:
    engine = Engine("advanced", seed=3)
    engine.answer("set variant portes")
    before = state(engine)
    reply = engine.answer(line)
    assert reply is not None and reply.startswith("error: ") and "\n" not in reply
    assert message in reply
    assert state(engine) == before


def test_the_game_over_is_an_error() -> None:
    engine = Engine("advanced")
    over = "portes ......................2b. w 0:0 15:13"
    assert engine.answer(f"position {over}") == "ok"
    for line in ("play 6 5", "hint 6 5", "evaluate", "apply 6 5 none"):
        assert (engine.answer(line) or "").startswith("error: the game is over: White wins")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=60), st.sampled_from(["", "set ", "position ", "play ", "hint ", "apply 6 5 ", "set score "]))
def test_no_line_breaks_the_engine(text: str, prefix: str) -> None:
    engine = Engine("advanced")
    before = state(engine)
    reply = engine.answer(prefix + text)
    if reply is None:
        assert not (prefix + text).split() or (prefix + text).split()[0].lower() == "quit"
    else:
        assert "\n" not in reply
        if reply.startswith("error: "):
            assert state(engine) == before
        assert not reply.startswith("error: internal")


@settings(max_examples=60, deadline=None)
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 10**6), turns=st.integers(0, 120),
       d1=st.integers(1, 6), d2=st.integers(1, 6),
       level=st.sampled_from(["beginner", "casual", "intermediate", "advanced"]))
def test_plays_are_legal_in_random_positions(game: str, seed: int, turns: int, d1: int, d2: int,
                                             level: str) -> None:
    position, _ = game_positions(game, seed, turns + 1)[-1]
    engine = Engine(level, seed=seed)
    assert engine.answer(f"position {position}") == "ok"
    assert engine.answer("position") == f"position {position}"
    reply = engine.answer(f"play {d1} {d2}")
    legal = position.legal_plays(Dice(d1, d2))
    assert reply is not None
    if len(legal) == 0:
        assert reply == "none"
    else:
        assert position.parse_play(reply, Dice(d1, d2)) in legal
        after = engine.answer(f"apply {d1} {d2} {reply}")
        assert after == f"position {position.play(reply, Dice(d1, d2))}"
    assert engine.answer(f"position {position}") == "ok"
    hint = engine.answer(f"hint {d1} {d2} 30") or ""
    if len(legal):
        entries = hint.removeprefix("hint ").split(" ; ")
        assert len(entries) == min(30, len(legal))
        assert all(position.parse_play(e.split(" equity ")[0], Dice(d1, d2)) in legal for e in entries)


@pytest.mark.slow
def test_a_process_survives_bytes_that_are_not_text() -> None:
    run = subprocess.run(engine_command("--protocol", "tavli", "--level", "advanced"),
                         input=b"tavli\n\xff\xfe play\nplay 3 1\n", capture_output=True, timeout=120)
    assert run.returncode == 0, run.stderr
    replies = run.stdout.decode().splitlines()
    assert replies[0].startswith("id tavli") and replies[1].startswith("error: unknown command")
    assert replies[2] == "8/5 6/5"


# -- the client ------------------------------------------------------------------------

@pytest.mark.slow
def test_two_engine_processes_play_a_duel() -> None:
    with EngineClient(engine_command(), ["set level advanced"], name="advanced") as a, \
            EngineClient(engine_command(), ["set level beginner", "set seed 1"], name="beginner") as b:
        result = duel("fevga", a, b, games=2, seed=3)
    assert result.games == 2 and all(p != 0 for p in result.points)
    assert result.turns > 40


def test_the_client_refuses_bad_answers() -> None:
    with pytest.raises(EngineProtocolError, match="answered 'set level wizard' with: error: unknown level 'wizard'"):
        EngineClient(engine_command(), ["set level wizard"])
    # a program that answers every play with a move the dice do not allow
    liar = [sys.executable, "-c",
            "import sys\nfor line in sys.stdin:\n print('24/23' if line.startswith('play') else 'ok', flush=True)"]
    with EngineClient(liar, name="liar") as engine:
        legal = Position.start("portes").legal_plays("65")
        with pytest.raises(EngineProtocolError, match="liar played '24/23' with 6-5"):
            engine.choose(legal)
    quitter = [sys.executable, "-c", "pass"]
    with EngineClient(quitter, name="quitter") as engine, pytest.raises(EngineProtocolError, match="has stopped"):
        engine.send("tavli")
