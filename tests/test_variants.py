"""Variants: the three games, their house rules as text, and the two numberings."""

from __future__ import annotations

import pytest

from tavli import (
    BLACK,
    WHITE,
    Color,
    Fevga,
    Plakoto,
    Portes,
    TavliError,
    Variant,
    make_variant,
    variant_from_string,
)


def test_plain_names() -> None:
    assert variant_from_string("portes") == Portes()
    assert variant_from_string("plakoto") == Plakoto()
    assert variant_from_string("fevga") == Fevga()
    assert isinstance(variant_from_string("fevga"), Fevga)


def test_names_are_case_and_space_insensitive() -> None:
    assert variant_from_string(" Fevga ") == Fevga()
    assert variant_from_string("PORTES") == Portes()


def test_defaults_follow_the_rules() -> None:
    assert Plakoto().mother_pin == "double"
    assert Fevga().prime_limits is True
    assert Fevga().prime_in_opponent_start is True


def test_fevga_option() -> None:
    v = variant_from_string("fevga,prime_limits=off")
    assert v == Fevga(prime_limits=False)
    assert isinstance(v, Fevga)
    assert v.prime_limits is False
    assert v.prime_in_opponent_start is True


def test_two_options_with_spaces_and_other_spellings() -> None:
    v = variant_from_string("fevga, prime_limits = OFF , prime_in_opponent_start=no")
    assert v == Fevga(prime_limits=False, prime_in_opponent_start=False)
    assert variant_from_string("fevga,prime_limits=on") == Fevga()
    assert variant_from_string("fevga,prime_limits=false") == Fevga(prime_limits=False)
    assert variant_from_string("fevga,prime_in_opponent_start=0") == Fevga(prime_in_opponent_start=False)


@pytest.mark.parametrize("value", ["double", "single", "off"])
def test_plakoto_mother_pin(value: str) -> None:
    v = variant_from_string(f"plakoto,mother_pin={value}")
    assert v == Plakoto(mother_pin=value)  # type: ignore[arg-type]


def test_options_lists_only_changed_rules() -> None:
    assert Portes().options() == {}
    assert Plakoto().options() == {}
    assert Fevga().options() == {}
    assert Fevga(prime_limits=False).options() == {"prime_limits": "off"}
    assert Plakoto(mother_pin="single").options() == {"mother_pin": "single"}


@pytest.mark.parametrize("variant", [
    Portes(), Plakoto(), Plakoto(mother_pin="single"), Plakoto(mother_pin="off"), Fevga(),
    Fevga(prime_limits=False), Fevga(prime_in_opponent_start=False),
    Fevga(prime_limits=False, prime_in_opponent_start=False),
])
def test_str_round_trip(variant: Variant) -> None:
    text = str(variant)
    assert text.startswith(variant.name)
    assert variant_from_string(text) == variant


def test_str_texts() -> None:
    assert str(Portes()) == "portes"
    assert str(Plakoto(mother_pin="off")) == "plakoto,mother_pin=off"
    assert str(Fevga(prime_limits=False)) == "fevga,prime_limits=off"


def test_unknown_game() -> None:
    with pytest.raises(TavliError) as info:
        variant_from_string("chess")
    message = str(info.value)
    assert "chess" in message
    assert "portes" in message and "plakoto" in message and "fevga" in message


def test_empty_game_name() -> None:
    with pytest.raises(TavliError):
        variant_from_string("")


def test_unknown_option_names_the_known_ones() -> None:
    with pytest.raises(TavliError) as info:
        variant_from_string("plakoto,foo=1")
    assert "foo" in str(info.value)
    assert "mother_pin" in str(info.value)
    with pytest.raises(TavliError) as info:
        variant_from_string("fevga,mother_pin=single")
    assert "prime_limits" in str(info.value)
    with pytest.raises(TavliError) as info:
        variant_from_string("portes,prime_limits=off")
    assert "prime_limits" in str(info.value)


def test_bad_option_values() -> None:
    with pytest.raises(TavliError) as info:
        variant_from_string("fevga,prime_limits=maybe")
    assert "on or off" in str(info.value)
    with pytest.raises(TavliError) as info:
        variant_from_string("plakoto,mother_pin=triple")
    assert "triple" in str(info.value)
    with pytest.raises(TavliError) as info:
        Plakoto(mother_pin="x")  # type: ignore[arg-type]
    assert "double, single or off" in str(info.value)


def test_option_without_value() -> None:
    with pytest.raises(TavliError) as info:
        variant_from_string("fevga,prime_limits")
    assert "key=value" in str(info.value)


def test_errors_are_value_errors() -> None:
    assert issubclass(TavliError, ValueError)
    with pytest.raises(ValueError):
        variant_from_string("tavli")


def test_make_variant() -> None:
    v = Fevga(prime_limits=False)
    assert make_variant(v) is v
    assert make_variant("plakoto,mother_pin=single") == Plakoto(mother_pin="single")
    with pytest.raises(TavliError):
        make_variant("nope")


def test_variants_are_values() -> None:
    assert Fevga(prime_limits=False) == Fevga(prime_limits=False)
    assert hash(Fevga(prime_limits=False)) == hash(Fevga(prime_limits=False))
    assert Fevga() != Fevga(prime_limits=False)
    assert Plakoto() != Plakoto(mother_pin="off")
    assert len({Portes(), Portes(), Plakoto(), Fevga()}) == 3
    with pytest.raises(AttributeError):
        Fevga().prime_limits = False  # type: ignore[misc]


def test_params_differ_with_the_rules() -> None:
    params = {Portes().params, Plakoto().params, Plakoto(mother_pin="single").params,
              Plakoto(mother_pin="off").params, Fevga().params, Fevga(prime_limits=False).params,
              Fevga(prime_in_opponent_start=False).params}
    assert len(params) == 7


@pytest.mark.parametrize("variant", [Portes(), Plakoto()])
def test_other_numbering_opposite_directions(variant: Variant) -> None:
    assert variant.opposite_directions
    assert variant.other_numbering(1) == 24
    assert variant.other_numbering(24) == 1
    assert variant.other_numbering(6) == 19
    assert variant.other_numbering(12) == 13
    assert variant.other_numbering(13) == 12
    for p in range(1, 25):
        assert variant.other_numbering(p) == 25 - p
        assert variant.other_numbering(variant.other_numbering(p)) == p


def test_other_numbering_fevga() -> None:
    v = Fevga()
    assert not v.opposite_directions
    assert v.other_numbering(24) == 12  # my start is his 12-point
    assert v.other_numbering(12) == 24
    assert v.other_numbering(13) == 1
    assert v.other_numbering(1) == 13
    for p in range(1, 25):
        expected = p - 12 if p > 12 else p + 12
        assert v.other_numbering(p) == expected
        assert v.other_numbering(v.other_numbering(p)) == p


def test_bar_only_in_portes() -> None:
    assert Portes.has_bar
    assert not Plakoto.has_bar
    assert not Fevga.has_bar


def test_start_points() -> None:
    assert dict(Portes.start_points) == {24: 2, 13: 5, 8: 3, 6: 5}
    assert dict(Plakoto.start_points) == {24: 15}
    assert dict(Fevga.start_points) == {24: 15}
    for v in (Portes, Plakoto, Fevga):
        assert sum(n for _, n in v.start_points) == 15


def test_colors() -> None:
    assert WHITE.other is BLACK
    assert BLACK.other is WHITE
    assert (WHITE.letter, BLACK.letter) == ("w", "b")
    assert (str(WHITE), str(BLACK)) == ("White", "Black")
    assert Color(0) is WHITE
