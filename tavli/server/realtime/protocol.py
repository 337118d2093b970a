"""The WebSocket messages a client may send, read strictly, with one-line errors, and how fast
(``TokenBucket``: ``MESSAGES_PER_SECOND`` with bursts of ``MESSAGE_BURST``).

>>> parse('{"type": "roll", "seq": 3}')
Roll(type='roll', seq=3, id=None)
>>> parse('{"type": "roll", "seq": "3"}')
Traceback (most recent call last):
...
tavli.server.realtime.protocol.MessageError: seq: Input should be a valid integer
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Annotated, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from tavli.server.play.seats import ErrorCode

MAX_MESSAGE_BYTES = 4096
MESSAGES_PER_SECOND = 20.0
MESSAGE_BURST = 40.0
REFUSALS_BEFORE_CLOSE = 200
"""Messages refused for the rate after which a socket is closed."""

MessageId = Annotated[str, Field(max_length=64)] | Annotated[int, Field(ge=-(2**53), le=2**53)] | None
Seq = Annotated[int, Field(ge=0, le=10**9)]


class MessageError(ValueError):
    """A message that cannot be read; ``code`` is the error code sent back."""

    def __init__(self, message: str, code: ErrorCode = "bad-message") -> None:
        super().__init__(message)
        self.code = code


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Hello(_Message):
    type: Literal["hello"]
    # None: the seat of the browser's account where it holds one, else watch (if the match allows)
    token: Annotated[str, Field(min_length=1, max_length=128)] | None = None
    steps: bool = False
    name: Annotated[str, Field(max_length=200)] | None = None
    id: MessageId = None


class Roll(_Message):
    type: Literal["roll"]
    seq: Seq
    id: MessageId = None


class PlayMessage(_Message):
    type: Literal["play"]
    seq: Seq
    play: Annotated[str, Field(max_length=200)]
    id: MessageId = None


class Claim(_Message):
    type: Literal["claim"]
    seq: Seq
    id: MessageId = None


class Resign(_Message):
    type: Literal["resign"]
    seq: Seq
    points: Literal[1, 2] = 1
    match: bool = False
    id: MessageId = None


class Answer(_Message):
    type: Literal["answer"]
    seq: Seq
    accept: bool
    id: MessageId = None


class Rematch(_Message):
    type: Literal["rematch"]
    seq: Seq
    id: MessageId = None


class Abort(_Message):
    type: Literal["abort"]
    seq: Seq
    id: MessageId = None


class Hint(_Message):
    """Ask the coach for the best plays of one's roll; with ``play``, also that play's value."""

    type: Literal["hint"]
    play: Annotated[str, Field(max_length=200)] | None = None
    id: MessageId = None


class Chances(_Message):
    """Ask for (``on``) or stop the ``chances`` messages: each side's chance of winning the match."""

    type: Literal["chances"]
    on: bool = True
    id: MessageId = None


class Ping(_Message):
    type: Literal["ping"]
    id: MessageId = None


class Say(_Message):
    """A line of chat (``tavli.server.realtime.table_talk``): a quick phrase by its key, or a line
    of text (cut to ``tavli.server.cafe.chat.MAX_LINE`` characters once cleaned); one of the two."""

    type: Literal["say"]
    phrase: Annotated[str, Field(max_length=40)] | None = None
    text: Annotated[str, Field(max_length=2000)] | None = None
    id: MessageId = None


class Mute(_Message):
    """A player mutes his opponent's lines (``on``), or hears them again."""

    type: Literal["mute"]
    on: bool = True
    id: MessageId = None


Message = Hello | Roll | PlayMessage | Claim | Resign | Answer | Rematch | Abort | Hint | Chances | Ping | Say | Mute
_ADAPTER: TypeAdapter[Message] = TypeAdapter(Annotated[Message, Field(discriminator="type")])
TYPES = ("hello", "roll", "play", "claim", "resign", "answer", "rematch", "abort", "hint", "chances", "ping",
         "say", "mute")


def size_in_bytes(text: str | bytes) -> int:
    """The length of a message in UTF-8 bytes, as the limit counts it (never less than its characters).

    >>> size_in_bytes("é"), size_in_bytes(b"ab")
    (2, 2)
    """
    if isinstance(text, bytes):
        return len(text)
    if len(text) > MAX_MESSAGE_BYTES:  # too large whatever its bytes: spare encoding a megabyte
        return len(text)
    return len(text.encode("utf-8", "surrogatepass"))


def parse(text: str | bytes) -> Message:
    """Read one client message; MessageError says in one line what is wrong."""
    if size_in_bytes(text) > MAX_MESSAGE_BYTES:
        raise MessageError(f"messages are at most {MAX_MESSAGE_BYTES} bytes", "too-large")
    try:
        # orjson, strict where json is not: a lone UTF-16 surrogate (``"\ud800"``) is refused here,
        # since no reply could carry it back (every reply is UTF-8)
        data = orjson.loads(text)
    except (ValueError, RecursionError):
        raise MessageError("the message is not JSON") from None
    if not isinstance(data, dict):
        raise MessageError("the message must be a JSON object")
    kind = data.get("type")
    if kind not in TYPES:
        raise MessageError(f"unknown message type {kind!r}: use one of {', '.join(TYPES)}"
                            if isinstance(kind, str) and len(kind) < 40 else
                            f"the message needs a type: one of {', '.join(TYPES)}")
    try:
        return _ADAPTER.validate_python(data)
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(str(part) for part in error["loc"][1:]) or "message"
        raise MessageError(f"{where}: {error['msg']}") from None


def message_id(text: str | bytes) -> str | int | None:
    """The ``id`` of a message that could not be read, if it has a usable one (to echo it)."""
    try:
        data = orjson.loads(text) if size_in_bytes(text) <= MAX_MESSAGE_BYTES else None
    except (ValueError, RecursionError):
        return None
    value = data.get("id") if isinstance(data, dict) else None
    if isinstance(value, bool):
        return None
    if (isinstance(value, int) and abs(value) <= 2**53) or (isinstance(value, str) and len(value) <= 64):
        return value
    return None


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
