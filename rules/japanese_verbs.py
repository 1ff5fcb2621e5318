"""What Japanese verbs say, read by the analyser (`rules.japanese`): whether a clause has an element doing
something (a mechanism) or only a symptom, and whether a failure is said not to happen. A person named and blamed is
read by rules/japanese_blame.py.
"""

from __future__ import annotations

import re

from rules.japanese import JA_RE, Morph, analyse, near, pieces

#: Verbs that describe a failure from outside, or only link a cause to its effect: not a mechanism.
_SYMPTOM_JA = frozenset(
    {
        "落ちる",
        "止まる",
        "停止",
        "失敗",
        "発生",
        "起きる",
        "起こる",
        "クラッシュ",
        "フリーズ",
        "ハング",
        "固まる",
        "壊れる",
        "エラー",
        "例外",
        "タイムアウト",
        "引き起こす",
        "繋がる",
        "成る",
        "為る",
        "有る",
        "居る",
        "見える",
        "思う",
        "考える",
        "言う",
        "悪い",
        "異常",
        # Links between a cause and its effect: 「…によるもの」.
        "因る",
        "依る",
        "由る",
        # Resources running short or late: what is seen, not what the code does.
        "足りる",
        "不足",
        "枯渇",
        "逼迫",
        "遅延",
        "遅れる",
        "高騰",
        "上昇",
        "低下",
        "溢れる",
        "詰まる",
    }
)


_FAILURE_JA = frozenset(
    {"落ちる", "止まる", "停止", "失敗", "発生", "再発", "再現", "クラッシュ", "フリーズ", "ハング", "固まる", "壊れる"}
)


_NEGATION_HINT = re.compile("な[いくかけ]|ず|ませ|ぬ")


def failure_negated(text: str) -> str | None:
    """A failure verb negated (発生しておりません, 落ちなくなった, 再現しなかった): the failure did not happen."""
    for words in near(text, _NEGATION_HINT, before=12, after=2):
        found = _failure_negated(words)
        if found is not None:
            return found
    return None


def _failure_negated(words: tuple[Morph, ...]) -> str | None:
    for i, w in enumerate(words):
        lemma = words[i - 1].lemma if w.lemma == "為る" and i > 0 else w.lemma
        if w.pos != "動詞" or lemma not in _FAILURE_JA:
            continue
        for v in words[i + 1 : i + 6]:
            if v.pos == "助動詞" and v.lemma in ("ない", "ず", "ぬ"):
                return w.surface + v.surface
            if v.pos in ("名詞", "補助記号"):
                break
    return None


#: What the writer did to run a check, or did instead of one: running, writing or shipping is no outcome.
_DOING_JA = frozenset(
    {
        "実行",
        "再実行",
        "実施",
        "流す",
        "流し直す",
        "回す",
        "走らせる",
        "試す",
        "投入",
        "動かす",
        "行う",
        "確認",
        "検証",
        "テスト",
        "計測",
        "測定",
        "適用",
        "デプロイ",
        "マージ",
        "リリース",
        "レビュー",
        "反映",
        "ビルド",
        "見る",
        "調べる",
        "為る",
        "追加",
        "書く",
        "作成",
        "作る",
        "用意",
        "準備",
        "修正",
        "直す",
        "変更",
        "対応",
        "実装",
        "入れる",
        "置く",
        "送る",
        "依頼",
        "共有",
        "報告",
        "受ける",  # 「連絡は 3/22 に Slack で受けました」: a message received, no outcome of a check
        "貰う",
        "頂く",
        "聞く",
        "開始",
        "始める",
        "着手",
        "設定",
        "有る",
        "居る",
        "出る",
        "検出",
        "観測",
        "記録",
        "現れる",
        "見付かる",
        "残る",
        "再発",
        "思う",
        "考える",
        "言う",
        "見える",
    }
)
#: Words that make an outcome a failure however it is phrased (間違った名前が表示された, エラーが返った).
_BAD_JA = re.compile(
    # 「再現手順」「再現ケース」 name the repro, not a failure that came back.
    "間違|誤|異常|エラー|失敗|タイムアウト|クラッシュ|ハング|フリーズ|再発|再現(?!手順|ケース|環境|テスト|スクリプト|条件|コマンド|用)"
    "|不正|空|重複|二重|ずれ|遅延|例外|警告|落ち|固ま|別の|また|再び|依然|やはり"
    # Stopping is the failure unless it is what was meant to happen: 「30 回とも予定時刻に止まった」.
    "|(?<!予定時刻に)(?<!予定時間に)(?<!予定通り)(?<!予定どおり)(?<!予定通りに)(?<!正しく)(?<!正常に)(?<!所定の位置で)止ま"
    # A defect in what was made: 「全数でかすれが出た」.
    "|かすれ|掠れ|ムラ|むら|キズ|欠け|にじみ|滲み|汚れ|ノイズ|音飛び|ちらつき|歪み|ゆがみ|割れ|ひび|焦げ|剥がれ|詰まり|漏れ"
)


#: The same, for readers outside this module.
BAD_OUTCOME_JA = _BAD_JA


def completed_outcome(text: str) -> str | None:
    """A clause ending in an affirmative past outcome with its own subject, not the writer's action:
    全ジョブが 3 サイクル以内にスケジュールされた, 最後まで終わった; None for 再現手順を実行した or テストを追加した."""
    if not JA_RE.search(text):
        return None
    return _outcome(analyse(text[-_TAIL:]))  # the final predicate is all it reads


