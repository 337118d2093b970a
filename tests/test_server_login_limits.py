"""The limits on guessing passwords (tavli.server.cafe.accounts, docs/cafe.md "Limits and security"):
an address that fails waits longer after each failure, on one name and on any; the failures of
others on a name never lock its owner out; the refusal says how long to wait. Time is moved,
never waited for."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from argon2 import PasswordHasher
from sqlalchemy import func, select
from starlette.testclient import TestClient

import tavli.server.cafe.accounts as accounts_module
from tavli.server.cafe.accounts import (
    COOKIE,
    FAILURES_PER_ADDRESS,
    FAILURES_PER_NAME,
    FAILURES_PER_PAIR,
    FIRST_WAIT,
    LONGEST_WAIT,
    NAME_WAIT,
    Accounts,
    LoginRefused,
    TooManyLogins,
)
from tavli.server.storage.schema import login_failures

PASSWORD = "correct horse battery"
WRONG = "not the password at all"
ATTACKERS = ("198.51.100.1", "198.51.100.2", "198.51.100.3")
"""Three addresses that guess a name's password (the test client's own is ``testclient``)."""


class Clock:
    """The accounts' clock, moved by hand."""

    def __init__(self) -> None:
        self.at = time.time()

    def __call__(self) -> float:
        return self.at


@pytest.fixture(autouse=True)
def cheap_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    """argon2 at its cheapest: the limits, not the hashing, are under test here."""
    cheap = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    monkeypatch.setattr(accounts_module, "HASHER", cheap)
    monkeypatch.setattr(accounts_module, "_UNKNOWN", cheap.hash("no account has this password"))


@pytest.fixture
def clock(client: TestClient) -> Clock:
    moved = Clock()
    client.app.state.context.accounts.clock = moved
    return moved


def sign_up(client: TestClient, name: str) -> None:
    client.cookies.clear()
    assert client.post("/api/accounts", json={"name": name, "password": PASSWORD}).status_code == 201


def accounts_of(client: TestClient) -> Accounts:
    found: Accounts = client.app.state.context.accounts
    return found


def attempt(client: TestClient, name: str, password: str, address: str, at: float) -> str | int:
    """A login tried from ``address`` (not the test client's): ``"in"``, ``"refused"`` (a wrong
    password) or, refused unheard, the seconds to wait."""
    assert client.portal is not None
    try:
        client.portal.call(accounts_of(client).verify, name, password, address, at)
    except TooManyLogins as exc:
        return int(getattr(exc, "wait", 60))
    except LoginRefused:
        return "refused"
    return "in"


def fail_patiently(client: TestClient, name: str, address: str, clock: Clock) -> list[int]:
    """One more wrong password from ``address``, each wait waited out first: the waits."""
    waits = []
    while (result := attempt(client, name, WRONG, address, clock.at)) != "refused":
        assert isinstance(result, int)
        waits.append(result)
        clock.at += result
    return waits


