"""The official ranking as text: Markdown, CSV and LaTeX, ready for the task paper. No files are
written here; ``codajudge.ranking_page`` renders the same content as a self-contained HTML page.

Every output begins with the command that reproduces it (``RankingReport.command``; in the CSV, its
first row, so that the file stays one table). Then the overall table (rank, system, the primary
score, each track's main score, the best of a track in bold and every system not significantly
different from it marked ``*``) and one table per track (rank, system, score, 95% interval, p
against the best, the significance cluster), primary tracks first. A cluster is a tie group of
``ranking.tie_groups``: its best system and every remaining system not significantly different from
it; the systems of a cluster share its rank. Each column's scale is stated once in its header and
used for every value in it (``Scale``): correlations, accuracy and macro-F1 x 100 with two decimals,
as the published tables; the LeWiDi distances as they are, with four decimals. The CSV keeps full
precision.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Tuple

from ..metrics import get as get_metric
from .paired import TEST_TITLES
from .ranking import (
    BY_MEAN_RANK,
    BY_PRIMARY,
    GROUP_MEAN_RANK,
    GroupRow,
    OverallRow,
    RankedSystem,
    TrackRanking,
)

MARK = "*"


@dataclass
class GroupTable:
    """A group of tracks' own overall table (``ranking: {groups: ...}``): its ``name``, ``order``
    (``ranking.GROUP_ORDERS``), its tracks and rows (``ranking.rank_group``), and the runs left out
    (rule ``unranked``: they did not submit every track of the group)."""

    name: str
    order: str
    track_ids: List[str]
    rows: List[GroupRow]
    left_out: List[str] = field(default_factory=list)
    #: how a track a run did not submit is ranked, in words
    stand_in_rank: str = "is after every system that submitted it"


@dataclass
class RankingReport:
    """Everything the tables show. ``failures`` are (submission, reason) pairs that were not ranked;
    ``notes`` the scoring program's notes on each ranked submission that has any (files ignored...);
    ``command`` the command line that reproduces the ranking; ``overall_rule`` the overall order
    (``ranking.OVERALL_RULES``); ``runs`` (ranking by team) each team's run kept, team -> run."""

    title: str
    phase: str
    signature: str
    alpha: float
    rankings: Dict[str, TrackRanking]
    overall: List[OverallRow]
    primary_tracks: List[str]
    failures: List[Tuple[str, str]] = field(default_factory=list)
    notes: Dict[str, List[str]] = field(default_factory=dict)
    command: str = ""
    overall_rule: str = BY_PRIMARY
    runs: Dict[str, str] = field(default_factory=dict)
    resamples: int = 0
    seed: int = 0
    #: what a primary track a run did not submit counts as, in words (``PrimaryRule.missing_words``)
    missing_rule: str = "counts as its metric's worst possible value"
    #: run -> {primary track it did not submit: what stood in for it}
    stand_ins: Dict[str, Dict[str, str]] = field(default_factory=dict)
    #: runs without a primary score (rule ``unranked``) -> the tracks they submitted
    unranked: Dict[str, List[str]] = field(default_factory=dict)
    #: the primary score averages each track's score normalised to 0-1 by its range
    normalised_mean: bool = False
    #: the groups of tracks' own overall tables, in the edition's order
    groups: List[GroupTable] = field(default_factory=list)
    #: the page columns a wide LaTeX table spans: LATEX_AUTO (by its width), 1 or 2
    latex_columns: int = 0

    def track_order(self) -> List[str]:
        """Track ids, the primary tracks first, each group in the edition's order."""
        primary = [t for t in self.rankings if t in self.primary_tracks]
        return primary + [t for t in self.rankings if t not in self.primary_tracks]


@dataclass(frozen=True)
class Scale:
    """How a column prints its values: multiplied by ``factor``, with ``digits`` decimals."""

    factor: float
    digits: int

    @property
    def percent(self) -> bool:
        return self.factor == 100.0

    def show(self, value: Optional[float]) -> str:
        return "-" if value is None else f"{self.factor * value:.{self.digits}f}"


PERCENT = Scale(100.0, 2)
AS_IS = Scale(1.0, 4)


def scale_of(metric_names: Iterable[str]) -> Scale:
    """x 100 when every metric of the column prints x 100 (correlations, accuracies), else as is."""
    names = list(metric_names)
    return PERCENT if names and all(get_metric(m).percent for m in names) else AS_IS


