"""Links in the Jira body: only http(s) and mailto targets become links (the rule lives in the renderers;
this is the security regression list of hostile schemes)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from postmortem.model import PostMortem
from renderers.adf import render_adf
from renderers.jira import jira_request
from tests.sessions.helpers import complete_pm

pytestmark = pytest.mark.unit

#: Refused already (CommonMark's rule): script and files.
REFUSED = [
    "javascript:alert(1)",
    "data:text/html,<b>x</b>",
    "JaVaScRiPt:alert(1)",
    "vbscript:msgbox(1)",
    "file:///etc/passwd",
]
#: Targets once found reaching the Jira comment; only http(s) and mailto targets become links (renderers/links.py).
HOSTILE = [
    "intent://scan/#Intent;scheme=zxing;end",
    "ms-settings:privacy",
    "jar:http://x.example/a.jar!/b",
    "view-source:https://x.example",
    "blob:https://x.example/1d0e",
    "//evil.example/path",
]
ALLOWED = ["https://ok.example/a", "http://ok.example/b", "mailto:dev@example.com"]


def hrefs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for mark in node.get("marks", []):
            if mark.get("type") == "link":
                yield str(mark["attrs"]["href"])
        if node.get("type") in ("inlineCard", "blockCard", "embedCard"):
            yield str(node.get("attrs", {}).get("url"))
        for child in node.get("content", []):
            yield from hrefs(child)


def jira_body_links(targets: list[str], validate: Callable[[Any], Any]) -> list[str]:
    written = " ".join(f"[link {n}]({t}) <{t}>" for n, t in enumerate(targets))
    pm = PostMortem.model_validate({**complete_pm(), "ticket": "SEC-1", "fix": f"See {written}."})
    doc = render_adf(pm)
    validate(doc)
    request = jira_request(doc, session="s1", version=1)
    assert b"postmortem-bot" in request.body
    return list(hrefs(doc))


def test_allowed_schemes_become_links(validate_adf: Callable[[Any], Any]) -> None:
    found = jira_body_links(ALLOWED, validate_adf)
    assert {h for h in found if "ok.example" in h or h.startswith("mailto:")} >= {
        "https://ok.example/a",
        "http://ok.example/b",
    }


def only_web_and_mail(found: list[str]) -> bool:
    return all(h.lower().startswith(("https://", "http://", "mailto:")) for h in found)


@pytest.mark.parametrize("target", REFUSED)
def test_script_and_file_targets_are_no_links(target: str, validate_adf: Callable[[Any], Any]) -> None:
    found = jira_body_links([target], validate_adf)
    assert only_web_and_mail(found), found


@pytest.mark.parametrize("target", HOSTILE)
def test_no_other_scheme_becomes_a_link_in_the_jira_body(target: str, validate_adf: Callable[[Any], Any]) -> None:
    found = jira_body_links([target], validate_adf)
    assert only_web_and_mail(found), found
