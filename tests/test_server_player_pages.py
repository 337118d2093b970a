"""What the players' pages say, over HTTP (tavli.server.cafe.players): gammons are games won on the
board, each game's ending counted apart; a match with no decision to analyse has no error rate;
the leaderboard lists provisional players after the settled ones; and a guest's browser lists the
matches it holds the seats of, with the opponent, the games and the score."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from app_client import (
    as_player,
    hello,
    make_client,
    new_match,
    next_state,
    play_until_both_chose,
    sign_up,
    token_of,
    until,
)
from sqlalchemy import create_engine
from starlette.testclient import TestClient

from tavli.server.routes.context import context_of
from tavli.server.storage.migrate import config

Message = dict[str, Any]
NO_ENDINGS = {"played": 0, "resigned": 0, "time": 0, "claimed": 0}



def is_state(message: Message) -> bool:
    return bool(message["type"] == "state")


def friends_match(client: TestClient, white: str, black: str, **body: Any) -> tuple[Message, str]:
    """A match made by ``white``'s player for a friend: its links, and the friend's token."""
    with as_player(client, white):
        links = new_match(client, opponent="friend", seat="white", **body)
    return links, token_of(links["friend"])


def record_of(client: TestClient, name: str, game: str) -> tuple[Message, Message]:
    """A player's record in ``game``, and how the games he won and lost ended."""
    page = client.get(f"/api/players/{name}").json()
    return page["record"][game], page["endings"]


def test_a_gammon_is_a_game_won_on_the_board_not_a_resignation_for_two(client: TestClient) -> None:
    eleni, nikos = sign_up(client, "Eleni"), sign_up(client, "Nikos")
    links, friend = friends_match(client, eleni, nikos, length=3, games="portes", clock="none")
    mid = links["match"]
    with as_player(client, eleni), client.websocket_connect(f"/ws/{mid}") as white, \
            as_player(client, nikos), client.websocket_connect(f"/ws/{mid}") as black:
        hello(white, links["token"])
        state = hello(black, friend)
        sockets = {"white": white, "black": black}
        loser = state["turn"]  # a game is resigned on one's turn
        winner = "black" if loser == "white" else "white"
        sockets[loser].send_json({"type": "resign", "seq": state["seq"], "points": 2})
        offered = until(sockets[winner], lambda m: is_state(m) and m["offer"] is not None)
        sockets[winner].send_json({"type": "answer", "seq": offered["seq"], "accept": True})
        taken = until(sockets[loser], lambda m: is_state(m) and m["score"][winner] == 2)
        sockets[loser].send_json({"type": "resign", "seq": taken["seq"], "match": True})
        over = until(sockets[loser], lambda m: is_state(m) and m["over"])
    assert over["winner"] == winner and over["score"][winner] == 3
    names = {"white": "Eleni", "black": "Nikos"}
    won, lost = record_of(client, names[winner], "portes"), record_of(client, names[loser], "portes")
    # two games won, neither on the board: no gammon, though the first was worth 2 points
    assert won == ({"won": 2, "lost": 0, "gammons": 0}, {"won": NO_ENDINGS | {"resigned": 2}, "lost": NO_ENDINGS})
    assert lost == ({"won": 0, "lost": 2, "gammons": 0}, {"won": NO_ENDINGS, "lost": NO_ENDINGS | {"resigned": 2}})


@pytest.mark.slow
def test_a_match_won_on_time_is_no_gammon(client: TestClient) -> None:
    eleni, nikos = sign_up(client, "Eleni"), sign_up(client, "Nikos")
    links, friend = friends_match(client, eleni, nikos, length=3, games="plakoto", clock={"delay": 0, "reserve": 1})
    mid = links["match"]
    with as_player(client, eleni), client.websocket_connect(f"/ws/{mid}") as white, \
            as_player(client, nikos), client.websocket_connect(f"/ws/{mid}") as black:
        hello(white, links["token"])
        hello(black, friend)
        over = until(black, lambda m: is_state(m) and m["over"])  # nobody moves: the mover's clock runs out
    winner = {"white": "Eleni", "black": "Nikos"}[over["winner"]]
    assert over["score"][over["winner"]] == 3
    page = client.get(f"/api/players/{winner}").json()
    assert page["matches"][0]["ending"] == "time"
    assert page["record"]["plakoto"] == {"won": 1, "lost": 0, "gammons": 0}
    assert page["endings"] == {"won": NO_ENDINGS | {"time": 1}, "lost": NO_ENDINGS}


