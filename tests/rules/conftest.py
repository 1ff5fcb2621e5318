"""Fixtures shared by the rules' tests."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from postmortem.model import PostMortem

Example = Callable[[str], PostMortem]


@pytest.fixture
def clean(example: Example) -> Callable[[str], PostMortem]:
    """A post-mortem with every section filled and no tone warning, in the language asked for."""

    def make(lang: str) -> PostMortem:
        if lang == "ja":
            # The example's fourth action item names no owner (and none is invented); give it one here.
            pm = example("tada-hang.ja")
            items = [{**item.model_dump(), "owner": item.owner or "Tada チーム"} for item in pm.action_items]
            return pm.replace(action_items=items)
        return example("cache-eviction.en").replace(
            why_symptom="The stale page is read long after the compaction, by `read_page`, so the checksum "
            "assertion fires in an unrelated test step.",
            how_found="Pinning `CACHE_GIB=128` made it fail 7 of 20 runs; logging in `evict_range` "
            "showed the last shard never visited.",
        )

    return make
