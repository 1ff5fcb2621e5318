"""How much structure one field may hold, checked before anything is rendered (no recursion runs out).

Lists and quotes nest; 248 nested list levels in 497 characters once raised RecursionError while the ADF
was serialised. Text deeper than `MAX_NESTING` levels, or with more than `MAX_BLOCKS` blocks, is refused with
the field named: the CLI exits 2 with one line, the thread gets a plain sentence and keeps the session.
Both limits sit far above what people write (a Jira comment holds about 800 blocks at most).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pyromark

from postmortem.messages import say
from postmortem.model import TEXT_FIELDS, InputError, Lang, PostMortem

#: Levels of lists and quotes, one inside the other, that one field may hold.
MAX_NESTING = 20
#: Blocks (paragraphs, list items, quotes, code blocks) that one field may hold.
MAX_BLOCKS = 1000

#: The parser the renderers use (pulldown-cmark), with no extension that changes block structure.
_PARSER = pyromark.Markdown()
_NESTING = frozenset({"List", "BlockQuote"})
_BLOCKS = frozenset({"Paragraph", "Item", "BlockQuote", "CodeBlock", "HtmlBlock", "Heading"})


def structure_error(field: str, text: str | None, lang: Lang) -> InputError | None:
    """The reason `text` is refused for `field` (too deep or too large), or None when it fits."""
    if not text:
        return None
    depth = blocks = 0
    event: Any
    for event in _PARSER.events(text):
        # Only starts and ends count: text, code and breaks (half the events) cost one test each.
        if event.__class__ is str or "Text" in event:
            continue
        if "Start" in event:
            tag = event["Start"]
            name = tag if tag.__class__ is str else next(iter(tag))
            if name in _NESTING:
                depth += 1
                if depth > MAX_NESTING:
                    return InputError(field, say("too_deep", lang, limit=MAX_NESTING))
            if name in _BLOCKS:
                blocks += 1
                if blocks > MAX_BLOCKS:
                    return InputError(field, say("too_many_blocks", lang, limit=MAX_BLOCKS))
        elif "End" in event:
            tag = event["End"]
            if (tag if tag.__class__ is str else next(iter(tag))) in _NESTING:
                depth -= 1
    return None


def check_structure(field: str, text: str | None, lang: Lang) -> None:
    """Raise the InputError of `structure_error`, if any."""
    if error := structure_error(field, text, lang):
        raise error


def postmortem_structure_error(pm: PostMortem, lang: Lang | None = None) -> InputError | None:
    """The first field of `pm` whose structure is refused, named by its DESIGN §2 path."""
    for field, text in _texts(pm):
        if error := structure_error(field, text, lang or pm.lang):
            return error
    return None


def _texts(pm: PostMortem) -> Iterator[tuple[str, str | None]]:
    for field in TEXT_FIELDS:
        yield field, pm.text(field)
    for n, item in enumerate(pm.action_items):
        for part in ("what", "owner", "tracking"):
            yield f"action_items.{n}.{part}", getattr(item, part)
