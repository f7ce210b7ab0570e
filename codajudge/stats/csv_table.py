"""The official ranking as one CSV table (``ranking.csv``) from the table model of
``stats.tables``: the command first (table ``command``, in ``note``), then one row per system
overall, per group and per (track, system), then the missing-track rule's runs, the runs kept per
team, the notes and the failures; empty cells where not applicable. Numbers at full precision
(``repr``); every text cell made safe for spreadsheets (``_cell``)."""

from __future__ import annotations

import csv
import io

from .tables import RankingReport, group_table, overall_table, primary_rule_notes, track_table

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


def _cell(value) -> object:
    """A record's value as its CSV cell: a flag as 0 or 1, a float by ``repr`` (full precision),
    None empty, and a text (a name, a reason) as a spreadsheet shows text: a leading quote before
    a formula start, as OWASP advises (a negative score, a number, stays a number)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return "'" + value if value.startswith(FORMULA_STARTS) else value
    if isinstance(value, bool):
        return int(value)
    return repr(value) if isinstance(value, float) else value


def render_csv(report: RankingReport) -> str:
    records = [dict(table="command", note=report.settings.command or report.signature)]
    records += overall_table(report).records
    for group in report.groups:
        records += group_table(report, group).records
    for tid in report.track_order():
        records += track_table(report.rankings[tid]).records
    records += [
        dict(table="primary_rule", system=name, note=note)
        for name, note in primary_rule_notes(report)
    ]
    records += [dict(table="team_run", system=team, note=run) for team, run in report.runs.items()]
    records += [
        dict(table="submission_note", system=name, note=note)
        for name, notes in report.notes.items()
        for note in notes
    ]
    records += [dict(table="not_ranked", system=name, note=why) for name, why in report.failures]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    writer.writerows([_cell(record.get(name)) for name in CSV_COLUMNS] for record in records)
    return buffer.getvalue()