#: How much of a clause's end holds its final predicate.
_TAIL = 80


def _outcome(words: tuple[Morph, ...]) -> str | None:
    end = len(words)
    while end > 0 and (words[end - 1].pos in ("補助記号", "助詞") and words[end - 1].pos2 in ("句点", "終助詞", "*")):
        end -= 1
    tail = words[:end]
    past = [i for i, w in enumerate(tail) if w.pos == "助動詞" and w.lemma == "た"]
    if not past or past[-1] != len(tail) - 1 or any(w.lemma in ("ない", "ず", "ぬ") for w in tail[-4:]):
        return None
    start = max((i + 1 for i, w in enumerate(tail) if w.surface == "、" or w.pos2 == "接続助詞"), default=0)
    segment = tail[start:]
    verbs = [i for i, w in enumerate(segment) if w.pos == "動詞"]
    if not verbs or (any(w.surface == "を" for w in segment) and not _own_subject(segment)):
        return None  # 再現手順を実行した: the writer's action; バナーが正しい名前を表示した: an outcome
    i = verbs[-1]
    lemma = segment[i - 1].lemma if segment[i].lemma == "為る" and i > 0 else segment[i].lemma
    shown = "".join(w.surface for w in segment)
    if lemma in _DOING_JA or lemma in _SYMPTOM_JA - {"成る"} or lemma in _FAILURE_JA or _BAD_JA.search(shown):
        return None
    if lemma == "成る" and any(w.lemma in ("様", "よう") for w in segment):
        return None  # 落ちるようになった: it started failing
    return shown


_FIRST_PERSON = frozenset({"私", "僕", "俺", "我々", "私たち", "こちら", "自分", "チーム"})


def _own_subject(segment: tuple[Morph, ...]) -> bool:
    """A subject marked by が or は that is not the writer: the clause says what something else did."""
    for i, w in enumerate(segment[1:], start=1):
        if w.surface in ("が", "は") and w.pos == "助詞" and segment[i - 1].pos == "名詞":
            return segment[i - 1].surface not in _FIRST_PERSON
    return False


def action_verbs(text: str) -> list[str]:
    """Verbs (a サ変 noun with する counts as its noun) that say what something does, not how it failed."""
    found: list[str] = []
    for words in pieces(text):
        found.extend(_verbs(words))
        if found:
            break
    return found


def _verbs(words: tuple[Morph, ...]) -> list[str]:
    found: list[str] = []
    for i, w in enumerate(words):
        if w.pos != "動詞":
            continue
        lemma = w.lemma
        if lemma == "為る" and i > 0 and words[i - 1].pos in ("名詞", "接尾辞"):
            lemma = words[i - 1].lemma
        elif _names_a_thing(words, i):
            continue  # 「仕分けプロセス」: a verb's stem joined to a noun names a thing, it does nothing
        if lemma not in _SYMPTOM_JA and not _produces_symptom(words, i, lemma):
            found.append(lemma)
    return found


def acts_on(text: str) -> bool:
    """Whether a clause acts on something: a verb after its object (「ボタンを押して」「券をかざすだけ」), which a
    symptom does not have (「ナイフが 2 mm ずれる」)."""
    for words in pieces(text):
        held = False  # an object said in this clause, waiting for its verb
        for w in words:
            if w.pos == "補助記号" and w.surface in ("。", "！", "？"):
                held = False
            elif w.pos == "助詞" and w.surface == "を":
                held = True
            elif held and w.pos == "動詞" and w.lemma not in _SYMPTOM_JA:
                return True
    return False


_KATAKANA = frozenset(chr(c) for c in range(0x30A1, 0x30FB))


def _names_a_thing(words: tuple[Morph, ...], i: int) -> bool:
    """A verb with no object of its own, its stem joined to a katakana noun: 「仕分けプロセス」 (not 「データを読み込み
    キャッシュに入れる」)."""
    joined = i + 1 < len(words) and words[i + 1].pos == "名詞" and words[i + 1].surface[:1] in _KATAKANA
    return joined and not (i > 0 and words[i - 1].surface == "を")


#: Verbs that only hand out what is seen: 500 エラーを返す, 例外を投げる, 空のデータを出力する.
_PRODUCE_JA = frozenset({"返す", "出す", "投げる", "表示", "出力", "吐く", "返却", "送出", "戻す"})
_SHOWN_JA = re.compile("エラー|例外|失敗|異常|空|0件|ゼロ|間違|誤|不正|おかし|変な|古い|\\d{3}")


def _produces_symptom(words: tuple[Morph, ...], i: int, lemma: str) -> bool:
    """The verb's object (before を) is the symptom itself: producing it is no mechanism."""
    if lemma not in _PRODUCE_JA:
        return False
    start = i - 1 if words[i].lemma == "為る" else i
    before = "".join(w.surface for w in words[max(0, start - 6) : start])
    obj = before.rsplit("を", 1)
    return len(obj) == 2 and obj[1] == "" and _SHOWN_JA.search(obj[0][-8:]) is not None


#: The lexicons above, for rules/japanese_symptoms.py.
SYMPTOM_VERBS = _SYMPTOM_JA
FAILURE_VERBS = _FAILURE_JA


def produces_symptom(words: tuple[Morph, ...], i: int, lemma: str) -> bool:
    """Whether word i hands out the symptom itself (「おかしな値を返す」)."""
    return _produces_symptom(words, i, lemma)