def shown_value(metric_name: str, value: Optional[float]) -> str:
    """A score as the tables print it (x 100 for correlations and accuracies)."""
    return scale_of([metric_name]).show(value)


def clusters(ranking: TrackRanking) -> Dict[str, int]:
    """Each system's significance cluster on a track, numbered 1, 2, ... from the best."""
    numbers: Dict[int, int] = {}
    for row in ranking.rows:
        numbers.setdefault(row.rank, len(numbers) + 1)
    return {row.system: numbers[row.rank] for row in ranking.rows}


def significance_title(ranking: TrackRanking) -> str:
    """The test's proper name, e.g. "Williams' t-test"."""
    return TEST_TITLES.get(ranking.test, ranking.test)


def track_title(ranking: TrackRanking) -> str:
    return ranking.track.title or ranking.track.id


def primary_scale(report: RankingReport) -> Scale:
    if report.normalised_mean:
        return AS_IS
    return scale_of(
        report.rankings[t].metric for t in report.primary_tracks if t in report.rankings
    )


def track_cell(ranking: TrackRanking, system: str) -> Tuple[str, bool, bool]:
    """(value text, has the best score, is marked) of a system on a track."""
    row = next((r for r in ranking.rows if r.system == system), None)
    if row is None:
        return "-", False, False
    best = row.value == ranking.rows[0].value
    return shown_value(ranking.metric, row.value), best, row.tied_with_best


def overall_text(report: RankingReport) -> str:
    """What the overall order is, in a sentence (plain text)."""
    names = ", ".join(track_title(report.rankings[t]) for t in report.primary_tracks)
    if report.overall_rule == BY_MEAN_RANK:
        return (
            f"Systems ordered by their mean rank over the primary tracks ({names}); a track a "
            "system did not submit counts as last place. Caveat: a track's ranks depend on every "
            "system, so a third system can change the order of two others."
        )
    return (
        f"Systems ordered by their primary score, the leaderboard's: the mean of the primary "
        f"tracks' main metric{NORMALISED_WORDS if report.normalised_mean else ''} ({names}); "
        f"a primary track not submitted {report.missing_rule}. No "
        "other system's submission can change the order of two systems."
    )


#: Marks a track rank that a stand-in gave a run that did not submit the track (group tables).
STAND_IN_RANK = "+"


def group_text(report: RankingReport, group: GroupTable) -> str:
    """What a group's table is, in a sentence (plain text)."""
    names = ", ".join(track_title(report.rankings[t]) for t in group.track_ids)
    if group.order == GROUP_MEAN_RANK:
        how = (
            f"their mean rank over its tracks ({names}), each track's rank accounting for "
            "statistical ties: a cluster shares its leader's rank"
        )
    else:
        how = f"their mean main score over its tracks ({names})"
    text = (
        f"{group.name}: systems ordered by {how}; equal means share a place. "
        f"{STAND_IN_RANK} marks a track the run did not submit, whose rank "
    )
    text += group.stand_in_rank + "."
    if group.left_out:
        text += (
            f" Left out (not every track submitted, rule 'unranked'): {', '.join(group.left_out)}."
        )
    return text


def group_cells(group: GroupTable, row: GroupRow, escape) -> List[str]:
    """A row of a group's table: place, system (through ``escape``), the group's number, and the
    rank on each track (``STAND_IN_RANK`` after a stand-in's)."""
    value = f"{row.value:.2f}" if group.order == GROUP_MEAN_RANK else f"{row.value:.4f}"
    ranks = [
        f"{row.track_ranks[t]}{STAND_IN_RANK if t in row.stand_ins else ''}"
        for t in group.track_ids
    ]
    return [str(row.rank), escape(row.system), value] + ranks


def group_value_label(group: GroupTable) -> str:
    return "Mean rank" if group.order == GROUP_MEAN_RANK else "Mean score"


#: How the tables say that the primary score's mean is of range-normalised scores.
NORMALISED_WORDS = ", each normalised to 0-1 by its metric's range on the track"


