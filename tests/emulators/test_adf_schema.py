"""The pinned official ADF schema really rejects what Jira rejects (so every "valid" assertion means something)."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from emulators.adf_schema import ADF_SCHEMA_SHA256, AdfInvalid, schema_path, validate_adf

pytestmark = pytest.mark.unit

Node = dict[str, Any]


def doc(*content: Node) -> Node:
    return {"version": 1, "type": "doc", "content": list(content)}


def para(*inline: Node) -> Node:
    return {"type": "paragraph", "content": list(inline)}


def text(value: str, *marks: str) -> Node:
    node: Node = {"type": "text", "text": value}
    if marks:
        node["marks"] = [{"type": m} for m in marks]
    return node


def test_the_cached_schema_is_the_pinned_file() -> None:
    validate_adf(doc(para(text("x"))))  # fetches it when missing
    assert hashlib.sha256(schema_path().read_bytes()).hexdigest() == ADF_SCHEMA_SHA256


@pytest.mark.parametrize(
    "valid",
    [
        doc(para(text("plain"), text("f()", "code"), text(" bold", "strong"))),
        doc({"type": "heading", "attrs": {"level": 2}, "content": [text("Root cause")]}),
        doc({"type": "codeBlock", "attrs": {"language": "py"}, "content": [text("x = 1")]}),
        doc({"type": "bulletList", "content": [{"type": "listItem", "content": [para(text("a"))]}]}),
    ],
)
def test_valid_documents_pass(valid: Node) -> None:
    validate_adf(valid)


@pytest.mark.parametrize(
    "invalid",
    [
        doc(para(text(""))),  # empty text node
        doc(para(text("x", "code", "strong"))),  # code + strong on one node
        doc({"type": "codeBlock", "content": [text("x", "strong")]}),  # marks inside a code block
        doc({"type": "mystery", "content": []}),  # unknown node
        doc({"type": "heading", "attrs": {"level": 9}, "content": [text("x")]}),
        {"type": "doc", "content": []},  # no version
    ],
)
def test_invalid_documents_are_rejected(invalid: Node) -> None:
    with pytest.raises(AdfInvalid):
        validate_adf(invalid)
