"""What the person typed is what every reader sees: the Markdown read back by a CommonMark reader (with GitHub's
extensions), the ADF as Jira Cloud shows it, the wiki markup of Jira Data Center read by a reader of Atlassian's
notation (tests/renderers/wiki_reference.py) and the Slack preview show each field's text, character for
character, whether the field has a paragraph of its own or shares a line with our labels and other fields.
Each test checks every format."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pyromark
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from postmortem.model import TEXT_FIELDS, Lang, PostMortem
from renderers.adf import render_adf
from renderers.adf_input import normalize_link
from renderers.adf_mrkdwn import WORD_JOINER, ZERO_WIDTH_SPACE
from renderers.links import is_safe_href
from renderers.markdown import language_table, render_markdown
from renderers.slack import render_slack
from renderers.wiki import UNLINKABLE_RE, adf_to_wiki
from tests.renderers.helpers import GFM, Read, read_adf, read_markdown, read_slack, read_wiki
from tests.renderers.strategies import LINKS, SNIPPETS, VERBATIM, VERBATIM_INLINE, text_piece, user_text

pytestmark = pytest.mark.unit

Validate = Callable[[Any], Any]
FORMATS = ["markdown", "adf", "slack", "wiki"]
#: Fields whose value shares a line with our labels or another field (the action item's text when an owner or
#: tracking follows it), and the one-line values shown after their label.
SHARED = ["owner", "fix_ref", "validation_scope", "confirmed_by", "item_what", "item_owner", "item_tracking"]
#: Fields that are a paragraph of their own.
ALONE = [f for f in TEXT_FIELDS if f not in ("owner", "fix_ref", "validation_scope", "confirmed_by")]


def readings(pm: PostMortem, validate: Validate | None = None) -> dict[str, Read]:
    """The post-mortem as each reader shows it (the wiki markup is Jira Data Center's comment, made from the ADF)."""
    adf = render_adf(pm)
    if validate is not None:
        validate(adf)
    return {
        "markdown": read_markdown(render_markdown(pm)),
        "adf": read_adf(adf),
        "slack": read_slack(render_slack(pm)),
        "wiki": read_wiki(adf_to_wiki(adf)),
    }


def model(lang: str, values: dict[str, str]) -> PostMortem:
    """A post-mortem with these values (`item_*`: its one action item's), and text in the sections they need."""
    item = {k[5:]: v for k, v in values.items() if k.startswith("item_")}
    data: dict[str, Any] = {"ticket": "A-1", "lang": lang, "validation": "v", "how_found": "h"}
    data |= {k: v for k, v in values.items() if not k.startswith("item_")}
    if item:
        data["action_items"] = [{"what": "Add a test", **item}]
    try:
        return PostMortem.model_validate(data)
    except ValidationError:
        assume(False)
        raise


def expected_lines(lang: Lang, values: dict[str, str], shown: dict[str, str] | None = None) -> list[str]:
    """The lines our labels and these values make, as a reader must show them: each value as typed, or as
    `shown` says."""
    table = language_table(PostMortem.registry, lang)
    labels: dict[str, str] = table["labels"]
    colon: str = table["colon"]
    shown = shown or {k: re.sub(r"\r\n|\r|\n", " ", v) for k, v in values.items()}

    def head(name: str) -> str:
        return labels[name] + colon + ("" if colon == "：" else " ")

    facts = [head("ticket") + "A-1"]
    facts += [head(name) + shown[name] for name in ("fix_ref", "owner") if name in shown]
    lines = [table["sep"].join(facts)]
    labelled = ("fix_ref", "validation_scope", "confirmed_by")  # on their label's line when one line
    lines += [head(name) + shown[name] for name in labelled if name in shown and not re.search("[\r\n]", values[name])]
    parts = [labels[k] + table["item_colon"] + shown[k] for k in ("item_owner", "item_tracking") if k in shown]
    if any(k.startswith("item_") for k in shown):
        joined = table["comma"].join(parts)
        aside = f" — {joined}" if any(c in joined for c in "()（）") else f"{table['open']}{joined}{table['close']}"
        lines.append(shown.get("item_what", "Add a test") + (aside if parts else ""))
    return lines


def visible(line: str, fmt: str) -> str:
    """A line as compared: Slack drops the invisible characters it is written with, so they are left out."""
    return line.replace(WORD_JOINER, "").replace(ZERO_WIDTH_SPACE, "") if fmt == "slack" else line


def assert_shows(read: Read, lines: list[str], fmt: str) -> None:
    shown = [visible(line, fmt) for line in read.lines]
    for line in lines:
        assert visible(line, fmt) in shown, (fmt, line, [s for s in shown if s][:40])


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("value", VERBATIM_INLINE)
def test_each_shared_line_field_shows_the_corpus_verbatim(validate_adf: Validate, lang: Lang, value: str) -> None:
    values = {field: value for field in SHARED if field != "item_what" or value in VERBATIM}
    pm = model(lang, values)
    for fmt, read in readings(pm, validate_adf).items():
        assert_shows(read, expected_lines(lang, values), fmt)


corpus = st.sampled_from(VERBATIM)


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["en", "ja"]),
    st.fixed_dictionaries({f: st.sampled_from(VERBATIM_INLINE) for f in SHARED if f != "item_what"}, optional={}),
    corpus,
)
def test_corpus_values_side_by_side_keep_every_character(lang: Lang, values: dict[str, str], what: str) -> None:
    """Different hostile values in neighbouring fields: a backtick, bracket or marker left open in one field
    must not pair with one in the next field or in our labels."""
    values = {**values, "item_what": what}
    pm = model(lang, values)
    for fmt, read in readings(pm).items():
        assert_shows(read, expected_lines(lang, values), fmt)


