"""The web app through its HTTP API and WebSocket protocol, with Starlette's test client."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from app_client import (
    Message,
    as_player,
    hello,
    make_client,
    new_match,
    sign_up,
    token_of,
    until,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tavli.fairdice import check_game, dice_of_rolls
from tavli.server.app import create_app
from tavli.server.play.clocks import PRESETS
from tavli.server.realtime.protocol import MAX_MESSAGE_BYTES
from tavli.server.routes.context import context_of
from tavli.server.routes.limits import RateLimiter, client_address
from tavli.server.routes.responses import HEAD, HEAD_MARK, HEADER, HEADER_MARK, STATIC
from tavli.variants import GAMES


def is_state(m: Message) -> bool:
    return bool(m["type"] == "state")


def hello_both(a: Any, token_a: str, b: Any, token_b: str) -> tuple[Message, Message]:
    """Both seats of a match between people say hello, ``a`` first: the states once both are there
    (until the second comes, the match waits and nobody is on turn)."""
    first = hello(a, token_a)
    second = hello(b, token_b)
    if first.get("waiting"):
        first = until(a, lambda m: is_state(m) and not m["waiting"])
    return first, second


def test_pages_levels_and_health(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"ok": True}
    levels = client.get("/api/levels").json()
    assert [lv["name"] for lv in levels["levels"]][-1] == "champion" and levels["default"] == "expert"
    assert client.get("/api/matches/nope/dice").status_code == 404


def test_the_pages_files_come_compressed_to_browsers_that_take_it(client: TestClient) -> None:
    plain = client.get("/static/reasons.js", headers={"Accept-Encoding": "identity"})
    packed = client.get("/static/reasons.js", headers={"Accept-Encoding": "gzip"})
    assert plain.headers.get("content-encoding") is None and packed.headers["content-encoding"] == "gzip"
    assert packed.text == plain.text  # the client unpacks it
    assert int(packed.headers["content-length"]) < len(plain.content) / 3
    # the Greek words of the reasons are made from the library's table, and revalidated
    assert plain.text.startswith("export const REASONS_EL = {") and "το ταμπλό έχει {count} σημεία" in plain.text
    for asked in (plain.headers["etag"], f'"other", W/{plain.headers["etag"]}', "*"):
        again = client.get("/static/reasons.js", headers={"If-None-Match": asked})
        assert again.status_code == 304 and not again.content
    assert client.get("/static/reasons.js", headers={"If-None-Match": '"other"'}).status_code == 200
    assert client.get("/static/strings.js").status_code == 200  # the other files beside it


def test_the_pages_take_the_games_names_from_the_library(client: TestClient) -> None:
    script = client.get("/static/games.js")
    assert script.status_code == 200 and script.headers["content-type"].startswith("text/javascript")
    assert script.text.startswith(f"export const GAMES = {json.dumps(list(GAMES), separators=(',', ':'))};\n")
    # and the clocks' presets, which the lobby and the challenges name (common.js, clockName)
    assert f"export const CLOCK_PRESETS = {json.dumps(PRESETS, separators=(',', ':'))};" in script.text
    for name in ("common.js", "notes.js"):
        assert 'import { CLOCK_PRESETS, GAMES } from "/static/games.js";' in client.get(f"/static/{name}").text
    assert client.get("/static/games.js", headers={"If-None-Match": script.headers["etag"]}).status_code == 304
    for name in ("home.js", "openings.js", "practice.js"):
        assert 'import { GAMES } from "/static/games.js";' in client.get(f"/static/{name}").text
    for path in STATIC.glob("*.js"):  # no page keeps a list of its own
        page = path.read_text(encoding="utf-8")
        assert '"portes", "plakoto", "fevga"' not in page and "portes,plakoto,fevga" not in page, path.name


def test_every_page_has_the_one_common_head(client: TestClient) -> None:
    for path in STATIC.glob("*.html"):
        assert path.read_text(encoding="utf-8").count(HEAD_MARK) == 1 and "<meta" not in path.read_text(), path.name
    for address in ("/", "/match/x", "/review", "/openings", "/practice", "/position", "/rules", "/account",
                    "/@/nobody", "/leaderboard", "/tournaments", "/tournaments/x", "/no/such/page"):
        answer = client.get(address)
        assert answer.headers["content-type"] == "text/html; charset=utf-8", address
        assert answer.text.count(HEAD) == 1 and HEAD_MARK not in answer.text, address
        assert answer.headers["cache-control"] == "no-cache"
    assert client.get("/no/such/page").status_code == 404
    # the plain pages' one top bar
    for address in ("/account", "/@/nobody", "/leaderboard", "/moderation", "/tournaments", "/tournaments/x"):
        answer = client.get(address)
        assert answer.text.count(HEADER) == 1 and HEADER_MARK not in answer.text, address


@pytest.mark.parametrize(("body", "words"), [
    ({"length": 0}, "length"),
    ({"length": "5"}, "length"),
    ({"games": "chess"}, "unknown game"),
    ({"opponent": "grandmaster"}, "opponent"),
    ({"seat": "red"}, "seat"),
    ({"mother_pin": "sometimes"}, "mother"),
    ({"prime_limits": "yes"}, "prime_limits"),
    ({"colour": "white"}, "unknown field"),
    ({"opponent": ["friend"]}, "opponent must be friend, anyone or a bot level"),
    ({"opponent": {"$gt": ""}}, "opponent must be friend, anyone or a bot level"),
    ({"seat": ["white"]}, "seat must be"),
    ({"games": ["portes"]}, "games must be text"),
])
def test_bad_match_requests_get_one_line(client: TestClient, body: Message, words: str) -> None:
    answer = client.post("/api/matches", json=body)
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert words in error and "\n" not in error


def test_non_json_and_oversized_requests(client: TestClient) -> None:
    assert client.post("/api/matches", content=b"{nope").json()["error"] == "the request is not JSON"
    assert client.post("/api/matches", content=b"[1]").status_code == 400
    assert client.post("/api/matches", content=b" " * 5000).status_code == 413
    too_large = client.post("/api/matches", content=b"x" * 10**6).json()
    assert "too large" in too_large["error"]
    # the same line as a template and its values, for a page to say in its language
    assert too_large["reason"] == {"text": too_large["error"], "params": {"limit": "4096"},
                                   "template": "the request is too large: at most {limit} bytes"}


def test_new_matches_are_rate_limited(db: Path) -> None:
    with make_client(db, matches_per_minute=3) as c:
        codes = [c.post("/api/matches", json={"opponent": "friend"}).status_code for _ in range(5)]
    assert codes == [201, 201, 201, 429, 429]


def test_friend_match_links_and_roles(client: TestClient) -> None:
    links = new_match(client, opponent="friend", length=3, games="portes", seat="black", clock="none")
    assert links["seat"] == "black" and links["friend"] and links["watch"]
    mid = links["match"]
    with client.websocket_connect(f"/ws/{mid}") as black, client.websocket_connect(f"/ws/{mid}") as white, \
            client.websocket_connect(f"/ws/{mid}") as watcher:
        b, w = hello_both(black, links["token"], white, token_of(links["friend"]))
        s = hello(watcher, token_of(links["watch"]))
        assert (b["you"], w["you"], s["you"]) == ("black", "white", "spectator")
        assert b["seq"] == 0 and b["players"]["white"]["kind"] == "human"
        mover, waiter = (white, black) if w["can_roll"] else (black, white)
        assert w["can_roll"] != b["can_roll"] and not s["can_roll"]
        # the side not on turn cannot roll, a spectator cannot act
        waiter.send_json({"type": "roll", "seq": 0, "id": 7})
        assert until(waiter, lambda m: m["type"] == "error") == {
            "type": "error", "code": "not-your-turn", "message": "it is your opponent's turn", "id": 7,
            "reason": {"text": "it is your opponent's turn", "template": "it is your opponent's turn", "params": {}}}
        watcher.send_json({"type": "roll", "seq": 0})
        assert until(watcher, lambda m: m["type"] == "error")["code"] == "spectator"
        mover.send_json({"type": "roll", "seq": 0})
        rolled = until(mover, lambda m: is_state(m) and m["seq"] == 1)
        assert rolled["can_play"] and rolled["legal"]["plays"] and "tree" not in rolled["legal"]
        seen = until(waiter, lambda m: is_state(m) and m["seq"] == 1)
        assert seen["dice"] == rolled["dice"] and seen["legal"] is None
        # a replayed roll is stale and changes nothing
        mover.send_json({"type": "roll", "seq": 0})
        assert until(mover, lambda m: m["type"] == "error")["code"] == "stale"
        play = rolled["legal"]["plays"][0]
        mover.send_json({"type": "play", "seq": 1, "play": play})
        after = until(watcher, lambda m: is_state(m) and m["seq"] == 2)
        assert after["game"]["moves"][-1]["play"] == play
        assert after["game"]["position"] != rolled["game"]["position"]


def watch(ws: Any, steps: bool = False) -> Message:
    """Say hello with no token: to watch the match by its address alone."""
    ws.send_json({"type": "hello", "steps": steps})
    return until(ws, lambda m: m["type"] in ("state", "error"))


def test_a_match_is_watched_by_its_address_alone_unless_made_private(client: TestClient) -> None:
    """Every match can be watched with no token, as a spectator who sees it live and can do
    nothing, unless its creator made it private (a match between friends or against a bot)."""
    links = new_match(client, opponent="friend", games="portes", clock="none")
    mid = links["match"]
    with client.websocket_connect(f"/ws/{mid}") as white, client.websocket_connect(f"/ws/{mid}") as black, \
            client.websocket_connect(f"/ws/{mid}") as watcher:
        first, _ = hello_both(white, links["token"], black, token_of(links["friend"]))
        seen = watch(watcher, steps=True)
        assert seen["type"] == "state" and seen["you"] == "spectator" and seen["legal"] is None
        assert not seen["can_roll"] and not seen["can_resign"] and "private" not in seen["settings"]
        for action in ({"type": "roll", "seq": seen["seq"]}, {"type": "play", "seq": seen["seq"], "play": ""},
                       {"type": "claim", "seq": seen["seq"]}, {"type": "resign", "seq": seen["seq"], "match": True},
                       {"type": "answer", "seq": seen["seq"], "accept": True},
                       {"type": "rematch", "seq": seen["seq"]}):
            watcher.send_json(action | {"id": action["type"]})
            refused = until(watcher, lambda m: m["type"] == "error")
            assert (refused["code"], refused["id"]) == ("spectator", action["type"]), action
        mover = white if first["can_roll"] else black
        mover.send_json({"type": "roll", "seq": seen["seq"]})
        rolled = until(watcher, lambda m: is_state(m) and m["seq"] == seen["seq"] + 1)  # live, as it happens
        assert rolled["dice"] is not None and rolled["legal"] is None
    private = new_match(client, opponent="friend", games="portes", private=True)
    with client.websocket_connect(f"/ws/{private['match']}") as watcher:
        refused = watch(watcher)
        assert refused["code"] == "private" and "\n" not in refused["message"]
        assert refused["message"] == "this match is private: only the links its players were given open it"
        assert private["match"] not in client.app.state.context.service.cached()  # nothing kept of it
        assert hello(watcher, token_of(private["watch"]))["you"] == "spectator"  # its links still open it
    bot = new_match(client, opponent="beginner", games="portes", private=True)
    with client.websocket_connect(f"/ws/{bot['match']}") as watcher:
        assert watch(watcher)["code"] == "private"
    with client.websocket_connect("/ws/nosuchmatch") as watcher:
        assert watch(watcher)["code"] == "bad-token"


def test_open_and_rated_matches_cannot_be_private(client: TestClient) -> None:
    for body in ({"opponent": "anyone", "private": True}, {"opponent": "friend", "private": "yes"}):
        answer = client.post("/api/matches", json=body)
        assert answer.status_code == 400 and answer.json()["reason"]["template"].startswith(
            ("an open or a rated match can always be watched", "private must be")), answer.text
    opened = new_match(client, opponent="anyone", games="portes")
    with client.websocket_connect(f"/ws/{opened['match']}") as watcher:
        assert watch(watcher)["you"] == "spectator"


def test_a_match_between_people_waits_for_both_players(client: TestClient) -> None:
    """No roll-off shown, nobody on turn and nothing rolled until the second player has come; a
    bot is always there."""
    for opponent in ("friend", "anyone"):
        links = new_match(client, opponent=opponent, games="portes")
        mid = links["match"]
        with client.websocket_connect(f"/ws/{mid}") as a:
            alone = hello(a, links["token"])
            assert alone["waiting"] and not alone["can_roll"] and not alone["can_resign"]
            a.send_json({"type": "roll", "seq": 0, "id": "early"})
            refused = until(a, lambda m: m["type"] == "error")
            assert refused["code"] == "waiting" and refused["id"] == "early"
            second = (token_of(links["friend"]) if opponent == "friend"
                      else client.post(f"/api/open/{mid}").json()["token"])
            with client.websocket_connect(f"/ws/{mid}") as b:
                sb = hello(b, second)
                sa = until(a, lambda m: is_state(m) and not m["waiting"])
                # nothing rolled while waiting; the only action is the clocks' start, as both are here
                assert not sb["waiting"] and sa["seq"] == sb["seq"] == 1 and sa["clock"]["started"]
                assert sa["can_roll"] != sb["can_roll"]
        with client.websocket_connect(f"/ws/{mid}") as a:  # once begun, an absence is no wait
            assert not hello(a, links["token"])["waiting"]
    bot = new_match(client, opponent="beginner", games="portes")
    with client.websocket_connect(f"/ws/{bot['match']}") as a:
        assert not hello(a, bot["token"])["waiting"]


def test_hostile_messages_change_nothing(client: TestClient) -> None:
    links = new_match(client, opponent="friend")
    mid = links["match"]
    with client.websocket_connect(f"/ws/{mid}") as ws:
        ws.send_json({"type": "roll", "seq": 0})
        assert until(ws, lambda m: m["type"] == "error")["code"] == "not-joined"
        ws.send_json({"type": "hello", "token": "forged"})
        assert until(ws, lambda m: m["type"] == "error")["code"] == "bad-token"
        first = hello(ws, links["token"])
        bad: list[tuple[str, str]] = [
            ("not json", "bad-message"), ("[1, 2]", "bad-message"), ('{"type": "dance"}', "bad-message"),
            ('{"type": "roll"}', "bad-message"), ('{"type": "roll", "seq": -1}', "bad-message"),
            ('{"type": "roll", "seq": 0, "extra": 1}', "bad-message"),
            ('{"type": "play", "seq": 0, "play": 5}', "bad-message"),
            (json.dumps({"type": "play", "seq": 0, "play": "x" * 5000}), "too-large"),
            ('{"type": "hello", "token": "again"}', "bad-message"),
            ("[" * 3000 + "]" * 3000, "too-large"),
            ("[" * 2000 + "]" * 2000, "bad-message"),
            # a lone UTF-16 surrogate in an escape: answered, not a dropped connection
            ('{"type": "ping", "id": "\\ud800"}', "bad-message"),
            ('{"type": "hello", "token": "t", "name": "\\udfff"}', "bad-message"),
        ]
        for text, code in bad:
            ws.send_text(text)
            error = until(ws, lambda m: m["type"] == "error")
            assert error["code"] == code, text[:40]
            assert "\n" not in error["message"]
        ws.send_json({"type": "ping", "id": "p"})
        assert until(ws, lambda m: m["type"] == "pong") == {"type": "pong", "id": "p"}
    with client.websocket_connect(f"/ws/{mid}") as ws:
        again = hello(ws, links["token"])
    for key in ("seq", "game", "score", "dice"):
        assert again[key] == first[key]


def test_illegal_play_is_refused_with_the_reason(client: TestClient) -> None:
    links = new_match(client, opponent="friend", games="portes", clock="none")
    mid = links["match"]
    with client.websocket_connect(f"/ws/{mid}") as a, client.websocket_connect(f"/ws/{mid}") as b:
        sa, _sb = hello_both(a, links["token"], b, token_of(links["friend"]))
        mover = a if sa["can_roll"] else b
        mover.send_json({"type": "roll", "seq": 0})
        rolled = until(mover, lambda m: is_state(m) and m["seq"] == 1)
        for text in ("13/1", "garbage", ""):
            mover.send_json({"type": "play", "seq": 1, "play": text})
            error = until(mover, lambda m: m["type"] == "error")
            assert error["code"] == "illegal" and error["message"]
            # the library's own reason, for the page to say in its language
            assert error["reason"]["text"] == error["message"]
            if text == "garbage":
                assert error["reason"]["params"] == {"token": "'garbage'"}
                assert error["reason"]["template"].startswith("cannot read {token!r}: write moves like")
            elif text == "":
                assert error["reason"] == {"text": "give the play to make: the dice can be played", "params": {},
                                           "template": "give the play to make: the dice can be played"}
            state = until(mover, is_state)
            assert state["seq"] == 1 and state["game"]["position"] == rolled["game"]["position"]


def test_a_whole_match_against_a_bot_with_checkable_dice(client: TestClient) -> None:
    links = new_match(client, opponent="advanced", length=1, games="plakoto", seat="white")
    mid = links["match"]
    with client.websocket_connect(f"/ws/{mid}") as ws:
        state = hello(ws, links["token"], steps=True)
        assert state["players"]["black"] == {"kind": "bot", "level": "advanced", "connected": True, "joined": True,
                                             "name": None, "account": False, "rating": None}
        while not state["over"]:
            if state["can_roll"]:
                ws.send_json({"type": "roll", "seq": state["seq"]})
            elif state["can_play"]:
                tree = state["legal"]["tree"]
                assert {n["play"] for n in tree} - {None} == set(range(len(state["legal"]["plays"])))
                ws.send_json({"type": "play", "seq": state["seq"], "play": state["legal"]["plays"][0]})
            state = until(ws, lambda m: is_state(m) and (m["can_roll"] or m["can_play"] or m["over"]))
    assert state["winner"] in ("white", "black") and max(state["score"].values()) >= 1
    game = state["games"][0]
    assert game["seed"] and game["result"]["points"] in (1, 2)
    record = client.get(f"/api/matches/{mid}/dice").json()["games"][0]
    assert record["seed"] == game["seed"] and record["commitment"] == game["commitment"]
    check_game(record["seed"], record["commitment"], dice_of_rolls(record["opening"], record["rolls"]))
    assert len(record["rolls"]) == len(state["game"]["moves"])


def test_the_seed_stays_secret_until_the_game_ends(client: TestClient) -> None:
    links = new_match(client, opponent="friend")
    state = None
    with client.websocket_connect(f"/ws/{links['match']}") as ws:
        state = hello(ws, links["token"])
    assert state["game"]["commitment"] and state["games"][0]["seed"] is None
    record = client.get(f"/api/matches/{links['match']}/dice").json()["games"][0]
    assert record["seed"] is None and "rolls" not in record


def take_turns(seats: dict[str, Any], latest: dict[str, Message], actions: int) -> None:
    """Make ``actions`` actions (rolls or plays) for whichever seat is to act, watching both sockets."""
    for _ in range(actions):
        name = next(n for n, m in latest.items() if m["can_roll"] or m["can_play"])
        state, sock = latest[name], seats[name]
        if state["can_roll"]:
            sock.send_json({"type": "roll", "seq": state["seq"]})
        else:
            sock.send_json({"type": "play", "seq": state["seq"], "play": state["legal"]["plays"][-1]})
        # a roll that cannot be played is passed at once: wait until the mover can play or it is over
        mine = until(sock, lambda m, s=state["seq"]: is_state(m) and m["seq"] > s
                     and (m["can_play"] or m["dice"] is None))
        latest[name] = mine
        for other, other_sock in seats.items():
            if other != name:
                latest[other] = until(other_sock, lambda m, s=mine["seq"]: is_state(m) and m["seq"] >= s)


def test_a_restarted_server_goes_on_from_the_database(db: Path) -> None:
    with make_client(db) as c:
        links = new_match(c, opponent="friend", games="fevga")
        mid = links["match"]
        with c.websocket_connect(f"/ws/{mid}") as a, c.websocket_connect(f"/ws/{mid}") as b:
            sa, sb = hello_both(a, links["token"], b, token_of(links["friend"]))  # a's state sees b connected
            take_turns({sa["you"]: a, sb["you"]: b}, {sa["you"]: sa, sb["you"]: sb}, 7)
        with c.websocket_connect(f"/ws/{mid}") as w:
            before = hello(w, token_of(links["watch"]))
    with make_client(db) as c2, c2.websocket_connect(f"/ws/{mid}") as w:
        after = hello(w, token_of(links["watch"]))
    assert before["seq"] >= 7
    for key in ("seq", "game", "score", "dice", "turn", "games"):
        assert after[key] == before[key], key


def test_a_new_match_is_stored_with_its_first_seed(db: Path) -> None:
    """The first game's seed (its roll-off) is drawn and stored when the match is created, so
    that a restarted server, before anyone has acted, shows the same commitment and roll-off."""
    import sqlite3

    with make_client(db) as c:
        links = new_match(c, opponent="friend")
        with c.websocket_connect(f"/ws/{links['match']}") as w:
            before = hello(w, token_of(links["watch"]))
    with sqlite3.connect(db) as stored:
        rows = stored.execute("SELECT game, commitment FROM seeds WHERE match_id = ?", (links["match"],)).fetchall()
    assert rows == [(0, before["game"]["commitment"])]
    with make_client(db) as c2, c2.websocket_connect(f"/ws/{links['match']}") as w:
        after = hello(w, token_of(links["watch"]))
    assert after["seq"] == before["seq"] == 0
    assert after["game"]["commitment"] == before["game"]["commitment"]
    assert after["game"]["opening"] == before["game"]["opening"] and before["game"]["opening"]


def opponents_turn(ws: Any, token: str) -> dict[str, Any]:
    """Join with ``token`` and play on until it is the other seat's turn; that state."""
    state = hello(ws, token)
    me = state["you"]
    if state["can_roll"]:
        ws.send_json({"type": "roll", "seq": state["seq"]})
        state = until(ws, lambda m: is_state(m) and m["seq"] >= 1 and (m["can_play"] or m["turn"] != me))
        if state["can_play"]:
            ws.send_json({"type": "play", "seq": state["seq"], "play": state["legal"]["plays"][0]})
            state = until(ws, lambda m: is_state(m) and m["turn"] != me)
    return state


