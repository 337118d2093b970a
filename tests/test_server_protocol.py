"""Reading client messages, and property tests: random and malformed messages never corrupt a match."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from tavli.server.app import create_app
from tavli.server.realtime.protocol import (
    MAX_MESSAGE_BYTES,
    Hello,
    MessageError,
    PlayMessage,
    Roll,
    message_id,
    parse,
    size_in_bytes,
)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12)

message_like = st.fixed_dictionaries(
    {"type": st.sampled_from(["hello", "roll", "play", "claim", "ping", "Roll", "", "state"])},
    optional={"seq": st.one_of(st.integers(-5, 300), st.text(max_size=3), st.booleans(), st.none()),
              "play": st.one_of(st.text(max_size=30), st.sampled_from(["24/18 13/11", "8/5 6/5", "6/off"]),
                                st.integers()),
              "token": st.one_of(st.text(max_size=40), st.integers()),
              "id": json_values, "steps": json_values, "extra": json_values})

any_text = st.one_of(
    st.text(max_size=200),
    json_values.map(json.dumps),
    message_like.map(json.dumps),
    st.binary(max_size=100).map(lambda b: b.decode("latin-1")),
)


def test_parse_reads_each_message_type() -> None:
    assert parse('{"type": "hello", "token": "abc", "steps": true, "id": "x"}') == Hello(
        type="hello", token="abc", steps=True, id="x")
    assert parse('{"type": "play", "seq": 4, "play": "8/5 6/5"}') == PlayMessage(type="play", seq=4, play="8/5 6/5")
    assert parse(b'{"type": "roll", "seq": 0, "id": 12}') == Roll(type="roll", seq=0, id=12)


@pytest.mark.parametrize(("text", "words"), [
    ("", "not JSON"),
    ("3", "JSON object"),
    ('{"seq": 1}', "needs a type"),
    ('{"type": "fly"}', "unknown message type 'fly'"),
    ('{"type": "roll", "seq": true}', "seq"),
    ('{"type": "roll", "seq": 1.5}', "seq"),
    ('{"type": "play", "seq": 1}', "play: Field required"),
    ('{"type": "ping", "x": 1}', "x: Extra inputs"),
    ('{"type": "hello", "token": ""}', "token"),
    ('{"type": "ping", "id": [1]}', "id"),
    ('{"type": "ping", "id": "\\ud800"}', "not JSON"),  # a lone surrogate: no string can be sent back
    ('{"type": "play", "seq": 1, "play": "8/5 \\udc00"}', "not JSON"),
])
def test_parse_errors_are_one_line(text: str, words: str) -> None:
    with pytest.raises(MessageError) as info:
        parse(text)
    assert words in str(info.value) and "\n" not in str(info.value)
    assert info.value.code == "bad-message"


def test_oversized_messages() -> None:
    with pytest.raises(MessageError) as info:
        parse(" " * (MAX_MESSAGE_BYTES + 1))
    assert info.value.code == "too-large"


def test_the_limit_counts_bytes_not_characters() -> None:
    wide = json.dumps({"type": "ping", "id": "x", "pad": "é" * 2100}, ensure_ascii=False)
    assert len(wide) <= MAX_MESSAGE_BYTES < len(wide.encode())
    for text in (wide, wide.encode()):
        with pytest.raises(MessageError) as info:
            parse(text)
        assert info.value.code == "too-large"
        assert message_id(text) is None
    narrow = json.dumps({"type": "ping", "id": "é" * 60}, ensure_ascii=False)
    assert parse(narrow).id == "é" * 60 and message_id(narrow.encode()) == "é" * 60
    assert size_in_bytes("\ud800") == 3  # a lone surrogate cannot come off the wire, but is counted


def test_message_id_is_echoed_only_when_usable() -> None:
    assert message_id('{"type": "x", "id": 5}') == 5
    assert message_id('{"id": "abc"}') == "abc"
    assert message_id('{"id": true}') is None
    assert message_id('{"id": "' + "x" * 65 + '"}') is None
    assert message_id("nope") is None


@given(any_text)
@settings(max_examples=300, deadline=None)
def test_parse_raises_only_protocol_errors(text: str) -> None:
    try:
        message = parse(text)
    except MessageError as exc:
        assert "\n" not in str(exc) and exc.code in ("bad-message", "too-large")
    else:
        assert message.type in ("hello", "roll", "play", "claim", "ping")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, Path]]:
    db = tmp_path_factory.mktemp("fuzz") / "tavli.db"
    app = create_app(f"sqlite:///{db}", messages_per_second=1e6, message_burst=1e6,
                     matches_per_minute=10**6)
    with TestClient(app) as client:
        yield client, db


def receive_until(ws: Any, kinds: tuple[str, ...]) -> dict[str, Any]:
    for _ in range(50):
        msg = dict(ws.receive_json())
        if msg["type"] in kinds:
            return msg
    raise AssertionError(f"no {kinds} message came")


@pytest.mark.slow
@given(st.lists(any_text, min_size=1, max_size=12), st.booleans())
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_random_messages_never_corrupt_a_match(server: tuple[TestClient, Path], texts: list[str],
                                               mover: bool) -> None:
    client, db = server
    links = client.post("/api/matches", json={"opponent": "friend", "games": "portes"}).json()
    tokens = [links["token"], links["friend"].split("#t=")[1]]
    with client.websocket_connect(f"/ws/{links['match']}") as a, \
            client.websocket_connect(f"/ws/{links['match']}") as b:
        socks = [a, b]
        states = []
        for ws, token in zip(socks, tokens, strict=True):
            ws.send_json({"type": "hello", "token": token})
            states.append(receive_until(ws, ("state",)))
        while states[0]["waiting"]:  # the first seat's state once the second has come
            states[0] = receive_until(a, ("state",))
        # send the random messages from the seat on turn or the other one
        on_turn = 0 if states[0]["can_roll"] else 1
        ws = socks[on_turn if mover else 1 - on_turn]
        for text in texts:
            ws.send_text(text)
            ws.send_json({"type": "ping", "id": "sync"})
            while True:  # every message gets its answer before the ping's: the connection goes on
                msg = dict(ws.receive_json())
                if msg["type"] == "pong" and msg.get("id") == "sync":
                    break
                assert msg["type"] in ("error", "state", "pong")
                if msg["type"] == "error":
                    assert "\n" not in msg["message"] and msg["code"]
        ws.send_json({"type": "hello", "token": "x"})
        receive_until(ws, ("error",))
        # what the seat sees now is what the stored actions replay to
        ws.send_json({"type": "claim", "seq": 10**9})
        receive_until(ws, ("error",))
        live = receive_until(ws, ("state",))
    with TestClient(create_app(f"sqlite:///{db}")) as fresh, \
            fresh.websocket_connect(f"/ws/{links['match']}") as w:
        w.send_json({"type": "hello", "token": links["watch"].split("#t=")[1]})
        replayed = receive_until(w, ("state",))
    assert live["seq"] <= 2 + 2 * len(texts)
    for key in ("seq", "game", "score", "dice", "turn", "games"):
        assert replayed[key] == live[key], key


def _surrogate_text() -> st.SearchStrategy[str]:
    """A message with a lone UTF-16 surrogate escaped in one of its strings (never sendable back)."""
    escape = st.integers(0xD800, 0xDFFF).map(lambda c: f"\\u{c:04x}")
    field = st.sampled_from(['{"type": "ping", "id": "%s"}', '{"type": "hello", "token": "%s"}',
                             '{"type": "hello", "token": "t", "name": "a%sb"}', '{"type": "%s"}',
                             '{"type": "play", "seq": 0, "play": "13/7%s"}', '{"%s": 1, "type": "ping"}'])
    return st.tuples(field, escape).map(lambda fe: fe[0] % fe[1])


def _nested(depth: int, kind: str) -> str:
    inner = '{"type": "ping"}'
    return ("[" * depth + inner + "]" * depth) if kind == "list" else ('{"a": ' * depth + inner + "}" * depth)


_HUGE = st.sampled_from(["1e400", "-1e999", "9" * 300, "-" + "9" * 40, "1" + "0" * 25, "1e-400",
                         "0." + "0" * 500 + "1"])
hostile = st.one_of(
    _surrogate_text().map(str.encode),
    st.binary(min_size=1, max_size=200).filter(lambda b: not _is_utf8(b)),  # invalid UTF-8 in a binary frame
    st.tuples(st.integers(100, 1500), st.sampled_from(["list", "object"])).map(lambda dk: _nested(*dk).encode()),
    st.tuples(st.sampled_from(['{"type": "roll", "seq": %s}', '{"type": "ping", "id": %s}',
                               '{"type": "resign", "seq": 0, "points": %s}', '{"type": "hello", "token": %s}']),
              _HUGE).map(lambda fh: (fh[0] % fh[1]).encode()),
)


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


@pytest.mark.slow
@given(st.lists(hostile, min_size=1, max_size=6))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_hostile_frames_get_one_line_errors_and_keep_the_connection(server: tuple[TestClient, Path],
                                                                     frames: list[bytes]) -> None:
    """Lone surrogates, invalid UTF-8, deeply nested JSON and numbers no double holds: each is
    answered with a one-line ``bad-message`` (or ``too-large``) error, and the socket goes on."""
    client, _ = server
    links = client.post("/api/matches", json={"opponent": "friend", "games": "portes"}).json()
    with client.websocket_connect(f"/ws/{links['match']}") as ws:
        ws.send_json({"type": "hello", "token": links["token"]})
        receive_until(ws, ("state",))
        for frame in frames:
            if _is_utf8(frame):
                ws.send_text(frame.decode())
            else:
                ws.send_bytes(frame)
            error = receive_until(ws, ("error", "pong"))
            assert error["type"] == "error", frame[:60]
            assert error["code"] in ("bad-message", "too-large") and "\n" not in error["message"], frame[:60]
            ws.send_json({"type": "ping", "id": "still"})  # the connection is kept
            assert receive_until(ws, ("pong",)) == {"type": "pong", "id": "still"}
