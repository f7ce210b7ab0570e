"""The official ranking as text: markdown, CSV and LaTeX tables in the style of the SemEval-2017
results table (one row per system, per-track main scores, the best system of each track and every
system not significantly different from it marked with ``*``). No files are written here.

Correlations, accuracy and macro-F1 are printed x 100 with two decimals, as the published tables;
the LeWiDi distances as they are, with four decimals. The CSV keeps full precision.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

from ..metrics import get as get_metric
from .ranking import OverallRow, TrackRanking

MARK = "*"


@dataclass
class RankingReport:
    """Everything the tables show. ``failures`` are (submission, reason) pairs that were not ranked;
    ``notes`` the scoring program's notes on each ranked submission that has any (files ignored...)."""

    title: str
    phase: str
    signature: str
    alpha: float
    rankings: Dict[str, TrackRanking]
    overall: List[OverallRow]
    primary_tracks: List[str]
    failures: List[Tuple[str, str]] = field(default_factory=list)
    notes: Dict[str, List[str]] = field(default_factory=dict)


def shown_value(metric_name: str, value: Optional[float]) -> str:
    """A score as the tables print it (x 100 for correlations and accuracies)."""
    if value is None:
        return "-"
    if get_metric(metric_name).percent:
        return f"{100.0 * value:.2f}"
    return f"{value:.4f}"


def _unit(metric_name: str) -> str:
    title = get_metric(metric_name).title
    return f"{title} x 100" if get_metric(metric_name).percent else title


def _cell(ranking: TrackRanking, system: str) -> Tuple[str, bool, bool]:
    """(value text, has the best score, is marked) of a system on a track."""
    row = next((r for r in ranking.rows if r.system == system), None)
    if row is None:
        return "-", False, False
    best = row.value == ranking.rows[0].value
    return shown_value(ranking.metric, row.value), best, row.tied_with_best


def _track_heading(ranking: TrackRanking) -> str:
    return ranking.track.title or ranking.track.id


def _test_text(report: RankingReport, ranking: TrackRanking) -> str:
    return f"{ranking.test}, two-sided, alpha {report.alpha:g}"


#: Characters CommonMark/GFM give a meaning to inside a line (emphasis, code, links, images, table
#: cells, strikethrough, headings, math); a backslash makes each one literal. ("+ - ." only matter at
#: the start of a line, where no value is ever written.)
_MD_PUNCTUATION = set("\\`*_{}[]()#!|~$")
_HTML_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}


def _one_line(text) -> str:
    """Control characters (newlines, tabs, carriage returns...) as spaces: a value stays on its line."""
    return "".join(
        " " if ord(ch) < 32 or ord(ch) == 127 or ch in "\u2028\u2029\x85" else ch
        for ch in str(text)
    )


def md_escape(text) -> str:
    """Text shown as itself in Markdown (and the HTML it may contain): Markdown punctuation
    backslash-escaped, ``& < > "`` as HTML entities, on one line."""
    return "".join(
        _HTML_ENTITIES.get(ch) or ("\\" + ch if ch in _MD_PUNCTUATION else ch)
        for ch in _one_line(text)
    )


def md_code(text) -> str:
    """An inline code span that holds ``text`` whatever backticks it contains."""
    text = _one_line(text)
    fence = "`" * (max(map(len, re.findall("`+", text)), default=0) + 1)
    return (
        f"{fence} {text} {fence}"
        if text.startswith("`") or text.endswith("`")
        else f"{fence}{text}{fence}"
    )


_md = md_escape


def render_markdown(report: RankingReport) -> str:
    out = [
        f"# Official ranking: {_md(report.title)} ({_md(report.phase)})",
        "",
        f"Reproduce with: {md_code(report.signature)}",
        "",
        "## Overall",
        "",
        f"Systems ordered by their mean rank over the primary tracks ({', '.join(report.primary_tracks)}); "
        f"a track a system did not submit counts as last place. `{MARK}` marks the best system of a track "
        f"and every system not significantly different from it; per-track ranks in brackets.",
        "",
    ]
    track_ids = list(report.rankings)
    header = ["Rank", "System", "Mean rank", "Primary"] + [
        _md(report.rankings[t].track.id) for t in track_ids
    ]
    out.append("| " + " | ".join(header) + " |")
    out.append("|" + "|".join(["---:", "---", "---:", "---:"] + ["---:"] * len(track_ids)) + "|")
    for row in report.overall:
        cells = [str(row.rank), _md(row.system), f"{row.mean_rank:.2f}", f"{row.primary:.4f}"]
        for tid in track_ids:
            text, best, marked = _cell(report.rankings[tid], row.system)
            rank = report.rankings[tid].rank_of(row.system)
            text = (f"**{text}**" if best else text) + (MARK if marked else "")
            cells.append(text + (f" ({rank})" if rank is not None else ""))
        out.append("| " + " | ".join(cells) + " |")
    for tid in track_ids:
        out.extend(_markdown_track(report, report.rankings[tid]))
    if report.notes:
        out += [
            "",
            "## Notes",
            "",
            "What the scoring program noted on ranked submissions (files it ignored, "
            "tracks not covered, metric warnings):",
            "",
        ]
        out += [
            f"- {_md(name)}: {_md(note)}" for name, notes in report.notes.items() for note in notes
        ]
    if report.failures:
        out += ["", "## Not ranked", ""]
        out += [f"- {_md(name)}: {_md(reason)}" for name, reason in report.failures]
    return "\n".join(out) + "\n"


