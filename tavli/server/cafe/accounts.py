"""Accounts: names that last, passwords kept as argon2 hashes, sessions, and the limits on
guessing (``Accounts``, on the app's database).

An account is never needed: guests play as before. A name is 2 to 20 letters, digits, ``_`` or
``-`` (Greek too), unique ignoring case and compatibility forms; a password is hashed with
argon2 (``argon2-cffi``) and never stored, logged or sent back. A session is a random secret in
an ``HttpOnly`` cookie, kept in the database as its SHA-256, so that every server process knows
it and logging out ends it everywhere.

>>> account_key("Ελένη"), account_key("ΕΛΈΝΗ") == account_key("ελένη")
('ελένη', True)
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import secrets
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import and_, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from tavli.errors import TavliError
from tavli.server.storage.names import UnclearName, account_key, check_look, look_alike_key, looks_taken
from tavli.server.storage.schema import LOOK_KEY_LENGTH, accounts, login_failures, ratings, sessions

NAME_CHARACTERS = (2, 20)
"""The fewest and most characters of an account's name."""
PASSWORD_CHARACTERS = (8, 200)
"""The fewest and most characters of a password."""
SESSION_SECONDS = 30 * 24 * 3600.0
"""How long a login lasts."""
COOKIE = "tavli_session"
"""The session cookie's name."""
FAILURES_PER_PAIR = 5
"""Failed logins an address may make on one name before each further one costs a wait."""
FAILURES_PER_ADDRESS = 10
"""Failed logins an address may make on any names in ``ADDRESS_MEMORY`` before each further one
costs a wait."""
FAILURES_PER_NAME = 30
"""Failed logins on one name, from all addresses, in ``FAILURE_MEMORY``, from which the name is
under attack: an address that has failed on it then has no free failures and waits at least
``NAME_WAIT`` (a new address is never slowed by it: docs/cafe.md, "Limits and security")."""
FIRST_WAIT = 5.0
"""The wait after the first failure past the free ones; it doubles with each further one."""
LONGEST_WAIT = 3600.0
"""The longest wait an address's failures on one name cost."""
LONGEST_ADDRESS_WAIT = 900.0
"""The longest wait an address's failures on any names cost (an address may be shared)."""
NAME_WAIT = 60.0
"""The least wait, after each of its failures, of an address that failed on a name under attack."""
FAILURE_MEMORY = 24 * 3600.0
"""How long a failed login counts against its address's tries on that name and against the name."""
ADDRESS_MEMORY = 3600.0
"""How long a failed login counts against its address's tries on any name."""

HASHER = PasswordHasher()
"""argon2id with argon2-cffi's defaults (RFC 9106's low-memory choice)."""
_UNKNOWN = HASHER.hash(secrets.token_urlsafe(16))
"""Checked against when no account has the name, so that an unknown name takes as long as a
wrong password: the time does not tell which names exist."""


class AccountError(TavliError):
    """A name, password or login the server refuses (the reason says which rule)."""


class NameTaken(AccountError):
    """An account's name that another account has (ignoring case and form), or one that looks the
    same (``tavli.server.storage.names.look_alike_key``)."""


class LoginRefused(AccountError):
    """A wrong name or password: one answer for both."""


class TooManyLogins(AccountError):
    """A login refused unheard: its address has failed too often lately, on that name or on
    any; ``wait`` is how many seconds until it may try again.

    >>> refused = TooManyLogins.after(39.2)
    >>> str(refused), refused.wait
    ('too many failed logins: try again in 40 s', 40)
    >>> str(TooManyLogins.after(3600.0))
    'too many failed logins: try again in 60 min'
    """

    wait: int = 60

    @classmethod
    def after(cls, seconds: float) -> TooManyLogins:
        """The refusal of a try that must wait ``seconds`` more (said in whole seconds or minutes)."""
        wait = max(1, math.ceil(seconds))
        if wait < 120:
            refused = TooManyLogins("too many failed logins: try again in {seconds} s", seconds=wait)
        else:
            refused = TooManyLogins("too many failed logins: try again in {minutes} min", minutes=math.ceil(wait / 60))
        refused.wait = wait
        return refused


def backoff(failures: int, free: int, longest: float) -> float:
    """The seconds to wait after the last of ``failures`` failed logins of which the first
    ``free`` cost nothing: ``FIRST_WAIT``, doubling with each further failure, at most ``longest``.

    >>> [backoff(n, 5, 3600.0) for n in (0, 4, 5, 6, 7, 30)]
    [0.0, 0.0, 5.0, 10.0, 20.0, 3600.0]
    """
    if failures < max(free, 1):
        return 0.0
    return min(FIRST_WAIT * 2.0 ** min(failures - free, 32), longest)  # 32: no float overflow