def test_claiming_an_absent_opponent(db: Path) -> None:
    with make_client(db, claim_after=0.0) as c:
        links = new_match(c, opponent="friend", length=2, games="portes", clock="none")
        mid = links["match"]
        with c.websocket_connect(f"/ws/{mid}") as b:  # the friend comes, and goes
            hello(b, token_of(links["friend"]))
        with c.websocket_connect(f"/ws/{mid}") as a:
            state = opponents_turn(a, links["token"])
            me = state["you"]
            assert state["turn"] != me and state["can_claim"] and state["claim_at"] is not None
            assert state["players"][state["turn"]] | {"name": None} == {
                "kind": "human", "level": None, "connected": False, "joined": True, "name": None, "account": False,
                "rating": None}
            a.send_json({"type": "claim", "seq": state["seq"]})
            claimed = until(a, lambda m: is_state(m) and m["score"][me] == 1)
            assert claimed["games"][0]["result"]["reason"].startswith("claimed")
            assert claimed["game"]["index"] == 1 and not claimed["over"]
        # the opponent who comes back cannot claim against a present player
        with c.websocket_connect(f"/ws/{mid}") as a, c.websocket_connect(f"/ws/{mid}") as b:
            hello(a, links["token"])
            other = hello(b, token_of(links["friend"]))
            if not other["can_roll"] and not other["can_play"]:
                b.send_json({"type": "claim", "seq": other["seq"]})
                assert until(b, lambda m: m["type"] == "error")["code"] == "not-absent"


