"""The official ranking as a LaTeX fragment for the task paper (``ranking.tex``) from the table
model of ``stats.tables``: the overall table, each group's, then one table per track, primary
tracks first, each a booktabs table with its caption and label, fitted to the line's width
(``\\cjfit``) and across both columns of the page when wide. Every name is escaped; a name
pdfLaTeX cannot set is written as a marked stand-in (``latex_system``)."""

import re
from collections.abc import Iterable

from ..errors import counted
from ..metrics import get as get_metric
from ..texts import kit_text
from . import tables
from .paired import TEST_TITLES
from .ranking import TrackRanking
from .tables import RankingReport, Style, Table

NAMED_SPECIALS = ("backslash", "asciitilde", "asciicircum", "bar", "less", "greater")
#: TeX's special characters, each as a command or escaped; ``| < >`` too, which the default font
#: encoding would print as other glyphs.
_LATEX_SPECIAL = {ch: "\\" + ch for ch in "&%$#_{}"}
_LATEX_SPECIAL.update({ch: f"\\text{name}{{}}" for ch, name in zip("\\~^|<>", NAMED_SPECIALS)})


#: What pdfLaTeX sets with ``\\usepackage[T1]{fontenc}`` (UTF-8 input): printable ASCII, Latin-1
#: and Latin Extended-A but the nine letters T1 lacks (measured with TeX Live 2023;
#: tests/test_ranking.py compiles them all where pdflatex is installed).
PDFLATEX_CHARACTERS = frozenset(map(chr, [*range(0x20, 0x7F), *range(0xA0, 0x180)])) - set(
    "\u0126\u0127\u0138\u013f\u0140\u0149\u0166\u0167\u017f"
)
#: ``--latex-width`` (``Settings.latex_width``): the page's columns a wide table may span; auto
#: sets a table across both columns of a two-column page by its width (``estimated_width``).
LATEX_WIDTHS = ("auto", "1", "2")


def pdflatex_sets(text) -> bool:
    """Every character of ``text`` is one pdfLaTeX sets (``PDFLATEX_CHARACTERS``)."""
    return all(ch in PDFLATEX_CHARACTERS for ch in tables.one_line(text))


def latex_escape(text) -> str:
    """Text typeset as itself: TeX's special characters replaced, control characters as spaces (so a
    value cannot end a ``%`` comment line or start a new one), and a character pdfLaTeX cannot set
    as its code point, ``[U+4E2D]``."""
    return "".join(
        _LATEX_SPECIAL.get(ch) or (ch if ch in PDFLATEX_CHARACTERS else f"[U+{ord(ch):04X}]")
        for ch in tables.one_line(text)
    )


#: Marks a name pdfLaTeX cannot set, written in ``ranking.tex`` as a stand-in (``latex_system``).
STAND_IN_MARK = "$^{\\dagger}$"


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
    if all(pdflatex_sets(name) for name in names):
        return ""
    return " " + kit_text("ranking/latex_stand_in", mark=STAND_IN_MARK)


TIMES_100 = r"$\times 100$"


def latex_label(text: str) -> str:
    """A ``\\label`` key from any text: letters, digits and hyphens only."""
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower() or "track"


def render_latex(report: RankingReport) -> str:
    """A fragment for the paper (template ``ranking/latex_header``: the packages it needs, booktabs
    and T1 fontenc, and ``\\cjfit``, which scales a table down to the line's width when wider):
    the overall table, then one table per track, primary tracks first, each with its caption and
    label, then the submissions not ranked, each with its reason, as comments."""
    # each comment on one line (a value cannot end it), undecodable bytes as text
    lines = [tables.header_text(report, "ranking/latex_header", tables.one_line)]
    style = Style(lambda name: latex_system(report, name), "\\textbf{{{}}}", "$^{\\ast}$", False)
    lines += _latex_overall(report, style)
    for group in report.groups:
        stand_ins = _stand_in_note(row.system for row in group.rows)
        missing = tables.group_remarks(group, style.name)
        caption = f"{latex_escape(tables.group_text(report, group))}{stand_ins}"
        caption += f" {missing}" if missing else ""
        label = f"tab:ranking-group-{latex_label(group.name)}"
        lines += _latex_table(report, tables.group_table(report, group, style), caption, label)
    for tid in report.track_order():
        lines += _latex_track(report, report.rankings[tid], style)
    if report.failures:  # as comments: the paper shows the ranked systems only
        lines += ["% Not ranked:"]
        lines += [
            f"% - {tables.one_line(name)}: {tables.one_line(why)}" for name, why in report.failures
        ]
    return "\n".join(lines) + "\n"


def _latex_head(column) -> str:
    """A column's head: the paper's own when it has one; a head that ``wraps`` over two lines."""
    if column.paper is not None:
        return latex_escape(column.paper)
    text = column.label(latex_escape, TIMES_100)
    return latex_stack(text) if column.wraps else text


def latex_cell(column, text: str) -> str:
    """A cell of the paper's table: a number's minus sign as a minus (``$-$``: a hyphen in text
    would print as one, and ``---`` as an em dash), an interval ``[low, high]`` as ``low--high``
    (``n/a`` as it is); a system's name as it is."""
    if column.names:
        return text
    text = re.sub(r"-(?=\d)", "$-$", text)
    return text.strip("[]").replace(", ", "--") if column.interval else text