def account_name(value: object) -> str:
    """An account's name as it will be shown (NFKC); ``AccountError`` for one that breaks the rules.

    >>> account_name("Γιώργος_7")
    'Γιώργος_7'
    >>> account_name("<b>")
    Traceback (most recent call last):
    ...
    tavli.server.cafe.accounts.AccountError: a name is 2 to 20 letters, digits, _ or -
    >>> account_name("аdmin")  # a Cyrillic а: it would pass for admin
    Traceback (most recent call last):
    ...
    tavli.server.cafe.accounts.AccountError: a name's letters must all be of one script, such as Greek or Latin
    """
    if not isinstance(value, str):
        raise AccountError("a name must be text")
    name = unicodedata.normalize("NFKC", value)
    low, high = NAME_CHARACTERS
    if not low <= len(name) <= high or not all(_name_character(c) for c in name):
        raise AccountError("a name is 2 to 20 letters, digits, _ or -")
    try:
        return check_look(name)
    except UnclearName as exc:
        raise AccountError(exc.reason) from None


def _name_character(c: str) -> bool:
    # letters and digits of any script, but no marks, spaces, symbols or invisible characters
    return c in "_-" or unicodedata.category(c) in ("Lu", "Ll", "Lt", "Lo", "Nd")


def check_password(value: object) -> str:
    """A password that may be one; ``AccountError`` for one too short or too long."""
    if not isinstance(value, str):
        raise AccountError("a password must be text")
    low, high = PASSWORD_CHARACTERS
    if not low <= len(value) <= high:
        raise AccountError("a password has 8 to 200 characters")
    return value


def session_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass(frozen=True)
class Account:
    """A player's account as the server knows him (never his password)."""

    id: int
    name: str
    created: float
    disabled: bool = False
    deleted: bool = False
    moderator: bool = False
    """A moderator of the café (``tavli users moderator``): reads the reports and acts on them."""
    chat_banned_until: float | None = None
    """Until when a moderator has closed the account's chat (None: never)."""

    @property
    def shown(self) -> str:
        """The name others see: a deleted account's matches stay, without its name."""
        return "(deleted)" if self.deleted else self.name

    def chat_banned(self, now: float) -> bool:
        """Whether a moderator's mute keeps the account out of the chat at ``now``.

        >>> Account(1, "Eleni", 0.0, chat_banned_until=10.0).chat_banned(5.0)
        True
        """
        return self.chat_banned_until is not None and now < self.chat_banned_until


def _account(row: Any) -> Account:
    return Account(int(row.id), str(row.name), float(row.created), bool(row.disabled), bool(row.deleted),
                   bool(row.moderator), None if row.chat_banned_until is None else float(row.chat_banned_until))


_ACCOUNT_COLUMNS = (accounts.c.id, accounts.c.name, accounts.c.created, accounts.c.disabled, accounts.c.deleted,
                    accounts.c.moderator, accounts.c.chat_banned_until)