@pytest.mark.parametrize("field", ALONE)
def test_each_single_paragraph_field_shows_the_corpus_verbatim(field: str) -> None:
    for value in VERBATIM:
        pm = model("en", {field: value})
        for fmt, read in readings(pm).items():
            assert_shows(read, [value], fmt)


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize(("typed", "text", "href"), LINKS)
def test_links_show_their_text_and_go_where_the_person_meant(
    validate_adf: Validate, lang: Lang, typed: str, text: str, href: str
) -> None:
    for values in ({"root_cause": typed}, {"owner": typed}, {"item_tracking": typed}):
        field = next(iter(values))
        pm = model(lang, values)
        for fmt, read in readings(pm, validate_adf).items():
            lines = [visible(line, fmt) for line in read.lines]
            assert any(text in line for line in lines), (fmt, field, lines)
            if fmt == "wiki" and UNLINKABLE_RE.match(href):  # `[text|http://[::1]/]`: no link rather than a wrong one
                assert not read.hrefs, (fmt, field, read.hrefs)
                continue
            # A CommonMark reader gives the target as written; a renderer encodes it as the ADF does.
            hrefs = [normalize_link(h) for h in read.hrefs] if fmt == "markdown" else read.hrefs
            assert href in hrefs, (fmt, field, read.hrefs)


@pytest.mark.parametrize("typed", ["<!subteam^S1|@team> please look", "<!channel> <!here> <@U123ABC> <#C42|general>"])
def test_slack_mentions_are_text_in_every_format(validate_adf: Validate, typed: str) -> None:
    pm = model("en", {"root_cause": typed, "owner": typed})
    for fmt, read in readings(pm, validate_adf).items():
        assert not [h for h in read.hrefs if "subteam" in h or h.startswith("mailto:!")], fmt
        assert_shows(read, [typed], fmt)
    text = "\n".join(b["text"]["text"] for m in render_slack(pm) for b in m["blocks"])
    assert "<!" not in text and "<@" not in text and "<#" not in text


