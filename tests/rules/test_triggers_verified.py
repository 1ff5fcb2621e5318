"""The offer after a fix needs a verified fix (docs/rules.md#when-to-write-one): a merge with verification still to
come gets no offer; a merge whose original repro now passes gets one. Both languages."""

from __future__ import annotations

import pytest

from rules.triggers import announces_fix, classify

pytestmark = pytest.mark.unit

VERIFICATION_TO_COME = [
    "Merged the fix; verification to follow.",
    "The fix is merged, waiting for the nightly soak to confirm.",
    "Merged the fix, we'll monitor production for a week.",
    "Merged the fix, should be fine now.",
    "Fixed in #5751, hopefully that's it.",
    "Shipped the fix for PROJ-7; testing is next.",
    "修正をマージしました。検証はこれからです。",
    "修正をマージしました。検証待ちです。",
    "修正をマージしました。これで直るはずです。",
    "修正をデプロイしました。様子見です。",
]
VERIFIED = [
    "Merged the fix; the original repro now passes 50 of 50 runs.",
    "Fix merged and the original repro passes now.",
    "The fix is merged and the failing test `test_evict_last_shard` passes.",
    "Merged the fix. The repro passes; the soak run is scheduled for tonight.",
    "修正をマージしました。元の再現手順が成功するようになりました。",
    "修正をマージしました。失敗していたテストも通りました。",
]


@pytest.mark.parametrize("text", VERIFICATION_TO_COME)
def test_a_merge_with_verification_still_to_come_gets_no_offer(text: str) -> None:
    assert not announces_fix(text)
    assert classify(text, mentioned=False) is None


@pytest.mark.parametrize("text", VERIFIED)
def test_a_merge_whose_original_repro_now_passes_gets_the_offer(text: str) -> None:
    assert announces_fix(text)
    assert classify(text, mentioned=False) == "announcement"