def test_an_opponent_who_never_came_is_awaited_not_claimed(db: Path) -> None:
    with make_client(db, claim_after=0.0) as c:
        for opponent in ("friend", "anyone"):
            links = new_match(c, opponent=opponent, length=2, games="portes")
            with c.websocket_connect(f"/ws/{links['match']}") as a:
                state = hello(a, links["token"])  # the match waits for him: nothing to play, nothing to claim
                other = "black" if state["you"] == "white" else "white"
                assert state["waiting"] and not state["can_claim"] and state["claim_at"] is None
                assert state["players"][other]["joined"] is False
                assert state["players"][state["you"]]["joined"] is True
                a.send_json({"type": "claim", "seq": state["seq"]})
                assert until(a, lambda m: m["type"] == "error")["code"] == "not-absent"
                a.send_json({"type": "ping"})
                assert until(a, lambda m: m["type"] == "pong")
            assert c.get(f"/api/matches/{links['match']}/record").json()["games"][0].get("end") is None


def test_flooding_is_rate_limited_then_closed(db: Path) -> None:
    with make_client(db, messages_per_second=1, message_burst=3) as c:
        links = new_match(c, opponent="friend")
        with c.websocket_connect(f"/ws/{links['match']}") as ws:
            for _ in range(3):
                ws.send_json({"type": "ping"})
                assert ws.receive_json()["type"] == "pong"
            ws.send_json({"type": "ping"})
            error = ws.receive_json()
            assert error["code"] == "rate-limited" and "slow down" in error["message"]


