"""A deadline on HTTP request headers, which uvicorn does not have (slow-header clients, "slowloris").

uvicorn closes a connection that stays idle after a response (``timeout_keep_alive``), but a
client that sends its request headers a byte at a time holds its connection for as long as it
likes. ``header_timeout_protocol`` gives uvicorn an HTTP protocol that closes a connection whose
request headers are not complete ``seconds`` after it opened or after its previous response.

>>> import uvicorn
>>> from tavli.server.app import create_app
>>> config = uvicorn.Config(create_app("sqlite://"), http=header_timeout_protocol(10.0))
"""

from __future__ import annotations

import asyncio
from typing import Any

try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as _Base
except ImportError:  # pragma: no cover  (uvicorn[standard] brings httptools; h11 has the same hooks)
    from uvicorn.protocols.http.h11_impl import H11Protocol as _Base  # type: ignore[assignment]


class HeaderTimeoutProtocol(_Base):
    """uvicorn's HTTP protocol with a deadline for each request's headers."""

    header_timeout = 10.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._header_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()  # the next request on this connection gets its own deadline

    def _arm(self) -> None:
        self._disarm()
        self._header_deadline = self.loop.call_later(self.header_timeout, self._headers_late)

    def _disarm(self) -> None:
        if self._header_deadline is not None:
            self._header_deadline.cancel()
            self._header_deadline = None

    def _headers_late(self) -> None:
        self._header_deadline = None
        transport = self.transport
        if transport.is_closing() or transport.get_protocol() is not self:  # closed, or now a WebSocket
            return
        if self.cycle is not None and not self.cycle.response_complete:  # a request is being answered
            return
        transport.close()


def header_timeout_protocol(seconds: float) -> type[asyncio.Protocol]:
    """An HTTP protocol class for ``uvicorn.Config(http=...)`` that allows ``seconds`` for request headers."""
    if seconds <= 0:
        raise ValueError("the header timeout must be positive")
    return type("HeaderTimeoutProtocol", (HeaderTimeoutProtocol,), {"header_timeout": float(seconds)})
