"""``tavli.terminal.reports``: the study commands' tables in English and Greek, whole and with the
language's figures."""

from __future__ import annotations

import re

import pytest
from test_cli_analysis import random_against_advanced

from tavli.bots.match_equity import MatchEquity, Starter
from tavli.bots.rollout import RolloutSettings, rollout
from tavli.dice import Dice
from tavli.formats.record import MatchRecord, PlayerInfo
from tavli.match import MatchSettings
from tavli.position import Position
from tavli.study.analysis import MatchAnalysis, analyse_record
from tavli.study.openings import shipped
from tavli.terminal.board import board, render_text
from tavli.terminal.reports import analysis_view, met_view, opening_roll_view, openings_view, rollout_view
from tavli.variants import BLACK, WHITE

GREEK = re.compile("[α-ωΑ-Ω]")
ENGLISH_WORDS = re.compile(r"\b(the|of|rate|luck|played|blunder|error|rollout|trials|away|needs|win)\b")


@pytest.fixture(scope="module")
def analysed() -> MatchAnalysis:
    """``random_against_advanced`` at 0-ply, White named as a person."""
    record = MatchRecord.from_match(random_against_advanced(), {WHITE: PlayerInfo("human", "Eleni"),
                                                                BLACK: PlayerInfo("bot", "advanced")})
    return analyse_record(record, 0, 1)


def test_an_analysis_in_greek_says_every_word_in_greek_and_fits_the_terminal(analysed: MatchAnalysis) -> None:
    text = render_text(analysis_view(analysed, 3, "el"), width=120)
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 120 and "…" not in text  # nothing cut off, no heading shortened
    assert "Ανάλυση σε βάθος 0" in text and "αγώνας στους 2" in text
    for heading in ("δείκτης λαθών", "χαμένη ΠΝΠ", "μη αναγκαστικές", "αμφίβολες", "γκάφες", "χωρίς τύχη", "Παιχνίδια",
                    "νικητής"):
        assert heading in text, heading
    assert "Λευκά (Eleni)" in text and "Μαύρα (υπολογιστής, προχωρημένος)" in text and "Πόρτες" in text
    assert "Τα 3 ακριβότερα λάθη" in text
    assert "  <- παίχτηκε" in text and "γκάφα (-" in text
    assert ENGLISH_WORDS.findall(text) == []
    white = analysed.players[WHITE]
    assert f"{white.error_rate:.1f}".replace(".", ",") in text  # the decimal comma
    assert f"{white.luck:+.3f}".replace(".", ",") in text
    assert not re.search(r"\d\.\d", text)  # no decimal point anywhere


def test_an_analysis_in_english_keeps_its_words_and_figures(analysed: MatchAnalysis) -> None:
    text = render_text(analysis_view(analysed, 1, "en"), width=120)
    assert "Analysis at 0-ply" in text and "White (Eleni)" in text and "The costliest mistake (" in text
    assert GREEK.search(text) is None
    worst = analysed.mistakes(1)[0]
    lost = f"-{worst.loss:.3f}, MWC -{100 * (worst.mwc_loss or 0):.2f} pp"
    assert f"played {worst.played}, {worst.skill} ({lost})" in text
    assert "  <- played" in text and "…" not in text
    assert render_text(analysis_view(analysed, 0, "en"), width=120).count("costliest") == 0  # --top 0: no list
    drawn = render_text(analysis_view(analysed, 2, "en", boards=True), width=120)
    assert drawn.count("┌") == text.count("┌") + 2  # a board for each mistake shown, as its player saw it
    worst_board = render_text(board(Position.from_string(worst.position), bottom=worst.color, dice=worst.dice), 120)
    assert worst_board.splitlines()[1] in drawn


def test_the_opening_tables_in_greek() -> None:
    tables = shipped()
    text = render_text(openings_view(tables, ["fevga"], "el"))
    assert "Φεύγα: η καλύτερη κίνηση κάθε πρώτης ζαριάς" in text
    best = tables.summary("fevga", Dice(6, 5))[0]
    figures = f"{best.equity:+.3f} ± {best.ci95:.3f}".replace(".", ",")
    assert re.search(rf"6-5 +│ {re.escape(best.play)} +│ +{re.escape(figures)} │", text)
    assert ENGLISH_WORDS.findall(text) == []
    one = render_text(opening_roll_view(tables, "plakoto", Dice(6, 5), "el"))
    assert "Πλακωτό, πρώτη ζαριά 6-5" in one and "διαφορά" in one and "προχωρημένος" in one
    assert ENGLISH_WORDS.findall(one) == []


def test_the_match_equity_table_in_greek_is_the_tables_figures() -> None:
    table = MatchEquity.for_settings(MatchSettings(length=3)).table(3, 0, Starter("roll-off"))
    text = render_text(met_view(table, "portes", "roll-off", "el"))
    assert "αγώνας στους" in text and "Πόρτες" in text and "λείπουν" in text
    row = re.search(r"│ +2 │(.*)│", text)
    assert row is not None
    assert [cell.strip() for cell in row.group(1).split("│")] == [f"{100 * e:.1f}".replace(".", ",") for e in table[1]]
    english = render_text(met_view(table, "portes", "me", "en"))
    assert "the row's side starts it" in english and "3-away" in english


def test_a_rollout_in_greek() -> None:
    race = Position.from_string("portes 1w.................15b..... w 0:0 14:0")
    result = rollout(race, RolloutSettings(trials=36), workers=1)
    text = render_text(rollout_view(race, None, "advanced", [("", result)], True, "el"), width=200)
    assert text.splitlines() == [
        "portes 1w.................15b..... w 0:0 14:0 (ρίχνουν τα Λευκά)· το επίπεδο προχωρημένος παίζει και για "
        "τους δύο",
        "+2,000 ± 0,000 σε 36 δοκιμές (νίκη 100,0%, με 2 πόντους 100,0%, ήττα με 2 πόντους 0,0%)· με την τύχη +2,000 "
        "± 0,000"]
    english = render_text(rollout_view(race, Dice(6, 5), "expert", [("1/off", result)], False), width=200)
    assert english.splitlines()[1] == f"{'1/off':24} {result}"  # the library's own words for a rollout