def test_open_connections_per_address_are_limited(db: Path) -> None:
    with make_client(db, connections_per_address=2) as c:
        links = new_match(c, opponent="friend")
        path = f"/ws/{links['match']}"
        with c.websocket_connect(path) as a, c.websocket_connect(path) as b:
            with c.websocket_connect(path) as third:
                refused = third.receive_json()
                assert refused["code"] == "rate-limited" and "open connections" in refused["message"]
            for ws in (a, b):
                ws.send_json({"type": "ping"})
                assert ws.receive_json()["type"] == "pong"
        with c.websocket_connect(path) as again:  # the count goes down when connections close
            again.send_json({"type": "ping"})
            assert again.receive_json()["type"] == "pong"


# -- hardening: hostile clients ----------------------------------------------------------------

@pytest.mark.parametrize("content", [
    b'{"opponent": ["friend"]}', b'{"opponent": {"$gt": ""}}', b'{"seat": ["white"]}', b'{"seat": {"a": 1}}',
    b'{"games": ["portes"]}', b'{"mother_pin": ["double"]}', b'{"length": [5]}', b'{"length": 1e400}',
    b"[" * 4000, b'{"opponent": ' + b"[" * 2000 + b"]" * 2000 + b"}", b'{"a": 1', b"\xff\xfe", b"null", b'"x"',
    b"{}" + b" " * 4095, b'{"length": NaN}',
])
def test_malformed_bodies_get_a_4xx_with_one_line(client: TestClient, content: bytes) -> None:
    answer = client.post("/api/matches", content=content)
    assert 400 <= answer.status_code < 500, (content[:40], answer.text)
    error = answer.json()["error"]
    assert error and "\n" not in error