def test_a_claimed_game_is_counted_as_claimed(db: Path) -> None:
    with make_client(db, claim_after=0.0) as client:
        eleni, nikos = sign_up(client, "Eleni"), sign_up(client, "Nikos")
        links, friend = friends_match(client, eleni, nikos, length=1, games="fevga", clock="none")
        mid = links["match"]
        with as_player(client, nikos), client.websocket_connect(f"/ws/{mid}") as black:
            hello(black, friend)  # he comes, and goes
        with as_player(client, eleni), client.websocket_connect(f"/ws/{mid}") as white:
            state = hello(white, links["token"])
            while state["turn"] == "white":  # her turn first: she plays it, then his is claimable
                white.send_json({"type": "roll", "seq": state["seq"]})
                rolled = next_state(white, state["seq"])
                if rolled["can_play"]:
                    white.send_json({"type": "play", "seq": rolled["seq"], "play": rolled["legal"]["plays"][0]})
                state = until(white, lambda m: is_state(m) and m["turn"] == "black")
            white.send_json({"type": "claim", "seq": state["seq"]})
            until(white, lambda m: is_state(m) and m["score"]["white"] == 1)
        assert record_of(client, "Eleni", "fevga") == ({"won": 1, "lost": 0, "gammons": 0},
                                                       {"won": NO_ENDINGS | {"claimed": 1}, "lost": NO_ENDINGS})
        assert record_of(client, "Nikos", "fevga")[1] == {"won": NO_ENDINGS, "lost": NO_ENDINGS | {"claimed": 1}}


def reviewed(client: TestClient, match_id: str, limit: float = 120.0) -> None:
    """Wait until the finished match's review is made and its error rates kept (its job gone)."""
    jobs = context_of(client.app).reviewer.jobs  # type: ignore[arg-type]
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        answer = client.get(f"/api/matches/{match_id}/analysis")
        if answer.status_code == 200 and answer.json()["status"] == "done" and match_id not in jobs:
            return
        time.sleep(0.05)
    raise AssertionError("the review was never made")


def test_a_match_with_no_decision_analysed_has_no_error_rate(client: TestClient) -> None:
    eleni, nikos = sign_up(client, "Eleni"), sign_up(client, "Nikos")
    played, friend = friends_match(client, eleni, nikos, length=1, games="portes", clock="none")
    at_once, friend_at_once = friends_match(client, eleni, nikos, length=1, games="portes", clock="none")
    for links, token, choose in ((played, friend, True), (at_once, friend_at_once, False)):
        mid = links["match"]
        with as_player(client, eleni), client.websocket_connect(f"/ws/{mid}") as white, \
                as_player(client, nikos), client.websocket_connect(f"/ws/{mid}") as black:
            hello(white, links["token"])
            state = hello(black, token)
            if choose:  # each side chooses a play: each has a decision to analyse
                state = play_until_both_chose({"white": white, "black": black}, state)
            black.send_json({"type": "resign", "seq": state["seq"], "match": True})  # before a roll, or after
            until(black, lambda m: is_state(m) and m["over"])
        reviewed(client, mid)
    page = client.get("/api/players/Eleni").json()
    rates = {m["id"]: m["error_rate"] for m in page["matches"]}
    assert rates[at_once["match"]] == {"player": None, "opponent": None}  # shown as "–", not a perfect 0.0
    assert rates[played["match"]]["player"] is not None and rates[played["match"]]["opponent"] is not None
    assert [point["match"] for point in page["error_trend"]] == [played["match"]]  # the other is off the chart


def test_the_leaderboard_lists_provisional_players_after_the_settled(client: TestClient, db: Path) -> None:
    for name in ("Alpha", "Beta", "Gamma", "Delta", "Gone"):
        sign_up(client, name)
    with sqlite3.connect(db) as conn:
        for account, rating, deviation in ((1, 1700.0, 80.0), (2, 1800.0, 110.0), (3, 1900.0, 200.0),
                                           (4, 1650.0, 300.0), (5, 2000.0, 60.0)):
            conn.execute("INSERT INTO ratings VALUES (?, 'tavli', ?, ?, 0.06, 3, 0)", (account, rating, deviation))
        conn.execute("UPDATE accounts SET deleted = 1 WHERE name = 'Gone'")
    board = client.get("/api/leaderboard?pool=tavli").json()
    listed = [(p["name"], p["rank"], p["shown"], p["provisional"]) for p in board["players"]]
    assert listed == [("Beta", 1, "1800", False), ("Alpha", 2, "1700", False),
                      ("Gamma", None, "1900?", True), ("Delta", None, "1650?", True)]
    assert board["provisional_deviation"] == 110.0


