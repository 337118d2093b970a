"""The review of played games and the coach's hints: ``tavli.study.analysis`` on the server.

A match's review is the analysis (``tavli.study.analysis.analyse_record``) of its
finished games, made in the background, one match at a time, in a thread of
its own at a low priority (the search kernels release the GIL), then stored
as JSON in the database. While it runs, asking for it gives its progress;
a game that finishes later makes the next request analyse the match again.
docs/web.md gives the JSON, docs/analysis.md the figures in it.

>>> import json
>>> from tavli.dice import DiceRoller
>>> from tavli.match import Match, MatchSettings
>>> from tavli.formats.record import MatchRecord, PlayerInfo
>>> m = Match(MatchSettings(length=1, games=("fevga",)), DiceRoller(seed=3))
>>> for _ in range(6):
...     _ = m.roll(); _ = m.play(m.legal_plays()[-1])
>>> record = MatchRecord.from_match(m, {WHITE: PlayerInfo("human", ""), BLACK: PlayerInfo("bot", "expert")})
>>> review = json.loads(review_json(record, depth=0))
>>> len(review["decisions"]), review["players"]["black"]["name"], review["games"][0]["start"]["pips"]
(6, 'bot expert', {'white': 360, 'black': 360})
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import os
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from tavli.bots.match_equity import MatchScore
from tavli.dice import Dice
from tavli.errors import TavliError
from tavli.formats.mat import import_mat
from tavli.formats.record import MatchRecord, loads
from tavli.position import Position
from tavli.server.play.live import LiveMatch
from tavli.server.play.reasons import one_line
from tavli.server.play.seats import SEATS, ActionError
from tavli.server.play.service import MatchService
from tavli.server.play.view import board_json, steps_json
from tavli.server.storage.store import Store
from tavli.study.analysis import Progress, Thresholds, analyse_record, evaluate_decision
from tavli.variants import BLACK, WHITE

REVIEW_DEPTH = 1
"""The depth of the server's reviews: a whole 7-point match in about 2 s of CPU on one core
(2 plies take about 6 times as long: docs/strength.md)."""

HINT_DEPTH = 1
"""The depth of the coach's hints."""

HINT_PLAYS = 3
"""How many of the best plays a hint shows."""

MAT_LENGTH = re.compile(r"^\s*\d+\s+point\s+match", re.IGNORECASE | re.MULTILINE)
"""The line a ``.mat`` file names its match length with."""

MAX_FILE_TURNS = 2000
"""The most turns an uploaded match file may have for the server to review it (a 7-point match
has about 300; a 25-point one about 1,200)."""

NICENESS = 10
"""How much lower the review thread's priority is than the server's (Linux)."""


def _lower_priority() -> None:
    """Run the calling thread at a lower priority, where the system allows it (Linux threads)."""
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), NICENESS)


def finished_games(record: MatchRecord) -> MatchRecord:
    """The record without its game still going, if any (only a record's last game can be)."""
    return dataclasses.replace(record, games=[g for g in record.games if g.end is not None])


class MatchFileError(TavliError):
    """An uploaded match file that cannot be reviewed: not a record nor a ``.mat`` file, no
    finished game, too long."""


def read_match_file(data: bytes) -> MatchRecord:
    """The finished games of an uploaded match file: a Tavli match record (JSON, docs/formats.md)
    or a GNU Backgammon ``.mat`` file (its Portes games). ``ValueError`` with a one-line reason.

    >>> read_match_file(b"to be or not to be")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tavli.server.coach.review.MatchFileError: not a match file: a Tavli match record (.json) or a GNU Backgammon ...
    """
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")  # GNU Backgammon writes player names in the locale's encoding
    if not text.strip():
        raise MatchFileError("the file is empty")
    if text.lstrip().startswith("{"):
        record = loads(text)
    elif MAT_LENGTH.search(text):
        record = import_mat(text)
    else:
        raise MatchFileError("not a match file: a Tavli match record (.json) or a GNU Backgammon .mat file")
    record = finished_games(record)
    if not record.games:
        raise MatchFileError("the file has no finished game to review")
    turns = sum(len(game.turns) for game in record.games)
    if turns > MAX_FILE_TURNS:
        raise MatchFileError("the match has {turns} turns: the server reviews at most {most} "
                             "(tavli analyse reviews any length)", turns=turns, most=MAX_FILE_TURNS)
    return record


