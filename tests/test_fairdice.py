"""Committed dice: the seed gives the dice, the commitment gives the seed away only when shown."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter
from itertools import islice

import pytest

from tavli import DiceError
from tavli.fairdice import SeededRoller, check_game, commitment, dice_of_rolls, dice_stream, new_seed
from tavli.match import Match, MatchSettings


def independent_dice(seed: bytes, count: int) -> list[int]:
    """The recipe of docs/web.md, written again from the text."""
    out: list[int] = []
    j = 0
    while len(out) < count:
        for b in hmac.new(seed, j.to_bytes(8, "big"), hashlib.sha256).digest():
            if b < 252 and len(out) < count:
                out.append(b % 6 + 1)
        j += 1
    return out


def test_stream_follows_the_documented_recipe() -> None:
    for _ in range(20):
        seed = new_seed()
        assert list(islice(dice_stream(seed), 300)) == independent_dice(seed, 300)


def test_faces_are_even() -> None:
    counts = Counter(islice(dice_stream(b"tavli"), 60_000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    for n in counts.values():
        assert abs(n - 10_000) < 400  # about 4 standard deviations


def test_commitment_is_sha256() -> None:
    seed = bytes(range(32))
    assert commitment(seed) == hashlib.sha256(seed).hexdigest()
    assert len(new_seed()) == 32 and new_seed() != new_seed()


def test_check_game_refuses_a_wrong_seed_or_die() -> None:
    seed = new_seed()
    dice = list(islice(dice_stream(seed), 10))
    check_game(seed.hex(), commitment(seed), dice)
    with pytest.raises(DiceError, match="does not match"):
        check_game(new_seed().hex(), commitment(seed), dice)
    with pytest.raises(DiceError, match="die 4"):
        check_game(seed.hex(), commitment(seed), [*dice[:3], dice[3] % 6 + 1])
    with pytest.raises(DiceError, match="hex"):
        check_game("zz", commitment(seed), dice)


def test_a_match_draws_each_game_from_its_own_seed() -> None:
    roller = SeededRoller()
    match = Match(MatchSettings(length=3, games=("portes",)), roller)
    first_seed = roller.seeds[0]
    rolls = []
    while len(match.records) == 1:
        rolls.append(match.roll())
        legal = match.legal_plays()
        match.play(legal[0] if len(legal) else None)
    assert len(roller.seeds) == 2 and roller.seeds[0] == first_seed
    record = match.records[0]
    check_game(first_seed.hex(), commitment(first_seed), dice_of_rolls(record.opening_rolls, rolls))
    # the same seeds replay the same match
    again = Match(MatchSettings(length=3, games=("portes",)), SeededRoller([first_seed]))
    assert again.records[0].opening_rolls == record.opening_rolls
    assert [again.roll() for _ in range(1)] == rolls[:1]


def test_a_game_cannot_skip_a_seed() -> None:
    with pytest.raises(DiceError, match="before game 0"):
        SeededRoller().start_game(1)
    with pytest.raises(DiceError, match="no game"):
        SeededRoller().die()
