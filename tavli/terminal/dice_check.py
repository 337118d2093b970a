"""A match's dice checked against the seeds the server published (``tavli verify-dice``): the
record of the dice is read from the server over HTTP (the match's address, or its
``/api/matches/ID/dice``) or from a file saved from there, or is a match record (such as the
match page's download); each finished game's dice are dealt again from its revealed seed and
the seed checked against the commitment published before the game (``tavli.fairdice``).

>>> dice_address("http://host:8000/match/k3J9xQ2mWcA#t=abc")
'http://host:8000/api/matches/k3J9xQ2mWcA/dice'
"""

from __future__ import annotations

import json
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

from tavli.errors import TavliError
from tavli.fairdice import check_game, dice_of_rolls
from tavli.formats.record import from_json


class DiceCheckError(TavliError):
    """A record of dice that cannot be read, or that lacks what the check needs."""


def dice_address(url: str) -> str:
    """The address of a match's dice on its server: ``url`` itself when it is one already, else
    the one of the match whose address ``url`` is."""
    target = url.split("#")[0].rstrip("/")
    if "/api/matches/" in target:
        return target
    if "/match/" not in target:
        raise DiceCheckError("give the match's address (http://host/match/ID) or its /api/matches/ID/dice")
    base, match_id = target.rsplit("/match/", 1)
    return f"{base}/api/matches/{match_id}/dice"


def link_token(url: str) -> str | None:
    """The token of a match's link (``#t=TOKEN``), which the server asks for a private match's
    dice: sent as a header, never in the address.

    >>> link_token("http://host:8000/match/k3J9xQ2mWcA#t=abc"), link_token("http://host:8000/match/k3J9xQ2mWcA")
    ('abc', None)
    """
    return urllib.parse.parse_qs(url.partition("#")[2]).get("t", [None])[0]


def read_dice(url: str) -> object:
    """The record of a match's dice (or a match record) that ``url`` names: a file, or an
    address on the match's server (with the token of a link, for a private match)."""
    if Path(url).is_file():
        try:
            return json.loads(Path(url).read_text())
        except (OSError, ValueError) as e:
            raise DiceCheckError(f"cannot read {url}: {e}") from None
    target = dice_address(url)
    token = link_token(url)
    request = urllib.request.Request(target, headers={"Authorization": f"Bearer {token}"} if token else {})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.load(answer)
    except (OSError, ValueError) as e:
        raise DiceCheckError(f"cannot read {target}: {e}") from None


def checked_games(url: str, record: object) -> Iterator[str]:
    """A line for each game of ``record`` (read from ``url``), checked as the lines come, and the
    count of the games checked; ``DiceCheckError`` for a record that does not hold up."""
    if isinstance(record, dict) and record.get("format") == "tavli-match":
        yield from checked_record(url, record)
        return
    if not isinstance(record, dict) or not isinstance(record.get("games"), list):
        raise DiceCheckError(f"{url} is not a match's dice record")
    checked = 0
    for game in record.get("games", []):
        if game.get("seed") is None:
            yield f"game {game['index'] + 1} ({game['variant']}): not over, seed not yet revealed"
            continue
        try:
            dice = dice_of_rolls(game["opening"], game["rolls"])
            check_game(game["seed"], game["commitment"], dice)
        except (KeyError, TypeError) as e:
            raise DiceCheckError(f"game {game.get('index')}: the record lacks {e}") from None
        checked += 1
        yield (f"game {game['index'] + 1} ({game['variant']}): {len(dice)} dice match seed {game['seed'][:12]}… "
               f"and commitment {game['commitment'][:12]}…")
    yield f"{checked} finished game(s) checked: the dice are the seeds' dice"


def checked_record(url: str, data: dict[str, object]) -> Iterator[str]:
    """``checked_games`` for a match record: reading it checks each revealed seed against its
    commitment and the dice (``tavli.formats.record.from_json``)."""
    try:
        record = from_json(data)
    except ValueError as e:
        raise DiceCheckError(f"{url}: {e}") from None
    checked = 0
    for number, game in enumerate(record.games, 1):
        if game.seed is None:
            why = "no published seed" if game.commitment is None else "not over, seed not yet revealed"
            yield f"game {number} ({game.variant}): {why}"
            continue
        checked += 1
        yield (f"game {number} ({game.variant}): {len(game.dice())} dice match seed {game.seed[:12]}… "
               f"and commitment {(game.commitment or '')[:12]}…")
    yield f"{checked} finished game(s) checked: the dice are the seeds' dice"
