"""A real ``tavli serve`` process for the end-to-end tests."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

Message = dict[str, Any]


class Server:
    """One ``tavli serve`` process on a free port."""

    def __init__(self, db: Path | str, port: int = 0, claim_after: float = 120.0,
                 options: tuple[str, ...] = ()) -> None:
        """``db``: a SQLite file, or a database URL."""
        self.db = db
        url = db if isinstance(db, str) else f"sqlite:///{db}"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tavli.cli", "serve", "--port", str(port), "--bot-delay", "0",
             "--claim-after", str(claim_after), "--database", url, *options],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert found, f"no address in {line!r}: {self.process.stderr.read() if self.process.stderr else ''}"
        self.port = int(found.group(1))
        self.url = f"http://127.0.0.1:{self.port}"

    def post(self, path: str, body: Message, headers: dict[str, str] | None = None) -> Message:
        request = urllib.request.Request(self.url + path, json.dumps(body).encode(),
                                         {"Content-Type": "application/json", **(headers or {})})
        with urllib.request.urlopen(request, timeout=60) as answer:
            return dict(json.load(answer))

    def sign_up(self, name: str, password: str = "a long password") -> str:
        """A new account on this server: its session cookie (``name=value``), for requests and sockets."""
        request = urllib.request.Request(self.url + "/api/accounts", json.dumps({"name": name, "password": password})
                                         .encode(), {"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as answer:
            return str(answer.headers["Set-Cookie"].split(";", 1)[0])

    def socket(self, match_id: str, headers: dict[str, str] | None = None) -> ClientConnection:
        return connect(self.url.replace("http", "ws") + f"/ws/{match_id}", open_timeout=60,
                       additional_headers=headers)

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.process.poll() is None:
            self.process.send_signal(sig)
            self.process.wait(timeout=30)


def resign_the_match(ws: ClientConnection, state: Message) -> Message:
    """Resign the whole match on ``ws`` (a seat's socket) at the newest action its player has heard
    of, ``state``'s; the state that ends the match. The match may have moved on unheard (a
    player's joining starts it): the refusal as stale comes with the newer state, and he resigns
    again at that one."""
    ws.send(json.dumps({"type": "resign", "seq": state["seq"], "match": True}))
    while not state.get("over"):
        message = json.loads(ws.recv(timeout=30))
        if message["type"] == "state":
            state = message
        elif message["type"] == "error":
            assert message["code"] == "stale", message
            state = json.loads(ws.recv(timeout=30))  # the newest state comes with the refusal
            ws.send(json.dumps({"type": "resign", "seq": state["seq"], "match": True}))
    return state


@contextmanager
def seat_by_session(server: Server, match_id: str, cookie: str) -> Iterator[tuple[ClientConnection, Message]]:
    """The player of ``cookie`` (his session cookie) at his board of ``match_id``, his seat taken by
    his session alone (a hello without a token): its socket and first state."""
    with server.socket(match_id, {"Cookie": cookie}) as ws:
        ws.send(json.dumps({"type": "hello"}))
        while (state := json.loads(ws.recv(timeout=60)))["type"] != "state":
            assert state["type"] != "error", state
        yield ws, state


def resign_by_session(server: Server, match_id: str, cookie: str) -> Message:
    """The player of ``cookie`` resigns the whole match ``match_id`` at his board (``seat_by_session``):
    the state that ends it."""
    with seat_by_session(server, match_id, cookie) as (ws, state):
        return resign_the_match(ws, state)


def children(pid: int) -> set[int]:
    """The worker processes of the server ``pid`` (its spawned children, not multiprocessing's
    resource tracker)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                command = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if int(fields[1]) == pid and b"spawn_main" in command:
                found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    """Whether process ``pid`` is running (not gone, nor a zombie waiting to be reaped)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False
