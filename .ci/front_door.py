"""The README's first command, proved on a plain install: ``tavli serve`` from a venv with no extras.

Usage: ``python .ci/front_door.py VENV``. Starts ``VENV/bin/tavli serve`` on a free port and an
empty SQLite database, fetches ``/``, every file of the pages and ``/healthz``, creates a match over
the API, opens its WebSocket and says hello, resigns that match from ``tavli join``, then stops the
server. Then plays a short bot match with ``tavli play`` in Greek (its words are package data too).
Any failure (a missing runtime dependency among them) exits non-zero with the server's own output.
Needs only the standard library and ``websockets`` on the Python that runs it.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from websockets.sync.client import connect

STATIC = Path(__file__).resolve().parent.parent / "tavli" / "server" / "static"
"""The pages' files in the source tree: each must come from the plain install too."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main(venv: Path) -> None:
    workdir = Path(tempfile.mkdtemp(prefix="tavli-front-door-"))
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([str(venv / "bin" / "tavli"), "serve", "--port", str(port)], cwd=workdir,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    output: list[str] = []
    ready = threading.Event()

    def read() -> None:
        assert server.stdout is not None
        for line in server.stdout:
            output.append(line)
            print("  serve:", line, end="", flush=True)
            if line.startswith("Tavli is running at"):
                ready.set()

    threading.Thread(target=read, daemon=True).start()
    try:
        deadline = time.monotonic() + 600
        while not ready.wait(1.0):
            if server.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"front door: tavli serve did not start (exit {server.poll()})")
        with urllib.request.urlopen(url + "/", timeout=30) as page:
            assert page.status == 200 and b"<html" in page.read().lower(), "/ is not the start page"
        # every file of the pages, from the install (a file the package data leaves out breaks a page)
        for name in ["reasons.js", *sorted(p.name for p in STATIC.iterdir() if p.is_file())]:
            with urllib.request.urlopen(f"{url}/static/{name}", timeout=30) as static:
                assert static.status == 200 and static.read(), f"/static/{name} is missing from the install"
        with urllib.request.urlopen(url + "/healthz", timeout=30) as health:
            assert json.load(health) == {"ok": True}, "/healthz is not ok"
        request = urllib.request.Request(url + "/api/matches", json.dumps({"opponent": "beginner"}).encode(),
                                         {"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as answer:
            assert answer.status == 201
            links = json.load(answer)
        with connect(f"ws://127.0.0.1:{port}/ws/{links['match']}", open_timeout=30) as ws:
            ws.send(json.dumps({"type": "hello", "token": links["token"]}))
            state = json.loads(ws.recv(timeout=30))
            assert state["type"] == "state" and state["you"] == links["seat"], state
        joined = subprocess.run([str(venv / "bin" / "tavli"), "join", url + links["play"], "--lang", "en"],
                                input="resign match\ny\n", capture_output=True, text=True, encoding="utf-8",
                                timeout=300, env=dict(os.environ, COLUMNS="100", PYTHONIOENCODING="utf-8"))
        assert joined.returncode == 0 and "wins the match" in joined.stdout, joined.stdout + joined.stderr
        print(f"front door: {venv}/bin/tavli serve answered /, /static/*, /healthz, POST /api/matches "
              "and the WebSocket; tavli join played the match from the terminal")
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        shutil.rmtree(workdir, ignore_errors=True)
    terminal = subprocess.run([str(venv / "bin" / "tavli"), "play", "--white", "heuristic", "--black", "random",
                               "--length", "1", "--games", "portes", "--seed", "1", "--lang", "el"],
                              capture_output=True, text=True, encoding="utf-8", timeout=600,
                              env=dict(os.environ, COLUMNS="100", PYTHONIOENCODING="utf-8",
                                       XDG_CONFIG_HOME=tempfile.mkdtemp(prefix="tavli-front-door-config-")))
    if terminal.returncode != 0 or "κερδίζουν τον αγώνα" not in terminal.stdout or \
            "Ο αγώνας αποθηκεύτηκε στο" not in terminal.stdout:
        raise SystemExit(f"front door: tavli play --lang el failed:\n{terminal.stdout}{terminal.stderr}")
    print(f"front door: {venv}/bin/tavli play --lang el played a match to its end")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
