"""References become links only with the Jira site known, never inside code; look-alikes stay text."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from postmortem.model import ActionItem, PostMortem
from renderers.adf import render_adf
from renderers.references import keys_in
from renderers.slack import render_slack

pytestmark = pytest.mark.unit

SITE = "https://acme.atlassian.net"


def links(node: Any) -> dict[str, str]:
    """Linked text → target, over the whole document."""
    if isinstance(node, list):
        return {k: v for child in node for k, v in links(child).items()}
    hrefs = [m["attrs"]["href"] for m in node.get("marks", []) if m["type"] == "link"]
    found: dict[str, str] = {node["text"]: hrefs[0]} if hrefs else {}
    return found | links(node.get("content", []))


def pm() -> PostMortem:
    return PostMortem(
        ticket="CACHE-88",
        root_cause="Like CACHE-41, `CACHE-77` was wrong. UTF-8 names, SHA-256 sums and ISO-8601 dates; "
        "OTHER-5 is another project's. See https://wiki.example/page_1.",
        symptom="```\nCACHE-90 in a log\n```",
        fix_ref="OPS-12 and https://github.com/example/storage/pull/412",
        action_items=(ActionItem(what="Audit the shards", owner="Priya", tracking="STORE-7, UTF-8"),),
    )


def test_without_the_jira_site_nothing_is_linked_beyond_what_was_written() -> None:
    assert set(links(render_adf(pm()))) == {"https://github.com/example/storage/pull/412"}


def test_keys_and_urls_link_never_inside_code(validate_adf: Callable[[Any], Any]) -> None:
    doc = render_adf(pm(), jira_url=SITE + "/")
    validate_adf(doc)
    found = links(doc)
    assert found["CACHE-88"] == f"{SITE}/browse/CACHE-88"  # the ticket itself, in the summary line
    assert found["CACHE-41"] == f"{SITE}/browse/CACHE-41"  # the ticket's own project, anywhere
    assert found["OPS-12"] == f"{SITE}/browse/OPS-12"  # a key given as the fix reference
    assert found["STORE-7"] == f"{SITE}/browse/STORE-7"  # a key given as tracking
    assert found["https://wiki.example/page_1"] == "https://wiki.example/page_1"
    for text in ("CACHE-77", "CACHE-90", "UTF-8", "SHA-256", "ISO-8601", "OTHER-5"):
        assert text not in found, text


def test_the_preview_shows_the_same_links() -> None:
    doc = render_adf(pm(), jira_url=SITE)
    text = "\n".join(b["text"]["text"] for m in render_slack(pm(), adf=doc) for b in m["blocks"])
    assert f"<{SITE}/browse/CACHE-41|CACHE-41>" in text and f"<{SITE}/browse/STORE-7|STORE-7>" in text
    assert "browse/UTF-8" not in text and "browse/CACHE-77" not in text


def test_look_alikes_are_not_keys() -> None:
    assert keys_in(["UTF-8 SHA-256 ISO-8601 RFC-9110 CVE-2021-44228 OPS-1 a-1 X-1", None]) == {"OPS-1"}


@pytest.mark.parametrize(
    ("typed", "linked"),
    [
        ("see http://x.example\u200b/a now", "http://x.example"),
        ("see http://x.example\u202e/moc.live now", "http://x.example"),
        ('see http://a.example"&lt; next', "http://a.example"),
        ("see https://a.example/p?q=1&r=2.", "https://a.example/p?q=1&r=2"),
    ],
)
def test_a_bare_url_ends_before_a_quote_or_an_invisible_character(typed: str, linked: str) -> None:
    """What is linked is what is shown: no zero-width, bidi or quote character inside a link's target."""
    found = links(render_adf(PostMortem(ticket="A-1", root_cause=typed), jira_url=SITE))
    urls = {text: href for text, href in found.items() if "example" in text}
    assert urls == {linked: linked}


@pytest.mark.parametrize(
    ("typed", "linked"),
    [
        ("詳細は https://a.example/runbookを参照してください。", "https://a.example/runbook"),
        ("「https://a.example/x」を参照", "https://a.example/x"),
        ("https://ja.example/wiki/東京駅 の記事", "https://ja.example/wiki/東京駅"),
        ("（https://a.example/y）", "https://a.example/y"),
    ],
)
def test_a_bare_url_ends_where_the_japanese_sentence_goes_on(typed: str, linked: str) -> None:
    found = links(render_adf(PostMortem(ticket="A-1", lang="ja", root_cause=typed), jira_url=SITE))
    assert linked in found, found
    assert [text for text in found if "example" in text] == [linked]  # one link: the URL, not the sentence after it
