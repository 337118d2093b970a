"""The house's floors: which package may import which, no import circles, no reaching into another
module's private names, and the shape rules of docs/architecture.md (module count, names, sizes).
The web server has floors of its own, its rooms (``SERVER_FLOORS``), under the same rules.

The checks read the source (``ast``), imports written inside functions included, so they see what
running the code would import. Each check is a function over a source tree, so that the tests below
can also show it failing on a tree with a planted fault.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

FLOORS: tuple[tuple[str, ...], ...] = (
    ("tavli",),  # the rules core: the modules standing directly in tavli/
    ("tavli.bots",),
    ("tavli.formats",),
    ("tavli.study",),
    ("tavli.engines", "tavli.terminal", "tavli.server"),  # the apps: never each other
    ("tavli.cli",),
)
"""The floors, lowest first, as in docs/architecture.md: a module may import its own floor and the
floors below; the packages that share a floor may not import each other."""

SERVER_FLOORS: tuple[tuple[str, ...], ...] = (
    ("tavli.server.storage",),  # the database
    ("tavli.server.play",),  # the matches
    ("tavli.server.cafe", "tavli.server.coach"),  # the people and the study around them: never each other
    ("tavli.server.realtime",),  # the sockets kept live
    ("tavli.server.routes",),  # the doors: every route, HTTP and WebSocket
    ("tavli.server",),  # the wiring: the modules standing in tavli/server/ (SERVER_WIRING)
)
"""The web server's floors, lowest first, as in docs/architecture.md ("The server's rooms"), under the
rules of ``FLOORS``; and no two of its packages import each other, even round a circle."""

SERVER_WIRING = {"tavli.server", "tavli.server.app", "tavli.server.lifespan", "tavli.server.workers",
                 "tavli.server.timeouts"}
"""The modules standing in tavli/server/ itself: the app made, started and stopped, and served.
Every other module of the server stands in one of the rooms of ``SERVER_FLOORS``."""

MOST_CORE_MODULES = 16
LONGEST_FUNCTION = 120
LONGEST_CREATE_APP = 100


@dataclass(frozen=True)
class Module:
    name: str
    path: Path
    tree: ast.Module


@dataclass(frozen=True)
class Import:
    """One import statement of ``module``: the tavli module it loads, and the names it takes."""

    module: str
    target: str
    line: int


def modules(root: Path) -> dict[str, Module]:
    """Every module of the package under ``root / 'tavli'``, by dotted name."""
    found = {}
    for path in sorted((root / "tavli").rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = Module(name, path, ast.parse(path.read_text(encoding="utf-8"), str(path)))
    return found


def imports(module: Module, known: dict[str, Module]) -> list[Import]:
    """The tavli modules ``module`` imports anywhere in its source, each import resolved to a module:
    ``from tavli.bots import neural`` loads ``tavli.bots.neural``, ``from tavli.bots.neural import
    Evaluator`` loads ``tavli.bots.neural``."""
    package = module.name if module.path.name == "__init__.py" else module.name.rpartition(".")[0]
    found = []
    for node in ast.walk(module.tree):
        if isinstance(node, ast.Import):
            found += [Import(module.name, a.name, node.lineno) for a in node.names if a.name.split(".")[0] == "tavli"]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            if base.split(".")[0] != "tavli":
                continue
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                found.append(Import(module.name, submodule if submodule in known else base, node.lineno))
    return found


def floor_of(name: str, floors: tuple[tuple[str, ...], ...] = FLOORS) -> tuple[int, str] | None:
    """The floor of a module and the package of that floor it belongs to (the longest that holds
    it); None for a module of none of ``floors``' packages."""
    best = None
    for level, packages in enumerate(floors):
        for package in packages:
            if (name == package or name.startswith(package + ".")) and (best is None or len(package) >= len(best[1])):
                best = (level, package)
    return best


