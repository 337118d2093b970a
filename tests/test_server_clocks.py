"""Café clocks (tavli.server.play.clocks): presets and custom clocks checked, the clocks started once
both players have come, charged by the server, a flag fall ending the match on time (in the
record, the .mat export and the ratings), and a clock right after ``kill -9`` (once, or twice in
one turn: no outage charged)."""

from __future__ import annotations

import asyncio
import json
import signal
import time
from pathlib import Path
from typing import Any

import pytest
from app_client import Message, hello, make_client, new_match, token_of, until
from starlette.testclient import TestClient

from tavli.formats.mat import export_mat
from tavli.formats.record import loads
from tavli.server.play.clocks import Clock, ClockSettings, clock_settings
from tavli.server.play.replay import Replays
from tavli.server.routes.context import context_of
from tavli.server.storage.store import Store


def test_clocks_are_presets_or_checked_numbers() -> None:
    assert clock_settings("kafeneio") == {"delay": 8.0, "reserve": 60.0}
    assert clock_settings({"delay": 0, "reserve": 1}) == {"delay": 0.0, "reserve": 1.0}
    assert clock_settings("none") is None and clock_settings(None) is None
    for bad in ({"delay": 0, "reserve": 0}, {"delay": -1, "reserve": 60}, {"delay": 8, "reserve": 365 * 86400},
                {"delay": 61, "reserve": 60}, {"delay": True, "reserve": 60}, {"delay": float("nan"), "reserve": 60},
                {"delay": 8}, {"delay": "8", "reserve": 60}, "forever", 5, [8, 60]):
        with pytest.raises(ValueError):
            clock_settings(bad)


def test_bad_clocks_get_a_one_line_400(client: TestClient) -> None:
    for bad in ({"delay": 0, "reserve": 0}, {"delay": -5, "reserve": 60}, {"delay": 8, "reserve": 31536000},
                "hourglass", {"delay": 8, "reserve": 60, "extra": 1}):
        answer = client.post("/api/matches", json={"opponent": "friend", "clock": bad})
        assert answer.status_code == 400 and "\n" not in answer.json()["error"], bad
        assert "clock" in answer.json()["error"]


def test_a_turn_is_charged_beyond_its_delay_and_a_forced_one_not_at_all() -> None:
    clock = Clock.start(ClockSettings(8, 60), length=5, running="white", at=0.0)
    assert clock.left == {"white": 300.0, "black": 300.0}
    assert clock.charge("white", at=5.0, forced=False) == 0.0  # inside the delay: nothing
    clock.run("black", 5.0)
    assert clock.charge("black", at=125.0, forced=True) == 0.0  # a forced turn costs nothing
    clock.run("white", 125.0)
    assert clock.left_now("white", 140.0) == 293.0 and clock.runs_out_at() == 125.0 + 8 + 300
    clock.resume([(130.0, 150.0)])  # 20 s of no server: not charged
    assert clock.left_now("white", 160.0) == 293.0


def test_a_turn_is_charged_for_none_of_the_outages_within_it() -> None:
    clock = Clock.start(ClockSettings(0, 60), length=1, running="white", at=100.0)
    # one before the turn, one across its start, two that overlap (servers that came up together
    # each stored it), and one more: the turn's 10 + 20 + 5 s without a server, each counted once
    clock.resume([(50.0, 60.0), (90.0, 110.0), (130.0, 140.0), (135.0, 150.0), (170.0, 175.0)])
    assert clock.uncharged == 35.0
    assert clock.left_now("white", 180.0) == 60 - (80 - 35) and clock.runs_out_at() == 100 + 35 + 60


