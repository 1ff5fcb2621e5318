"""`postmortem-bot demo`: the whole flow on the local stack, asserted on its transcript and on Jira's one comment."""

from __future__ import annotations

import importlib.util
import io
import json
import os
from pathlib import Path

import pytest
import yaml

from bot.cli import main
from bot.demo import DemoResult, run_demo, seed_path
from bot.demo_play import APPROVAL, LEFT_OUT
from bot.demo_transcript import Event, recognise
from bot.embedded_redis import answers, redacted
from bot.localstack import LocalStack, free_port
from emulators.jira_datacenter import DataCenterJiraEmulator
from postmortem.field_table import REGISTRY
from postmortem.model import Lang, load_postmortem
from tests.helpers import EXAMPLES

#: A database of the developer's / CI's Redis for the run that uses a reachable REDIS_URL.
DEMO_REDIS_URL = os.environ.get("DEMO_REDIS_URL", "redis://127.0.0.1:6379/12")


def _demo(
    tmp_path: Path,
    environ: dict[str, str],
    *,
    input_path: Path | None = None,
    lang: Lang | None = None,
    jira: str = "cloud",
) -> tuple[DemoResult, list[str]]:
    lines: list[str] = []
    result = run_demo(input_path, lang=lang, environ=environ, out_dir=tmp_path / "out", emit=lines.append, jira=jira)
    assert result.code == 0, result.message + "\n" + "\n".join(lines)
    return result, lines


def _index(events: list[Event], kind: str, key: str | None = None) -> int:
    return next(i for i, e in enumerate(events) if e.kind == kind and (key is None or e.key == key))


def _assert_flow(result: DemoResult, *, ticket: str, lang: str, answer: str, jira: str = "cloud") -> None:
    """The events of DESIGN §1 in order, and exactly one comment whose bytes are the file shown (REST v3 with an
    ADF body on Cloud, REST v2 with a wiki-markup string on Data Center)."""
    events = result.events
    assert events[_index(events, "command")].text == f"/post-mortem {ticket}"
    assert events[_index(events, "modal", "submitted")].text == LEFT_OUT
    asked = events[_index(events, "bot", "ask_field_next")]
    assert recognise(asked.text)[0] == "ask_field_next"
    # English names the field by its id; Japanese by its label, with no English id.
    assert (
        f"`{LEFT_OUT}: <text>`" in asked.text
        if lang == "en"
        else ("`検証：<内容>`" in asked.text and LEFT_OUT not in asked.text)
    )
    # The question right after the list of what is missing does not repeat the reason it just gave.
    listed = events[_index(events, "bot", "missing_intro")].text.split("\n")[-1]
    reason = listed.split("`): " if lang == "en" else "*：", 1)[1]
    assert len(reason) > 10 and reason not in asked.text
    answered = _index(events, "reply", LEFT_OUT)
    assert events[answered].text.strip() == answer.strip()
    shown = _index(events, "file", f"{ticket}-postmortem-v1.json")
    # The request-body line is labelled as such and comes right after the file it speaks of.
    assert events[shown + 1].kind == "bot" and events[shown + 1].key == "body_shown"
    assert not any(
        e.key == "draft" and ("リクエスト本文" in e.text or "exact request body" in e.text)
        for e in events
        if e.kind == "bot"
    )
    approved = _index(events, "reply", "approve")
    assert events[approved].text == APPROVAL[lang]
    api = 2 if jira == "datacenter" else 3
    posted = [e for e in events if e.kind == "jira" and e.text == f"/rest/api/{api}/issue/{ticket}/comment"]
    assert [e.key for e in posted] == ["201"]
    link = _index(events, "link")
    assert f"/browse/{ticket}?focusedCommentId=" in events[link].text
    offer = _index(events, "offer")
    asked_at = _index(events, "bot", "ask_field_next")
    assert asked_at < answered < shown < approved < events.index(posted[0]) < link < offer
    assert not any(e.kind == "reply" and e.key not in (LEFT_OUT, "approve", *_SKIPPABLE) for e in events)

    comments = result.comments()
    assert len(comments) == 1
    assert result.body_path is not None and result.markdown_path is not None
    assert comments[0].raw == result.body_path.read_bytes()
    assert json.loads(comments[0].raw)["properties"][0]["value"]["version"] == 1
    assert isinstance(json.loads(comments[0].raw)["body"], str if jira == "datacenter" else dict)
    markdown = result.markdown_path.read_text(encoding="utf-8")
    assert f"## {REGISTRY.heading('validation', lang)}" in markdown
    assert answer.strip().splitlines()[0] in markdown


_SKIPPABLE = ("symptom", "why_symptom", "how_found", "why_missed", "action_items")


@pytest.mark.e2e
@pytest.mark.parametrize("jira", ["cloud", "datacenter"])
def test_seed_example_in_japanese_on_embedded_redis(tmp_path: Path, jira: str) -> None:
    result, lines = _demo(tmp_path, environ={}, jira=jira)
    seed = load_postmortem(seed_path())
    assert lines[0].startswith("postmortem-bot demo on an embedded Redis") and "REDIS_URL is not set" in lines[0]
    found = [line for line in lines if "found by serverInfo" in line]
    assert len(found) == 1 and ("Data Center" in found[0]) == (jira == "datacenter")
    _assert_flow(result, ticket=seed.ticket, lang="ja", answer=seed.validation or "", jira=jira)
    assert lines[-2:] == [f"rendered Markdown: {result.markdown_path}", f"posted request body: {result.body_path}"]