def upward_imports(tree: dict[str, Module], floors: tuple[tuple[str, ...], ...] = FLOORS) -> list[str]:
    """Imports of a higher floor, or of a sibling package of the same floor (among the modules of
    ``floors``' packages)."""
    wrong = []
    for module in tree.values():
        mine = floor_of(module.name, floors)
        if mine is None:
            continue
        level, package = mine
        for imp in imports(module, tree):
            theirs = floor_of(imp.target, floors)
            if theirs is None:
                continue
            their_level, their_package = theirs
            if their_level > level or (their_level == level and their_package != package):
                wrong.append(f"{module.path.relative_to(module.path.parents[len(module.name.split('.')) - 1])}:"
                             f"{imp.line}: {module.name} (floor {level}) imports {imp.target} (floor {their_level})")
    return wrong


def circles(tree: dict[str, Module]) -> list[list[str]]:
    """The groups of modules that import each other, directly or round a circle."""
    edges: dict[str, set[str]] = defaultdict(set)
    for module in tree.values():
        edges[module.name] |= {imp.target for imp in imports(module, tree) if imp.target != module.name}
    return strongly_connected(edges)


def package_circles(tree: dict[str, Module], floors: tuple[tuple[str, ...], ...] = SERVER_FLOORS) -> list[list[str]]:
    """The groups of ``floors``' packages that import each other, directly or round a circle (a
    module of one importing a module of the other)."""
    edges: dict[str, set[str]] = defaultdict(set)
    for module in tree.values():
        mine = floor_of(module.name, floors)
        if mine is None:
            continue
        for imp in imports(module, tree):
            theirs = floor_of(imp.target, floors)
            if theirs is not None and theirs[1] != mine[1]:
                edges[mine[1]].add(theirs[1])
    return strongly_connected(edges)


def strongly_connected(edges: dict[str, set[str]]) -> list[list[str]]:
    """The groups of more than one name that reach each other along ``edges`` (Tarjan's strongly
    connected components)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(name: str) -> None:
        index[name] = low[name] = len(index)
        stack.append(name)
        on_stack.add(name)
        for other in sorted(edges[name]):
            if other not in index:
                visit(other)
                low[name] = min(low[name], low[other])
            elif other in on_stack:
                low[name] = min(low[name], index[other])
        if low[name] == index[name]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == name:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for name in sorted(edges):
        if name not in index:
            visit(name)
    return found


def loose_server_modules(tree: dict[str, Module]) -> list[str]:
    """The server's modules that stand neither in a room of ``SERVER_FLOORS`` nor among the wiring."""
    rooms = [package for floor in SERVER_FLOORS for package in floor if package != "tavli.server"]
    return [name for name in tree if name.startswith("tavli.server.") and name not in SERVER_WIRING
            and not any(name == room or name.startswith(room + ".") for room in rooms)]


def private_reaches(tree: dict[str, Module]) -> list[str]:
    """Uses of another module's private names: ``from tavli.x import _y`` (``_y`` not a module) or
    ``x._y`` where ``x`` is an imported tavli module. A private module (``tavli._kernel``) may be
    imported; its private names may not be used."""
    wrong = []
    for module in tree.values():
        bound: dict[str, str] = {}
        for node in ast.walk(module.tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("tavli"):
                for alias in node.names:
                    target = f"{node.module}.{alias.name}"
                    if target in tree:
                        bound[alias.asname or alias.name] = target
                    elif alias.name.startswith("_") and not alias.name.startswith("__"):
                        wrong.append(f"{module.name}:{node.lineno}: imports {alias.name} from {node.module}")
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in tree and alias.asname:
                        bound[alias.asname] = alias.name
        for node in ast.walk(module.tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in bound
                    and node.attr.startswith("_") and not node.attr.startswith("__")
                    and f"{bound[node.value.id]}.{node.attr}" not in tree):
                wrong.append(f"{module.name}:{node.lineno}: uses {bound[node.value.id]}.{node.attr}")
    return wrong


def long_functions(tree: dict[str, Module], longest: int) -> list[str]:
    """Functions longer than ``longest`` lines, but for the numba kernels (``@njit``/``@jit``)."""
    wrong = []
    for module in tree.values():
        for node in ast.walk(module.tree):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            decorators = {ast.unparse(d).split("(")[0].rpartition(".")[2] for d in node.decorator_list}
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > longest and not decorators & {"njit", "jit"}:
                wrong.append(f"{module.name}.{node.name}: {length} lines")
    return wrong


def letter_apart(a: str, b: str) -> bool:
    """Whether two names differ by one letter changed, added or dropped (``mat``/``met``)."""
    if abs(len(a) - len(b)) > 1 or a == b:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) == 1
    short, long = sorted((a, b), key=len)
    return any(long[:i] + long[i + 1:] == short for i in range(len(long)))


