"""The lobby (docs/cafe.md, "Lobby"): seeks kept in the database, posted, cancelled and accepted;
"play now", which pairs people asking for the same match within a rating range that widens
as they wait and offers a bot after ``BOT_AFTER`` seconds alone; the counts of players online
and matches in play; and the start pages told of it all as it happens (``StartPage``), on
every server process (PostgreSQL's LISTEN/NOTIFY on ``Store.lobby_channel``); the challenges, a
seek addressed to one signed-in player, told to whatever page of the café he has open (the
person's notes: every page's lobby connection has them, only the start page's the seeks).

A person is an account, or a guest's browser (a cookie): he has one seek at most, and a
pairing takes him once: of two accepts at once, or an accept of his seek while he accepts
another, one wins (``accept``).

>>> nearest_bot(1500)
'intermediate'
>>> range_now(0.0), range_now(10.0)
(100.0, 350.0)
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import secrets
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import orjson
from sqlalchemy import String, and_, cast, delete, exists, func, insert, literal, or_, select, text, update
from sqlalchemy.exc import DBAPIError, IntegrityError

from tavli.bots.levels import LEVELS
from tavli.errors import TavliError
from tavli.server.cafe.accounts import Account, Accounts
from tavli.server.play.clocks import DEFAULT_FOR_PEOPLE, clock_settings
from tavli.server.play.seats import player_name, pool_of, settings_from_request
from tavli.server.play.service import MatchService
from tavli.server.storage.moderation_log import ModerationLog
from tavli.server.storage.schema import (
    accounts,
    insert_for,
    lobby_paired,
    lobby_people,
    matches,
    presence,
    ratings,
    seat_accounts,
    seeks,
)
from tavli.server.storage.store import Store, unbroken

SEEK_SECONDS = 20.0
"""A seek is listed this long past its owner's last sign of life (his lobby connection keeps it)."""
PAIRED_SECONDS = 10.0
"""A person just paired is not paired again for this long: two pairings at once cannot both take him."""
BOT_AFTER = 20.0
"""Seconds a player waits alone in "play now" before he is offered a bot."""
RANGE_START = 100.0
RANGE_WIDENS = 25.0
"""Play now: the rating gap allowed, at first and added each second of waiting."""
BOT_RATINGS: dict[str, float] = {name: level.lobby_rating for name, level in LEVELS.items()
                                 if level.lobby_rating is not None}
"""The bot levels' strength on the players' scale, by level (``Level.lobby_rating`` of
``tavli.bots.levels``): the bot offered is the nearest."""
DEFAULT_RATING = 1500.0
SEEKS_PER_ADDRESS = 3
"""Seeks listed at once from one client address (each person has one): a household or a café
behind one address can seek side by side, a script making guest cookies cannot fill the lobby."""
GUEST_COOKIE = "tavli_guest"
FIELDS = {"length", "games", "clock", "rated", "range", "name"}
CHALLENGE_FIELDS = {"to", "length", "games", "clock", "rated"}
CHALLENGE_SECONDS = 120.0
"""A challenge unanswered this long expires (its challenger is told)."""
CHALLENGES_PER_PERSON = 3
"""Live challenges one player may have sent at once (one to each other player)."""
PLAYERS_LISTED = 100
"""The most names of players online the lobby lists."""
OPEN = ""
"""The ``target`` of a seek anyone may accept (a challenge's is the person challenged)."""
CLOSED_CODE = 4003
"""The WebSocket close code of a connection whose account a moderator has closed."""
BATCH_SECONDS = 0.25
"""The lobby's news for a start page that gathers it goes at most this often, as one message: two
hundred pages told of ten seeks a second are sent a thousand messages a second, not four thousand."""
_NOTIFY = text("SELECT pg_notify(:channel, :payload)")


class SeekError(TavliError):
    """A seek that cannot be posted or accepted as asked (a 400)."""


class TooManySeeks(SeekError):
    """A seek from an address that has as many listed as it may (a 429)."""


class NotYourSeek(TavliError):
    """A seek cancelled by someone other than its owner (a 403)."""


class SeekGone(TavliError):
    """A seek that is no longer there: accepted, cancelled, or its owner left (a 409)."""


class NoSuchPlayer(SeekError):
    """A challenge to a name that is no account's (a 404)."""


class ChallengeRefused(SeekError):
    """A challenge that cannot be sent now: the player is away, or challenged already (a 409)."""


