"""Processes that end with the process that started them (``watch_parent``)."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable


def watch_parent(parent: int, when_gone: Callable[[], None], every: float = 1.0) -> None:
    """Call ``when_gone`` (in a thread of its own) once ``parent``, the process that started
    this one (it passes its pid: it may be gone before this one runs), is gone. A process killed
    outright (``kill -9``) cannot stop its children, and they would otherwise go on for ever:
    bot processes waiting for work, workers holding the port."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every)
        when_gone()

    threading.Thread(target=watch, daemon=True, name="parent-watch").start()
