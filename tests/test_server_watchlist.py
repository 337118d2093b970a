"""The matches in play worth watching (``GET /api/watch``) and Tavli TV (``/tv``), docs/cafe.md,
"Watch": a match is listed while it has begun, is not over and a player of it is connected, unless
it is private; the highest rated first (the mean rating of its players with accounts), then the
newest; names are the players' as given, with their ratings, a bot by its level."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from app_client import Message, as_player, hello, make_client, new_match, sign_up, token_of, until
from starlette.testclient import TestClient


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[TestClient, Path]]:
    db = tmp_path / "tavli.db"
    with make_client(db) as client:
        yield client, db


def rate(db: Path, name: str, rating: float, deviation: float = 60.0) -> None:
    """Give the account ``name`` a Tavli rating, as its earlier rated matches would have."""
    with sqlite3.connect(db) as conn:
        (account,) = conn.execute("SELECT id FROM accounts WHERE name = ?", (name,)).fetchone()
        conn.execute("INSERT INTO ratings VALUES (?, 'tavli', ?, ?, 0.06, 12, 0)", (account, rating, deviation))


def begun(stack: ExitStack, client: TestClient, links: Message, sessions: tuple[str | None, str | None],
          ) -> tuple[Any, Message]:
    """Both seats of a friend match at the board (each with his session, or a guest), the match
    begun (its clocks started as the second came): the creator's socket and the latest state."""
    sockets = []
    for session, token in zip(sessions, (links["token"], token_of(links["friend"])), strict=True):
        with as_player(client, session):
            ws = stack.enter_context(client.websocket_connect(f"/ws/{links['match']}"))
        sockets.append(ws)
        state = hello(ws, token)
    state = until(sockets[1], lambda m: m["type"] == "state" and not m["waiting"] and m["seq"] > 0)
    return sockets[0], state


def listed(client: TestClient) -> list[Message]:
    answer = client.get("/api/watch")
    assert answer.status_code == 200 and answer.headers["cache-control"] == "no-store"
    return list(answer.json()["matches"])


@pytest.mark.slow
def test_the_highest_rated_first_then_the_newest_and_nothing_private_or_over(site: tuple[TestClient, Path]) -> None:
    client, db = site
    assert listed(client) == [] and client.get("/tv", follow_redirects=False).headers["location"] == "/#watch"
    people = {name: sign_up(client, name) for name in ("Eleni", "Nikos", "Maria", "Kostas")}
    for name, rating in (("Eleni", 1800), ("Nikos", 1700), ("Maria", 1500), ("Kostas", 1450)):
        rate(db, name, rating, deviation=200 if name == "Kostas" else 60)
    with ExitStack() as stack:
        made = {}
        for key, creator, other, body in (
                ("top", "Eleni", "Nikos", {"rated": True}),
                ("lower", "Maria", "Kostas", {"rated": True}),
                ("guests", None, None, {"name": "Guest <b>one</b>"}),
                ("private", None, None, {"private": True}),
                ("over", None, None, {})):
            with as_player(client, people.get(creator or "")):
                links = new_match(client, opponent="friend", length=3, games="tavli", **body)
            made[key] = links["match"]
            ws, state = begun(stack, client, links, (people.get(creator or ""), people.get(other or "")))
            if key == "over":
                ws.send_json({"type": "resign", "seq": state["seq"], "match": True})
                until(ws, lambda m: m["type"] == "state" and m["over"])
        with as_player(client, None):
            bot = new_match(client, opponent="expert", length=1, games="fevga", name="Anna")
            bot_ws = stack.enter_context(client.websocket_connect(f"/ws/{bot['match']}"))
            first = hello(bot_ws, bot["token"])
            if first["seq"] == 0:  # not begun yet: the bot's first move comes, or the guest rolls first
                if first["can_roll"]:
                    bot_ws.send_json({"type": "roll", "seq": 0})
                until(bot_ws, lambda m: m["type"] == "state" and m["seq"] > 0)
        # one not begun: its friend never came
        waiting = new_match(client, opponent="friend", length=1, games="portes")
        lone = stack.enter_context(client.websocket_connect(f"/ws/{waiting['match']}"))
        assert hello(lone, waiting["token"])["seq"] == 0

        matches = listed(client)
        assert [m["match"] for m in matches] == [made["top"], made["lower"], bot["match"], made["guests"]]
        top, lower, against_bot, guests = matches
        assert top["ranking"] == 1750 and top["rated"] and top["games"] == ["portes", "plakoto", "fevga"]
        assert top["length"] == 3
        assert {p["name"]: (p["rating"], p["provisional"], p["account"]) for p in top["players"].values()} == {
            "Eleni": (1800, False, True), "Nikos": (1700, False, True)}
        assert {p["name"]: p["provisional"] for p in lower["players"].values()} == {"Maria": False, "Kostas": True}
        assert lower["ranking"] == 1475
        assert against_bot["ranking"] is None
        assert {p["bot"] for p in against_bot["players"].values()} == {None, "expert"}
        assert "Anna" in {p["name"] for p in against_bot["players"].values()}
        # a guest's name is given back as he gave it: the page shows it as text
        assert guests["ranking"] is None and "Guest <b>one</b>" in {p["name"] for p in guests["players"].values()}
        # Tavli TV: the best match, watched
        tv = client.get("/tv", follow_redirects=False)
        assert tv.status_code == 303 and tv.headers["location"] == f"/match/{made['top']}?tv"
        assert client.get(tv.headers["location"]).status_code == 200


def test_a_match_whose_players_have_gone_is_not_listed(site: tuple[TestClient, Path]) -> None:
    client, _ = site
    links = new_match(client, opponent="friend", length=1, games="portes")
    with ExitStack() as stack:
        begun(stack, client, links, (None, None))
        assert [m["match"] for m in listed(client)] == [links["match"]]
    # both sockets closed: their seats are no longer present (the server marks it as each goes)
    for _ in range(400):
        if not listed(client):
            break
        time.sleep(0.05)
    assert listed(client) == []