class Accounts:
    """The accounts and sessions kept in the app's database (``engine``)."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.clock: Callable[[], float] = time.time
        """The time a login is tried at when ``verify`` is given none (tests move it)."""

    # -- accounts -----------------------------------------------------------
    async def create(self, name: object, password: object, now: float | None = None) -> Account:
        """A new account; ``NameTaken`` where the name is another's, ``AccountError`` where it breaks the rules."""
        shown, secret = account_name(name), check_password(password)
        hashed = await asyncio.to_thread(HASHER.hash, secret)  # argon2 is slow on purpose: off the loop
        at = time.time() if now is None else now
        try:
            async with self.engine.begin() as conn:
                result = await conn.execute(insert(accounts).values(
                    name=shown, name_key=account_key(shown), look_key=look_alike_key(shown)[:LOOK_KEY_LENGTH],
                    password=hashed, created=at, disabled=False, deleted=False))
        except IntegrityError:
            raise NameTaken("that name is taken") from None
        key = result.inserted_primary_key
        assert key is not None
        return Account(int(key[0]), shown, at)

    async def find(self, name: str) -> Account | None:
        """The account of ``name`` (in any case or form), deleted ones included."""
        async with self.engine.connect() as conn:
            query = select(*_ACCOUNT_COLUMNS).where(accounts.c.name_key == account_key(name))
            row = (await conn.execute(query)).first()
        return None if row is None else _account(row)

    async def looks_taken(self, name: str) -> bool:
        """Whether ``name`` is an account's, or looks the same as one (a guest may not take it)."""
        return await looks_taken(self.engine, name)

    async def by_ids(self, ids: list[int]) -> dict[int, Account]:
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(*_ACCOUNT_COLUMNS).where(accounts.c.id.in_(ids)))).all()
        return {int(r.id): _account(r) for r in rows}

    async def listed(self) -> list[Account]:
        """Every account, oldest first (``tavli users list``)."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(*_ACCOUNT_COLUMNS).order_by(accounts.c.id))).all()
        return [_account(r) for r in rows]

    async def set_password(self, account_id: int, password: object) -> None:
        """Change an account's password; every session of it ends (the holder logs in again)."""
        hashed = await asyncio.to_thread(HASHER.hash, check_password(password))
        async with self.engine.begin() as conn:
            await conn.execute(update(accounts).where(accounts.c.id == account_id).values(password=hashed))
            await conn.execute(delete(sessions).where(sessions.c.account_id == account_id))

    async def disable(self, account_id: int, disabled: bool = True) -> None:
        """Stop (or let again) an account logging in; its sessions end."""
        async with self.engine.begin() as conn:
            await conn.execute(update(accounts).where(accounts.c.id == account_id).values(disabled=disabled))
            await conn.execute(delete(sessions).where(sessions.c.account_id == account_id))

    async def delete(self, account_id: int) -> None:
        """Delete an account: its name and password go (the name may be taken again), its matches
        stay, shown as a deleted player's, and its ratings leave the leaderboard."""
        async with self.engine.begin() as conn:
            await conn.execute(delete(sessions).where(sessions.c.account_id == account_id))
            await conn.execute(delete(ratings).where(ratings.c.account_id == account_id))
            await conn.execute(update(accounts).where(accounts.c.id == account_id).values(
                name="(deleted)", name_key=f"(deleted {account_id})", look_key=None, password="", deleted=True,
                disabled=True))

    async def set_moderator(self, account_id: int, moderator: bool = True) -> None:
        """Grant the account the moderator's role (``moderator``), or take it back."""
        async with self.engine.begin() as conn:
            await conn.execute(update(accounts).where(accounts.c.id == account_id).values(moderator=moderator))

    async def rename(self, account_id: int, name: object) -> str:
        """Give the account a new name (a moderator's renaming of an offensive one): the name as
        shown; ``AccountError`` for one that breaks the rules, ``NameTaken`` for another's."""
        shown = account_name(name)
        key, look = account_key(shown), look_alike_key(shown)[:LOOK_KEY_LENGTH]
        try:
            async with self.engine.begin() as conn:
                clash = (await conn.execute(select(accounts.c.id).where(
                    ((accounts.c.name_key == key) | (accounts.c.look_key == look)) & (accounts.c.id != account_id))))
                if clash.first() is not None:
                    raise NameTaken("that name is taken")
                await conn.execute(update(accounts).where(accounts.c.id == account_id).values(
                    name=shown, name_key=key, look_key=look))
        except IntegrityError:
            raise NameTaken("that name is taken") from None
        return shown

    async def ban_chat(self, account_id: int, until: float | None) -> None:
        """Close the account's chat until ``until`` (a moderator's mute), or open it again (None)."""
        async with self.engine.begin() as conn:
            await conn.execute(update(accounts).where(accounts.c.id == account_id).values(chat_banned_until=until))

    async def close(self, account_id: int) -> None:
        """Close an account for good (a moderator's): it logs in no more, its sessions end, its
        matches stay under the neutral name a deleted account has, and its name stays taken (the
        one who was closed cannot simply sign up again under it)."""
        async with self.engine.begin() as conn:
            await conn.execute(delete(sessions).where(sessions.c.account_id == account_id))
            await conn.execute(update(accounts).where(accounts.c.id == account_id).values(
                name="(deleted)", password="", deleted=True, disabled=True, moderator=False))

    # -- logging in ---------------------------------------------------------
    async def verify(self, name: object, password: object, address: str, now: float | None = None) -> Account:
        """The account whose name and password these are; ``LoginRefused`` (the same for a wrong
        name and a wrong password), or ``TooManyLogins`` while the address must wait after its
        failures (the password is then not even checked). Logging in, changing the password and
        deleting the account all pass here. A right password forgives the address's failures
        on that name."""
        at = self.clock() if now is None else now
        key = account_key(name)[:80] if isinstance(name, str) else ""
        wait = await self._try(address[:64], key, at)
        if wait > 0:
            raise TooManyLogins.after(wait)
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(*_ACCOUNT_COLUMNS, accounts.c.password)
                                      .where(accounts.c.name_key == key))).first()
        stored = _UNKNOWN if row is None or row.deleted else str(row.password)
        given = password if isinstance(password, str) and len(password) <= PASSWORD_CHARACTERS[1] else ""
        if not await asyncio.to_thread(_matches, stored, given) or row is None or row.deleted or row.disabled:
            raise LoginRefused("wrong name or password")  # the try was counted as a failure already
        async with self.engine.begin() as conn:
            await conn.execute(delete(login_failures).where(login_failures.c.address == address[:64],
                                                            login_failures.c.name_key == key))
        if HASHER.check_needs_rehash(stored):  # argon2's parameters were raised since: rehash now
            await self.set_password_hash(int(row.id), await asyncio.to_thread(HASHER.hash, given))
        return _account(row)

    async def set_password_hash(self, account_id: int, hashed: str) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(update(accounts).where(accounts.c.id == account_id).values(password=hashed))

    async def _try(self, address: str, key: str, at: float) -> float:
        """The seconds ``address`` must still wait before trying the name ``key``; 0 when it may
        try now, and then the try is counted as a failure at once (a right password takes it
        back), so that tries sent together cannot all pass before the first is counted."""
        async with self.engine.begin() as conn:
            # written before it is weighed: SQLite's write lock then makes tries sent together
            # count in turn (and a read before a write could fail on another process's write)
            added = await conn.execute(insert(login_failures).values(address=address, name_key=key, at=at))
            (this,) = added.inserted_primary_key or (None,)
            wait = await _failures_wait(conn, login_failures.c.id != this, address, key, at)
            if wait > 0:  # refused unheard: it is no failure
                await conn.execute(delete(login_failures).where(login_failures.c.id == this))
            else:
                await conn.execute(delete(login_failures).where(login_failures.c.at < at - FAILURE_MEMORY))
        return wait

    # -- sessions -----------------------------------------------------------
    async def start_session(self, account: Account, now: float | None = None) -> str:
        """A new session of ``account``: the secret for its cookie (a new one at every login)."""
        at = time.time() if now is None else now
        secret = secrets.token_urlsafe(32)
        async with self.engine.begin() as conn:
            await conn.execute(insert(sessions).values(hash=session_hash(secret), account_id=account.id,
                                                       created=at, expires=at + SESSION_SECONDS))
            await conn.execute(delete(sessions).where(sessions.c.expires < at))
        return secret

    async def end_session(self, secret: str) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(delete(sessions).where(sessions.c.hash == session_hash(secret)))

    async def session(self, secret: str | None, now: float | None = None) -> Account | None:
        """The account logged in with ``secret`` (a cookie's value), if the session is still good."""
        if not secret or len(secret) > 128:
            return None
        at = time.time() if now is None else now
        query = (select(*_ACCOUNT_COLUMNS).join(sessions, sessions.c.account_id == accounts.c.id)
                 .where(and_(sessions.c.hash == session_hash(secret), sessions.c.expires > at,
                             accounts.c.disabled.is_(False))))
        async with self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else _account(row)


