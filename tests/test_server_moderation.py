"""The café's moderators (tavli.server.cafe.moderation, routes/moderation_api.py; docs/cafe.md,
"Moderators"): only a moderator reads the reports and acts; a warning, a mute and a renaming reach
the player's open pages at once and every page he opens until he has read them; a mute closes his
chat at once; a closing ends his sessions, closes his sockets, takes his seeks away and keeps his
matches readable under a neutral name; every action is logged; bad requests get one line; the
role is granted by ``tavli users moderator``; a database of the version before upgrades in place."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from alembic import command
from app_client import PASSWORD, as_player, hello, make_client, new_match, sign_up, token_of, until, until_type
from click.testing import CliRunner
from sqlalchemy import create_engine
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tavli.cli import cli
from tavli.server.cafe.lobby import CLOSED_CODE, GUEST_COOKIE
from tavli.server.routes.context import context_of
from tavli.server.storage.migrate import config, current, head

HOSTILE = "<img src=x onerror=alert(1)>"
NOTES = "/ws/lobby?only=notes"
Message = dict[str, Any]


def account_id(client: TestClient, name: str) -> int:
    assert client.portal is not None
    found = client.portal.call(context_of(client.app).accounts.find, name)  # type: ignore[arg-type]
    assert found is not None
    return int(found.id)


def moderator(client: TestClient, name: str = "Nikos") -> str:
    """A new account made a moderator (as ``tavli users moderator`` does): its session."""
    secret = sign_up(client, name)
    assert client.portal is not None
    client.portal.call(context_of(client.app).accounts.set_moderator, account_id(client, name), True)  # type: ignore[arg-type]
    return secret


def act(client: TestClient, secret: str | None, **body: Any) -> Any:
    with as_player(client, secret):
        return client.post("/api/moderation/actions", json=body)


def overview(client: TestClient, secret: str | None) -> Message:
    with as_player(client, secret):
        answer = client.get("/api/moderation")
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def report(client: TestClient, secret: str | None, name: str, **body: Any) -> int:
    with as_player(client, secret):
        made = client.post("/api/reports", json={"name": name, "reason": "abuse", **body})
    assert made.status_code == 201, made.text
    return int(made.json()["report"])


def open_page(client: TestClient, secret: str | None, path: str = NOTES) -> Any:
    with as_player(client, secret):
        if secret is None:
            client.cookies.set(GUEST_COOKIE, "a-guest")
        return client.websocket_connect(path).__enter__()


def closed_code(ws: Any) -> int:
    """Read until the server closes ``ws``: its close code."""
    try:
        for _ in range(200):
            ws.receive_json()
    except WebSocketDisconnect as exc:
        return int(exc.code)
    raise AssertionError("the socket was never closed")


@contextmanager
def at_table(client: TestClient, white: str, black: str) -> Iterator[tuple[Message, Any, Any]]:
    """A match between two signed-in friends, both seated: its links and the two sockets."""
    with as_player(client, white):
        links = new_match(client, opponent="friend", seat="white", games="portes", length=3)
    with as_player(client, white), client.websocket_connect(f"/ws/{links['match']}") as white_ws, \
            as_player(client, black), client.websocket_connect(f"/ws/{links['match']}") as black_ws:
        hello(white_ws, links["token"])
        hello(black_ws, token_of(links["friend"]))
        yield links, white_ws, black_ws


def quiet(ws: Any) -> list[Message]:
    """What ``ws`` (a lobby socket) is sent before the answer to a ping: nothing else is queued."""
    ws.send_json({"type": "ping", "id": "q"})
    seen: list[Message] = []
    while (message := dict(ws.receive_json()))["type"] != "pong":
        seen.append(message)
    return seen


def test_only_a_moderator_reads_the_reports_and_acts(client: TestClient) -> None:
    eleni = sign_up(client, "Eleni")
    troll = sign_up(client, "Troll")
    report(client, eleni, "Troll")
    for secret in (None, eleni):
        with as_player(client, secret):
            assert client.get("/api/moderation").status_code == 403
            assert client.get("/api/session").json()["moderator"] is False
        refused = act(client, secret, action="warn", account=account_id(client, "Troll"), note="be kind")
        assert refused.status_code == 403 and "moderators" in refused.json()["error"]
    nikos = moderator(client)
    with as_player(client, nikos):
        assert client.get("/api/session").json() == {"name": "Nikos", "moderator": True}
    shown = overview(client, nikos)
    assert [r["reported"] for r in shown["reports"]] == ["Troll"] and shown["log"] == []
    assert shown["reports"][0]["account"]["name"] == "Troll" and shown["reports"][0]["reporter_name"] == "Eleni"
    assert troll  # the reported player is an account of his own: a plain one


def test_a_report_shows_the_matchs_chat_as_text_and_an_action_settles_it(client: TestClient) -> None:
    eleni, troll, nikos = sign_up(client, "Eleni"), sign_up(client, "Troll"), moderator(client)
    with at_table(client, eleni, troll) as (links, white, black):
        black.send_json({"type": "say", "text": f"you lose {HOSTILE}\u202e"})
        until(white, lambda m: m["type"] == "chat")
    first = report(client, eleni, "Troll", match=links["match"], seat="black", note=f"rude {HOSTILE}")
    shown = overview(client, nikos)["reports"][0]
    assert (shown["id"], shown["match"], shown["note"], shown["account"]["id"]) == (
        first, links["match"], f"rude {HOSTILE}", account_id(client, "Troll"))
    assert [(line["seat"], line["text"]) for line in shown["chat"]] == [("black", f"you lose {HOSTILE}")]
    assert act(client, nikos, action="dismiss", report=first, note="banter").status_code == 200
    shown_after = overview(client, nikos)
    assert shown_after["reports"] == []
    assert shown_after["log"][0] | {"id": 0, "at": 0} == {
        "id": 0, "moderator": "Nikos", "account": None, "action": "dismiss", "report": first, "note": "banter",
        "detail": {}, "at": 0}
    again = act(client, nikos, action="dismiss", report=first)
    assert again.status_code == 404 and "report" in again.json()["error"]


def test_a_warning_reaches_the_players_pages_at_once_and_again_until_he_has_read_it(client: TestClient) -> None:
    eleni, troll, nikos = sign_up(client, "Eleni"), sign_up(client, "Troll"), moderator(client)
    troll_id = account_id(client, "Troll")
    reported = report(client, eleni, "Troll")
    page = open_page(client, troll)
    try:
        assert until_type(page, "challenges")
        done = act(client, nikos, action="warn", account=troll_id, report=reported, note=f"no insults {HOSTILE}")
        assert done.status_code == 200, done.text
        notice = until_type(page, "notice")["notice"]
        assert notice == {"id": done.json()["action"], "action": "warn", "note": f"no insults {HOSTILE}",
                          "at": notice["at"]}
    finally:
        page.__exit__(None, None, None)
    assert overview(client, nikos)["reports"] == []  # the report it settled left the list
    for _ in range(2):  # every page he opens is told, until he has read it
        again = open_page(client, troll, "/ws/lobby")
        try:
            assert until_type(again, "notice")["notice"]["id"] == notice["id"]
        finally:
            again.__exit__(None, None, None)
    with as_player(client, eleni):  # nobody else can say he read it
        assert client.post(f"/api/notices/{notice['id']}/seen").status_code == 404
    with as_player(client, troll):
        assert client.post(f"/api/notices/{notice['id']}/seen").status_code == 204
        assert client.post(f"/api/notices/{notice['id']}/seen").status_code == 404
    later = open_page(client, troll)
    try:
        assert [m["type"] for m in quiet(later)] == ["challenges"]
    finally:
        later.__exit__(None, None, None)


def test_a_mute_closes_the_players_chat_at_once_and_unmute_opens_it(client: TestClient) -> None:
    eleni, troll, nikos = sign_up(client, "Eleni"), sign_up(client, "Troll"), moderator(client)
    troll_id = account_id(client, "Troll")
    with at_table(client, eleni, troll) as (links, white, black):
        assert act(client, nikos, action="mute", account=troll_id, days=7, note="insults").status_code == 200
        for said in ({"phrase": "hello"}, {"text": "hi"}):
            black.send_json({"type": "say", **said})
            refused = until(black, lambda m: m["type"] == "error")
            assert refused["code"] == "chat-banned" and "moderator" in refused["message"]
        white.send_json({"type": "say", "phrase": "hello"})  # the other's chat is untouched
        assert until(white, lambda m: m["type"] == "chat")["lines"][0]["seat"] == "white"
    with as_player(client, troll), client.websocket_connect(f"/ws/{links['match']}") as black:
        hello(black, token_of(links["friend"]))  # a page opened later is shut out as well
        black.send_json({"type": "say", "phrase": "hello"})
        assert until(black, lambda m: m["type"] == "error")["code"] == "chat-banned"
        shown = overview(client, nikos)["log"][0]
        assert (shown["action"], shown["account"], shown["detail"]["days"]) == ("mute", "Troll", 7)
        assert act(client, nikos, action="unmute", account=troll_id).status_code == 200
        black.send_json({"type": "say", "phrase": "hello"})
        assert until(black, lambda m: m["type"] in ("chat", "error"))["type"] == "chat"


def test_a_renaming_gives_the_player_a_new_name_and_tells_him(client: TestClient) -> None:
    sign_up(client, "Eleni")
    troll, nikos = sign_up(client, "Sh1tHead"), moderator(client)
    troll_id = account_id(client, "Sh1tHead")
    for name, status in [("ELENI", 409), ("eleni", 409), ("x", 400), ("<b>", 400), (7, 400)]:
        refused = act(client, nikos, action="rename", account=troll_id, name=name)
        assert refused.status_code == status and refused.json()["error"], (name, refused.text)
    done = act(client, nikos, action="rename", account=troll_id, name="Player_77", note="offensive name")
    assert done.status_code == 200, done.text
    assert client.get("/api/players/Player_77").status_code == 200
    assert client.get("/api/players/Sh1tHead").status_code == 404
    with as_player(client, troll):  # still signed in, under the new name
        assert client.get("/api/session").json()["name"] == "Player_77"
    page = open_page(client, troll)
    try:
        assert until_type(page, "notice")["notice"]["name"] == "Player_77"
    finally:
        page.__exit__(None, None, None)
    assert overview(client, nikos)["log"][0]["detail"] == {"from": "Sh1tHead", "to": "Player_77"}


def test_closing_an_account_ends_it_everywhere_at_once_and_keeps_its_matches(client: TestClient) -> None:
    eleni, troll, nikos = sign_up(client, "Eleni"), sign_up(client, "Troll"), moderator(client)
    troll_id = account_id(client, "Troll")
    with as_player(client, eleni):
        links = new_match(client, opponent="friend", seat="white", games="portes", length=3)
    watcher = open_page(client, None, "/ws/lobby")
    pages = [open_page(client, troll, "/ws/lobby"), open_page(client, troll)]
    board = open_page(client, troll, f"/ws/{links['match']}")
    try:
        until_type(watcher, "seeks")
        hello(board, token_of(links["friend"]))
        with as_player(client, troll):
            seek = client.post("/api/seeks", json={"length": 3, "games": "portes"})
        assert seek.status_code == 201, seek.text
        assert until_type(watcher, "seek")["seek"]["id"] == seek.json()["id"]
        done = act(client, nikos, action="close", account=troll_id, note="threats")
        assert done.status_code == 200, done.text
        for ws in (*pages, board):
            assert closed_code(ws) == CLOSED_CODE
        assert until_type(watcher, "gone")["id"] == seek.json()["id"]
    finally:
        for ws in (watcher, *pages, board):
            ws.__exit__(None, None, None)
    with as_player(client, troll):  # his session is over, and so is logging in
        assert client.get("/api/session").json()["name"] is None
        assert client.get("/api/seeks").json()["seeks"] == []
    assert client.post("/api/session", json={"name": "Troll", "password": PASSWORD}).status_code in (401, 403)
    client.cookies.clear()
    again = client.post("/api/accounts", json={"name": "Troll", "password": PASSWORD})
    assert again.status_code == 409  # the closed name stays taken
    client.cookies.clear()
    assert client.get("/api/players/Troll").status_code == 404
    assert client.get(f"/api/matches/{links['match']}/record").status_code == 200  # his matches stay,
    with as_player(client, eleni), client.websocket_connect(f"/ws/{links['match']}") as white:
        state = hello(white, links["token"])  # under a neutral name
        assert (state["you"], state["players"]["black"]["name"]) == ("white", "(deleted)")
    assert act(client, nikos, action="warn", account=troll_id, note="x").status_code == 404
    assert overview(client, nikos)["log"][0]["account"] == "Troll"  # the log keeps who it was


MALFORMED: list[tuple[Any, int]] = [
    ({"action": "kick", "account": 2}, 400), ({"action": "warn", "account": 2}, 400),
    ({"action": "warn", "account": "Troll", "note": "x"}, 400), ({"action": "warn", "account": True, "note": "x"}, 400),
    ({"action": "mute", "account": 2}, 400), ({"action": "mute", "account": 2, "days": 0}, 400),
    ({"action": "mute", "account": 2, "days": 99999}, 400), ({"action": "mute", "account": 2, "days": "7"}, 400),
    ({"action": "warn", "account": 2, "note": "x", "days": 3}, 400), ({"action": "dismiss"}, 400),
    ({"action": "rename", "account": 2}, 400), ({"action": "close"}, 400),
    ({"action": "warn", "account": 2, "note": 5}, 400),
    ({"action": "warn", "account": 2, "note": "x", "extra": 1}, 400),
    ({"action": "warn", "account": 999, "note": "x"}, 404), ({"action": "dismiss", "report": 999}, 404),
    ({"action": "close", "account": 1}, 400), (["warn"], 400), ("warn", 400), (None, 400),
]


def test_a_malformed_action_gets_one_line_and_changes_nothing(client: TestClient) -> None:
    nikos = moderator(client)  # account 1
    sign_up(client, "Troll")  # account 2
    with as_player(client, nikos):
        for body, status in MALFORMED:
            answer = client.post("/api/moderation/actions", json=body)
            assert answer.status_code == status and "\n" not in answer.json()["error"], (body, answer.text)
        broken = client.post("/api/moderation/actions", content=b'{"action": "close", "account": 2',
                             headers={"content-type": "application/json"})
        assert broken.status_code == 400 and broken.json()["error"]
        crossed = client.post("/api/moderation/actions", json={"action": "close", "account": 2},
                              headers={"origin": "https://evil.example"})
        assert crossed.status_code == 403
        assert client.get("/api/session").json()["moderator"]
    shown = overview(client, nikos)
    assert shown["log"] == [] and client.get("/api/players/Troll").status_code == 200


def test_tavli_users_grants_and_takes_back_the_role(db: Path) -> None:
    with make_client(db) as client:
        sign_up(client, "Nikos")
    runner = CliRunner()
    url = f"sqlite:///{db}"
    granted = runner.invoke(cli, ["users", "moderator", "Nikos", "--database", url])
    assert granted.exit_code == 0 and "a moderator" in granted.output
    with make_client(db) as client:
        secret = client.post("/api/session", json={"name": "Nikos", "password": PASSWORD}).cookies.get("tavli_session")
        assert secret is not None and overview(client, secret) == {"reports": [], "log": []}
    taken = runner.invoke(cli, ["users", "moderator", "Nikos", "--revoke", "--database", url])
    assert taken.exit_code == 0 and "no longer" in taken.output
    missing = runner.invoke(cli, ["users", "moderator", "Nobody", "--database", url])
    assert missing.exit_code != 0 and "Nobody" in missing.output and "Traceback" not in missing.output
    with make_client(db) as client, as_player(client, secret):
        assert client.get("/api/moderation").status_code == 403


def test_the_moderation_migration_keeps_every_account_and_report(db: Path) -> None:
    with make_client(db) as client:
        eleni = sign_up(client, "Eleni")
        report(client, eleni, "Troll")
    engine = create_engine(f"sqlite:///{db}")
    with engine.begin() as conn:  # the database as the version before this one left it
        command.downgrade(config(conn), "0010_chat")
    engine.dispose()
    with sqlite3.connect(db) as conn:
        accounts = conn.execute("SELECT id, name, password FROM accounts").fetchall()
        reports = conn.execute("SELECT * FROM reports").fetchall()
        assert "moderator" not in [c[1] for c in conn.execute("PRAGMA table_info(accounts)")]
    with make_client(db) as client, as_player(client, eleni):  # upgraded as the server starts
        assert client.get("/api/session").json() == {"name": "Eleni", "moderator": False}
    engine = create_engine(f"sqlite:///{db}")
    with engine.connect() as conn:
        assert current(conn) == head()
    engine.dispose()
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT id, name, password FROM accounts").fetchall() == accounts
        assert conn.execute("SELECT * FROM reports").fetchall() == reports
        assert conn.execute("SELECT moderator, chat_banned_until FROM accounts").fetchall() == [(0, None)]
    assert asyncio  # the app's own loop ran every step above
