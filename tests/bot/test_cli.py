"""`postmortem-bot draft` and `check` follow DESIGN §4: outputs, exit codes and their precedence."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.cli import main
from tests.helpers import EXAMPLES

pytestmark = pytest.mark.unit


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def write(tmp_path: Path, data: object, name: str = "in.yaml") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return str(path)


def example(tmp_path: Path, **changes: object) -> str:
    data = yaml.safe_load((EXAMPLES / "cache-eviction.en.yaml").read_text(encoding="utf-8"))
    data.update(changes)
    return write(tmp_path, {k: v for k, v in data.items() if v is not None})


def test_draft_markdown_has_the_nine_sections_in_order() -> None:
    code, out, err = run("draft", str(EXAMPLES / "tada-hang.ja.yaml"))
    assert code == 0 and err == ""
    headings = [line[3:] for line in out.splitlines() if line.startswith("## ")]
    assert headings == [
        "概要",
        "症状",
        "根本原因",
        "症状が発生した理由",
        "修正",
        "発見の経緯",
        "見逃された理由",
        "検証",
        "対応項目",
    ]


def test_draft_lang_switches_headings() -> None:
    code, out, _ = run("draft", str(EXAMPLES / "tada-hang.ja.yaml"), "--lang", "en")
    assert code == 0 and "## Root cause" in out and "## 根本原因" not in out


def test_draft_adf_is_a_valid_document(validate_adf: Callable[[Any], Any]) -> None:
    code, out, _ = run("draft", str(EXAMPLES / "cache-eviction.en.yaml"), "--format", "adf")
    assert code == 0
    validate_adf(json.loads(out))


def test_draft_slack_is_a_list_of_messages() -> None:
    code, out, _ = run("draft", str(EXAMPLES / "cache-eviction.en.yaml"), "--format", "slack")
    messages = json.loads(out)
    assert code == 0 and isinstance(messages, list) and all(m["text"] and m["blocks"] for m in messages)


def test_missing_inputs_exit_3_with_one_line_each() -> None:
    code, out, err = run("draft", str(EXAMPLES / "refused-missing.en.yaml"))
    assert code == 3 and out == ""
    fields = [line.split(":")[1].strip() for line in err.splitlines()]
    assert fields == ["owner", "repro", "repro_rate", "root_cause", "confirmed_by", "validation", "validation_kinds"]
    assert all(line.startswith("missing: ") for line in err.splitlines())


@pytest.mark.parametrize(
    "content, field",
    [
        ("ticket: [\n", "file"),
        ("- a list\n", "file"),
        ("ticket: not a key\n", "ticket"),
        ("ticket: A-1\nsurprise: 1\n", "surprise"),
        ("ticket: A-1\nwhy_missed_category: bad_luck\n", "why_missed_category"),
        ("ticket: A-1\naction_items:\n  - owner: Bo\n", "action_items.0.what"),
        ("ticket: A-1\ntrivial: perhaps\n", "trivial"),
    ],
)
def test_a_bad_file_exits_2_naming_the_field(tmp_path: Path, content: str, field: str) -> None:
    code, out, err = run("draft", write(tmp_path, content))
    assert code == 2 and out == ""
    assert err.startswith(f"invalid input: {field}: ") and "Traceback" not in err


def test_an_unreadable_file_exits_2(tmp_path: Path) -> None:
    code, _, err = run("check", str(tmp_path / "nope.yaml"))
    assert code == 2 and "cannot read" in err


def test_json_input_is_read(tmp_path: Path) -> None:
    data = yaml.safe_load((EXAMPLES / "cache-eviction.en.yaml").read_text(encoding="utf-8"))
    code, out, _ = run("draft", write(tmp_path, json.dumps(data), name="in.json"))
    assert code == 0 and out.startswith("# Post-mortem: CACHE-88")


def test_trivial_is_declined_with_exit_4_even_when_confirmed(tmp_path: Path) -> None:
    path = example(tmp_path, trivial=True)
    for extra in ([], ["--confirm-scope"]):
        code, out, err = run("draft", path, *extra)
        assert code == 4 and out == "" and "trivial" in err


def test_outage_exits_4_unless_confirmed(tmp_path: Path) -> None:
    path = example(tmp_path, customer_impacting=True)
    code, _, err = run("draft", path)
    assert code == 4 and "incident report" in err
    code, out, _ = run("draft", path, "--confirm-scope")
    assert code == 0 and "## Root cause" in out


def test_precedence_invalid_before_scope_before_missing(tmp_path: Path) -> None:
    scope_and_missing = example(tmp_path, customer_impacting=True, repro=None)
    assert run("draft", scope_and_missing)[0] == 4
    assert run("draft", scope_and_missing, "--confirm-scope")[0] == 3
    invalid_and_scope = write(tmp_path, {"ticket": "A-1", "customer_impacting": True, "bogus": 1}, "x.yaml")
    assert run("draft", invalid_and_scope)[0] == 2


def test_check_prints_warnings_on_stdout_and_exits_0(tmp_path: Path) -> None:
    code, out, err = run("check", str(EXAMPLES / "cache-eviction.en.yaml"))
    assert code == 0 and err == ""
    assert out.splitlines() == [line for line in out.splitlines() if line.startswith("warning: ")]
    assert {line.split(":")[1].strip() for line in out.splitlines()} == {"why_symptom", "how_found"}


def test_check_reports_missing_like_draft() -> None:
    code, out, err = run("check", str(EXAMPLES / "refused-missing.en.yaml"))
    assert code == 3
    assert err == run("draft", str(EXAMPLES / "refused-missing.en.yaml"))[2]
    assert "warning: root_cause: hedging" in out


@pytest.mark.parametrize("fmt", ["adf", "wiki"])
def test_a_comment_over_jiras_limit_is_refused_naming_sections(tmp_path: Path, fmt: str) -> None:
    path = example(tmp_path, how_found="`step` " * 6000)
    code, out, err = run("draft", path, "--format", fmt)
    assert code == 2 and out == ""
    assert "32,767" in err or "32767" in err
    assert "How it was found" in err


@pytest.mark.parametrize(
    "command", [["draft", "--format", "adf"], ["draft", "--format", "slack"], ["draft", "--format", "wiki"], ["check"]]
)
def test_nesting_too_deep_exits_2_with_one_line_and_no_traceback(tmp_path: Path, command: list[str]) -> None:
    path = example(tmp_path, root_cause="- " * 248 + "x")  # this once raised RecursionError
    code, out, err = run(*command[:1], path, *command[1:])
    assert code == 2 and out == ""
    assert err.splitlines() == [err.strip()] and err.startswith("invalid input: root_cause: ")
    assert "Traceback" not in err


@pytest.mark.parametrize("deployment", ["cloud", "datacenter"])
def test_the_worker_stops_at_start_up_with_one_line_on_wrong_credentials_or_an_unreachable_jira(
    monkeypatch: pytest.MonkeyPatch, deployment: str
) -> None:
    from bot.localstack import free_port, jira_emulator

    emulator = jira_emulator(deployment)
    env = {
        "POSTMORTEM_ENV_FILE": "",
        "SLACK_BOT_TOKEN": "xoxb-test",
        "SLACK_SIGNING_SECRET": "s3cret",
        "JIRA_EMAIL": emulator.email if deployment == "cloud" else "",
        "JIRA_API_TOKEN": "not-" + emulator.api_token,
        "JIRA_TIMEOUT": "2",
    }
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with emulator:
        monkeypatch.setenv("JIRA_URL", emulator.base_url)
        code, out, err = run("worker", "--burst")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("cannot start: Jira rejected the bot's credentials") and "not-" not in err
    monkeypatch.setenv("JIRA_URL", f"http://127.0.0.1:{free_port()}")
    code, out, err = run("worker", "--burst")
    assert code == 2 and err.startswith("cannot start: Jira is unreachable at http://127.0.0.1:")
    assert err.count("\n") == 1
