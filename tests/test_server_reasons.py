"""Reasons sent to the browser (tavli.server.play.reasons) and their Greek words (tavli/data/reasons.el.json).

Every reason that can reach a page is a fixed English template (``tavli.errors.Reason``) with a
Greek translation that fills in the same fields: the checks below read the source of the modules
whose errors the web app shows, so a new reason without Greek words fails here.
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import json
import pickle
import pkgutil
import re
import string
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tavli.server
from tavli import ALL_ROLLS, Dice, DiceError, Position, PositionFormatError, TavliError
from tavli.errors import Reason, translations
from tavli.formats.mat import export_mat
from tavli.formats.record import dumps
from tavli.server.coach.position_analysis import position_json, read_position
from tavli.server.coach.review import read_match_file
from tavli.server.play.reasons import one_line, reason_json
from tests.test_server_review import played_record

ROOT = Path(__file__).resolve().parent.parent

LIBRARY_MODULES = [
    # the library's modules whose refusals the position page, the review page, the opening pages
    # and the HTTP API pass on
    "tavli.dice", "tavli.position_text", "tavli.gnubg_id", "tavli.position", "tavli.notation",
    "tavli.game", "tavli.match", "tavli.variants", "tavli.bots.match_equity", "tavli.formats.mat",
    "tavli.formats.record", "tavli.fairdice", "tavli.study.analysis", "tavli.study.openings",
]
SERVER_MODULES = sorted(m.name for m in pkgutil.walk_packages(tavli.server.__path__, "tavli.server.")
                        if ".migrations." not in m.name)
"""Every module of the web app: each may send a page its refusals."""
WEB_MODULES = LIBRARY_MODULES + SERVER_MODULES


def test_the_web_modules_are_read_the_ones_that_refuse_with_reasons_among_them() -> None:
    assert {"tavli.server.app", "tavli.server.routes.json_api", "tavli.server.routes.match_socket",
            "tavli.server.play.service", "tavli.server.play.seats", "tavli.server.coach.review",
            "tavli.server.coach.position_analysis", "tavli.server.coach.openings_view",
            "tavli.server.coach.chance_watch", "tavli.server.routes.limits"} <= set(SERVER_MODULES)


SAYERS = {"Reason": 0, "error": 0, "ActionError": 1}
"""Calls besides the errors' constructors that take a template, and which argument it is:
``Reason``, the app's ``error`` (a response) and the server's refusal of an action."""


def greek() -> dict[str, str]:
    return dict(translations("el"))


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def error_names(module: object) -> set[str]:
    """The names under which ``module`` sees the library's errors."""
    return {name for name, value in vars(module).items()
            if inspect.isclass(value) and issubclass(value, TavliError)}


def templates_of(module_name: str) -> tuple[dict[str, set[str]], list[str]]:
    """The templates said in a module (each with the fields its call fills), and what is wrong:
    a reason built in code (an f-string, a sum, ``str()``) cannot be translated."""
    module = importlib.import_module(module_name)
    path = Path(inspect.getfile(module))
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = dict.fromkeys(error_names(module), 0) | SAYERS
    found: dict[str, set[str]] = {}
    wrong: list[str] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if name not in names or len(node.args) <= names[name]:
            continue
        where = f"{path.relative_to(ROOT)}:{node.lineno}"
        keywords = {k.arg for k in node.keywords if k.arg is not None}
        first = node.args[names[name]]
        literals = [first.body, first.orelse] if isinstance(first, ast.IfExp) else [first]
        for literal in literals:
            if isinstance(literal, ast.Constant) and isinstance(literal.value, str):
                template = literal.value
                if fields(template) != (keywords if name != "error" else set()):
                    wrong.append(f"{where}: the fields of {template!r} are not the call's {sorted(keywords)}")
                if "\n" in template or any(not n.isidentifier() for n in fields(template)):
                    wrong.append(f"{where}: {template!r} is not one line of plain fields")
                found[template] = fields(template)
            elif isinstance(literal, (ast.JoinedStr, ast.BinOp)) or (
                    isinstance(literal, ast.Call) and isinstance(literal.func, ast.Name)
                    and literal.func.id == "str"):
                wrong.append(f"{where}: {name}'s reason is built in code: give a template and its values")
    return found, wrong


@pytest.fixture(scope="module")
def said() -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    wrong: list[str] = []
    for module_name in WEB_MODULES:
        found, bad = templates_of(module_name)
        out |= found
        wrong += bad
    assert not wrong, "\n".join(wrong)
    return out


def test_every_reason_a_page_can_show_is_built_from_templates(said: dict[str, set[str]]) -> None:
    assert len(said) > 100


def test_every_reason_has_greek_words_with_the_same_fields(said: dict[str, set[str]]) -> None:
    table = greek()
    missing = sorted(t for t in said if t not in table)
    assert not missing, "no Greek words for:\n" + "\n".join(json.dumps(t) for t in missing)
    for template, words in table.items():
        assert fields(words) == fields(template), (template, words)
        english = re.sub(r"\{[^}]*\}", "", template)
        assert re.search("[\u0370-\u03ff\u1f00-\u1fff]", words) or not re.search("[a-z]{3}", english), (template, words)