#: Hostile text for the Markdown read by GitHub-like readers: every way Markdown could run, embed or hide it.
HOSTILE = [
    *SNIPPETS,
    *VERBATIM,
    "<img src=x onerror=alert(1)>",
    "<script>alert(1)</script>",
    "\n<div onclick=x>\nblock\n</div>\n",
    "![alt](https://x.example/i.png)",
    "[ref]: javascript:alert(1)\n\n[click][ref]",
    "[x][r]\n\n[r]: data:text/html,x",
    "| a | b |\n|---|---|\n| 1 | 2 |",
    "- [ ] task\n- [x] done",
    "> [!WARNING]\n> careful",
    "text[^1]\n\n[^1]: the note",
    "<JaVaScRiPt:alert(1)>",
    "[x](<javascript:alert(1)>)",
    "<https://ok.example|fine> <javascript:alert(1)|bad> <vbscript:x|y>",
]


@pytest.mark.parametrize("value", HOSTILE)
def test_markdown_shows_the_person_s_text_and_interprets_nothing(validate_adf: Validate, value: str) -> None:
    data: dict[str, Any] = {name: value for name in TEXT_FIELDS}
    item = {"what": value if value.strip() else "x", "owner": value, "tracking": value}
    data |= {"ticket": "A-1", "action_items": [item]}
    pm = PostMortem.model_validate(data)
    md = render_markdown(pm)
    adf = render_adf(pm)
    validate_adf(adf)
    for options in (GFM, pyromark.Options(0)):  # with GitHub's extensions, then plain CommonMark
        read = read_markdown(md, options)
        assert not read.interpreted, read.interpreted
        assert all(is_safe_href(h) for h in read.hrefs), read.hrefs
    assert all(is_safe_href(h) for h in read_adf(adf).hrefs)


#: Hostile text for a shared line, short enough for one Slack block, without our separators and brackets (whose
#: place on the line the comparison relies on), never blank (a blank field is left out).
def _shareable(text: str) -> str:
    text = re.sub(r"[·、—()（）]", "", text)
    return text if text.strip() else f"x{text}"


shared_text = st.one_of(st.text(max_size=40), st.lists(text_piece, max_size=8).map("".join)).map(_shareable)
one_line = shared_text.map(lambda text: re.sub(r"[\r\n]", " ", text))
labelled = ("validation_scope", "confirmed_by")
shared_values = st.fixed_dictionaries(
    {}, optional={f: one_line if f in labelled else shared_text for f in SHARED if f != "item_what"}
)


@settings(max_examples=120, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["en", "ja"]), shared_values.filter(bool))
def test_a_shared_line_reads_as_its_fields_read_alone(lang: Lang, values: dict[str, str]) -> None:
    """Any text in every shared-line field: each field shows on the shared line what it shows there with no
    other field beside it, in every format, and the three formats show the same text."""
    assume(all(v.strip() for v in values.values()) and sum(map(len, values.values())) < 2000)  # one Slack block
    assume(not any(re.search(r"·|、|—|owner|tracking|担当|追跡|[()（）]", v) for v in values.values()))
    full = readings(model(lang, values))
    for fmt in FORMATS:
        alone = {field: _shown_alone(lang, field, value, fmt) for field, value in values.items()}
        assert_shows(full[fmt], expected_lines(lang, values, alone), fmt)
    markdown = _squash(full["markdown"].lines, "markdown")
    for fmt in FORMATS[1:]:
        assert markdown == _squash(full[fmt].lines, fmt), fmt


def _shown_alone(lang: Lang, field: str, value: str, fmt: str) -> str:
    """What a field shows on its line when no other shared-line field is there (its label left out)."""
    table = language_table(PostMortem.registry, lang)
    labels = table["labels"]
    lines = readings(model(lang, {field: value}))[fmt].lines
    if field.startswith("item_"):
        head = table["open"] + labels[field] + table["item_colon"]
        line = next(line for line in lines if line.startswith("Add a test" + head))
        return line[len("Add a test" + head) : -len(table["close"])]
    head = labels[field] + table["colon"] + ("" if table["colon"] == "：" else " ")
    if field in ("owner", "fix_ref"):
        line = next(line for line in lines if line.startswith(labels["ticket"]))
        return line[line.index(head) + len(head) :]
    return next(line for line in lines if line.startswith(head))[len(head) :]


