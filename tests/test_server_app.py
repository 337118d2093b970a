"""The web app through its HTTP API and WebSocket protocol, with Starlette's test client."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from tavli.fairdice import check_game, dice_of_rolls
from tavli.server.app import create_app

Message = dict[str, Any]


def make_client(db: Path, **options: Any) -> TestClient:
    options.setdefault("messages_per_second", 10_000)
    options.setdefault("message_burst", 10_000)
    return TestClient(create_app(f"sqlite:///{db}", **options))


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "tavli.db"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with make_client(db) as c:
        yield c


def new_match(client: TestClient, **body: Any) -> Message:
    answer = client.post("/api/matches", json=body)
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def token_of(link: str) -> str:
    return link.split("#t=", 1)[1]


def until(ws: Any, done: Callable[[Message], bool], limit: int = 200) -> Message:
    """Read messages until one satisfies ``done``."""
    for _ in range(limit):
        msg = dict(ws.receive_json())
        if done(msg):
            return msg
    raise AssertionError("the expected message never came")


def hello(ws: Any, token: str, steps: bool = False) -> Message:
    ws.send_json({"type": "hello", "token": token, "steps": steps})
    return until(ws, lambda m: m["type"] in ("state", "error"))


def is_state(m: Message) -> bool:
    return bool(m["type"] == "state")


def test_pages_levels_and_health(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"ok": True}
    levels = client.get("/api/levels").json()
    assert [lv["name"] for lv in levels["levels"]][-1] == "champion" and levels["default"] == "expert"
    assert client.get("/api/matches/nope/dice").status_code == 404


@pytest.mark.parametrize(("body", "words"), [
    ({"length": 0}, "length"),
    ({"length": "5"}, "length"),
    ({"games": "chess"}, "unknown game"),
    ({"opponent": "grandmaster"}, "opponent"),
    ({"seat": "red"}, "seat"),
    ({"mother_pin": "sometimes"}, "mother"),
    ({"prime_limits": "yes"}, "prime_limits"),
    ({"colour": "white"}, "unknown field"),
])
def test_bad_match_requests_get_one_line(client: TestClient, body: Message, words: str) -> None:
    answer = client.post("/api/matches", json=body)
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert words in error and "\n" not in error


def test_non_json_and_oversized_requests(client: TestClient) -> None:
    assert client.post("/api/matches", content=b"{nope").json() == {"error": "the request is not JSON"}
    assert client.post("/api/matches", content=b"[1]").status_code == 400
    assert client.post("/api/matches", content=b" " * 5000).status_code == 413
    assert "too large" in client.post("/api/matches", content=b"x" * 10**6).json()["error"]


def test_new_matches_are_rate_limited(db: Path) -> None:
    with make_client(db, matches_per_minute=3) as c:
        codes = [c.post("/api/matches", json={"opponent": "friend"}).status_code for _ in range(5)]
    assert codes == [201, 201, 201, 429, 429]


def test_friend_match_links_and_roles(client: TestClient) -> None:
    links = new_match(client, opponent="friend", length=3, games="portes", seat="black")
    assert links["seat"] == "black" and links["friend"] and links["watch"]
    mid = links["match"]
    with client.websocket_connect(f"/ws/{mid}") as black, client.websocket_connect(f"/ws/{mid}") as white, \
            client.websocket_connect(f"/ws/{mid}") as watcher:
        b = hello(black, links["token"])
        w = hello(white, token_of(links["friend"]))
        s = hello(watcher, token_of(links["watch"]))
        assert (b["you"], w["you"], s["you"]) == ("black", "white", "spectator")
        assert b["seq"] == 0 and b["players"]["white"]["kind"] == "human"
        mover, waiter = (white, black) if w["can_roll"] else (black, white)
        assert w["can_roll"] != b["can_roll"] and not s["can_roll"]
        # the side not on turn cannot roll, a spectator cannot act
        waiter.send_json({"type": "roll", "seq": 0, "id": 7})
        assert until(waiter, lambda m: m["type"] == "error") == {
            "type": "error", "code": "not-your-turn", "message": "it is your opponent's turn", "id": 7}
        watcher.send_json({"type": "roll", "seq": 0})
        assert until(watcher, lambda m: m["type"] == "error")["code"] == "spectator"
        mover.send_json({"type": "roll", "seq": 0})
        rolled = until(mover, lambda m: is_state(m) and m["seq"] == 1)
        assert rolled["can_play"] and rolled["legal"]["plays"] and "orders" not in rolled["legal"]
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
    links = new_match(client, opponent="friend", games="portes")
    mid = links["match"]
    with client.websocket_connect(f"/ws/{mid}") as a, client.websocket_connect(f"/ws/{mid}") as b:
        sa, _sb = hello(a, links["token"]), hello(b, token_of(links["friend"]))
        mover = a if sa["can_roll"] else b
        mover.send_json({"type": "roll", "seq": 0})
        rolled = until(mover, lambda m: is_state(m) and m["seq"] == 1)
        for text in ("13/1", "garbage", ""):
            mover.send_json({"type": "play", "seq": 1, "play": text})
            error = until(mover, lambda m: m["type"] == "error")
            assert error["code"] == "illegal" and error["message"]
            state = until(mover, is_state)
            assert state["seq"] == 1 and state["game"]["position"] == rolled["game"]["position"]


def test_a_whole_match_against_a_bot_with_checkable_dice(client: TestClient) -> None:
    links = new_match(client, opponent="advanced", length=1, games="plakoto", seat="white")
    mid = links["match"]
    with client.websocket_connect(f"/ws/{mid}") as ws:
        state = hello(ws, links["token"], steps=True)
        assert state["players"]["black"] == {"kind": "bot", "level": "advanced", "connected": True}
        while not state["over"]:
            if state["can_roll"]:
                ws.send_json({"type": "roll", "seq": state["seq"]})
            elif state["can_play"]:
                orders = state["legal"]["orders"]
                assert {o["play"] for o in orders} == set(range(len(state["legal"]["plays"])))
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
            sa, sb = hello(a, links["token"]), hello(b, token_of(links["friend"]))
            until(a, lambda m: is_state(m) and m["players"][sb["you"]]["connected"])
            take_turns({sa["you"]: a, sb["you"]: b}, {sa["you"]: sa, sb["you"]: sb}, 7)
        with c.websocket_connect(f"/ws/{mid}") as w:
            before = hello(w, token_of(links["watch"]))
    with make_client(db) as c2, c2.websocket_connect(f"/ws/{mid}") as w:
        after = hello(w, token_of(links["watch"]))
    assert before["seq"] >= 7
    for key in ("seq", "game", "score", "dice", "turn", "games"):
        assert after[key] == before[key], key


def test_claiming_an_absent_opponent(db: Path) -> None:
    with make_client(db, claim_after=0.0) as c:
        links = new_match(c, opponent="friend", length=2, games="portes")
        mid = links["match"]
        with c.websocket_connect(f"/ws/{mid}") as a:
            state = hello(a, links["token"])
            me = state["you"]
            if state["can_roll"]:  # make it the opponent's turn first
                a.send_json({"type": "roll", "seq": 0})
                state = until(a, lambda m: is_state(m) and m["seq"] >= 1 and (m["can_play"] or m["turn"] != me))
                if state["can_play"]:
                    a.send_json({"type": "play", "seq": state["seq"], "play": state["legal"]["plays"][0]})
                    state = until(a, lambda m: is_state(m) and m["turn"] != me)
            assert state["turn"] != me and state["can_claim"] and state["claim_at"] is not None
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
