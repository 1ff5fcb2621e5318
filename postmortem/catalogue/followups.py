"""Follow-up issues (DESIGN §4): the words that mark an action item for a new Jira issue, the slot its key goes in,
the new issue's description, and what the thread is told before approval and after the issues exist."""

from __future__ import annotations

#: `tracking` values (compared case-insensitively, surrounding spaces ignored) that ask for a new Jira issue.
TRACKING_NEW: tuple[str, ...] = ("new", "新規")

MESSAGES: dict[str, dict[str, str]] = {
    # The visible place in the comment where the key of new issue {n} goes once it exists.
    "followup_slot": {"en": "⟨new issue {n}⟩", "ja": "⟨新規課題 {n}⟩"},
    # The new issue's description: the item, then where it came from.
    "followup_from": {
        "en": "Action item of the post-mortem of {ticket}.",
        "ja": "{ticket} の事後分析のアクションアイテムです。",
    },
    "followup_owner": {"en": "Owner: {owner}", "ja": "担当：{owner}"},
    # Shown with the draft, after the comment's request body.
    "followup_bodies_shown": {
        "en": "On approval, {count} new Jira issue(s) are created first, with the request bodies in the file(s) above "
        "byte for byte; each {slot} in the comment is then replaced by its key.",
        "ja": "承認されると、まず上のファイルのリクエスト本文そのままで Jira 課題を {count} 件作成し、"
        "コメント内の {slot} をその課題キーに置き換えて投稿します。",
    },
    # Refusals before approval (the draft is not shown for approval; Edit the action items).
    "followups_refused": {
        "en": "This draft cannot be approved, because the bot could not create its follow-up issues:\n{reasons}\n"
        "Press Edit to change the action items (or their `tracking`).",
        "ja": "フォローアップ課題を作成できないため、この下書きは承認できません：\n{reasons}\n"
        "「編集」でアクションアイテム（またはその `tracking`）を変更してください。",
    },
    "followup_summary_too_long": {
        "en": "• action item {n} ({what}…): {length} characters, and a Jira summary takes at most {limit}",
        "ja": "• アクションアイテム {n}（{what}…）：{length} 文字あり、Jira の要約は最大 {limit} 文字です",
    },
    "followup_summary_newline": {
        "en": "• action item {n} ({what}…): it has a line break, and a Jira summary is one line",
        "ja": "• アクションアイテム {n}（{what}…）：改行を含みますが、Jira の要約は 1 行です",
    },
    "followup_no_permission": {
        "en": "• action item {n}: the bot's Jira account may not {permission} in project {project}",
        "ja": "• アクションアイテム {n}：ボットの Jira アカウントにはプロジェクト {project} での「{permission}」権限がありません",
    },
    "followup_permission_create": {"en": "create issues", "ja": "課題の作成"},
    "followup_permission_link": {"en": "link issues", "ja": "課題のリンク"},
    "followup_no_issue_type": {
        "en": "• action item {n}: project {project} has no issue type “{issue_type}” (POSTMORTEM_FOLLOWUP_ISSUE_TYPE)",
        "ja": "• アクションアイテム {n}：プロジェクト {project} に課題タイプ「{issue_type}」がありません"
        "（POSTMORTEM_FOLLOWUP_ISSUE_TYPE）",
    },
    "followup_slot_typed": {
        "en": "• the text {slot} is in your own words too; it marks where a new issue's key goes, so change it there",
        "ja": "• {slot} という文字列が本文にも含まれています。新しい課題キーの位置を示す文字列なので、本文側を変更してください",
    },
    "followup_unchecked": {
        "en": "• Jira could not say whether the bot may create issues in {project} ({reason})",
        "ja": "• ボットがプロジェクト {project} に課題を作成できるか Jira に確認できませんでした（{reason}）",
    },
    # After approval, Jira refused a create (or link): the approval is released, nothing is posted.
    "followup_create_refused": {
        "en": "Jira refused the follow-up issue of action item {n} ({what}): {reason}\nNothing was posted, and the "
        "approval is released; {made} of {count} issue(s) exist and are never created again. Correct the item with an "
        "`action_items: …` reply or Edit (a new version), or approve v{version} again once Jira accepts it.",
        "ja": "アクションアイテム {n}（{what}）のフォローアップ課題の作成を Jira が拒否しました：{reason}\n何も投稿しておらず、"
        "承認は取り消しました。課題は {count} 件中 {made} 件作成済みで、再作成はしません。`action_items: …` の返信か"
        "「編集」で項目を直す（新しい版になります）か、Jira 側で受け付けられるようになってから v{version} をもう一度"
        "承認してください。",
    },
    # After the issues exist, before the comment's link.
    "followups_created": {
        "en": "Created {count} follow-up issue(s), linked to {ticket}: {keys}",
        "ja": "フォローアップ課題を {count} 件作成し、{ticket} にリンクしました：{keys}",
    },
    # A create stored late made an item's issue twice (workers/followup_duplicates.py): the copy is deleted, or left.
    "followup_duplicate_removed": {
        "en": "Jira stored an earlier attempt late, so action item {n} had two follow-up issues: I deleted the extra "
        "one ({issue}). {kept}, named in the comment, is the one that stays.",
        "ja": "Jira が以前の送信を遅れて保存したため、アクションアイテム {n} のフォローアップ課題が二つありました。"
        "余分な課題（{issue}）を削除しました。コメントに記載の {kept} が残ります。",
    },
    "followup_duplicate_left": {
        "en": "Jira stored an earlier attempt late, so action item {n} has two follow-up issues, and I could not delete "
        "the extra one, {issue} ({reason}). Please delete it: {url}",
        "ja": "Jira が以前の送信を遅れて保存したため、アクションアイテム {n} のフォローアップ課題が二つあります。"
        "余分な課題 {issue} を削除できませんでした（{reason}）。削除してください：{url}",
    },
    "followup_created_item": {"en": "{issue} (action item {n})", "ja": "{issue}（アクションアイテム {n}）"},
}
