"""``tavli serve``: one server process, or several on one port sharing one PostgreSQL database.

With ``workers > 1`` this process binds the port, starts that many worker processes that all
accept connections on it (the kernel shares them out), and starts a worker again if one dies,
even by ``kill -9``: every action is stored before anyone sees it, so a worker's players
reconnect to another and go on. A move stored by one worker reaches the players connected to
the others through PostgreSQL's LISTEN/NOTIFY (``Store.listen``).

>>> ServeOptions("sqlite:///tavli.db").app_options()["database"]
'sqlite:///tavli.db'
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import signal
import socket
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from multiprocessing.process import BaseProcess
from typing import Any

import uvicorn

from tavli.server.app import create_app
from tavli.server.play.parent_watch import watch_parent
from tavli.server.timeouts import header_timeout_protocol

RESTART_PAUSE = 1.0
"""Seconds between restarts of a worker that keeps dying, so that a broken one does not spin."""


@dataclass(frozen=True)
class ServeOptions:
    """What each server process needs to build the app: picklable, for worker processes."""

    database: str
    claim_after: float = 120.0
    bot_delay: float = 0.5
    matches_per_minute: int = 30
    connections_per_address: int = 100
    seeks_per_address: int = 3
    messages_per_second: float = 20.0
    message_burst: float = 40.0
    trusted_proxies: tuple[str, ...] = ()
    allowed_origins: tuple[str, ...] = ()
    header_timeout: float = 10.0
    poll_seconds: float = 2.0
    bot_workers: int = field(default_factory=lambda: os.cpu_count() or 1)

    def app_options(self) -> dict[str, Any]:
        options = asdict(self)
        del options["header_timeout"]
        return options


def run_server(sock: socket.socket, options: ServeOptions) -> None:
    """Serve the app on a bound socket until stopped (in this process)."""
    app = create_app(**options.app_options())
    quiet_garbage_collection()
    # moves are small: compressing each message costs more CPU than it saves
    # proxy headers are the app's business (--trusted-proxy), never uvicorn's default trust of 127.0.0.1
    config = uvicorn.Config(app, log_level="warning", ws_max_size=1 << 20, ws_ping_interval=20.0,
                            ws_ping_timeout=20.0, ws_per_message_deflate=False, proxy_headers=False,
                            http=header_timeout_protocol(options.header_timeout))
    uvicorn.Server(config).run(sockets=[sock])


def quiet_garbage_collection() -> None:
    """Keep Python's collector from stopping the server for long: what was loaded at start-up (the
    networks, the tables, the libraries: most of the objects) is frozen out of its scans, and it
    runs less often. With a thousand matches in memory a full collection otherwise took 0.2–0.4 s,
    every few seconds, and every player waited for it."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 50, 100)


def _worker(sock: socket.socket, options: ServeOptions, warm_up: Callable[[], None], supervisor: int) -> None:
    watch_parent(supervisor, lambda: os.kill(os.getpid(), signal.SIGTERM))  # stop as on Ctrl-C
    warm_up()  # from the caches the first process filled: a second or two
    run_server(sock, options)


def run_workers(sock: socket.socket, options: ServeOptions, workers: int, warm_up: Callable[[], None],
                say: Callable[[str], None]) -> None:
    """Run ``workers`` server processes on ``sock`` and keep them running until SIGINT or SIGTERM."""
    context = multiprocessing.get_context("spawn")  # a fresh interpreter: no threads or loops inherited
    stopping = False

    def start() -> BaseProcess:
        process = context.Process(target=_worker, args=(sock, options, warm_up, os.getpid()), daemon=False)
        process.start()
        return process

    def stop(signum: int, _frame: Any) -> None:
        nonlocal stopping
        stopping = True

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    processes = [start() for _ in range(workers)]
    try:
        while not stopping:
            time.sleep(0.2)
            for k, process in enumerate(processes):
                if not process.is_alive() and not stopping:
                    say(f"worker {process.pid} stopped (exit {process.exitcode}): starting another")
                    time.sleep(RESTART_PAUSE)
                    processes[k] = start()
    finally:
        for process in processes:
            if process.is_alive() and process.pid is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(process.pid, signal.SIGTERM)
        for process in processes:
            process.join(timeout=30)
            if process.is_alive():
                process.kill()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        sys.stdout.flush()
