"""Slack's documented Block Kit limits, checked the way the Web API rejects them.

Kept apart from the server so the limits sit in one place with their sources (docs/platform-notes.md, Slack docs).
Each check returns None when the payload passes, else `(error, messages)` where the messages follow
Slack's `response_metadata.messages` shape: "[ERROR] <why> [json-pointer:<where>]".
"""

from __future__ import annotations

from typing import Any

MAX_MESSAGE_BLOCKS = 50
MAX_MODAL_BLOCKS = 100
MAX_SECTION_TEXT = 3000
MAX_HEADER_TEXT = 150
MAX_MARKDOWN_BLOCK_TEXT = 12_000
#: Not documented: Slack refuses a message whose blocks carry roughly 13,000+ characters in all
#: (`msg_blocks_too_long`, bolt-js#2509); docs/platform-notes.md: keep each under ~12,000.
MAX_TOTAL_BLOCK_TEXT = 12_000
MAX_MESSAGE_TEXT = 40_000
MAX_MODAL_TITLE = 24
MAX_PLAIN_TEXT_INPUT = 3000
MAX_PRIVATE_METADATA = 3000
MAX_CALLBACK_ID = 255

Failure = tuple[str, list[str]]


def _err(why: str, pointer: str) -> str:
    return f"[ERROR] {why} [json-pointer:{pointer}]"


def total_text(node: Any) -> int:
    """Characters of every `text` string anywhere in the blocks (what the undocumented cap counts)."""
    if isinstance(node, list):
        return sum(total_text(item) for item in node)
    if isinstance(node, dict):
        return sum(len(v) if k == "text" and isinstance(v, str) else total_text(v) for k, v in node.items())
    return 0


def _text_of(block: dict[str, Any]) -> str:
    text = block.get("text")
    if isinstance(text, dict):
        return str(text.get("text", ""))
    return text if isinstance(text, str) else ""


def block_problems(blocks: list[Any], pointer: str) -> list[str]:
    """Why Slack would refuse these blocks (duplicate block_ids, texts too long...), as its error messages."""
    problems: list[str] = []
    seen: set[str] = set()
    for i, block in enumerate(blocks):
        where = f"{pointer}/{i}"
        if not isinstance(block, dict) or "type" not in block:
            problems.append(_err("missing required field: type", where))
            continue
        block_id = block.get("block_id")
        if isinstance(block_id, str):
            if block_id in seen:
                problems.append(_err(f"duplicate block_id {block_id!r}", f"{where}/block_id"))
            seen.add(block_id)
        kind, text = block["type"], _text_of(block)
        if kind == "section" and len(text) > MAX_SECTION_TEXT:
            problems.append(_err(f"must be less than {MAX_SECTION_TEXT + 1} characters", f"{where}/text/text"))
        if kind == "section" and not text and not block.get("fields"):
            problems.append(_err("must provide either text or fields", where))
        if kind == "header" and len(text) > MAX_HEADER_TEXT:
            problems.append(_err(f"must be less than {MAX_HEADER_TEXT + 1} characters", f"{where}/text/text"))
        if kind == "markdown" and len(text) > MAX_MARKDOWN_BLOCK_TEXT:
            problems.append(_err(f"must be less than {MAX_MARKDOWN_BLOCK_TEXT + 1} characters", f"{where}/text"))
        for j, field in enumerate(block.get("fields") or []):
            if isinstance(field, dict) and len(str(field.get("text", ""))) > 2000:
                problems.append(_err("must be less than 2001 characters", f"{where}/fields/{j}/text"))
        element = block.get("element")
        if kind == "input" and isinstance(element, dict):
            problems += _input_problems(element, f"{where}/element")
    return problems


def _input_problems(element: dict[str, Any], where: str) -> list[str]:
    if element.get("type") != "plain_text_input":
        return []
    limit = element.get("max_length", MAX_PLAIN_TEXT_INPUT)
    problems = []
    if not isinstance(limit, int) or limit > MAX_PLAIN_TEXT_INPUT:
        problems.append(_err(f"must be less than {MAX_PLAIN_TEXT_INPUT + 1}", f"{where}/max_length"))
        limit = MAX_PLAIN_TEXT_INPUT
    initial = element.get("initial_value")
    if isinstance(initial, str) and len(initial) > limit:
        problems.append(_err(f"must be less than {limit + 1} characters", f"{where}/initial_value"))
    return problems


def check_message(text: Any, blocks: Any) -> Failure | None:
    """Why chat.postMessage / chat.update would refuse these blocks, or None."""
    if blocks is None:
        return None if text else ("no_text", [])
    if not isinstance(blocks, list):
        return "invalid_blocks_format", [_err("must be an array", "/blocks")]
    if not blocks and not text:
        return "no_text", []
    if len(blocks) > MAX_MESSAGE_BLOCKS:
        return "invalid_blocks", [_err(f"no more than {MAX_MESSAGE_BLOCKS} items allowed", "/blocks")]
    problems = block_problems(blocks, "/blocks")
    if problems:
        return "invalid_blocks", problems
    if total_text(blocks) > MAX_TOTAL_BLOCK_TEXT:
        return "msg_blocks_too_long", []
    return None


def check_view(view: Any) -> Failure | None:
    """Why views.open / update / push would refuse this view, or None."""
    if not isinstance(view, dict):
        return "invalid_arguments", [_err("must be an object", "/view")]
    problems: list[str] = []
    if view.get("type") != "modal":
        problems.append(_err("must be modal", "/view/type"))
    title = view.get("title")
    if not isinstance(title, dict) or title.get("type") != "plain_text" or not title.get("text"):
        problems.append(_err("must provide a plain_text title", "/view/title"))
    elif len(title["text"]) > MAX_MODAL_TITLE:
        problems.append(_err(f"must be less than {MAX_MODAL_TITLE + 1} characters", "/view/title/text"))
    blocks = view.get("blocks")
    if not isinstance(blocks, list):
        problems.append(_err("must provide blocks", "/view/blocks"))
        blocks = []
    if len(blocks) > MAX_MODAL_BLOCKS:
        problems.append(_err(f"no more than {MAX_MODAL_BLOCKS} items allowed", "/view/blocks"))
    problems += block_problems(blocks, "/view/blocks")
    if any(isinstance(b, dict) and b.get("type") == "input" for b in blocks) and not view.get("submit"):
        problems.append(_err("submit is required when the view has input blocks", "/view/submit"))
    if len(str(view.get("private_metadata", ""))) > MAX_PRIVATE_METADATA:
        problems.append(_err(f"must be less than {MAX_PRIVATE_METADATA + 1} characters", "/view/private_metadata"))
    if len(str(view.get("callback_id", ""))) > MAX_CALLBACK_ID:
        problems.append(_err(f"must be less than {MAX_CALLBACK_ID + 1} characters", "/view/callback_id"))
    return ("invalid_arguments", problems) if problems else None
