"""The official ranking as one self-contained HTML page (``ranking.html``): the command that
reproduces it, the overall table and, per track, its systems' scores drawn with their 95% intervals
(inline SVG, coloured by significance cluster) above the track's table. The content is that of
``stats.tables`` (the same cells, scales and sentences); every name is escaped. No files are written here.
"""

from __future__ import annotations

import html
from typing import List

from . import plots
from .metrics import get as get_metric
from .report import html_page
from .stats.ranking import BY_MEAN_RANK, TrackRanking
from .stats.tables import (
    MARK,
    RULE_HEADING,
    GroupTable,
    RankingReport,
    group_cells,
    group_text,
    group_value_label,
    primary_rule_lines,
    track_cell,
    clusters,
    cluster_text,
    interval_text,
    metric_label,
    overall_text,
    primary_label,
    primary_scale,
    scale_of,
    track_rows,
    track_title,
)

_e = html.escape


def render_html(report: RankingReport) -> str:
    parts = [
        f"<h1>Official ranking: {_e(report.title)} ({_e(report.phase)})</h1>",
        f"<p>Reproduce with: <code>{_e(report.command or report.signature)}</code></p>",
        f"<p class='sig'>Settings: {_e(report.signature)}</p>",
        "<h2>Overall</h2>",
        f"<p>{_e(overall_text(report))} {MARK} marks the best system of a track and every system "
        "not significantly different from it; bold, the best score; per-track ranks in brackets.</p>",
        _overall_table(report),
    ]
    parts += [_group_section(report, group) for group in report.groups]
    parts += [_track_section(report, report.rankings[t]) for t in report.track_order()]
    if report.runs:
        parts.append("<h2>Runs ranked</h2><p>Each team's best run by the overall order:</p>")
        parts.append(_list(f"{team}: {run}" for team, run in report.runs.items()))
    parts += _rule_section(report)
    if report.notes:
        parts.append("<h2>Notes</h2>")
        parts.append(_list(f"{n}: {note}" for n, notes in report.notes.items() for note in notes))
    if report.failures:
        parts.append("<h2>Not ranked</h2>")
        parts.append(_list(f"{name}: {reason}" for name, reason in report.failures))
    return html_page(f"{report.title}: official ranking", "\n".join(parts))


def _rule_section(report: RankingReport) -> List[str]:
    lines = primary_rule_lines(report)
    if not lines:
        return []
    rule = f"<p>A primary track not submitted {_e(report.missing_rule)}:</p>"
    return [f"<h2>{RULE_HEADING}</h2>{rule}", _list(lines)]


def _list(items) -> str:
    return "<ul>" + "".join(f"<li>{_e(item)}</li>" for item in items) + "</ul>"


def _table(header: List[str], rows: List[List[str]], left: int = 1) -> str:
    """An HTML table of already escaped cells; column ``left`` (the system) aligned left."""

    def cell(tag: str, k: int, text: str) -> str:
        return f"<{tag} class='l'>{text}</{tag}>" if k == left else f"<{tag}>{text}</{tag}>"

    head = "<tr>" + "".join(cell("th", k, h) for k, h in enumerate(header)) + "</tr>"
    body = "".join(
        "<tr>" + "".join(cell("td", k, c) for k, c in enumerate(cells)) + "</tr>" for cells in rows
    )
    return f"<table>{head}{body}</table>"


def _overall_table(report: RankingReport) -> str:
    track_ids = report.track_order()
    mean = report.overall_rule == BY_MEAN_RANK
    header = ["Rank", "System", _e(primary_label(report))] + (["Mean rank"] if mean else [])
    header += [_column_head(report.rankings[t]) for t in track_ids]
    scale = primary_scale(report)
    rows = []
    for row in report.overall:
        cells = [str(row.rank), _e(row.system), scale.show(row.primary)]
        cells += [f"{row.mean_rank:.2f}"] if mean else []
        rows.append(cells + [_overall_cell(report.rankings[t], row.system) for t in track_ids])
    return _table(header, rows)


def _group_section(report: RankingReport, group: GroupTable) -> str:
    header = ["Rank", "System", group_value_label(group)]
    header += [_e(track_title(report.rankings[t])) for t in group.track_ids]
    rows = [group_cells(group, row, _e) for row in group.rows]
    return f"<h2>{_e(group.name)}</h2><p>{_e(group_text(report, group))}</p>" + _table(header, rows)


def _column_head(ranking: TrackRanking) -> str:
    """A track's column in the overall table: its title, and below it its metric and scale."""
    return f"{_e(track_title(ranking))}<br>{_e(metric_label(ranking.metric))}"


def _overall_cell(ranking: TrackRanking, system: str) -> str:
    text, best, marked = track_cell(ranking, system)
    rank = ranking.rank_of(system)
    text = (f"<b>{text}</b>" if best else text) + (MARK if marked else "")
    return text + (f" ({rank})" if rank is not None else "")


def _track_section(report: RankingReport, ranking: TrackRanking) -> str:
    primary = "" if ranking.track.id in report.primary_tracks else ", not primary"
    label = metric_label(ranking.metric)
    parts = [
        f"<h2>{_e(track_title(ranking))} ({_e(ranking.track.id)}{primary})</h2>",
        f"<p>Main metric: {_e(label)}, {get_metric(ranking.metric).direction} is better. "
        f"{_e(interval_text(report))} {_e(cluster_text(report, ranking))}</p>",
    ]
    if ranking.note:
        parts.append(f"<p class='warn'>Note: {_e(ranking.note)}.</p>")
    if ranking.rows:
        parts.append(f"<div class='fig'>{_chart(ranking, label)}</div>")
    rows = track_rows(ranking, _e)
    header = ["Rank", "System", _e(label), "95% interval", "p vs best", "Cluster"]
    parts.append(_table(header, rows))
    if ranking.missing:
        parts.append(f"<p>Not submitted: {_e(', '.join(ranking.missing))}.</p>")
    return "\n".join(parts)


def _chart(ranking: TrackRanking, label: str) -> str:
    """The track's systems, best first, with their intervals on the table's scale."""
    factor = scale_of([ranking.metric]).factor
    number = clusters(ranking)
    rows = [
        plots.IntervalRow(
            r.system,
            factor * r.value,
            None if r.interval is None else (factor * r.interval.low, factor * r.interval.high),
            number[r.system] - 1,
        )
        for r in ranking.rows
    ]
    title = f"{track_title(ranking)}: score and 95% interval, coloured by cluster"
    return plots.interval_chart(rows, title, label)