@dataclass(frozen=True)
class Person:
    """Who asks: his key (``a`` and the account's id, or ``g`` and a guest cookie's hash), his
    account if he is logged in, and the name he gave (a guest's)."""

    key: str
    account: Account | None = None
    name: str | None = None

    @classmethod
    def of(cls, account: Account | None, guest: str | None, name: str | None = None) -> Person | None:
        if account is not None:
            return cls(f"a{account.id}", account, account.name)
        if not guest:
            return None
        return cls("g" + hashlib.sha256(guest.encode()).hexdigest()[:40], None, name)


def nearest_bot(rating: float) -> str:
    """The bot level whose strength is nearest ``rating``."""
    return min(BOT_RATINGS, key=lambda level: abs(BOT_RATINGS[level] - rating))


def range_now(waited: float) -> float:
    """Play now: the rating gap a waiting seek accepts after ``waited`` seconds."""
    return RANGE_START + RANGE_WIDENS * waited


def seek_settings(body: object, account: Account | None) -> dict[str, Any]:
    """A seek's request checked: its stored settings (length, games, clock, rated, range);
    a ``ValueError`` in one line (``SeekError``, or the match settings' own) for anything else."""
    if not isinstance(body, dict):
        raise SeekError("the request must be a JSON object")
    unknown = sorted(set(body) - FIELDS)
    if unknown:
        raise SeekError("unknown field {name!r}", name=unknown[0])
    # their own refusals (each a ValueError with its reason) say what is wrong with the rest
    _, data = settings_from_request({k: body[k] for k in ("length", "games") if k in body})
    clock = clock_settings(body.get("clock", DEFAULT_FOR_PEOPLE))
    player_name(body.get("name"))
    rated = body.get("rated", False)
    if type(rated) is not bool:
        raise SeekError("rated must be true or false")
    if rated and account is None:
        raise SeekError("log in to seek a rated match")
    if rated and pool_of(data["games"]) is None:
        raise SeekError("a rated match plays the Tavli sequence or one game")
    span = body.get("range")
    if span is not None and not (isinstance(span, list) and len(span) == 2
                                 and all(type(x) is int and 0 <= x <= 4000 for x in span) and span[0] <= span[1]):
        raise SeekError("range must be [lowest, highest] ratings, whole numbers from 0 to 4000")
    return {"length": data["length"], "games": data["games"], "clock": clock, "rated": rated, "range": span}


def challenge_settings(body: object, account: Account | None) -> tuple[str, dict[str, Any]]:
    """A challenge's request checked: the name challenged (``to``) and the match's settings, as a
    seek's (``seek_settings``); a one-line ``ValueError`` for anything else."""
    if account is None:
        raise SeekError("log in to challenge a player")
    if not isinstance(body, dict):
        raise SeekError("the request must be a JSON object")
    unknown = sorted(set(body) - CHALLENGE_FIELDS)
    if unknown:
        raise SeekError("unknown field {name!r}", name=unknown[0])
    to = body.get("to")
    if not isinstance(to, str) or not to.strip() or len(to) > 40:
        raise SeekError("to must be the name of the player challenged")
    return to.strip(), seek_settings({k: v for k, v in body.items() if k != "to"}, account)


