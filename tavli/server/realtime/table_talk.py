"""The chat of a match's sockets (``TableTalk``; docs/web.md, "Chat"): a line said on one
connection, checked, kept (``tavli.server.storage.chat_log``) and put in the outbox of every
connection of its room here, and heard from the other server processes (PostgreSQL NOTIFY) for
theirs; the recent lines of its rooms sent to a connection that joins; a player's mute.

A match has two rooms: its players' table (both seats: the quick phrases from either, lines of
text only when both seats are signed-in accounts) and its spectators' (their phrases, and the
lines of text of the signed-in among them), which the players are shown once the match is over.
Chat never touches the match: no action, no ``seq``, no lock of it.

Each connection has a chat rate of its own (``CHAT_PER_SECOND``, bursts of ``CHAT_BURST``),
tighter than the socket's (``tavli.server.realtime.protocol.TokenBucket``); a line beyond it is
refused (``chat-rate-limited``), and after ``STRIKES`` refusals in a row the connection's chat is
closed for ``CLOSED_SECONDS`` (``chat-closed``): the match goes on untouched meanwhile.
"""

from __future__ import annotations

import math
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any

from tavli.server.cafe.chat import PHRASES, clean_line, mute_key
from tavli.server.cafe.lobby import CLOSED_CODE
from tavli.server.play.live import LiveMatch
from tavli.server.play.seats import SEATS, ActionError
from tavli.server.realtime.hub import Connection, Hub
from tavli.server.realtime.protocol import TokenBucket
from tavli.server.storage.chat_log import ChatLine, ChatLog

CHAT_PER_SECOND = 1 / 1.5
"""Lines a connection may say a second, on average: one every second and a half."""
CHAT_BURST = 4.0
"""Lines a connection may say at once, after a quiet while."""
STRIKES = 6
"""Lines refused in a row for the rate after which the connection's chat is closed."""
CLOSED_SECONDS = 60.0
"""How long a connection that kept flooding may say nothing."""
HISTORY = 50
"""The most recent lines of a room sent to a connection as it joins."""
ROOMS = ("players", "spectators")


@dataclass(eq=False)
class Talker:
    """A connection's part in the chat: who speaks, his rate, and whom he has muted."""

    account_id: int | None
    name: str | None
    """A spectator's name in his room: his account's, or the one his page gave (None: none)."""
    bucket: TokenBucket = field(default_factory=lambda: TokenBucket(CHAT_PER_SECOND, CHAT_BURST))
    strikes: int = 0
    closed_until: float = 0.0
    muted: bool = False
    """A player's: his opponent's lines are not shown to him."""
    text_ok: bool = False
    """Lines of text were found allowed (both seats are accounts: that cannot change back)."""
    banned_until: float | None = None
    """Until when a moderator has closed the account's chat (``Account.chat_banned_until``)."""


def room_of(role: str) -> str:
    return "players" if role in SEATS else "spectators"


def shows(conn: Connection, talker: Talker, line: ChatLine, over: bool) -> bool:
    """Whether ``line`` is shown on ``conn``: its room's (the spectators' also to the players once
    the match is over), and not the muted opponent's."""
    role = conn.role or ""
    if line.room == "players":
        return role in SEATS and not (talker.muted and line.seat != role)
    return role not in SEATS or over


