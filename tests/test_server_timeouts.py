"""``tavli.server.timeouts``: uvicorn with a deadline on each request's headers, on a real socket."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import pytest
import uvicorn

from tavli.server.timeouts import header_timeout_protocol

DEADLINE = 1.0
REQUEST = b"GET /%s HTTP/1.1\r\nHost: test\r\n\r\n"


async def app(scope: dict[str, Any], receive: Callable[[], Awaitable[Any]],
              send: Callable[[dict[str, Any]], Awaitable[None]]) -> None:
    """Answers ``/slow`` after twice the deadline, anything else at once."""
    if scope["type"] != "http":
        return
    if scope["path"] == "/slow":
        await asyncio.sleep(2 * DEADLINE)
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]})
    await send({"type": "http.response.body", "body": b"ok"})


@asynccontextmanager
async def serving() -> AsyncIterator[int]:
    config = uvicorn.Config(app, host="127.0.0.1", port=0, http=header_timeout_protocol(DEADLINE),
                            timeout_keep_alive=60, log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    try:
        yield server.servers[0].sockets[0].getsockname()[1]
    finally:
        server.should_exit = True
        await task


async def closed_after(reader: asyncio.StreamReader) -> float:
    """Seconds until the server closes the connection (what it sends is read and dropped)."""
    start = time.monotonic()
    while await asyncio.wait_for(reader.read(1024), timeout=10 * DEADLINE):
        pass
    return time.monotonic() - start


async def response(reader: asyncio.StreamReader) -> bytes:
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout=10 * DEADLINE)
    return head + await reader.readexactly(2)


def test_headers_that_come_too_slowly_close_the_connection() -> None:
    async def scenario() -> None:
        async with serving() as port:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"GET / HTTP/1.1\r\nHost: te")  # and no more
            await writer.drain()
            assert DEADLINE * 0.8 < await closed_after(reader) < DEADLINE * 5
            writer.close()
    asyncio.run(scenario())


@pytest.mark.slow
def test_each_request_on_a_kept_connection_gets_its_own_deadline() -> None:
    async def scenario() -> None:
        async with serving() as port:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            for _ in range(3):  # each well inside its deadline, together longer than one
                await asyncio.sleep(DEADLINE / 4)
                writer.write(REQUEST % b"")
                assert (await response(reader)).endswith(b"ok")
            # then idle: closed a deadline after the last response, not uvicorn's 60 s keep-alive
            assert await closed_after(reader) < DEADLINE * 5
            writer.close()
    asyncio.run(scenario())


@pytest.mark.slow
def test_a_slow_answer_is_not_cut_off() -> None:
    async def scenario() -> None:
        async with serving() as port:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(REQUEST % b"slow")  # the headers in time; the answer takes two deadlines
            assert (await response(reader)).startswith(b"HTTP/1.1 200")
            writer.close()
    asyncio.run(scenario())


def test_the_deadline_is_positive() -> None:
    assert header_timeout_protocol(2.5).header_timeout == 2.5  # type: ignore[attr-defined]
    for seconds in (0.0, -1.0):
        with pytest.raises(ValueError, match="must be positive"):
            header_timeout_protocol(seconds)
