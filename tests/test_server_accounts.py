"""Accounts over HTTP (tavli.server.cafe.accounts, tavli.server.routes.account_api): signing up, logging in
and out, sessions, rated matches and their ratings, the players' pages, and every attack we
thought of, each a test."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from app_client import play_until_both_chose
from starlette.testclient import TestClient

from tavli.rating import Rating, match_weight, rate_match
from tavli.server.cafe.accounts import COOKIE, FAILURES_PER_ADDRESS, account_key, account_name

Message = dict[str, Any]
PASSWORD = "correct horse battery"


def sign_up(client: TestClient, name: str, password: str = PASSWORD, **extra: Any) -> str:
    """A new account, logged in on ``client`` (instead of whoever was): its session secret."""
    client.cookies.clear()  # else the login would end the session the client had
    answer = client.post("/api/accounts", json={"name": name, "password": password, **extra})
    assert answer.status_code == 201, answer.text
    return str(answer.cookies[COOKIE])


@contextmanager
def as_player(client: TestClient, secret: str | None) -> Iterator[TestClient]:
    """``client`` with ``secret``'s session cookie (None: a guest) for the block."""
    saved = dict(client.cookies)
    client.cookies.clear()
    if secret is not None:
        client.cookies.set(COOKIE, secret)
    try:
        yield client
    finally:
        client.cookies.clear()
        for key, value in saved.items():
            client.cookies.set(key, value)


def until(ws: Any, done: Any, limit: int = 100) -> Message:
    for _ in range(limit):
        message = dict(ws.receive_json())
        if done(message):
            return message
    raise AssertionError("the expected message never came")


def hello(ws: Any, token: str) -> Message:
    ws.send_json({"type": "hello", "token": token})
    return until(ws, lambda m: m["type"] in ("state", "error"))


def token_of(link: str) -> str:
    return link.split("#t=", 1)[1]


def test_names_are_unique_ignoring_case_and_form() -> None:
    assert account_key("Ελένη") == account_key("ΕΛΈΝΗ") and account_key("ﬁsh") == account_key("FISH")
    assert account_name("Νίκος-7") == "Νίκος-7"
    for bad in ("a", "x" * 21, "has space", "<img src=x onerror=alert(1)>", "Robert'); DROP TABLE accounts;--",
                "zero\u200bwidth", "e\u0301", 7, None):
        with pytest.raises(ValueError):
            account_name(bad)


def test_sign_up_log_in_and_out(client: TestClient) -> None:
    secret = sign_up(client, "Ελένη")
    assert client.get("/api/session").json() == {"name": "Ελένη", "moderator": False}
    taken = client.post("/api/accounts", json={"name": "ελένη", "password": PASSWORD})
    assert taken.status_code == 409 and taken.json()["error"] == "that name is taken"
    short = client.post("/api/accounts", json={"name": "Nikos", "password": "short"})
    assert short.status_code == 400 and short.json()["error"] == "a password has 8 to 200 characters"
    out = client.delete("/api/session")
    assert out.status_code == 200 and client.get("/api/session").json() == {"name": None, "moderator": False}
    with as_player(client, secret):  # logging out ended the session: the old cookie is worth nothing
        assert client.get("/api/session").json() == {"name": None, "moderator": False}
    login = client.post("/api/session", json={"name": "ΕΛΈΝΗ", "password": PASSWORD})
    assert login.status_code == 200 and login.json()["name"] == "Ελένη"
    assert login.cookies[COOKIE] != secret  # a new session id at every login
    cookie = login.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie


def test_the_database_holds_no_password(db: Path, client: TestClient) -> None:
    sign_up(client, "Nikos")
    client.post("/api/session", json={"name": "Nikos", "password": "wrong password!"})
    raw = db.read_bytes() + (db.with_name(db.name + "-wal").read_bytes() if db.with_name(db.name + "-wal").exists()
                             else b"")
    assert PASSWORD.encode() not in raw and b"wrong password!" not in raw
    with sqlite3.connect(db) as conn:
        (stored,) = conn.execute("SELECT password FROM accounts").fetchone()
    assert stored.startswith("$argon2id$")


def test_a_wrong_name_and_a_wrong_password_answer_alike(client: TestClient) -> None:
    sign_up(client, "Nikos")
    client.cookies.clear()
    no_name = client.post("/api/session", json={"name": "Nobody", "password": PASSWORD})
    wrong = client.post("/api/session", json={"name": "Nikos", "password": "not the password"})
    assert no_name.status_code == wrong.status_code == 401
    assert no_name.json() == wrong.json() and no_name.json()["error"] == "wrong name or password"


