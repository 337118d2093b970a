"""Several server processes on one PostgreSQL database (tavli/server/workers.py, docs/deploy.md).

They need ``TAVLI_TEST_POSTGRES=postgresql://user:password@host/db`` (``.ci/run`` sets it).
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from conftest import run_tavli
from serve_process import Server, alive, children
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

pytestmark = [pytest.mark.postgres, pytest.mark.skipif(not os.environ.get("TAVLI_TEST_POSTGRES"),
                                                      reason="set TAVLI_TEST_POSTGRES to a PostgreSQL database")]

Message = dict[str, Any]


@pytest.fixture
def postgres() -> str:
    return os.environ["TAVLI_TEST_POSTGRES"]


@pytest.fixture
def servers() -> Iterator[list[Server]]:
    started: list[Server] = []
    yield started
    for server in started:
        server.stop(signal.SIGTERM)


def receive(ws: ClientConnection, done: Callable[[Message], bool], timeout: float = 60) -> Message:
    for _ in range(500):
        msg = json.loads(ws.recv(timeout=timeout))
        assert msg["type"] != "error" or msg["code"] == "rate-limited", msg
        if done(msg):
            return dict(msg)
    raise AssertionError("the expected message never came")


def hello(ws: ClientConnection, token: str) -> Message:
    ws.send(json.dumps({"type": "hello", "token": token}))
    return receive(ws, lambda m: m["type"] == "state")


def state_after(seq: int, *, to_act: bool = False) -> Callable[[Message], bool]:
    """A state later than action ``seq`` (and, with ``to_act``, one where the seat must act or that ends the match)."""
    return lambda m: m["type"] == "state" and m["seq"] > seq and (
        not to_act or m["can_roll"] or m["can_play"] or m["over"])


def act(ws: ClientConnection, state: Message, *, to_act: bool = False) -> Message:
    """Roll or make the last legal play; the state after it (a client this fast meets the rate
    limit: it waits and sends again, as the error asks)."""
    if state["can_roll"]:
        message = json.dumps({"type": "roll", "seq": state["seq"]})
    else:
        message = json.dumps({"type": "play", "seq": state["seq"], "play": state["legal"]["plays"][-1]})
    after = state_after(state["seq"], to_act=to_act)
    while True:
        ws.send(message)
        answer = receive(ws, lambda m: m["type"] == "error" or after(m))
        if answer["type"] == "state":
            return answer
        time.sleep(0.5)


def choose_a_play_each(sockets: dict[str, ClientConnection], latest: dict[str, Message]) -> dict[str, Message]:
    """Play on (``act``) until each seat has made a play that the dice did not force (one of more
    than one), so that a rated match is rated (docs/ratings.md, "Farming"); ``latest``: each
    seat's latest state, as it is after."""
    chose: set[str] = set()
    while True:
        seq = max(state["seq"] for state in latest.values())
        for seat, ws in sockets.items():  # each seat's view of the last action
            if latest[seat]["seq"] < seq:
                latest[seat] = receive(ws, state_after(seq - 1))
        if len(chose) == 2:
            return latest
        mover = latest["white"]["turn"]
        if latest[mover]["can_play"] and len(latest[mover]["legal"]["plays"]) > 1:
            chose.add(mover)
        latest[mover] = act(sockets[mover], latest[mover])