def test_a_replay_after_two_restarts_in_one_turn_charges_neither_outage(db: Path) -> None:
    # the heartbeats and starts at injected times from t, 1000 s after the turn began (well after
    # the app's own last beat): the last beat before each outage, and the start after it
    with make_client(db) as client:
        links = new_match(client, opponent="friend", length=1, games="portes", clock={"delay": 5, "reserve": 1800})
        mid = links["match"]
        with client.websocket_connect(f"/ws/{mid}") as a, client.websocket_connect(f"/ws/{mid}") as b:
            hello(a, links["token"])
            state = hello(b, token_of(links["friend"]))
            if not state["clock"]["started"]:
                until(b, lambda m: m["type"] == "state" and m["clock"]["started"])

    async def restarted() -> Clock | None:
        store = Store(f"sqlite:///{db}")
        try:
            first = await Replays(store).load(mid)
            assert first is not None and first.clock is not None and first.clock.running is not None
            t = first.clock.since + 1000
            await store.beat(t)
            assert await store.come_up(t + 20) == (t, t + 20)  # 20 s with no server
            await store.beat(t + 40)
            assert await store.come_up(t + 40.2) is None  # another process was beating: no outage
            await store.beat(t + 50)
            assert await store.come_up(t + 65) == (t + 50, t + 65)  # 15 s more
            again = await Replays(store).load(mid)
            return None if again is None else again.clock
        finally:
            await store.close()
    clock = asyncio.run(restarted())
    assert clock is not None and clock.running is not None
    t = clock.since + 1000
    assert clock.uncharged == 35.0
    # charged only the 1065 s a server ran, less the delay
    assert clock.left_now(clock.running, t + 100) == 1800 - (1100 - 35 - 5)
    assert clock.runs_out_at() == clock.since + 35 + 5 + 1800


def test_friend_matches_have_the_cafe_clock_bots_none(client: TestClient) -> None:
    friend = new_match(client, opponent="friend")
    bot = new_match(client, opponent="beginner")
    with client.websocket_connect(f"/ws/{friend['match']}") as ws:
        state = hello(ws, friend["token"])
        assert state["settings"]["clock"] == {"delay": 8.0, "reserve": 60.0}
        assert state["clock"]["started"] is False and state["clock"]["running"] is None  # the friend is not here
        assert state["clock"]["white"] == state["clock"]["black"] == 5 * 60_000
    with client.websocket_connect(f"/ws/{bot['match']}") as ws:
        assert hello(ws, bot["token"])["clock"] is None


@pytest.mark.slow
def test_a_player_who_stops_loses_on_time(client: TestClient) -> None:
    links = new_match(client, opponent="friend", length=3, games="portes", seat="white",
                      clock={"delay": 0, "reserve": 1})
    mid = links["match"]
    with client.websocket_connect(f"/ws/{mid}") as white, client.websocket_connect(f"/ws/{mid}") as black:
        hello(white, links["token"])
        started = hello(black, token_of(links["friend"]))
        started = until(black, lambda m: m["type"] == "state" and m["clock"]["started"]) \
            if not started["clock"]["started"] else started
        mover = started["clock"]["running"]
        assert mover == started["turn"] and started["clock"][mover] <= 3000
        ws = white if mover == "white" else black
        over = until(ws, lambda m: m["type"] == "state" and m["over"])  # 3 s of reserve, nothing done
        assert over["winner"] != mover and over["score"][over["winner"]] == 3
        assert over["games"][-1]["result"]["reason"] == "lost on time"
        assert over["clock"][mover] == 0 and over["clock"]["running"] is None
        ws.send_json({"type": "roll", "seq": over["seq"]})  # too late
        refused = until(ws, lambda m: m["type"] == "error")
        assert refused["code"] == "time" and refused["message"] == "your time ran out: you lost the match on time"
    record = loads(client.get(f"/api/matches/{mid}/record").content)
    record.check()  # the record replays, its last game lost on time
    assert record.games[-1].end is not None and record.games[-1].end.reason == "lost on time"
    assert "Wins 3 point" in export_mat(record)  # GNU Backgammon reads it as a resignation


@pytest.mark.slow
def test_the_clocks_start_when_both_have_come_and_run_for_the_mover(client: TestClient) -> None:
    links = new_match(client, opponent="friend", length=1, games="fevga", clock={"delay": 1, "reserve": 30})
    mid = links["match"]
    with client.websocket_connect(f"/ws/{mid}") as a:
        alone = hello(a, links["token"])
        time.sleep(1.5)  # waiting for the friend costs nothing
        with client.websocket_connect(f"/ws/{mid}") as b:
            hello(b, token_of(links["friend"]))
            state = until(a, lambda m: m["type"] == "state" and m["clock"]["started"])
            assert alone["clock"]["white"] == state["clock"]["white"] == 30_000
            me = state["you"]
            if state["turn"] == me:
                time.sleep(1.6)  # 1 s of delay, then the reserve
                a.send_json({"type": "roll", "seq": state["seq"]})
                rolled = until(a, lambda m: m["type"] == "state" and m["seq"] > state["seq"])
                assert 28_000 <= rolled["clock"][me] <= 29_700 and rolled["clock"]["delay_left"] == 0