@pytest.mark.slow
def test_the_eleventh_failed_login_in_a_minute_from_one_address_is_refused(client: TestClient) -> None:
    sign_up(client, "Nikos")
    client.app.state.context.accounts.clock = lambda: 1e9  # every try at one moment, however slow the machine
    for attempt in range(FAILURES_PER_ADDRESS):
        answer = client.post("/api/session", json={"name": f"guess{attempt}", "password": "not it at all"})
        assert answer.status_code == 401
    refused = client.post("/api/session", json={"name": "Nikos", "password": PASSWORD})  # even the right one
    assert refused.status_code == 429 and "too many failed logins" in refused.json()["error"]


def test_cross_site_requests_are_refused(client: TestClient) -> None:
    evil = {"origin": "https://evil.example"}
    assert client.post("/api/accounts", json={"name": "Nikos", "password": PASSWORD}, headers=evil).status_code == 403
    secret = sign_up(client, "Nikos")
    with as_player(client, secret):
        for method, path in (("POST", "/api/matches"), ("DELETE", "/api/session"), ("DELETE", "/api/account")):
            answer = client.request(method, path, json={}, headers={"sec-fetch-site": "cross-site"})
            assert answer.status_code == 403, (method, path)
        assert client.get("/api/session").json() == {"name": "Nikos", "moderator": False}  # still logged in
        same = client.post("/api/matches", json={"opponent": "friend"}, headers={"origin": "http://testserver"})
        assert same.status_code == 201


def test_hostile_names_are_refused_and_sql_changes_nothing(client: TestClient) -> None:
    sign_up(client, "Nikos")
    for name in ("<img src=x onerror=alert(1)>", "Nikos' OR '1'='1", "x'; DROP TABLE accounts; --"):
        answer = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
        assert answer.status_code == 400 and "\n" not in answer.json()["error"]
        assert client.post("/api/session", json={"name": name, "password": PASSWORD}).status_code == 401
        assert client.get(f"/api/players/{name}").status_code == 404
    assert client.get("/api/players/Nikos").json()["name"] == "Nikos"


def test_malformed_account_requests_get_one_line(client: TestClient) -> None:
    for body in (b"not json", b"[]", b'{"name": "Nikos"}', b'{"name": 7, "password": 8}',
                 b'{"name": "Nikos", "password": "' + b"x" * 300 + b'"}', b'{"name": "Ni", "password": null}'):
        answer = client.post("/api/accounts", content=body, headers={"content-type": "application/json"})
        assert answer.status_code == 400, body
        assert answer.json()["error"] and "\n" not in answer.json()["error"]
    assert client.post("/api/session", content=b'{"name": [], "password": {}}').status_code == 401
    assert client.get("/api/leaderboard?pool=chess").status_code == 400


@pytest.mark.slow
def test_change_password_and_delete_the_account(client: TestClient) -> None:
    old = sign_up(client, "Nikos")
    wrong = client.post("/api/account/password", json={"password": "not the password", "new_password": "a new one!"})
    assert wrong.status_code == 401
    changed = client.post("/api/account/password", json={"password": PASSWORD, "new_password": "a new one!"})
    assert changed.status_code == 200 and changed.cookies[COOKIE] != old
    with as_player(client, old):
        assert client.get("/api/session").json() == {"name": None, "moderator": False}  # the other sessions ended
    client.cookies.clear()
    assert client.post("/api/session", json={"name": "Nikos", "password": PASSWORD}).status_code == 401
    assert client.post("/api/session", json={"name": "Nikos", "password": "a new one!"}).status_code == 200
    assert client.request("DELETE", "/api/account", json={"password": "a new one!"}).status_code == 200
    assert client.get("/api/players/Nikos").status_code == 404
    assert client.post("/api/session", json={"name": "Nikos", "password": "a new one!"}).status_code == 401
    sign_up(client, "Nikos")  # the name is free again


def rated_friend_match(client: TestClient, white: str, black: str, **body: Any) -> tuple[Message, str]:
    """A rated match made by ``white``'s player for a friend: the answer and the friend's token."""
    with as_player(client, white):
        made = client.post("/api/matches", json={"opponent": "friend", "rated": True, "seat": "white", **body})
    assert made.status_code == 201, made.text
    links = made.json()
    assert links["rated"] is True
    return links, token_of(links["friend"])