def _squash(lines: list[str], fmt: str) -> str:
    """The text of the lines without blanks; a typed `1. ` at a line's start reads like a list's number in
    Slack, so numbers that start lines are left out in every format. The invisible characters Slack's lines
    are written with are left out in every format: a typed word joiner is invisible in every reader too."""
    squashed = re.sub(r"\s+", "", "".join(_NUMBER_RE.sub("", visible(line, fmt)) for line in lines))
    return visible(squashed, "slack")


_NUMBER_RE = re.compile(r"^\s*\d+\.\s")


@settings(max_examples=120, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(TEXT_FIELDS), user_text)
def test_any_text_in_its_own_paragraph_reads_the_same_in_every_format(field: str, value: str) -> None:
    pm = model("en", {field: value})
    found = readings(pm)
    markdown = _squash(found["markdown"].lines, "markdown")
    for fmt in FORMATS[1:]:
        assert markdown == _squash(found[fmt].lines, fmt), fmt
    assert not read_markdown(render_markdown(pm)).interpreted


@pytest.mark.parametrize(
    "what",
    ["Do:\n```\ncode", "Do:\n\n    indented code", "Do:\n- a\n- b", "Do:\n```\ncode\n```"],
)
def test_an_action_item_ending_in_a_block_keeps_its_owner_out_of_it(what: str) -> None:
    pm = model("en", {"item_what": what, "item_owner": "Bo `x", "item_tracking": "A-2"})
    for fmt, read in readings(pm).items():
        assert "(owner: Bo `x, tracking: A-2)" in [visible(line, fmt).strip() for line in read.lines], (fmt, read.lines)


def test_no_escape_of_ours_is_ever_visible(validate_adf: Validate) -> None:
    """A backslash the person never typed shows nowhere, not even once a heading is text and lines join."""
    for value in ["a `x\n# b `c", "`a\n===\nb`", "x\n<div>\n`y\n</div>`", "~~~\n`\n~~~\n# h`", "a\\\n`b`"]:
        pm = model("en", {"root_cause": value, "owner": value})
        for fmt, read in readings(pm, validate_adf).items():
            typed = value.count("\\")
            assert sum(line.count("\\") for line in read.lines) == 2 * typed, (fmt, value, read.lines)


@pytest.mark.parametrize(
    ("typed", "shown", "hrefs"),
    [
        # Slack shows what follows a fence's backticks as code: no format hides it as a language.
        ("```run this first\nmake test\n```", ["run this first", "make test"], []),
        ("x\n\n```sh", ["sh"], []),
        # No format shows a link's title: the whole link is text.
        ('[log](https://x.example/l "kept 30 days")', ['[log](https://x.example/l "kept 30 days")'], []),
        ("[log](https://x.example/l 'kept')", ["[log](https://x.example/l 'kept')"], []),
        # A `!` before Slack's link is the person's `!`, not an image.
        ("x!<https://x.example/a|the log>", ["x!the log"], ["https://x.example/a"]),
        ("x!<https://x.example/a|log>", ["x!log"], ["https://x.example/a"]),
        # Link syntax that is no link stays text, even once its `<` are escaped.
        ("[c](<x<y>)", ["[c](<x<y>)"], []),
        ("[c](<<x>)", ["[c](<<x>)"], []),
        ("[c](<javascript:alert(1)<x>)", ["[c](<javascript:alert(1)<x>)"], []),
    ],
)
def test_fence_text_link_titles_and_broken_links_show_as_typed(
    validate_adf: Validate, typed: str, shown: list[str], hrefs: list[str]
) -> None:
    pm = model("en", {"root_cause": typed})
    for fmt, read in readings(pm, validate_adf).items():
        assert_shows(read, shown, fmt)
        assert [h for h in read.hrefs if "x.example" in h or not is_safe_href(h)] == hrefs, (fmt, read.hrefs)
    assert not read_markdown(render_markdown(pm)).interpreted


