"""Players' names that cannot pass for another's (tavli.server.storage.names; docs/cafe.md, "Players'
names"): look-alike and invisible names refused at sign-up and as guests' names, an account's
skeleton twin taken, a guest kept from an account's name, and the messages that say which names
are accounts'."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from app_client import hello, new_match, token_of
from starlette.testclient import TestClient

from tavli.server.cafe.lobby import GUEST_COOKIE
from tavli.server.storage.migrate import config
from tavli.server.storage.names import look_alike_key
from tavli.server.storage.store import Store
from tests.test_server_accounts import as_player, sign_up

LOOK_ALIKES = {
    "аdmin": "a Cyrillic а among Latin letters",
    "Nikοs": "a Greek ο among Latin letters",
    "Νikos": "a Greek Ν among Latin letters",
    "\u115f\u115f\u115f": "Hangul choseong fillers",
    "\u3164\u3164": "Hangul fillers",
    "Ni\u3164kos": "a Hangul filler within",
    "\uffa0\uffa0": "halfwidth Hangul fillers",
}
"""Names that looked like another's, or like nothing, and were let through."""
GUEST_ONLY = {
    "Nikos\ufe0f": "a variation selector",
    "ad\u034fmin": "a combining grapheme joiner",
    "\u2800\u2800": "blank Braille patterns",
    "Eleni Ελένη": "two scripts",
}
"""Names only a guest could give (his may hold marks, symbols and spaces)."""


@pytest.mark.parametrize("name", LOOK_ALIKES)
def test_look_alike_and_invisible_names_are_refused_at_sign_up(client: TestClient, name: str) -> None:
    answer = client.post("/api/accounts", json={"name": name, "password": "correct horse battery"})
    assert answer.status_code == 400, LOOK_ALIKES[name]
    assert "\n" not in answer.json()["error"]


@pytest.mark.parametrize("name", [*LOOK_ALIKES, *GUEST_ONLY])
def test_look_alike_and_invisible_names_are_refused_as_guests_names(client: TestClient, name: str) -> None:
    made = client.post("/api/matches", json={"opponent": "friend", "name": name})
    assert made.status_code == 400 and "\n" not in made.json()["error"], made.text
    open_match = new_match(client, opponent="anyone")
    assert client.post(f"/api/open/{open_match['match']}", json={"name": name}).status_code == 400
    assert client.post("/api/seeks", json={"name": name}).status_code == 400
    assert client.get("/api/seeks").json()["seeks"] == []


@pytest.mark.parametrize("name", ["Νίκος", "Γιώργος_7", "ΕΛΕΝΗ", "Nikos", "Eleni-2", "山田たろう"])
def test_a_name_in_one_script_is_allowed(client: TestClient, name: str) -> None:
    sign_up(client, name)
    with as_player(client, None):
        made = client.post("/api/matches", json={"opponent": "friend", "name": f"{name} 7"})
        assert made.status_code == 201, made.text


def test_greek_and_latin_names_that_do_not_look_alike_are_both_allowed(client: TestClient) -> None:
    sign_up(client, "Nikos")
    sign_up(client, "Νίκος")  # the accent and the κ tell them apart
    sign_up(client, "N1kos")  # 1 is taken for l, not for i: no twin


@pytest.mark.parametrize(("first", "twin"), [("Tom", "ΤΟΜ"), ("pop", "рор"), ("Nikos", "Nik0s"), ("Sam", "Sarn"),
                                             ("ABE", "Αβε".upper())])
def test_an_accounts_skeleton_twin_is_taken(client: TestClient, first: str, twin: str) -> None:
    sign_up(client, first)
    taken = client.post("/api/accounts", json={"name": twin, "password": "correct horse battery"})
    assert taken.status_code == 409 and taken.json()["error"] == "that name is taken"


@pytest.mark.parametrize("name", ["Tom", "TOM", "ΤΟΜ", "tom"])
def test_a_guest_may_not_take_an_accounts_name_or_its_twin(client: TestClient, name: str) -> None:
    sign_up(client, "Tom")
    with as_player(client, None):
        made = client.post("/api/matches", json={"opponent": "friend", "name": name})
        assert made.status_code == 400
        assert made.json()["error"] == "that name is an account's: log in to play under it, or choose another"
        open_match = new_match(client, opponent="anyone")
        assert client.post(f"/api/open/{open_match['match']}", json={"name": name}).status_code == 400
        client.cookies.set(GUEST_COOKIE, "guest-one")
        assert client.post("/api/seeks", json={"name": name}).status_code == 400
        seek = client.post("/api/seeks", json={"name": "Zoe"}).json()
        client.cookies.set(GUEST_COOKIE, "guest-two")
        accepted = client.post(f"/api/seeks/{seek['id']}/accept", json={"name": name})
        assert accepted.status_code == 400 and accepted.json()["error"].startswith("that name is an account's")
        assert client.get("/api/seeks").json()["seeks"][0]["id"] == seek["id"]  # still there to accept