def primary_rule_lines(report: RankingReport) -> List[str]:
    """Which runs the missing-track rule applied to, one plain-text line each: what stood in for
    each primary track a run did not submit, and the runs left without a primary score."""
    lines = [
        f"{name}: " + "; ".join(f"{track} counted as {what}" for track, what in tracks.items())
        for name, tracks in report.stand_ins.items()
    ]
    return lines + [
        f"{name}: no primary score (not every primary track submitted), so not in the overall "
        f"table; ranked on {', '.join(tracks) or 'no track'}"
        for name, tracks in report.unranked.items()
    ]


#: The heading of the section that lists the runs the missing-track rule applied to.
RULE_HEADING = "Primary tracks not submitted"


def interval_text(report: RankingReport) -> str:
    """How the intervals were computed, in a sentence (plain text)."""
    if report.resamples < 1:
        return "No intervals (0 resamples)."
    return (
        f"95% percentile bootstrap intervals over items ({report.resamples} resamples, "
        f"seed {report.seed})."
    )


def cluster_text(report: RankingReport, ranking: TrackRanking, alpha: str = "alpha ") -> str:
    """What a cluster is on this track, in a sentence (plain text; ``alpha`` before the level)."""
    return (
        f"A cluster holds its best system and every system not significantly different from it "
        f"({significance_title(ranking)}, two-sided, {alpha}{report.alpha:g}); its systems share "
        "its rank."
    )


#: Characters CommonMark/GFM give a meaning to inside a line (emphasis, code, links, images, table
#: cells, strikethrough, headings, math); a backslash makes each one literal. ("+ - ." only matter at
#: the start of a line, where no value is ever written.)
_MD_PUNCTUATION = set("\\`*_{}[]()#!|~$")
_HTML_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}


def _one_line(text) -> str:
    """Control characters (newlines, tabs, carriage returns...) as spaces: a value stays on its line;
    undecodable bytes as text (``undecodable_as_text``)."""
    return "".join(
        " " if ord(ch) < 32 or ord(ch) == 127 or ch in "\u2028\u2029\x85" else ch
        for ch in undecodable_as_text(text)
    )


def undecodable_as_text(text) -> str:
    """``text`` with each byte of a name that is not UTF-8 (which Python reads as a surrogate,
    U+DC80 to U+DCFF) written as its value, ``\\xe9``, and any other lone surrogate as
    ``\\ud800``: characters every output and every TeX engine accepts (U+FFFD is not one)."""
    return "".join(
        _surrogate_as_text(ord(ch)) if "\ud800" <= ch <= "\udfff" else ch for ch in str(text)
    )


def _surrogate_as_text(code: int) -> str:
    return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"\\u{code:04x}"


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


#: How Markdown and HTML state that a column is printed x 100 (LaTeX: ``TIMES_100``).
TIMES = "×100"


def metric_label(metric_name: str, times: str = TIMES) -> str:
    """A metric's title and, when its values are printed x 100, that scale (``times`` as given)."""
    title = get_metric(metric_name).title
    return f"{title} ({times})" if scale_of([metric_name]).percent else title


def primary_label(report: RankingReport, times: str = TIMES) -> str:
    if report.normalised_mean:
        return "Primary score (normalised)"
    return f"Primary score ({times})" if primary_scale(report).percent else "Primary score"


def _md_overall_cell(report: RankingReport, track_id: str, system: str) -> str:
    ranking = report.rankings[track_id]
    text, best, marked = track_cell(ranking, system)
    rank = ranking.rank_of(system)
    text = (f"**{text}**" if best else text) + ("\\" + MARK if marked else "")
    return text + (f" ({rank})" if rank is not None else "")


def _md_table(header: List[str], aligns: List[str], rows: List[List[str]]) -> List[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(aligns) + "|"]
    return lines + ["| " + " | ".join(cells) + " |" for cells in rows]


def render_markdown(report: RankingReport) -> str:
    out = [
        f"# Official ranking: {_md(report.title)} ({_md(report.phase)})",
        "",
        f"Reproduce with: {md_code(report.command or report.signature)}",
        "",
        f"Settings: {md_code(report.signature)}",
        "",
        "## Overall",
        "",
        f"{_md(overall_text(report))} `{MARK}` marks the best system of a track and every system "
        "not significantly different from it; bold, the best score; per-track ranks in brackets.",
        "",
    ]
    out += _markdown_overall(report)
    for group in report.groups:
        out += _markdown_group(report, group)
    for tid in report.track_order():
        out.extend(_markdown_track(report, report.rankings[tid]))
    out += _markdown_runs(report) + _markdown_rule(report) + _markdown_notes(report)
    if report.failures:
        out += ["", "## Not ranked", ""]
        out += [f"- {_md(name)}: {_md(reason)}" for name, reason in report.failures]
    return "\n".join(out) + "\n"


