"""One Greek register everywhere: the pages (``tavli/server/static/strings-el.js``), the server's
reasons (``tavli/data/reasons.el.json``) and the terminal (``tavli/data/terminal.el.json``) speak
to the player in the polite plural (σας, εσείς; "παίξτε", "συνδεθείτε"), never in the familiar
singular (σου, εσύ; "παίξε", "στείλε"). Words are matched whole: θέσεις and σουβλάκι are no σου,
and a first person (Οι αγώνες μου) is the player's own voice, not the register."""

from __future__ import annotations

import re
from pathlib import Path

from test_web_strings import preset_names, read_strings

from tavli.errors import translations

DOCS = Path(__file__).resolve().parent.parent / "docs" / "web.md"
WORD = re.compile(r"\w+")
FAMILIAR = frozenset({
    # the familiar pronouns
    "σου", "σένα", "εσένα", "εσύ",
    # imperatives no other form of the verb shares: the past says έδειξε, έστειλε, πήρε, έπαιξε...
    "δείξε", "στείλε", "πάρε", "παίξε", "ξαναπαίξε", "ρίξε", "ξαναρίξε", "κάνε", "δες", "πες", "βάλε",
    "βγάλε", "γράψε", "δώσε", "φτιάξε", "φέρε", "φύγε", "μείνε", "κλείσε", "σβήσε", "μπες", "βγες",
    "έλα", "άσε", "κοίτα", "πάτα", "ρώτα", "ξεκίνα", "γύρνα", "ανέβα", "κατέβα", "συνδέσου",
    "αποσυνδέσου", "μοιράσου", "σκέψου", "ξανασκέψου", "θυμήσου", "ετοιμάσου",
    # the familiar present, past and subjunctive
    "είσαι", "ήσουν", "έχεις", "μπορείς", "θέλεις", "παίζεις", "παίξεις", "κερδίζεις", "χάνεις",
    "έπαιξες", "κέρδισες", "έχασες", "ήρθες", "συνδεθείς", "διαλέξεις", "ρίξεις",
})
"""Forms that can only be the familiar singular."""
SHARED_WITH_THE_PAST = frozenset({
    "διάλεξε", "άλλαξε", "άνοιξε", "ακύρωσε", "δοκίμασε", "ξαναδοκίμασε", "συνέχισε", "επιβεβαίωσε",
    "αποθήκευσε", "ξεκίνησε", "πάτησε", "αντίγραψε", "κατέβασε", "ανέβασε", "περίμενε", "άφησε",
    "απάντησε", "γύρισε", "διάγραψε", "τελείωσε", "κέρδισε", "μάζεψε", "φόρτωσε", "σύνδεσε",
})
"""Imperatives spelt as the past's third person ("Ο κωδικός άλλαξε" is no command): one is the
familiar imperative where it opens a clause and an object or nothing follows it."""
OBJECT_OR_END = re.compile(r"\s*(?:$|[:;.!·,)]|(?:τον|την|τη|τους|τις|ξανά|εδώ)(?!\w))")
CLAUSE_START = re.compile(r"(?:^|[:;.!·(—])\s*$")


def familiar(text: str) -> list[str]:
    """The words of ``text`` in the familiar singular, in order.

    >>> familiar("Στείλε την πρόσκληση στον φίλο σου"), familiar("Στείλτε την πρόσκληση στον φίλο σας")
    (['Στείλε', 'σου'], [])
    >>> familiar("Διάλεξε τη θέση"), familiar("Ο κωδικός άλλαξε"), familiar("τελείωσε ο χρόνος")
    (['Διάλεξε'], [], [])
    """
    found = []
    for word in WORD.finditer(text):
        lower = word.group().lower()
        if lower in FAMILIAR or (lower in SHARED_WITH_THE_PAST and CLAUSE_START.search(text[:word.start()])
                                 and OBJECT_OR_END.match(text, word.end())):
            found.append(word.group())
    return found


def greek_texts() -> dict[str, str]:
    """Every Greek string a page, the server or the terminal shows, by where it comes from."""
    texts = {f"strings-el.js {key}": text for key, text in read_strings()["el"].items()}
    for table in ("reasons", "terminal"):
        texts |= {f"{table}.el.json {key!r}": text for key, text in translations("el", table).items()}
    return texts


def test_the_checker_tells_the_registers_apart() -> None:
    assert familiar("Σειρά σου — Τάβλι") == ["σου"]
    assert familiar("ΣΕΙΡΑ ΣΟΥ") == ["ΣΟΥ"]
    assert familiar("Πάρε τη θέση σου: παίξε!") == ["Πάρε", "σου", "παίξε"]
    assert familiar("Άλλαξε") + familiar("(άλλαξε τον κωδικό)") == ["Άλλαξε", "άλλαξε"]
    polite = ("Σειρά σας — Τάβλι", "Πάρτε τη θέση σας: παίξτε με τα λευκά, εσείς", "Οι αγώνες μου",
              "κινήσεις, θέσεις, σουβλάκι", "ο καθένας ξανάριξε ένα ζάρι", "όποιος τον έφτιαξε διάλεξε χωρίς",
              "Ο κωδικός άλλαξε· οι άλλες συνδέσεις σας έληξαν", "τελείωσε ο χρόνος του αντιπάλου",
              "Τα λευκά έπαιξαν σε αυτό το σημείο")
    assert [familiar(text) for text in polite] == [[]] * len(polite)


def test_every_greek_string_is_in_the_polite_plural() -> None:
    texts = greek_texts()
    assert len(texts) > 700
    wrong = {where: familiar(text) for where, text in texts.items() if familiar(text)}
    assert wrong == {}, "say these in the polite plural (σας, παίξτε)"


def test_the_docs_say_the_register_and_the_clocks_greek_names() -> None:
    docs = DOCS.read_text(encoding="utf-8")
    for found in preset_names("el").values():
        assert f"«{next(iter(found))}»" in docs
    assert "polite plural" in docs and "σας" in docs
