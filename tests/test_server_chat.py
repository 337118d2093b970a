"""Talk across the table (docs/cafe.md, "Talk across the table"; docs/web.md, "Chat"): quick
phrases and lines of text delivered to the right room and no other, text for signed-in players
only, lines cleaned and capped, floods refused and then cut off with the match going on untouched,
mutes (kept for a signed-in player), the recent lines sent to a page that comes back, reports and
their limits, and the migration that adds the tables keeping every row."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from app_client import Message, as_player, hello, make_client, new_match, sign_up, token_of, until
from sqlalchemy import create_engine, inspect
from starlette.testclient import TestClient

from tavli.server.cafe.chat import MAX_LINE, PHRASES, REPORT_REASONS, clean_line, mute_key
from tavli.server.realtime.table_talk import CHAT_BURST, STRIKES
from tavli.server.routes.report_api import REPORTS_PER_PERSON
from tavli.server.storage.chat_log import ChatLog
from tavli.server.storage.migrate import config, current, head
from tavli.server.storage.store import Store

HOSTILE = "<img src=x onerror=alert(1)>"


def chat(ws: Any, room: str | None = None) -> Message:
    """The next chat message (a line, or the lines sent on joining) on ``ws``."""
    return until(ws, lambda m: m["type"] == "chat" and (room is None or m["room"] == room))


def refusal(ws: Any) -> Message:
    return until(ws, lambda m: m["type"] == "error")


def friends(client: TestClient, white: str | None = None, black: str | None = None) -> tuple[Message, str]:
    """A match between friends made by ``white`` (a session, or None: a guest): its links, and
    Black's token."""
    with as_player(client, white):
        links = new_match(client, opponent="friend", seat="white", games="portes", length=3)
    return links, token_of(links["friend"])


def seated(client: TestClient, ws: Any, token: str, name: str | None = None) -> Message:
    """Join with ``token`` (and a name for the seat): the state (a table with no lines yet sends no
    history: nothing comes before the answer to a ping but the states)."""
    ws.send_json({"type": "hello", "token": token, **({"name": name} if name else {})})
    state = until(ws, lambda m: m["type"] in ("state", "error"))
    assert state["type"] == "state", state
    ws.send_json({"type": "ping", "id": "seated"})
    pong = until(ws, lambda m: m["type"] != "state")
    assert pong == {"type": "pong", "id": "seated"}, pong
    return state


def test_clean_line_takes_out_what_could_reorder_or_hide_and_keeps_markup_as_text() -> None:
    assert clean_line(HOSTILE) == HOSTILE  # text: the pages set it as text
    hidden = "a\u202eb\u202dc\u202ad\u2066e\u2069f\u200bg\u200ch\u200di\u2060j\ufeffk\u200el\u200fm\u061cn"
    assert clean_line(hidden) == "abcdefghijklmn"
    assert clean_line("a\x00b\x1bc\x7fd\u2028e\u2029f") == "abcdef"
    assert clean_line("  two\n\nlines\t here  ") == "two lines here"
    assert clean_line("Ε\u0301" * 10) == "Έ" * 10  # composed: counted as the letters seen
    assert len(clean_line("x" * 5000)) == MAX_LINE and clean_line("\u200b\u202e ") == ""
    assert mute_key("m1", "white", None) != mute_key("m2", "white", None) != mute_key("m1", "white", 3)


