"""The web app's words (``tavli/server/static/strings.js``): every string in English and Greek,
every key the pages use defined, one style of key, and the keys made up at run time (the server's
error codes, reasons, bot levels, games) there too. Read as text, without a browser: the file is one
object literal, a key and a string on each line."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tavli.bots import LEVELS
from tavli.server.play.clocks import PRESETS
from tavli.server.play.seats import ERROR_CODES, POOLS
from tavli.server.play.view import WHY
from tavli.variants import GAMES

SERVER = Path(__file__).resolve().parent.parent / "tavli" / "server"
STATIC = SERVER / "static"
ENTRY = re.compile(r'^ {2}"?([\w-]+)"?: (".*"),?$')
LANGUAGES = ("en", "el")
KEY = re.compile(r"[a-z][a-zA-Z0-9]*(-[a-z0-9]+)*")
"""A key's style: camelCase (``yourMove``); one made at run time from a code is the family's key, a
hyphen and the code as the server or the page spells it (``error-not-your-turn``, ``game-portes``,
``levelDesc-expert``)."""
SENT_CODES = (re.compile(r'ActionError\(\s*"([^"]+)"'), re.compile(r'MessageError\(.*?,\s*"([^"]+)"\)'),
              re.compile(r'"code":\s*"([^"]+)"'))
"""Where the server's source names an error code it sends a page."""


def read_words(source: str) -> dict[str, str]:
    """``WORDS`` of a language's file (``strings-en.js``): a key and its string a line."""
    words: dict[str, str] = {}
    body = source[source.index("export const WORDS = {\n") + len("export const WORDS = {\n"):source.index("\n};")]
    for line in body.splitlines():
        entry = ENTRY.match(line)
        assert entry, f"not a key and a string: {line!r}"
        # a key given twice is no error to JavaScript: the later one silently wins
        assert entry.group(1) not in words, f"{entry.group(1)} defined twice"
        words[entry.group(1)] = json.loads(entry.group(2))
    return words


def read_strings() -> dict[str, dict[str, str]]:
    """The pages' words by language, from the language's file (``static/strings-el.js``)."""
    return {lang: read_words((STATIC / f"strings-{lang}.js").read_text(encoding="utf-8")) for lang in LANGUAGES}


@pytest.fixture(scope="module")
def strings() -> dict[str, dict[str, str]]:
    return read_strings()


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


def test_every_key_has_the_one_style(strings: dict[str, dict[str, str]]) -> None:
    assert [key for key in strings["en"] if not KEY.fullmatch(key)] == []
    assert not KEY.fullmatch("Portes") and not KEY.fullmatch("rules.fig") and not KEY.fullmatch("error-Bad")


def test_every_error_code_the_server_sends_has_words(strings: dict[str, dict[str, str]]) -> None:
    sent: set[str] = set()
    for path in SERVER.rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        sent |= {code for pattern in SENT_CODES for code in pattern.findall(source)}
    # the table is the server's codes, no more and no fewer (mypy holds ActionError to it)
    assert sent == set(ERROR_CODES)
    for code in ERROR_CODES:
        for language in ("en", "el"):
            assert strings[language].get(f"error-{code}", "").strip(), (language, code)


def test_the_keys_made_at_run_time_are_there(strings: dict[str, dict[str, str]]) -> None:
    for why in [*WHY.values(), "claimed", "other"]:
        assert f"why-{why}" in strings["el"], why
    for game in GAMES:
        assert f"game-{game}" in strings["el"], game
    for pool in POOLS:  # a pool of one game is named as the game (common.js, poolName)
        assert f"pool-{pool}" in strings["el"] or pool in GAMES, pool
    for result in ("won", "lost", "playing"):
        assert f"result-{result}" in strings["el"], result
    for level in LEVELS:
        assert f"level-{level}" in strings["el"] and f"levelDesc-{level}" in strings["el"], level


def preset_names(language: str) -> dict[str, set[str]]:
    """Each clock preset's names in ``language``: on the start page ("Name: 8 s a move..."), in the
    lobby ("Name 8 s + 1 min") and on the rules page ("Name: ...; Name: ...", in PRESETS' order)."""
    words = read_strings()[language]
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


def test_a_key_given_twice_is_found() -> None:
    source = '// words\nexport const WORDS = {\n  title: "Tavli",\n  "a-b": "x \\"y\\"",\n};\n'
    assert read_words(source) == {"title": "Tavli", "a-b": 'x "y"'}
    with pytest.raises(AssertionError, match="title defined twice"):
        read_words(source.replace('  title: "Tavli",\n', '  title: "Tavli",\n  title: "Tavli",\n'))
    with pytest.raises(AssertionError, match="not a key and a string"):
        read_words(source.replace('  title: "Tavli",\n', '  title = "Tavli",\n'))
