"""Match equity: the table's properties, hand-worked cases, and a simulation of matches."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tavli.bots.match_equity import (
    MONEY,
    AfterGame,
    MatchEquity,
    MatchEquityError,
    MatchScore,
    Outcomes,
    Starter,
    measured_as,
    outcomes_for,
    shipped_outcomes,
)
from tavli.match import TAVLI_SEQUENCE, MatchSettings
from tavli.variants import BLACK, WHITE, Color, make_variant

STARTERS = (Starter.ME, Starter.OPPONENT, Starter.ROLL_OFF)


@st.composite
def outcome_rates(draw: st.DrawFn, ties: bool = True) -> Outcomes:
    raw = [draw(st.integers(0, 100)) for _ in range(5)]
    if not ties:
        raw[2] = 0
    if raw[2] == sum(raw):  # a game that always ties never ends a match
        raw[0] += 1
    total = sum(raw)
    return Outcomes(*(r / total for r in raw))


@st.composite
def tables(draw: st.DrawFn) -> MatchEquity:
    order = draw(st.lists(st.sampled_from(TAVLI_SEQUENCE), min_size=1, max_size=4))
    outcomes = {name: draw(outcome_rates(ties=name == "plakoto")) for name in TAVLI_SEQUENCE}
    return MatchEquity(order, outcomes)


def test_shipped_table_is_a_probability_and_even_at_equal_scores() -> None:
    for games in (TAVLI_SEQUENCE, ("portes",), ("plakoto",), ("fevga", "portes")):
        met = MatchEquity.for_settings(MatchSettings(length=7, games=games))
        for g in range(len(games)):
            for starter in STARTERS:
                for row in met.table(7, g, starter):
                    assert all(0.0 <= e <= 1.0 for e in row)
        for n in range(1, 8):
            assert met.equity(n, n) == pytest.approx(0.5, abs=1e-12)


@given(tables(), st.integers(1, 6), st.integers(1, 6), st.integers(0, 5), st.sampled_from(STARTERS))
@settings(max_examples=60, deadline=None)
def test_symmetric(met: MatchEquity, a: int, b: int, g: int, starter: Starter) -> None:
    mine = met.equity(a, b, g, starter)
    his = met.equity(b, a, g, starter.other)
    assert 0.0 <= mine <= 1.0
    assert mine + his == pytest.approx(1.0, abs=1e-9)


@given(tables(), st.integers(1, 6), st.integers(1, 6), st.integers(0, 5), st.sampled_from(STARTERS))
@settings(max_examples=60, deadline=None)
def test_monotone_in_the_score(met: MatchEquity, a: int, b: int, g: int, starter: Starter) -> None:
    e = met.equity(a, b, g, starter)
    assert met.equity(a + 1, b, g, starter) <= e + 1e-12
    assert met.equity(a, b + 1, g, starter) >= e - 1e-12


@given(tables(), st.integers(1, 6), st.integers(0, 5))
@settings(max_examples=40, deadline=None)
def test_even_at_equal_scores_after_a_roll_off(met: MatchEquity, n: int, g: int) -> None:
    assert met.equity(n, n, g, Starter.ROLL_OFF) == pytest.approx(0.5, abs=1e-12)


def test_exact_at_one_away_each() -> None:
    # the next game decides, and after a tie a roll-off starts an even game
    for name, o in shipped_outcomes().items():
        met = MatchEquity((name,))
        assert met.equity(1, 1, 0, Starter.ME) == pytest.approx(o.win1 + o.win2 + o.tie / 2, abs=1e-9)
        assert met.equity(1, 1, 0, Starter.OPPONENT) == pytest.approx(o.lose1 + o.lose2 + o.tie / 2, abs=1e-9)


def test_hand_worked_cases() -> None:
    # one game, starter wins 1 or 2 points half and half, or loses 1 point
    o = Outcomes(win1=0.25, win2=0.25, tie=0.0, lose1=0.5, lose2=0.0)
    met = MatchEquity(("portes",), {"portes": o})
    # 2-away/1-away, I start: I win 2 points (0.25), or win 1 (0.25) and the 1-away/1-away
    # game is mine to start (0.5); losing loses the match
    assert met.equity(2, 1, 0, Starter.ME) == pytest.approx(0.25 + 0.25 * 0.5)
    # he starts: I win 1 point with his lose1 (0.5) then need 1, start
    # next game and win it 0.5; I win 2 points never (his lose2 = 0)
    assert met.equity(2, 1, 0, Starter.OPPONENT) == pytest.approx(0.5 * 0.5)


def test_hand_worked_ties() -> None:
    # a game won by its starter or tied, half and half; after a tie a roll-off starts again:
    # x = 0.5 + 0.5 (x + y) / 2 and y = 0.5 (x + y) / 2 give x + y = 1, x = 0.75
    met = MatchEquity(("plakoto",), {"plakoto": Outcomes(0.5, 0.0, 0.5, 0.0, 0.0)})
    assert met.equity(1, 1, 0, Starter.ME) == pytest.approx(0.75)
    assert met.equity(1, 1, 0, Starter.OPPONENT) == pytest.approx(0.25)
    # a tie passes to the next game of the order: Plakoto then a Portes that the starter always
    # wins by 1 point; 1-away each, I start the Plakoto: win 0.5, or a tie and an even roll-off
    met = MatchEquity(("plakoto", "portes"), {"plakoto": Outcomes(0.5, 0.0, 0.5, 0.0, 0.0),
                                              "portes": Outcomes(1.0, 0.0, 0.0, 0.0, 0.0)})
    assert met.equity(1, 1, 0, Starter.ME) == pytest.approx(0.75)
    assert met.equity(1, 1, 1, Starter.ME) == 1.0


def test_simulated_matches_agree() -> None:
    outcomes = {"portes": Outcomes(0.4, 0.15, 0.0, 0.3, 0.15), "plakoto": Outcomes(0.3, 0.2, 0.1, 0.25, 0.15),
                "fevga": Outcomes(0.45, 0.1, 0.0, 0.4, 0.05)}
    met = MatchEquity(TAVLI_SEQUENCE, outcomes)
    rng = random.Random(5)
    n, won = 20_000, 0
    for _ in range(n):
        score = [0, 0]
        starter: int | None = None
        g = 0
        while max(score) < 3:
            if starter is None:
                starter = rng.randrange(2)
            o = outcomes[TAVLI_SEQUENCE[g % 3]]
            r = rng.random()
            cuts = [(o.win1, 1, 0), (o.win2, 2, 0), (o.tie, 0, None), (o.lose1, 1, 1), (o.lose2, 2, 1)]
            k = 0
            while k < 4 and r >= cuts[k][0]:
                r -= cuts[k][0]
                k += 1
            _, points, loser = cuts[k]
            if loser is None:
                starter = None
            else:
                winner = starter if loser == 0 else 1 - starter
                score[winner] += points
                starter = winner
            g += 1
        won += score[0] >= 3
    expected = met.equity(3, 3)
    assert abs(won / n - expected) < 4 * (0.25 / n) ** 0.5
    assert expected == pytest.approx(0.5)


def test_after_game_weights_rank_as_match_equity() -> None:
    met = MatchEquity.for_settings(MatchSettings(length=5))
    after = met.after_game(1, 4, 0)
    assert after.win1 == 1.0 and after.win2 == 1.0 and after.lose2 < after.lose1
    c0, c1, c2, c3 = after.weights()
    half = (after.win1 - after.lose1) / 2
    mid = (after.win1 + after.lose1) / 2
    for w, w2, l2 in ((0.6, 0.2, 0.1), (0.3, 0.0, 0.4), (1.0, 1.0, 0.0)):
        assert c0 + c1 * w + c2 * w2 + c3 * l2 == pytest.approx((after.value(w, w2, l2) - mid) / half)
    assert MONEY.weights() == (-1.0, 2.0, 1.0, -1.0)


def test_bad_figures_are_refused() -> None:
    with pytest.raises(MatchEquityError):
        Outcomes(0.5, 0.5, 0.5, 0.0, 0.0)
    with pytest.raises(MatchEquityError):
        MatchEquity(("plakoto",), {"plakoto": Outcomes(0.0, 0.0, 1.0, 0.0, 0.0)}).equity(1, 1)
    with pytest.raises(MatchEquityError):
        MatchEquity(())
    with pytest.raises(MatchEquityError):
        MatchEquity(("portes",)).table(0)
    with pytest.raises(MatchEquityError):
        outcomes_for("portes", {})
    assert AfterGame(0.5, 0.5, 0.5, 0.5, 0.5).weights() == MONEY.weights()  # nothing at stake: play for points


def test_cli_prints_the_table_and_json() -> None:
    from click.testing import CliRunner

    from tavli.cli import cli

    runner = CliRunner()
    shown = runner.invoke(cli, ["met", "--length", "3"])
    assert shown.exit_code == 0, shown.output
    assert "3-away" in shown.output and "50.0" in shown.output
    answer = runner.invoke(cli, ["met", "-n", "4", "--games", "fevga,portes", "--next-game", "1",
                                 "--starter", "me", "--json"])
    assert answer.exit_code == 0, answer.output
    data = json.loads(answer.output)
    met = MatchEquity.for_settings(MatchSettings(length=4, games=("fevga", "portes")))
    assert data["equity"] == met.table(4, 1, Starter.ME)
    assert data["next_game_name"] == "portes" and len(data["equity"]) == 4
    bad = runner.invoke(cli, ["met", "--games", "chess"])
    assert bad.exit_code == 2 and "unknown game" in bad.output
    greek = runner.invoke(cli, ["met", "--length", "3", "--lang", "el"])
    assert greek.exit_code == 0, greek.output
    assert "λείπουν" in greek.output and "50,0" in greek.output and "50.0" not in greek.output


def test_cli_house_rules_change_the_table() -> None:
    from click.testing import CliRunner

    from tavli.cli import cli

    runner = CliRunner()
    answer = runner.invoke(cli, ["met", "-n", "3", "--games", "plakoto", "--mother-pin", "single", "--json"])
    assert answer.exit_code == 0, answer.output
    data = json.loads(answer.output)
    single = MatchEquity.for_settings(MatchSettings(length=3, games=("plakoto",), mother_pin="single"))
    double = MatchEquity.for_settings(MatchSettings(length=3, games=("plakoto",)))
    assert data["rules"]["mother_pin"] == "single"
    assert data["measured_as"] == {"plakoto,mother_pin=single": "plakoto,mother_pin=single"}
    assert data["equity"] == single.table(3) != double.table(3)
    shown = runner.invoke(cli, ["met", "-n", "3", "--games", "plakoto", "--mother-pin", "single"])
    assert shown.exit_code == 0 and "stand in" not in shown.output
    bad = runner.invoke(cli, ["met", "--prime-limits", "maybe"])
    assert bad.exit_code == 2 and "maybe" in bad.output


def test_unmeasured_house_rules_borrow_the_standard_figures_and_say_so() -> None:
    from click.testing import CliRunner

    from tavli.cli import cli

    even = Outcomes(0.4, 0.1, 0.0, 0.4, 0.1)
    skewed = Outcomes(0.5, 0.1, 0.0, 0.3, 0.1)
    table = {"fevga": even, "fevga,prime_limits=off": skewed}
    assert measured_as("fevga,prime_limits=off", table) == "fevga,prime_limits=off"
    assert measured_as("fevga,prime_in_opponent_start=off", table) == "fevga"
    assert outcomes_for("fevga,prime_in_opponent_start=off", table) == even
    with pytest.raises(MatchEquityError):
        measured_as("portes", table)
    shown = CliRunner().invoke(cli, ["met", "-n", "3", "--games", "fevga", "--prime-in-opponent-start", "off"])
    assert shown.exit_code == 0, shown.output
    expected = "fevga,prime_in_opponent_start=off: not measured with its house rules; the figures of fevga"
    assert (expected in shown.output) == (measured_as("fevga,prime_in_opponent_start=off") == "fevga")


def test_a_score_in_a_game_of_a_match() -> None:
    tavli = TAVLI_SEQUENCE
    score = MatchScore.in_game("plakoto,mother_pin=single", mine=2, theirs=4, length=5, games=tavli)
    assert (score.need, score.opp_need, score.game) == (3, 1, 1)
    assert score.table.games[1] == make_variant("plakoto,mother_pin=single")
    assert MatchScore.in_game("fevga", 0, 0, 3).table.games == (make_variant("fevga"),)
    assert MatchScore.in_game("portes", 0, 0, 7, tavli, game=3).game == 3
    with pytest.raises(MatchEquityError, match="game 2 of the match is plakoto, but the position is portes"):
        MatchScore.in_game("portes", 0, 0, 7, tavli, game=1)
    with pytest.raises(MatchEquityError, match="fevga is not among the match's games"):
        MatchScore.in_game("fevga", 0, 0, 7, ("portes", "plakoto"))
    with pytest.raises(MatchEquityError, match="each side has 0 to 4 points, not 5 and 0"):
        MatchScore.in_game("fevga", 5, 0, 5)


@pytest.mark.parametrize(("turn", "need", "opp_need"), [(WHITE, 1, 4), (BLACK, 4, 1)])
def test_a_score_from_whites_and_blacks_points(turn: Color, need: int, opp_need: int) -> None:
    score = MatchScore.for_colors("plakoto", turn, white=4, black=1, length=5, games=TAVLI_SEQUENCE)
    assert (score.need, score.opp_need, score.game) == (need, opp_need, 1)
    assert score == MatchScore.in_game("plakoto", 5 - need, 5 - opp_need, 5, TAVLI_SEQUENCE)
    with pytest.raises(MatchEquityError, match="each side has 0 to 2 points, not White 0 and Black 3"):
        MatchScore.for_colors("portes", turn, white=0, black=3, length=3)