def _markdown_overall(report: RankingReport) -> List[str]:
    track_ids = report.track_order()
    mean = report.overall_rule == BY_MEAN_RANK
    header = ["Rank", "System", _md(primary_label(report))] + (["Mean rank"] if mean else [])
    header += [_md(column_head(report.rankings[t])) for t in track_ids]
    scale = primary_scale(report)
    rows = []
    for row in report.overall:
        cells = [str(row.rank), _md(row.system), scale.show(row.primary)]
        cells += [f"{row.mean_rank:.2f}"] if mean else []
        rows.append(cells + [_md_overall_cell(report, t, row.system) for t in track_ids])
    return _md_table(header, ["---:", "---", "---:"] + ["---:"] * (len(header) - 3), rows)


def _markdown_group(report: RankingReport, group: GroupTable) -> List[str]:
    header = ["Rank", "System", group_value_label(group)]
    header += [_md(track_title(report.rankings[t])) for t in group.track_ids]
    rows = [group_cells(group, row, _md) for row in group.rows]
    out = ["", f"## {_md(group.name)}", "", _md(group_text(report, group)), ""]
    return out + _md_table(header, ["---:", "---"] + ["---:"] * (len(header) - 2), rows)


def column_head(ranking: TrackRanking) -> str:
    """A track's column in the overall table: its title, its metric and scale (plain text)."""
    return f"{track_title(ranking)}: {metric_label(ranking.metric)}"


def _markdown_runs(report: RankingReport) -> List[str]:
    if not report.runs:
        return []
    out = ["", "## Runs ranked", "", "Each team's best run by the overall order:", ""]
    return out + [f"- {_md(team)}: {_md(run)}" for team, run in report.runs.items()]


def _markdown_rule(report: RankingReport) -> List[str]:
    lines = primary_rule_lines(report)
    if not lines:
        return []
    out = ["", f"## {RULE_HEADING}", "", f"A primary track not submitted {report.missing_rule}:"]
    return out + [""] + [f"- {_md(line)}" for line in lines]


def _markdown_notes(report: RankingReport) -> List[str]:
    if not report.notes:
        return []
    out = [
        "",
        "## Notes",
        "",
        "What the scoring program noted on ranked submissions (files it ignored, "
        "tracks not covered, metric warnings):",
        "",
    ]
    return out + [
        f"- {_md(name)}: {_md(note)}" for name, notes in report.notes.items() for note in notes
    ]


def interval_cell(ranking: TrackRanking, row: RankedSystem) -> str:
    """``[low, high]`` on the track's scale, or ``n/a`` without an interval."""
    if row.interval is None:
        return "n/a"
    scale = scale_of([ranking.metric])
    return f"[{scale.show(row.interval.low)}, {scale.show(row.interval.high)}]"


def _markdown_track(report: RankingReport, ranking: TrackRanking) -> List[str]:
    primary = "" if ranking.track.id in report.primary_tracks else ", not primary"
    out = [
        "",
        f"## {_md(track_title(ranking))} ({_md(ranking.track.id)}{primary})",
        "",
        f"Main metric: {_md(metric_label(ranking.metric))}, "
        f"{get_metric(ranking.metric).direction} is better. {_md(interval_text(report))} "
        f"{_md(cluster_text(report, ranking))}",
    ]
    if ranking.note:
        out.append(f"Note: {_md(ranking.note)}.")
    rows = track_rows(ranking, _md)
    label = _md(metric_label(ranking.metric))
    header = ["Rank", "System", label, "95% interval", "p vs best", "Cluster"]
    out += [""] + _md_table(header, ["---:", "---", "---:", "---", "---:", "---:"], rows)
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
    "cluster",
    "title",
)