@pytest.mark.parametrize("match_id", ["nope", "%00", "x" * 300, "%C3%A9t%C3%A9", "..%2F..", "a%20b", "'; drop"])
def test_dice_of_unknown_or_odd_ids_is_404(client: TestClient, match_id: str) -> None:
    answer = client.get(f"/api/matches/{match_id}/dice")
    assert answer.status_code == 404 and answer.text.count("\n") == 0  # ours, or no route for a slash


def test_odd_match_ids_on_the_websocket_are_bad_tokens(client: TestClient) -> None:
    with client.websocket_connect("/ws/%00%01") as ws:
        assert hello(ws, "anything")["code"] == "bad-token"


def test_only_valid_requests_count_against_the_creation_quota(db: Path) -> None:
    with make_client(db, matches_per_minute=2) as c:
        codes = [c.post("/api/matches", content=body).status_code
                 for body in (b"{nope", b'{"length": 0}', b'{"opponent": ["friend"]}', b"[" * 4000, b" " * 5000)]
        assert codes == [400, 400, 400, 400, 413]
        codes = [c.post("/api/matches", json={"opponent": "friend"}).status_code for _ in range(3)]
        assert codes == [201, 201, 429]


def test_forwarded_for_is_believed_only_from_trusted_proxies(db: Path) -> None:
    def codes(**options: Any) -> list[int]:
        app = create_app(f"sqlite:///{db}", matches_per_minute=1, **options)
        with TestClient(app, client=("127.0.0.1", 40000)) as c:
            return [c.post("/api/matches", json={"opponent": "friend"},
                           headers={"X-Forwarded-For": f"203.0.113.{i}"}).status_code for i in range(3)]

    assert codes() == [201, 429, 429]  # forged headers from anyone: one address
    assert codes(trusted_proxies=["127.0.0.1"]) == [201, 201, 201]  # a trusted proxy: each client counts
    assert codes(trusted_proxies=["10.0.0.0/8"]) == [201, 429, 429]
    with pytest.raises(ValueError, match="not an IP address"):
        create_app("sqlite://", trusted_proxies=["proxy.example"])


