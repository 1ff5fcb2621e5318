"""The post-mortem as Markdown, from one Jinja2 template and a table per language; the ADF and Slack are made
from it. Sections, labels and options come from the model's field registry (postmortem/fields.py)."""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

import jinja2

from postmortem.fields import Field, Registry, empty_value
from postmortem.messages import say
from postmortem.model import Lang, PostMortem
from postmortem.sections import ACTION_ITEMS_NONE, LABELS
from renderers import budget
from renderers.links import is_safe_href
from renderers.markdown_blocks import contained as contained  # re-exported: callers read it from here
from renderers.usertext import faithful_inline, read
from rules.refs import FixRef, find_fix_refs

TEMPLATES = Path(__file__).resolve().parent / "templates"
TEMPLATE = "postmortem.md.j2"

#: What differs between the languages besides the words: the title, the punctuation around labels and items.
PUNCTUATION: dict[str, dict[str, str]] = {
    "en": {
        "title": say("document_title", "en"),
        "title_colon": ": ",
        "colon": ":",
        "sep": " · ",
        "item_colon": ": ",
        "open": " (",
        "close": ")",
        "comma": ", ",
    },
    "ja": {
        "title": say("document_title", "ja"),
        "title_colon": "：",
        "colon": "：",
        "sep": "、",
        "item_colon": "：",
        "open": "（",
        "close": "）",
        "comma": "、",
    },
}

_LINE_BREAK_RE = re.compile(r"(\r\n|\r|\n)")


def indent_continuation(text: str, width: int) -> str:
    """Keep a multi-line value inside its list item by indenting every line after the first.

    Every line break counts (`\r\n`, `\r` and `\n`, as the parser reads them): an unindented line after a lone
    CR would leave the item.
    """
    return _LINE_BREAK_RE.sub(lambda m: m.group(0) + " " * width, text)


def block(text: str) -> str:
    """A value that is a block of its own (a section's text, a value below its label): read by the text rule,
    and contained, so an unclosed fence cannot swallow what follows."""
    reading = read(text)
    return contained(reading.markdown) if reading.last == "CodeBlock" else reading.markdown


def inline(text: str) -> str:
    """A value placed inside a line of ours (after a label, in an action item's parentheses), kept on that line.

    Its line breaks become spaces; every other character stays as written. Block syntax only counts at the
    start of a line, so on one line the value cannot open a code fence, an HTML block, a heading, a list or a
    quote: an owner of "Alex\n```" would otherwise turn every later section into one code block in the Markdown
    and the ADF posted to Jira, while the Slack preview (rendered per section) still showed them all. It is read
    as the line it joins and closed (renderers/usertext.py `faithful_inline`): a marker it leaves open cannot
    pair with one in our label or in the next value.
    """
    return faithful_inline(text)


def item(text: str, suffix: str) -> str:
    """An action item's text with `suffix` (its owner and tracking) after it.

    The suffix joins the last line only when that line is a paragraph's, and the text is then closed like an
    inline value; after a code block, a list or a quote it is a paragraph of its own, which nothing before it
    can swallow (an indented code line would take it into the code, a quote or a list would continue).
    """
    if not suffix:
        return block(text)
    reading = read(text, closed=True)
    if reading.last == "Paragraph":
        return reading.markdown + suffix
    if reading.last == "CodeBlock":  # a line after a closed fence, or less indented than code, is a paragraph
        return f"{contained(reading.markdown)}\n{suffix.lstrip()}"
    return f"{reading.markdown}\n\n{suffix.lstrip()}"  # a list or a quote would take a line after it in


def code_span(text: str) -> str:
    """An inline code span holding `text` verbatim, whatever backticks it contains."""
    runs = [len(r) for r in re.findall(r"`+", text)]
    ticks = "`" * (max(runs, default=0) + 1)
    pad = " " if text.startswith(("`", " ")) or text.endswith(("`", " ")) else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


#: A URL an autolink can hold as it is (no blank, no angle bracket, no backslash, no Slack `|` label).
_AUTOLINK_RE = re.compile(r"[^\s<>\\|]+")


def fix_refs(text: str) -> str:
    """The fix reference on one line as written, each URL made a link and each other reference inline code.

    The text between references is read like any inline value, each piece closed, so no marker pairs across a
    reference. A value with Markdown of its own (a link, code, `<...>`) is read as written instead.
    """
    with budget.reading(text):  # a render out of time here names the fix reference
        return _fix_refs(_LINE_BREAK_RE.sub(" ", text))


def _fix_refs(text: str) -> str:
    if any(mark in text for mark in "[`<"):
        return faithful_inline(text)
    out: list[str] = []
    pos = 0
    for ref in find_fix_refs(text):
        start = text.find(ref.text, pos)
        written = _ref_markdown(ref)
        if start < 0 or written is None:
            continue
        out.append(faithful_inline(text[pos:start]))
        out.append(written)
        pos = start + len(ref.text)
    out.append(faithful_inline(text[pos:]))
    return "".join(out)


