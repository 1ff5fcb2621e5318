"""A lighter runtime: the demo's tools are an extra, imported lazily with a clear message, and the image
installs the locked runtime dependencies only."""

from __future__ import annotations

import importlib.util
import re
import shutil
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from bot import embedded_redis
from bot.embedded_redis import NoRedis, client_info_fixed, fix_client_info
from emulators import adf_schema
from emulators.adf_schema import SchemaUnavailable

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
#: Packages the running bot never imports: the demo's and the tests' tools.
NOT_AT_RUNTIME = {
    "fakeredis",
    "lupa",
    "jsonschema-rs",
    "pytest",
    "pytest-timeout",
    "hypothesis",
    "ruff",
    "mypy",
    "types-pyyaml",
    "types-requests",
    "pip-tools",
}


def name_of(requirement: str) -> str:
    match = re.match(r"[A-Za-z0-9._-]+", requirement)
    assert match is not None, requirement
    return match.group(0).lower().replace("_", "-")


def locked() -> dict[str, str]:
    """requirements.lock as {name: version}."""
    pins = re.findall(r"^([A-Za-z0-9._-]+)==(\S+)", (ROOT / "requirements.lock").read_text(), re.MULTILINE)
    return {name_of(n): v for n, v in pins}


def test_the_runtime_dependencies_leave_out_the_demo_and_test_tools() -> None:
    runtime = {name_of(r) for r in PROJECT["dependencies"]}
    assert runtime and not runtime & NOT_AT_RUNTIME
    assert {name_of(r) for r in PROJECT["optional-dependencies"]["demo"]} == {"fakeredis", "jsonschema-rs"}
    assert "postmortem-bot[demo]" in PROJECT["optional-dependencies"]["dev"]


def test_the_lock_pins_every_runtime_dependency_with_hashes_and_nothing_test_only() -> None:
    pins = locked()
    assert {name_of(r) for r in PROJECT["dependencies"]} <= set(pins)
    assert not set(pins) & NOT_AT_RUNTIME
    text = (ROOT / "requirements.lock").read_text()
    assert text.count("--hash=sha256:") >= len(pins)


def test_the_image_installs_from_the_lock_and_never_the_extras() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "--require-hashes -r requirements.lock" in dockerfile and "--no-deps ." in dockerfile
    assert "[dev]" not in dockerfile and "[demo]" not in dockerfile
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {".env", ".venv", ".git", "tests"} <= set(ignored)


def test_without_the_demo_extra_the_adf_check_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "jsonschema_rs", None)  # import now raises ImportError
    with pytest.raises(SchemaUnavailable, match=r"demo.*pip install -e '\.\[demo\]'"):
        adf_schema.adf_validator.__wrapped__()


def test_without_the_demo_extra_or_a_redis_server_the_demo_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(NoRedis, match=r"REDIS_URL is not set.*pip install -e '\.\[demo\]'"):
        embedded_redis.embedded("REDIS_URL is not set")


class _Client:
    def __init__(self, info: dict[str, Any]) -> None:
        self._client_info = info


class _Handler:
    def __init__(self, info: dict[str, Any]) -> None:
        self.info = info

    def setup(self) -> None:
        self.current_client = _Client(self.info)


def test_the_client_info_fix_rewrites_tuple_addresses_only() -> None:
    fixed = client_info_fixed(_Handler)
    handler = fixed({"addr": ("127.0.0.1", 5), "laddr": "127.0.0.1:6", "id": 1})
    handler.setup()
    assert handler.current_client._client_info == {"addr": "127.0.0.1:5", "laddr": "127.0.0.1:6", "id": 1}


def test_the_client_info_fix_leaves_what_it_does_not_recognise_alone() -> None:
    def factory() -> None:
        return None

    assert client_info_fixed(factory) is factory  # not a class: the server's handler is used as it is
    bare = object()
    fix_client_info(bare)  # no `current_client`: a fakeredis without the bug, or other internals
    odd = _Handler({"addr": ("a", "b", "c")})
    odd.setup()
    fix_client_info(odd)
    assert odd.current_client._client_info == {"addr": ("a", "b", "c")}