def _markdown_track(report: RankingReport, ranking: TrackRanking) -> List[str]:
    out = [
        "",
        f"## {_md(_track_heading(ranking))} ({_md(ranking.track.id)})",
        "",
        f"Main metric: {_unit(ranking.metric)} ({get_metric(ranking.metric).direction} is better); "
        f"test against the best system: {_test_text(report, ranking)}.",
    ]
    if ranking.note:
        out.append(f"Note: {_md(ranking.note)}.")
    out += [
        "",
        "| Rank | System | Score | 95% interval | p vs best | |",
        "|---:|---|---:|---|---:|---|",
    ]
    for r in ranking.rows:
        ci = (
            f"[{shown_value(ranking.metric, r.interval.low)}, {shown_value(ranking.metric, r.interval.high)}]"
            if r.interval is not None
            else "n/a"
        )
        p = "-" if r.p_value is None else f"{r.p_value:.4f}"
        out.append(
            f"| {r.rank} | {_md(r.system)} | {shown_value(ranking.metric, r.value)} | {ci} | {p} | "
            f"{MARK if r.tied_with_best else ''} |"
        )
    if ranking.missing:
        out.append("")
        out.append("Not submitted: " + ", ".join(_md(m) for m in ranking.missing) + ".")
    return out


CSV_COLUMNS = (
    "table",
    "rank",
    "system",
    "metric",
    "value",
    "ci_low",
    "ci_high",
    "test",
    "p_vs_best",
    "tied_with_best",
    "mean_rank",
    "primary",
    "note",
)


#: A spreadsheet reads a cell starting with one of these as a formula (OWASP "CSV injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_text(text) -> str:
    """A text cell (a name, a reason) that a spreadsheet shows as text: a leading quote before a
    formula start, as OWASP advises. Number cells are written by ``repr`` and never pass here, so a
    negative score stays a number."""
    text = str(text)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def render_csv(report: RankingReport) -> str:
    """One row per (track, system) and one per system overall; empty cells where not applicable.
    Numbers at full precision (``repr``); every text cell through ``csv_text``."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row in report.overall:
        writer.writerow(
            [
                "overall",
                row.rank,
                csv_text(row.system),
                "mean_rank",
                "",
                "",
                "",
                "",
                "",
                "",
                repr(row.mean_rank),
                repr(row.primary),
                "",
            ]
        )
    for tid, ranking in report.rankings.items():
        for r in ranking.rows:
            writer.writerow(
                [
                    csv_text(tid),
                    r.rank,
                    csv_text(r.system),
                    csv_text(ranking.metric),
                    repr(r.value),
                    repr(r.interval.low) if r.interval else "",
                    repr(r.interval.high) if r.interval else "",
                    csv_text(ranking.test),
                    "" if r.p_value is None else repr(r.p_value),
                    int(r.tied_with_best),
                    "",
                    "",
                    csv_text(ranking.note or ""),
                ]
            )
    for name, notes in report.notes.items():
        for note in notes:
            writer.writerow(
                [
                    "submission_note",
                    "",
                    csv_text(name),
                    "",
                    "",
                    "",
                    "",
                    "",
                    "",
                    "",
                    "",
                    "",
                    csv_text(note),
                ]
            )
    for name, reason in report.failures:
        writer.writerow(
            ["not_ranked", "", csv_text(name), "", "", "", "", "", "", "", "", "", csv_text(reason)]
        )
    return buffer.getvalue()


_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


def latex_escape(text) -> str:
    """Text typeset as itself: TeX's special characters replaced, control characters as spaces (so a
    value cannot end a ``%`` comment line or start a new one)."""
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in _one_line(text))


def render_latex(report: RankingReport) -> str:
    """The overall table (booktabs), best per track in bold, ties with the best starred."""
    track_ids = list(report.rankings)
    lines = [
        f"% judgekit official ranking: {latex_escape(report.title)} ({latex_escape(report.phase)})",
        f"% reproduce with: {_one_line(report.signature)}",
        "% needs \\usepackage{booktabs}",
        "\\begin{table}[t]",
        "\\centering",
        "\\small",
        "\\begin{tabular}{rlrr" + "r" * len(track_ids) + "}",
        "\\toprule",
        " & ".join(
            ["Rank", "System", "Mean rank", "Primary"]
            + [latex_escape(report.rankings[t].track.id) for t in track_ids]
        )
        + " \\\\",
        "\\midrule",
    ]
    for row in report.overall:
        cells = [
            str(row.rank),
            latex_escape(row.system),
            f"{row.mean_rank:.2f}",
            f"{row.primary:.4f}",
        ]
        for tid in track_ids:
            text, best, marked = _cell(report.rankings[tid], row.system)
            text = f"\\textbf{{{text}}}" if best else text
            cells.append(text + ("$^{\\ast}$" if marked else ""))
        lines.append(" & ".join(cells) + " \\\\")
    metrics = sorted({report.rankings[t].metric for t in track_ids})
    tests = sorted({report.rankings[t].test for t in track_ids})
    lines += [
        "\\bottomrule",
        "\\end{tabular}",
        "\\caption{Official ranking by mean rank over the primary tracks. Track columns: "
        + latex_escape(", ".join(_unit(m) for m in metrics))
        + ". Bold: best system of the track; $^{\\ast}$: the best system and every system not "
        f"significantly different from it ({latex_escape(', '.join(tests))}, two-sided, "
        f"$\\alpha={report.alpha:g}$).}}",
        "\\label{tab:official-ranking}",
        "\\end{table}",
    ]
    return "\n".join(lines) + "\n"