def test_quick_phrases_reach_both_seats_and_the_spectators_talk_among_themselves(client: TestClient) -> None:
    links, friend = friends(client)
    with client.websocket_connect(f"/ws/{links['match']}") as white, \
            client.websocket_connect(f"/ws/{links['match']}") as black, \
            client.websocket_connect(f"/ws/{links['match']}") as watcher:
        seated(client, white, links["token"], "Eleni")
        before = seated(client, black, friend, "Nikos")
        watcher.send_json({"type": "hello", "token": token_of(links["watch"]), "name": "Kostas"})
        until(watcher, lambda m: m["type"] == "state")
        white.send_json({"type": "say", "phrase": "good-luck"})
        heard = chat(black)["lines"]
        mine = chat(white)["lines"]
        assert heard == mine and len(heard) == 1
        line = heard[0]
        assert (line["room"], line["seat"], line["name"], line["phrase"], line["text"]) == \
            ("players", "white", "Eleni", "good-luck", None)
        assert line["at"] > 1.7e9
        watcher.send_json({"type": "say", "phrase": "nice-roll"})
        seen = chat(watcher)["lines"][0]
        assert (seen["room"], seen["seat"], seen["name"]) == ("spectators", "spectator", "Kostas")
        # the players never see the spectators' room during the match, nor the spectators theirs:
        # a ping's answer comes after anything queued before it
        for ws in (white, black, watcher):
            ws.send_json({"type": "ping", "id": "p"})
        for ws, unseen in ((white, "spectators"), (black, "spectators"), (watcher, "players")):
            got = until(ws, lambda m: m["type"] in ("pong", "chat"))
            assert got["type"] == "pong" or got["room"] != unseen, got
        # a guest spectator may not write; a player between guests neither (phrases are for all)
        for ws in (watcher, black):
            ws.send_json({"type": "say", "text": "hi"})
            assert refusal(ws)["code"] == "chat-text"
        black.send_json({"type": "say", "phrase": "no-such-thing"})
        assert refusal(black)["code"] == "bad-message"
        black.send_json({"type": "say", "phrase": "hello", "text": "both"})
        assert refusal(black)["code"] == "bad-message"
        # chat is never the match's: the same action number, and the roll at it goes through
        mover = {"white": white, "black": black}[before["turn"]]
        mover.send_json({"type": "roll", "seq": before["seq"]})
        assert until(mover, lambda m: m["type"] in ("state", "error"))["seq"] == before["seq"] + 1


def test_lines_of_text_between_signed_in_players_are_cleaned_and_capped(client: TestClient) -> None:
    eleni, nikos = sign_up(client, "Eleni"), sign_up(client, "Nikos")
    links, friend = friends(client, eleni)
    with as_player(client, eleni), client.websocket_connect(f"/ws/{links['match']}") as white, \
            as_player(client, nikos), client.websocket_connect(f"/ws/{links['match']}") as black:
        seated(client, white, links["token"])
        seated(client, black, friend)
        white.send_json({"type": "say", "text": f"  {HOSTILE}\u202e\u200b\n" + "ω" * 400})
        line = chat(black)["lines"][0]
        assert line["text"] == (HOSTILE + " " + "ω" * 400)[:MAX_LINE] and line["name"] == "Eleni"
        black.send_json({"type": "say", "text": "\u200b\u202e  "})
        assert refusal(black)["code"] == "bad-message"
    # a signed-in spectator writes in his room; a guest's refusal is above
    with as_player(client, nikos), client.websocket_connect(f"/ws/{links['match']}") as watcher:
        watcher.send_json({"type": "hello", "token": token_of(links["watch"])})
        assert until(watcher, lambda m: m["type"] == "state")["you"] == "black"  # his seat, by his account
    with as_player(client, sign_up(client, "Kostas")), client.websocket_connect(f"/ws/{links['match']}") as watcher:
        watcher.send_json({"type": "hello", "token": token_of(links["watch"])})
        until(watcher, lambda m: m["type"] == "state")
        watcher.send_json({"type": "say", "text": "καλή συνέχεια"})
        line = chat(watcher, "spectators")["lines"][0]
        assert (line["name"], line["text"], line["seat"]) == ("Kostas", "καλή συνέχεια", "spectator")