def test_the_greek_table_holds_no_reason_no_longer_said(said: dict[str, set[str]]) -> None:
    stale = sorted(set(greek()) - set(said))
    assert not stale, "said nowhere now:\n" + "\n".join(stale)


def test_greek_words_use_plain_fields() -> None:
    for words in greek().values():
        for _, name, spec, conversion in string.Formatter().parse(words):
            assert name is None or (name.isidentifier() and not spec and not conversion), words


def test_a_reason_is_sent_with_its_template_and_values_as_they_show() -> None:
    e = DiceError("dice must be two numbers from 1 to 6, like 62 or 6-2, not {text!r}", text="77")
    sent = reason_json(e)
    assert sent == {"text": str(e), "template": e.reason.template, "params": {"text": "'77'"}}


def test_a_reason_within_a_reason_is_sent_as_a_reason() -> None:
    with pytest.raises(TavliError) as caught:
        Position.from_string("portes 15w......................15b x 0:0 0:0")
    outer = TavliError("line {line}: {reason}", line=3, reason=caught.value)
    sent = reason_json(outer)
    assert sent["text"] == f"line 3: {caught.value}"
    assert sent["params"]["line"] == "3"
    assert sent["params"]["reason"] == reason_json(caught.value)


def test_words_and_errors_that_are_not_the_librarys_are_their_own_template() -> None:
    assert reason_json("no such match") == {"text": "no such match", "template": "no such match", "params": {}}
    assert reason_json(ValueError("bad\nsecond line"))["template"] == "bad"
    assert one_line(ValueError()) == "ValueError"


def test_format_specs_are_applied_before_sending() -> None:
    sent = reason_json(Reason("the request took more than {seconds:g} s to arrive", seconds=30.0))
    assert sent["params"] == {"seconds": "30"} and sent["text"] == "the request took more than 30 s to arrive"


def test_an_error_keeps_its_reason_through_pickling() -> None:
    with pytest.raises(PositionFormatError) as caught:
        Position.from_string("nonsense")
    again = pickle.loads(pickle.dumps(caught.value))
    assert type(again) is PositionFormatError
    assert str(again) == str(caught.value) and again.reason.template == caught.value.reason.template


def test_the_library_still_says_its_reasons_in_english() -> None:
    with pytest.raises(DiceError, match="dice must be two numbers from 1 to 6"):
        Dice.parse("77")


# -- what the library actually says, for bad input of every kind a page passes on -----------------

def templates_in(reason: Reason) -> list[str]:
    """A reason's template and those of the reasons within it."""
    out = [reason.template]
    for value in reason.params.values():
        inner = value.reason if isinstance(value, TavliError) else value
        if isinstance(inner, Reason):
            out += templates_in(inner)
    return out


def assert_said_in_greek(call: Callable[[], object]) -> None:
    try:
        call()
    except TavliError as exc:
        table = greek()
        missing = [t for t in templates_in(exc.reason) if t not in table]
        assert not missing, (str(exc), missing)


@functools.cache
def match_files() -> tuple[str, str]:
    """A finished match as a record and as a .mat file."""
    record = played_record()
    return dumps(record), export_mat(record)


POSITION_TEXT = st.text(alphabet="portesplakfvg 0123456789wb.:/+-", max_size=60)


@settings(max_examples=300, deadline=None)
@given(text=POSITION_TEXT | st.sampled_from(["portes", "plakoto 15b w", "fevga " + "." * 24 + " w 0:0 0:0"]))
def test_every_reason_for_a_bad_position_or_roll_has_greek_words(text: str) -> None:
    assert_said_in_greek(lambda: read_position(text))
    assert_said_in_greek(lambda: position_json(text, "64"))
    assert_said_in_greek(lambda: Dice.parse(text))


@settings(max_examples=200, deadline=None)
@given(play=st.text(alphabet="0123456789/*()barof -", max_size=20),
       game=st.sampled_from(["portes", "plakoto", "fevga"]), dice=st.sampled_from(ALL_ROLLS))
def test_every_reason_for_a_bad_play_has_greek_words(play: str, game: str, dice: Dice) -> None:
    assert_said_in_greek(lambda: Position.start(game).parse_play(play, dice))


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_every_reason_for_a_damaged_match_file_has_greek_words(data: st.DataObject) -> None:
    """A record or a .mat file with a line dropped, doubled or changed, as a page uploads it."""
    text = data.draw(st.sampled_from(match_files()))
    lines = text.splitlines()
    k = data.draw(st.integers(0, len(lines) - 1))
    change = data.draw(st.sampled_from(["drop", "double", "edit"]))
    if change == "drop":
        del lines[k]
    elif change == "double":
        lines.insert(k, lines[k])
    else:
        at = data.draw(st.integers(0, len(lines[k])))
        lines[k] = lines[k][:at] + data.draw(st.text(alphabet='0123456789:/"{},abwx ', max_size=4)) + lines[k][at + 1:]
    assert_said_in_greek(lambda: read_match_file("\n".join(lines).encode()))