def name_clashes(tree: dict[str, Module]) -> list[str]:
    """Two modules of one file name, or of names a letter apart; two classes of one name."""
    stems = defaultdict(list)
    for module in tree.values():
        if module.path.name != "__init__.py":
            stems[module.path.stem.lstrip("_")].append(module.name)
    wrong = [f"one name, two modules: {' and '.join(names)}" for names in stems.values() if len(names) > 1]
    wrong += [f"names a letter apart: {', '.join(stems[a])} and {', '.join(stems[b])}"
              for a in stems for b in stems if a < b and letter_apart(a, b)]
    classes = defaultdict(list)
    for module in tree.values():
        for node in ast.walk(module.tree):
            if isinstance(node, ast.ClassDef):
                classes[node.name].append(module.name)
    wrong += [f"class {name} in {' and '.join(where)}" for name, where in classes.items() if len(where) > 1]
    return wrong


@pytest.fixture(scope="module")
def tree() -> dict[str, Module]:
    return modules(ROOT)


def test_no_floor_imports_a_higher_one(tree: dict[str, Module]) -> None:
    assert upward_imports(tree) == []


def test_no_modules_import_each_other(tree: dict[str, Module]) -> None:
    assert circles(tree) == []


def test_the_servers_rooms_keep_their_floors(tree: dict[str, Module]) -> None:
    assert upward_imports(tree, SERVER_FLOORS) == []
    assert package_circles(tree, SERVER_FLOORS) == []
    assert loose_server_modules(tree) == []


def test_no_module_uses_another_ones_private_names(tree: dict[str, Module]) -> None:
    assert private_reaches(tree) == []


def test_the_core_stays_small(tree: dict[str, Module]) -> None:
    core = sorted(name for name, m in tree.items() if m.path.parent == ROOT / "tavli" and name != "tavli")
    assert len(core) <= MOST_CORE_MODULES, core


def test_functions_stay_short(tree: dict[str, Module]) -> None:
    assert long_functions(tree, LONGEST_FUNCTION) == []
    app = {"tavli.server.app": tree["tavli.server.app"]}
    assert [f for f in long_functions(app, LONGEST_CREATE_APP) if ".create_app:" in f] == []


def test_names_say_one_thing(tree: dict[str, Module]) -> None:
    assert name_clashes(tree) == []


def test_every_package_says_what_it_holds(tree: dict[str, Module]) -> None:
    assert [name for name, m in tree.items() if ast.get_docstring(m.tree) is None] == []


# -- the checks catch what they are for ---------------------------------------------------------


def plant(root: Path, files: dict[str, str]) -> dict[str, Module]:
    """A small tavli tree of the given files (path under the root: source)."""
    for name, source in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8")
    return modules(root)


def test_a_planted_upward_import_fails(tmp_path: Path) -> None:
    tree = plant(tmp_path, {
        "tavli/__init__.py": "", "tavli/position.py": "def f():\n    from tavli.server.app import create_app\n",
        "tavli/server/__init__.py": "", "tavli/server/app.py": "from tavli import position\n",
        "tavli/bots/__init__.py": "", "tavli/bots/neural.py": "from tavli.position import Position\n",
    })
    assert upward_imports(tree) == ["tavli/position.py:2: tavli.position (floor 0) imports tavli.server.app (floor 4)"]
    assert circles(tree) == [["tavli.position", "tavli.server.app"]]


