"""The bot's own sentences reach Slack as mrkdwn that shows what they say: `<field>: <text>` is shown, never read
as a link; the mentions and channels they name on purpose stay mentions and channels."""

from __future__ import annotations

import re
import string

import pytest

from postmortem import messages
from postmortem.model import Lang
from renderers.home import help_message
from renderers.mrkdwn import escape_own
from renderers.prompts import approval_question, lint_warnings, missing_list, notice

pytestmark = pytest.mark.unit

#: What Slack reads as markup; only mentions, channels and links may be in the bot's mrkdwn.
MARKUP = re.compile(r"<([^<>]*)>")
INTENDED = re.compile(r"^(?:@U[A-Z0-9]+|#C[A-Z0-9]+|https?://\S+)$")


def filled(key: str, lang: Lang) -> dict[str, object]:
    """Plausible parameters for a catalogue entry: ids where it names people and channels, text elsewhere."""
    names = {name for _, name, _, _ in string.Formatter().parse(messages._CATALOGUE[key][lang]) if name}
    values: dict[str, object] = {"user": "U123", "requester": "U123", "channel": "C123", "url": "https://x.test/a?b=1"}
    return {
        n: values.get(n, 3 if n in ("version", "count", "shown", "n", "length", "limit", "seconds") else "t")
        for n in names
    }


@pytest.mark.parametrize("key", sorted(messages._CATALOGUE))
@pytest.mark.parametrize("lang", messages.LANGS)
def test_every_notice_holds_only_the_markup_it_means(key: str, lang: Lang) -> None:
    try:
        text = notice(key, lang, **filled(key, lang))["text"]
    except (KeyError, ValueError, IndexError):  # an entry with parameters of another shape (numbers, lists)
        pytest.skip("not a notice with plain parameters")
    assert [m for m in MARKUP.findall(text) if not INTENDED.match(m)] == []


def test_the_field_syntax_is_shown_as_typed() -> None:
    asked = notice("ask_field_as", "en", field="repro", reason="missing", session="s1")["text"]
    assert "`repro: &lt;text&gt;`" in asked
    assert "&lt;field&gt;: &lt;text&gt;" in help_message("en")["text"]
    assert "&lt;field&gt;" in lint_warnings([("summary", "a note")], "en")["text"]
    assert "<" not in missing_list([("repro", "a < b")], "en")["text"].replace("&lt;", "")
    assert "<" not in approval_question("s1", ticket="PROJ-1", version=1, lang="en")["text"]


def test_escaping_keeps_mentions_links_and_what_was_escaped_before() -> None:
    assert escape_own("<@U1> & <#C2> see <https://x.test|x> &amp; `<field>`") == (
        "<@U1> &amp; <#C2> see <https://x.test|x> &amp; `&lt;field&gt;`"
    )
    assert escape_own("<<@U1>>") == "&lt;<@U1>&gt;"