#: A spreadsheet reads a cell starting with one of these as a formula (OWASP "CSV injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_text(text) -> str:
    """A text cell (a name, a reason) that a spreadsheet shows as text: a leading quote before a
    formula start, as OWASP advises. Number cells are written by ``repr`` and never pass here, so a
    negative score stays a number."""
    text = str(text)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def _csv_row(**cells) -> List[object]:
    """A CSV row from its named cells (``CSV_COLUMNS``), the others empty."""
    unknown = set(cells) - set(CSV_COLUMNS)
    if unknown:
        raise ValueError(f"unknown CSV columns {sorted(unknown)}")
    return [cells.get(name, "") for name in CSV_COLUMNS]


def render_csv(report: RankingReport) -> str:
    """The command first (table ``command``, in ``note``), then one row per system overall and per
    (track, system), then the runs kept per team, the notes and the failures; empty cells where not
    applicable. Numbers at full precision (``repr``); every text cell through ``csv_text``."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    writer.writerow(_csv_row(table="command", note=csv_text(report.command or report.signature)))
    for row in report.overall:
        writer.writerow(
            _csv_row(
                table="overall",
                rank=row.rank,
                system=csv_text(row.system),
                metric=report.overall_rule,
                mean_rank=repr(row.mean_rank),
                primary=repr(row.primary),
            )
        )
    for group in report.groups:
        writer.writerows(_csv_group_rows(group))
    for tid in report.track_order():
        writer.writerows(_csv_track_rows(report.rankings[tid]))
    for line in primary_rule_lines(report):
        system, _, note = line.partition(": ")
        writer.writerow(
            _csv_row(table="primary_rule", system=csv_text(system), note=csv_text(note))
        )
    for team, run in report.runs.items():
        writer.writerow(_csv_row(table="team_run", system=csv_text(team), note=csv_text(run)))
    for name, notes in report.notes.items():
        writer.writerows(
            _csv_row(table="submission_note", system=csv_text(name), note=csv_text(note))
            for note in notes
        )
    for name, reason in report.failures:
        writer.writerow(_csv_row(table="not_ranked", system=csv_text(name), note=csv_text(reason)))
    return buffer.getvalue()


def _csv_group_rows(group: GroupTable) -> List[List[object]]:
    """A group's rows (table ``group``, its name in ``title``): the mean rank in ``mean_rank`` or
    the mean score in ``value``, and each track's rank in ``note`` (``+``: a stand-in's)."""
    by_rank = group.order == GROUP_MEAN_RANK
    return [
        _csv_row(
            table="group",
            rank=row.rank,
            system=csv_text(row.system),
            metric=group.order,
            value="" if by_rank else repr(row.value),
            mean_rank=repr(row.value) if by_rank else "",
            note=csv_text(
                "; ".join(
                    f"{t}={row.track_ranks[t]}{STAND_IN_RANK if t in row.stand_ins else ''}"
                    for t in group.track_ids
                )
            ),
            title=csv_text(group.name),
        )
        for row in group.rows
    ]


def _csv_track_rows(ranking: TrackRanking) -> List[List[object]]:
    number = clusters(ranking)
    return [
        _csv_row(
            table=csv_text(ranking.track.id),
            rank=r.rank,
            system=csv_text(r.system),
            metric=csv_text(ranking.metric),
            value=repr(r.value),
            ci_low=repr(r.interval.low) if r.interval else "",
            ci_high=repr(r.interval.high) if r.interval else "",
            test=csv_text(ranking.test),
            p_vs_best="" if r.p_value is None else repr(r.p_value),
            tied_with_best=int(r.tied_with_best),
            note=csv_text(ranking.note or ""),
            cluster=number[r.system],
            title=csv_text(track_title(ranking)),
        )
        for r in ranking.rows
    ]


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
    "|": r"\textbar{}",  # in the default font encoding these three would print other glyphs
    "<": r"\textless{}",
    ">": r"\textgreater{}",
}


#: What pdfLaTeX sets with ``\\usepackage[T1]{fontenc}`` (UTF-8 input): printable ASCII, Latin-1
#: and Latin Extended-A but the nine letters T1 lacks (measured with TeX Live 2023;
#: tests/test_ranking.py compiles them all where pdflatex is installed).
PDFLATEX_CHARACTERS = frozenset(map(chr, [*range(0x20, 0x7F), *range(0xA0, 0x180)])) - set(
    "\u0126\u0127\u0138\u013f\u0140\u0149\u0166\u0167\u017f"
)
#: The packages ``ranking.tex`` needs, as its header states them.
LATEX_PACKAGES = (
    "% needs \\usepackage{booktabs}, \\usepackage[T1]{fontenc} and \\usepackage{graphicx} "
    "(pdfLaTeX or any engine)"
)
#: ``\\cjfit{TABULAR}``: the tabular as it is, or scaled down to the line's width when wider (a
#: long system name), so that no table overflows its column; defined once per document.
LATEX_FIT = (
    "\\ifdefined\\cjfit\\else\\newsavebox{\\cjfitbox}\\newcommand{\\cjfit}[1]{"
    "\\sbox{\\cjfitbox}{#1}\\ifdim\\wd\\cjfitbox>\\linewidth"
    "\\typeout{codajudge: a table scaled to the line's width}"
    "\\resizebox{\\linewidth}{!}{\\usebox{\\cjfitbox}}\\else\\usebox{\\cjfitbox}\\fi}\\fi"
)
#: ``RankingReport.latex_columns``: the page's columns a wide table may span (``--latex-width``);
#: AUTO sets a table of more than ``ONE_COLUMN_MAX`` columns across both of a two-column page.
LATEX_AUTO = 0
ONE_COLUMN_MAX = 5


def pdflatex_sets(text) -> bool:
    """Every character of ``text`` is one pdfLaTeX sets (``PDFLATEX_CHARACTERS``)."""
    return all(ch in PDFLATEX_CHARACTERS for ch in _one_line(text))


def latex_escape(text) -> str:
    """Text typeset as itself: TeX's special characters replaced, control characters as spaces (so a
    value cannot end a ``%`` comment line or start a new one), and a character pdfLaTeX cannot set
    as its code point, ``[U+4E2D]``."""
    return "".join(
        _LATEX_SPECIAL.get(ch) or (ch if ch in PDFLATEX_CHARACTERS else f"[U+{ord(ch):04X}]")
        for ch in _one_line(text)
    )


#: Marks a name pdfLaTeX cannot set, written in ``ranking.tex`` as a stand-in (``latex_system``).
STAND_IN_MARK = "$^{\\dagger}$"
STAND_IN_TEXT = (
    f"{STAND_IN_MARK}: a name pdfLaTeX cannot set, written as its run's file name or with its "
    "characters as code points; ranking.md, ranking.csv and ranking.html give it as it is."
)


def latex_system(report: RankingReport, name: str) -> str:
    """A system's name in ``ranking.tex``: itself when pdfLaTeX sets it; else marked
    ``STAND_IN_MARK`` and written as its team's run (ranking by team) when that one can be set, or
    with code points for the characters that cannot."""
    if pdflatex_sets(name):
        return latex_escape(name)
    run = report.runs.get(name)
    return latex_escape(run if run is not None and pdflatex_sets(run) else name) + STAND_IN_MARK


def _stand_in_note(names: Iterable[str]) -> str:
    """The caption's sentence on stand-ins, when one of ``names`` is one."""
    return f" {STAND_IN_TEXT}" if not all(pdflatex_sets(name) for name in names) else ""


