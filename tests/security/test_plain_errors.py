"""People see plain sentences, in their language, never pydantic's validation text (threads and modals)."""

from __future__ import annotations

import json
from typing import Any

import pytest
import redis
from pydantic import ValidationError

from emulators.driver import modal_values
from handlers import form
from handlers.deps import Deps
from postmortem.errors import plain_reason
from postmortem.model import Lang, PostMortem, input_error
from sessions import replies
from sessions.session import Session
from sessions.store import SessionStore
from tests.handlers.fakes import FakeQueue
from tests.sessions.helpers import complete_pm

pytestmark = pytest.mark.unit

RAW = ("validation error", "Input should", "String should", "For further information", "pydantic", "type=")


def raw(text: str) -> bool:
    return any(r in text for r in RAW)


def session_error() -> ValidationError:
    with pytest.raises(ValidationError) as caught:
        Session(ticket="PROJ-1", requester="", channel="C1")
    return caught.value


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_pydantic_errors_become_plain_sentences(lang: Lang) -> None:
    with pytest.raises(ValidationError) as bad_lang:
        PostMortem.model_validate({"ticket": "PROJ-1", "lang": "fr"})
    for exc in (session_error(), bad_lang.value, input_error(bad_lang.value)):
        said = plain_reason(exc, lang)
        assert said and not raw(said), said
        if lang == "ja":
            assert any("\u3040" <= ch <= "\u30ff" for ch in said), said


def test_a_thread_answer_never_shows_raw_validation_text(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(replies, "updates_from_text", lambda *a, **k: {"ticket": "NOT A KEY"})
    session = Session(ticket="PROJ-1", requester="U1", channel="C1", inputs=complete_pm())
    updated, reason = replies.apply_answer(session, "ticket", "NOT A KEY")
    assert updated is None and reason and not raw(reason), reason


def test_a_modal_error_is_a_plain_sentence(redis_conn: redis.Redis) -> None:
    deps = Deps(store=SessionStore(redis_conn), queue=FakeQueue())
    view: dict[str, Any] = {
        "private_metadata": json.dumps({"channel": "C1", "lang": "fr"}),
        "state": {"values": modal_values({"ticket": "PROJ-1", "summary": "x"})},
    }
    errors = form.submit(deps, user="U1", view=view)
    assert errors and not any(raw(text) for text in errors.values()), errors