def test_the_servers_own_work_is_not_the_players_time(client: TestClient) -> None:
    # the state that begins a turn goes out once the action before it is stored: a slow store
    # (0.6 s here) is the server's time, and the next turn's time starts after it
    store = context_of(client.app).service.store  # type: ignore[arg-type]
    quick = store.append_actions

    async def slow(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0.6)
        return await quick(*args, **kwargs)

    links = new_match(client, opponent="friend", length=1, games="portes", clock={"delay": 10, "reserve": 60})
    mid = links["match"]
    with client.websocket_connect(f"/ws/{mid}") as a, client.websocket_connect(f"/ws/{mid}") as b:
        first = hello(a, links["token"]), hello(b, token_of(links["friend"]))
        states = [m if m["clock"]["started"] else until(ws, lambda m: m["type"] == "state" and m["clock"]["started"])
                  for ws, m in zip((a, b), first, strict=True)]
        k = 0 if states[0]["turn"] == states[0]["you"] else 1
        mover, other = (a, b)[k], (a, b)[1 - k]
        mover.send_json({"type": "roll", "seq": states[k]["seq"]})
        state = until(mover, lambda m: m["type"] == "state" and m["can_play"])
        store.append_actions = slow  # type: ignore[method-assign]
        try:
            mover.send_json({"type": "play", "seq": state["seq"], "play": state["legal"]["plays"][0]})
            turn = until(other, lambda m: m["type"] == "state" and m["can_roll"])
            other.send_json({"type": "roll", "seq": turn["seq"]})
            rolled = until(other, lambda m: m["type"] == "state" and m["seq"] > turn["seq"])
        finally:
            store.append_actions = quick  # type: ignore[method-assign]
        counted = rolled["clock"]["delay"] - rolled["clock"]["delay_left"]
        assert counted < 400, counted  # not the 0.6 s of storing the play (nor the 0.6 s of storing the roll)


def served_clock(server: Any, match_id: str, token: str) -> Message:
    with server.socket(match_id) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        while True:
            message = json.loads(ws.recv(timeout=30))
            if message["type"] == "state":
                return dict(message)


@pytest.mark.slow
def test_a_clock_goes_on_after_kill_9_without_charging_the_time_no_server_ran(tmp_path: Path) -> None:
    from serve_process import Server

    db = tmp_path / "tavli.db"
    server = Server(db)
    try:
        links = server.post("/api/matches", {"opponent": "friend", "length": 1, "games": "portes",
                                             "clock": {"delay": 0, "reserve": 60}})
        mid, friend = links["match"], token_of(links["friend"])
        with server.socket(mid) as a, server.socket(mid) as b:
            a.send(json.dumps({"type": "hello", "token": links["token"]}))
            b.send(json.dumps({"type": "hello", "token": friend}))
            state: Message = {"clock": {"started": False}}
            while not state["clock"]["started"]:
                state = json.loads(a.recv(timeout=30))
                state = state if state["type"] == "state" else {"clock": {"started": False}}
        at_start, seen_at = state["clock"], time.time()
        time.sleep(2.0)  # 2 s run before the kill
        killed_at = time.time()
    finally:
        server.stop(signal.SIGKILL)
    time.sleep(3.0)  # 3 s with no server: not charged
    again = Server(db)
    try:
        after = served_clock(again, mid, links["watch"].split("#t=", 1)[1])
        restarted_at = time.time()
    finally:
        again.stop()
    mover = at_start["running"]
    expected = at_start[mover] - 1000 * (killed_at - seen_at) - 1000 * (time.time() - restarted_at)
    assert after["clock"]["running"] == mover
    assert abs(after["clock"][mover] - expected) <= 500, (after["clock"], expected)
    other = "black" if mover == "white" else "white"
    assert after["clock"][other] == at_start[other] == 60_000