def test_an_account_plays_under_its_own_name(client: TestClient) -> None:
    sign_up(client, "Tom")  # logged in: the name is the account's, not a guest's twin of it
    made = client.post("/api/matches", json={"opponent": "friend"})
    assert made.status_code == 201
    seek = client.post("/api/seeks", json={})
    assert seek.status_code == 201 and seek.json()["name"] == "Tom"


def test_a_guest_joining_with_an_accounts_name_plays_unnamed(client: TestClient) -> None:
    sign_up(client, "Tom")
    with as_player(client, None):
        links = new_match(client, opponent="friend", name="Zoe")
        with client.websocket_connect(f"/ws/{links['match']}") as ws:
            ws.send_json({"type": "hello", "token": token_of(links["friend"]), "name": "ΤΟΜ"})
            state = _state(ws)
    assert state["you"] == "black" and state["players"]["black"]["name"] is None


def test_the_state_says_which_names_are_accounts(client: TestClient) -> None:
    sign_up(client, "Tom")
    links = new_match(client, opponent="friend", seat="white")
    with as_player(client, None), client.websocket_connect(f"/ws/{links['match']}") as ws:
        ws.send_json({"type": "hello", "token": token_of(links["friend"]), "name": "Eleni"})
        players = _state(ws)["players"]
    assert (players["white"]["name"], players["white"]["account"]) == ("Tom", True)
    assert (players["black"]["name"], players["black"]["account"]) == ("Eleni", False)


def test_a_seat_an_account_took_later_shows_the_accounts_name(client: TestClient) -> None:
    links = new_match(client, opponent="friend", seat="white", name="Zorba")  # a guest, who signs up after
    secret = sign_up(client, "Nikos", matches=[{"match": links["match"], "token": links["token"]}])
    with as_player(client, secret), client.websocket_connect(f"/ws/{links['match']}") as ws:
        white = hello(ws, links["token"])["players"]["white"]
    assert (white["name"], white["account"]) == ("Nikos", True)


def test_the_lobby_and_the_open_matches_say_which_names_are_accounts(client: TestClient) -> None:
    sign_up(client, "Tom")
    mine = client.post("/api/seeks", json={}).json()
    by_account = new_match(client, opponent="anyone")
    with as_player(client, None):
        client.cookies.set(GUEST_COOKIE, "guest-one")
        theirs = client.post("/api/seeks", json={"name": "Eleni"}).json()
        by_guest = new_match(client, opponent="anyone", name="Zoe")
        seeks = {s["id"]: s for s in client.get("/api/seeks").json()["seeks"]}
        listed = {m["match"]: m for m in client.get("/api/open").json()["matches"]}
    assert (seeks[mine["id"]]["name"], seeks[mine["id"]]["account"]) == ("Tom", True)
    assert (seeks[theirs["id"]]["name"], seeks[theirs["id"]]["account"]) == ("Eleni", False)
    assert (listed[by_account["match"]]["name"], listed[by_account["match"]]["account"]) == ("Tom", True)
    assert (listed[by_guest["match"]]["name"], listed[by_guest["match"]]["account"]) == ("Zoe", False)


def test_accounts_made_before_the_rule_get_their_keys_oldest_first(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    asyncio.run(_at_step(f"sqlite:///{db}", "0004_seeks"))
    with sqlite3.connect(db) as conn:
        for name, deleted in (("Tom", 0), ("ΤΟΜ", 0), ("аdmin", 0), ("(deleted)", 1)):
            conn.execute("INSERT INTO accounts (name, name_key, password, created, disabled, deleted) "
                         "VALUES (?, ?, '', 0, 0, ?)", (name, f"{name}-{deleted}", deleted))
    asyncio.run(Store(f"sqlite:///{db}").create_tables())
    with sqlite3.connect(db) as conn:
        keys = dict(conn.execute("SELECT name, look_key FROM accounts").fetchall())
    assert keys == {"Tom": look_alike_key("Tom"), "ΤΟΜ": None, "аdmin": look_alike_key("аdmin"), "(deleted)": None}


def test_an_account_made_before_the_rule_keeps_its_page(client: TestClient, db: Path) -> None:
    sign_up(client, "Nikos")
    with sqlite3.connect(db) as conn:  # as an account made before the rule had it
        conn.execute("UPDATE accounts SET name = 'Nikοs', name_key = 'nikοs', look_key = NULL")
    assert client.get("/api/players/Nikοs").json()["name"] == "Nikοs"


def _state(ws: Any) -> dict[str, Any]:
    for _ in range(50):
        message = dict(ws.receive_json())
        assert message["type"] != "error", message
        if message["type"] == "state":
            return message
    raise AssertionError("no state came")


async def _at_step(url: str, step: str) -> None:
    """A new database brought only to migration ``step``."""
    store = Store(url)
    async with store.engine.begin() as conn:
        await conn.run_sync(lambda sync: command.upgrade(config(sync), step))
    await store.engine.dispose()
