"""The ASGI app: pages, the JSON API and the WebSocket protocol (docs/web.md).

>>> from starlette.testclient import TestClient
>>> with TestClient(create_app("sqlite://")) as client:
...     client.get("/healthz").json()
{'ok': True}
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import ipaddress
import itertools
import json
import os
import time
from collections import Counter, OrderedDict, defaultdict, deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import orjson
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, Router, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from tavli.bots.match_equity import MatchScore
from tavli.bots.neural import DEFAULT_LEVEL, LEVELS
from tavli.errors import Reason, translations
from tavli.formats.record import dumps
from tavli.server.chances import ChanceWatch
from tavli.server.openings import openings_json, practice_json, roll_json
from tavli.server.positions import PositionAnalysisError, position_json
from tavli.server.protocol import (
    Answer,
    Chances,
    Claim,
    Hello,
    Hint,
    Ping,
    PlayMessage,
    ProtocolError,
    Rematch,
    Resign,
    Roll,
    message_id,
    parse,
)
from tavli.server.reasons import one_line, reason_json
from tavli.server.review import REVIEW_DEPTH, Reviewer, hint_json, read_match_file
from tavli.server.service import (
    MATCH_ID,
    PRESENCE_SECONDS,
    SEATS,
    ActionError,
    LiveMatch,
    MatchRequestError,
    MatchService,
    SeatTaken,
    seat_name,
)
from tavli.server.store import Announcement, Store
from tavli.server.view import joined, seat_state, shared_state, step_tree_json
from tavli.study.openings import OpeningsError

STATIC = Path(__file__).parent / "static"
HEARTBEAT_SECONDS = 10.0
POLL_SECONDS = 2.0
MESSAGES_PER_SECOND = 20.0
MESSAGE_BURST = 40.0
REFUSALS_BEFORE_CLOSE = 200
MATCHES_PER_MINUTE = 30
ANALYSES_PER_MINUTE = 60
"""Positions one client address may have analysed a minute (``GET /api/position``)."""
FILE_REVIEWS_PER_MINUTE = 6
"""Match files one client address may have reviewed a minute (``POST /api/review``)."""
FILE_REVIEWS_WAITING = 4
"""Uploaded reviews waiting or being made at once; beyond, the server is busy (503)."""
MAX_FILE_BYTES = 1 << 20
"""The largest match file reviewed (a 25-point match record is about 300 KB)."""
ANALYSES_AT_ONCE = 2
"""Position analyses searched at the same time; more wait their turn (one core each)."""
MAX_REQUEST_BYTES = 4096
CONNECTIONS_PER_ADDRESS = 100
HELLO_SECONDS = 5.0
"""A WebSocket that has not joined a match with hello this long after opening is closed."""
REQUEST_SECONDS = 10.0
"""A request body that takes longer than this to arrive is refused (a slow client holds nothing)."""
LIMITER_ADDRESSES = 100_000
"""The most client addresses a rate limiter remembers (the least recently seen are forgotten)."""
WORKER = str(os.getpid()).encode()


@dataclass
class TokenBucket:
    """``rate`` actions per second with bursts of ``burst``."""

    rate: float
    burst: float
    tokens: float = 0.0
    stamp: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        self.tokens = self.burst

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


@dataclass(eq=False)
class Connection:
    socket: WebSocket
    match_id: str | None = None
    role: str | None = None
    steps: bool = False
    token: str = ""
    bucket: TokenBucket = field(default_factory=lambda: TokenBucket(MESSAGES_PER_SECOND, MESSAGE_BURST))
    refusals: int = 0

    async def send(self, message: dict[str, Any]) -> None:
        await self.send_text(orjson.dumps(message).decode())

    async def send_text(self, text: str) -> None:
        if self.socket.application_state == WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):  # a socket that closes meanwhile
                await self.socket.send_text(text)


class Hub:
    """The open connections of this process, by match, and the states they are sent."""

    def __init__(self, service: MatchService) -> None:
        self.service = service
        self.rooms: dict[str, set[Connection]] = defaultdict(set)
        service.listeners.append(self.broadcast)
        self._delivering: set[str] = set()
        self._inbox: dict[str, list[Announcement]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self.chances = ChanceWatch()  # each side's chance of winning the match, for the sockets that ask

    def local_seats(self, match_id: str) -> set[str]:
        return {c.role for c in self.rooms.get(match_id, ()) if c.role in SEATS}

    async def connected(self, live: LiveMatch) -> tuple[dict[str, bool], dict[str, float]]:
        """Who is connected (here, through another process, or a bot), and the stored presence."""
        local = self.local_seats(live.row.id)
        out = {name: name in local or live.bot_level(color) is not None for name, color in SEATS.items()}
        stored: dict[str, float] = {}
        if not all(out.values()):
            stored = await self.service.store.presence_of(live.row.id)
            now = time.time()
            for name in out:
                out[name] = out[name] or stored.get(name, 0.0) > now
        return out, stored

    async def state_for(self, live: LiveMatch, conn: Connection,
                        presence: tuple[dict[str, bool], dict[str, float]] | None = None) -> str:
        """The ``state`` message for one connection, as text: the part every viewer shares is
        encoded once per action (``LiveMatch.encoded``), the viewer's own part each time."""
        connected, stored = presence or await self.connected(live)
        claim_at = self.claim_at(live, conn.role, connected, stored)
        shared = live.encoded("shared", lambda: shared_state(live) | {
            "coach": bool(live.row.settings.get("coach", False))})
        seat = seat_state(live, conn.role or "spectator", steps=False, connected=connected,
                          can_claim=claim_at is not None and claim_at <= time.time(),
                          claim_after=self.service.claim_after, joined=stored.keys())
        seat["claim_at"] = claim_at
        legal = seat.pop("legal")
        parts = [shared, orjson.dumps(seat), b'{"legal":null}']
        if legal is not None:  # the plays, and the step tree for a board, worked out once per roll
            inner = [live.encoded("plays", lambda: legal)]
            if conn.steps:
                inner.append(live.encoded("tree", lambda: {"tree": step_tree_json(live.match.legal_plays())}))
            parts[2] = b'{"legal":' + joined(*inner) + b"}"
        return joined(*parts).decode()

    def claim_at(self, live: LiveMatch, role: str | None, connected: dict[str, bool],
                 stored: dict[str, float]) -> float | None:
        """When ``role`` may claim the game if the opponent stays away; None if he may not."""
        match = live.match
        if role not in SEATS or match.is_over or match.turn == SEATS[role]:
            return None
        other = seat_name(match.turn)
        if connected.get(other, True) or other not in stored:  # away, not yet come: nothing to claim
            return None
        return max(stored[other], live.last_action) + self.service.claim_after

    async def broadcast(self, live: LiveMatch) -> None:
        conns = list(self.rooms.get(live.row.id, ()))
        if not conns:
            return
        presence = await self.connected(live)
        cache: dict[tuple[str | None, bool], str] = {}
        for conn in conns:
            key = (conn.role, conn.steps)
            if key not in cache:
                cache[key] = await self.state_for(live, conn, presence)
            await conn.send_text(cache[key])
        self.chances.update(live, conns)  # a task of its own, for the connections that asked

    async def join(self, conn: Connection, match_id: str, role: str) -> None:
        self.rooms[match_id].add(conn)
        conn.match_id, conn.role = match_id, role
        if role in SEATS:
            await self.service.store.set_presence(match_id, [role], time.time() + PRESENCE_SECONDS)

    async def leave(self, conn: Connection) -> None:
        match_id = conn.match_id
        if match_id is None:
            return
        room = self.rooms.get(match_id)
        if room is not None:
            room.discard(conn)
            if not room:
                del self.rooms[match_id]
                self.service.forget(match_id)
        if conn.role in SEATS and conn.role not in self.local_seats(match_id):
            await self.service.store.set_presence(match_id, [conn.role], time.time())
            live = await self.service.get(match_id) if match_id in self.rooms else None
            if live is not None:
                await self.broadcast(live)

    async def heartbeat(self) -> None:
        """Keep the stored presence of this process's seats fresh."""
        seats = [(match_id, seat) for match_id in list(self.rooms) for seat in sorted(self.local_seats(match_id))]
        await self.service.store.refresh_presence(seats, time.time() + PRESENCE_SECONDS)

    async def poll(self) -> None:
        """Pick up actions that another server process stored (a safety net where it is not
        announced: SQLite, or while the PostgreSQL listener reconnects)."""
        ids = list(self.rooms)
        stored = await self.service.store.seqs(ids)
        for match_id in ids:
            live = self.service.peek(match_id)
            if live is not None and stored.get(match_id, live.seq) > live.seq:
                await self.deliver(match_id)

    def heard(self, note: Announcement) -> None:
        """Another server process stored actions of a match (or a seat joined or left there):
        show it at once to whoever watches the match here. A match's announcements are applied
        in order, by one task at a time."""
        match_id = note.match_id
        live = self.service.peek(match_id)
        if match_id not in self.rooms or live is None:
            return
        if note.seq < 0:  # a seat joined or left there: show who is connected, and his name
            task = asyncio.create_task(self.rejoined(live))
        else:
            self._inbox.setdefault(match_id, []).append(note)
            if match_id in self._delivering:
                return  # the task at work takes it next
            self._delivering.add(match_id)
            task = asyncio.create_task(self.deliver(match_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def rejoined(self, live: LiveMatch) -> None:
        await self.service.reload_names(live)
        await self.broadcast(live)

    async def deliver(self, match_id: str) -> None:
        """Catch up with another process's actions on ``match_id`` and show them; again while
        more are announced meanwhile."""
        self._delivering.add(match_id)
        try:
            while True:
                notes = self._inbox.pop(match_id, [])
                live = await self.service.catch_up(match_id, notes)
                if live is not None:
                    await self.broadcast(live)
                if match_id not in self._inbox:
                    return
        finally:
            self._delivering.discard(match_id)
            self._inbox.pop(match_id, None)


class RateLimiter:
    """At most ``limit`` events per ``window`` seconds per key (new matches per client address).

    It remembers at most ``max_keys`` keys: the least recently seen go first, so that many
    addresses cannot make it grow without bound.

    >>> limiter = RateLimiter(2, 60.0)
    >>> [limiter.allow("a"), limiter.allow("a"), limiter.allow("a"), limiter.allow("b")]
    [True, True, False, True]
    """

    def __init__(self, limit: int, window: float, max_keys: int = LIMITER_ADDRESSES) -> None:
        self.limit, self.window, self.max_keys = limit, window, max_keys
        self.events: OrderedDict[str, deque[float]] = OrderedDict()

    def allow(self, key: str) -> bool:
        now = time.monotonic()
        # forget the least recently seen keys whose events have all expired (two at a time: at least
        # as fast as keys come), and the least recently seen beyond the bound
        for oldest, events in list(itertools.islice(self.events.items(), 2)):
            if oldest == key or (events and events[-1] > now - self.window):
                break
            del self.events[oldest]
        q = self.events.get(key)
        if q is None:
            q = self.events[key] = deque()
            while len(self.events) > self.max_keys:
                self.events.popitem(last=False)
        else:
            self.events.move_to_end(key)
        while q and q[0] <= now - self.window:
            q.popleft()
        if len(q) >= self.limit:
            return False
        q.append(now)
        return True

    def refund(self, key: str) -> None:
        """Take back the last event of ``key`` (a request that turned out invalid does not count)."""
        q = self.events.get(key)
        if q:
            q.pop()


def client_address(host: str) -> str:
    """The key a client's limits count under: its address, or its /64 network for IPv6
    (one machine usually holds a whole /64).

    >>> client_address("2001:db8::1"), client_address("192.0.2.7")
    ('2001:db8::/64', '192.0.2.7')
    """
    if ":" in host:
        try:
            return str(ipaddress.ip_network(f"{host}/64", strict=False))
        except ValueError:
            return host
    return host


def origin_netloc(url: str) -> str | None:
    """``scheme://host[:port]`` of a URL or Origin header, lower case; None if it is not one.

    >>> origin_netloc("https://Tavli.example.com"), origin_netloc("null")
    ('https://tavli.example.com', None)
    """
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    return f"{parts.scheme}://{parts.netloc.lower()}"


def without_default_port(netloc: str) -> str:
    """``host:80`` and ``host:443`` as ``host`` (a browser leaves the default port out of Origin)."""
    for port in (":80", ":443"):
        if netloc.endswith(port):
            return netloc[: -len(port)]
    return netloc


def check_proxies(proxies: Iterable[str]) -> list[str]:
    """The trusted proxies as given, each checked to be an IP address or network.

    >>> check_proxies(["10.0.0.1", "192.168.0.0/16"])
    ['10.0.0.1', '192.168.0.0/16']
    """
    out = []
    for proxy in proxies:
        try:
            ipaddress.ip_network(proxy.strip(), strict=False)
        except ValueError:
            raise ValueError(f"{proxy!r} is not an IP address or network") from None
        out.append(proxy.strip())
    return out


REASONS_SCRIPT = b"export const REASONS_EL = " + orjson.dumps(dict(translations("el"))) + b";\n"
"""The Greek words of every reason, as the pages import them (``static/strings.js``)."""
REASONS_TAG = '"' + hashlib.sha256(REASONS_SCRIPT).hexdigest()[:16] + '"'


async def reasons_script(request: Request) -> Response:
    """``/static/reasons.js``: made from the library's table, so the pages and the library say the
    same; revalidated like the other files (an unchanged table answers 304)."""
    headers = {"Cache-Control": "no-cache", "ETag": REASONS_TAG}
    asked = {tag.strip().removeprefix("W/") for tag in request.headers.get("if-none-match", "").split(",")}
    if REASONS_TAG in asked or "*" in asked:  # a proxy may have weakened the tag
        return Response(status_code=304, headers=headers)
    return Response(REASONS_SCRIPT, media_type="text/javascript", headers=headers)


def error(reason: str | Reason | BaseException, status: int) -> JSONResponse:
    """``{"error": one line, "reason": the same for the browser to translate}``."""
    return JSONResponse({"error": one_line(reason), "reason": reason_json(reason)}, status_code=status)


def create_app(database: str = "sqlite:///tavli.db", *, claim_after: float = 120.0, bot_delay: float = 0.0,
               matches_per_minute: int = MATCHES_PER_MINUTE, analyses_per_minute: int = ANALYSES_PER_MINUTE,
               file_reviews_per_minute: int = FILE_REVIEWS_PER_MINUTE,
               messages_per_second: float = MESSAGES_PER_SECOND,
               message_burst: float = MESSAGE_BURST,
               connections_per_address: int = CONNECTIONS_PER_ADDRESS, hello_seconds: float = HELLO_SECONDS,
               request_seconds: float = REQUEST_SECONDS, trusted_proxies: Iterable[str] = (),
               allowed_origins: Iterable[str] = (), review_depth: int = REVIEW_DEPTH,
               poll_seconds: float = POLL_SECONDS, bot_workers: int = 0) -> Starlette:
    """The web app on ``database`` (``sqlite:///FILE``, ``sqlite://`` in memory, or ``postgresql://...``).

    ``trusted_proxies``: the addresses (or networks) whose ``X-Forwarded-For`` is believed, none by
    default. ``allowed_origins``: the web origins other than the server's own whose pages may open
    WebSockets (``https://example.com``). ``review_depth``: the plies of the reviews' analysis.
    ``poll_seconds``: how often to look for actions other server processes stored, besides
    hearing of them (PostgreSQL); 0 never. ``bot_workers``: processes that think for the bots
    (0: a thread of this process).
    """
    proxies = check_proxies(trusted_proxies)
    origins: set[str] = set()
    for url in allowed_origins:
        netloc = origin_netloc(url)
        if netloc is None:
            raise ValueError(f"not an origin: {url!r} (give scheme and host, such as https://example.com)")
        origins.add(netloc)
    store = Store(database)
    service = MatchService(store, claim_after=claim_after, bot_delay=bot_delay, bot_workers=bot_workers)
    hub = Hub(service)
    reviewer = Reviewer(service, review_depth)
    creations = RateLimiter(matches_per_minute, 60.0)
    analyses = RateLimiter(analyses_per_minute, 60.0)
    analysing = asyncio.Semaphore(ANALYSES_AT_ONCE)
    file_reviews = RateLimiter(file_reviews_per_minute, 60.0)
    files_waiting = 0

    def unwatched(match_id: str) -> None:
        """Keep no replay of a match nobody here watches: another process may move it on, and
        only the matches watched here hear of that."""
        if match_id not in hub.rooms:
            service.forget(match_id)

    stopping = asyncio.Event()

    async def pause(seconds: float) -> bool:
        """Wait ``seconds``; False if the app is stopping meanwhile."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stopping.wait(), seconds)
        return not stopping.is_set()

    # The background jobs end between rounds when the app stops, never in the middle of one: a
    # job cancelled inside a database call can leave its connection to be closed at garbage
    # collection, after the event loop has gone (and then the closing waits for ever).
    async def every(seconds: float, job: Any) -> None:
        while await pause(seconds):
            with contextlib.suppress(Exception):  # a failed round is retried at the next
                await job()

    async def listen() -> None:
        """Hear the other server processes' actions (PostgreSQL); reconnect if the line drops."""
        while not stopping.is_set():
            with contextlib.suppress(Exception):
                if not store.listening() and not await store.listen(hub.heard):
                    return  # SQLite: one process, nothing to hear
            await pause(1.0)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await store.create_tables()
        await service.bots_ready()
        tasks = [asyncio.create_task(every(HEARTBEAT_SECONDS, hub.heartbeat)), asyncio.create_task(listen())]
        if poll_seconds > 0:
            tasks.append(asyncio.create_task(every(poll_seconds, hub.poll)))
        try:
            yield
        finally:
            stopping.set()
            await asyncio.wait(tasks, timeout=10.0)
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            reviewer.close()
            service.close()
            if sessions:  # let closing connections record their absence before the database goes
                await asyncio.wait(sessions, timeout=5.0)
            await store.close()

    async def page(request: Request) -> Response:
        name = "board.html" if "match_id" in request.path_params else "home.html"
        return FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})

    async def review_page(request: Request) -> Response:
        return FileResponse(STATIC / "review.html", headers={"Cache-Control": "no-cache"})

    async def analysis(request: Request) -> Response:
        match_id = request.path_params["match_id"]
        if not MATCH_ID.fullmatch(match_id):
            return error("no such match", 404)
        auth = request.headers.get("authorization", "")
        token = auth[7:].strip() if auth[:7].lower() == "bearer " else ""
        role = await store.role(match_id, token) if 0 < len(token) <= 128 else None
        try:
            status, answer = await reviewer.review(match_id, role)
        except ActionError as exc:
            return error(exc, 500)
        finally:
            unwatched(match_id)
        if isinstance(answer, str):  # the stored review, with who asks (a page draws it from his side)
            body = joined(answer.encode(), orjson.dumps({"you": role or "spectator"}))
            return Response(body, media_type="application/json", headers={"Cache-Control": "no-cache"})
        return JSONResponse(answer, status_code=status, headers={"Cache-Control": "no-cache"})

    async def openings_page(request: Request) -> Response:
        return FileResponse(STATIC / "openings.html", headers={"Cache-Control": "no-cache"})

    async def practice_page(request: Request) -> Response:
        return FileResponse(STATIC / "practice.html", headers={"Cache-Control": "no-cache"})

    def from_opening_tables(build: Callable[..., dict[str, Any]]) -> Callable[[Request], Awaitable[Response]]:
        """A route that answers ``build(**path parameters)`` from the opening tables, or a 404
        saying why not (an unknown game or roll)."""
        async def answer(request: Request) -> Response:
            try:  # the first call of each reads the tables and builds the boards: off the event loop
                found = await asyncio.to_thread(build, **request.path_params)
            except OpeningsError as exc:
                return error(exc, 404)
            return JSONResponse(found, headers={"Cache-Control": "public, max-age=3600"})
        return answer

    async def review_file(request: Request) -> Response:
        nonlocal files_waiting
        client = client_address(request.client.host if request.client else "?")
        raw = await read_body(request, MAX_FILE_BYTES)
        if isinstance(raw, Response):
            return raw
        if not file_reviews.allow(client):
            return error(Reason("at most {count} match files a minute: try again soon",
                                count=file_reviews_per_minute), 429)
        try:  # reading a record replays and checks every play: off the event loop
            record = await asyncio.to_thread(read_match_file, raw)
        except (ValueError, RecursionError) as exc:
            file_reviews.refund(client)  # only files reviewed count
            return error(exc if isinstance(exc, ValueError) else "the file is malformed", 400)
        if files_waiting >= FILE_REVIEWS_WAITING:
            file_reviews.refund(client)
            return error("the server is busy reviewing other files: try again in a minute", 503)
        files_waiting += 1
        try:
            text = await reviewer.review_file(record)
        finally:
            files_waiting -= 1
        body = joined(text.encode(), orjson.dumps({"you": "spectator"}))
        return Response(body, media_type="application/json", headers={"Cache-Control": "no-store"})

    async def position_page(request: Request) -> Response:
        return FileResponse(STATIC / "position.html", headers={"Cache-Control": "no-cache"})

    async def position_analysis(request: Request) -> Response:
        query = request.query_params
        numbers = {}
        for name, default, what in (
                ("depth", "1", Reason("the depth is 0, 1 or 2 plies")),
                ("length", "0", Reason("the match length is a number of points (0: points per game)")),
                ("white", "0", Reason("White's score is a number of points")),
                ("black", "0", Reason("Black's score is a number of points"))):
            try:
                numbers[name] = int(query.get(name, default) or default)
            except ValueError:
                return error(what, 400)
        client = client_address(request.client.host if request.client else "?")
        if not analyses.allow(client):
            return error(Reason("at most {count} analyses a minute: try again soon", count=analyses_per_minute), 429)
        try:
            async with analysing:  # the search runs off the event loop, a core at a time
                answer = await asyncio.to_thread(position_json, query.get("position", ""), query.get("dice", ""),
                                                 order=query.get("order", "tavli"), **numbers)
        except PositionAnalysisError as exc:
            analyses.refund(client)  # only what was analysed counts
            return error(exc, 400)
        return JSONResponse(answer, headers={"Cache-Control": "public, max-age=86400"})

    async def health(request: Request) -> Response:
        return JSONResponse({"ok": True})

    async def levels(request: Request) -> Response:
        return JSONResponse({"levels": [{"name": lv.name, "description": lv.description, "depth": lv.depth}
                                        for lv in LEVELS.values()], "default": DEFAULT_LEVEL})

    async def read_body(request: Request, limit: int = MAX_REQUEST_BYTES) -> bytes | Response:
        raw = b""
        try:
            async with asyncio.timeout(request_seconds):
                async for chunk in request.stream():  # read no more than the limit, whatever the client says
                    raw += chunk
                    if len(raw) > limit:
                        return error(Reason("the request is too large: at most {limit} bytes", limit=limit), 413)
        except TimeoutError:
            return error(Reason("the request took more than {seconds:g} s to arrive", seconds=request_seconds), 408)
        return raw

    async def json_body(request: Request) -> object:
        """The request's body read as JSON (empty: ``{}``), or the error response for a body too
        large, too slow or not JSON."""
        raw = await read_body(request)
        if isinstance(raw, Response):
            return raw
        try:
            return json.loads(raw or b"{}")
        except (ValueError, RecursionError):
            return error("the request is not JSON", 400)

    def too_many_matches() -> Response:
        return error(Reason("at most {count} new matches a minute: try again soon", count=matches_per_minute), 429)

    async def new_match(request: Request) -> Response:
        client = client_address(request.client.host if request.client else "?")
        body = await json_body(request)
        if isinstance(body, Response):
            return body
        if not creations.allow(client):
            return too_many_matches()
        try:
            answer = await service.create(body)
        except (ValueError, TypeError, RecursionError) as exc:  # only valid requests count
            creations.refund(client)
            return error(exc if isinstance(exc, ValueError) else "the request is malformed", 400)
        unwatched(answer["match"])
        return JSONResponse(answer, status_code=201)

    async def open_matches(request: Request) -> Response:
        listed = await service.open_matches()
        return JSONResponse({"matches": listed}, headers={"Cache-Control": "no-store"})

    async def take_open_seat(request: Request) -> Response:
        client = client_address(request.client.host if request.client else "?")
        match_id = request.path_params["match_id"]
        body = await json_body(request)
        if isinstance(body, Response):
            return body
        if not isinstance(body, dict) or set(body) - {"name"}:
            return error("the request is a JSON object with at most a name", 400)
        if not creations.allow(client):  # taking a seat counts as making a match
            return too_many_matches()
        try:
            answer = await service.take_open_seat(match_id, body.get("name"))
        except SeatTaken as exc:
            creations.refund(client)
            return error(exc, 409)
        except MatchRequestError as exc:
            creations.refund(client)
            return error(exc, 400)
        return JSONResponse(answer, status_code=201)

    async def dice(request: Request) -> Response:
        match_id = request.path_params["match_id"]
        if not MATCH_ID.fullmatch(match_id):
            return error("no such match", 404)
        try:
            record = await service.dice_record(match_id)
        except ActionError as exc:
            return error(exc, 500)
        finally:
            unwatched(match_id)
        if record is None:
            return error("no such match", 404)
        return JSONResponse(record)

    async def match_record(request: Request) -> Response:
        try:
            record = await service.match_record(request.path_params["match_id"])
        except ActionError as exc:
            return error(exc, 500)
        finally:
            unwatched(request.path_params["match_id"])
        if record is None:
            return error("no such match", 404)
        return Response(dumps(record), media_type="application/json")

    sessions: set[asyncio.Task[Any]] = set()
    open_per_address: Counter[str] = Counter()

    async def socket(websocket: WebSocket) -> None:
        task = asyncio.current_task()
        if task is not None:
            sessions.add(task)
            task.add_done_callback(sessions.discard)
        origin = websocket.headers.get("origin")
        if origin is not None and not same_origin(origin, websocket.headers.get("host", "")):
            await websocket.close(code=1008, reason="this page's origin may not connect")  # 403 before accepting
            return
        await websocket.accept(headers=[(b"x-tavli-worker", WORKER)])  # which server process: for operators
        address = client_address(websocket.client.host if websocket.client else "?")
        if open_per_address[address] >= connections_per_address:
            await websocket.send_text(json.dumps({
                "type": "error", "code": "rate-limited", "id": None,
                "message": f"at most {connections_per_address} open connections from one address"}))
            await websocket.close(code=1008, reason="too many connections")
            return
        open_per_address[address] += 1
        try:
            await session(websocket)
        finally:
            open_per_address[address] -= 1
            if open_per_address[address] <= 0:
                del open_per_address[address]

    def same_origin(origin: str, host: str) -> bool:
        """A browser's page may connect if it comes from this server's own host or an allowed origin."""
        netloc = origin_netloc(origin)
        if netloc is None:
            return False
        return without_default_port(netloc.split("://", 1)[1]) == without_default_port(host.strip().lower()) \
            or netloc in origins

    async def session(websocket: WebSocket) -> None:
        conn = Connection(websocket, bucket=TokenBucket(messages_per_second, message_burst))
        match_id = websocket.path_params["match_id"]
        hello_by = time.monotonic() + hello_seconds
        try:
            while True:
                if conn.role is None:  # not joined yet: wait no longer than the hello deadline
                    try:
                        async with asyncio.timeout(max(0.0, hello_by - time.monotonic())):
                            message = await websocket.receive()
                    except TimeoutError:
                        await conn.send({"type": "error", "code": "not-joined", "id": None,
                                         "message": f"no hello within {hello_seconds:g} s: closing"})
                        await websocket.close(code=1008, reason="no hello")
                        break
                else:
                    message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    text = message.get("bytes") or b""
                await handle(conn, match_id, text)
                if conn.refusals >= REFUSALS_BEFORE_CLOSE:
                    await websocket.close(code=1008, reason="too many messages")
                    break
        except WebSocketDisconnect:
            pass
        finally:
            # in a task of its own, so that a cancelled session still records the absence
            leaving = asyncio.create_task(hub.leave(conn))
            sessions.add(leaving)
            leaving.add_done_callback(sessions.discard)
            await asyncio.shield(leaving)

    async def handle(conn: Connection, match_id: str, text: str | bytes) -> None:
        if not conn.bucket.take():
            conn.refusals += 1
            await conn.send({"type": "error", "code": "rate-limited", "id": message_id(text),
                             "message": f"at most {messages_per_second:g} messages a second: slow down"})
            return
        try:
            msg = parse(text)
        except ProtocolError as exc:
            await conn.send({"type": "error", "code": exc.code, "message": str(exc), "id": message_id(text)})
            return
        try:
            if isinstance(msg, Ping):
                await conn.send({"type": "pong", "id": msg.id})
                return
            if isinstance(msg, Hello):
                if conn.role is not None:
                    raise ActionError("bad-message", "already joined: send hello once")
                role = await store.role(match_id, msg.token) if MATCH_ID.fullmatch(match_id) else None
                live = await service.get(match_id) if role else None
                if role is None or live is None:
                    raise ActionError("bad-token", "this link is not valid for this match")
                conn.steps, conn.token = msg.steps, msg.token
                if match_id not in hub.rooms:  # not watched here until now: another process may be ahead
                    live = await service.catch_up(match_id) or live
                if role in SEATS and msg.name is not None:  # before joining: the join tells the other processes
                    try:
                        await service.name_seat(live, role, msg.name)
                    except MatchRequestError as exc:
                        raise ActionError("bad-message", exc) from None
                await hub.join(conn, match_id, role)
                await hub.broadcast(live)
                await service.wake(match_id)
                return
            if conn.role is None:
                raise ActionError("not-joined", "send hello with your token first")
            if isinstance(msg, Hint):
                await conn.send(await hint(conn, match_id, msg))
                return
            if isinstance(msg, Chances):
                live = await service.get(match_id)
                if live is not None:
                    await hub.chances.subscribe(conn, live, conn.role, msg.on)
                return
            assert isinstance(msg, Roll | PlayMessage | Claim | Resign | Answer | Rematch)
            play = msg.play if isinstance(msg, PlayMessage) else None
            await service.act(match_id, conn.role, msg.type, msg.seq, play,
                              points=msg.points if isinstance(msg, Resign) else 1,
                              resign_match=isinstance(msg, Resign) and msg.match,
                              accept=isinstance(msg, Answer) and msg.accept, token=conn.token)
        except ActionError as exc:
            await conn.send({"type": "error", "code": exc.code, "message": str(exc), "reason": reason_json(exc.reason),
                             "id": msg.id})
            if exc.code in ("stale", "illegal", "not-your-turn") and conn.match_id is not None:
                live = await service.get(conn.match_id)
                if live is not None:
                    await conn.send_text(await hub.state_for(live, conn))

    async def hint(conn: Connection, match_id: str, msg: Hint) -> dict[str, Any]:
        """The coach's answer to a hint: the best plays of the roll of the seat on its turn."""
        live = await service.get(match_id)
        if live is None:
            raise ActionError("bad-token", "this link is not valid for this match")
        if not live.row.settings.get("coach", False):
            raise ActionError("no-coach", "this match was created without the coach")
        match = live.match
        if conn.role not in SEATS or match.is_over or match.turn != SEATS[conn.role]:
            raise ActionError("not-your-turn", "hints are for the player on his turn")
        if match.dice is None:
            raise ActionError("not-rolled", "roll first: a hint is for the dice rolled")
        seq, position, dice, score = live.seq, match.game.position, match.dice, MatchScore.of(match)
        try:  # for the match, as the bots play and the review ranks
            found = await asyncio.to_thread(hint_json, position, dice, msg.play, score=score)
        except ValueError as exc:
            raise ActionError("illegal", exc) from None
        return {"type": "hint", "id": msg.id, "seq": seq, "dice": str(dice)} | found

    routes = [
        Route("/", page),
        Route("/match/{match_id}", page),
        Route("/match/{match_id}/review", review_page),
        Route("/review", review_page),
        Route("/api/review", review_file, methods=["POST"]),
        Route("/openings", openings_page),
        Route("/practice", practice_page),
        Route("/api/openings/{game}", from_opening_tables(openings_json)),
        Route("/api/openings/{game}/{roll}", from_opening_tables(roll_json)),
        Route("/api/openings/{game}/{roll}/practice", from_opening_tables(practice_json)),
        Route("/position", position_page),
        Route("/api/position", position_analysis),
        Route("/healthz", health),
        Route("/api/levels", levels),
        Route("/api/matches", new_match, methods=["POST"]),
        Route("/api/open", open_matches),
        Route("/api/open/{match_id}", take_open_seat, methods=["POST"]),
        Route("/api/matches/{match_id}/dice", dice),
        Route("/api/matches/{match_id}/record", match_record),
        Route("/api/matches/{match_id}/analysis", analysis),
        WebSocketRoute("/ws/{match_id}", socket),
        # the pages' files compressed (their words in two languages are most of what a page loads)
        Mount("/static", GZipMiddleware(Router([
            Route("/reasons.js", reasons_script),
            Mount("/", StaticFiles(directory=STATIC, check_dir=False)),
        ])), name="static"),
    ]
    # X-Forwarded-For counts only from the proxies the operator names (uvicorn's own trust is off)
    middleware = [Middleware(ProxyHeadersMiddleware, trusted_hosts=proxies)] if proxies else []
    app = Starlette(routes=routes, lifespan=lifespan, middleware=middleware)
    app.state.service = service
    app.state.hub = hub
    app.state.reviewer = reviewer
    return app