@pytest.mark.slow
def test_two_kill_9_restarts_in_one_turn_charge_neither_outage(tmp_path: Path) -> None:
    # the turn is charged only the time a server ran: at most from before the clocks started to
    # the first kill, from the second server's address line (it starts serving after it) to the
    # second kill, and from the third's to the clock it sends; at least from the state that
    # started the clocks to the first kill, and from the second server's first answer to the second
    from serve_process import Server

    db = tmp_path / "tavli.db"
    server = Server(db)
    launched = time.time()
    try:
        links = server.post("/api/matches", {"opponent": "friend", "length": 1, "games": "portes",
                                             "clock": {"delay": 0, "reserve": 300}})
        # each outage long beside a server's start, however slow the machine: a charged outage
        # then shows above the uncertainty of when the next server began to serve
        outage = 3.0 + 2 * (time.time() - launched)
        mid, friend, watch = links["match"], token_of(links["friend"]), token_of(links["watch"])
        began = time.time()
        with server.socket(mid) as a, server.socket(mid) as b:
            a.send(json.dumps({"type": "hello", "token": links["token"]}))
            b.send(json.dumps({"type": "hello", "token": friend}))
            state: Message = {"clock": {"started": False}}
            while not state["clock"]["started"]:
                state = json.loads(a.recv(timeout=30))
                state = state if state["type"] == "state" else {"clock": {"started": False}}
        at_start, seen_at = state["clock"], time.time()
        time.sleep(1.0)
        killed = time.time()
    finally:
        server.stop(signal.SIGKILL)
    most, least = killed - began, killed - seen_at
    for restart in (1, 2):
        time.sleep(outage)  # no server, twice: neither charged
        again = Server(db)
        launched = time.time()
        try:
            after = served_clock(again, mid, watch)
            ready = time.time()
            if restart == 1:
                time.sleep(1.0)
                killed = time.time()
                most, least = most + killed - launched, least + killed - ready
            else:
                most += ready - launched
        finally:
            again.stop(signal.SIGKILL if restart == 1 else signal.SIGTERM)
    mover = at_start["running"]
    assert after["clock"]["running"] == mover
    charged = (at_start[mover] - after["clock"][mover]) / 1000
    # the tolerance: a heartbeat (0.1 s) lost at each kill, and the milliseconds of the replays
    assert least - 1.0 <= charged <= most + 0.5, (charged, least, most, outage)


@pytest.mark.slow
def test_a_rated_match_lost_on_time_counts_as_a_loss(client: TestClient) -> None:
    def sign_up(name: str) -> str:
        client.cookies.clear()
        answer = client.post("/api/accounts", json={"name": name, "password": "a long password"})
        return str(answer.cookies["tavli_session"])
    eleni, nikos = sign_up("Eleni"), sign_up("Nikos")
    client.cookies.clear()
    client.cookies.set("tavli_session", eleni)
    links = new_match(client, opponent="friend", rated=True, length=1, games="plakoto",
                      clock={"delay": 0, "reserve": 1})
    mid = links["match"]
    with client.websocket_connect(f"/ws/{mid}") as a:
        hello(a, links["token"])
        client.cookies.clear()
        client.cookies.set("tavli_session", nikos)
        with client.websocket_connect(f"/ws/{mid}") as b:
            hello(b, token_of(links["friend"]))
            over = until(b, lambda m: m["type"] == "state" and m["over"])
    loser = "Eleni" if over["winner"] == "black" else "Nikos"
    page = client.get(f"/api/players/{loser}").json()
    assert page["matches"][0]["ending"] == "time" and page["matches"][0]["result"] == "lost"
    # lost before either side chose a play: a loss, not rated (docs/ratings.md, "Farming")
    assert page["ratings"] == {} and not page["matches"][0]["rated"]
    assert (page["lost_on_time"], page["lost_by_leaving"]) == (1, 0)  # his page counts it


def test_outages_no_running_turn_can_span_are_pruned(tmp_path: Path) -> None:
    """The outages table keeps what a turn in play may still span, and no more."""
    async def stored() -> list[list[tuple[float, float]]]:
        store = Store(f"sqlite:///{tmp_path / 'outages.db'}")
        try:
            await store.create_tables()
            seen = []
            await store.beat(100.0)
            assert await store.come_up(110.0) == (100.0, 110.0)
            await store.beat(120.0)
            assert await store.come_up(130.0) == (120.0, 130.0)
            seen.append(await store.outages_since(0.0))  # no match in play: only the last is kept
            await store.create_with_hashes("m1", {}, "w", "b", {"h": "white"}, created=125.0)  # a turn begun at 125 s
            await store.beat(140.0)
            await store.come_up(150.0)
            await store.beat(160.0)
            await store.come_up(170.0)
            seen.append(await store.outages_since(0.0))  # those since 125 s stay, for the match in play
            return seen
        finally:
            await store.close()
    alone, kept = asyncio.run(stored())
    assert alone == [(120.0, 130.0)]
    assert kept == [(120.0, 130.0), (140.0, 150.0), (160.0, 170.0)]