@pytest.mark.slow
def test_a_move_made_on_one_process_is_seen_on_the_other_without_polling(postgres: str,
                                                                         servers: list[Server]) -> None:
    # polling is off: only PostgreSQL's NOTIFY can bring one process's moves to the other
    a = Server(postgres, options=("--poll-seconds", "0"))
    servers.append(a)
    b = Server(postgres, options=("--poll-seconds", "0"))
    servers.append(b)
    links = a.post("/api/matches", {"opponent": "friend", "length": 3, "games": "portes,fevga", "seat": "white"})
    mid = links["match"]
    with ExitStack() as stack:
        # each socket says hello as soon as it opens: the server closes one that waits longer than 5 s
        white = stack.enter_context(a.socket(mid))
        latest = {"white": hello(white, links["token"])}
        black = stack.enter_context(b.socket(mid))
        latest["black"] = hello(black, links["friend"].split("#t=", 1)[1])
        sockets = {"white": white, "black": black}
        # both here: the clocks' start (one action) has been stored, on black's process, and heard
        begun = lambda m: m["type"] == "state" and m["players"]["black"]["connected"] and m["clock"]["started"]  # noqa: E731
        latest["white"] = receive(white, begun)
        latest["black"] = latest["black"] if begun(latest["black"]) else receive(black, begun)
        actions = 0
        in_new_game = 0  # actions of the second game, whose dice come from a seed the other process stored
        # a game of plain plays can run past 300 actions (seen): play on until the second game has
        # gone a few turns, however long the first one takes
        while not latest["white"]["over"] and in_new_game < 6 and actions < 1500:
            mover = latest["white"]["turn"]
            other = "black" if mover == "white" else "white"
            latest[mover] = act(sockets[mover], latest[mover])
            target = latest[mover]["seq"]
            # the other seat, on the other process, sees it too: the same state from its side
            latest[other] = receive(sockets[other], state_after(target - 1))
            assert latest[other]["seq"] == target
            assert latest[other]["game"]["position"] == latest[mover]["game"]["position"]
            actions += 1
            in_new_game += latest[other]["game"]["index"] >= 1
    assert actions > 20
    final = latest["white"]
    assert final["over"] or final["game"]["index"] >= 1, "a new game began: its seed stored by one, read by the other"


@pytest.mark.slow
def test_workers_share_a_port_and_a_killed_worker_loses_no_acknowledged_action(postgres: str,
                                                                               servers: list[Server]) -> None:
    server = Server(postgres, options=("--workers", "2", "--bot-workers", "1"))
    servers.append(server)
    links = server.post("/api/matches", {"opponent": "advanced", "length": 1, "games": "portes", "seat": "white"})
    mid = links["match"]
    with server.socket(mid) as ws:
        worker = int(ws.response.headers["x-tavli-worker"])
        before = children(server.process.pid)
        assert worker in before and len(before) == 2
        state = hello(ws, links["token"])
        for _ in range(6):
            state = act(ws, state, to_act=True)
        acknowledged = state["seq"]
        os.kill(worker, signal.SIGKILL)
        with pytest.raises(ConnectionClosed):
            receive(ws, lambda m: False, timeout=30)
    # the players come back through the same port: the other worker (or the new one) has the match
    for _ in range(100):
        try:
            ws = server.socket(mid)
            break
        except OSError:
            time.sleep(0.1)
    with ws:
        resumed = hello(ws, links["token"])
        assert resumed["seq"] == acknowledged and resumed["game"]["moves"] == state["game"]["moves"]
        state = resumed
        while not state["over"]:
            if not (state["can_roll"] or state["can_play"]):
                state = receive(ws, lambda m: m["type"] == "state" and (m["can_roll"] or m["can_play"] or m["over"]))
                continue
            state = act(ws, state, to_act=True)
    assert state["winner"] in ("white", "black")
    for _ in range(300):  # the supervisor started a worker in place of the killed one
        if len(children(server.process.pid) - {worker}) == 2:
            break
        time.sleep(0.2)
    workers = children(server.process.pid)
    assert worker not in workers and len(workers) == 2


@pytest.mark.slow
def test_workers_stop_when_the_supervisor_is_killed(postgres: str, servers: list[Server]) -> None:
    server = Server(postgres, options=("--workers", "2", "--bot-workers", "1"))
    servers.append(server)
    workers: set[int] = set()
    for _ in range(300):
        workers = children(server.process.pid)
        if len(workers) == 2:
            break
        time.sleep(0.1)
    assert len(workers) == 2
    server.stop(signal.SIGKILL)
    # nobody would start them again, and they would hold the port: they see it and stop
    deadline = time.monotonic() + 30
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not [pid for pid in workers if alive(pid)]


def test_workers_need_postgresql(tmp_path: Path) -> None:
    done = run_tavli("serve", "--workers", "2", "--port", "0", "--database", f"sqlite:///{tmp_path / 'x.db'}",
                     timeout=60)
    assert done.returncode == 2 and "needs PostgreSQL" in done.stderr and len(done.stderr.strip().splitlines()) == 1