async def _failures_wait(conn: AsyncConnection, earlier: Any, address: str, key: str, at: float) -> float:
    """How long ``address`` must still wait to try ``key`` at ``at``, counting the ``earlier``
    failed logins (all but this try's own): the longer of the waits its failures on that name
    and on any names cost (``backoff``). While the name is under attack
    (``FAILURES_PER_NAME``), an address that has failed on it gets no free failures and waits at
    least ``NAME_WAIT``; an address that has not is never slowed by the name's failures, so that
    nobody can lock the owner out by failing on his name."""
    mine = login_failures.c.address == address
    named = login_failures.c.name_key == key
    pair = await _count_and_last(conn, and_(earlier, mine, named), at - FAILURE_MEMORY)
    anywhere = await _count_and_last(conn, and_(earlier, mine), at - ADDRESS_MEMORY)
    on_name, _ = await _count_and_last(conn, and_(earlier, named), at - FAILURE_MEMORY)
    attacked = on_name >= FAILURES_PER_NAME
    pair_wait = backoff(pair[0], 0 if attacked else FAILURES_PER_PAIR, LONGEST_WAIT)
    if attacked and pair[0]:
        pair_wait = max(pair_wait, NAME_WAIT)
    address_wait = backoff(anywhere[0], FAILURES_PER_ADDRESS, LONGEST_ADDRESS_WAIT)
    # never more than the whole wait: another server process's clock may be a little ahead
    return max(min(pair[1] + pair_wait - at, pair_wait), min(anywhere[1] + address_wait - at, address_wait), 0.0)


async def _count_and_last(conn: AsyncConnection, which: Any, since: float) -> tuple[int, float]:
    """How many failed logins ``which`` picks out after ``since``, and when the last was."""
    query = select(func.count(), func.max(login_failures.c.at)).where(which, login_failures.c.at > since)
    count, last = (await conn.execute(query)).one()
    return int(count), float(last or 0.0)


def _matches(stored: str, given: str) -> bool:
    try:
        return bool(HASHER.verify(stored, given))
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False
