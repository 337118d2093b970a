"""The limits that keep one client from holding the server: rates (``RateLimiter``), request
bodies (``read_body``), the origins whose pages may connect (``same_origin``) and the proxies
believed (``check_proxies``). A WebSocket's message rate is the protocol's
(``tavli.server.realtime.protocol.TokenBucket``)."""

from __future__ import annotations

import asyncio
import ipaddress
import itertools
import json
import time
from collections import OrderedDict, deque
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection, Request
from starlette.responses import Response

from tavli.errors import Reason
from tavli.server.routes.responses import error

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


def client_of(connection: HTTPConnection) -> str:
    """The key the limits count a request or a WebSocket under (``client_address``)."""
    return client_address(connection.client.host if connection.client else "?")


def check_origins(allowed_origins: Iterable[str]) -> frozenset[str]:
    """The allowed origins as ``origin_netloc`` writes them, each checked to be one.

    >>> sorted(check_origins(["https://Example.com"]))
    ['https://example.com']
    """
    origins = set()
    for url in allowed_origins:
        netloc = origin_netloc(url)
        if netloc is None:
            raise ValueError(f"not an origin: {url!r} (give scheme and host, such as https://example.com)")
        origins.add(netloc)
    return frozenset(origins)


def same_origin(origin: str, host: str, origins: Iterable[str] = ()) -> bool:
    """A browser's page may connect if it comes from this server's own host or an allowed origin.

    >>> same_origin("https://tavli.example.com", "tavli.example.com:443"), same_origin("null", "a")
    (True, False)
    """
    netloc = origin_netloc(origin)
    if netloc is None:
        return False
    return without_default_port(netloc.split("://", 1)[1]) == without_default_port(host.strip().lower()) \
        or netloc in origins


async def read_body(request: Request, limit: int = MAX_REQUEST_BYTES,
                    seconds: float = REQUEST_SECONDS) -> bytes | Response:
    """The request's body, or the error response for one larger than ``limit`` bytes or slower
    than ``seconds`` to arrive."""
    raw = b""
    try:
        async with asyncio.timeout(seconds):
            async for chunk in request.stream():  # read no more than the limit, whatever the client says
                raw += chunk
                if len(raw) > limit:
                    return error(Reason("the request is too large: at most {limit} bytes", limit=limit), 413)
    except TimeoutError:
        return error(Reason("the request took more than {seconds:g} s to arrive", seconds=seconds), 408)
    return raw


async def json_body(request: Request, seconds: float = REQUEST_SECONDS, limit: int = MAX_REQUEST_BYTES) -> object:
    """The request's body read as JSON (empty: ``{}``), or the error response for a body too
    large (over ``limit`` bytes), too slow or not JSON."""
    raw = await read_body(request, limit, seconds)
    if isinstance(raw, Response):
        return raw
    try:
        return json.loads(raw or b"{}")
    except (ValueError, RecursionError):
        return error("the request is not JSON", 400)