def test_sibling_apps_and_circles_through_three_fail(tmp_path: Path) -> None:
    tree = plant(tmp_path, {
        "tavli/__init__.py": "", "tavli/terminal/__init__.py": "", "tavli/server/__init__.py": "",
        "tavli/terminal/board.py": "from tavli.server import view\n", "tavli/server/view.py": "",
        "tavli/a.py": "import tavli.b\n", "tavli/b.py": "from tavli import c\n", "tavli/c.py": "from . import a\n",
    })
    assert upward_imports(tree) == [
        "tavli/terminal/board.py:1: tavli.terminal.board (floor 4) imports tavli.server.view (floor 4)"]
    assert circles(tree) == [["tavli.a", "tavli.b", "tavli.c"]]


def test_private_names_long_functions_and_clashes_fail(tmp_path: Path) -> None:
    body = "".join(f"    x = {i}\n" for i in range(LONGEST_FUNCTION))
    tree = plant(tmp_path, {
        "tavli/__init__.py": "", "tavli/_kernel.py": "_STATUS = 1\n", "tavli/match.py": "class Match: ...\n",
        "tavli/position.py": "from tavli import _kernel as K\nfrom tavli.match import _x\ndef f():\n"
                             f"{body}    return K._STATUS\n",
        "tavli/mat.py": "class Match: ...\n", "tavli/met.py": "from numba import njit\n@njit\ndef g():\n" + body,
    })
    assert private_reaches(tree) == ["tavli.position:2: imports _x from tavli.match",
                                     f"tavli.position:{LONGEST_FUNCTION + 4}: uses tavli._kernel._STATUS"]
    assert long_functions(tree, LONGEST_FUNCTION) == [f"tavli.position.f: {LONGEST_FUNCTION + 2} lines"]
    assert name_clashes(tree) == ["names a letter apart: tavli.mat and tavli.met",
                                  "class Match in tavli.mat and tavli.match"]


def test_a_planted_fault_among_the_servers_rooms_fails(tmp_path: Path) -> None:
    tree = plant(tmp_path, {
        "tavli/__init__.py": "", "tavli/server/__init__.py": "", "tavli/server/stray.py": "",
        "tavli/server/app.py": "from tavli.server.routes import pages\n",
        "tavli/server/routes/__init__.py": "",
        "tavli/server/routes/pages.py": "from tavli.server.play import service\n",
        "tavli/server/play/__init__.py": "",
        "tavli/server/play/service.py": "def f():\n    from tavli.server.cafe.lobby import Lobby\n",
        "tavli/server/cafe/__init__.py": "",
        "tavli/server/cafe/lobby.py": "from tavli.server.play import service\nfrom tavli.server.coach import review\n",
        "tavli/server/coach/__init__.py": "", "tavli/server/coach/review.py": "",
        "tavli/server/storage/__init__.py": "", "tavli/server/storage/store.py": "import tavli.server.app\n",
    })
    assert upward_imports(tree, SERVER_FLOORS) == [
        "tavli/server/cafe/lobby.py:2: tavli.server.cafe.lobby (floor 2) imports tavli.server.coach.review (floor 2)",
        "tavli/server/play/service.py:2: tavli.server.play.service (floor 1) imports tavli.server.cafe.lobby (floor 2)",
        "tavli/server/storage/store.py:1: tavli.server.storage.store (floor 0) imports tavli.server.app (floor 5)"]
    assert package_circles(tree, SERVER_FLOORS) == [["tavli.server.cafe", "tavli.server.play"]]
    assert circles(tree) == [["tavli.server.cafe.lobby", "tavli.server.play.service"]]
    assert loose_server_modules(tree) == ["tavli.server.stray"]
    assert upward_imports(tree) == []  # the package's floors see one app


# -- the docs name modules and files that exist ------------------------------------------------


DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
"""The docs a reader follows (docs/notes/, the experiment log, names things as they were then)."""
SOURCES = [*sorted((ROOT / "tavli").rglob("*.py")), *sorted((ROOT / "benchmarks").rglob("*.py")),
           *sorted((ROOT / "tools").rglob("*.py"))]
