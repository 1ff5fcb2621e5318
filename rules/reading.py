"""How a clause is meant, in either language: a plain statement of what was done or is so, or someone
else's word (hearsay), an appearance or a conjecture, an action not done or only planned, or watching in
place of checking. The gate believes only the plain statements (docs/rules.md#four-inputs-or-no-post-mortem).
"""

from __future__ import annotations

import re
from functools import lru_cache

from rules import english, english_modality, japanese
from rules import evidence_words as words
from rules.english_modality import APPEARANCE, CONJECTURE, HEARSAY
from rules.evidence_rejected import rejects
from rules.evidence_spec import norm_cited, norm_cited_ja, reported_no_fact
from rules.evidence_words import any_of
from rules.japanese_promise import expectation, not_yet, promise
from rules.japanese_watch import names_a_thing
from rules.textmask import has_words, sentences

Reading = tuple[str, str]

_JA_CLAUSE_RE = re.compile("(?<=が、)|(?<=けど、)|(?<=けど)(?!、)|(?=しかし)|(?<=ですが)|(?<=一方、)")

#: Japanese: an action not done (未検証, 試していません, していない) or a plan.
_NOT_DONE_JA = any_of(
    "(?<!では)(?<!には)未(?:検証|確認|テスト|実施|実行|計測|作成|プッシュ|着手|対応)(?![\u30a0-\u30ff\u4e00-\u9fff])"
    # 「未確認なら解錠要求を捨てる」: a state the code tests, not a check not done.
    "(?!\\s*(?:なら|の場合|のとき|の時|だと|であれば))",
    "(?:確認|検証|テスト|試験|実験|実行|実施|計測|測定|作成|プッシュ|試)(?:は|も)?(?:特に|まだ|一度も)?"
    # Not ずれ (a drift) after して: 「200 回実行してずれは 0 回」.
    "(?:して|し|でき|され)(?:て)?(?:い|お)?(?:ない|ません|らず|ず(?!れ))(?!と|なら|場合|とき|時)",
    "(?:試|作|書|回|走らせ|流)(?:して|って|いて|して)(?:い|お)?(?:ない|ません|らず)",
    "(?:できていません|できていない)",
    "(?:数え|測っ|計っ|記録し|ログを取っ|控え)て(?:い|お)?(?:ない|ません|らず)",
    # 「確認は行っていない」「実験は行わなかった」: the doing itself negated.
    "(?:確認|検証|テスト|試験|実験|計測|測定|再現)(?:は|も|を)?(?:特に|まだ|一度も)?(?:行|おこな)"
    "(?:って(?:い|お)?(?:ない|ません|らず)|わ(?:ない|なかった|ず)|いません)",
)
#: English: an experiment still going, or a report promised with the subject left out ("…, will update").
_ONGOING_EN = any_of(
    r"\bstill (?:running|going|in progress|underway|bisecting|building|pending|being (?:run|built|set up|bisected))\b",
    r"\b(?:at|on|reached|now at|currently at) step \d+ of \d+\b",
    # A check promised with the subject left out: "…, will confirm"; "will update" alone shows nothing done either.
    r"(?:^|[,;(]\s*|\band\s+)will (?:\w+ )?(?:confirm|check|verify|measure|re-?run|re-?test|try)\b",
    # "once the env is free we re-run it": the writer's own check, waiting on a condition.
    r"\bonce (?:the |a |an |our )?[\w-]+(?: [\w-]+)? (?:is|are|gets?|comes?) (?:free|available|back|up|ready)\b"
    r"[,]?\s+(?:we|i)\b",
    flags=re.IGNORECASE | re.ASCII,
)
_WHILE_EN = re.compile(r"\b(?:while|when|whenever|as long as|because|since|if)\b", re.IGNORECASE)
#: A hedged reading given as the cause: "at least that's my read", "it fits the stack", "lines up with the timing".
_HEDGED_READING_EN = any_of(
    r"\b(?:that's|that is|this is) (?:just )?(?:my|our) (?:read|reading|take|guess|theory|interpretation)\b",
    # Said as the whole support, with no subject but "it": "…, it fits the stack"; "lines up with the timing".
    r"(?:^|[,;:]\s*)(?:it |which )?(?:fits|lines up with) the (?:stack|logs?|timing|traces?|graphs?)\b",
    r"\b(?:haven't|have not|didn't|did not) (?:yet )?(?:caught|seen|observed) it in\b",
    r"\beverything points (?:at|to)\b|\bonly (?:explanation|story|theory|reading|thing) that (?:fits"
    r"|matches|explains)\b"
    r"|\bour best (?:explanation"
    r"|guess|theory)\b",
    flags=re.IGNORECASE | re.ASCII,
)
_HEDGED_READING_JA = any_of("(?:私|僕|自分)の(?:読み|見立て|解釈)(?:では|だと|です)", "辻褄が合")
#: Japanese hearsay said in words, not by an auxiliary: QA曰く, …と聞いた, …との報告.
_HEARSAY_JA = any_of(  # also someone's written word (「…と書かれていた」), not code's or a device's value
    "曰く|模様(?:です|だ|。|$)",
    # 「QA チームから…と連絡をもらいました」「顧客からの報告では」: someone else's message.
    "(?:から|より)[^。]{0,160}?(?:と|って)(?:の)?(?:連絡|報告|共有|話|指摘|回答|返信)(?:を|が)?(?:もらい|もら|受け|あり|いただ|受領|来)",
    "(?:から|より)(?:の)?(?:連絡|報告|共有|回答)(?:で|によると|では|によれば)|(?<=[たいず])と(?:の)?報告を(?:受け|もらっ|いただ)",
    # The quote, then who sent it: 「…固まらなかった、と QA チームから連絡をもらいました」.
    "(?<=[、たいすずぬ])\\s?(?:と|って)\\s*[^。、]{0,30}?(?:から|より)(?:の)?(?:連絡|報告|共有|回答|返信)(?:を|が)?"
    "(?:もらい|もら|受け|あり|いただ|受領|来)",
    "(?:と|って)(?:[^。]{0,30}?から)?聞(?:いた|きました|いて(?:い|お)(?:ます|る))",
    "いわく",
    "(?:と|って)聞(?:いた|いて|きました|いています)",
    "との(?:報告|連絡|話)",
    "(?:QA|サポート|顧客|お客様|ベンダー|担当者?|ユーザー?)(?:の)?談|(?:チーム|さん|担当者?|グループ|班)(?:の環境で|が)[^。]{0,40}?(?:実行|再現|実施|流|回|試)[^。]{0,60}?(?:され|確認されて)",
    "(?<![0-9A-Za-z])(?<![0-9A-Za-z] )(?<!Q  )(?:と|って)"
    "(?:書かれ|記載され|報告され|言われ|書き込まれ|投稿され|指摘され)",
    # Not 「条件を `pv > sv - 0.5` と書いている」: the code's own text.
    "(?<!Q  )(?<!Q )(?<!Q)(?:と|って)書いて(?:あ|い)|(?:と|って)[^。、]{0,20}?(?:報告書|資料|日報)に(?:記載|書かれ)",
    # 「保守担当の方が…毎回フリーズすると報告してくれています」: someone else's report, kindly passed on.
    "(?:と|って)(?:報告|連絡|共有|説明)(?:して|し)(?:くれ|もらっ|いただ)",
    "との(?:書き込み|投稿|記載|指摘|レビュー)",
)
#: Japanese: watching instead of checking.
_WATCHING_JA = any_of(
    # 「監視ツールのエージェントを停止して」: the monitoring tool is the thing changed, not a way to check.
    "監視(?!ツール|エージェント|対象|用|系|プロセス|サーバ|基盤|デーモン|(?i:agent))",
    "ダッシュボード",
    "(?i:watch|monitor)\\s*(?:して|する|中|し)",
    "グラフ",
    "様子(?:を)?見",
    "経過観察",
    "モニタリング",
    "今のところ",
    # A production dashboard read, not a check run: 「本番の Grafana でエラー率が 0 のまま」.
    "(?i:grafana|datadog|kibana|sentry|cloudwatch|prometheus|new relic)[^。、]{0,20}?(?:上|の画面)?"
    "(?:で|では|を見|\\s*見)",
    # 「アラートは一回も出てないです」: the quiet after a deploy.
    "(?:アラート|警告|エラー)(?:は|が)?(?:一回|一度|1\\s*回|1\\s*件)?も(?:出て|鳴って|上がって|来て)(?:い)?(?:ない|ません)",
    # The code read again: 「遷移表を読み直し…確認済み」 (not 「…を毎回読み直すように変更した版」, the code's doing).
    "読み直(?!す(?:ように|よう|版|処理))|読み返(?!す(?:ように|よう))|(?:コード|ソース|実装)を(?:読ん|読み)",
    # A profile read: 「ヒーププロファイルで…を確認」 (not 「storm3 プロファイルで 200 回回して」, a workload profile).
    "(?<![A-Za-z0-9_] )(?<![A-Za-z0-9_])(?<!\\d )(?:プロファイル|プロファイラ|ヒストグラム|トレース|フレームグラフ)"
    "(?:の結果)?(?:で|では|を見)(?![^。、]{0,12}?\\d+\\s*回)",
    "(?:エラー率|失敗率|件数|アラート)(?:が|は)?\\s*[0０](?:\\s*%)?\\s*のまま",
    "(?:アラート|再発|苦情|報告)(?:は|が|も)?(?:なし|無し|出て(?:い)?(?:ない|ません)|ありません|していない|していません)",
    "(?:アラート|再発|苦情|報告|問い合わせ)(?:は|が|も)?\\s*(?:0|０|ゼロ)\\s*件",
    # 「アラートは一件も上がっていません」「エラーは一度も出ていない」: the quiet after a deploy.
    "(?:アラート|再発|苦情|報告|問い合わせ|エラー|障害)(?:は|が|も)?\\s*(?:一件も|1\\s*件も|一度も|ひとつも|一つも)?"
    "(?:上がって|鳴って|出て|来て|起きて|発生して)(?:い)?(?:ない|ません)",
)


