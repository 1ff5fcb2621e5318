"""The repository stands alone: its docs link only to files it holds."""

from __future__ import annotations

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
    offenders = [str(p.relative_to(ROOT)) for p in files
                 if p.suffix != ".lock" and any(o in p.read_text(errors="replace") for o in OUTSIDE)]
    assert offenders == []


@pytest.mark.parametrize("doc", ["README.md", "docs/rules.md", "docs/architecture.md"])
def test_relative_links_in_the_docs_resolve(doc: str) -> None:
    path = ROOT / doc
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", path.read_text())
    local = [link for link in links if not re.match(r"[a-z]+:", link)]
    assert local and all((path.parent / link).exists() for link in local), local
