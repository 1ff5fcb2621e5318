"""Atlassian's own ADF validator (`@atlaskit/adf-utils`, `validator()` in throwing mode), run through node.

The JSON schema (emulators/adf_schema.py) is looser than Jira: it accepts link targets Atlassian's validator
refuses (relative paths, bare words, `data:`, app schemes), and Jira may answer such a comment with 400.
The package is fetched once with `npm install` at a pinned version into the user's cache, like the schema,
and one long-lived node process validates every document (JSON lines both ways), so thousands of documents
cost milliseconds, not a node start each. Without node or npm it is unavailable: callers say so and go on
with the schema alone (the demo must run with nothing but Python).
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Any

from emulators.adf_schema import AdfInvalid

ATLASKIT_VERSION = "20.9.78"
ATLASKIT_PACKAGE = f"@atlaskit/adf-utils@{ATLASKIT_VERSION}"
_SCRIPT = Path(__file__).resolve().parent / "adf_validate.js"


class AtlaskitUnavailable(RuntimeError):
    """node or npm is missing, or the pinned package could not be installed; the message says which."""


def install_dir() -> Path:
    """Where the pinned package is installed: `ADF_UTILS_DIR`, else the user's cache folder."""
    if env := os.environ.get("ADF_UTILS_DIR"):
        return Path(env)
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return cache / "postmortem-bot" / f"adf-utils-{ATLASKIT_VERSION}"


def _installed(dest: Path) -> bool:
    manifest = dest / "node_modules" / "@atlaskit" / "adf-utils" / "package.json"
    try:
        return bool(json.loads(manifest.read_text(encoding="utf-8")).get("version") == ATLASKIT_VERSION)
    except (OSError, ValueError):
        return False


def install(dest: Path) -> None:
    """`npm install` the pinned package into `dest` (no install scripts run), unless it is there already."""
    if _installed(dest):
        return
    if shutil.which("npm") is None:
        raise AtlaskitUnavailable("npm is not installed")
    dest.mkdir(parents=True, exist_ok=True)
    (dest / "package.json").write_text('{"name": "postmortem-bot-adf-utils", "private": true}\n', encoding="utf-8")
    try:
        subprocess.run(
            [
                "npm",
                "install",
                "--no-audit",
                "--no-fund",
                "--ignore-scripts",
                "--silent",
                "--prefix",
                str(dest),
                ATLASKIT_PACKAGE,
            ],
            capture_output=True,
            text=True,
            timeout=300,
            check=True,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        raise AtlaskitUnavailable(f"npm install {ATLASKIT_PACKAGE} failed: {exc}") from None
    if not _installed(dest):
        raise AtlaskitUnavailable(f"npm install {ATLASKIT_PACKAGE} did not install it")


class AtlaskitValidator:
    """One node process running Atlassian's validator; thread-safe; `validate` raises AdfInvalid."""

    def __init__(self, dest: Path) -> None:
        node = shutil.which("node")
        if node is None:
            raise AtlaskitUnavailable("node is not installed")
        env = {**os.environ, "NODE_PATH": str(dest / "node_modules")}
        self._process = subprocess.Popen(
            [node, str(_SCRIPT)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            encoding="utf-8",
            env=env,
        )
        self._lock = threading.Lock()

    def verdicts(self, docs: Iterable[Any]) -> list[str | None]:
        """Each document's first problem, or None when Atlassian's validator accepts it (one round trip)."""
        lines = [json.dumps(doc, ensure_ascii=False) + "\n" for doc in docs]
        with self._lock:
            stdin, stdout = self._pipes()
            writer = threading.Thread(target=_write_all, args=(stdin, lines), daemon=True)
            writer.start()  # a batch larger than the pipe buffer must be read while it is written
            answers = [stdout.readline() for _ in lines]
            writer.join()
        if any(not answer for answer in answers):
            raise AtlaskitUnavailable("the node validator stopped")
        return [None if (v := json.loads(a))["ok"] else str(v["error"]) for a in answers]

    def validate(self, doc: Any) -> None:
        [problem] = self.verdicts([doc])
        if problem is not None:
            raise AdfInvalid(f"Atlassian's validator: {problem}")

    def _pipes(self) -> tuple[IO[str], IO[str]]:
        assert self._process.stdin is not None and self._process.stdout is not None
        return self._process.stdin, self._process.stdout

    def close(self) -> None:
        """Stop the node process: its stdin closing is its signal to exit."""
        if self._process.stdin:
            self._process.stdin.close()
        self._process.wait(timeout=10)
        if self._process.stdout:
            self._process.stdout.close()


def _write_all(stdin: IO[str], lines: list[str]) -> None:
    stdin.write("".join(lines))
    stdin.flush()


@functools.cache
def atlaskit_validator() -> AtlaskitValidator:
    """The validator, installed on first use; AtlaskitUnavailable when node or npm is missing."""
    dest = install_dir()
    install(dest)
    return AtlaskitValidator(dest)


def optional_atlaskit_validator() -> tuple[AtlaskitValidator | None, str | None]:
    """(the validator, None), or (None, why it is unavailable): for callers that go on without it."""
    try:
        return atlaskit_validator(), None
    except AtlaskitUnavailable as exc:
        return None, str(exc)
