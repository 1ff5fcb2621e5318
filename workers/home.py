"""Publish each person's App Home view (views.publish), coalesced per person.

Session writes make a person's Home due a few seconds later (sessions/user_index.py); opening the Home
tab makes it due now. A thread in every worker takes the due ones (each is taken by one worker only) and
publishes at most one view per person every HOME_COALESCE_SECONDS, so a burst of one person's sessions is
one views.publish, not a storm.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterable

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from postmortem.messages import lang_of_locale
from postmortem.model import Lang
from renderers.home import MAX_ROWS, home_order, home_view
from sessions.session import Session
from sessions.store import SessionStore
from sessions.user_index import APPROVERS
from workers.slack_gateway import SlackGateway

log = logging.getLogger(__name__)

#: How often a worker looks for due Home views.
POLL_SECONDS = 0.5

#: A person's Slack locale and a thread's permalink are remembered this long in the worker.
CACHE_SECONDS = 3600.0

#: How many of a person's sessions are read to pick the open and the posted ones shown.
SCAN = 3 * MAX_ROWS

#: Permalinks remembered at most (a long-running worker forgets them all and starts again past this).
MAX_LINKS = 10_000


class HomePublisher:
    """Reads a person's sessions, renders their Home view, publishes it."""

    def __init__(
        self,
        store: SessionStore,
        client: WebClient,
        *,
        approvers: frozenset[str] = frozenset(),
        default_lang: Lang | None = None,
    ) -> None:
        self.store, self.client, self.approvers, self.default_lang = store, client, approvers, default_lang
        self._slack = SlackGateway(client)
        self._links: dict[tuple[str, str], str] = {}
        self._langs: dict[str, tuple[Lang, float]] = {}

    def run_due(self) -> list[str]:
        """Publish every Home view that is due and may be published now; returns the users published."""
        published = []
        for user in self._expand(self.store.users.take_due()):
            if self.store.users.may_publish(user) and self.publish(user):
                published.append(user)
        return published

    def _expand(self, users: Iterable[str]) -> list[str]:
        expanded: list[str] = []
        for user in users:
            for one in sorted(self.approvers) if user == APPROVERS else [user]:
                if one not in expanded:
                    expanded.append(one)
        return expanded

    def publish(self, user: str) -> bool:
        """views.publish the Home of `user`; False (logged) when Slack refused it."""
        own = self.store.users.sessions(user, SCAN)
        awaiting = self.store.users.awaiting() if user in self.approvers else []
        open_, posted = home_order(own)
        shown = [*open_, *posted, *awaiting]
        view = home_view(user, own, awaiting, self._links_of(shown), self._lang(user))
        try:
            self.client.views_publish(user_id=user, view=view)
        except SlackApiError as exc:
            log.warning("views.publish for %s failed: %s", user, exc.response.get("error", "error"))
            return False
        return True

    def _links_of(self, sessions: Iterable[Session]) -> dict[str, str]:
        links: dict[str, str] = {}
        for session in sessions:
            if session.thread_ts is None:
                continue
            key = (session.channel, session.thread_ts)
            if len(self._links) > MAX_LINKS:
                self._links.clear()
            if key not in self._links:
                link = self._slack.permalink(session.channel, session.thread_ts)
                if link is None:  # Slack would not give one now: shown without a link, asked again next time
                    continue
                self._links[key] = link
            links[session.id] = self._links[key]
        return links

    def _lang(self, user: str) -> Lang:
        if self.default_lang is not None:
            return self.default_lang
        cached = self._langs.get(user)
        if cached is not None and cached[1] > time.monotonic():
            return cached[0]
        try:
            lang = lang_of_locale(self._slack.user_locale(user))
        except SlackApiError:
            log.info("users.info failed for %s; their Home is in English", user)
            lang = "en"
        self._langs[user] = (lang, time.monotonic() + CACHE_SECONDS)
        return lang


def start(publisher: HomePublisher, *, interval: float = POLL_SECONDS) -> threading.Event:
    """Publish due Home views every `interval` seconds in a daemon thread; set the returned event to stop."""
    stop = threading.Event()

    def loop() -> None:
        while not stop.wait(interval):
            try:
                publisher.run_due()
            except Exception:  # a Redis or Slack hiccup must not end the thread; it says so and goes on
                log.exception("publishing Home views failed")

    threading.Thread(target=loop, name="postmortem-home", daemon=True).start()
    return stop