class TableTalk:
    """The chat of the matches watched on this server process (``Hub.rooms``)."""

    def __init__(self, hub: Hub, log: ChatLog) -> None:
        self.hub = hub
        self.log = log
        self.talkers: dict[Connection, Talker] = {}
        self.recent: dict[str, dict[str, deque[ChatLine]]] = {}
        """The last lines of each room of the matches joined here, read from the log once when the
        first connection of a match joins and kept up by ``deliver`` until its last one leaves: a
        join (1,500 spectators of one match) reads no database."""
        self.members: Counter[str] = Counter()

    async def recent_of(self, match_id: str) -> dict[str, deque[ChatLine]]:
        found = self.recent.get(match_id)
        if found is None:
            read = {room: deque(await self.log.recent(match_id, room, HISTORY), maxlen=HISTORY) for room in ROOMS}
            found = self.recent.setdefault(match_id, read)  # another join may have read it meanwhile
        return found

    async def joined(self, conn: Connection, live: LiveMatch, account_id: int | None, name: str | None,
                     banned_until: float | None = None) -> None:
        """``conn`` has joined its match (``Hub.join``): it is sent the recent lines of its rooms."""
        role, match_id = conn.role or "spectator", live.row.id
        talker = Talker(account_id, name if role not in SEATS else None, banned_until=banned_until)
        if role in SEATS and account_id is not None:  # a signed-in player's mute is kept
            key = await self.opponent_key(match_id, role)
            talker.muted = key in await self.log.mutes_of(account_id)
        recent = await self.recent_of(match_id)
        if self.talkers.get(conn) is None:
            self.members[match_id] += 1
        self.talkers[conn] = talker
        over = live.match.is_over
        for room in ROOMS:
            if room == room_of(role) or (room == "spectators" and over):
                shown = [line.shown() for line in recent[room] if shows(conn, talker, line, over)]
                if shown or talker.muted:  # nothing to say otherwise: a quiet table sends nothing
                    conn.send({"type": "chat", "room": room, "history": True, "muted": talker.muted,
                               "lines": shown})

    def left(self, conn: Connection) -> None:
        if self.talkers.pop(conn, None) is None or conn.match_id is None:
            return
        self.members[conn.match_id] -= 1
        if self.members[conn.match_id] <= 0:  # nobody here hears this match: its lines are read anew
            del self.members[conn.match_id]
            self.recent.pop(conn.match_id, None)

    async def opponent_key(self, match_id: str, role: str) -> str:
        """The key a mute of ``role``'s opponent is kept under (``mute_key``)."""
        other = "black" if role == "white" else "white"
        return mute_key(match_id, other, (await self.hub.store.accounts_of(match_id)).get(other))

    def talker(self, conn: Connection) -> Talker:
        found = self.talkers.get(conn)
        if found is None:
            raise ActionError("not-joined", "send hello with your token first")
        return found

    def take_turn(self, talker: Talker) -> None:
        """Let the line through the connection's chat rate, or refuse it (and close the chat of a
        connection that keeps flooding)."""
        if talker.banned_until is not None and time.time() < talker.banned_until:
            raise ActionError("chat-banned", "a moderator has closed your chat until {until}",
                              until=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(talker.banned_until)))
        now = time.monotonic()
        if now < talker.closed_until:
            raise ActionError("chat-closed", "too many lines: your chat is closed for {seconds} s",
                              seconds=math.ceil(talker.closed_until - now))
        if talker.bucket.take():
            talker.strikes = 0
            return
        talker.strikes += 1
        if talker.strikes >= STRIKES:
            talker.strikes, talker.closed_until = 0, now + CLOSED_SECONDS
            raise ActionError("chat-closed", "too many lines: your chat is closed for {seconds} s",
                              seconds=math.ceil(CLOSED_SECONDS))
        raise ActionError("chat-rate-limited", "at most a line every {seconds} s: slow down",
                          seconds=round(1 / CHAT_PER_SECOND, 1))

    async def may_write(self, conn: Connection, talker: Talker, live: LiveMatch) -> bool:
        """Whether ``conn`` may say lines of text: a player when both seats are signed-in accounts,
        a spectator when he is signed in."""
        if conn.role not in SEATS:
            return talker.account_id is not None
        if not talker.text_ok and talker.account_id is not None:
            talker.text_ok = set(await self.hub.store.accounts_of(live.row.id)) == set(SEATS)
        return talker.text_ok

    async def say(self, conn: Connection, phrase: str | None, text: str | None) -> None:
        """A line said on ``conn``: checked, kept, and shown to its room; ``ActionError`` if refused."""
        talker = self.talker(conn)
        self.take_turn(talker)
        if (phrase is None) == (text is None):
            raise ActionError("bad-message", "say a phrase or a line of text: one of the two")
        if phrase is not None and phrase not in PHRASES:
            raise ActionError("bad-message", "no such phrase: {phrase}", phrase=phrase[:40])
        role, match_id = conn.role or "spectator", conn.match_id or ""
        live = await self.hub.service.get(match_id)
        if live is None:
            raise ActionError("bad-token", "this link is not valid for this match")
        if text is not None:
            if not await self.may_write(conn, talker, live):
                raise ActionError("chat-text", "only signed-in players write lines of their own, and at a "
                                  "table of two signed-in players: the quick phrases are for everyone")
            text = clean_line(text)
            if not text:
                raise ActionError("bad-message", "the line is empty")
        name = (live.accounts.get(role) or live.names.get(role)) if role in SEATS else talker.name
        line = await self.log.add(ChatLine(match_id, room_of(role), role, name, phrase, text, time.time(),
                                           talker.account_id))
        self.deliver(line)

    def deliver(self, line: ChatLine) -> None:
        """Put ``line`` in the outbox of each connection of its room here (returns at once)."""
        recent = self.recent.get(line.match_id)
        if recent is not None:
            recent[line.room].append(line)
        conns = self.hub.rooms.get(line.match_id)
        if not conns:
            return
        live = self.hub.service.peek(line.match_id)
        over = live is not None and live.match.is_over
        message = {"type": "chat", "room": line.room, "lines": [line.shown()]}
        for conn in list(conns):
            talker = self.talkers.get(conn)
            if talker is not None and shows(conn, talker, line, over):
                conn.send(message)

    async def mute(self, conn: Connection, on: bool) -> None:
        """A player mutes his opponent (``on``) or hears him again; kept for a signed-in player."""
        talker = self.talker(conn)
        if conn.role not in SEATS:
            raise ActionError("spectator", "spectators can only watch")
        talker.muted = on
        if talker.account_id is not None:
            await self.log.set_mute(talker.account_id, await self.opponent_key(conn.match_id or "", conn.role), on)
        conn.send({"type": "muted", "on": on})

    def account_changed(self, note: dict[str, Any]) -> None:
        """A moderator acted on an account (``Lobby.account_changed``, on every process): a mute
        closes its chat on the connections open here at once, a closing closes them."""
        action, account_id = note.get("action"), note.get("id")
        for conn, talker in list(self.talkers.items()):
            if talker.account_id != account_id:
                continue
            if action in ("mute", "unmute"):
                talker.banned_until = note.get("until")
            elif action == "close":
                conn.out.close(CLOSED_CODE, "account closed")

    def heard(self, payload: str) -> None:
        """A line another server process kept (``Store.chat_channel``): shown to its room here."""
        try:
            line, origin = ChatLine.parse(payload)
        except ValueError:
            return
        if origin != self.hub.store.origin:
            self.deliver(line)