TIMES_100 = r"$\times 100$"


def latex_label(text: str) -> str:
    """A ``\\label`` key from any text: letters, digits and hyphens only."""
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower() or "track"


def latex_comment(text: str) -> str:
    """A ``%`` comment line holding ``text`` as it is (on one line: it cannot end the comment;
    undecodable bytes as text)."""
    return "% " + _one_line(text)


def render_latex(report: RankingReport) -> str:
    """A fragment for the paper (``LATEX_PACKAGES``: booktabs, T1 fontenc): the overall table, then
    one table per track, primary tracks first, each with its caption and label."""
    lines = [
        latex_comment(f"codajudge official ranking: {report.title} ({report.phase})"),
        latex_comment(f"reproduce with: {report.command or report.signature}"),
        latex_comment(f"settings: {report.signature}"),
        LATEX_PACKAGES,
        LATEX_FIT,
    ]
    lines += _latex_overall(report)
    for group in report.groups:
        lines += _latex_group(report, group)
    for tid in report.track_order():
        lines += _latex_track(report, report.rankings[tid])
    return "\n".join(lines) + "\n"


def _latex_table(
    columns: str,
    header: List[str],
    rows: List[List[str]],
    caption: str,
    label: str,
    wide: bool = False,
) -> List[str]:
    """A booktabs table in ``\\small``, fitted to its width (``LATEX_FIT``); ``wide``: across both
    columns of a two-column page (``table*``)."""
    env = "table*" if wide else "table"
    return [
        "",
        f"\\begin{{{env}}}[t]",
        "\\centering",
        "\\small",
        "\\setlength{\\tabcolsep}{2.5pt}",
        f"\\cjfit{{\\begin{{tabular}}{{{columns}}}",
        "\\toprule",
        " & ".join(header) + " \\\\",
        "\\midrule",
        *[" & ".join(cells) + " \\\\" for cells in rows],
        "\\bottomrule",
        "\\end{tabular}}",
        f"\\caption{{{caption}}}",
        f"\\label{{{label}}}",
        f"\\end{{{env}}}",
    ]