def test_a_flood_of_lines_is_refused_then_cut_off_and_the_match_goes_on(client: TestClient) -> None:
    links, friend = friends(client)
    with client.websocket_connect(f"/ws/{links['match']}") as white, \
            client.websocket_connect(f"/ws/{links['match']}") as black:
        seated(client, white, links["token"])
        state = seated(client, black, friend)
        said = 0
        codes: list[str] = []
        flood = 30  # a script saying as fast as it can, all at once (within the socket's burst): refused, closed
        for _ in range(flood):
            white.send_json({"type": "say", "phrase": "hello", "id": "flood"})
        for _ in range(flood):  # one answer each: the line (to its sayer too), or its refusal
            got = until(white, lambda m: m["type"] == "error" or m["type"] == "chat")
            if got["type"] == "chat":
                said += 1
            else:
                codes.append(got["code"])
        assert codes[0] == "chat-rate-limited" and "chat-closed" in codes, codes
        assert set(codes[codes.index("chat-closed"):]) == {"chat-closed"}  # closed: nothing more goes
        assert said >= CHAT_BURST and codes.count("chat-rate-limited") >= STRIKES - 1
        assert "rate-limited" not in codes  # the socket's own limit was never reached
        white.send_json({"type": "say", "phrase": "hello"})
        closed = refusal(white)
        assert closed["code"] == "chat-closed" and "s" in closed["message"]
        # the match goes on: the roll-off's winner rolls and plays
        mover = {"white": white, "black": black}[state["turn"]]
        mover.send_json({"type": "roll", "seq": state["seq"]})
        rolled = until(mover, lambda m: m["type"] == "state" and m["seq"] > state["seq"])
        if rolled["legal"] is not None:
            mover.send_json({"type": "play", "seq": rolled["seq"], "play": rolled["legal"]["plays"][0]})
            until(mover, lambda m: m["type"] == "state" and m["seq"] > rolled["seq"])
        other = black if mover is white else white
        assert until(other, lambda m: m["type"] == "state" and m["seq"] > state["seq"])
        # the other player was never refused, and still talks (whichever of the two moved)
        black.send_json({"type": "say", "phrase": "well-played"})
        answer = until(black, lambda m: m["type"] == "error" or (
            m["type"] == "chat" and m["lines"] and m["lines"][-1]["phrase"] == "well-played"))
        assert answer["type"] == "chat" and answer["lines"][-1]["seat"] == "black", answer


def test_a_mute_hides_the_opponents_lines_and_a_signed_in_players_is_kept(client: TestClient) -> None:
    eleni, nikos = sign_up(client, "Eleni"), sign_up(client, "Nikos")
    links, friend = friends(client, eleni)
    url = f"/ws/{links['match']}"
    with as_player(client, eleni), client.websocket_connect(url) as white, \
            as_player(client, nikos), client.websocket_connect(url) as black:
        seated(client, white, links["token"])
        seated(client, black, friend)
        black.send_json({"type": "say", "text": "first"})
        assert chat(white)["lines"][0]["text"] == chat(black)["lines"][0]["text"] == "first"
        white.send_json({"type": "mute", "on": True})
        assert until(white, lambda m: m["type"] == "muted")["on"] is True
        black.send_json({"type": "say", "text": "second"})
        black.send_json({"type": "say", "phrase": "oops"})
        white.send_json({"type": "say", "phrase": "hello"})  # his own lines still show, to both
        assert chat(white)["lines"][0]["phrase"] == "hello"
        assert [chat(black)["lines"][0]["text"] for _ in range(3)] == ["second", None, None]
        black.send_json({"type": "mute", "on": True})  # a spectator's mute is refused; a seat's is not
        until(black, lambda m: m["type"] == "muted")
    # she comes back: still muted (kept on the server), and the history leaves his lines out
    with as_player(client, eleni), client.websocket_connect(url) as white:
        white.send_json({"type": "hello", "token": links["token"]})
        history = chat(white)
        assert history["muted"] is True
        assert [(line["seat"], line["text"] or line["phrase"]) for line in history["lines"]] == [("white", "hello")]
        white.send_json({"type": "mute", "on": False})
        until(white, lambda m: m["type"] == "muted")
    with as_player(client, eleni), client.websocket_connect(url) as white:
        white.send_json({"type": "hello", "token": links["token"]})
        history = chat(white)
        assert history["muted"] is False and len(history["lines"]) == 4
    with client.websocket_connect(url) as watcher:  # a spectator mutes nobody
        watcher.send_json({"type": "hello"})
        until(watcher, lambda m: m["type"] == "state")
        watcher.send_json({"type": "mute", "on": True})
        assert refusal(watcher)["code"] == "spectator"


