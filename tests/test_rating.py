"""``tavli.rating``: Glickman's worked example, the period without games, and the properties every
rating change must have, the match length's weight among them."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tavli.errors import TavliError
from tavli.rating import (
    PROVISIONAL_DEVIATION,
    SCALE,
    Rating,
    RatingError,
    match_weight,
    provisional,
    rate_match,
    update,
)

PAPER_PLAYER = Rating(1500, 200, 0.06)
PAPER_RESULTS = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]

ratings = st.builds(Rating, st.floats(1000, 2200), st.floats(30, 350), st.floats(0.03, 0.1))
scores = st.floats(0, 1)
weights = st.floats(0.1, 10)


# -- the paper ---------------------------------------------------------------------------

def test_the_papers_worked_example() -> None:
    new = update(PAPER_PLAYER, PAPER_RESULTS, tau=0.5)
    # the paper's figures on the Glicko-2 scale, to its four decimals: μ′ = −0.2069, φ′ = 0.8722
    mu = (new.rating - 1500) / SCALE
    assert round(mu, 4) == -0.2069
    assert round(new.deviation / SCALE, 4) == 0.8722
    # the paper converts its μ′ rounded to four decimals, which gives its 1464.06; unrounded it is 1464.05
    assert round(SCALE * round(mu, 4) + 1500, 2) == 1464.06
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert round(new.deviation, 2) == 151.52
    assert math.floor(new.volatility * 100_000) / 100_000 == 0.05999  # the paper's σ′, its first five decimals
    assert round(new.volatility, 6) == 0.059996


def test_the_paper_needs_its_tau() -> None:
    # the system constant matters: a larger tau lets the volatility move further on the same results
    calm = update(PAPER_PLAYER, PAPER_RESULTS, tau=0.3)
    wild = update(PAPER_PLAYER, PAPER_RESULTS, tau=1.2)
    assert abs(wild.volatility - 0.06) > abs(calm.volatility - 0.06) > 0


def test_a_period_without_games_grows_the_deviation_by_the_volatility() -> None:
    idle = update(PAPER_PLAYER, [])
    phi, sigma = 200 / SCALE, 0.06
    assert idle.deviation == pytest.approx(SCALE * math.sqrt(phi**2 + sigma**2))  # φ* = √(φ² + σ²)
    assert round(idle.deviation, 2) == 200.27
    assert idle.rating == 1500 and idle.volatility == 0.06


@given(ratings)
def test_idle_periods_grow_the_deviation_and_keep_the_rest(player: Rating) -> None:
    idle = update(player, [])
    assert idle.deviation > player.deviation
    assert (idle.rating, idle.volatility) == (player.rating, player.volatility)


# -- what every result does --------------------------------------------------------------

@given(ratings, ratings)
def test_a_win_never_lowers_a_rating_and_a_loss_never_raises_one(player: Rating, opponent: Rating) -> None:
    assert update(player, [(opponent, 1.0)]).rating >= player.rating
    assert update(player, [(opponent, 0.0)]).rating <= player.rating


@given(ratings, ratings, scores, scores)
def test_a_better_score_never_gives_a_lower_rating(player: Rating, opponent: Rating, s: float, t: float) -> None:
    low, high = sorted((s, t))
    assert update(player, [(opponent, low)]).rating <= update(player, [(opponent, high)]).rating + 1e-9


@given(ratings, ratings, scores)
def test_a_game_leaves_the_deviation_below_a_period_without_games(player: Rating, opponent: Rating,
                                                                  score: float) -> None:
    # at the volatility the period ends with: an upset raises the volatility, and with it the period's
    # growth, so the deviation can end a hair above an idle period at the old one (1881 losing to 1000,
    # both at 30: 34.13556 against 34.13554, found by hypothesis)
    after = update(player, [(opponent, score)])
    idle = update(Rating(player.rating, player.deviation, after.volatility), [])
    assert after.deviation < idle.deviation
    if after.volatility <= player.volatility:
        assert after.deviation < update(player, []).deviation


def test_an_upset_can_leave_the_deviation_above_an_idle_period_at_the_old_volatility() -> None:
    player, opponent = Rating(1881.0, 30.0, 0.09375), Rating(1000.0, 30.0, 0.0625)
    after = update(player, [(opponent, 0.0)])
    assert after.volatility > player.volatility
    assert after.deviation > update(player, []).deviation


@given(st.builds(Rating, st.floats(1200, 1800), st.floats(150, 350)), st.floats(-400, 400), st.floats(30, 350),
       scores)
def test_a_game_shrinks_an_uncertain_deviation(player: Rating, apart: float, deviation: float, score: float) -> None:
    # an uncertain player's deviation shrinks with a game against anyone within 400 points; a settled
    # player's may grow a little against an unknown opponent, and anyone's after a game whose result was
    # all but certain (the period's growth outweighs what the game says), as Glicko intends
    opponent = Rating(player.rating + apart, deviation)
    assert update(player, [(opponent, score)]).deviation < player.deviation


def test_a_settled_player_learns_little_from_an_unknown_opponent() -> None:
    settled = Rating(1500, 40)
    assert update(settled, [(Rating(1500, 350), 1.0)]).deviation > settled.deviation


@given(ratings, st.lists(st.tuples(ratings, scores), min_size=1, max_size=6))
def test_results_are_deterministic_and_their_order_does_not_matter(player: Rating,
                                                                    results: list[tuple[Rating, float]]) -> None:
    once = update(player, results)
    assert update(player, list(results)) == once
    backwards = update(player, results[::-1])
    assert backwards.rating == pytest.approx(once.rating, abs=1e-9)
    assert backwards.deviation == pytest.approx(once.deviation, abs=1e-9)


@given(ratings, st.floats(30, 350), st.floats(0.03, 0.1), scores, weights)
def test_a_match_between_equally_sure_players_is_zero_sum(a: Rating, deviation: float, volatility: float,
                                                         score: float, weight: float) -> None:
    a = Rating(a.rating, deviation, volatility)
    b = Rating(3000 - a.rating, deviation, volatility)
    new_a, new_b = rate_match(a, b, score, weight=weight)
    assert new_a.rating - a.rating == pytest.approx(b.rating - new_b.rating, abs=1e-9)
    assert new_a.deviation == pytest.approx(new_b.deviation)


def test_a_match_rates_both_from_their_ratings_before_it() -> None:
    a, b = Rating(1700, 60), Rating(1500, 200)
    new_a, new_b = rate_match(a, b, 0.0)
    assert new_a == update(a, [(b, 0.0)]) and new_b == update(b, [(a, 1.0)])
    # the surer player moves less on the same upset
    assert 0 < a.rating - new_a.rating < new_b.rating - b.rating


# -- the match length -------------------------------------------------------------------

def test_a_match_counts_as_the_square_root_of_its_length_in_games() -> None:
    assert [match_weight(n) for n in (1, 4, 9, 25)] == [1.0, 2.0, 3.0, 5.0]
    a, b = Rating(1550, 120), Rating(1480, 90)
    assert rate_match(a, b, 1.0, weight=match_weight(1)) == rate_match(a, b, 1.0)
    assert update(a, [(b, 1.0)], weight=1.0) == update(a, [(b, 1.0)])


def test_weight_two_is_two_identical_games() -> None:
    a, b = Rating(1550, 120), Rating(1480, 90)
    twice = update(a, [(b, 1.0), (b, 1.0)])
    weighted = update(a, [(b, 1.0)], weight=2.0)
    assert weighted.rating == pytest.approx(twice.rating, abs=1e-9)
    assert weighted.deviation == pytest.approx(twice.deviation, abs=1e-9)
    assert weighted.volatility == pytest.approx(twice.volatility, abs=1e-12)


@given(ratings, ratings, st.sampled_from([0.0, 1.0]), weights, weights)
def test_longer_matches_move_ratings_more(a: Rating, b: Rating, score: float, w1: float, w2: float) -> None:
    short, long = sorted((w1, w2))
    moved_short = abs(rate_match(a, b, score, weight=short)[0].rating - a.rating)
    moved_long = abs(rate_match(a, b, score, weight=long)[0].rating - a.rating)
    assert moved_long >= moved_short - 1e-9
    # and say more about the player: the deviation ends lower, unless the longer match's surprise
    # raised the volatility more (a big upset makes the player's strength less certain, as it should)
    after_short, after_long = rate_match(a, b, score, weight=short)[0], rate_match(a, b, score, weight=long)[0]
    if after_long.volatility <= after_short.volatility:
        assert after_long.deviation <= after_short.deviation + 1e-9


def test_a_longer_upset_raises_the_volatility_more() -> None:
    a, b = Rating(1000, 30, 0.0625), Rating(1924, 30, 0.0625)
    one, four = rate_match(a, b, 1.0)[0], rate_match(a, b, 1.0, weight=match_weight(4))[0]
    assert four.volatility > one.volatility > a.volatility


def test_a_longer_match_moves_ratings_strictly_more() -> None:
    a, b = Rating(), Rating()
    one, seven = rate_match(a, b, 1.0), rate_match(a, b, 1.0, weight=match_weight(7))
    assert seven[0].rating - 1500 > one[0].rating - 1500 > 0
    assert seven[1].rating - 1500 < one[1].rating - 1500 < 0


@given(ratings, ratings, st.sampled_from([0.0, 1.0]), weights)
def test_the_weight_is_the_same_for_both_players(a: Rating, b: Rating, score: float, weight: float) -> None:
    # rating the match from b's side gives the same pair: the weight favours neither seat
    new_a, new_b = rate_match(a, b, score, weight=weight)
    assert rate_match(b, a, 1.0 - score, weight=weight) == (new_b, new_a)


# -- provisional ratings -----------------------------------------------------------------

def test_a_rating_is_provisional_while_its_deviation_is_over_110() -> None:
    assert PROVISIONAL_DEVIATION == 110
    assert provisional(Rating()) and str(Rating()) == "1500?"
    assert provisional(Rating(1623.4, 110.5)) and Rating(1623.4, 110.5).display() == "1623?"
    assert not provisional(Rating(1623.6, 110.0)) and str(Rating(1623.6, 110.0)) == "1624"


def test_a_newcomer_stops_being_provisional_after_enough_games() -> None:
    player, opponent = Rating(), Rating(1500, 60)
    games = 0
    while provisional(player):
        player = update(player, [(opponent, games % 2)])
        games += 1
    assert 5 < games < 40


# -- bad input --------------------------------------------------------------------------

@pytest.mark.parametrize(("make", "words"), [
    (lambda: Rating(deviation=-5), "a rating's deviation must be a positive number, not -5"),
    (lambda: Rating(deviation=0.0), "a rating's deviation must be a positive number, not 0.0"),
    (lambda: Rating(rating=math.nan), "a rating must be a finite number, not nan"),
    (lambda: Rating(rating=math.inf), "a rating must be a finite number, not inf"),
    (lambda: Rating(volatility=math.nan), "a rating's volatility must be a positive number, not nan"),
    (lambda: update(Rating(), [(Rating(), 1.5)]), "a score must be from 0 to 1, not 1.5"),
    (lambda: update(Rating(), [(Rating(), -0.1)]), "a score must be from 0 to 1, not -0.1"),
    (lambda: update(Rating(), [(Rating(), math.nan)]), "a score must be from 0 to 1, not nan"),
    (lambda: rate_match(Rating(), Rating(), 2.0), "a score must be from 0 to 1, not 2.0"),
    (lambda: rate_match(Rating(), Rating(), 1.0, weight=0.0),
     "a result's weight must be a positive number of games, not 0.0"),
    (lambda: rate_match(Rating(), Rating(), 1.0, weight=-2),
     "a result's weight must be a positive number of games, not -2"),
    (lambda: update(Rating(), [], tau=0.0), "the system constant tau must be a positive number, not 0.0"),
    (lambda: update(Rating(), [(1500, 1.0)]), "an opponent must be a Rating, not 1500"),  # type: ignore[list-item]
    (lambda: match_weight(0), "a match's length must be a whole number of points from 1, not 0"),
    (lambda: match_weight(2.5), "a match's length must be a whole number of points from 1, not 2.5"),  # type: ignore[arg-type]
])
def test_bad_input_is_refused_in_one_line(make: object, words: str) -> None:
    with pytest.raises(RatingError) as caught:
        make()  # type: ignore[operator]
    assert str(caught.value) == words and "\n" not in words
    assert isinstance(caught.value, TavliError) and isinstance(caught.value, ValueError)
