"""What is looking, not doing (docs/rules.md#experiment): a dump, a trace, a profile, logs or the code read, a
debugger or a profiler watching a run, times found to agree, and a dashboard read after a deploy. Read by
`rules.evidence_experiment`, which weighs them against what was changed; every pattern is linear.
"""

from __future__ import annotations

import re

from rules.evidence_words import EN_FLAGS, any_of

#: What is looked at: a dump, a trace, a profile, logs, a dashboard, timestamps.
ARTIFACT = re.compile(
    r"\b(?:core ?dumps?|heap ?dumps?|thread ?dumps?|backtraces?|stack ?traces?|profiles?|flame ?graphs?|dashboards?"
    r"|timestamps?)\b"
    r"|\bof (?:the )?(?:samples|cycles|cpu(?: time)?|wall time)\b|\bsamples? (?:are|were|is|was|land|landed) in\b"
    # "The changer's motion trace from last night shows the gripper opening at 198 mm": a recording read.
    r"|\b(?:traces?|recordings?|captures?|logs?|readings?) (?:from [\w ]{1,30}? )?(?:\([^()]{0,40}\) )?"
    r"(?:shows?|showed)\b"
    # A debugger watches the code run: "stepped through `hash_stream()` in a debugger", 「ブレークポイントで見た」.
    r"|\b(?:stepped|stepping|single-stepped) through\b|\bin (?:a|the) debugger\b|\bbreakpoints?\b"
    r"|デバッガ|ブレークポイント|ステップ実行"
    # The code talked over: "walked through `sip2_build_checkout()` with the vendor; she agreed that …".
    r"|\bwalk(?:ed|ing)? (?:\w+ )?through\b(?! (?:the )?(?:repro|steps|test|run))|\bwalk-?through\b|\bagreed that\b"
    r"|ウォークスルー|読み合わせ|(?:と|って)(?:の)?(?:同意|合意)"
    r"|\b(?:opened|loaded|looked at|inspected) (?:the |a |their |the customer's |our )?"
    r"(?:core|dump|crash dump|minidump)\b"
    r"|コアダンプ|バックトレース|トレース(?:を取|は|が|で|から)|プロファイル|フレームグラフ|タイムスタンプ|ダッシュボード|ヒストグラム|ヒープダンプ"
    r"|(?:出力|結果|ダンプ|ログ)を(?:[^。、]{0,10}?)見(?:直し|返し)?(?:ると|たら|たところ|て)"
    # Reading the code: 「ソースを読んで」, "went through the source".
    r"|(?:ソース|コード|実装)(?:コード)?を(?:読|追(?!加|記))"
    r"|\b(?:read|reading|went through|looked through) (?:the )?(?:source|code)\b|^\W*read through\b"
    r"|\b(?:went|go|going|looked|dug) through (?:the )?(?:[\w-]+ ){0,3}?logs?\b"
    # Logs counted or searched: 「本番ログ 3 か月分を集計して」, "grepped three months of logs".
    r"|(?:ログ|記録|履歴)[^。]{0,16}?(?:集計|検索|grep)|\b(?:grepped|aggregated|tallied|queried)\b[^.;]{0,40}?\blogs?\b"
    # Logs compared, packets captured: 「…のログを比較し」「パケットキャプチャを 2 時間取り」.
    r"|(?:ログ|記録)(?:を|の)?[^。、]{0,12}?(?:比較|見比べ|照合|差分を取|突き合わせ|突合)|(?:コード|ソース)と(?:ログ|記録)で|(?:パケット)?キャプチャ(?:を|で|から|は|の)"
    r"|\b(?:compared|diffed) (?:the )?(?:[\w-]+ )?logs?\b|\b(?:tcpdump|wireshark|pcaps?)\b",
    re.IGNORECASE,
)
#: A tool that only watches a run: profilers, tracers, packet captures.
OBSERVER = re.compile(
    r"`(?:heaptrack|perf|py-spy|pprof|async-profiler|jfr|massif|flamegraph|valgrind --tool=massif|jmap|jstack)\b",
    re.IGNORECASE,
)
#: Two times found to agree, across a whole sentence: 「dmesg の時刻と、…切り替えた時刻が、…一致していました」.
TIMES_AGREE = (
    any_of(
        r"\btimestamps?\b[^.;]{0,80}\b(?:match\w*|line(?:s|d)? up|agree\w*|coincid\w+)\b"
        # "lines up to the second with …", "lines up with the switch to 6 MeV to the minute".
        r"|\blines? up (?:to the (?:second|minute|millisecond)|exactly|precisely|one[- ]to[- ]one) with\b"
        r"|\blines? up with\b[^.;:]{0,40}?\bto the (?:second|minute|millisecond)\b"
        # "each of the 37 lost stamps falls within two seconds of a `rev` collision".
        r"|\b(?:falls?|fell|lands?|landed|happen(?:s|ed)?|occur(?:s|red)?|(?:is|are|was|were) (?:logged|recorded|seen"
        r"|written|stamped)) within (?:\w+ )?(?:milli)?(?:seconds?|ms|s) of\b",
        flags=EN_FLAGS,
    ),
    # Not 「タイムスタンプの一致は根拠にしていません」 (the writer sets it aside), nor 「1 時間…一致」 (a duration).
    any_of(
        "(?:時刻|タイミング|タイムスタンプ)(?![^。]{0,20}?(?:根拠にして|ではな|じゃな))[^。]{0,80}?(?:一致|重な|符合|揃|並んで|並び)",
        # 「…と突き合わせました。23 件すべてが、ドア開放から 2 秒以内に発生」: one event within seconds of another.
        "(?:から|の後|のあと)\\s*\\d+\\s*(?:秒|ミリ秒|分)以内に(?:発生|起き|出|記録|鳴|送信|送ら|通知|検出|出力)",
    ),
)


#: A dashboard or a monitor, where production is watched.
_DASHBOARD = re.compile(
    r"\b(?:grafana|datadog|kibana|new relic|dashboards?|panels?)\b|ダッシュボード|パネル|監視画面", re.IGNORECASE
)
#: The change taken to production: a deploy, a release, 「本番に入れ」.
_DEPLOYED = re.compile(
    r"\b(?:deploy\w*|rolled out|rollout|went live|(?:in|to|on) prod(?:uction)?)\b|本番(?:に|へ|環境)|デプロイ|リリース",
    re.IGNORECASE,
)
#: A run the writer controls: a repro, a replay, a simulator, a bench, a test.
_CONTROLLED_RUN = re.compile(
    r"\b(?:repro\w*|replay\w*|re-?ran|simulat\w*|sim|bench|tests?|tested|rig|staging|with and without)\b"
    r"|再現|リプレイ|シミュレ|試験|テスト|検証(?:機|環境|用)|\d\s*回(?:実行|流|試|行)",
    re.IGNORECASE,
)


def watched_in_production(masked: str) -> str | None:
    """A dashboard read after a deploy, with no run of the writer's own: "deployed the patched `load_profile()`; the
    Grafana panel went flat for the week", 「本番に入れてから 3 日間、Grafana のパネルを見ていました」
    (docs/rules.md#experiment: "watched Grafana for two days" after a patch is looking, not doing)."""
    dash = _DASHBOARD.search(masked)
    if dash is None or _DEPLOYED.search(masked) is None or _CONTROLLED_RUN.search(masked) is not None:
        return None
    return dash.group(0)
