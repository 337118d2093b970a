"""Rating farming (tavli.server.cafe.results): two accounts that hand each other rated wins. A match
decided before both sides made a play of their own is not rated; the rated matches of one pair in
one pool count less after the first few in a day, and not at all beyond a cap; the pairs that feed
each other are listed for the moderators (``Results.feeding_pairs``, ``tavli users pairs``)."""

from __future__ import annotations

import asyncio
import itertools
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from app_client import Message, hello, make_client, new_match, play_until_both_chose, token_of, until
from click.testing import CliRunner
from sqlalchemy.ext.asyncio import create_async_engine
from starlette.testclient import TestClient

from tavli.cli import cli
from tavli.rating import Rating, match_weight, rate_match
from tavli.server.cafe.results import PAIR_CAP, PAIR_FULL, PAIR_WINDOW, FeedingPair, Results, pair_weight

PASSWORD = "a long password"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    """The app, its reviews of the finished matches at depth 0: they are not what is tested here."""
    with make_client(db, review_depth=0) as c:
        yield c


def sign_up(client: TestClient, name: str) -> str:
    client.cookies.clear()
    answer = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return str(answer.cookies["tavli_session"])


def rated_match(client: TestClient, winner: str, loser: str, *, real: bool, games: str = "portes",
                length: int = 1) -> str:
    """A rated match made by ``winner`` (a session), taken by ``loser``, who resigns it: at once,
    or after both have made a real play (``real``). Its id."""
    client.cookies.clear()
    client.cookies.set("tavli_session", winner)
    links = new_match(client, opponent="friend", rated=True, seat="white", length=length, games=games,
                      clock="none")
    mid = links["match"]
    with client.websocket_connect(f"/ws/{mid}") as mine:
        hello(mine, links["token"])
        client.cookies.clear()
        client.cookies.set("tavli_session", loser)
        with client.websocket_connect(f"/ws/{mid}") as theirs:
            state = hello(theirs, token_of(links["friend"]))
            if state["waiting"]:
                state = until(theirs, lambda m: m["type"] == "state" and not m["waiting"])
            if real:
                state = play_until_both_chose({"white": mine, "black": theirs}, state)
            theirs.send_json({"type": "resign", "seq": state["seq"], "match": True})
            # once its result is kept (after the match's last state): the state says how it rated
            over = until(theirs, lambda m: m["type"] == "state" and m["over"] and m["ratings"])
    assert over["winner"] == "white"
    return str(mid)


def page(client: TestClient, name: str) -> Message:
    answer = client.get(f"/api/players/{name}")
    assert answer.status_code == 200
    return dict(answer.json())


def changes(client: TestClient, name: str) -> list[float]:
    """How much each of ``name``'s matches moved his rating, oldest first (0 for an unrated one)."""
    listed = reversed(page(client, name)["matches"])
    return [m["rating"]["after"] - m["rating"]["before"] if m["rating"] else 0.0 for m in listed]


def test_a_match_resigned_before_both_played_a_real_turn_is_not_rated(client: TestClient) -> None:
    farmer, feeder = sign_up(client, "Farmer"), sign_up(client, "Feeder")
    for _ in range(3):
        rated_match(client, farmer, feeder, real=False)
    for name, result in (("Farmer", "won"), ("Feeder", "lost")):
        seen = page(client, name)
        assert seen["ratings"] == {} and seen["history"] == {}  # no rating moved
        assert len(seen["matches"]) == 3  # each one is still a result
        assert {(m["result"], m["ending"], m["rated"], m["rating"]) for m in seen["matches"]} == \
            {(result, "resigned", False, None)}  # shown as unrated
        assert seen["record"]["portes"] == ({"won": 3, "lost": 0, "gammons": 0} if result == "won"
                                            else {"won": 0, "lost": 3, "gammons": 0})


@pytest.mark.slow
def test_a_match_with_a_real_turn_each_is_rated_as_before(client: TestClient) -> None:
    farmer, feeder = sign_up(client, "Farmer"), sign_up(client, "Feeder")
    rated_match(client, farmer, feeder, real=True, length=3, games="fevga")
    expect, _ = rate_match(Rating(), Rating(), 1.0, weight=match_weight(3))
    seen = page(client, "Farmer")
    assert seen["ratings"]["fevga"]["rating"] == round(expect.rating, 1)
    assert seen["matches"][0]["rated"] and seen["matches"][0]["rating"]["after"] == round(expect.rating, 1)