def test_a_rated_match_moves_both_ratings_by_glicko2(client: TestClient) -> None:
    eleni, nikos = sign_up(client, "Ελένη"), sign_up(client, "Nikos")
    links, friend = rated_friend_match(client, eleni, nikos, length=5, games="plakoto")
    mid = links["match"]
    with as_player(client, eleni), client.websocket_connect(f"/ws/{mid}") as mine, \
            as_player(client, nikos), client.websocket_connect(f"/ws/{mid}") as ws:
        hello(mine, links["token"])
        state = hello(ws, friend)
        assert state["type"] == "state" and state["settings"]["rated"] and state["players"]["black"]["name"] == "Nikos"
        state = play_until_both_chose({"white": mine, "black": ws}, state)  # else it is not rated
        ws.send_json({"type": "resign", "seq": state["seq"], "match": True})  # leaving the match: a loss
        over = until(ws, lambda m: m["type"] == "state" and m["over"])
    assert over["winner"] == "white"
    expect_white, expect_black = rate_match(Rating(), Rating(), 1.0, weight=match_weight(5))
    profile = client.get("/api/players/ελένη").json()
    assert profile["name"] == "Ελένη"
    assert profile["ratings"]["plakoto"]["rating"] == round(expect_white.rating, 1)
    assert profile["ratings"]["plakoto"]["deviation"] == round(expect_white.deviation, 1)
    assert profile["ratings"]["plakoto"]["provisional"] and profile["ratings"]["plakoto"]["shown"].endswith("?")
    (listed,) = profile["matches"]
    assert listed["id"] == mid and listed["result"] == "won" and listed["opponent"]["name"] == "Nikos"
    assert listed["rated"] and listed["ending"] == "resigned" and listed["score"] == {"player": 5, "opponent": 0}
    assert listed["rating"] == {"before": 1500.0, "after": round(expect_white.rating, 1)}
    loser = client.get("/api/players/Nikos").json()
    assert loser["ratings"]["plakoto"]["rating"] == round(expect_black.rating, 1)
    assert loser["matches"][0]["result"] == "lost" and loser["history"]["plakoto"][0]["rating"] == round(
        expect_black.rating, 1)
    # provisional ratings are listed on the leaderboard, marked and unranked
    board = client.get("/api/leaderboard?pool=plakoto").json()["players"]
    assert [(p["name"], p["rank"], p["shown"][-1]) for p in board] == [("Ελένη", None, "?"), ("Nikos", None, "?")]


def test_a_rated_result_counts_once_even_after_a_restart(db: Path) -> None:
    from app_client import make_client

    with make_client(db) as client:
        eleni, nikos = sign_up(client, "Eleni"), sign_up(client, "Nikos")
        links, friend = rated_friend_match(client, eleni, nikos, length=1, games="portes")
        with as_player(client, eleni), client.websocket_connect(f"/ws/{links['match']}") as mine, \
                as_player(client, nikos), client.websocket_connect(f"/ws/{links['match']}") as ws:
            hello(mine, links["token"])
            state = play_until_both_chose({"white": mine, "black": ws}, hello(ws, friend))
            ws.send_json({"type": "resign", "seq": state["seq"], "match": True})
            until(ws, lambda m: m["type"] == "state" and m["over"])
        first = client.get("/api/players/Eleni").json()["ratings"]
    with make_client(db) as again:
        assert again.get("/api/players/Eleni").json()["ratings"] == first
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM rating_changes").fetchone() == (2,)
        # as if the server had stopped before keeping the result (kept with its rating, or neither)
        conn.execute("DELETE FROM rating_changes")
        conn.execute("DELETE FROM match_results")
        conn.execute("UPDATE ratings SET rating = 1500, deviation = 350, matches = 0")
    with make_client(db) as restarted:
        assert restarted.get("/api/players/Eleni").json()["ratings"]["portes"]["rating"] == first["portes"]["rating"]


def test_rated_matches_need_two_accounts(client: TestClient) -> None:
    assert client.post("/api/matches", json={"opponent": "friend", "rated": True}).json()["error"] == \
        "log in to make a rated match"
    eleni = sign_up(client, "Eleni")
    with as_player(client, eleni):
        against_bot = client.post("/api/matches", json={"opponent": "expert", "rated": True})
        assert against_bot.status_code == 400 and "two people" in against_bot.json()["error"]
        odd = client.post("/api/matches", json={"opponent": "friend", "rated": True, "games": "fevga,portes"})
        assert odd.status_code == 400
    links, friend = rated_friend_match(client, eleni, "")
    with as_player(client, None), client.websocket_connect(f"/ws/{links['match']}") as ws:
        refused = hello(ws, friend)  # a guest with the friend's link
        assert refused["type"] == "error" and refused["code"] == "login"
    with as_player(client, eleni), client.websocket_connect(f"/ws/{links['match']}") as ws:
        assert hello(ws, friend)["code"] == "login"  # nobody plays both seats


