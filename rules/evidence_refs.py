"""A fix reference resolves: it names a PR, commit or branch that exists and can be opened now, not one to be
opened, cut or pushed, and not one that lives only on the author's machine (docs/rules.md#a-reference-that-resolves).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache, lru_cache

from rules import reading
from rules.english_modality import close_aside
from rules.evidence_asides import bracket_around
from rules.evidence_issues import merge_target, names_the_repo, only_issues
from rules.evidence_ref_words import DEAD, INTRODUCED, NO_FIX_CHANGE, NO_PR, NOT_A_SHA, UNPUBLISHED, cut_later
from rules.evidence_words import search
from rules.refs import FixRef, find_fix_refs

Finding = tuple[str, str]

#: The fix already in: merged, landed, committed (not "will be merged", which `reading.read` refuses).
_MERGED = re.compile(
    r"(?<!never )(?<!not )\b(?:already |been )?(?:merged|landed"
    r"|committed(?! (?:on|to|in) my\b| locally\b| local\b))\b"
    r"|マージ(?:済み?|され(?:た|ました|ています))|取り込み済み"
    # Published now, whatever it was before: "it's pushed to origin/main now", 「プッシュ済み」.
    r"|\b(?:it's|it is|is|was|been|now) (?:now )?pushed\b|\bpushed (?:to \S+ )?now\b|(?:プッシュ|push)済み|\(pushed\b"
    r"|\bpushed (?:it )?to (?:origin|upstream|the remote)\b|(?:に|へ)\s*(?:push|プッシュ)\s*しました"
    r"|\bapplied (?:to|in) (?:net-next|net|mainline|main|master|trunk|the tree|\S+/\S+)\b",
    re.IGNORECASE,
)

_NOTHING_PENDING = re.compile(r"\bnothing\b[^.;:]{0,30}?\b(?:is|remains)\s+(?:still\s+)?(?:pending|open|to do)\b", re.I)


def ref_pending(text: str) -> Finding | None:
    """A reference resolves when one clause names it plainly and nothing else in the text says it exists only
    locally or is not pushed yet; "to be opened", "local only", "on my laptop", 予定 do not."""
    if (issue := only_issues(text)) is not None:
        return ("not_a_change", issue)  # an issue names the problem; the fix is a PR, a commit or a branch
    if (culprit := INTRODUCED.search(text)) is not None and len(find_fix_refs(text)) == 1:
        return ("not_a_change", culprit.group(0))  # "The regression came in with pull/2290": the cause, not the fix
    text = _NOTHING_PENDING.sub(" ", text)  # "Nothing about this is still pending: …": pending denied
    refs = cache(find_fix_refs)  # each clause's references, found once (a pasted list can hold thousands)
    why: Finding | None = None
    plain: set[tuple[int, int]] = set()  # the clauses (sentence, clause) that name a reference plainly
    dead_refs: set[str] = set()  # references said to be closed, abandoned or declined
    published = _PUBLISHED_NOW.search(text)
    if published and refs(text) and not DEAD.search(text) and not _NEGATED_PUSH.search(close_aside(text)):
        return None  # 「ローカルのみだったコミットを昨日 push しました」: published now, whatever it was before
    sentences = reading.by_sentence(text)
    clauses = [c for _s, parts in sentences for c in parts]
    if (push_later := _push_still_to_come(clauses) or cut_later(text)) is not None and not _LANDED.search(text):
        return ("ref_pending", push_later)  # "Branch `fix/x` is cut and committed; I'll push it once the VPN is back"
    if any(_MERGED.search(c) and refs(c) and reading.read(c) is None and _unpublished(c) is None for c in clauses):
        return None  # "!338 was closed without merging; !342 is the one that landed": the landed one resolves
    previous = ""  # the clause before, across a line break: "Patch sets 1 and 2 were⏎an abandoned approach"
    for s, (_sentence, parts) in enumerate(sentences):
        for i, clause in enumerate(parts):
            before, previous = previous, clause
            # "An earlier change, 20390, was abandoned …", "Patch sets 1 and 2 were⏎an abandoned approach": history.
            earlier_one = _EARLIER_ONE.search(clause) or (not refs(clause) and _EARLIER_ONE.search(before))
            if earlier_one and _named_elsewhere(text, clause, refs):
                continue
            if _MERGED.search(clause) and reading.read(clause) is None and _unpublished(clause) is None:
                return None  # "…既にマージ済み": whatever is still to come, the fix is in (not "committed on my PC")
            if (dead := DEAD.search(clause)) is not None:
                new = _SUPERSEDES.search(clause, 0, dead.start())  # "superseded" after "closed": the dead one's
                if new is not None and refs(clause[: new.start()]):
                    plain.add((s, i))  # "pull/512 (supersedes #498, which was closed …)": #512 is the fix
                    continue
                aside = bracket_around(clause, dead.start())  # 「pull/1301 です（#1290 はクローズ…）」
                if (
                    aside
                    and (in_it := refs(clause[aside[0] : aside[1]]))
                    and refs(clause[: aside[0]] + clause[aside[1] :])
                ):
                    dead_refs.update(r.text for r in in_it)  # only the reference in brackets is dead
                    plain.add((s, i))
                    continue
                earlier = i > 0 and bool(refs(parts[i - 1]))
                if refs(clause) or (i > 0 and _SUPERSEDES.search(parts[i - 1])) or earlier:
                    # "#398 was closed", 「最初は #74 で回避策を入れましたが、…クローズしました」: that reference is
                    # dead, another in the text may not be.
                    why = why or ("ref_pending", dead.group(0))
                    if earlier:
                        plain.discard((s, i - 1))
                    dead_refs.update(r.text for c in parts[max(0, i - 1) : i + 1] for r in refs(c))
                    continue
                return ("ref_pending", dead.group(0))  # "PR #2290 / closed without merging, we went another way"
            if _ELSEWHERE.search(clause) and not refs(clause):
                continue  # "the follow-up refactor will be opened next sprint": another piece of work
            if (local := _unpublished(clause)) is not None and not _under_review(
                clause, local, any(r.kind != "branch" for r in refs(text))
            ):
                return ("ref_pending", local)
            if not refs(clause):
                if NO_PR.search(clause) and _a_commit(text, refs):
                    continue  # 「r20417 で trunk にコミット済み。…PR はありません」: the commit is the reference
                if (none := NO_FIX_CHANGE.search(clause)) is not None:
                    return ("no_ref", none.group(0))  # 「修正そのものの PR はありません。参考として…」: another change
                if not _AWAITING.search(clause):
                    why = why or reading.not_done(clause)
                continue  # "PR #5120 - open, waiting on a second reviewer, not merged yet": still a reference
            found = reading.not_done(clause) or reading.modality(clause)
            if found is not None and found[0] == "planned" and _ABANDONED.search(clause):
                found = None  # 「別の PR を作成予定でしたが取りやめ、既存の PR #598 に含めました」: a plan dropped
            if found is not None and _AWAITING.search(clause) and any(r.kind != "branch" for r in refs(clause)):
                found = None  # "#77, ready for review, not merged yet": an open PR exists and can be opened now
            elif found is None and _bare(clause):
                # "#4480, will open it": a reference with no verb of its own is what the next clause says of it
                found = next(
                    (f for c in parts[i + 1 :] if not _AWAITING.search(c) and (f := reading.not_done(c)) is not None),
                    None,
                )
            if found is None:
                if not all(r.text in dead_refs for r in refs(clause)):
                    plain.add((s, i))  # not 「差分自体は !118 で見られます」 once !118 was closed: still the dead one
                continue
            why = why or found
    # "The change was in PR #72. … so PR #72 was closed without merging": named plainly, then said dead, is dead.
    if any(not all(r.text in dead_refs for r in refs(sentences[s][1][i])) for s, i in plain):
        return None
    if plain and why is None:
        gone = min(dead_refs, default="")
        return ("ref_pending", gone) if gone else None
    return ("ref_pending", why[1]) if why else None


#: Pushed, in the past tense: 「…を昨日 push しました」, "pushed it to origin".
_PUBLISHED_NOW = re.compile(
    r"(?:push|プッシュ)\s*(?:しました|済み?|して(?:あ(?:ります|る|り)|(?:い|お)(?:ます|る)|おり(?:ます)?)"
    r"|した(?:ので|から|ため|あと|後))(?!か)"
    r"|\bpushed (?:it )?to (?:origin|upstream|the remote)\b|\bit went up (?:on )?(?:\w+day|yesterday|this morning)\b"
    r"|(?:後に|その後|それから)[^。]{0,10}?(?:コミット|マージ)(?:しました|済み)"  # 「…レビュー後にコミットしました」
    # 「昨日 origin に push し、PR #143 を作成しました」: pushed, then the PR opened.
    r"|(?:push|プッシュ)\s*(?:し[、,]|して(?!い(?:ない|ません)|な))(?:https?://[^\s（）()]+|[^。]){0,40}?(?:ました|済み)"
    r"|\bpushed (?:as \S+ )?(?:on|to) (?:origin|upstream|the remote|github|gitlab)\b"
    r"|(?<!nothing )\b(?:has|have) been pushed\b|\b(?:was|got) pushed (?:since|on|yesterday|last|this)\b"
    r"|(?:今は|現在は|いまは)\s*(?:origin|リモート|GitHub|GitLab|サーバ)[^。]{0,12}?(?:開け|あり|見られ|参照でき|取得でき)"
    # "It was a local commit until Tuesday; it is pushed now", 「今は origin から開けます」.
    r"|(?<!\bonce )(?<!\buntil )(?<!\bwhen )(?<!\bafter )(?<!\bif )\b(?:it|this|which|the (?:commit|change|branch))"
    r" is (?:now pushed|pushed now)\b"
    # "it has been on `origin/release-7` since Monday": on the remote now, whatever it was before.
    r"|\b(?:has\s+been|is\s+now|now\s+lives|is)\s+on\s+`?(?:Q|origin[^\s`]*|upstream[^\s`]*|the remote)`?"
    r"(?:\s+since\b|\s*(?:now\b|$|[.;]))",
    re.I,
)
#: Publishing denied: "has not, as of this morning, been pushed to the remote" (the aside taken out first).
_NEGATED_PUSH = re.compile(r"\b(?:has|have|had)(?: not|n't) (?:yet )?been pushed\b", re.IGNORECASE)
#: A pull request open and waiting: not merged yet is not "not there yet" (verification is the validation's job).
_AWAITING = re.compile(
    r"\bnot (?:yet )?(?:merged|submitted)\b|\bunmerged\b"
    r"|\b(?:awaiting|waiting for|ready for|in|under) (?:code )?review\b"
    r"|\bwaiting (?:on|for) (?:a |the )?(?:\w+ )?reviewers?\b"
    r"|\bawaiting (?:merge|approval)\b|未マージ|マージ(?:前|待ち)|レビュー(?:待ち|中)",
    re.IGNORECASE,
)
#: A clause about another piece of work than the fix: a follow-up, a refactor, a backport, docs.
_ELSEWHERE = re.compile(
    r"\b(?:follow-?ups?|separate|another|refactor\w*|clean-?ups?|docs?|documentation|backports?|tests? for)\b"
    r"|別(?:の|途|チケット|PR|件)|リファクタ|フォローアップ|追加対応|ドキュメント|後続|配布|展開|デプロイ|リリース"
    r"|\b(?:roll(?:ing)?[- ]?out|deploy\w*|distribut\w*)\b",
    re.IGNORECASE,
)


def _under_review(clause: str, word: str, change_named: bool) -> bool:
    """ "Gerrit change …/+/20417. It is open, not submitted yet": submitting is Gerrit's merge, and an open change
    named by its URL or number (`change_named`) is a reference, waiting on review."""
    submitted = re.search(r"submit", word, re.IGNORECASE) is not None
    return submitted and change_named and _AWAITING.search(clause) is not None


def _unpublished(clause: str) -> str | None:
    # "isn't, as of this morning, on the server yet": the aside taken out of the negation. 「push して」 alone is a
    # step, not "not pushed": the lexicon's push needs its negation (rules/evidence_ref_words.py).
    return search(UNPUBLISHED, clause) or search(UNPUBLISHED, close_aside(clause))


#: A reference that replaces another: "(supersedes #498, which was closed without merging)": the dead one is the other.
_SUPERSEDES = re.compile(r"\b(?:supersed\w*|replac\w*|instead of)\b|(?:の)?(?:代わり|置き換え|後継)", re.IGNORECASE)
#: Publishing the work, said of what is still to come: "I'll push it tonight", 「あとで push します」.
_PUSH = re.compile(r"\bpush(?:ed|ing)?\b|プッシュ|(?<![A-Za-z])push", re.IGNORECASE)
#: In the shared history for good, which a push still to come cannot undo: merged, landed.
_LANDED = re.compile(r"\b(?:merged|landed)\b|マージ(?:済み?|され)", re.IGNORECASE)
#: A plan given up: 「予定でしたが取りやめ」, "had planned a new PR but dropped it".
_ABANDONED = re.compile(
    r"取りやめ|取り止め|やめ(?:て|ました|た)|中止|見送"
    r"|\b(?:instead|dropped (?:it|that|the plan)|abandoned|gave up on)\b",
    re.IGNORECASE,
)


def _push_still_to_come(clauses: list[str]) -> str | None:
    """The words of a clause saying the work is still to be pushed ("I'll push it tonight", 「あとで push します」),
    not one waiting on review ("pushed, not merged yet")."""
    for clause in clauses:
        if _PUSH.search(clause) and not _AWAITING.search(clause) and (later := reading.not_done(clause)) is not None:
            return later[1]
    return None


def _named_elsewhere(text: str, clause: str, refs: Callable[[str], list[FixRef]]) -> bool:
    """Whether the text names a reference outside `clause` (or a revision with where it lives): each text's references
    are found once, so a paste of many such clauses stays linear."""
    every = refs(text)
    if len(set(every)) > len(set(refs(clause)) & set(every)):
        return True
    return _revision_with_its_place(text) and not _revision_with_its_place(clause)


#: Another reference than the fix, said to come before it: "an earlier change", "a previous attempt", 「以前の PR」.
_EARLIER_ONE = re.compile(
    r"\b(?:an? |the )?(?:earlier|previous|prior|older|first|original) (?:change(?: ?list)?|attempt|try|pr|mr|cl"
    r"|patch(?:set)?|shelf|shelve|version|branch|pull request|merge request)\b"
    r"|\bwas an? (?:earlier|previous|first) attempt\b"
    # "Patch sets 1 and 2 were an abandoned approach; read patch set 3": the change's own history.
    r"|\bpatch ?sets? \d+(?:\s*(?:,|and|&)\s*\d+)*\s+(?:was|were)\b"
    r"|(?:以前|前回|最初|先|(?<![\u4e00-\u9fff])前)の(?:\s*shelved\s*)?(?:PR|MR|CL|変更|修正|試み|ブランチ|プルリク|チェンジリスト)",
    re.IGNORECASE,
)


def _a_commit(text: str, refs: Callable[[str], list[FixRef]]) -> bool:
    """Whether the text names a commit, a change or a revision with where it lives."""
    return any(r.kind in ("commit", "change") for r in refs(text)) or _revision_with_its_place(text)


def _bare(clause: str) -> bool:
    """A clause that only names a reference: "#4480", "branch `fix/x`", 「MR !842」."""
    return len(re.findall(r"[A-Za-z]{2,}|[\u3040-\u30ff\u4e00-\u9fff]+", clause)) <= 2


_PLACEHOLDER_TOKEN_RE = re.compile(
    r"\b(?:tbd|tbc|tba|todo|fixme|xxx+)\b|\?{2,}|#\?+|<[^<>\n]{1,40}>|\[(?:link|url|pr|todo|tbd)\]|未定|未記入",
    re.IGNORECASE,
)
_FAKE_REF_RE = re.compile(
    # The last part of a path: `fix/TBD`, `pull/XXX`; a first part with more after it is a namespace (`todo/dst-slot`).
    r"(?:^|[/#!=:])(?:tbd|tbc|tba|todo|fixme|x{2,}|n{2,}|\?+|placeholder|pending|unknown|later|none|wip|0+)"
    r"(?=$|/$|/[/#!:?（(]|[#!:?（(])|/(?:pull|pulls|merge_requests|commit|commits|tree|compare)/?$|<[^<>\s]{1,40}>"
    # A number that is not digits, a SHA that is not hex: `pull/○○○`, `merge_requests/NNN`, `commit/<sha>`.
    r"|/(?:pull|pulls|merge_requests|pull-requests|issues|changes|diffs?|requests)/(?!\d+(?:$|[/#?.]))(?:[^/#?\s]+|#+)"
    r"|/commit/(?![0-9a-f]{7,40}(?:$|[/#?.]))[^/#?\s]+",
    re.IGNORECASE,
)
#: A Subversion revision named with its repository or branch: "r48213 on trunk", "revision 48213 of svn://…".
_SVN_REVISION = re.compile(r"\br\d{3,9}\b|\brevision \d{3,9}\b|リビジョン\s*\d{3,9}", re.IGNORECASE)
_SVN_PLACE = re.compile(r"\bsvn\b|svn://|\btrunk\b|\bbranches/", re.IGNORECASE)
#: A Perforce change, named with its depot or the tool: "change list 884213", "CL 884213 in //depot/…".
_P4_CHANGE = re.compile(
    r"(?:\b(?:change ?list|changelist|CL|change)|変更リスト|チェンジリスト|変更番号)\s*#?\s*\d{3,9}\b", re.IGNORECASE
)
_P4_PLACE = re.compile(
    r"\bperforce\b|\bp4\b|\bhelix\b|\bgerrit\b|(?<![:\w/])//[\w-]+/|\bsubmitted\b|サブミット|submit\s*済", re.IGNORECASE
)


@lru_cache(maxsize=64)
def _revision_with_its_place(text: str) -> bool:
    """A Subversion revision or a Perforce change named with where it lives ("r48213 on trunk", "change list
    884213 in //games/…"): a commit of those systems, which `find_fix_refs` does not name on its own."""
    return bool(
        (_SVN_REVISION.search(text) and _SVN_PLACE.search(text)) or (_P4_CHANGE.search(text) and _P4_PLACE.search(text))
    )


_REF_SHAPED_RE = re.compile(r"[/#!]|^https?:", re.IGNORECASE)


def fix_ref(text: str) -> Finding | None:
    """A real reference, and no reference-shaped placeholder (`fix/TBD`, `pull/XXX`, `#???`) beside it."""
    if (fake := NOT_A_SHA.search(text)) is not None:
        return ("placeholder", fake.group(2))  # "Landed as commit `abc123xyz`": no commit has that name
    refs = find_fix_refs(text)
    real = [
        r for r in refs if not _FAKE_REF_RE.search(r.text) and not names_the_repo(text, r) and not merge_target(text, r)
    ]
    for token in () if real else text.split():  # a fake beside a real reference is an old name, not the answer
        token = token.strip("`'\"()[]{},.;:")
        if _REF_SHAPED_RE.search(token) and _FAKE_REF_RE.search(token):
            return ("placeholder", token)
    if refs or _revision_with_its_place(text):
        return ref_pending(text)  # published, or what says it is not (shelved, local, still to come)
    shown = _PLACEHOLDER_TOKEN_RE.search(text)
    return ("placeholder", shown.group(0)) if shown else ("no_ref", _clip(text))


def _clip(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
