"""Dice: reading rolls, the moves they give, and the sources of rolls."""

from __future__ import annotations

from collections import Counter

import pytest

from tavli import ALL_ROLLS, Dice, DiceError, DiceRoller, TavliError


@pytest.mark.parametrize("text", ["62", "6-2", "6 2", "6,2", " 6-2 ", "6 - 2"])
def test_parse_accepts_the_usual_forms(text: str) -> None:
    assert Dice.parse(text) == Dice(6, 2)


def test_parse_keeps_the_order_as_rolled() -> None:
    dice = Dice.parse("2-6")
    assert (dice.first, dice.second) == (2, 6)
    assert dice != Dice(6, 2)


@pytest.mark.parametrize("text", ["0", "7", "07", "70", "62x", "abc", "", "6", "6/2", "6--2", "662", "1.5"])
def test_parse_rejects_bad_dice(text: str) -> None:
    with pytest.raises(DiceError) as info:
        Dice.parse(text)
    assert "1 to 6" in str(info.value)


def test_dice_error_is_a_value_error() -> None:
    assert issubclass(DiceError, TavliError)
    assert issubclass(DiceError, ValueError)
    with pytest.raises(ValueError):
        Dice.parse("77")


@pytest.mark.parametrize("value", [(0, 3), (3, 7), (-1, 2), ("6", "2"), (6.0, 2)])
def test_of_rejects_bad_pairs(value: tuple[object, object]) -> None:
    with pytest.raises(DiceError):
        Dice.of(value)  # type: ignore[arg-type]


def test_of_accepts_dice_pairs_and_strings() -> None:
    assert Dice.of(Dice(3, 1)) == Dice(3, 1)
    assert Dice.of((3, 1)) == Dice(3, 1)
    assert Dice.of("3-1") == Dice(3, 1)
    assert isinstance(Dice.of((3, 1)), Dice)


def test_moves_of_a_double_are_four() -> None:
    for d in range(1, 7):
        dice = Dice(d, d)
        assert dice.is_double
        assert dice.moves == (d, d, d, d)


def test_moves_of_a_plain_roll_are_the_two_dice_in_order() -> None:
    assert Dice(6, 2).moves == (6, 2)
    assert Dice(2, 6).moves == (2, 6)
    assert not Dice(2, 6).is_double


def test_high_low_and_str() -> None:
    dice = Dice(2, 5)
    assert (dice.high, dice.low) == (5, 2)
    assert str(dice) == "2-5"
    assert Dice.parse(str(dice)) == dice


def test_all_rolls_are_the_21_distinct_rolls() -> None:
    assert len(ALL_ROLLS) == 21
    assert len(set(ALL_ROLLS)) == 21
    assert all(1 <= a <= b <= 6 for a, b in ALL_ROLLS)
    assert sum(1 for a, b in ALL_ROLLS if a == b) == 6


def test_seeded_roller_is_reproducible() -> None:
    a, b = DiceRoller(seed=42), DiceRoller(seed=42)
    rolls_a = [a.roll() for _ in range(50)] + [Dice(a.die(), a.die())]
    rolls_b = [b.roll() for _ in range(50)] + [Dice(b.die(), b.die())]
    assert rolls_a == rolls_b


def test_different_seeds_give_different_rolls() -> None:
    a, b = DiceRoller(seed=1), DiceRoller(seed=2)
    assert [a.roll() for _ in range(30)] != [b.roll() for _ in range(30)]


def test_seeded_roller_gives_every_value() -> None:
    roller = DiceRoller(seed=5)
    counts = Counter(roller.die() for _ in range(1200))
    assert set(counts) == {1, 2, 3, 4, 5, 6}


def test_default_roller_is_fair_looking_and_in_range() -> None:
    roller = DiceRoller()
    rolls = [roller.roll() for _ in range(600)]
    assert all(isinstance(r, Dice) for r in rolls)
    values = Counter(v for r in rolls for v in r)
    assert set(values) == {1, 2, 3, 4, 5, 6}
    # 1200 dice: each face 200 expected; 100 is more than 7 standard deviations away
    assert all(n > 100 for n in values.values())
    singles = Counter(roller.die() for _ in range(600))
    assert set(singles) == {1, 2, 3, 4, 5, 6}


def test_default_roller_is_not_seeded() -> None:
    a, b = DiceRoller(), DiceRoller()
    assert [a.roll() for _ in range(40)] != [b.roll() for _ in range(40)]
