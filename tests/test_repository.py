"""The repository stands alone: its docs link only to files it holds."""

from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parent.parent
#: Where the project's design notes lived outside the repository (built here so this file does not match).
OUTSIDE = ("../" + "shared", "/work/" + "shared")


def tracked() -> list[Path]:
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [ROOT / name for name in out.splitlines() if (ROOT / name).is_file()]


def test_no_file_points_outside_the_repository() -> None:
    files = tracked()
    assert any(p.name == "README.md" for p in files)
    offenders = [
        str(p.relative_to(ROOT))
        for p in files
        if p.suffix != ".lock" and any(o in p.read_text(errors="replace") for o in OUTSIDE)
    ]
    assert offenders == []


@pytest.mark.parametrize(
    "doc", ["README.md", "SECURITY.md", *sorted(f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md"))]
)
def test_relative_links_in_the_docs_resolve(doc: str) -> None:
    path = ROOT / doc
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", path.read_text())
    local = [link for link in links if not re.match(r"[a-z]+:", link)]
    assert local or doc != "README.md"  # the README is the way into the docs
    assert [link for link in local if not (path.parent / link).exists()] == []


#: DESIGN §5's rooms, top to bottom: a module may import its own room and any room below it, never one above.
#: `handlers` and `workers` share a rank and never import each other; `emulators` import nothing of the
#: product; `tests` and `bench` sit above everything.
RANKS: dict[str, int] = {
    "bot": 5,
    "handlers": 4,
    "workers": 4,
    "renderers": 3,
    "sessions": 2,
    "rules": 1,
    "postmortem": 0,
}
PRODUCT = set(RANKS) | {"emulators"}
#: Above every room: they may import anything, and nothing of the product imports them.
TOP = {"tests", "bench"}


def imports_of(path: Path) -> set[str]:
    """The top-level product packages a module imports, wherever the import statement stands."""
    tree = ast.parse(path.read_text(), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found & (PRODUCT | TOP)


def crossing(importer: str, imported: str) -> bool:
    """Whether `importer`'s room may not import `imported`'s room (DESIGN §5)."""
    if importer == imported:
        return False
    if importer in TOP:
        return False
    if imported in TOP or importer == "emulators":
        return True
    if imported == "emulators":
        return importer not in {"bot"}  # only the entry point (its `demo`) wires the emulators in
    if importer not in RANKS:
        return False
    return RANKS[imported] >= RANKS[importer]


def test_every_room_is_known_and_every_package_has_a_rank() -> None:
    packages = {p.parent.name for p in ROOT.glob("*/__init__.py")}
    assert packages == PRODUCT | TOP


@pytest.mark.parametrize("room", sorted(PRODUCT | TOP))
def test_imports_go_down_the_rooms_only(room: str) -> None:
    modules = sorted((ROOT / room).rglob("*.py"))
    assert modules
    wrong = [
        f"{m.relative_to(ROOT)} imports {other}"
        for m in modules
        for other in sorted(imports_of(m))
        if crossing(room, other)
    ]
    assert wrong == []


@pytest.mark.parametrize(
    ("importer", "imported", "allowed"),
    [
        ("rules", "postmortem", True),
        ("postmortem", "rules", False),
        ("sessions", "rules", True),
        ("rules", "sessions", False),
        ("handlers", "workers", False),
        ("workers", "handlers", False),
        ("renderers", "sessions", True),
        ("sessions", "renderers", False),
        ("emulators", "postmortem", False),
        ("bot", "emulators", True),
        ("workers", "emulators", False),
        ("handlers", "bot", False),
        ("tests", "bot", True),
        ("bench", "emulators", True),
        ("postmortem", "tests", False),
        ("bot", "bench", False),
    ],
)
def test_the_rule_itself_refuses_what_design_forbids(importer: str, imported: str, allowed: bool) -> None:
    assert crossing(importer, imported) is (not allowed)


def test_no_test_module_imports_another() -> None:
    """Shared test pieces live in conftest.py fixtures and helpers modules, never in another test module."""
    wrong = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            names += [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
            wrong += [f"{path.relative_to(ROOT)}: {n}" for n in names if re.search(r"(^|\.)(test_\w+|conftest)$", n)]
    assert wrong == []