@pytest.mark.slow
def test_a_rated_result_is_applied_once_with_the_players_on_two_processes(postgres: str,
                                                                          servers: list[Server]) -> None:
    a = Server(postgres, options=("--poll-seconds", "0"))
    servers.append(a)
    b = Server(postgres, options=("--poll-seconds", "0"))
    servers.append(b)
    suffix = secrets.token_hex(3)  # the database is shared with other runs: names of this test's own
    white, black = a.sign_up(f"w{suffix}"), b.sign_up(f"b{suffix}")  # a session made on one, used on the other
    links = a.post("/api/matches", {"opponent": "friend", "rated": True, "length": 3, "games": "fevga",
                                    "clock": "none"}, headers={"Cookie": white})
    mid = links["match"]
    with a.socket(mid, headers={"Cookie": white}) as on_a, b.socket(mid, headers={"Cookie": black}) as on_b:
        hello(on_a, links["token"])
        state = hello(on_b, links["friend"].split("#t=", 1)[1])
        seen = receive(on_a, lambda m: m["type"] == "state" and m["players"]["black"]["connected"])
        state = choose_a_play_each({"white": on_a, "black": on_b}, {"white": seen, "black": state})["black"]
        on_b.send(json.dumps({"type": "resign", "seq": state["seq"], "match": True}))
        receive(on_a, lambda m: m["type"] == "state" and m["over"])  # both processes have seen the end
        receive(on_b, lambda m: m["type"] == "state" and m["over"])
    # the result is kept once the players have been told, by the process where the match ended
    # (docs/architecture.md, "the life of a play"): each page shows it as soon as it is stored
    for server, name, result in ((b, f"b{suffix}", "lost"), (a, f"w{suffix}", "won")):
        for _ in range(600):
            with urllib.request.urlopen(f"{server.url}/api/players/{name}", timeout=60) as answer:
                profile = json.load(answer)
            if [m["result"] for m in profile["matches"]] != ["playing"]:
                break
            time.sleep(0.1)
        assert [m["result"] for m in profile["matches"]] == [result]
        assert profile["ratings"]["fevga"]["matches"] == 1  # applied once, not once per process


@pytest.mark.slow
def test_an_abort_on_one_process_is_seen_and_kept_on_the_other(postgres: str, servers: list[Server]) -> None:
    a = Server(postgres, options=("--poll-seconds", "0"))
    servers.append(a)
    b = Server(postgres, options=("--poll-seconds", "0"))
    servers.append(b)
    suffix = secrets.token_hex(3)
    white, black = a.sign_up(f"w{suffix}"), b.sign_up(f"b{suffix}")
    links = a.post("/api/matches", {"opponent": "friend", "rated": True, "length": 3, "games": "plakoto"},
                   headers={"Cookie": white})
    mid = links["match"]
    with a.socket(mid, headers={"Cookie": white}) as on_a, b.socket(mid, headers={"Cookie": black}) as on_b:
        hello(on_a, links["token"])
        hello(on_b, links["friend"].split("#t=", 1)[1])
        seen = receive(on_a, lambda m: m["type"] == "state" and m["players"]["black"]["connected"])
        seen = seen if seen["clock"]["started"] else receive(on_a, lambda m: m["type"] == "state"
                                                             and m["clock"]["started"])
        on_a.send(json.dumps({"type": "abort", "seq": seen["seq"]}))
        told = receive(on_b, lambda m: m["type"] == "state" and m["over"])  # heard through NOTIFY
        assert told["aborted"] and told["winner"] is None and told["clock"]["running"] is None
        on_b.send(json.dumps({"type": "roll", "seq": told["seq"]}))
        refused = json.loads(on_b.recv(timeout=30))
        while refused["type"] != "error":  # a state told meanwhile (a presence) may come first
            refused = json.loads(on_b.recv(timeout=30))
        assert refused["code"] == "aborted"
    for server, name in ((a, f"w{suffix}"), (b, f"b{suffix}")):
        with urllib.request.urlopen(f"{server.url}/api/players/{name}", timeout=60) as answer:
            profile = json.load(answer)
        assert [m["result"] for m in profile["matches"]] == ["aborted"] and profile["ratings"] == {}