@pytest.mark.e2e
def test_seed_example_in_english_on_a_reachable_redis(tmp_path: Path) -> None:
    if not answers(DEMO_REDIS_URL):
        pytest.skip(f"no Redis answers at {DEMO_REDIS_URL}")
    result, lines = _demo(tmp_path, environ={"REDIS_URL": DEMO_REDIS_URL}, lang="en")
    seed = load_postmortem(seed_path())
    assert lines[0] == f"postmortem-bot demo on the Redis at {DEMO_REDIS_URL} (REDIS_URL)."
    _assert_flow(result, ticket=seed.ticket, lang="en", answer=seed.validation or "")


@pytest.mark.e2e
def test_custom_input_asks_for_usually_included_sections_and_accepts_skip(tmp_path: Path) -> None:
    data = yaml.safe_load((EXAMPLES / "cache-eviction.en.yaml").read_text(encoding="utf-8"))
    data["ticket"] = "DEMO-7"
    path = tmp_path / "custom.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    result, _ = _demo(tmp_path, environ={}, input_path=path)
    _assert_flow(result, ticket="DEMO-7", lang="en", answer=data["validation"])
    asked = [recognise(e.text)[1]["reply_as"] for e in result.events if e.kind == "bot" and e.key == "ask_optional_as"]
    skipped = [e.key for e in result.events if e.kind == "reply" and e.text == "skip"]
    assert asked == skipped == ["why_symptom", "how_found"]


@pytest.mark.e2e
def test_cli_falls_back_to_embedded_redis_when_redis_url_does_not_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REDIS_URL", f"redis://127.0.0.1:{free_port()}/0")
    out, err = io.StringIO(), io.StringIO()
    code = main(["demo", "--out", str(tmp_path / "out")], out=out, err=err)
    assert code == 0, err.getvalue()
    first = out.getvalue().splitlines()[0]
    assert "embedded Redis" in first and "does not answer" in first
    if importlib.util.find_spec("lupa") is not None:
        assert "fakeredis, in this process" in first
    assert sorted(p.suffix for p in (tmp_path / "out").iterdir()) == [".json", ".md"]


@pytest.mark.e2e
@pytest.mark.parametrize("jira", ["cloud", "datacenter"])
def test_a_failed_post_is_exit_1_with_the_bots_words_and_no_comment(tmp_path: Path, jira: str) -> None:
    seed = load_postmortem(seed_path())
    path = f"/rest/api/{2 if jira == 'datacenter' else 3}/issue/{seed.ticket}/comment"
    lines: list[str] = []
    result = run_demo(
        environ={},
        out_dir=tmp_path,
        emit=lines.append,
        prepare=lambda stack: stack.jira.inject("POST", path, status=403),
        jira=jira,
    )
    assert result.code == 1
    assert result.message.startswith("the bot said: ") and result.events[-1].key == "post_failed"
    assert [e.key for e in result.events if e.kind == "jira"] == ["403"]
    assert result.comments() == [] and list(tmp_path.iterdir()) == []


@pytest.mark.e2e
def test_a_data_center_that_refuses_the_properties_is_said_in_the_thread_and_nothing_is_posted(tmp_path: Path) -> None:
    lines: list[str] = []

    def refuse_properties(stack: LocalStack) -> None:
        assert isinstance(stack.jira, DataCenterJiraEmulator)
        stack.jira.accepts_properties = False

    result = run_demo(environ={}, out_dir=tmp_path, emit=lines.append, prepare=refuse_properties, jira="datacenter")
    assert result.code == 1 and result.events[-1].key == "post_failed"
    assert "プロパティ" in result.events[-1].text and "8.14" in result.events[-1].text
    assert [e.key for e in result.events if e.kind == "jira"] == ["400"]
    assert result.comments() == [] and list(tmp_path.iterdir()) == []


@pytest.mark.unit
def test_an_input_the_bot_would_refuse_stops_before_anything_starts(tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    code = main(
        ["demo", "--input", str(EXAMPLES / "refused-missing.en.yaml"), "--out", str(tmp_path)], out=out, err=err
    )
    assert code == 1 and out.getvalue() == ""
    assert "demo failed: the bot would refuse this input" in err.getvalue()
    assert "missing: repro: " in err.getvalue()


@pytest.mark.unit
def test_the_bundled_seed_is_the_examples_seed() -> None:
    assert seed_path().read_bytes() == (EXAMPLES / "tada-hang.ja.yaml").read_bytes()


@pytest.mark.unit
def test_bot_messages_are_recognised_in_both_languages() -> None:
    assert recognise("Posted to CACHE-88: http://x/browse/CACHE-88?focusedCommentId=7") == (
        "posted",
        {"ticket": "CACHE-88", "url": "http://x/browse/CACHE-88?focusedCommentId=7"},
    )
    assert recognise("v2 の承認は…") == (None, {})
    stale = "その承認は v1 に対するものですが、現在の下書きは v2 です。投稿するには v2 を承認してください。"
    key, params = recognise(stale)
    assert key == "stale_approval" and params == {"shown": "1", "version": "2"}


@pytest.mark.unit
def test_passwords_never_reach_the_transcript() -> None:
    assert redacted("redis://:s3cret@cache.internal:6380/2") == "redis://:***@cache.internal:6380/2"
    assert redacted("redis://localhost:6379/0") == "redis://localhost:6379/0"