def attack(client: TestClient, name: str, clock: Clock) -> None:
    """30 wrong passwords on ``name``, 10 from each of three addresses, as fast as allowed."""
    for address in ATTACKERS:
        for _ in range(FAILURES_PER_NAME // len(ATTACKERS)):
            fail_patiently(client, name, address, clock)


def log_in(client: TestClient, password: str = PASSWORD) -> Any:
    client.cookies.clear()
    return client.post("/api/session", json={"name": "Nikos", "password": password})


def test_thirty_failures_on_a_name_from_three_addresses_do_not_lock_its_owner_out(
        client: TestClient, clock: Clock) -> None:
    sign_up(client, "Nikos")
    attack(client, "Nikos", clock)
    assert log_in(client).status_code == 200  # from a new address, at once
    # the name is under attack: a new address is heard, but after one failure it waits a minute
    assert attempt(client, "Nikos", WRONG, "198.51.100.4", clock.at) == "refused"
    assert attempt(client, "Nikos", PASSWORD, "198.51.100.4", clock.at) == NAME_WAIT
    clock.at += NAME_WAIT
    assert attempt(client, "Nikos", PASSWORD, "198.51.100.4", clock.at) == "in"


def test_an_attacker_on_one_address_waits_longer_after_each_failure(client: TestClient, clock: Clock) -> None:
    sign_up(client, "Nikos")
    waits = [fail_patiently(client, "Nikos", ATTACKERS[0], clock) for _ in range(FAILURES_PER_PAIR + 11)]
    assert waits[:FAILURES_PER_PAIR] == [[]] * FAILURES_PER_PAIR  # the first five cost nothing
    assert [w for (w,) in waits[FAILURES_PER_PAIR:]] == [5, 10, 20, 40, 80, 160, 320, 640, 1280, 2560, 3600]
    # a try before its time is refused unheard and costs nothing: the wait does not grow
    assert attempt(client, "Nikos", PASSWORD, ATTACKERS[0], clock.at + LONGEST_WAIT - 10) == 10
    assert attempt(client, "Nikos", PASSWORD, ATTACKERS[0], clock.at + LONGEST_WAIT) == "in"
    assert attempt(client, "Nikos", WRONG, ATTACKERS[0], clock.at + LONGEST_WAIT) == "refused"  # forgiven
    assert attempt(client, "Nikos", PASSWORD, ATTACKERS[1], clock.at) == "in"  # another address never waited


def test_an_address_that_fails_on_many_names_waits_before_trying_any(client: TestClient, clock: Clock) -> None:
    sign_up(client, "Nikos")
    for guess in range(FAILURES_PER_ADDRESS):
        assert attempt(client, f"guess{guess}", WRONG, ATTACKERS[0], clock.at) == "refused"
    assert attempt(client, "someone", WRONG, ATTACKERS[0], clock.at) == FIRST_WAIT
    assert attempt(client, "Nikos", PASSWORD, ATTACKERS[0], clock.at) == FIRST_WAIT  # refused unheard
    assert attempt(client, "Nikos", PASSWORD, ATTACKERS[1], clock.at) == "in"
    clock.at += FIRST_WAIT
    assert attempt(client, "Nikos", PASSWORD, ATTACKERS[0], clock.at) == "in"


def test_the_refusal_says_how_long_to_wait_in_words_and_in_retry_after(client: TestClient, clock: Clock) -> None:
    sign_up(client, "Nikos")
    for _ in range(FAILURES_PER_PAIR):
        assert log_in(client, WRONG).status_code == 401
    refused = log_in(client)
    assert refused.status_code == 429 and refused.headers["retry-after"] == "5"
    assert refused.json()["error"] == "too many failed logins: try again in 5 s"
    assert refused.json()["reason"]["params"] == {"seconds": "5"}
    clock.at += 3
    later = log_in(client)
    assert later.headers["retry-after"] == "2" and later.json()["error"] == "too many failed logins: try again in 2 s"
    clock.at += 2
    assert log_in(client).status_code == 200


def test_changing_the_password_and_deleting_the_account_are_limited_alike(client: TestClient, clock: Clock) -> None:
    sign_up(client, "Nikos")
    secret = client.cookies[COOKIE]
    attack(client, "Nikos", clock)
    client.cookies.set(COOKIE, secret)
    changed = client.post("/api/account/password", json={"password": PASSWORD, "new_password": PASSWORD + "!"})
    assert changed.status_code == 200, changed.text  # the attack does not stop the owner
    new_password = PASSWORD + "!"
    assert client.request("DELETE", "/api/account", json={"password": WRONG}).status_code == 401
    # under attack his own failure costs him a minute, on every path that checks the password
    for method, path, body in (("DELETE", "/api/account", {"password": new_password}),
                               ("POST", "/api/account/password", {"password": new_password, "new_password": PASSWORD})):
        refused = client.request(method, path, json=body)
        assert refused.status_code == 429 and refused.headers["retry-after"] == str(int(NAME_WAIT)), path
        assert refused.json()["error"] == "too many failed logins: try again in 60 s"
    clock.at += NAME_WAIT
    assert client.request("DELETE", "/api/account", json={"password": new_password}).status_code == 200


def test_tries_sent_together_are_counted_in_turn(client: TestClient, clock: Clock) -> None:
    sign_up(client, "Nikos")
    accounts = accounts_of(client)

    async def together() -> list[BaseException | Any]:
        tries = [accounts.verify("Nikos", WRONG, ATTACKERS[0], clock.at) for _ in range(3 * FAILURES_PER_PAIR)]
        return await asyncio.gather(*tries, return_exceptions=True)

    assert client.portal is not None
    results = client.portal.call(together)
    assert sum(isinstance(r, LoginRefused) for r in results) == FAILURES_PER_PAIR
    assert sum(isinstance(r, TooManyLogins) for r in results) == 2 * FAILURES_PER_PAIR


def test_a_right_password_forgives_its_addresses_failures_on_that_name(client: TestClient, clock: Clock) -> None:
    sign_up(client, "Nikos")
    for _ in range(FAILURES_PER_PAIR - 1):
        assert attempt(client, "Nikos", WRONG, ATTACKERS[0], clock.at) == "refused"
    assert attempt(client, "Nikos", PASSWORD, ATTACKERS[0], clock.at) == "in"
    for _ in range(FAILURES_PER_PAIR):
        assert attempt(client, "Nikos", WRONG, ATTACKERS[0], clock.at) == "refused"


def test_failures_are_forgotten_after_a_day(client: TestClient, clock: Clock) -> None:
    sign_up(client, "Nikos")
    attack(client, "Nikos", clock)
    clock.at += 24 * 3600 + 1
    assert fail_patiently(client, "Nikos", ATTACKERS[0], clock) == []  # no longer under attack: free again
    accounts = accounts_of(client)

    async def kept() -> int:
        async with accounts.engine.connect() as conn:
            return int((await conn.execute(select(func.count()).select_from(login_failures))).scalar_one())

    assert client.portal is not None
    assert client.portal.call(kept) == 1  # the day-old failures were deleted with that try
