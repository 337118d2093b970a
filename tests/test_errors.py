"""The library's errors and their reasons (tavli.errors): words in English and in Greek."""

from __future__ import annotations

import pytest

from tavli import Dice, DiceError, Position, PositionFormatError
from tavli.errors import LANGUAGES, Reason, TavliError, translations


def test_a_reason_in_english_is_its_error_message() -> None:
    with pytest.raises(DiceError) as caught:
        Dice.parse("77")
    reason = caught.value.reason
    assert reason.words() == reason.words("en") == str(caught.value) == str(reason)


def test_a_reason_in_greek_fills_the_same_values_into_its_greek_words() -> None:
    with pytest.raises(DiceError) as caught:
        Dice.parse("77")
    assert caught.value.reason.words("el") == "τα ζάρια είναι δύο αριθμοί από το 1 ως το 6, όπως 62 ή 6-2, όχι '77'"


def test_reasons_within_a_reason_are_said_in_the_same_language() -> None:
    with pytest.raises(PositionFormatError) as caught:
        Position.from_gnubg_id("AACABAAAAAAAAA")  # both sides on one point
    assert str(caught.value) == "'AACABAAAAAAAAA': both sides have checkers on White's point 1"
    assert caught.value.reason.words("el") == ("'AACABAAAAAAAAA': και οι δύο πλευρές έχουν πούλια "
                                               "στο σημείο 1 των Λευκών")


def test_a_template_without_greek_words_is_said_in_english() -> None:
    reason = Reason("a reason nobody translated: {n}", n=3)
    assert reason.words("el") == "a reason nobody translated: 3"
    # and so is all of it, not half in each language
    assert TavliError("within: {reason}", reason=TavliError("the board has {count} points, not 24", count=2)) \
        .reason.words("el") == "within: the board has 2 points, not 24"


def test_only_the_languages_there_are() -> None:
    assert LANGUAGES == ("en", "el") and translations("en") == {}
    assert len(translations("el")) > 250
    with pytest.raises(ValueError, match="no words in 'fr'"):
        translations("fr")
    with pytest.raises(ValueError, match="no words in 'fr'"):
        Reason("x").words("fr")


def test_an_error_made_from_a_reason_keeps_it() -> None:
    reason = Reason("the board has {count} points, not 24", count=25)
    error = PositionFormatError(reason)
    assert error.reason is reason and str(error) == "the board has 25 points, not 24"


def test_a_reason_shown_with_a_conversion_is_shown_as_it_is_in_the_words() -> None:
    inner = TavliError("the board has {count} points, not 24", count=2)
    reason = Reason("{what!r} and {why}", what=inner, why=inner)
    values = reason.values()
    assert values["what"] == repr(inner) and values["why"] is inner.reason