def test_a_page_that_comes_back_gets_the_recent_lines_and_players_see_the_spectators_after_the_end(
        client: TestClient) -> None:
    links, friend = friends(client)
    url = f"/ws/{links['match']}"
    with client.websocket_connect(url) as white, client.websocket_connect(url) as black, \
            client.websocket_connect(url) as watcher:
        seated(client, white, links["token"])
        state = seated(client, black, friend)
        watcher.send_json({"type": "hello"})
        until(watcher, lambda m: m["type"] == "state")
        for phrase in PHRASES[:3]:
            white.send_json({"type": "say", "phrase": phrase})
            chat(white)
        watcher.send_json({"type": "say", "phrase": "again"})
        chat(watcher)
        black.send_json({"type": "resign", "seq": state["seq"], "match": True})
        until(black, lambda m: m["type"] == "state" and m["over"])
        until(white, lambda m: m["type"] == "state" and m["over"])
        watcher.send_json({"type": "say", "phrase": "well-played"})
        # the match is over: the spectators' lines reach the players too
        assert chat(white, "spectators")["lines"][0]["phrase"] == "well-played"
    with client.websocket_connect(url) as white:
        white.send_json({"type": "hello", "token": links["token"]})
        rooms = {m["room"]: m for m in (chat(white), chat(white))}
        assert [line["phrase"] for line in rooms["players"]["lines"]] == list(PHRASES[:3])
        assert [line["phrase"] for line in rooms["spectators"]["lines"]] == ["again", "well-played"]


def test_chat_before_hello_is_refused(client: TestClient) -> None:
    links, _ = friends(client)
    with client.websocket_connect(f"/ws/{links['match']}") as ws:
        ws.send_json({"type": "say", "phrase": "hello"})
        assert refusal(ws)["code"] == "not-joined"
        ws.send_json({"type": "mute"})
        assert refusal(ws)["code"] == "not-joined"


def test_reports_are_kept_open_for_a_moderator_and_limited(client: TestClient, db: Path) -> None:
    eleni = sign_up(client, "Eleni")
    links, _ = friends(client, eleni)
    with as_player(client, eleni):
        made = client.post("/api/reports", json={"name": "Nikos", "match": links["match"], "seat": "black",
                                                 "reason": "abuse", "note": f"said {HOSTILE}\u202e"})
        assert made.status_code == 201, made.text
        for body, status in [({"name": "Nikos", "reason": "rudeness"}, 400), ({"reason": "spam"}, 400),
                             ({"name": "Nikos", "reason": "spam", "match": "nope!"}, 404),
                             ({"name": "Nikos", "reason": "spam", "match": "abcdefabcdef"}, 404),
                             ({"name": "Nikos", "reason": "spam", "seat": "black"}, 400),
                             ({"name": "Nikos", "reason": "spam", "note": 7}, 400),
                             ({"name": "Nikos", "reason": "spam", "extra": 1}, 400)]:
            answer = client.post("/api/reports", json=body)
            assert answer.status_code == status and answer.json()["error"], (body, answer.text)
        refused = client.post("/api/reports", json={"name": "Nikos", "reason": "spam"},
                              headers={"origin": "https://evil.example"})
        assert refused.status_code == 403
        for _ in range(REPORTS_PER_PERSON - 1):
            assert client.post("/api/reports", json={"name": "Nikos", "reason": "spam"}).status_code == 201
        over = client.post("/api/reports", json={"name": "Nikos", "reason": "spam"})
        assert over.status_code == 429 and str(REPORTS_PER_PERSON) in over.json()["error"]
    # a guest reports too (his browser's cookie is who he is), counted on his own
    with as_player(client, None):
        guest = client.post("/api/reports", json={"name": "Eleni", "match": links["match"], "seat": "white",
                                                  "reason": "name"})
        assert guest.status_code == 201 and guest.cookies.get("tavli_guest")

    async def read() -> list[Any]:
        store = Store(f"sqlite:///{db}")
        try:
            return list(await ChatLog(store).open_reports())
        finally:
            await store.engine.dispose()
    reports = asyncio.run(read())
    assert len(reports) == REPORTS_PER_PERSON + 1 and {r.status for r in reports} == {"open"}
    first, last = reports[0], reports[-1]
    assert (first.reported, first.match_id, first.reason, first.reporter_name) == \
        ("Nikos", links["match"], "abuse", "Eleni")
    assert first.note == f"said {HOSTILE}" and first.reported_account is None
    assert (last.reported, last.reported_account, last.reason, last.reporter_name) == ("Eleni", 1, "name", None)
    assert last.reporter.startswith("g") and first.reporter == "a1"
    assert set(REPORT_REASONS) >= {r.reason for r in reports}


