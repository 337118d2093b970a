"""Where ``tavli play`` keeps its matches unless told otherwise, one match record a file
(``tavli.formats.record``): a new file for each match, named by the local time; the matches
kept, the last played first (``tavli matches``); and the one to go on with (``tavli play
--resume``).
"""

from __future__ import annotations

import time
from pathlib import Path

import click

from tavli.errors import TavliError
from tavli.formats.record import MatchRecord, RecordError, read


class NoKeptMatch(TavliError):
    """No kept match can go on."""


def kept_matches() -> Path:
    """The folder where ``tavli play`` keeps its matches unless told otherwise: ``matches`` in
    the user's folder for Tavli (``click.get_app_dir``: ``~/.config/tavli`` on Linux)."""
    return Path(click.get_app_dir("tavli")) / "matches"


def kept_files() -> list[Path]:
    """The files in ``kept_matches()``, the last written first."""
    folder = kept_matches()
    return sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True) if folder.is_dir() else []


def new_kept_file() -> Path:
    """A new file for a match in ``kept_matches()``, named by the local time (the folder is
    made if need be: an ``OSError`` where it cannot be)."""
    folder = kept_matches()
    folder.mkdir(parents=True, exist_ok=True)
    stem = time.strftime("%Y-%m-%d-%H%M%S")
    path, n = folder / f"{stem}.json", 1
    while path.exists():
        n += 1
        path = folder / f"{stem}-{n}.json"
    return path


def kept_file(name: str) -> Path:
    """A match's file: as given, or a bare name that is not here from ``kept_matches()``
    (the names ``tavli matches`` lists, with or without ``.json``)."""
    path = Path(name)
    if path.exists() or path.name != name:
        return path
    return next((kept for kept in (kept_matches() / name, kept_matches() / f"{name}.json") if kept.is_file()), path)


def can_go_on(record: MatchRecord) -> bool:
    """Whether a kept match is still to be won (and is a match, not a series of games)."""
    return record.winner is None and not record.series


def last_kept() -> Path:
    """The newest match in ``kept_matches()`` that can go on: readable and not won; else
    ``NoKeptMatch``."""
    for path in kept_files():
        try:
            record = read(path)
        except RecordError:
            continue
        if can_go_on(record):
            return path
    raise NoKeptMatch(f"no match to go on with in {kept_matches()}: name its file, tavli play --resume FILE")


def read_kept(files: list[Path]) -> tuple[list[tuple[str, MatchRecord]], int]:
    """The records of ``files`` by their names (the file's name less ``.json``), and how many
    files could not be read as match records."""
    kept, unreadable = [], 0
    for path in files:
        try:
            kept.append((path.stem, read(path)))
        except (RecordError, OSError):
            unreadable += 1
    return kept, unreadable
