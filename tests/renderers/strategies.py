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


#: The fidelity corpus: text that every format shows exactly as typed, wherever it stands (its own paragraph or
#: a line shared with our labels and other fields): markers that pair with nothing, or would pair only with a
#: marker of the next field; what CommonMark or GitHub would eat, hide, run or link; Slack's own syntax; and
#: the identifiers that once lost characters.
VERBATIM = [
    "a*b*c",
    "a*b",
    "*ptr",
    "**kwargs",
    "x**2",
    "MAX_SHARDS*2",
    "__init__",
    "Cache::__init__",
    "self.__shards__",
    "snake_case_name",
    "_private",
    "trailing_",
    "a_b*c_d",
    "std::vector<int>*",
    "obj->field_",
    "ns::*member",
    "#define X",
    "\\*",
    "\\_",
    "\\\\",
    "C:\\temp\\*.log",
    "C:\\",
    "\\`",
    "\\<b>",
    "&amp;",
    "&lt;b&gt;",
    "&#42;",
    "AT&T",
    "`",
    "``",
    "`open",
    "close`",
    "a ` b",
    "[",
    "]",
    "[x",
    "x]",
    "[x]",
    "[x][y]",
    "[^1]",
    "![",
    "[[wiki]]",
    "<",
    "<b>bold?</b>",
    "</div>",
    "<!-- c",
    "<img src=x onerror=alert(1)>",
    "<javascript:alert(1)>",
    "<!channel>",
    "<!here>",
    "<@U123ABC>",
    "<#C42|general>",
    "<!subteam^S1|@team>",
    "<ftp://x.example|label>",
    "[x](javascript:alert(1))",
    "![i](data:image/png;base64,AA)",
    "[x](vbscript:msgbox(1))",
    "[x](file:///etc/passwd)",
    "~",
    "~x~",
    "~5 min to ~10 min",
    "~~",
    "~~~",
    "|",
    "| a | b |",
    "a|b",
    "|---|---|",
    "# h",
    "---",
    "===",
    "***",
    "___",
    "[r]: https://x.example",
    "[^1]: note",
    "$x$",
    "**",
    "_",
    "__",
    "\u200b",
    "\u202eRTL",
    "שלום",
    "👩‍👩‍👧",
    "日本語のテキスト",
    "PR #5751（マージ済み）",
]
#: Text shown as typed only inside one of our lines: on a line of its own it is a list item or a quote.
VERBATIM_INLINE = [*VERBATIM, ">", "- item", "+ x", "* a *", "*", "1. one", "2) two", "> q", "> [!NOTE]"]

#: Link syntax and what each shows: (typed, text shown, link target or None).
LINKS = [
    ("<https://x.example/a|the label>", "the label", "https://x.example/a"),
    ("<https://x.example/a|label>", "label", "https://x.example/a"),
    ("<mailto:dev@x.example|Dev team>", "Dev team", "mailto:dev@x.example"),
    # Markup in a label with a blank: the parser splits the text there, and the label still reads as typed.
    ("<https://x.example/a|see *this* doc>", "see *this* doc", "https://x.example/a"),
    ("<https://x.example/a|run `make` then _b_>", "run `make` then _b_", "https://x.example/a"),
    ("failed!<https://x.example/a|the ~log~ here>", "failed!the ~log~ here", "https://x.example/a"),
    ("[](https://x.example/p)", "https://x.example/p", "https://x.example/p"),
    # A label of blanks alone hides the link as surely as an empty one: the URL, as typed, is its text.
    ("[ ](https://x.example/p)", "https://x.example/p", "https://x.example/p"),
    ("<https://x.example/a| >", "https://x.example/a", "https://x.example/a"),
    ("[](https://日本.example/ä)", "https://日本.example/ä", "https://xn--wgv71a.example/%C3%A4"),
    ("[](http://[::1]:8080/x)", "http://[::1]:8080/x", "http://[::1]:8080/x"),
    ("<https://x.example/%C3%A4>", "https://x.example/%C3%A4", "https://x.example/%C3%A4"),
    ("![diagram](https://x.example/d.png)", "!diagram", "https://x.example/d.png"),
    ("[docs](https://x.example/d)", "docs", "https://x.example/d"),
]