def search(pair: tuple[re.Pattern[str], re.Pattern[str]], text: str) -> str | None:
    """The first phrase of either language's pattern."""
    for pattern in pair:
        if (m := pattern.search(text)) is not None:
            return m.group(0)
    return None


def clauses(sentence: str) -> list[str]:
    """The clauses of a sentence, in either language."""
    out: list[str] = []
    for part in english.clauses(sentence):
        out.extend(p for p in _JA_CLAUSE_RE.split(part) if p.strip())
    return out


@lru_cache(maxsize=256)
def by_sentence(masked: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Each sentence of a masked text with its clauses."""
    return tuple((s, tuple(clauses(s))) for s in sentences(masked))


@lru_cache(maxsize=512)
def all_clauses(masked: str) -> tuple[str, ...]:
    """Every clause of a masked text, sentence by sentence."""
    return tuple(c for _, parts in by_sentence(masked) for c in parts)


#: Text the code itself carries, read by the author: 「ソースコメントに『…』と書かれている」「ログに…と出力され」.
_CODE_WORDS_JA = re.compile(
    "(?:ソース|コード|ソースコード)?(?:の)?コメント(?:に|では|には)|(?:ログ|エラーメッセージ|README|docstring|ヘッダー?)"
    "(?:に|では|には)"
)


def _english(pattern: re.Pattern[str], clause: str) -> re.Match[str] | None:
    """An English pattern's match, skipped on a clause without a word."""
    return pattern.search(clause) if has_words(clause) else None


@lru_cache(maxsize=512)
def modality(clause: str) -> Reading | None:
    """Hearsay, an appearance or a conjecture, marked by grammar (ja) or by the clause's wording (en)."""
    found = japanese.modality(clause)
    if found is not None and not (
        found[0] == "hearsay" and (norm_cited_ja(clause) or reported_no_fact(clause, found[1]))
    ):
        return found
    heard = _HEARSAY_JA.search(clause)
    if (
        heard is not None
        and not _CODE_WORDS_JA.search(clause, 0, heard.start())
        and not reported_no_fact(clause, heard.group(0))
    ):
        return ("hearsay", heard.group(0))
    if (should := _guess_should(clause)) is not None:
        return ("conjecture", should)
    for hedged in (_english(_HEDGED_READING_EN, clause), _HEDGED_READING_JA.search(clause)):
        if hedged is not None:
            return ("conjecture", hedged.group(0))
    kinds = (("hearsay", HEARSAY), ("appearance", APPEARANCE), ("conjecture", CONJECTURE))
    for kind, pattern in kinds:
        m = _english(pattern, clause)
        if m is not None and not (kind == "hearsay" and norm_cited(clause, m.start())):
            return (kind, m.group(0))
    return None


def _guess_should(clause: str) -> str | None:
    """はず as a guess; not when set against what happens (しかし, 本来) or past (はずでした: the design intent)."""
    should = expectation(clause)
    if should is None or search(words.CONTRAST, clause) is not None:
        return None
    return None if re.search(should + "(?:でした|だった)", clause) else should


@lru_cache(maxsize=512)
def not_done(clause: str) -> Reading | None:
    """An action negated, still to come, or planned ("haven't re-run", "will open the PR", 予定, まだ…ない); a
    negation split from its verb by an aside ("I have not, since the gauge is offshore, run any of it") too."""
    found = _not_done(clause)
    if found is None and (closed := english_modality.close_aside(clause)) != clause:
        found = _not_done(closed)
    return found


def _not_done(clause: str) -> Reading | None:
    for kind, pattern in (("not_done", english.NOT_DONE), ("planned", english.PLANNED), ("not_done", _NOT_DONE_JA)):
        m = _english(pattern, clause) if pattern.flags & re.ASCII else pattern.search(clause)
        if m is not None:
            return (kind, m.group(0).strip())
    if (phrase := not_yet(clause)) is not None:
        return ("not_done", phrase)
    if (phrase := japanese.planned(clause) or promise(clause)) is not None:
        return ("planned", phrase)
    if (m := _english(_ONGOING_EN, clause)) is not None and not _WHILE_EN.search(clause, 0, m.start()):
        return ("planned", m.group(0).strip(" ,;("))  # not "while the old pod was still running": a condition
    return None


@lru_cache(maxsize=512)
def watching(clause: str) -> Reading | None:
    """Dashboards, monitoring or "no alerts so far" standing in for a check; a watching word that names a thing
    ("the monitoring namespace", 「監視タスク」) is not watching."""
    for pattern in (english.WATCHING, _WATCHING_JA):
        if pattern.flags & re.ASCII and not has_words(clause):
            continue
        for m in pattern.finditer(clause):
            if pattern.flags & re.ASCII and _WITNESS.search(clause, max(0, m.start() - 60), m.end() + 1):
                continue  # "I did both steps myself with the clerk watching": a witness to the writer's run
            if not (_names_a_thing_en(clause, m) if pattern.flags & re.ASCII else names_a_thing(clause, *m.span())):
                return ("watching", m.group(0).strip())
    return None


#: Someone looking on while the writer did it: "with the clerk watching", "while Dana watched".
_WITNESS = re.compile(
    r"\b(?:with|while) (?!(?:we|i|us|me) )(?:the |a |an |my |our |his |her |their )?(?:[\w'-]+ ){0,2}?[\w'-]+"
    r" (?:watching|watched)\b(?!\s+(?:the|a|an|it|them|for|over|our|their|dashboards?|graphs?|grafana)\b)",
    re.IGNORECASE,
)


#: Before a watching word used as a modifier: a determiner or a preposition ("in the monitoring namespace").
_DETERMINER_BEFORE = re.compile(r"\b(?:the|a|an|our|their|its|this|that|each|every|in|of|to|from|per)\s+$", re.I)
#: After it, words that make it watching again: an object, a time, a verb, or what one watches with.
_NOT_A_NAME_AFTER = re.compile(
    r"\s+(?:the|a|an|it|them|this|that|these|those|for|on|in|at|of|over|during|since|until|and|but|or|shows?"
    r"|showed|says|said|is|was|are|were|has|had|reports?|reported|confirms?|confirmed|dashboards?|graphs?|data"
    r"|metrics|alerts?|alerting|stack|system|tools?|results?|charts?|panels?|output|logs|went|stayed|looks?"
    r"|period|window)\b",
    re.I,
)
_WATCH_WORD = re.compile(r"(?:monitor|watch)(?:ing|ed)", re.I)


def _names_a_thing_en(clause: str, m: re.Match[str]) -> bool:
    """ "the monitoring namespace", "a monitoring-agent pod", "the watched folder": a name, not watching."""
    if not _WATCH_WORD.fullmatch(m.group(0).strip()):
        return False
    if clause[m.end() : m.end() + 1] == "-":
        return True
    after = clause[m.end() : m.end() + 30]
    if _NOT_A_NAME_AFTER.match(after) or not re.match(r"\s+[A-Za-z]", after):
        return False
    return _DETERMINER_BEFORE.search(clause, max(0, m.start() - 12), m.start()) is not None


@lru_cache(maxsize=512)
def inference(clause: str) -> Reading | None:
    """A reading of code, a review or an agreement standing in for an experiment."""
    for pattern in (english.INFERENCE, japanese.INFERENCE_JA):
        m = _english(pattern, clause) if pattern.flags & re.ASCII else pattern.search(clause)
        if m is not None:
            return ("inference", m.group(0).strip())
    return None


#: What a hypothesis that was tested or ruled out reads as: neither a guess nor evidence.
TESTED = "tested"


@lru_cache(maxsize=256)
def readings(masked: str) -> tuple[tuple[str, Reading | None], ...]:
    """Each clause with `read`, sentence by sentence; in a sentence that rejects or tests a hypothesis
    ("we thought …, so we swapped …", 最初は…と思ってたけど違った) its guesses read as `TESTED`."""
    out: list[tuple[str, Reading | None]] = []
    for sentence, parts in by_sentence(masked):
        for clause in parts:
            why = read(clause)
            if why is not None and why[0] in ("hearsay", "appearance", "conjecture") and rejects(sentence):
                why = (TESTED, why[1])
            out.append((clause, why))
    return tuple(out)


@lru_cache(maxsize=512)
def read(clause: str) -> Reading | None:
    """The first thing that keeps a clause from being a plain statement of fact; None when it is one."""
    return modality(clause) or not_done(clause) or watching(clause)