NOT_MODULES = {"tavli.example.com", "tavli.db", "tavli.conf", "tavli.dump", "tavli.service"}
"""Names of the form that are an address and files (the database, nginx's and systemd's files)."""


def top_level_names(module: Module) -> set[str]:
    """The names a module defines or imports at its top level."""
    names: set[str] = set()
    for node in module.tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {n.id for target in targets for n in ast.walk(target) if isinstance(n, ast.Name)}
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
    return names


def unknown_name(dotted: str, tree: dict[str, Module]) -> str | None:
    """Why ``tavli.x.y`` names nothing: no such module, or no such name in the module it names."""
    parts = dotted.split(".")
    depth = max(i for i in range(1, len(parts) + 1) if ".".join(parts[:i]) in tree)
    if depth == len(parts):
        return None
    module = tree[".".join(parts[:depth])]
    if parts[depth] in top_level_names(module):
        return None
    return f"{module.name} has no {parts[depth]}"


def named_paths(text: str) -> set[str]:
    """The repository paths a text names: ``tavli/...py``, ``benchmarks/...py``, ``tools/...py``, ``docs/...md``."""
    return set(re.findall(r"(?<![\w/.-])((?:tavli|benchmarks|tools|docs|tests)/[\w/.-]*\.(?:py|md))\b", text))


def test_docs_name_modules_and_names_that_exist(tree: dict[str, Module]) -> None:
    wrong = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for name in sorted(set(re.findall(r"\btavli(?:\.[A-Za-z_][A-Za-z0-9_]*)+", text)) - NOT_MODULES):
            why = unknown_name(name.rstrip("."), tree)
            if why:
                wrong.append(f"{doc.relative_to(ROOT)}: {name}: {why}")
    assert wrong == []


def unnamed_modules(tree: dict[str, Module], text: str) -> list[str]:
    """The modules whose name ``text`` never gives in backquotes (``hub``, or a dotted name that ends
    in it or passes through it: ``realtime.hub.Hub``): each module of the package is named in
    docs/architecture.md, but for the packages' own files and the migrations."""
    named = {part for found in re.findall(r"`([A-Za-z_][\w.]*)`", text) for part in found.split(".")}
    return [name for name, m in tree.items() if m.path.name not in ("__init__.py", "__main__.py")
            and ".migrations." not in name and m.path.stem not in named]


def test_the_architecture_names_every_module(tree: dict[str, Module]) -> None:
    assert unnamed_modules(tree, (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")) == []


def test_a_module_the_architecture_leaves_out_is_found(tmp_path: Path) -> None:
    tree = plant(tmp_path, {
        "tavli/__init__.py": "", "tavli/dice.py": "", "tavli/position.py": "", "tavli/server/__init__.py": "",
        "tavli/server/play/__init__.py": "", "tavli/server/play/service.py": "", "tavli/server/play/seats.py": "",
    })
    assert unnamed_modules(tree, "`position`, `play.service.MatchService` and `seat`") == [
        "tavli.dice", "tavli.server.play.seats"]


def test_docs_and_docstrings_name_files_that_exist() -> None:
    wrong = []
    for path in [*DOCS, *SOURCES]:
        for named in sorted(named_paths(path.read_text(encoding="utf-8"))):
            if not (ROOT / named).exists():
                wrong.append(f"{path.relative_to(ROOT)}: {named}")
    assert wrong == []


def test_a_stale_name_in_the_docs_is_found(tree: dict[str, Module]) -> None:
    assert unknown_name("tavli.bots.neural.Evaluator", tree) is None
    assert unknown_name("tavli.position.Position.play", tree) is None
    assert unknown_name("tavli.neural.Evaluator", tree) == "tavli has no neural"
    assert unknown_name("tavli.bots.neural.Nothing", tree) == "tavli.bots.neural has no Nothing"
    assert named_paths("run `python benchmarks/speed/speed.py` (docs/web.md)") == {
        "benchmarks/speed/speed.py", "docs/web.md"}