def test_sockets_per_address_count_the_real_address(db: Path) -> None:
    app = create_app(f"sqlite:///{db}", connections_per_address=1)
    with TestClient(app, client=("192.0.2.1", 40000)) as c:
        links = new_match(c, opponent="friend")
        path = f"/ws/{links['match']}"
        with c.websocket_connect(path) as first:
            first.send_json({"type": "ping"})
            assert first.receive_json()["type"] == "pong"
            with c.websocket_connect(path, headers={"X-Forwarded-For": "198.51.100.9"}) as forged:
                assert forged.receive_json()["code"] == "rate-limited"


def test_the_rate_limiter_is_bounded_and_refunds() -> None:
    limiter = RateLimiter(1, 60.0, max_keys=3)
    assert all(limiter.allow(f"10.0.0.{i}") for i in range(100))
    assert len(limiter.events) == 3 and list(limiter.events) == ["10.0.0.97", "10.0.0.98", "10.0.0.99"]
    assert not limiter.allow("10.0.0.99")
    limiter.refund("10.0.0.99")
    assert limiter.allow("10.0.0.99") and not limiter.allow("10.0.0.99")
    assert client_address("2001:db8:1:2:3:4:5:6") == client_address("2001:db8:1:2::9") == "2001:db8:1:2::/64"
    brief = RateLimiter(5, 0.05)  # keys whose events have expired are forgotten as new ones come
    for i in range(50):
        assert brief.allow(f"192.0.2.{i}")
        time.sleep(0.01)
    assert len(brief.events) <= 8


