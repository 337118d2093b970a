"""The web app's commands: ``tavli serve`` (the server), ``tavli users`` (its accounts) and
``tavli verify-dice`` (a match's dice checked against the seeds its server published)."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import click

from tavli.cli.options import InputError

T = TypeVar("T")


def get_ready() -> None:
    """Build what the server needs before it takes players (``bot_pool.WARM_UP_STAGES``), a line a stage."""
    from tavli.server.play.bot_pool import WARM_UP_STAGES

    click.echo("Getting ready (the very first start compiles and builds tables, about 90 s; "
               "later starts take a second):", err=True)
    for stage, work in WARM_UP_STAGES:
        click.echo(f"  {stage}…", nl=False, err=True)
        start = time.perf_counter()
        work()
        click.echo(f" {time.perf_counter() - start:.1f} s", err=True)


@click.command("warm-up")
def warm_up_command() -> None:
    """Compile the kernels and build the tables the server uses, and stop: what the first
    ``tavli serve`` does before it takes players, done ahead (a container image's build step,
    with TAVLI_CACHE and NUMBA_CACHE_DIR where the image keeps them)."""
    get_ready()


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="address to listen on (0.0.0.0 for all)")
@click.option("--port", "-p", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option("--database", "--db", default="sqlite:///tavli.db", show_default=True,
              help="sqlite:///FILE or postgresql://user:password@host/dbname")


@click.option("--claim-after", type=click.FloatRange(min=0), default=120.0, show_default=True,
              help="seconds an absent opponent has before the game can be claimed")


@click.option("--bot-delay", type=click.FloatRange(min=0), default=0.5, show_default=True,
              help="seconds a bot waits before each roll and play, so that people can follow")


@click.option("--create-limit", type=click.IntRange(min=1), default=30, show_default=True,
              help="new matches a minute per client address")


@click.option("--connection-limit", type=click.IntRange(min=1), default=100, show_default=True,
              help="open WebSocket connections per client address")
@click.option("--seek-limit", type=click.IntRange(min=1), default=3, show_default=True,
              help="lobby seeks listed at once per client address")


@click.option("--message-limit", type=click.FloatRange(min=1), default=20.0, show_default=True,
              help="WebSocket messages a second per connection (bursts of twice as many)")


@click.option("--trusted-proxy", "trusted_proxies", multiple=True, metavar="ADDRESS",
              help="a reverse proxy whose X-Forwarded-For is believed (an address or network; repeatable; "
                   "none by default)")


@click.option("--allow-origin", "allowed_origins", multiple=True, metavar="URL",
              help="a web origin besides this server's own whose pages may connect (repeatable)")


@click.option("--header-timeout", type=click.FloatRange(min=0, min_open=True), default=10.0, show_default=True,
              help="seconds a client has to send its request headers")


@click.option("--workers", "-w", type=click.IntRange(1, 256), default=1, show_default=True,
              help="server processes on the one port (more than 1 needs PostgreSQL; docs/deploy.md)")


@click.option("--bot-workers", type=click.IntRange(1, 256), default=None,
              help="processes that think for the bots, per server process  [default: the cores / --workers]")


@click.option("--poll-seconds", type=click.FloatRange(min=0), default=2.0, hidden=True,
              help="how often to look for other processes' actions besides being told (0: never)")


def serve(host: str, port: int, database: str, claim_after: float, bot_delay: float, create_limit: int,
          connection_limit: int, seek_limit: int, trusted_proxies: tuple[str, ...], allowed_origins: tuple[str, ...],
          header_timeout: float, workers: int, bot_workers: int | None, poll_seconds: float,
          message_limit: float) -> None:
    """Run the web app: play in the browser against a bot or a friend (docs/web.md)."""
    import socket

    from tavli.server.routes.limits import check_proxies, origin_netloc
    from tavli.server.storage.store import async_url
    from tavli.server.workers import ServeOptions, run_server, run_workers

    full_url = async_url(database)  # a bad URL is one line, before anything starts
    if workers > 1 and not full_url.startswith("postgresql"):
        raise InputError("--workers above 1 needs PostgreSQL (--database postgresql://...): the processes "
                         "tell each other of every move through it")
    for url in allowed_origins:
        if origin_netloc(url) is None:
            raise InputError(f"--allow-origin {url!r} is not an origin: give scheme and host, "
                             "such as https://example.com")
    try:
        check_proxies(trusted_proxies)
    except ValueError as e:
        raise InputError(f"--trusted-proxy: {e}") from None
    try:  # a busy port fails at once, not after the warm-up
        sock = socket.create_server((host, port), reuse_port=False)
    except OSError as e:
        raise InputError(f"cannot listen on {host}:{port}: {e.strerror}") from None
    get_ready()
    from tavli.server.play.bot_pool import warm_up

    options = ServeOptions(database, claim_after=claim_after, bot_delay=bot_delay, matches_per_minute=create_limit,
                           connections_per_address=connection_limit, seeks_per_address=seek_limit,
                           messages_per_second=message_limit,
                           message_burst=2 * message_limit, trusted_proxies=trusted_proxies,
                           allowed_origins=allowed_origins, header_timeout=header_timeout,
                           poll_seconds=poll_seconds,
                           bot_workers=bot_workers or max(1, (os.cpu_count() or 1) // workers))
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
    processes = f"; {workers} processes" if workers > 1 else ""
    click.echo(f"Tavli is running at http://{shown}:{sock.getsockname()[1]}/  (database {database}{processes}; "
               "Ctrl-C stops it)", err=False)
    sys.stdout.flush()
    if workers == 1:
        run_server(sock, options)
    else:
        run_workers(sock, options, workers, warm_up, lambda line: click.echo(line, err=True))


@click.command("verify-dice")
@click.argument("url")
def verify_dice(url: str) -> None:
    """Check every finished game's dice of a match against its published seed.

    URL is the match's address, its /api/matches/ID/dice, or a file saved from there
    (or a match record, such as the match page's download).
    """
    from tavli.terminal.dice_check import DiceCheckError, checked_games, read_dice

    try:
        for line in checked_games(url, read_dice(url)):
            click.echo(line)
    except DiceCheckError as e:
        raise InputError(str(e)) from None


database_option = click.option("--database", "--db", default="sqlite:///tavli.db", show_default=True,
                               help="the server's database URL (as tavli serve takes it)")


@click.group()
def users() -> None:
    """The accounts of a server's database, for whoever runs the server: list them, set a
    forgotten password, disable or enable one, list the pairs that may feed each other rating.

    \b
    tavli users list
    tavli users reset-password Eleni      (asks the new password, or reads TAVLI_PASSWORD)
    tavli users disable Eleni --database postgresql://tavli@localhost/tavli
    tavli users pairs --days 3            (many rated matches between two, most won by one)
    tavli users moderator Nikos           (reads the reports on /moderation; --revoke takes it back)
    """


@users.command("list")
@database_option
def list_users(database: str) -> None:
    """Every account: its name, when it was made, and whether it is disabled or deleted."""
    for account in with_accounts(database, lambda accounts: accounts.listed()):
        state = " (deleted)" if account.deleted else " (disabled)" if account.disabled else ""
        made = time.strftime("%Y-%m-%d", time.gmtime(account.created))
        click.echo(f"{account.name}\t{made}{state}")


@users.command("reset-password")
@click.argument("name")
@database_option
def reset_password(name: str, database: str) -> None:
    """Give NAME's account a new password (its sessions end)."""
    password = os.environ.get("TAVLI_PASSWORD") or click.prompt(f"New password for {name}", hide_input=True,
                                                                confirmation_prompt=True, err=True)

    async def reset(accounts: Any) -> None:
        await accounts.set_password((await found(accounts, name)).id, password)
    with_accounts(database, reset)
    click.echo(f"{name}: password changed; every session of the account has ended")


@users.command()
@click.argument("name")
@database_option
@click.option("--enable", is_flag=True, help="let the account log in again")
def disable(name: str, database: str, enable: bool) -> None:
    """Stop NAME's account logging in (its sessions end); --enable lets it again."""
    async def change(accounts: Any) -> None:
        await accounts.disable((await found(accounts, name)).id, not enable)
    with_accounts(database, change)
    click.echo(f"{name}: {'enabled' if enable else 'disabled'}")


@users.command()
@click.argument("name")
@database_option
@click.option("--revoke", is_flag=True, help="take the moderator's role back")
def moderator(name: str, database: str, revoke: bool) -> None:
    """Make NAME's account one of the café's moderators (docs/cafe.md, "Moderators"): he reads the
    reports on the /moderation page and may warn, mute, rename or close; --revoke takes it back."""
    async def change(accounts: Any) -> None:
        await accounts.set_moderator((await found(accounts, name)).id, not revoke)
    with_accounts(database, change)
    click.echo(f"{name}: {'no longer a moderator' if revoke else 'a moderator'}")


@users.command()
@database_option
@click.option("--days", type=click.FloatRange(min=0, min_open=True), default=None,
              help="how far back to look, in days  [default: 7]")
@click.option("--matches", type=click.IntRange(min=1), default=None,
              help="the fewest rated matches between the two  [default: 5]")
@click.option("--share", type=click.FloatRange(0.5, 1.0), default=None,
              help="the share of them that one of the two won, at least  [default: 0.8]")
def pairs(database: str, days: float | None, matches: int | None, share: float | None) -> None:
    """Pairs of accounts that may be feeding each other rating: many rated matches against each
    other lately, most won by the same one (docs/ratings.md, "Farming"). Each line: the one who
    won more, the other, their rated matches, how many of them moved the ratings, the wins each
    way, and how far they moved each one's ratings."""
    since = None if days is None else time.time() - days * 86400.0

    async def listed(accounts: Any) -> Any:
        from tavli.server.cafe.results import FEEDING_MATCHES, FEEDING_SHARE, Results

        return await Results(accounts.engine).feeding_pairs(since, FEEDING_MATCHES if matches is None else matches,
                                                            FEEDING_SHARE if share is None else share)
    found_pairs = with_accounts(database, listed)
    if not found_pairs:
        click.echo("no pair of accounts fed each other rated wins in the window")
        return
    click.echo("first\tsecond\tmatches\trated\twins\tfirst's change\tsecond's change")
    for pair in found_pairs:
        click.echo(f"{pair.first}\t{pair.second}\t{pair.matches}\t{pair.counted}\t{pair.first_wins}-{pair.second_wins}"
                   f"\t{pair.given_to_first:+.1f}\t{pair.given_to_second:+.1f}")


async def found(accounts: Any, name: str) -> Any:
    account = await accounts.find(name)
    if account is None or account.deleted:
        raise InputError(f"no account is named {name!r}")
    return account


def with_accounts(database: str, work: Callable[[Any], Awaitable[T]]) -> T:
    """``work(accounts)`` on the database, brought to the current schema first; one-line errors."""
    import asyncio

    from tavli.server.cafe.accounts import Accounts
    from tavli.server.storage.store import Store

    async def run() -> T:
        try:
            store = Store(database)
        except ValueError as e:
            raise InputError(str(e)) from None
        try:
            await store.create_tables()
            return await work(Accounts(store.engine))
        finally:
            await store.engine.dispose()
    try:
        return asyncio.run(run())
    except ValueError as e:  # a password that breaks the rules
        raise InputError(str(e)) from None
    except OSError as e:
        raise InputError(f"cannot open the database: {e}") from None