@pytest.mark.slow
def test_a_pair_farming_with_real_turns_gains_a_bounded_amount_a_day(client: TestClient, db: Path) -> None:
    farmer, feeder = sign_up(client, "Farmer"), sign_up(client, "Feeder")
    for _ in range(PAIR_CAP + 2):
        rated_match(client, farmer, feeder, real=True)
    gained = changes(client, "Farmer")
    full, later, beyond = gained[:PAIR_FULL], gained[PAIR_FULL:PAIR_CAP], gained[PAIR_CAP:]
    assert all(g > 0 for g in full + later) and beyond == [0.0, 0.0]  # beyond the cap: not rated
    assert later[0] < 0.75 * full[-1]  # the first one past the limit counts half
    assert all(b < 0.75 * a for a, b in itertools.pairwise(later))  # and each later one less
    # the bound: less than four full wins would give (together they count less than four matches)
    bound = Rating()
    for _ in range(PAIR_FULL + 1):
        bound, _ = rate_match(bound, Rating(), 1.0)
    farmed = page(client, "Farmer")
    assert farmed["ratings"]["portes"]["rating"] < bound.rating
    assert farmed["ratings"]["portes"]["matches"] == PAIR_CAP  # the unrated ones are not counted
    assert [m["rated"] for m in reversed(farmed["matches"])] == [True] * PAIR_CAP + [False, False]
    # another pool is another rating: its limit is its own
    rated_match(client, farmer, feeder, real=True, games="plakoto")
    assert page(client, "Farmer")["ratings"]["plakoto"]["matches"] == 1
    # a day later the pair's matches count fully again
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE rating_changes SET at = at - ?", (PAIR_WINDOW + 60,))
    before = page(client, "Farmer")["ratings"]["portes"]
    rated_match(client, farmer, feeder, real=True)
    after = page(client, "Farmer")["ratings"]["portes"]
    opponent = page(client, "Feeder")["matches"][0]["rating"]["before"]
    assert opponent is not None and after["matches"] == PAIR_CAP + 1
    # the same result at full weight (the deviations are rounded on the page: to a tenth)
    expect, _ = rate_match(Rating(before["rating"], before["deviation"]),
                           Rating(opponent, page(client, "Feeder")["ratings"]["portes"]["deviation"]), 1.0)
    assert abs(after["rating"] - expect.rating) < 1.0 and after["rating"] - before["rating"] > 3 * later[-1]


def test_the_pair_weights_halve_past_the_limit_and_stop_at_the_cap() -> None:
    weights = [pair_weight(k) for k in range(PAIR_CAP + 2)]
    assert weights[:PAIR_FULL] == [1.0] * PAIR_FULL
    assert weights[PAIR_FULL:PAIR_CAP] == [0.5 ** (k + 1) for k in range(PAIR_CAP - PAIR_FULL)]
    assert weights[PAIR_CAP:] == [0.0, 0.0]
    assert sum(weights) < PAIR_FULL + 1  # a pair gives at most this many full matches a day


@pytest.mark.slow
def test_the_pairs_that_feed_each_other_are_listed(client: TestClient, db: Path) -> None:
    farmer, feeder = sign_up(client, "Farmer"), sign_up(client, "Feeder")
    eleni, nikos = sign_up(client, "Eleni"), sign_up(client, "Nikos")
    for _ in range(4):
        rated_match(client, farmer, feeder, real=True)
    for _ in range(3):
        rated_match(client, farmer, feeder, real=False)  # unrated: still a sign
    for k in range(6):  # friends who play a lot, each winning half
        first, second = (eleni, nikos) if k % 2 else (nikos, eleni)
        rated_match(client, first, second, real=False)
    pairs = asyncio.run(feeding(db))
    (pair,) = pairs
    assert isinstance(pair, FeedingPair)
    assert (pair.first, pair.second, pair.matches, pair.counted) == ("Farmer", "Feeder", 7, 4)
    assert (pair.first_wins, pair.second_wins) == (7, 0)
    farmed = page(client, "Farmer")["ratings"]["portes"]["rating"]
    assert pair.given_to_first == pytest.approx(farmed - 1500, abs=0.1) and pair.given_to_second < 0
    assert asyncio.run(feeding(db, matches=8)) == []  # fewer than asked
    assert [p.first for p in asyncio.run(feeding(db, share=0.5))] == ["Farmer", "Eleni"]  # any pair played often
    assert asyncio.run(feeding(db, since=10**12)) == []  # none in the window
    shown = CliRunner().invoke(cli, ["users", "pairs", "--database", f"sqlite:///{db}"])
    assert shown.exit_code == 0, shown.output
    (line,) = shown.output.strip().splitlines()[1:]
    assert line.split()[:4] == ["Farmer", "Feeder", "7", "4"] and "7-0" in line
    none = CliRunner().invoke(cli, ["users", "pairs", "--database", f"sqlite:///{db}", "--matches", "50"])
    assert none.exit_code == 0 and "no pair" in none.output
    bad = CliRunner().invoke(cli, ["users", "pairs", "--database", f"sqlite:///{db}", "--share", "2"])
    assert bad.exit_code == 2 and bad.output.strip().splitlines()[-1].startswith("Error: Invalid value for '--share'")


async def feeding(db: Path, **limits: Any) -> list[FeedingPair]:
    engine = create_async_engine(f"sqlite+aiosqlite:///{db}")
    try:
        return await Results(engine).feeding_pairs(**limits)
    finally:
        await engine.dispose()