def test_a_quote_line_in_an_action_item_keeps_its_mark_in_every_format(validate_adf: Validate) -> None:
    """Our list of action items has no place for a quote in the ADF, which would drop its `>`: it stays text."""
    pm = model("en", {"item_what": "Alert on eviction stalls\n> threshold: 5 s", "item_owner": "Bo"})
    for fmt, read in readings(pm, validate_adf).items():
        assert_shows(read, ["Alert on eviction stalls", "> threshold: 5 s (owner: Bo)"], fmt)


@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        # Slack has no indented code: an indented line is text that keeps its blanks, after a blank line too.
        ("Trace:\n    File app.py, line 3\n\tin main()", ["Trace:", "    File app.py, line 3", "\tin main()"]),
        ("Trace:\n\n    *ptr = NULL\n      x_y", ["    *ptr = NULL", "      x_y"]),
        ("a\n  two blanks", ["a", "  two blanks"]),
        # A code span cannot hold a line break in Slack: the backticks and both lines show as typed.
        ("see `a\nb` and ``c\nd`` here", ["see `a", "b` and ``c", "d`` here"]),
        # Slack closes a block at a line's backticks even with text after them: the text is no code.
        ("a\n```\ncode\n``` after *b*\nnext line", ["code", " after b", "next line"]),
        ("- ```\n  code\n  ``` tail\n- next", ["code", "tail", "next"]),
        # Slack closes a block at three backticks that end a line after text, and opens one there: the code shows
        # no markup, and the text after the block is no code.
        ("```a\nb```\nafter *x*", ["a", "b", "after x"]),
        (
            "Output: ```\n*not bold* <https://x.example/l|l>\n```\nthen *b*",
            ["*not bold* <https://x.example/l|l>", "then b"],
        ),
        # Slack applies a list marker once: a second one on the item's line is its text, not an empty item.
        ("- - dash\n- + plus", ["- dash", "+ plus"]),
        # Backticks alone make no empty box: they show.
        ("```", ["```"]),
        ("x\n``````", ["x", "``````"]),
        ("```\n```", ["```", "```"]),
        # Slack's lists are `-` and `1.`: a typed `+` or `*` shows.
        ("+ one\n+ two\n* three", ["+ one", "+ two", "* three"]),
        # No mark styles code in the ADF: markers around code alone stay text.
        ("a *`x`* b _`y`_ ~~`z`~~", ["a *x* b _y_ ~~z~~"]),
        # A code span of blanks is no code in Slack: its backticks show.
        ("a ` ` b", ["a ` ` b"]),
        # A marker alone on a line after text is no empty list item: it shows, and no backslash does.
        ("a\n+ \nb", ["a", "+ ", "b"]),
        ("a\n* \nb", ["a", "* ", "b"]),
        ("a\n1. \nb", ["a", "1. ", "b"]),
        # Slack quotes only the lines that start with `>`: a quote that takes in a line without one, or quotes
        # nothing, is the text as typed.
        ("> a\nb", ["> a", "b"]),
        ("a\n> \nb", ["a", "> ", "b"]),
    ],
)
def test_slack_s_line_conventions_show_as_typed(validate_adf: Validate, typed: str, shown: list[str]) -> None:
    """Indented lines, code across lines, fences, bullets, markers alone and quotes, as Slack reads them."""
    pm = model("en", {"root_cause": typed})
    for fmt, read in readings(pm, validate_adf).items():
        # the reader of the preview leaves out a line's leading blanks and a `1. ` that starts it, as structure
        assert_shows(read, [_NUMBER_RE.sub("", line).lstrip() if fmt == "slack" else line for line in shown], fmt)
        assert sum(line.count("\\") for line in read.lines) == 0, (fmt, read.lines)  # none was typed
    assert not read_markdown(render_markdown(pm)).interpreted