def error_rate_of(player: dict[str, Any]) -> float | None:
    """A side's error rate in a review's ``players``, or None where he made no decision that was
    not forced: such a match says nothing of his play (its rate would read as a perfect 0.0).

    >>> error_rate_of({"error_rate": 0.0, "unforced": 0}), error_rate_of({"error_rate": 4.2, "unforced": 9})
    (None, 4.2)
    """
    return float(player["error_rate"]) if player.get("unforced") and player.get("error_rate") is not None else None


def review_json(record: MatchRecord, depth: int = REVIEW_DEPTH, progress: Progress | None = None,
                head: dict[str, Any] | None = None) -> str:
    """The review of ``record``'s games as JSON text: ``head``, then the analysis
    (``MatchAnalysis.to_json``) with each game's first board, and each decision's board after the
    play and the steps of its play and of the better plays (in White's numbering)."""
    games = record.check()
    analysis = analyse_record(record, depth, workers=1, progress=progress)
    out = dict(head or {}) | analysis.to_json()
    for name, color in (("white", WHITE), ("black", BLACK)):
        player = record.players[color]
        out["players"][name] |= {"kind": player.kind, "level": player.name}
    out["length"] = record.settings.length
    out["order"] = list(record.settings.games)
    for entry, game, recorded in zip(out["games"], games, record.games, strict=True):
        entry["start"] = board_json(game.start)
        entry["reason"] = recorded.end.reason if recorded.end is not None else ""
    turns = [turn for game in games for turn in game.history]
    for entry, turn in zip(out["decisions"], turns, strict=True):
        variant = turn.before.variant
        entry["board"] = board_json(turn.after)
        entry["steps"] = steps_json(variant, turn.color, turn.play.steps)
        for candidate in entry["candidates"]:
            play = turn.before.parse_play(candidate["play"], turn.dice) if candidate["play"] else None
            candidate["steps"] = steps_json(variant, turn.color, play.steps) if play is not None else []
    return json.dumps(out, separators=(",", ":"))


def hint_json(position: Position, dice: Dice, play: str | None = None, depth: int = HINT_DEPTH,
              count: int = HINT_PLAYS, score: MatchScore | None = None) -> dict[str, Any]:
    """The best ``count`` plays of ``dice`` in ``position`` with their values; with ``play``
    (notation), also its value, its loss against the best and how bad it is. At a match
    ``score`` (the player's) the plays are ranked by the chance of winning the match (``mwc``),
    as the review ranks them, and the loss is in points of a game at that score.

    >>> from tavli import Position
    >>> hint = hint_json(Position.start("portes"), Dice(3, 1), "24/21 24/23", depth=0)
    >>> hint["plays"][0]["play"], hint["checked"]["skill"]
    ('8/5 6/5', 'blunder')
    """
    legal = position.legal_plays(dice)
    if len(legal) == 0:
        return {"plays": [], "checked": None, "depth": depth}
    if play is not None:
        position.parse_play(play, dice)  # a ValueError says what is wrong with it
    decision = evaluate_decision(position, dice, play if play is not None else str(legal[0]), depth, score=score)
    variant, color = position.variant, position.turn

    def one(c: Any) -> dict[str, Any]:
        steps = position.parse_play(c.play, dice).steps if c.play else ()
        loss = c.loss if c.loss is not None else decision.best_equity - c.equity
        found = {"play": c.play, "equity": round(c.equity, 4), "win": round(c.win, 4),
                 "loss": round(max(0.0, loss), 4), "steps": steps_json(variant, color, steps)}
        if c.mwc is not None:
            found["mwc"] = round(c.mwc, 4)
        return found

    ranked = sorted(decision.candidates, key=lambda c: -(c.mwc if c.mwc is not None else c.equity))
    checked = None
    if play is not None:
        mine = next(c for c in decision.candidates if c.play == decision.played)
        checked = one(mine) | {"skill": decision.skill, "forced": decision.forced}
    return {"plays": [one(c) for c in ranked[:count]], "checked": checked, "depth": decision.depth,
            "thresholds": dataclasses.asdict(Thresholds.of(variant))}


