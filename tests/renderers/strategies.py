"""Hypothesis strategies for post-mortems whose text fields hold anything a person could paste."""

from __future__ import annotations

from typing import Any

from hypothesis import assume
from hypothesis import strategies as st
from pydantic import ValidationError

from postmortem.model import TEXT_FIELDS, PostMortem

#: Fragments that exercise Markdown and Slack parsing: nesting, unclosed blocks, mentions, scripts.
SNIPPETS = [
    "**bold**",
    "*em*",
    "_em_",
    "`code`",
    "**`code in bold`**",
    "[`code` link](https://example.com/a)",
    "<https://example.com/x>",
    "~~gone~~",
    "\n```python\nprint(1)\n```\n",
    "\n```\nunclosed",
    "\n~~~\n",
    "\n- a\n  - b\n    1. c\n",
    "\n3. three\n4. four\n",
    "\n> quote\n> > deeper\n",
    "\n> - item\n",
    "\n# heading\n",
    "\n---\n",
    "\n<!-- unclosed comment\n",
    "<b>inline html</b>",
    "\n<div>\nblock\n",
    "\n<pre>\n",
    "![alt](https://example.com/i.png)",
    "<!channel>",
    "<!here>",
    "<@U123ABC>",
    "<#C42|general>",
    "<https://evil.example|click>",
    "&",
    "&amp;",
    "<",
    ">",
    "\x00",
    "\r\n",
    "\t",
    "  \n",
    "\\",
    "\\\n",
    "\u202eRTL override",
    "שלום עולם",
    "مرحبا",
    "🚀🔥",
    "👩‍👩‍👧",
    "日本語のテキスト",
    "| a | b |\n|---|---|\n",
    "[ref]: https://example.com",
    "    indented code\n",
    "\n- \n",
    "\n-\n  ```\n  x\n",
]

text_piece = st.one_of(st.sampled_from(SNIPPETS), st.text(max_size=12))
user_text = st.one_of(
    st.text(),
    st.lists(text_piece, max_size=12).map("".join),
    st.text(min_size=1, max_size=20).map(lambda s: (s * (3000 // len(s) + 1))[:3000]),
)


@st.composite
def postmortems(draw: Any, text: st.SearchStrategy[str] = user_text) -> PostMortem:
    """A post-mortem with arbitrary (possibly missing) text in every field."""
    data: dict[str, Any] = {"ticket": "PROJ-1", "lang": draw(st.sampled_from(["en", "ja"]))}
    for name in TEXT_FIELDS:
        data[name] = draw(st.none() | text)
    categories = st.sampled_from(["ci_gap", "latent_code", "no_good_reason"])
    data["why_missed_category"] = draw(st.none() | categories)
    if draw(st.booleans()):
        data["action_items_none"] = True
    else:
        items = st.fixed_dictionaries({"what": text}, optional={"owner": text, "tracking": text})
        data["action_items"] = draw(st.lists(items, max_size=3))
    try:
        return PostMortem.model_validate(data)
    except ValidationError:
        assume(False)
        raise