def latex_wide(report: RankingReport, header: List[str], rows: List[List[str]]) -> bool:
    """Whether a table spans both columns of the page (``table*``): by ``--latex-width``, or, when
    automatic, when its estimated width exceeds one column of an ACL page."""
    if report.latex_columns == LATEX_AUTO:
        return estimated_width(header, rows) > ACL_COLUMN_PT
    return report.latex_columns == 2


#: One column of an ACL two-column page (A4, 2.5 cm margins, 0.6 cm apart), in points.
ACL_COLUMN_PT = 219.0
#: Roughly the width of one character of ``\\small`` text in an 11 pt document, in points.
SMALL_CHARACTER_PT = 5.0
#: Space between two columns of a table (twice ``\\tabcolsep``), in points.
COLUMN_GAP_PT = 2 * 2.5


def estimated_width(header: List[str], rows: List[List[str]]) -> float:
    """A table's width in points, estimated from the widest text of each column (a stacked head
    counts its longer line; LaTeX commands count nothing)."""
    widths = [0] * len(header)
    for cells in [header] + rows:
        for k, cell in enumerate(cells):
            widths[k] = max(widths[k], _visible_length(cell))
    return SMALL_CHARACTER_PT * sum(widths) + COLUMN_GAP_PT * len(header)


def _visible_length(cell: str) -> int:
    """The characters a cell prints on its longest line, roughly (commands and braces dropped)."""
    lines = re.sub(r"\\begin\{tabular\}\[b\]\{@\{\}c@\{\}\}|\\end\{tabular\}", "", cell)
    plain = [re.sub(r"\\[A-Za-z]+|[{}$^]", "", line) for line in lines.split("\\\\")]
    return max(len(line) for line in plain)


def latex_overall_tracks(report: RankingReport) -> List[str]:
    """The track columns of the LaTeX overall table: every track, or the primary ones only when
    groups have tables of their own (LeWiDi's 8 tracks would not fit a page's width)."""
    if report.groups:
        return [t for t in report.track_order() if t in report.primary_tracks]
    return report.track_order()


def _latex_overall(report: RankingReport) -> List[str]:
    track_ids = latex_overall_tracks(report)
    mean = report.overall_rule == BY_MEAN_RANK
    header = ["Rank", "System", latex_stack(primary_label(report, TIMES_100))]
    header += ["Mean rank"] if mean else []
    header += [_latex_column_head(report.rankings[t]) for t in track_ids]
    scale = primary_scale(report)
    rows = []
    for row in report.overall:
        cells = [str(row.rank), latex_system(report, row.system), scale.show(row.primary)]
        cells += [f"{row.mean_rank:.2f}"] if mean else []
        rows.append(
            cells + [_latex_overall_cell(report.rankings[t], row.system) for t in track_ids]
        )
    tests = ", ".join(dict.fromkeys(significance_title(report.rankings[t]) for t in track_ids))
    caption = (
        f"{latex_escape(report.title)}: official ranking. {latex_escape(overall_text(report))} "
        "Bold: the best score of a track; $^{\\ast}$: the best system of the track and every "
        f"system not significantly different from it ({latex_escape(tests)}, two-sided, "
        f"$\\alpha={report.alpha:g}$).{_stand_in_note(row.system for row in report.overall)}"
        + "".join(f" {latex_escape(line)}." for line in primary_rule_lines(report))
        + _latex_columns_text(report, track_ids)
    )
    columns = "rlr" + ("r" if mean else "") + "r" * len(track_ids)
    wide = latex_wide(report, header, rows)
    return _latex_table(columns, header, rows, caption, "tab:ranking-overall", wide)