def test_a_body_that_trickles_in_is_refused() -> None:
    app = create_app("sqlite://", request_seconds=0.2)
    sent: list[Message] = []
    calls = 0

    async def receive() -> Message:
        nonlocal calls
        calls += 1
        if calls == 1:
            return {"type": "http.request", "body": b'{"opponent"', "more_body": True}
        await asyncio.sleep(30)  # the rest never comes
        return {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/api/matches", "raw_path": b"/api/matches",
             "query_string": b"", "headers": [(b"content-type", b"application/json")], "http_version": "1.1",
             "scheme": "http", "server": ("testserver", 80), "client": ("192.0.2.1", 5000), "root_path": ""}
    started = time.monotonic()
    asyncio.run(app(scope, receive, send))
    assert time.monotonic() - started < 5
    assert sent[0]["status"] == 408 and b"took more than 0.2 s" in sent[1]["body"]


@pytest.mark.slow
def test_sockets_that_never_say_hello_are_closed(db: Path) -> None:
    with make_client(db, hello_seconds=0.5, connections_per_address=3) as c:
        links = new_match(c, opponent="friend")
        path = f"/ws/{links['match']}"
        silent = [c.websocket_connect(path) for _ in range(3)]
        for ws in silent:
            ws.__enter__()
        with c.websocket_connect(path) as joined:  # the fourth is refused while the silent ones are open
            assert joined.receive_json()["code"] == "rate-limited"
        for ws in silent:
            told = ws.receive_json()
            assert told["code"] == "not-joined" and "no hello within 0.5 s" in told["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1008
            ws.__exit__(None, None, None)
        with c.websocket_connect(path) as joined:  # their places are free again
            assert hello(joined, links["token"])["type"] == "state"
            time.sleep(0.8)  # one who said hello stays past the deadline
            joined.send_json({"type": "ping", "id": 1})
            assert until(joined, lambda m: m["type"] == "pong")["id"] == 1


def test_pings_do_not_stand_in_for_hello(db: Path) -> None:
    with make_client(db, hello_seconds=0.5) as c:
        links = new_match(c, opponent="friend")
        with c.websocket_connect(f"/ws/{links['match']}") as ws:
            started = time.monotonic()
            with pytest.raises(WebSocketDisconnect):
                while True:
                    ws.send_json({"type": "ping"})
                    ws.receive_json()
                    time.sleep(0.05)
            assert time.monotonic() - started < 5


@pytest.mark.parametrize(("origin", "allowed"), [
    (None, True), ("http://testserver", True), ("https://TestServer", True), ("http://evil.example", False),
    ("null", False), ("http://testserver.evil.example", False), ("https://friends.example", True),
    ("https://friends.example:8443", False), ("http://testserver:80", True), ("https://testserver:443", True),
    ("http://testserver:8080", False),
])
def test_websocket_origins_are_checked(db: Path, origin: str | None, allowed: bool) -> None:
    with make_client(db, allowed_origins=["https://friends.example"]) as c:
        links = new_match(c, opponent="friend")
        headers = {"origin": origin} if origin else {}
        if allowed:
            with c.websocket_connect(f"/ws/{links['match']}", headers=headers) as ws:
                assert hello(ws, links["token"])["type"] == "state"
        else:
            with pytest.raises(WebSocketDisconnect) as refused, \
                    c.websocket_connect(f"/ws/{links['match']}", headers=headers):
                pass
            assert refused.value.code == 1008
    with pytest.raises(ValueError, match="not an origin"):
        create_app("sqlite://", allowed_origins=["friends.example"])


def test_the_message_limit_counts_bytes(client: TestClient) -> None:
    links = new_match(client, opponent="friend")
    with client.websocket_connect(f"/ws/{links['match']}") as ws:
        hello(ws, links["token"])
        wide = json.dumps({"type": "play", "seq": 0, "play": "é" * 2100}, ensure_ascii=False)
        assert len(wide) < MAX_MESSAGE_BYTES < len(wide.encode())
        ws.send_text(wide)
        assert until(ws, lambda m: m["type"] == "error")["code"] == "too-large"
        ws.send_bytes(b'{"type": "ping", "id": "' + "é".encode() * 2100 + b'"}')
        assert until(ws, lambda m: m["type"] == "error")["code"] == "too-large"
        ws.send_bytes(b'{"type": "ping", "id": "b"}')
        assert until(ws, lambda m: m["type"] == "pong")["id"] == "b"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12)