def test_one_account_cannot_act_in_anothers_match(client: TestClient) -> None:
    eleni, nikos, mallory = sign_up(client, "Eleni"), sign_up(client, "Nikos"), sign_up(client, "Mallory")
    links, friend = rated_friend_match(client, eleni, nikos)
    with as_player(client, nikos), client.websocket_connect(f"/ws/{links['match']}") as ws:
        assert hello(ws, friend)["type"] == "state"  # the seat is Nikos's now
    for token in (friend, links["token"]):  # the links leaked to Mallory: the seats are others'
        with as_player(client, mallory), client.websocket_connect(f"/ws/{links['match']}") as ws:
            refused = hello(ws, token)
            assert refused["type"] == "error" and refused["code"] == "login"
    with as_player(client, mallory):
        assert client.post(f"/api/open/{links['match']}", json={}).status_code == 409


def test_a_guest_who_signs_up_keeps_his_matches(client: TestClient) -> None:
    made = client.post("/api/matches", json={"opponent": "friend", "length": 3}).json()
    other = client.post("/api/matches", json={"opponent": "friend"}).json()
    kept = [{"match": made["match"], "token": made["token"]}, {"match": other["match"], "token": "forged"},
            {"match": "../etc", "token": 5}, "junk"]
    answer = client.post("/api/accounts", json={"name": "Guest_1", "password": PASSWORD, "matches": kept})
    assert answer.status_code == 201 and answer.json()["kept"] == 1
    listed = client.get("/api/players/Guest_1").json()["matches"]
    assert [m["id"] for m in listed] == [made["match"]] and listed[0]["result"] == "playing"


def test_a_guest_holding_many_matches_signs_up_and_keeps_them(client: TestClient) -> None:
    """A busy guest's page holds hundreds of seats: the sign-up takes the newest 200 (MOST_KEPT)."""
    made = client.post("/api/matches", json={"opponent": "friend"}).json()
    others = [{"match": f"m{i:07d}x", "token": "t" * 43} for i in range(250)]  # seats of matches long gone
    kept = [{"match": made["match"], "token": made["token"]}, *others]
    answer = client.post("/api/accounts", json={"name": "Busy_1", "password": PASSWORD, "matches": kept})
    assert answer.status_code == 201 and answer.json()["kept"] == 1
    too_much = client.post("/api/accounts", json={"name": "Busy_2", "password": PASSWORD, "matches": "x" * 200_000})
    assert too_much.status_code == 413  # still a limit


def test_an_open_rated_seat_is_taken_by_an_account(client: TestClient) -> None:
    eleni, nikos = sign_up(client, "Eleni"), sign_up(client, "Nikos")
    with as_player(client, eleni):
        made = client.post("/api/matches", json={"opponent": "anyone", "rated": True, "games": "fevga"}).json()
        listed = client.get("/api/open").json()["matches"]
        assert [m.get("rated") for m in listed if m["match"] == made["match"]] == [True]  # the list says so
        assert client.post(f"/api/open/{made['match']}", json={}).status_code == 400  # not against himself
    with as_player(client, None):
        assert client.post(f"/api/open/{made['match']}", json={}).json()["error"] == \
            "log in to take a seat in a rated match"
    with as_player(client, nikos):
        taken = client.post(f"/api/open/{made['match']}", json={})
        assert taken.status_code == 201
    assert client.get("/api/players/Nikos").json()["matches"][0]["opponent"]["name"] == "Eleni"


def test_the_leaderboard_lists_settled_ratings_best_first(client: TestClient, db: Path) -> None:
    for name in ("Alpha", "Beta", "Gamma"):
        sign_up(client, name)
    with sqlite3.connect(db) as conn:
        for account, rating, deviation in ((1, 1700.0, 80.0), (2, 1800.0, 100.0), (3, 1900.0, 200.0)):
            conn.execute("INSERT INTO ratings VALUES (?, 'tavli', ?, ?, 0.06, 12, 0)", (account, rating, deviation))
    board = client.get("/api/leaderboard?pool=tavli").json()
    assert [p["name"] for p in board["players"]] == ["Beta", "Alpha", "Gamma"]  # Gamma's 200 is provisional: last
    assert board["players"][0]["shown"] == "1800" and board["players"][2]["shown"] == "1900?"


def test_the_session_is_good_on_every_store_of_the_database(db: Path) -> None:
    from app_client import make_client

    with make_client(db) as one:
        secret = sign_up(one, "Eleni")
    with make_client(db) as other, as_player(other, secret):  # another process on the same database
        assert other.get("/api/session").json() == {"name": "Eleni", "moderator": False}


def test_session_lookups_refuse_junk() -> None:
    from tavli.server.cafe.accounts import Accounts
    from tavli.server.storage.store import Store

    async def check() -> None:
        store = Store("sqlite://")
        await store.create_tables()
        accounts = Accounts(store.engine)
        assert await accounts.session(None) is None and await accounts.session("x" * 500) is None
        assert await accounts.session("' OR 1=1 --") is None
        await store.engine.dispose()
    asyncio.run(check())
