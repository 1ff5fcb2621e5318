"""A reference that names a problem, not the change that fixes it (docs/rules.md#a-reference-that-resolves): issue
and ticket numbers ("issue #4411", 「チケット #12」, "Redmine #8812"), and links to issues in any tracker, compares,
CI runs and pages of notes (a wiki, Confluence, a shared document). Every pattern is linear.
"""

from __future__ import annotations

import re

from rules.refs import FixRef, find_fix_refs

#: A problem report, not a change: "issue #4411", "ticket 812", 「チケット #12」.
_ISSUE_BEFORE = re.compile(
    r"(?:issues?|tickets?|bugs?|incidents?|jira|problem|redmine|backlog|youtrack|linear|bugzilla|trac|asana|trello"
    r"|zendesk|servicenow|チケット|課題|イシュー|不具合)(?:管理(?:システム)?の?|トラッカーの?)?\s*(?:no\.?\s*)?$",
    re.I,
)


#: The reference called an issue just after it: "#4411 (the crash report issue)", 「#4411 で対応済み（…の issue）」.
_ISSUE_AFTER = re.compile(
    r"^\s+(?:in|on) the [\w-]+ (?:tracker|backlog)\b"
    # "#4411 (the lockout issue)", 「#4411⏎（…不具合の issue）」: a note after it says it is the problem's issue.
    r"|^\s*[^.;。\n#]{0,30}?[(（][^)）]{0,80}?\b(?:issue|ticket|bug report)s?\b(?!\s*[#\d])|^[^#\n]{0,30}?(?:イシュー"
    r"|課題)(?:[)）]|$)",
    re.I,
)


def only_issues(text: str) -> str | None:
    """The words of the first reference when every reference in the text names an issue, not a fix."""
    refs = [ref for ref in find_fix_refs(text) if not names_the_repo(text, ref) and not _a_label(text, ref)]
    if not refs or any(ref.kind not in ("pr", "repo_pr", "url") and _as_url(ref) is None for ref in refs):
        return None
    for ref in refs:
        if (url := _as_url(ref)) is not None:
            if _NOT_A_CHANGE_URL.search(url) is None:
                return None
            continue
        at = text.find(ref.text)
        after = text[at + len(ref.text) : at + len(ref.text) + 70] if at >= 0 else ""
        if at < 0 or (_ISSUE_BEFORE.search(text[max(0, at - 14) : at]) is None and _ISSUE_AFTER.search(after) is None):
            return None
    return refs[0].text


def _a_label(text: str, ref: FixRef) -> bool:
    """ "label `bug/tide`", 「ラベルは `bug/tide`」: an issue's label, not a branch."""
    at = text.find(ref.text)
    return ref.kind == "branch" and at > 0 and _LABEL_BEFORE.search(text[max(0, at - 16) : at]) is not None


_LABEL_BEFORE = re.compile(r"(?:\blabel(?:led|ed)?(?: as)?|\btagged|ラベル(?:は|が|に)?)\W{0,3}$", re.IGNORECASE)


def names_the_repo(text: str, ref: FixRef) -> bool:
    """ "#4411 in acme/arm_bringup", "#4411 (acme/arm_bringup)": the owner/repo a number lives in, not a branch."""
    at = text.find(ref.text)
    after = text[at + len(ref.text) : at + len(ref.text) + 12] if at >= 0 else ""
    return ref.kind == "branch" and (
        (
            at > 0
            and re.search(r"\b(?:in|of|on|at|from)\s+`?$|#\d+\s*[(（]\s*`?$", text[max(0, at - 14) : at]) is not None
        )
        or _REPO_OF_JA.match(after) is not None  # 「`ims/pcscf` の Issue #4411」
    )


_REPO_OF_JA = re.compile(r"`?\s*の\s*(?:issue|イシュー|チケット|課題|pr\b|プルリク|#)", re.IGNORECASE)


def merge_target(text: str, ref: FixRef) -> bool:
    """ "(merged to release/9.4)": the branch a change went into, which names no change beside a placeholder."""
    at = text.find(ref.text)
    before = text[max(0, at - 24) : at]
    return ref.kind == "branch" and at > 0 and _INTO.search(before) is not None


_INTO = re.compile(
    r"\b(?:merged|landed|cherry-picked|picked|backported|went)\s+(?:in|into|to)\s+(?:the\s+)?`?$"
    # "target branch: `release/2.4`", 「対象ブランチは `release/2.4`」: where the change goes, not the change.
    r"|\b(?:target|base|merge)[- ]branch(?:\s+is|\s*:)?\s*`?$"
    r"|(?:対象|マージ先|ベース|取り込み先|向け先)の?\s*ブランチ\s*(?:は|:|：)?\s*`?$|マージ先\s*(?:は|:|：)\s*`?$",
    re.I,
)


#: A host and a path with no scheme, read as a branch name: "git.example/gate/ocr-svc/compare/a...b".
_HOST_PATH = re.compile(r"^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}/", re.IGNORECASE)


def _as_url(ref: FixRef) -> str | None:
    """The reference as a link: a URL, or a host and path written without its scheme."""
    if ref.kind == "url":
        return ref.text
    return f"https://{ref.text}" if ref.kind == "branch" and _HOST_PATH.match(ref.text) else None


#: A link to a problem report or a build, not to a change: an issue (GitHub, GitLab, Bitbucket, Jira), a compare
#: of two branches, a CI run or pipeline.
_NOT_A_CHANGE_URL = re.compile(
    r"^https?://[^/\s]+(?:/[^?#\s]*)?/(?:(?:-/)?issues/\d+|browse/[A-Z][A-Z0-9_]+-\d+|actions/runs/\d+"
    r"|-/(?:pipelines|jobs)/\d+|(?:builds?|pipelines?|runs?|jobs?|workflows?)/\d+|job/[^/\s]+/\d+|_build/\S*)(?:[/?#]\S*)?$"
    # A CI server's own host: "https://ci.hutnet.example/relay/…", "https://jenkins.example.com/…".
    r"|^https?://(?:ci|jenkins|buildkite|circleci|travis|drone|teamcity)[.-]\S*$"
    # A compare of two branches, whatever follows it: "…/compare/main...mk/physics-substep".
    r"|^https?://[^/\s]+(?:/[^?#\s]*)?/(?:-/)?compare/\S*$"
    r"|^https?://[^/\s]+/\S*[?&]selectedIssue=[A-Z][A-Z0-9_]+-\d+"
    # Other trackers' issues and stories: Linear, Shortcut, YouTrack, Azure Boards, Redmine, Trac, Bugzilla.
    r"|^https?://(?:linear\.app/[^/\s]+/issue|app\.shortcut\.com/[^/\s]+/story|[^/\s]+/youtrack/issue"
    r"|[^/\s]+/(?:_workitems/edit|work_packages)|[^/\s]+/(?:redmine/)?issues|[^/\s]+/ticket)/[\w-]+(?:[/?#]\S*)?$"
    r"|^https?://[^/\s]+/show_bug\.cgi\?id=\d+$"
    r"|^https?://[^/\s]+/view/[A-Z][A-Z0-9_]+-\d+(?:[/?#]\S*)?$"
    # A page of notes, not the change: a wiki, Confluence, a shared document.
    r"|^https?://(?:wiki|confluence|docs\.google|notion)[.-]\S*$|^https?://(?:www\.)?notion\.so/\S*$"
    r"|^https?://[^/\s]+(?:/[^?#\s]*)?/(?:wiki|display|pages/viewpage\.action|spaces/[^/\s]+/pages)(?:[/?#]\S*)?$",
)