def _latex_group(report: RankingReport, group: GroupTable) -> List[str]:
    header = ["Rank", "System", group_value_label(group)]
    header += [_latex_column_head(report.rankings[t]) for t in group.track_ids]
    rows = [group_cells(group, row, lambda n: latex_system(report, n)) for row in group.rows]
    names = [row.system for row in group.rows]
    caption = f"{latex_escape(group_text(report, group))}{_stand_in_note(names)}"
    columns = "rlr" + "r" * len(group.track_ids)
    label = f"tab:ranking-group-{latex_label(group.name)}"
    return _latex_table(columns, header, rows, caption, label, latex_wide(report, header, rows))


def _latex_scaled(metric_name: str) -> str:
    """A metric's title with its scale, e.g. ``Pearson r ($\\times 100$)``."""
    title = latex_escape(get_metric(metric_name).title)
    return f"{title} ({TIMES_100})" if scale_of([metric_name]).percent else title


def _latex_column_head(ranking: TrackRanking) -> str:
    """A track's column head: its title, over two lines when it has several words (the caption
    names each column's metric)."""
    return latex_stack(latex_escape(track_title(ranking)))


def latex_stack(text: str) -> str:
    """``text`` (already escaped) on two lines split at the space nearest its middle, or as it is."""
    spaces = [k for k, ch in enumerate(text) if ch == " "]
    if not spaces:
        return text
    cut = min(spaces, key=lambda k: abs(2 * k - len(text)))
    return f"\\begin{{tabular}}[b]{{@{{}}c@{{}}}}{text[:cut]}\\\\{text[cut + 1 :]}\\end{{tabular}}"


def _latex_columns_text(report: RankingReport, track_ids: List[str]) -> str:
    """The caption's sentence naming each track column's metric and scale."""
    named = "; ".join(
        f"{latex_escape(track_title(report.rankings[t]))}: {_latex_scaled(report.rankings[t].metric)}"
        for t in track_ids
    )
    return f" Columns: {named}."


def _latex_overall_cell(ranking: TrackRanking, system: str) -> str:
    text, best, marked = track_cell(ranking, system)
    text = f"\\textbf{{{text}}}" if best else text
    return text + ("$^{\\ast}$" if marked else "")


def track_rows(ranking: TrackRanking, escape, with_p: bool = True) -> List[List[str]]:
    """Each system's cells in a track's table: rank, system (through ``escape``, the output's own
    escaping), score, 95% interval, p against the best (unless ``with_p`` is False) and cluster."""
    number = clusters(ranking)
    rows = []
    for r in ranking.rows:
        cells = [
            str(r.rank),
            escape(r.system),
            shown_value(ranking.metric, r.value),
            interval_cell(ranking, r),
        ]
        if with_p:
            cells.append("-" if r.p_value is None else f"{r.p_value:.4f}")
        rows.append(cells + [str(number[r.system])])
    return rows


def _latex_track(report: RankingReport, ranking: TrackRanking) -> List[str]:
    rows = track_rows(ranking, lambda name: latex_system(report, name), with_p=False)
    header = ["\\#", "System", "Score", "95\\% CI", "Cl."]
    for cells in rows:
        cells[3] = cells[3].strip("[]").replace(", ", "--")
    missing = (
        " Not submitted: " + ", ".join(latex_system(report, m) for m in ranking.missing) + "."
        if ranking.missing
        else ""
    )
    stand_ins = _stand_in_note([r.system for r in ranking.rows] + ranking.missing)
    note = f" Note: {latex_escape(ranking.note)}." if ranking.note else ""
    kind = "" if ranking.track.id in report.primary_tracks else " (not a primary track)"
    caption = (
        f"{latex_escape(track_title(ranking))}{kind}: systems ranked by "
        f"{_latex_scaled(ranking.metric)}, {get_metric(ranking.metric).direction} is better. "
        f"{latex_escape(interval_text(report))} "
        + cluster_text(report, ranking, "$\\alpha=$")  # kit text only: nothing to escape
        + f" Columns: rank, system, score, 95\\% interval, cluster.{note}{missing}{stand_ins}"
    )
    return _latex_table(
        "rlrlr", header, rows, caption, f"tab:ranking-{latex_label(ranking.track.id)}"
    )