def _ref_markdown(ref: FixRef) -> str | None:
    """A reference as Markdown of ours: an autolink for a URL (the URL is its own text), else inline code."""
    if ref.url is None:
        return code_span(ref.text)
    return f"<{ref.url}>" if is_safe_href(ref.url) and _AUTOLINK_RE.fullmatch(ref.url) else None


def labelled(text: str, label: str, colon: str = ":", refs: bool = False) -> str:
    """A bold label before a value: on the same line when the value is one line, else above it.

    A full-width colon goes after the bold (no space follows it): `**ラベル：**値` would not close the bold.
    On the label's line the value is read as that line's text (`inline`, or `fix_refs` for references).
    """
    head = f"**{label}**{colon}" if colon == "：" else f"**{label}{colon}**"
    if _LINE_BREAK_RE.search(text):  # a lone CR breaks a line too
        return f"{head}\n\n{block(text)}"
    value = fix_refs(text) if refs else inline(text)
    return f"{head}{value}" if colon == "：" else f"{head} {value}"


def aside(parts: list[str], table: dict[str, Any], typed: str = "") -> str:
    """An action item's owner and tracking after it: in parentheses, or after a dash when they hold some (as
    typed: a parenthesis of Markdown syntax, a link's, is not shown)."""
    if not parts:
        return ""
    joined = table["comma"].join(parts)
    if any(bracket in (typed or joined) for bracket in "()（）"):  # no doubled parentheses: 「（マージ済み））」
        return f" — {joined}"
    return f"{table['open']}{joined}{table['close']}"


def head(label: str, table: dict[str, Any]) -> str:
    """A bold label that a value follows on the same line: `**Owner:** ` in English, `**担当者**：` in Japanese
    (a full-width colon after the bold, with no space: `**ラベル：**値` would not close the bold)."""
    colon = table["colon"]
    return f"**{label}**{colon}" if colon == "：" else f"**{label}{colon}** "


@functools.cache
def environment() -> jinja2.Environment:
    """One Jinja2 environment: StrictUndefined so a typo fails loudly, no autoescape (this is Markdown)."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        extensions=["jinja2.ext.do"],
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    # User text is read by the text rule (renderers/usertext.py) wherever the template places it.
    env.filters.update(
        block=block,
        fix_refs=fix_refs,
        labelled=labelled,
        indent_continuation=indent_continuation,
        aside=aside,
        head=head,
        inline=inline,
        item=item,
        choice=_choice,
    )
    return env


def _choice(value: str, labels: dict[str, str]) -> str:
    """An option's label; the value itself for one the registry does not know."""
    return labels.get(value, value)


def language_table(registry: Registry, lang: Lang) -> dict[str, Any]:
    """`L` in the template: punctuation, each field's document label, option labels, the rules' fixed sentences."""
    labels = {name: texts[lang] for name, texts in LABELS.items()}
    labels |= {f.name: registry.doc_label(f.name, lang) for f in registry.fields}
    choices = {
        name: {value: texts[lang] for value, texts in options.items()} for name, options in registry.choices.items()
    }
    return {**PUNCTUATION[lang], "labels": labels, "choices": choices, "none": ACTION_ITEMS_NONE[lang]}


def _template() -> jinja2.Template:
    return environment().get_template(TEMPLATE)


@functools.cache
def _macros() -> Any:
    """The template's macros, loaded once (the document part renders empty here)."""
    return _template().make_module({"doc_title": "", "sections": []})


def section_bodies(pm: PostMortem, lang: Lang | None = None) -> list[tuple[str, str, str]]:
    """(key, heading, Markdown body) of each section with input, in the registry's order; Slack renders these.

    Each section shows every field the registry declares in it that holds something (with what it `also`
    sets), so none can be left out of the document.
    """
    lang = lang or pm.lang
    registry = type(pm).registry
    table = language_table(registry, lang)
    module = _macros()
    present = []
    for section in registry.sections:
        given = [f for f in registry.shown_in(section.key) if _given(pm, f)]
        body = str(module.section_body(pm, table, section.key, given)).strip("\n")
        if body.strip():
            present.append((section.key, section.heading[lang], body))
    return present


def _given(pm: PostMortem, field: Field) -> bool:
    """Whether the person gave the field, or what it also sets, something to show."""
    return any(not empty_value(getattr(pm, name)) for name in (field.name, *field.also))


def title(pm: PostMortem, lang: Lang | None = None) -> str:
    """The document title line's text (without the `# `)."""
    lang = lang or pm.lang
    return str(_macros().title(pm, PUNCTUATION[lang])).strip()


@budget.gc_paused
def render_markdown(pm: PostMortem, lang: Lang | None = None) -> str:
    """The whole post-mortem as one Markdown document (the Jira ADF and the docs file are made from it)."""
    lang = lang or pm.lang
    return _template().render(doc_title=title(pm, lang), sections=section_bodies(pm, lang))