def same_match(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether two seeks ask for the same match (play now pairs only those)."""
    keys = ("length", "games", "clock", "rated")
    return all(a.get(k) == b.get(k) for k in keys)


class StartPage(Protocol):
    """A start page's lobby connection, as the lobby needs it: the person it is, and a send that
    never waits on the peer (``tavli.server.routes.lobby_socket.LobbySocket``)."""

    held: list[str] | None
    """While it joins: what it is told meanwhile (as sent), sent after the list of seeks (``Lobby.join``)."""
    seeks: bool
    """Whether it is a start page's, told of the seeks and the counts (every page is told its
    person's notes: his pairings and challenges)."""
    gathered: list[str] | None
    """A page that asked for the lobby's news gathered (``?batch=1``): what waits for the next
    ``Lobby.batch_seconds`` (None: a page sent each piece of news as it comes)."""

    @property
    def person(self) -> str: ...

    def send(self, message: dict[str, Any]) -> None: ...

    def send_text(self, text: str) -> None:
        """Send a message already encoded: news for many pages is encoded once."""

    def close(self, code: int, reason: str) -> None:
        """Close the connection (after what was sent before): a closed account's page."""


@dataclass(eq=False)
class Lobby:
    """The lobby of this server process: its database rows, its connections, and what it tells them."""

    store: Store
    service: MatchService
    accounts: Accounts
    seeks_per_address: int = SEEKS_PER_ADDRESS
    people: dict[str, set[StartPage]] = field(default_factory=lambda: defaultdict(set))
    offered: set[str] = field(default_factory=set)
    """The play-now seeks offered a bot already."""
    counts: dict[str, int] = field(default_factory=lambda: {"online": 0, "playing": 0})
    players: list[str] = field(default_factory=list)
    """The names of the signed-in players with a page of the café open, A to Z (``PLAYERS_LISTED``)."""
    moderation_log: ModerationLog | None = None
    """Where the notices a player has still to read are kept (``join`` sends them)."""
    account_listeners: list[Callable[[dict[str, Any]], None]] = field(default_factory=list)
    """Who else is told of a moderator's action on an account, on every process (the chat: a mute
    closes it, a closing ends the account's match connections)."""
    batch_seconds: float = BATCH_SECONDS
    """How long the lobby's news for a page that gathers it waits to go as one message."""
    note_listeners: dict[str, list[Callable[[dict[str, Any]], None]]] = field(default_factory=lambda: defaultdict(list))
    """Who else hears the notes of a kind the lobby carries for another room, on every process (a
    tournament's change: ``{"k": "tournament", ...}``)."""
    _gathering: set[StartPage] = field(default_factory=set)
    """The pages with news gathered, sent at the next ``_flush``."""
    _flush_at: asyncio.TimerHandle | None = None
    _accepting: asyncio.Lock = field(default_factory=asyncio.Lock)
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)

    # -- the seeks ------------------------------------------------------------
    async def listed(self, viewer: str | None = None) -> list[dict[str, Any]]:
        """The seeks listed now, oldest first, as ``viewer`` is shown them."""
        now = time.time()
        return [shown(seek, viewer, now) for seek in await self.rows(now)]

    @unbroken
    async def rows(self, now: float) -> list[dict[str, Any]]:
        """The seeks listed at ``now``, oldest first, as stored (``stored``)."""
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(select(seeks).where(seeks.c.until > now, seeks.c.target == OPEN)
                                       .order_by(seeks.c.created))).all()
        return [stored(row) for row in rows]

    @unbroken
    async def rating_of(self, account: Account | None, games: list[str]) -> float:
        pool = pool_of(games)
        if account is None or pool is None:
            return DEFAULT_RATING
        async with self.store.engine.connect() as conn:
            found = (await conn.execute(select(ratings.c.rating).where(
                ratings.c.account_id == account.id, ratings.c.pool == pool))).scalar()
        return DEFAULT_RATING if found is None else float(found)

    async def post(self, person: Person, body: object, quick: bool = False, address: str = "") -> dict[str, Any]:
        """Post ``person``'s seek (his one: an older one goes) from the client ``address``; the
        seek as he is shown it. ``TooManySeeks`` if that address has ``seeks_per_address`` other
        seeks listed (one client making many guest cookies)."""
        settings = seek_settings(body, person.account) | {"quick": quick}
        await self.check_name(person)
        name = person.account.name if person.account else person.name
        now = time.time()
        seek = {"id": secrets.token_urlsafe(9), "owner": person.key,
                "account_id": person.account.id if person.account else None, "name": name,
                "rating": await self.rating_of(person.account, settings["games"]), "settings": settings,
                "created": now}
        async with self.store.engine.begin() as conn:
            old = (await conn.execute(delete(seeks).where(seeks.c.owner == person.key, seeks.c.target == OPEN)
                                      .returning(seeks.c.id))).all()
            if address:
                others = (await conn.execute(select(func.count()).select_from(seeks).where(
                    seeks.c.address == address[:64], seeks.c.until > now, seeks.c.target == OPEN))).scalar() or 0
                if others >= self.seeks_per_address:
                    raise TooManySeeks("at most {most} seeks at once from one address: wait for one to be "
                                       "accepted or cancelled", most=self.seeks_per_address)
            await conn.execute(insert(seeks).values(**(seek | {"settings": json.dumps(settings)}),
                                                    until=now + SEEK_SECONDS, address=address[:64] or None))
        for (gone,) in old:
            await self.tell({"k": "gone", "id": gone})
        await self.tell({"k": "seek", "seek": seek})
        return shown(seek, person.key, now)

    async def cancel(self, person: Person, seek_id: str) -> None:
        """Cancel ``person``'s seek (or challenge); ``SeekGone`` if there is none of that id,
        ``NotYourSeek`` if it is another person's."""
        async with self.store.engine.begin() as conn:
            row = (await conn.execute(select(seeks).where(seeks.c.id == seek_id))).first()
            if row is None:
                raise SeekGone("no such seek: it was accepted, cancelled or its owner left")
            if row.owner != person.key:
                raise NotYourSeek("only its owner may cancel a seek")
            await conn.execute(delete(seeks).where(seeks.c.id == seek_id))
        await self.tell(gone_note(stored(row), "cancelled"))

    # -- the challenges ---------------------------------------------------------
    async def challenge(self, person: Person, body: object) -> dict[str, Any]:
        """``person`` challenges a player by name: a seek addressed to him alone, told at once to
        the pages he has open; the challenge as its challenger is shown it. ``NoSuchPlayer``,
        ``ChallengeRefused`` (he is away, or challenged already), ``TooManySeeks`` (too many
        challenges live), ``SeekError`` for the rest."""
        to, settings = challenge_settings(body, person.account)
        assert person.account is not None
        target = await self.accounts.find(to)
        if target is None or target.deleted or target.disabled:
            raise NoSuchPlayer("no player is called {name}", name=to)
        if target.id == person.account.id:
            raise SeekError("you cannot challenge yourself")
        key, now = f"a{target.id}", time.time()
        seek = {"id": secrets.token_urlsafe(9), "owner": person.key, "account_id": person.account.id,
                "name": person.account.name, "rating": await self.rating_of(person.account, settings["games"]),
                "settings": settings | {"quick": False, "to": target.name}, "created": now, "target": key,
                "until": now + CHALLENGE_SECONDS}
        try:
            async with self.store.engine.begin() as conn:
                await self._may_challenge(conn, person.key, target, now)
                await conn.execute(insert(seeks).values(**(seek | {"settings": json.dumps(seek["settings"])})))
        except IntegrityError:  # two at once: the index keeps one
            raise ChallengeRefused("you have challenged {name} already: wait for the answer, or cancel it",
                                   name=target.name) from None
        await self.tell({"k": "challenge", "seek": seek})
        return challenge_shown(seek, person.key, now)

    @staticmethod
    async def _may_challenge(conn: Any, owner: str, target: Account, now: float) -> None:
        key = f"a{target.id}"
        await conn.execute(delete(seeks).where(seeks.c.owner == owner, seeks.c.target == key, seeks.c.until <= now))
        here = (await conn.execute(select(lobby_people.c.person).where(
            lobby_people.c.person == key, lobby_people.c.until > now))).first()
        if here is None:
            raise ChallengeRefused("{name} is not in the café now: a challenge reaches a player who has a page "
                                   "of the café open", name=target.name)
        mine = (await conn.execute(select(seeks.c.target).where(
            seeks.c.owner == owner, seeks.c.target != OPEN, seeks.c.until > now))).scalars().all()
        if key in mine:
            raise ChallengeRefused("you have challenged {name} already: wait for the answer, or cancel it",
                                   name=target.name)
        if len(mine) >= CHALLENGES_PER_PERSON:
            raise TooManySeeks("at most {most} challenges at once: wait for an answer, or cancel one",
                               most=CHALLENGES_PER_PERSON)

    async def decline(self, person: Person, seek_id: str) -> None:
        """The player challenged declines; ``SeekGone`` if it is no longer there, ``NotYourSeek``
        if it is addressed to someone else."""
        async with self.store.engine.begin() as conn:
            row = (await conn.execute(select(seeks).where(seeks.c.id == seek_id, seeks.c.target != OPEN))).first()
            if row is None:
                raise SeekGone("no such challenge: it was answered, cancelled or it expired")
            if row.target != person.key:
                raise NotYourSeek("only the player challenged may decline a challenge")
            await conn.execute(delete(seeks).where(seeks.c.id == seek_id))
        await self.tell(gone_note(stored(row), "declined"))

    async def withdraw_all(self, key: str) -> None:
        """Every seek and challenge of ``key`` (sent or received) goes: his account was closed."""
        async with self.store.engine.begin() as conn:
            rows = (await conn.execute(delete(seeks).where(or_(seeks.c.owner == key, seeks.c.target == key))
                                       .returning(*seeks.c))).all()
        for row in rows:
            await self.tell(gone_note(stored(row), "left"))

    @unbroken
    async def challenges_of(self, key: str) -> list[dict[str, Any]]:
        """The live challenges ``key`` sent or was sent, oldest first, as he is shown them."""
        now = time.time()
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(select(seeks).where(
                seeks.c.target != OPEN, seeks.c.until > now, (seeks.c.owner == key) | (seeks.c.target == key))
                .order_by(seeks.c.created))).all()
        return [challenge_shown(stored(row), key, now) for row in rows]

    async def accept(self, person: Person, seek_id: str) -> dict[str, Any]:
        """``person`` accepts a seek: the match is made, its owner told (his lobby connection), and
        the accepter's seat, token and link returned. ``SeekGone`` when another accept (or a
        pairing of either person) came first, ``SeekError`` when he may not accept it."""
        await self.check_name(person)
        async with self._accepting:  # one accept at a time here; the database decides between processes
            seek, match_id, taken = await self._take(person, seek_id)
        owner = (await self.accounts.by_ids([seek["account_id"]])).get(seek["account_id"]) \
            if seek["account_id"] is not None else None
        mine, theirs = await self.service.create_pair(match_id, seek["settings"],
                                                      [(person.account, person.name), (owner, seek["name"])])
        await self.tell({"k": "paired", "person": seek["owner"], "answer": theirs})
        for went in taken:  # the seek taken, and the two players' others: they are paired
            await self.tell(gone_note(went, "accepted" if went["id"] == seek_id else "paired"))
        return mine

    async def check_name(self, person: Person) -> None:
        """Refuse (``SeekError``) a guest whose name is an account's or looks the same as one."""
        if person.account is None and person.name and await self.accounts.looks_taken(person.name):
            raise SeekError("that name is an account's: log in to play under it, or choose another")

    @unbroken
    async def _take(self, person: Person, seek_id: str) -> tuple[dict[str, Any], str, list[dict[str, Any]]]:
        """Take the seek from the database for ``person``, with its pairing (``PAIRED_SECONDS``),
        and the other seeks and challenges of the two, gone with it (the seeks taken, it first)."""
        now = time.time()
        async with self.store.engine.connect() as conn:
            row = (await conn.execute(select(seeks).where(seeks.c.id == seek_id, seeks.c.until > now))).first()
        if row is None:
            raise SeekGone("no such seek: it was accepted, cancelled or its owner left")
        seek = stored(row)
        settings = seek["settings"]
        self._may_accept(person, seek, await self.rating_of(person.account, settings["games"]))
        match_id = secrets.token_urlsafe(9)
        try:
            async with self.store.engine.begin() as conn:
                taken = await conn.execute(delete(seeks).where(seeks.c.id == seek_id))
                if taken.rowcount != 1:
                    raise SeekGone("someone accepted that seek first")
                others = (await conn.execute(delete(seeks).where(seeks.c.owner.in_([person.key, seek["owner"]]))
                                             .returning(*seeks.c))).all()
                await conn.execute(delete(lobby_paired).where(lobby_paired.c.at < now - PAIRED_SECONDS))
                await conn.execute(insert(lobby_paired), [{"person": who, "match_id": match_id, "at": now}
                                                          for who in (seek["owner"], person.key)])
        except DBAPIError:  # one of the two was paired meanwhile (or the database chose between two)
            raise SeekGone("someone accepted that seek first") from None
        return seek, match_id, [seek, *(stored(row) for row in others)]

    @staticmethod
    def _may_accept(person: Person, seek: dict[str, Any], rating: float) -> None:
        settings = seek["settings"]
        if seek["owner"] == person.key:
            raise SeekError("that seek is yours: wait for someone to accept it, or cancel it")
        if seek["target"] not in (OPEN, person.key):
            raise SeekError("that challenge is addressed to another player")
        if settings.get("rated") and person.account is None:
            raise SeekError("log in to accept a rated seek")
        span = settings.get("range")
        if span is not None and not span[0] <= rating <= span[1]:
            raise SeekError("your rating {rating} is outside this seek's range, {low} to {high}",
                            rating=round(rating), low=span[0], high=span[1])

    async def play_now(self, person: Person, body: object, address: str = "") -> tuple[str, dict[str, Any]]:
        """Play now: paired at once with someone waiting for the same match within range
        (``("paired", the seat)``), or waiting in the lobby (``("seek", his seek)``)."""
        settings = seek_settings(body, person.account)
        rating = await self.rating_of(person.account, settings["games"])
        for other in await self.listed(person.key):
            if other["quick"] and not other["mine"] and same_match(other, settings) \
                    and abs(other["rating"] - rating) <= range_now(other["waiting"]):
                with contextlib.suppress(SeekGone, SeekError):
                    return "paired", await self.accept(person, other["id"])
        return "seek", await self.post(person, body, quick=True, address=address)

    async def pair_waiting(self) -> None:
        """Pair the play-now seekers of this process whose ranges have widened enough, and offer
        a bot to those alone for ``BOT_AFTER`` seconds."""
        now = time.time()
        waiting = [s for s in await self.rows(now) if s["settings"].get("quick")]
        for seek in waiting:
            owner = seek["owner"]
            if owner not in self.people:
                continue
            waited = now - seek["created"]
            partner = next((o for o in waiting if o["id"] > seek["id"] and same_match(o["settings"], seek["settings"])
                            and abs(o["rating"] - seek["rating"]) <= range_now(max(waited, now - o["created"]))),
                           None)
            if partner is not None:
                with contextlib.suppress(SeekGone, SeekError):
                    await self.pair_for(owner, partner["id"])
                    continue
            if waited >= BOT_AFTER and seek["id"] not in self.offered:
                self.offered.add(seek["id"])
                level = nearest_bot(seek["rating"])
                self._send_to(owner, {"type": "bot", "seek": seek["id"], "level": level,
                                            "rating": BOT_RATINGS[level]})

    async def pair_for(self, person_key: str, seek_id: str) -> None:
        """Accept a seek for a waiting person of this process: he is told his seat as a seeker is."""
        conns = self.people.get(person_key)
        if not conns:
            return
        answer = await self.accept(Person(person_key, await self._account_of(person_key)), seek_id)
        self._send_to(person_key, {"type": "paired"} | answer)

    async def _account_of(self, key: str) -> Account | None:
        if not key.startswith("a"):
            return None
        return (await self.accounts.by_ids([int(key[1:])])).get(int(key[1:]))

    # -- telling the start pages ------------------------------------------------
    async def tell(self, note: dict[str, Any]) -> None:
        """Tell this process's start pages of ``note`` at once, and the other processes' too."""
        if self.store.notifies:
            payload = orjson.dumps(note | {"o": self.store.origin}).decode()
            async with self.store.engine.begin() as conn:
                await conn.execute(_NOTIFY, {"channel": self.store.lobby_channel, "payload": payload})
        await self.apply(note)

    def heard(self, payload: str) -> None:
        """A note of another process (``Store.lobby_channel``): told to the start pages here."""
        try:
            note = orjson.loads(payload)
        except orjson.JSONDecodeError:
            return
        if not isinstance(note, dict) or note.get("o") == self.store.origin:
            return
        task = asyncio.create_task(self.apply(note))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def apply(self, note: dict[str, Any]) -> None:
        kind = note.get("k")
        if kind == "seek":
            seek = note["seek"]
            now = time.time()
            # encoded once for everybody but its owner (to whom it is "mine"): hundreds of start pages
            others = orjson.dumps({"type": "seek", "seek": shown(seek, None, now)}).decode()
            for key, conns in list(self.people.items()):
                sent = others if key != seek["owner"] else orjson.dumps(
                    {"type": "seek", "seek": shown(seek, key, now)}).decode()
                for conn in list(conns):
                    if conn.seeks:
                        self._news(conn, sent)
        elif kind == "challenge":
            seek, now = note["seek"], time.time()
            for key in (seek["owner"], seek["target"]):
                self._send_to(key, {"type": "challenge", "challenge": challenge_shown(seek, key, now)})
        elif kind == "gone" and note.get("target"):
            for key in (note["owner"], note["target"]):
                self._send_to(key, {"type": "challenge-gone", "id": note["id"], "why": note["why"],
                                    "from": note["from"], "to": note["to"], "mine": key == note["owner"]})
        elif kind == "gone":
            self.offered.discard(note["id"])
            self._send_all({"type": "gone", "id": note["id"]})
        elif kind == "paired":
            self._send_to(note["person"], {"type": "paired"} | note["answer"])
        elif kind == "account":  # a moderator's action on an account (``tavli.server.cafe.moderation``)
            self.account_changed(note)
        elif kind == "note":  # another room's word to one person, on every page he has open
            self._send_to(note["person"], note["message"])
        else:
            for listener in self.note_listeners.get(str(kind), ()):
                listener(note)

    def account_changed(self, note: dict[str, Any]) -> None:
        """A moderator acted on an account: its pages are shown the notice, or closed with it."""
        key = f"a{note['id']}"
        if note.get("notice") is not None:
            self._send_to(key, {"type": "notice", "notice": note["notice"]})
        if note.get("action") == "close":
            for conn in list(self.people.get(key, ())):
                conn.close(CLOSED_CODE, "account closed")
        for listener in self.account_listeners:
            listener(note)

    def _send_to(self, person: str, message: dict[str, Any]) -> None:
        """A note of ``person``'s own: to every page he has open."""
        for conn in list(self.people.get(person, ())):
            conn.send(message)

    def _send_all(self, message: dict[str, Any]) -> None:
        """The lobby's news: to the start pages (encoded once)."""
        sent = orjson.dumps(message).decode()
        for conns in list(self.people.values()):
            for conn in list(conns):
                if conn.seeks:
                    self._news(conn, sent)

    def _news(self, conn: StartPage, text: str) -> None:
        """A piece of the lobby's news for a start page: at once, or gathered for the next ``_flush``."""
        if conn.gathered is None:
            conn.send_text(text)
            return
        conn.gathered.append(text)
        self._gathering.add(conn)
        if self._flush_at is None:
            self._flush_at = asyncio.get_running_loop().call_later(self.batch_seconds, self._flush)

    def _flush(self) -> None:
        """Each page's gathered news as one message: ``{"type": "batch", "messages": [...]}`` (one
        piece alone as itself), in the order it came."""
        self._flush_at = None
        pages, self._gathering = self._gathering, set()
        for conn in pages:
            texts, conn.gathered = conn.gathered or [], []
            if len(texts) == 1:
                conn.send_text(texts[0])
            elif texts:
                conn.send_text('{"type":"batch","messages":[' + ",".join(texts) + "]}")

    # -- the connections ------------------------------------------------------------
    async def join(self, conn: StartPage) -> None:
        """A page connected: a start page is sent the seeks, the counts and the players online,
        an account's page the challenges he sent and was sent; then what it was told while they
        were read (a seek posted meanwhile may be missing from the list: a page reopened as
        another person posts at once)."""
        conn.held = []
        self.people[conn.person].add(conn)
        try:
            listed = await self.listed(conn.person) if conn.seeks else []
            challenges = await self.challenges_of(conn.person) if conn.person.startswith("a") else None
            notices = ([action.notice() for action in await self.moderation_log.unread(int(conn.person[1:]))]
                       if conn.person.startswith("a") and self.moderation_log is not None else [])
            went = await self._refresh([conn.person])
        finally:
            told, conn.held = conn.held, None
        if conn.seeks:
            conn.send({"type": "seeks", "seeks": listed} | self.counts | {"players": self.players})
        if challenges is not None:
            conn.send({"type": "challenges", "challenges": challenges})
        for notice in notices:
            conn.send({"type": "notice", "notice": notice})
        for message in told:
            conn.send_text(message)
        for note in went:
            await self.tell(note)

    async def leave(self, conn: StartPage) -> None:
        """A page closed: its person's seek goes with his last start page; he is no longer online
        with his last page (his challenges go at the next heartbeat, unless a page of his opens
        again meanwhile, as when he goes from one page to another)."""
        self._gathering.discard(conn)
        conns = self.people.get(conn.person)
        if conns is not None:
            conns.discard(conn)
            if any(other.seeks for other in conns):
                return
        async with self.store.engine.begin() as conn_db:
            gone = (await conn_db.execute(delete(seeks).where(seeks.c.owner == conn.person, seeks.c.target == OPEN)
                                          .returning(seeks.c.id))).all()
            if not conns:
                self.people.pop(conn.person, None)
                await conn_db.execute(delete(lobby_people).where(lobby_people.c.person == conn.person))
        for (seek_id,) in gone:
            await self.tell({"k": "gone", "id": seek_id})

    @unbroken
    async def _refresh(self, keys: list[str]) -> list[dict[str, Any]]:
        """Keep the seeks and presence of ``keys`` (people connected here) fresh; clear the stale
        ones of every process, and the challenges whose players left; the notes of those that went."""
        now = time.time()
        async with self.store.engine.begin() as conn:
            if keys:
                await conn.execute(update(seeks).where(seeks.c.owner.in_(keys), seeks.c.target == OPEN)
                                   .values(until=now + SEEK_SECONDS))
                # one statement that inserts or moves on: a person may be on two processes at once
                fresh = insert_for(self.store.engine.dialect.name)(lobby_people)
                await conn.execute(fresh.on_conflict_do_update(index_elements=[lobby_people.c.person],
                                                               set_={"until": fresh.excluded.until}),
                                   [{"person": k, "until": now + SEEK_SECONDS} for k in keys])
            gone = (await conn.execute(delete(seeks).where(seeks.c.until < now).returning(*seeks.c))).all()
            await conn.execute(delete(lobby_people).where(lobby_people.c.until < now))
            away = (await conn.execute(delete(seeks).where(  # a challenge goes with either player
                seeks.c.target != OPEN, ~select(lobby_people.c.person).where(lobby_people.c.person == seeks.c.owner)
                .exists() | ~select(lobby_people.c.person).where(lobby_people.c.person == seeks.c.target).exists())
                .returning(*seeks.c))).all()
            online = (await conn.execute(select(func.count()).select_from(lobby_people))).scalar() or 0
            seated = (await conn.execute(select(func.count()).select_from(presence.outerjoin(seat_accounts, and_(
                seat_accounts.c.match_id == presence.c.match_id, seat_accounts.c.seat == presence.c.seat)))
                .where(presence.c.until > now, ~exists().where(  # a player with a page open counts once
                    lobby_people.c.person == literal("a") + cast(seat_accounts.c.account_id, String))))
                      ).scalar() or 0
            players = (await conn.execute(select(accounts.c.name).select_from(lobby_people.join(
                accounts, lobby_people.c.person == literal("a") + cast(accounts.c.id, String)))
                .where(accounts.c.deleted.is_(False)).order_by(accounts.c.name_key).limit(PLAYERS_LISTED))
                       ).scalars().all()
            in_play = (select(func.count(func.distinct(presence.c.match_id)))
                       .select_from(presence.join(matches, matches.c.id == presence.c.match_id))
                       .where(and_(presence.c.until > now, matches.c.over.is_(False))))
            playing = (await conn.execute(in_play)).scalar() or 0
        self.counts = {"online": int(online) + int(seated), "playing": int(playing)}
        self.players = [str(name) for name in players]
        return [gone_note(stored(row), "expired") for row in gone] + [gone_note(stored(row), "left") for row in away]

    async def heartbeat(self) -> None:
        """Every few seconds: the seeks of the people here kept, the stale ones gone (the
        challenges expired, or whose player left, told to their players), the counts and the
        players online sent."""
        before = dict(self.counts), list(self.players)
        for note in await self._refresh(sorted(self.people)):
            await self.tell(note)
        if (self.counts, self.players) != before:
            self._send_all({"type": "counts"} | self.counts | {"players": self.players})