async def coach_hint(live: LiveMatch | None, role: str | None, play: str | None,
                     reply_to: str | int | None) -> dict[str, Any]:
    """The coach's answer to a ``hint`` message from ``role`` (its ``play`` and its id, ``reply_to``):
    the best plays of the roll of the seat on its turn, for the match (as the bots play and the
    review ranks); ``ActionError`` where there is no hint to give."""
    if live is None:
        raise ActionError("bad-token", "this link is not valid for this match")
    if not live.row.settings.get("coach", False):
        raise ActionError("no-coach", "this match was created without the coach")
    match = live.match
    if role not in SEATS or match.is_over or match.turn != SEATS[role]:
        raise ActionError("not-your-turn", "hints are for the player on his turn")
    if match.dice is None:
        raise ActionError("not-rolled", "roll first: a hint is for the dice rolled")
    seq, position, dice, score = live.seq, match.game.position, match.dice, MatchScore.of(match)
    try:
        found = await asyncio.to_thread(hint_json, position, dice, play, score=score)
    except ValueError as exc:
        raise ActionError("illegal", exc) from None
    return {"type": "hint", "id": reply_to, "seq": seq, "dice": str(dice)} | found


@dataclass
class Job:
    """A review being made: how many games it covers, and how far it has come."""

    games: int
    done: int = 0
    total: int = 0
    error: str | None = None
    task: asyncio.Task[None] | None = None


class Reviewer:
    """Makes, stores and serves the reviews of a server's matches, one at a time."""

    def __init__(self, service: MatchService, store: Store, depth: int = REVIEW_DEPTH) -> None:
        self.service = service
        self.store = store
        self.depth = depth
        self.jobs: dict[str, Job] = {}
        self._executor = ThreadPoolExecutor(1, thread_name_prefix="tavli-review", initializer=_lower_priority)

    def close(self) -> None:
        for job in self.jobs.values():
            if job.task is not None:
                job.task.cancel()
        self._executor.shutdown(wait=False, cancel_futures=True)

    async def review(self, match_id: str, role: str | None) -> tuple[int, dict[str, Any] | str]:
        """(HTTP status, answer) for ``GET /api/matches/{id}/analysis``: the stored review as JSON
        text, or the progress of the one being made, or an error."""
        live = await self.service.get(match_id)
        record = await self.service.match_record(match_id)
        if live is None or record is None:
            return 404, {"error": "no such match"}
        over = live.match.is_over
        if not over and role not in ("white", "black"):
            return 403, {"error": "the review opens when the match is over (its players see each finished game)"}
        record = finished_games(record)
        games = len(record.games)
        if games == 0:
            return 200, {"status": "empty", "games": 0, "over": over}
        stored = await self.store.load_analysis(match_id)
        if stored is not None and stored[0] == games and stored[1] == self.depth:
            return 200, stored[2]
        job = self.jobs.get(match_id)
        if job is None or job.games != games:
            job = self.jobs[match_id] = Job(games)
            job.task = asyncio.create_task(self._make(match_id, record, job))
        if job.error is not None:
            return 500, {"error": f"the review could not be made: {job.error}"}
        return 202, {"status": "running", "games": games, "done": job.done, "total": job.total}

    async def review_file(self, record: MatchRecord) -> str:
        """The review of an uploaded match's games (``read_match_file``), as JSON text, made in
        the reviews' thread after the stored matches' reviews already waiting."""
        head = {"status": "done", "match": None, "games_reviewed": len(record.games),
                "over": record.winner is not None}
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, review_json, record, self.depth, None, head)

    async def _make(self, match_id: str, record: MatchRecord, job: Job) -> None:
        def progress(done: int, total: int) -> None:
            job.done, job.total = done, total

        loop = asyncio.get_running_loop()
        try:
            head = {"status": "done", "match": match_id, "games_reviewed": job.games,
                    "over": record.winner is not None}
            text = await loop.run_in_executor(self._executor, review_json, record, self.depth, progress, head)
            await self.store.save_analysis(match_id, job.games, self.depth, text)
            if record.winner is not None:  # the players' error rates, for their pages
                players = json.loads(text).get("players", {})
                await self.store.save_error_rates(match_id, *(error_rate_of(players.get(seat, {}))
                                                              for seat in ("white", "black")))
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # kept and reported by the next request; a later game retries
            job.error = one_line(exc)
            return
        if self.jobs.get(match_id) is job:
            del self.jobs[match_id]