def _latex_table(
    report: RankingReport, table: Table, caption: str, label: str, may_span: bool = True
) -> list[str]:
    """A booktabs table in ``\\small`` of the columns the paper shows, fitted to its width
    (``\\cjfit``); across both columns of a two-column page (``table*``) when it ``may_span``
    and is wide: by ``--latex-width``, or, when automatic, when its estimated width exceeds one
    column of an ACL page."""
    shown = [c for c in table.columns if c.in_paper]
    header = [_latex_head(c) for c in shown]
    rows = [
        [latex_cell(c, text) for c, text in zip(table.columns, cells) if c.in_paper]
        for cells in table.rows
    ]
    span = report.settings.latex_width  # --latex-width: auto, by the estimated width; 1 or 2
    wide = estimated_width(header, rows) > ACL_COLUMN_PT if span == "auto" else span == "2"
    table = kit_text(
        "ranking/latex_table",
        env="table*" if may_span and wide else "table",
        columns="".join("l" if c.left else "r" for c in shown),
        header=" & ".join(header),
        rows="".join(" & ".join(cells) + " \\\\\n" for cells in rows),
        caption=caption,
        label=label,
    )
    return ["", table]


#: One column of an ACL two-column page (A4, 2.5 cm margins, 0.6 cm apart), in points.
ACL_COLUMN_PT = 219.0
#: Roughly the width of one character of ``\\small`` text in an 11 pt document, in points.
SMALL_CHARACTER_PT = 5.0
#: Space between two columns of a table (twice ``\\tabcolsep``), in points.
COLUMN_GAP_PT = 2 * 2.5


def estimated_width(header: list[str], rows: list[list[str]]) -> float:
    """A table's width in points, estimated from the widest text of each column (a stacked head
    counts its longer line; LaTeX commands count nothing)."""
    widths = [max(map(_visible_length, column)) for column in zip(header, *rows)]
    return SMALL_CHARACTER_PT * sum(widths) + COLUMN_GAP_PT * len(header)


def _visible_length(cell: str) -> int:
    """The characters a cell prints on its longest line, roughly (commands and braces dropped)."""
    lines = re.sub(r"\\begin\{tabular\}\[b\]\{@\{\}c@\{\}\}|\\end\{tabular\}", "", cell)
    plain = [re.sub(r"\\[A-Za-z]+|[{}$^]", "", line) for line in lines.split("\\\\")]
    return max(len(line) for line in plain)


def _latex_overall(report: RankingReport, style: Style) -> list[str]:
    rankings = [report.rankings[t] for t in tables.paper_tracks(report)]
    tests = ", ".join(dict.fromkeys(TEST_TITLES[ranking.test] for ranking in rankings))
    named = [
        f"{latex_escape(ranking.track.title)}: "
        + tables.metric_label(ranking.metric, latex_escape, TIMES_100)
        for ranking in rankings
    ]
    caption = kit_text(
        "ranking/latex_overall_caption",
        title=latex_escape(report.spec.title),
        order=latex_escape(tables.overall_text(report)),
        tests=latex_escape(tests),
        rule=tables.cluster_rule(),
        alpha=f"{report.settings.alpha:g}",
        stand_ins=_stand_in_note(row.system for row in report.overall),
        rules="".join(f" {latex_escape(f'{name}: {note}')}." for name, note in report.rule_notes),
        columns="; ".join(named),
    )
    overall = tables.overall_table(report, style)
    table = _latex_table(report, overall, caption, "tab:ranking-overall")
    left_out = [t for t in report.track_order() if t not in tables.paper_tracks(report)]
    if not left_out:
        return table
    said = kit_text("ranking/latex_overall_left_out", count=counted(len(left_out), "track"))
    return ["", tables.one_line(f"% {said}: {', '.join(left_out)}"), *table[1:]]


def latex_stack(text: str) -> str:
    """``text`` (already escaped) on two lines split at the space nearest its middle, or as it is."""
    spaces = [k for k, ch in enumerate(text) if ch == " "]
    if not spaces:
        return text
    cut = min(spaces, key=lambda k: abs(2 * k - len(text)))
    return f"\\begin{{tabular}}[b]{{@{{}}c@{{}}}}{text[:cut]}\\\\{text[cut + 1 :]}\\end{{tabular}}"


def _latex_track(report: RankingReport, ranking: TrackRanking, style: Style) -> list[str]:
    if not ranking.rows:  # a comment line, not a table of no rows in the paper
        title = tables.one_line(f"{ranking.track.title} ({ranking.track.id})")
        return ["", f"% {title}: {kit_text('ranking/nobody_submitted')}"]
    note, missing = tables.track_remarks(ranking, latex_escape, style.name)
    caption = kit_text(
        "ranking/latex_track_caption",
        track=latex_escape(ranking.track.title),
        kind="" if ranking.track.id in report.primary_tracks else " (not a primary track)",
        metric=tables.metric_label(ranking.metric, latex_escape, TIMES_100),
        direction=get_metric(ranking.metric).direction,
        intervals=latex_escape(tables.interval_text(report)),
        clusters=tables.cluster_text(report, ranking, "$\\alpha=$"),  # kit text: nothing to escape
        note=f" {note}" if note else "",
        missing=f" {missing}" if missing else "",
        stand_ins=_stand_in_note([r.system for r in ranking.rows] + ranking.missing),
    )
    label = f"tab:ranking-{latex_label(ranking.track.id)}"
    return _latex_table(report, tables.track_table(ranking, style), caption, label, may_span=False)
