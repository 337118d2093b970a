"""How long a player's page takes the server: ``GET /api/players/NAME`` for a player with 1,000
finished matches (rated, reviewed, against 50 opponents), made in a fresh SQLite database.

    .venv/bin/python benchmarks/speed/profile_page.py [--matches 1000] [--repeat 30]

Prints the median and 90th percentile milliseconds of the whole request through the app (the
queries, the JSON), and of its floor in the same run: the bare query that reads the same match
rows, without building anything; the ratio says what the page adds to reading its rows. The goal
(issue "accounts, ratings and history"): under 200 ms for 1,000 matches.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path

from rich.console import Console
from sqlalchemy import insert, select
from starlette.testclient import TestClient

from tavli.server.app import create_app
from tavli.server.cafe.accounts import HASHER
from tavli.server.storage.schema import accounts, match_results, matches, rating_changes, seat_accounts
from tavli.server.storage.store import Store

console = Console(highlight=False)
OPPONENTS = 50


def fill(url: str, count: int) -> None:
    """One player, ``OPPONENTS`` others, and ``count`` finished rated 5-point Tavli matches between them."""
    async def run() -> None:
        store = Store(url)
        await store.create_tables()
        hashed, now = HASHER.hash("profile password"), time.time()
        async with store.engine.begin() as conn:
            await conn.execute(insert(accounts), [
                {"id": k + 1, "name": f"player{k}", "name_key": f"player{k}", "password": hashed,
                 "created": now - 400 * 86400, "disabled": False, "deleted": False} for k in range(OPPONENTS + 1)])
            settings = json.dumps({"length": 5, "games": ["portes", "plakoto", "fevga"], "mother_pin": "double",
                                   "prime_limits": True, "prime_in_opponent_start": True, "rated": True})
            games = json.dumps([{"game": g, "winner": "white", "points": 2 if g == "portes" else 1}
                                for g in ("portes", "plakoto", "fevga", "portes")])
            rows, seats, results, changes = [], [], [], []
            for k in range(count):
                mid, at = f"m{k:05d}", now - (count - k) * 3600
                rows.append({"id": mid, "created": at, "settings": settings, "white": "human", "black": "human",
                             "seq": 300, "over": True, "updated": at + 1200})
                seats += [{"match_id": mid, "seat": "white", "account_id": 1},
                          {"match_id": mid, "seat": "black", "account_id": 2 + k % OPPONENTS}]
                won = k % 3 != 0
                results.append({"match_id": mid, "finished": at + 1200, "winner": "white" if won else "black",
                                "white_points": 5 if won else 3, "black_points": 2 if won else 5, "ending": "played",
                                "white_error_rate": 20 + k % 17, "black_error_rate": 25 + k % 13,
                                "games": games})
                for who, seat_won in ((1, won), (2 + k % OPPONENTS, not won)):
                    changes.append({"match_id": mid, "account_id": who, "pool": "tavli", "score": float(seat_won),
                                    "rating": 1500.0 + k % 40, "deviation": 60.0, "new_rating": 1501.0 + k % 40,
                                    "new_deviation": 59.0, "at": at + 1200})
            for table, values in ((matches, rows), (seat_accounts, seats), (match_results, results),
                                  (rating_changes, changes)):
                await conn.execute(insert(table), values)
        await store.engine.dispose()
    asyncio.run(run())


def floor_query(url: str) -> float:
    """Seconds of the bare read of the player's match rows, joined as the page joins them."""
    async def run() -> float:
        store = Store(url)
        query = (select(matches, match_results).join(seat_accounts, seat_accounts.c.match_id == matches.c.id)
                 .outerjoin(match_results, match_results.c.match_id == matches.c.id)
                 .where(seat_accounts.c.account_id == 1).order_by(matches.c.created.desc()))
        async with store.engine.connect() as conn:
            await conn.execute(query)
            start = time.perf_counter()
            (await conn.execute(query)).all()
            took = time.perf_counter() - start
        await store.engine.dispose()
        return took
    return asyncio.run(run())


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="tavli-profile-") as folder:
        url = f"sqlite:///{Path(folder) / 'profile.db'}"
        fill(url, args.matches)
        page, floor = [], []
        with TestClient(create_app(url)) as client:
            assert len(client.get("/api/players/player0").json()["matches"]) == args.matches
            for _ in range(args.repeat):
                start = time.perf_counter()
                answer = client.get("/api/players/player0")
                page.append(time.perf_counter() - start)
                assert answer.status_code == 200
        floor = [floor_query(url) for _ in range(max(3, args.repeat // 5))]
    figures = {"matches": args.matches, "page_ms_median": 1000 * statistics.median(page),
               "page_ms_p90": 1000 * sorted(page)[round(0.9 * (len(page) - 1))],
               "floor_ms_median": 1000 * statistics.median(floor)}
    figures["ratio"] = figures["page_ms_median"] / figures["floor_ms_median"]
    console.print(f"player page with {args.matches} matches: median {figures['page_ms_median']:.1f} ms, "
                  f"p90 {figures['page_ms_p90']:.1f} ms (goal: under 200 ms); the bare query of its rows "
                  f"{figures['floor_ms_median']:.1f} ms; ratio {figures['ratio']:.1f}")
    return figures


if __name__ == "__main__":
    main()
