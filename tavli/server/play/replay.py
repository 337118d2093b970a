"""The matches this server process has replayed from the database, kept while someone here
watches them, and brought up to date when another process acted on them."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from sqlalchemy.exc import IntegrityError

from tavli.errors import TavliError
from tavli.server.play.live import LiveMatch, apply_action, must_pass, replay
from tavli.server.play.seats import ActionError, seat_name
from tavli.server.storage.store import Announcement, Conflict, Store


class Replays:
    """The cached replays of the matches, by id: only a cache of the stored actions replayed,
    rebuilt whenever the database is ahead of it."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._live: dict[str, LiveMatch] = {}
        self._loading: dict[str, asyncio.Lock] = {}

    def current(self, live: LiveMatch) -> LiveMatch:
        """The cached replay of ``live``'s match (a refresh may have replaced it), else ``live``."""
        return self._live.get(live.row.id, live)

    def keep(self, live: LiveMatch) -> LiveMatch:
        """Cache a new match's replay, unless one is cached already: the one cached."""
        return self._live.setdefault(live.row.id, live)

    async def get(self, match_id: str) -> LiveMatch | None:
        """The match, replayed from the database the first time it is asked for."""
        live = self._live.get(match_id)
        if live is not None:
            return live
        lock = self._loading.setdefault(match_id, asyncio.Lock())
        async with lock:
            live = self._live.get(match_id)
            if live is None:
                live = await self.load(match_id)
                if live is not None:
                    self._live[match_id] = live
        self._loading.pop(match_id, None)
        return live

    async def load(self, match_id: str) -> LiveMatch | None:
        loaded = await self.store.load(match_id)
        if loaded is None:
            return None
        row, seeds, rows = loaded
        try:
            live = replay(row, seeds, rows)
        except TavliError as exc:  # the stored actions do not replay: say so, never guess
            raise ActionError("corrupt", "match {match} cannot be replayed from the database: {reason}",
                              match=match_id, reason=exc) from None
        if len(live.roller.seeds) > len(seeds):  # the first game's seed, drawn on the first load
            try:
                await self.store.add_seeds(match_id, dict(enumerate(live.roller.seeds[len(seeds):], len(seeds))))
            except IntegrityError:  # another process drew it first: use that one
                return await self.load(match_id)
        if not await self.complete(live):
            return await self.load(match_id)
        if live.clock is not None and live.clock.running is not None:
            # every outage within the running turn, not only the last: a turn may span several restarts
            live.clock.resume(await self.store.outages_since(live.clock.since))
        live.names = await self.store.names_of(match_id)
        live.accounts = await self.store.account_names_of(match_id)
        return live

    async def complete(self, live: LiveMatch) -> bool:
        """Store the pass of a roll that cannot be played if the stored actions stop after the roll
        (a database written before rolls and passes were stored together); False if another
        process stored it first."""
        if not must_pass(live):
            return True
        seat, seeds_before = seat_name(live.match.turn), len(live.roller.seeds)
        apply_action(live, "play", seat, {"play": ""})
        try:
            live.last_action = await self.store.append_actions(
                live.row.id, live.seq + 1, [(seat, "play", {"play": ""})],
                dict(enumerate(live.roller.seeds[seeds_before:], seeds_before)), live.match.is_over)
        except Conflict:
            return False
        live.seq += 1
        return True

    async def catch_up(self, match_id: str, heard: Sequence[Announcement] = ()) -> LiveMatch | None:
        """Apply the actions another server process stored since this one's cached replay (those
        ``heard`` in its announcements if they follow on, else read from the database); the
        match if it moved on, None if nothing was new (or it is not cached here)."""
        live = self._live.get(match_id)
        if live is None:
            return None
        async with live.lock:
            live = self._live.get(match_id, live)
            rows = [a for note in heard for a in note.actions or () if a.seq > live.seq]
            if rows and rows[0].seq == live.seq + 1 and all(note.actions is not None for note in heard):
                known = dict(enumerate(live.roller.seeds))
                for note in heard:
                    known.update(note.seeds)
                seeds = [known[g] for g in range(len(known))] if set(known) == set(range(len(known))) else []
            else:
                seeds, rows = await self.store.load_since(match_id, live.seq)
            if not rows:
                return None
            try:
                live.roller.seeds.extend(seeds[len(live.roller.seeds):])  # games the other process began
                for action in rows:
                    if action.seq != live.seq + 1:
                        raise TavliError("action {seq} follows {last}", seq=action.seq, last=live.seq)
                    apply_action(live, action.kind, action.seat, action.data)
                    live.seq, live.last_action = action.seq, action.at
            except TavliError:  # not a simple continuation: replay the whole match
                return await self.refresh(match_id)
            return live

    async def refresh(self, match_id: str) -> LiveMatch | None:
        """Replay the match again from the database (another process acted on it)."""
        fresh = await self.load(match_id)
        if fresh is not None:
            old = self._live.get(match_id)
            if old is not None:
                fresh.lock = old.lock
            self._live[match_id] = fresh
        return fresh

    def forget(self, match_id: str) -> None:
        """Drop the cached replay of a match nobody watches any more."""
        self._live.pop(match_id, None)

    def peek(self, match_id: str) -> LiveMatch | None:
        """The cached replay of a match, if this process has one (loads nothing)."""
        return self._live.get(match_id)

    def cached(self) -> list[str]:
        return list(self._live)