FIELDS = ["opponent", "length", "games", "seat", "mother_pin", "prime_limits", "prime_in_opponent_start"]
request_like = st.dictionaries(
    st.sampled_from(FIELDS) | st.text(max_size=8),
    json_values | st.sampled_from(["friend", "beginner", "white", "black", "random", "portes", "fevga,plakoto",
                                   "double", "single", "none", 1, 3, 25, True, False]),
    max_size=5)


@pytest.fixture(scope="module")
def fuzz_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("bodies") / "tavli.db"
    with TestClient(create_app(f"sqlite:///{db}", matches_per_minute=10**6)) as c:
        yield c


@given(st.one_of(request_like.map(lambda b: json.dumps(b).encode()), json_values.map(lambda v: json.dumps(v).encode()),
                 st.binary(max_size=300), st.text(max_size=300).map(lambda t: t.encode("utf-8", "surrogatepass"))))
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_random_bodies_never_get_a_5xx(fuzz_client: TestClient, content: bytes) -> None:
    answer = fuzz_client.post("/api/matches", content=content)
    assert answer.status_code == 201 or 400 <= answer.status_code < 500, (content, answer.text)
    if answer.status_code != 201:
        error = answer.json()["error"]
        assert error and "\n" not in error
        assert error != "the request is malformed", content  # the last resort: each field says what is wrong


@given(st.text(min_size=1, max_size=60))
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_random_match_ids_never_get_a_5xx(fuzz_client: TestClient, match_id: str) -> None:
    from urllib.parse import quote

    answer = fuzz_client.get(f"/api/matches/{quote(match_id, safe='')}/dice")
    assert answer.status_code == 404, (match_id, answer.text)


def test_a_matchs_last_action_reaches_its_players_before_the_work_of_its_end(client: TestClient) -> None:
    """The service tells the hub first (``tavli.server.app.make_context``): the action that ends a
    rated match reaches both players while its result, rating and review wait (here, until the
    test lets them go on); then they are sent how the ratings moved."""
    context = context_of(client.app)  # type: ignore[arg-type]
    go_on, waited_out = asyncio.Event(), []
    keep = context.results.record

    async def held(live: Any, now: float | None = None) -> None:
        try:
            await asyncio.wait_for(go_on.wait(), 60.0)
        except TimeoutError:  # the players were not told meanwhile: the test fails, and ends
            waited_out.append(live.row.id)
        await keep(live, now)

    context.results.record = held  # type: ignore[method-assign]
    eleni, nikos = sign_up(client, "Eleni"), sign_up(client, "Nikos")
    with as_player(client, eleni):
        links = new_match(client, opponent="friend", rated=True, seat="white", length=1, games="portes",
                          clock="none")
    with ExitStack() as stack:
        with as_player(client, eleni):
            white = stack.enter_context(client.websocket_connect(f"/ws/{links['match']}"))
        with as_player(client, nikos):
            black = stack.enter_context(client.websocket_connect(f"/ws/{links['match']}"))
        state, _ = hello_both(white, links["token"], black, token_of(links["friend"]))
        white.send_json({"type": "resign", "seq": state["seq"], "match": True})
        last = [until(ws, lambda m: is_state(m) and m["over"]) for ws in (white, black)]
        assert not waited_out, "the match's end reached its players only once its result was kept"
        assert all(end["seq"] == state["seq"] + 1 and end["ratings"] is None for end in last)
        assert client.portal is not None
        client.portal.call(go_on.set)
        for ws in (white, black):
            rated = until(ws, lambda m: is_state(m) and m["ratings"] is not None)
            # decided before both made a play of their own: rated, and no rating moved
            assert rated["seq"] == state["seq"] + 1 and rated["ratings"] == {"pool": "portes", "rated": False,
                                                                             "why": "early"}
