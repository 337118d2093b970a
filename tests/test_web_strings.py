"""The web app's words (``tavli/server/static/strings.js``): every string in English and Greek,
every key the pages use defined, and the keys made up at run time (errors, reasons, bot levels)
there too. Read as text, without a browser: the file is one object literal, a key and a string on
each line."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tavli.bots import LEVELS
from tavli.server.play.clocks import PRESETS
from tavli.server.play.seats import POOLS
from tavli.server.play.view import WHY

STATIC = Path(__file__).resolve().parent.parent / "tavli" / "server" / "static"
ENTRY = re.compile(r'^ {4}"?([\w-]+)"?: (".*"),?$')
ERROR_CODES = ("bad-message", "too-large", "rate-limited", "not-joined", "bad-token", "not-your-turn",
               "spectator", "illegal", "match-over", "not-absent", "offer-pending", "no-offer", "waiting", "private")


def read_strings(source: str) -> dict[str, dict[str, str]]:
    """``STRINGS`` of strings.js: each language's block (``  en: {`` to ``  },``), a key a line."""
    strings: dict[str, dict[str, str]] = {}
    body = source[source.index("export const STRINGS = {"):]
    for block in re.finditer(r"^ {2}(\w+): \{\n(.*?)^ {2}\},", body, re.M | re.S):
        words = strings.setdefault(block.group(1), {})
        for line in block.group(2).splitlines():
            entry = ENTRY.match(line)
            assert entry, f"not a key and a string: {line!r}"
            # a key given twice is no error to JavaScript: the later one silently wins
            assert entry.group(1) not in words, f"{block.group(1)}: {entry.group(1)} defined twice"
            words[entry.group(1)] = json.loads(entry.group(2))
    return strings


@pytest.fixture(scope="module")
def strings() -> dict[str, dict[str, str]]:
    return read_strings((STATIC / "strings.js").read_text(encoding="utf-8"))


def test_every_string_has_both_languages(strings: dict[str, dict[str, str]]) -> None:
    assert set(strings) == {"en", "el"}
    assert len(strings["en"]) > 300
    assert set(strings["en"]) == set(strings["el"])
    assert all(strings[lang][key].strip() for lang in strings for key in strings[lang])


def test_every_key_the_pages_use_is_defined(strings: dict[str, dict[str, str]]) -> None:
    used: set[str] = set()
    for path in STATIC.glob("*.html"):
        used |= set(re.findall(r'data-i18n(?:-placeholder|-label)?="([^"]+)"', path.read_text(encoding="utf-8")))
    for path in STATIC.glob("*.js"):
        used |= set(re.findall(r'\bt\("([^"]+)"', path.read_text(encoding="utf-8")))
    assert used - set(strings["en"]) == set(), "strings used but not defined"


def test_the_keys_made_at_run_time_are_there(strings: dict[str, dict[str, str]]) -> None:
    for code in ERROR_CODES:
        assert f"error-{code}" in strings["el"], code
    for why in [*WHY.values(), "claimed", "other"]:
        assert f"why-{why}" in strings["el"], why
    for pool in POOLS:
        assert f"pool-{pool}" in strings["el"], pool
    for result in ("won", "lost", "playing"):
        assert f"result-{result}" in strings["el"], result
    for level in LEVELS:
        assert f"level-{level}" in strings["el"] and f"levelDesc-{level}" in strings["el"], level


def preset_names(language: str) -> dict[str, set[str]]:
    """Each clock preset's names in ``language``: on the start page ("Name: 8 s a move..."), in the
    lobby ("Name 8 s + 1 min") and on the rules page ("Name: ...; Name: ...", in PRESETS' order)."""
    words = read_strings((STATIC / "strings.js").read_text(encoding="utf-8"))[language]
    rules = [part.split(":")[0].strip() for part in re.split(r"[;·]", words["rules-clocks-presets"])]
    assert len(rules) == len(PRESETS), words["rules-clocks-presets"]
    return {preset: {words[f"clock-{preset}"].split(":")[0].strip(),
                     re.split(r"\s\d", words[f"clockShort-{preset}"])[0].strip(), rule}
            for preset, rule in zip(PRESETS, rules, strict=True)}


@pytest.mark.parametrize("language", ["en", "el"])
def test_each_clock_preset_has_one_name(language: str) -> None:
    names = preset_names(language)
    assert {preset: len(found) for preset, found in names.items()} == dict.fromkeys(PRESETS, 1), names
    assert len({next(iter(found)) for found in names.values()}) == len(PRESETS), names


def test_a_missing_greek_word_is_found() -> None:
    source = 'export const STRINGS = {\n  en: {\n    title: "Tavli",\n    "a-b": "x \\"y\\"",\n  },\n' \
             '  el: {\n    title: "Τάβλι",\n  },\n};\n'
    strings = read_strings(source)
    assert strings["en"] == {"title": "Tavli", "a-b": 'x "y"'}
    with pytest.raises(AssertionError, match="title defined twice"):
        read_strings(source.replace('    title: "Τάβλι",\n', '    title: "Τάβλι",\n    title: "Τάβλι",\n'))
    assert set(strings["en"]) != set(strings["el"])
