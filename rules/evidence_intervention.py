"""What counts as doing something to the system to test a cause (docs/rules.md#experiment): a change, an
instrument, or a run under set conditions. `rules.evidence_experiment` reads an experiment with it; looking alone (a
trace, a dashboard, timestamps, reading) is not in it.
"""

from __future__ import annotations

import re

from rules.evidence_words import EN_FLAGS, any_of

#: Something done to the system to test the cause: a change (patch, revert, forced value, swapped part), an
#: instrument (logging, a counter, a watchpoint, a sanitizer, a test), or a run under set conditions ("with `x=0`").
#: Observing alone (a trace, a dashboard, timestamps, reading) is not one.
INTERVENTION = (
    any_of(
        r"\b(?:add(?:ed|ing)?|ran|run(?:ning)?|re-?ran|re-?run(?:ning)?|wrote|writ(?:e|ing)|patch(?:ed|ing)?"
        r"|revert(?:ed|ing)?|re-?appl(?:ied|ying)|appl(?:ied|ying)|forc(?:ed|ing|e)|set(?:ting)?|swapp(?:ed|ing)|swap"
        r"|replac(?:ed|ing)|disabl(?:ed|ing)|enabl(?:ed|ing)|inject(?:ed|ing)|built|build(?:ing)?|rebuilt|re-?compiled"
        r"|compil(?:ed|ing)|replay(?:ed|ing)?|bisect\w*|logg(?:ed|ing)|print(?:ed|ing)|put|flipp(?:ed|ing)|flip"
        r"|chang(?:ed|ing)|mov(?:ed|ing)|switch(?:ed|ing)|remov(?:ed|ing)|count(?:ed|ing)|captur(?:ed|ing)|trac(?:ed|ing)"
        r"|instrument(?:ed|ing)|toggl(?:ed|ing)|made|making|pinn(?:ed|ing)|back(?:ed|ing) out|compar(?:ed|ing)"
        r"|test(?:ed|ing)|measur(?:ed|ing)|dump(?:ed|ing)|fed|feed(?:ing)?|sent|send(?:ing)?|kill(?:ed|ing)"
        r"|restart(?:ed|ing)|throttl(?:ed|ing)|delay(?:ed|ing)|slow(?:ed|ing)|hard-?cod(?:ed|ing)|lower(?:ed|ing)"
        r"|rais(?:ed|ing)|increas(?:ed|ing)|decreas(?:ed|ing)|reduc(?:ed|ing)|widen(?:ed|ing)|narrow(?:ed|ing)"
        r"|clamp(?:ed|ing)|guard(?:ed|ing)|wrapp(?:ed|ing)|delet(?:ed|ing)|limit(?:ed|ing)|simulat(?:ed|ing)"
        r"|emulat(?:ed|ing)|mock(?:ed|ing)|stubb(?:ed|ing)|attach(?:ed|ing)|hook(?:ed|ing)|reproduc(?:ed|ing)"
        r"|recomput(?:ed|ing)|recalculat(?:ed|ing)|calculat(?:ed|ing)|loop(?:ed|ing)|profil(?:ed|ing)|fuzz(?:ed|ing)"
        r"|stepp(?:ed|ing)|tri(?:ed|es)|try(?:ing)?|us(?:ed|ing)|gave|giv(?:e|ing)|flash(?:ed|ing)|roll(?:ed|ing) back"
        r"|downgrad(?:ed|ing)|upgrad(?:ed|ing)|bump(?:ed|ing)|shrank|shrunk|isolat(?:ed|ing)|cherry-?pick(?:ed|ing)?"
        r"|dropp(?:ed|ing)|commented out|skipp(?:ed|ing)|insert(?:ed|ing)|call(?:ed|ing)|invok(?:ed|ing)"
        r"|trigger(?:ed|ing)|fir(?:ed|ing)|restor(?:ed|ing)|reset(?:ting)?|rerout(?:ed|ing)|redirect(?:ed|ing)"
        r"|block(?:ed|ing)|unplug(?:ged|ging)|plug(?:ged|ging)|power(?:ed|ing)|cycl(?:ed|ing)|gdb|valgrind"
        r"|watchpoint|breakpoint|sanitizer|tsan|asan|msan|ubsan|kasan|debug build|(?:unit|regression|property)"
        r" test|test case|(?:a|the|new) test|patched build|local build|experiment)\b"
        # A run under a set value: "with `retries = 0` …", "under `faketime …`".
        r"|\b(?:with(?:out)?|under|on|at)\s+Q\b|\bwith(?:out)? (?:only )?\d+\b|\binstead of\b"
        r"|\bturn(?:ed|ing)? (?:\w+ )?(?:off|on)\b"
        r"|\bunder (?:a |the )?(?:debugger|sanitizer|profiler|load|valgrind|gdb|rr|strace|emulator)\b"
        r"|\bwith(?:out)? (?:the |a |an )?(?:new|old|patched|fixed|older|newer|previous|original|modified)\b"
        r"|\b(?:with(?:out)?) (?:the |this |that |my |our |a )?(?:fix|patch|change|guard|lock|mutex|flag"
        r"|option|setting|workaround|hotfix)\b|\bfound the failing\b"
        r"|^\s*Q\s+(?:showed|shows|reported|reports|printed|prints|returned|returns"
        r"|gave|gives|output)\b",
        flags=EN_FLAGS,
    ),
    any_of(
        "追加",
        # A change made and what followed: 「X を Y に揃えると」「…を外したところ」「…にしたら」.
        "を(?![^。、]{0,24}?(?:確認|見|調べ|読|眺め|チェック|追|精査|取|採))[^。、]{0,24}?(?:と、|たら|たところ|てみ|た結果|ると"
        "|[すうくぐむぶつぬ]と)",
        "揃え",
        "(?<!明らか)(?<!確か)に(?:して|した|変更|設定|切り替え)",
        "Q\\s*(?:の場合|では|だと|にすると|にしたら|にした)",
        "合わせ",
        "書き換え",
        "入れ替え",
        "交換",
        "仕込",
        "実行",
        "流し",
        "流す",
        "流した",
        "回し",
        "回す",
        "回した",
        "入れ",
        "差し込",
        "差し替え",
        "変え",
        "変更",
        "戻",
        "外し",
        "外す",
        "出力",
        "計測",
        "測定",
        "比較",
        "bisect",
        "revert",
        "当て",
        "パッチ",
        "ビルド",
        "テスト",
        "設定",
        "直し",
        "直した",
        "再送",
        "計算",
        "実施",
        "やって",
        "やった",
        "やる",
        "試し",
        "試す",
        "切り替え",
        "無効化",
        "有効化",
        "強制",
        "注入",
        "実験",
        "検証",
        "置き換え",
        "ログ(?:を|に)?(?:追加|仕込|出力|出し|入れ|仕掛|埋め込)",
        "固定",
        "再起動",
        "停止させ",
        "落とし",
        "抜い",
        "挿し",
        "接続し",
        "切断し",
        "投入",
        "発行",
        "送信",
        "投げ",
        "適用",
        "導入",
        "除去",
        "削除",
        "挟",
        "加え",
        "下げ",
        "上げ",
        "増や",
        "減ら",
        "遅らせ",
        "止め",
        "再生",
        "リプレイ",
        "ウォッチ",
        "監視し",
    ),
)


#: Worked out, not run: "worked the 19 July regulations through by hand", 「手計算で」.
_ON_PAPER = re.compile(
    r"\b(?:worked|calculated|computed|did the (?:math|sums))\b[^.;:]{0,60}?\bby hand\b|\bon paper\b|\bby construction\b"
    r"|\b(?:re)?(?:computed|calculated)\b[^.;:]{0,80}?\bin (?:a |the )?(?:spreadsheet|notebook)\b"
    r"|手計算|机上(?:で|の)計算",
    re.IGNORECASE,
)
_RUN_WORD = re.compile(
    r"\b(?:ran|run(?! is (?:not )?(?:needed|necessary))|re-?ran|replay\w*|flew|flown|executed|tested)\b"
    r"|実行|流し|回し|試験|再現",
    re.I,
)


def on_paper(masked: str) -> bool:
    """An outcome calculated by hand, with no run beside it: no experiment, whatever it changed on paper."""
    return _ON_PAPER.search(masked) is not None and _RUN_WORD.search(masked) is None