def test_the_chat_migration_keeps_every_row_of_the_version_before(tmp_path: Path) -> None:
    db = tmp_path / "before.db"
    with make_client(db) as client:  # rows of every kind: an account, a match, its tokens and actions
        eleni = sign_up(client, "Eleni")
        with as_player(client, eleni):
            bot = new_match(client, opponent="beginner", games="portes", length=1)
            links, _ = friends(client, eleni)
        with as_player(client, eleni), client.websocket_connect(f"/ws/{bot['match']}") as ws:
            state = hello(ws, bot["token"])
            if state["can_roll"]:
                ws.send_json({"type": "roll", "seq": state["seq"]})
                state = until(ws, lambda m: m["type"] == "state" and m["seq"] > 0)
    engine = create_engine(f"sqlite:///{db}")
    with engine.begin() as conn:  # the database as the version before this one left it
        command.downgrade(config(conn), "0009_challenges")
    with engine.connect() as conn:
        assert current(conn) == "0009_challenges" and "chat_lines" not in inspect(conn).get_table_names()
    engine.dispose()
    tables = ("matches", "accounts", "tokens", "actions", "seeds", "sessions", "seat_accounts")
    with sqlite3.connect(db) as conn:
        before = {t: conn.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall() for t in tables}
        columns = {t: [c[1] for c in conn.execute(f"PRAGMA table_info({t})")] for t in tables}
    assert len(before["matches"]) == 2 and before["actions"] and before["accounts"]
    with make_client(db) as client:  # upgraded as the server starts; the matches go on
        with as_player(client, eleni), client.websocket_connect(f"/ws/{bot['match']}") as ws:
            assert hello(ws, bot["token"])["seq"] >= state["seq"]
        with as_player(client, eleni), client.websocket_connect(f"/ws/{links['match']}") as ws:
            assert hello(ws, links["token"])["you"] == "white"
            ws.send_json({"type": "say", "phrase": "hello"})
            assert chat(ws)["lines"][0]["phrase"] == "hello"
    engine = create_engine(f"sqlite:///{db}")
    with engine.connect() as conn:
        assert current(conn) == head()
        assert {"chat_lines", "chat_mutes", "reports"} <= set(inspect(conn).get_table_names())
    engine.dispose()
    with sqlite3.connect(db) as conn:
        for table, rows in before.items():
            kept = conn.execute(f"SELECT {', '.join(columns[table])} FROM {table} ORDER BY 1, 2").fetchall()
            assert set(rows) <= set(kept), table
        assert conn.execute("SELECT phrase FROM chat_lines").fetchall() == [("hello",)]


@pytest.mark.parametrize("body", ['{"type": "say"}', '{"type": "say", "phrase": 7}', '{"type": "mute", "on": "yes"}',
                                  json.dumps({"type": "say", "text": "x" * 3000})])
def test_malformed_chat_messages_get_one_line(client: TestClient, body: str) -> None:
    links, _ = friends(client)
    with client.websocket_connect(f"/ws/{links['match']}") as ws:
        seated(client, ws, links["token"])
        ws.send_text(body)
        got = refusal(ws)
        assert got["code"] in ("bad-message", "too-large") and "\n" not in got["message"]


def test_the_pages_take_the_phrases_and_reasons_from_the_one_list(client: TestClient) -> None:
    script = client.get("/static/games.js").text
    line = next(text for text in script.splitlines() if text.startswith("export const CHAT = "))
    table = json.loads(line.removeprefix("export const CHAT = ").rstrip(";"))
    assert table == {"phrases": list(PHRASES), "reasons": list(REPORT_REASONS), "line": MAX_LINE, "note": 500}
    for language in ("en", "el"):
        words = (Path(__file__).parents[1] / "tavli" / "server" / "static" / f"strings-{language}.js").read_text()
        assert all(f'"phrase-{key}":' in words for key in PHRASES)
        assert all(f'"reason-{key}":' in words for key in REPORT_REASONS)