def stored(row: Any) -> dict[str, Any]:
    """A seek as its database row holds it."""
    return {"id": str(row.id), "owner": row.owner, "account_id": row.account_id, "name": row.name,
            "rating": float(row.rating), "settings": json.loads(row.settings), "created": float(row.created),
            "target": row.target or OPEN, "until": float(row.until)}


def gone_note(seek: dict[str, Any], why: str) -> dict[str, Any]:
    """The note that ``seek`` went (``why``: accepted, paired, cancelled, declined, expired, left):
    a challenge's says so to its two players, in words they can be told."""
    if seek["target"] == OPEN:
        return {"k": "gone", "id": seek["id"]}
    return {"k": "gone", "id": seek["id"], "owner": seek["owner"], "target": seek["target"], "why": why,
            "from": seek["name"], "to": seek["settings"].get("to")}


def challenge_shown(seek: dict[str, Any], viewer: str, now: float) -> dict[str, Any]:
    """A challenge as its two players are shown it (``mine``: ``viewer`` sent it)."""
    settings = seek["settings"]
    return {"id": seek["id"], "from": seek["name"], "to": settings.get("to"), "rating": round(seek["rating"]),
            "length": settings["length"], "games": settings["games"], "clock": settings["clock"],
            "rated": settings["rated"], "expires": round(max(0.0, seek["until"] - now)),
            "mine": seek["owner"] == viewer}


def shown(seek: dict[str, Any], viewer: str | None, now: float) -> dict[str, Any]:
    """A seek as the API and the start pages show it (``mine``: ``viewer``'s own)."""
    settings = seek["settings"]
    return {"id": seek["id"], "name": seek["name"], "rating": round(seek["rating"]),
            "length": settings["length"], "games": settings["games"], "clock": settings["clock"],
            "rated": settings["rated"], "range": settings["range"], "quick": settings.get("quick", False),
            "waiting": round(max(0.0, now - seek["created"])), "mine": viewer is not None and seek["owner"] == viewer,
            "account": seek["account_id"] is not None}
