"""The official ranking as one self-contained HTML page (``ranking.html``): the command that
reproduces it, the overall table and, per track, its systems' scores drawn with their 95% intervals
(inline SVG, coloured by significance cluster) above the track's table. The tables and sentences
are those of ``stats.tables``' model (``page_sections``, as ranking.md walks them); every name is escaped. No
files are written here.
"""

import html

from . import plots
from .metrics import get as get_metric
from .report import html_page, html_table
from .stats import tables
from .texts import kit_text
from .stats.ranking import TrackRanking
from .stats.tables import RankingReport, Style

_e = html.escape
STYLE = Style(_e, "<b>{}</b>", tables.MARK)


def render_html(report: RankingReport) -> str:
    parts = [tables.header_text(report, "ranking/html_header", _e)]
    for number, section in enumerate(tables.page_sections(report, STYLE)):
        shown = [f"<h2>{section.heading}</h2>", f"<p>{section.intro}</p>"]
        shown += [f"<p class='warn'>{section.note}</p>"] if section.note else []
        if section.ranking and section.ranking.rows:
            shown.append(f"<div class='fig'>{_chart(section.ranking)}</div>")
        # a column of names aligns left (html_table's LEFT is True)
        columns = [(c.page_head(_e, "<br>"), c.names) for c in section.table.columns]
        shown += [html_table(columns, section.table.rows)] if section.table.rows else []
        shown += [f"<p>{section.missing}</p>"] if section.missing else []
        # a group's heading, sentence and table stand on one line
        parts.append(("" if number and not section.ranking else "\n").join(shown))
    # the page lists the scoring program's notes under their heading alone
    for heading, intro, items in tables.closing_lists(report, _e, notes_intro=False):
        shown = f"<p>{intro}</p>" if intro else ""
        listed = "".join(f"<li>{_e(item)}</li>" for item in items)
        parts += [f"<h2>{heading}</h2>{shown}", f"<ul>{listed}</ul>"]
    return html_page(f"{report.spec.title}: official ranking", "\n".join(parts))


def _chart(ranking: TrackRanking) -> str:
    """The track's systems, best first, with their intervals on the table's scale."""
    factor = 100.0 if get_metric(ranking.metric).percent else 1.0
    number = tables.clusters(ranking)
    rows = [
        plots.IntervalRow(
            r.system,
            factor * r.value,
            None if r.interval is None else (factor * r.interval.low, factor * r.interval.high),
            number[r.system] - 1,
        )
        for r in ranking.rows
    ]
    title = kit_text("ranking/chart_title", track=ranking.track.title)
    # the tooltips write the values as the track's table does (already x 100 where it prints so)
    shown = "{:.2f}".format if factor == 100.0 else "{:.4f}".format
    return plots.interval_chart(rows, title, tables.metric_label(ranking.metric), shown)
