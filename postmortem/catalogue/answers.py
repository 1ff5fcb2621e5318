"""Values the bot refuses, in plain sentences rather than pydantic's: thread answers, form inputs, structure."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    # A value the model refuses (postmortem/errors.py).
    "invalid_missing": {"en": "{field} is required.", "ja": "{field} は必須です。"},
    "invalid_empty": {"en": "{field} cannot be empty.", "ja": "{field} を空にはできません。"},
    "invalid_too_long": {"en": "{field} is too long.", "ja": "{field} が長すぎます。"},
    "invalid_choice": {
        "en": "{field} must be one of: {choices}.",
        "ja": "{field} は次のいずれかにしてください：{choices}。",
    },
    "invalid_yes_no": {"en": "{field} must be yes or no.", "ja": "{field} は「はい」か「いいえ」で答えてください。"},
    "invalid_format": {"en": "{field} is not in the expected format.", "ja": "{field} の形式が正しくありません。"},
    "invalid_ticket": {
        "en": "That is not a Jira issue key: write a key like PROJ-123.",
        "ja": "Jira の課題キーではありません。PROJ-123 のようなキーを書いてください。",
    },
    "invalid_value": {
        "en": "{field} has a value the bot cannot use. Check it and send it again.",
        "ja": "{field} の値を使えません。確認してもう一度送ってください。",
    },
    # An answer read from text (postmortem/fieldtext.py).
    "answer_too_long": {
        "en": "{n} characters; at most {limit} fit here",
        "ja": "{n} 文字あります。ここに入るのは {limit} 文字までです",
    },
    "answer_empty": {"en": "the answer is empty", "ja": "回答が空です"},
    "answer_unknown_field": {
        "en": "not a field that can be set; one of: {choices}",
        "ja": "設定できる項目ではありません。次のいずれかです: {choices}",
    },
    "answer_choice": {
        "en": "{value!r} is not one of: {choices}",
        "ja": "{value!r} は次のいずれでもありません: {choices}",
    },
    "answer_yes_no": {"en": "answer yes or no", "ja": "「はい」か「いいえ」で答えてください"},
    "answer_ticket": {
        "en": "{value!r} is not a Jira issue key: expected a key like PROJ-123",
        "ja": "{value!r} は Jira の課題キーではありません。PROJ-123 のような形式で入力してください",
    },
    "answer_ticket_missing": {
        "en": "enter the Jira issue key of the bug, like PROJ-123",
        "ja": "バグの Jira 課題キーを入力してください（例: PROJ-123）",
    },
    "answer_item_parts": {
        "en": "line {line}: {parts} parts; at most 3 (what | owner | tracking), write \\| for a | inside a part",
        "ja": "{line} 行目: {parts} 個に分かれています。最大 3 個（内容 | 担当 | 追跡）です。項目内の | は \\| と書いてください",
    },
    "answer_item_what": {
        "en": "line {line}: the item itself (before the first |) is empty",
        "ja": "{line} 行目: 項目の内容（最初の | の前）が空です",
    },
    "answer_item_none": {
        "en": "line {line}: 'none' must be the only line when there are no action items",
        "ja": "{line} 行目: 「なし」は対応項目がないときに 1 行だけで書いてください",
    },
    "unknown_field": {
        "en": "`{field}` is not a field I know. Fields: {fields}",
        "ja": "`{field}` という項目はありません。項目：{fields}",
    },
    # Structure limits (postmortem/limits.py).
    "too_deep": {
        "en": "lists or quotes are nested more than {limit} levels deep; flatten them to {limit} levels or fewer",
        "ja": "リストや引用の入れ子が {limit} 段を超えています。{limit} 段以下にしてください",
    },
    "too_many_blocks": {
        "en": "more than {limit} paragraphs, list items or quotes; shorten it or attach the rest as a file",
        "ja": "段落・リスト項目・引用が {limit} 個を超えています。短くするか、残りをファイルで添付してください",
    },
}
