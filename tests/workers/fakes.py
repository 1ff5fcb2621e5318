"""Hand-written stand-ins for the worker's edges (Slack, Jira, RQ queues): each records its calls."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from slack_sdk.errors import SlackApiError
from slack_sdk.web import SlackResponse

from workers.jira_gateway import JiraError, PostedComment


@dataclass
class FakeSlack:
    """Records posts, ephemerals and uploads in one ordered log; each post gets a later ts."""

    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    refuse_channels: dict[str, str] = field(default_factory=dict)  # channel -> Slack error to answer
    refuse_uploads: str | None = None
    failures: deque[str] = field(default_factory=deque)  # Slack errors answered to the next posts/uploads
    people: dict[str, str] = field(default_factory=dict)  # the directory: e-mail -> user id
    locales: dict[str, str] = field(default_factory=dict)  # user id -> Slack locale
    emails: dict[str, str] = field(default_factory=dict)  # user id -> e-mail
    _next: int = 100

    def post(self, channel: str, message: dict[str, Any], *, thread_ts: str | None = None) -> str:
        if channel in self.refuse_channels:
            raise slack_error(self.refuse_channels[channel])
        if self.failures:
            raise slack_error(self.failures.popleft())
        ts = f"1700000000.{self._next:06d}"
        self._next += 100
        self.calls.append(("post", {"channel": channel, "message": message, "thread_ts": thread_ts, "ts": ts}))
        return ts

    def ephemeral(self, channel: str, user: str, message: dict[str, Any], *, thread_ts: str | None = None) -> None:
        self.calls.append(("ephemeral", {"channel": channel, "user": user, "message": message, "thread_ts": thread_ts}))

    def upload(self, channel: str, thread_ts: str | None, *, filename: str, content: bytes, title: str) -> None:
        if self.refuse_uploads:
            raise slack_error(self.refuse_uploads)
        if self.failures:
            raise slack_error(self.failures.popleft())
        self.calls.append(
            (
                "upload",
                {"channel": channel, "thread_ts": thread_ts, "filename": filename, "content": content, "title": title},
            )
        )

    def permalink(self, channel: str, message_ts: str) -> str | None:
        self.calls.append(("permalink", {"channel": channel, "message_ts": message_ts}))
        return f"https://example.slack.com/archives/{channel}/p{message_ts.replace('.', '')}"

    def is_session_parent(self, channel: str, ts: str) -> bool:
        """Whether a post of this fake carried a session's metadata (workers/slack_gateway.py SESSION_EVENT_TYPE)."""
        return any(
            c["channel"] == channel and c["ts"] == ts and (c["message"].get("metadata") or {}).get("event_type")
            for c in self.posts
        )

    def user_name(self, user: str) -> str:
        return {"U1": "Priya"}.get(user, user)

    def user_locale(self, user: str) -> str | None:
        return self.locales.get(user)

    def user_email(self, user: str) -> str | None:
        return self.emails.get(user)

    def lookup_user_by_email(self, email: str) -> str | None:
        self.calls.append(("lookup", {"email": email}))
        return self.people.get(email)

    def dm(self, user: str, message: dict[str, Any]) -> str:
        return self.post(user, message)

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [call for name, call in self.calls if name == kind]

    @property
    def posts(self) -> list[dict[str, Any]]:
        return self.of("post")

    @property
    def texts(self) -> list[str]:
        return [str(p["message"]["text"]) for p in self.posts]


def slack_error(error: str) -> SlackApiError:
    """What slack-sdk raises when Slack answers ok: false."""
    return SlackApiError(
        f"The request to the Slack API failed. ({error})",
        SlackResponse(
            client=None,
            http_verb="POST",
            api_url="https://slack.test/api/x",
            req_args={},
            data={"ok": False, "error": error},
            headers={},
            status_code=200,
        ),
    )


def _answer(script: deque[Any], default: Any) -> Any:
    answer = script.popleft() if script else default
    if isinstance(answer, BaseException):
        raise answer
    return answer


@dataclass
class FakeJira:
    """Records every call; find_own_comment / own_comments / post_comment / delete_comment take queued answers
    (a value or an exception to raise), user_email answers from `emails`, and everyone may comment."""

    found: deque[Any] = field(default_factory=deque)
    posted: deque[Any] = field(default_factory=deque)
    listed: deque[Any] = field(default_factory=deque)  # answers to own_comments
    deleted: deque[Any] = field(default_factory=deque)  # answers to delete_comment (an exception to raise)
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    url: str = "https://jira.example"
    missing_issues: set[str] = field(default_factory=set)
    emails: dict[str, str] = field(default_factory=dict)  # account id -> e-mail

    def issue_exists(self, ticket: str) -> bool:
        self.calls.append(("issue_exists", {"ticket": ticket}))
        return ticket not in self.missing_issues

    def user_email(self, account_id: str) -> str | None:
        self.calls.append(("user_email", {"account_id": account_id}))
        return self.emails.get(account_id)

    def may_comment(self, ticket: str, email: str) -> bool:
        self.calls.append(("may_comment", {"ticket": ticket, "email": email}))
        return True

    def find_own_comment(self, ticket: str, *, session: str, version: int) -> PostedComment | None:
        self.calls.append(("find_own_comment", {"ticket": ticket, "session": session, "version": version}))
        answer: PostedComment | None = _answer(self.found, None)
        return answer

    def own_comments(self, ticket: str, *, session: str, version: int) -> list[PostedComment]:
        self.calls.append(("own_comments", {"ticket": ticket, "session": session, "version": version}))
        answer: list[PostedComment] = _answer(self.listed, [])
        return answer

    def delete_comment(self, ticket: str, comment_id: str) -> None:
        self.calls.append(("delete_comment", {"ticket": ticket, "comment_id": comment_id}))
        _answer(self.deleted, None)

    def post_comment(self, ticket: str, body: bytes) -> PostedComment:
        self.calls.append(("post_comment", {"ticket": ticket, "body": body}))
        answer: PostedComment = _answer(self.posted, self.comment("10001", ticket))
        return answer

    def comment(self, cid: str, ticket: str = "PROJ-1") -> PostedComment:
        return PostedComment(cid, f"{self.url}/browse/{ticket}?focusedCommentId={cid}")

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [call for name, call in self.calls if name == kind]


def retryable(seconds: float = 7.0) -> JiraError:
    return JiraError(f"Jira is rate-limiting the bot; trying again in {seconds:g} s.", status=429, retry_after=seconds)


def fatal(status: int = 403) -> JiraError:
    return JiraError("The Jira account has no permission to comment on this issue.", status=status)


@dataclass
class Job:
    """What `enqueue` returns: only the id is read."""

    id: str


@dataclass
class FakeQueue:
    """Records enqueue(name, *args) and enqueue_in(delay, name, *args) calls."""

    enqueued: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = field(default_factory=list)
    scheduled: list[tuple[timedelta, str, tuple[Any, ...]]] = field(default_factory=list)

    def enqueue(self, name: str, /, *args: Any, **kwargs: Any) -> Job:
        self.enqueued.append((name, args, kwargs))
        return Job(f"job-{len(self.enqueued)}")

    def enqueue_in(self, delay: timedelta, name: str, /, *args: Any, **kwargs: Any) -> Job:
        self.scheduled.append((delay, name, args))
        return Job(f"later-{len(self.scheduled)}")