def test_a_guest_lists_the_matches_his_browser_holds(client: TestClient) -> None:
    private = new_match(client, opponent="friend", length=3, games="portes", clock="none", private=True,
                        seat="white", name="Eleni")
    bot = new_match(client, opponent="expert", length=1, games="plakoto")
    nikos = sign_up(client, "Nikos")
    with client.websocket_connect(f"/ws/{private['match']}") as white, \
            as_player(client, nikos), client.websocket_connect(f"/ws/{private['match']}") as black:
        hello(white, private["token"])
        state = hello(black, token_of(private["friend"]))
        loser = "black" if state["turn"] == "black" else "white"
        sockets = {"white": white, "black": black}
        sockets[loser].send_json({"type": "resign", "seq": state["seq"], "points": 1})
        offered = until(sockets["white" if loser == "black" else "black"], lambda m: is_state(m) and m["offer"])
        sockets["white" if loser == "black" else "black"].send_json(
            {"type": "answer", "seq": offered["seq"], "accept": True})
        until(white, lambda m: is_state(m) and sum(m["score"].values()) == 1)
    held = [{"match": private["match"], "token": private["token"]}, {"match": bot["match"], "token": bot["token"]},
            {"match": bot["match"], "token": private["token"]},  # another match's token: not this one's seat
            {"match": private["match"], "token": token_of(private["watch"])},  # a spectator's: no seat
            {"match": "../etc", "token": 5}, "junk"]
    with as_player(client, None):
        answer = client.post("/api/matches/held", json={"matches": held})
    assert answer.status_code == 200, answer.text
    listed = {m["id"]: m for m in answer.json()["matches"]}
    assert set(listed) == {private["match"], bot["match"]}
    mine = listed[private["match"]]  # private, but the seat's token is his own: he reads it
    assert mine["private"] and mine["seat"] == "white" and mine["games"] == ["portes"] and mine["length"] == 3
    assert mine["opponent"] == {"kind": "human", "level": None, "name": "Nikos", "account": True}
    assert mine["result"] == "playing" and mine["score"] == {"player": 1 if loser == "black" else 0,
                                                             "opponent": 0 if loser == "black" else 1}
    assert listed[bot["match"]]["opponent"] == {"kind": "bot", "level": "expert", "name": None, "account": False}
    assert listed[bot["match"]]["games"] == ["plakoto"] and listed[bot["match"]]["score"] == {"player": 0,
                                                                                              "opponent": 0}
    # a browser that has played many matches sends every seat it holds: more than a small body holds
    many = held[:2] + [{"match": f"old{k:09d}", "token": "x" * 43} for k in range(150)]
    assert {m["id"] for m in client.post("/api/matches/held", json={"matches": many}).json()["matches"]} == set(listed)
    # a stranger with the match's id but not its token learns nothing of it
    stranger = client.post("/api/matches/held", json={"matches": [{"match": private["match"], "token": "guess"}]})
    assert stranger.json() == {"matches": []}
    junk: Any
    for junk in ([], {"matches": 5, "more": 1}, "text", {}):
        refused = client.post("/api/matches/held", json=junk)
        assert refused.status_code == 400 and "\n" not in refused.json()["error"]


def test_a_database_of_results_without_endings_upgrades_in_place(db: Path) -> None:
    """Results kept before each game's ending was (and a 0.0 for a side with no decision) are
    mended by the migration 0008 from the stored reviews, when the server next starts."""
    with make_client(db) as client:
        eleni, nikos = sign_up(client, "Eleni"), sign_up(client, "Nikos")
        links, friend = friends_match(client, eleni, nikos, length=3, games="portes", clock="none")
        mid = links["match"]
        with as_player(client, eleni), client.websocket_connect(f"/ws/{mid}") as white, \
                as_player(client, nikos), client.websocket_connect(f"/ws/{mid}") as black:
            hello(white, links["token"])
            state = hello(black, friend)
            sockets = {"white": white, "black": black}
            loser = state["turn"]
            winner = "black" if loser == "white" else "white"
            sockets[loser].send_json({"type": "resign", "seq": state["seq"], "points": 2})
            offered = until(sockets[winner], lambda m: is_state(m) and m["offer"] is not None)
            sockets[winner].send_json({"type": "answer", "seq": offered["seq"], "accept": True})
            taken = until(sockets[loser], lambda m: is_state(m) and m["score"][winner] == 2)
            sockets[loser].send_json({"type": "resign", "seq": taken["seq"], "match": True})
            until(sockets[loser], lambda m: is_state(m) and m["over"])
        reviewed(client, mid)
        before = client.get("/api/players/Eleni").json()
    engine = create_engine(f"sqlite:///{db}")
    with engine.begin() as conn:  # the schema of the version before 0008
        command.downgrade(config(conn), "0007_seek_addresses")
    engine.dispose()
    with sqlite3.connect(db) as conn:  # and the results as it kept them
        (games,) = conn.execute("SELECT games FROM match_results WHERE match_id = ?", (mid,)).fetchone()
        assert '"ending": "resigned"' in games
        conn.execute("UPDATE match_results SET games = ?, white_error_rate = 0.0, black_error_rate = 0.0",
                     (games.replace(', "ending": "resigned"', ""),))
    with make_client(db) as client:
        after = client.get("/api/players/Eleni").json()
    assert (after["record"], after["endings"]) == (before["record"], before["endings"])
    assert after["record"]["portes"]["gammons"] == 0
    assert after["endings"]["won"]["resigned"] + after["endings"]["lost"]["resigned"] == 2
    assert after["matches"][0]["error_rate"] == {"player": None, "opponent": None}  # nobody had a decision
