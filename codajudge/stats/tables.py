"""The official ranking as a table model: each table (overall, a group's, a track's) built by one
rule as columns (their heads, scales and the metric they show) and rows of cells (written in the
output's ``Style``), with each row's exact values, and the sentences that explain them. Renderers
write it: ``stats.markdown``, ``render_csv`` (here) and ``stats.latex`` as text for the task paper,
``ranking_page`` as a self-contained HTML page. No files are written here.

Every output begins with the command that reproduces it. Then the overall table (rank, system, the
primary score, each track's main score, the best of a track in bold (every score shown as the
best's is) and the track's first cluster marked ``*``) and one table per track (rank, system,
score, 95% interval, p against the best, the significance cluster), primary tracks first. A
cluster is a tie group of ``ranking.tie_groups``: its best score's systems and the systems after
them up to the first one significantly different from any of its best score's systems (not from
any system before it); its systems share its rank.
Each column's scale is stated once in its head and used for every value in it (``shown``):
correlations, accuracy and macro-F1 x 100 with two decimals, as the published tables; the LeWiDi
distances as they are, with four decimals. The CSV keeps full precision (``Table.records``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, NamedTuple

from ..errors import counted
from ..metrics import get as get_metric
from ..texts import SURROGATES_AS_TEXT, csv_text, kit_text
from .paired import TEST_TITLES, WILLIAMS
from .ranking import (
    BY_MEAN_RANK,
    BY_PRIMARY,
    GROUP_MEAN_RANK,
    GroupRow,
    OverallRow,
    TrackRanking,
)

MARK = "*"
#: Where a track a run did not submit ranks without a stand-in score (``ranking.stand_in_rank``).
AFTER_EVERY_SYSTEM = "is after every system that submitted it"


@dataclass
class GroupTable:
    """A group of tracks' own overall table (``ranking: {groups: ...}``): its ``name``, ``order``
    (``ranking.GROUP_ORDERS``), its tracks and rows (``ranking.rank_group``), the runs left out
    (rule ``unranked``: they did not submit every track of the group) and those that entered none
    of its tracks (``not_entered``: never ranked in it by stand-ins alone)."""

    name: str
    order: str
    track_ids: list[str]
    rows: list[GroupRow]
    left_out: list[str] = field(default_factory=list)
    #: how a track a run did not submit is ranked, in words that follow "whose rank" ("": the rule
    #: 'unranked', no stand-in: the run is left out)
    stand_in_rank: str = AFTER_EVERY_SYSTEM
    not_entered: list[str] = field(default_factory=list)


class Settings(NamedTuple):
    """The options behind a ranking, each named as ``codajudge rank``'s option: the test, its
    level, the bootstrap's resamples and seed, the overall order (``ranking.OVERALL_RULES``), the
    command line that reproduces them, and the page columns a wide LaTeX table spans
    (``latex.LATEX_WIDTHS``: by its width, 1 or 2)."""

    test: str = "auto"
    alpha: float = 0.05
    resamples: int = 0
    seed: int = 0
    overall: str = BY_PRIMARY
    command: str = ""
    latex_width: str = "auto"


@dataclass
class RankingReport:
    """Everything the tables show. ``failures`` are (submission or team, reason) pairs not ranked;
    ``notes`` the scoring program's notes on each ranked submission that has any (files ignored...);
    ``runs`` (ranking by team) each team's run kept, team -> run."""

    spec: object  # spec.TaskSpec: the edition's title, phase, primary tracks and primary rule
    signature: str
    rankings: dict[str, TrackRanking]
    overall: list[OverallRow]
    failures: list[tuple[str, str]] = field(default_factory=list)
    notes: dict[str, list[str]] = field(default_factory=dict)
    settings: Settings = Settings()
    runs: dict[str, str] = field(default_factory=dict)
    #: (run, note) of each run the missing-track rule applied to (``programs.rank.primary_rule_notes``)
    rule_notes: list[tuple[str, str]] = field(default_factory=list)
    #: the groups of tracks' own overall tables, in the edition's order
    groups: list[GroupTable] = field(default_factory=list)
    #: how a primary track a run did not submit is ranked in the overall mean rank, in words
    #: ("": the rule 'unranked', no stand-in: the run is left out)
    stand_in_rank: str = AFTER_EVERY_SYSTEM

    @property
    def primary_tracks(self) -> list[str]:
        """The primary tracks' ids, in the edition's order."""
        return [t.id for t in self.spec.primary_tracks]

    def track_order(self) -> list[str]:
        """Track ids, the primary tracks first, each group in the edition's order."""
        return sorted(self.rankings, key=lambda t: t not in self.primary_tracks)  # a stable sort


def shown(value: float | None, percent: bool) -> str:
    """A value as its column prints it: x 100 with two decimals when the column is ``percent``
    (correlations, accuracy, macro-F1), else as it is with four (the LeWiDi distances); "-" for
    none."""
    if value is None:
        return "-"
    return f"{100.0 * value:.2f}" if percent else f"{value:.4f}"


def clusters(ranking: TrackRanking) -> dict[str, int]:
    """Each system's significance cluster on a track, numbered 1, 2, ... from the best."""
    ranks = list(dict.fromkeys(row.rank for row in ranking.rows))  # one per cluster, best first
    return {row.system: ranks.index(row.rank) + 1 for row in ranking.rows}


def overall_text(report: RankingReport) -> str:
    """What the overall order is, in a sentence (plain text): template ``ranking/overall_RULE``."""
    rule = report.spec.primary_rule
    return kit_text(
        f"ranking/overall_{report.settings.overall}",
        tracks=", ".join(report.rankings[t].track.title for t in report.primary_tracks),
        normalised=kit_text("ranking/normalised") if rule.normalised else "",
        missing=rule.missing_words(),
        stand_in=stand_in_text(report.stand_in_rank, kit_text("ranking/mean_rank_left_out")),
    )


def stand_in_text(stand_in: str, left_out: str) -> str:
    """How a table shows a track a run did not submit: the rank counted for it, which
    ``stand_in`` (template ``ranking/stand_in``); without one (rule 'unranked'), ``left_out``."""
    if not stand_in:
        return left_out
    return kit_text("ranking/stand_in", mark=STAND_IN_RANK, stand_in=stand_in)


#: Marks a track rank that a stand-in gave a run that did not submit the track (group tables, the
#: overall table under the mean rank).
STAND_IN_RANK = "+"


def group_text(report: RankingReport, group: GroupTable) -> str:
    """What a group's table is, in a sentence (plain text): template ``ranking/group``, its order
    told by ``ranking/group_ORDER``."""
    names = ", ".join(report.rankings[t].track.title for t in group.track_ids)
    how = kit_text(f"ranking/group_{group.order}", tracks=names)
    runs = ", ".join(group.left_out)
    left_out = kit_text("ranking/group_left_out", runs=runs) if runs else ""
    stand_in = stand_in_text(group.stand_in_rank, left_out)
    return kit_text("ranking/group", name=group.name, how=how, stand_in=stand_in).rstrip()


def header_text(
    report: RankingReport, template: str, escape: Callable[[str], str], code=None
) -> str:
    """An output's header (template ``ranking/OUTPUT_header``): the edition's title and phase
    through ``escape``, the command that reproduces the ranking and its settings through ``code``
    (default: ``escape``)."""
    code = code or escape
    return kit_text(
        template,
        title=escape(report.spec.title),
        phase=escape(report.spec.phase),
        command=code(report.settings.command or report.signature),
        settings=code(report.signature),
    )


def _runs_intro(report: RankingReport) -> str:
    """The sentence before the runs kept per team: by the overall order, and, where some team has
    no overall rank (each of its runs without a primary score), how many and which run stands."""
    ranked = {row.system for row in report.overall}
    count = sum(team not in ranked for team in report.runs)
    unranked = kit_text("ranking/runs_unranked", count=counted(count, "team")) if count else ""
    return kit_text("ranking/runs_intro", unranked=unranked)


def closing_lists(
    report: RankingReport, escape: Callable[[str], str], notes_intro: bool = True
) -> list[tuple]:
    """The lists the pages end with, each that has items: (heading, intro (the kit's text, a
    field through ``escape``; none for the notes without ``notes_intro``), items ("name: text",
    plain text)). The runs kept per team, the runs the missing-track rule applied to, the scoring
    program's notes, the submissions not ranked."""
    rule = kit_text("ranking/rule_intro", missing=escape(report.spec.primary_rule.missing_words()))
    notes = [(name, note) for name, notes in report.notes.items() for note in notes]
    lists = [
        ("Runs ranked", _runs_intro(report), list(report.runs.items())),
        ("Primary tracks not submitted", rule, report.rule_notes),
        ("Notes", kit_text("ranking/notes_intro") if notes_intro else "", notes),
        ("Not ranked", "", report.failures),
    ]
    return [
        (heading, intro, [f"{name}: {text}" for name, text in pairs])
        for heading, intro, pairs in lists
        if pairs
    ]


def interval_text(report: RankingReport) -> str:
    """How the intervals were computed, in a sentence (plain text)."""
    if report.settings.resamples < 1:
        return kit_text("ranking/no_intervals")
    settings = report.settings
    return kit_text("ranking/intervals", resamples=settings.resamples, seed=settings.seed)


def cluster_rule() -> str:
    """Which systems a cluster holds, in words (template ``ranking/cluster_rule``): every output's
    track sentence, legend and overall caption say it alike."""
    return kit_text("ranking/cluster_rule")


def cluster_text(report: RankingReport, ranking: TrackRanking, alpha: str = "alpha ") -> str:
    """What a cluster is on this track, in a sentence (plain text; ``alpha`` before the level)."""
    level = f"{alpha}{report.settings.alpha:g}"
    return kit_text(
        "ranking/clusters", rule=cluster_rule(), test=TEST_TITLES[ranking.test], alpha=level
    )


#: Control characters (newlines, tabs, carriage returns...) and line separators, each as a space.
LINE_BREAKS_AS_SPACES = dict.fromkeys([*range(32), 127, 0x85, 0x2028, 0x2029], " ")
ONE_LINE = {**SURROGATES_AS_TEXT, **LINE_BREAKS_AS_SPACES}


def one_line(text) -> str:
    """``text`` on one line, undecodable bytes as text (``ONE_LINE``)."""
    return str(text).translate(ONE_LINE)


#: How Markdown and HTML state that a column is printed x 100 (LaTeX: ``TIMES_100``).
TIMES = "×100"


def paper_tracks(report: RankingReport) -> list[str]:
    """The track columns of the paper's overall table: every track, or the primary ones only when
    groups have tables of their own (LeWiDi's 8 tracks would not fit a page's width)."""
    return [t for t in report.track_order() if t in report.primary_tracks or not report.groups]


class Column(NamedTuple):
    """A table's column. ``head`` is its title; ``percent``: its values are printed x 100, said
    after the head; ``metric``: the metric whose label (and scale) the pages show with the head.
    ``names``: it holds systems' names; ``interval``: 95% intervals ``[low, high]`` (the paper
    writes ``low--high``); both align left in Markdown and the paper, names alone in HTML. The
    paper's table shows it unless ``in_paper`` is False, headed ``paper`` when that is given, and
    breaks a ``wraps`` head over two lines."""

    head: str
    percent: bool = False
    metric: str = ""
    names: bool = False
    interval: bool = False
    paper: str | None = None
    in_paper: bool = True
    wraps: bool = False

    @property
    def left(self) -> bool:
        """Whether Markdown and the paper align it left (names and intervals)."""
        return self.names or self.interval

    def label(self, escape: Callable[[str], str] = str, times: str = TIMES) -> str:
        """The head (through ``escape``), with its scale (``times``) when its values are printed
        x 100."""
        return f"{escape(self.head)} ({times})" if self.percent else escape(self.head)

    def page_head(self, escape: Callable[[str], str], between: str) -> str:
        """The head as the pages show it, through ``escape``: its label, then ``between`` and its
        metric's label when it has a metric."""
        metric = f"{between}{escape(metric_label(self.metric))}" if self.metric else ""
        return escape(self.label()) + metric


RANK = Column("Rank")
SYSTEM = Column("System", names=True)


def metric_label(metric_name: str, escape: Callable[[str], str] = str, times: str = TIMES) -> str:
    """A metric's title (through ``escape``) and, when its values are printed x 100, that scale
    (``times``)."""
    metric = get_metric(metric_name)
    return Column(metric.title, percent=metric.percent).label(escape, times)


class Table(NamedTuple):
    """One table: its columns, each row's cells as its output prints them (``Style``), and each
    row's exact values for the CSV (``CSV_COLUMNS`` -> a number at full precision, a text, or
    None)."""

    columns: list[Column]
    rows: list[list[str]]
    records: list[dict[str, object]]


class Style(NamedTuple):
    """How an output writes cells: a name through ``name`` (the output's escaping), the best score
    of a track in ``bold`` (a format string), ``mark`` after a score not significantly different
    from the best, and the system's rank on the track after a score in the overall table when
    ``ranks`` (the pages, not the paper). The default: plain text."""

    name: Callable[[str], str] = str
    bold: str = "{}"
    mark: str = MARK
    ranks: bool = True


def overall_table(report: RankingReport, style: Style) -> Table:
    """Rank, system, primary score, the mean rank (overall rule ``mean_rank``) and each track's
    score, in the overall order, written in ``style``; by the mean rank, a primary track a run did
    not submit shows the rank counted for it (``STAND_IN_RANK`` after it; in the CSV, in
    ``note``)."""
    settings, order = report.settings, report.track_order()
    mean = settings.overall == BY_MEAN_RANK
    in_paper = paper_tracks(report)
    primary = primary_column(report)
    columns = [RANK, SYSTEM, primary] + ([Column("Mean rank")] if mean else [])
    for t in order:
        ranking = report.rankings[t]
        title, metric = ranking.track.title, ranking.metric
        columns.append(Column(title, metric=metric, in_paper=t in in_paper, wraps=True))
    rows, records = [], []
    for row in report.overall:
        cells = [str(row.rank), style.name(row.system), shown(row.primary, primary.percent)]
        cells += [f"{row.mean_rank:.2f}"] if mean else []
        counted = {t: f"{rank}{STAND_IN_RANK}" for t, rank in row.stand_in_ranks.items()}
        shown_counted = counted if mean else {}  # the tables show the mean rank by it alone
        cells += [_score_cell(report.rankings[t], row.system, style, shown_counted) for t in order]
        rows.append(cells)
        # a row's fields (system, rank, mean_rank, primary) are CSV columns; the note says the
        # rank its mean_rank counted for a track not submitted, whatever the overall rule
        note = "; ".join(f"{t}={rank}" for t, rank in counted.items()) or None
        records.append(dict(vars(row), table="overall", metric=settings.overall, note=note))
    return Table(columns, rows, records)


def primary_column(report: RankingReport) -> Column:
    """The primary score's column: x 100 when every primary track's main metric prints x 100,
    as is when the mean is normalised."""
    if report.spec.primary_rule.normalised:
        return Column("Primary score (normalised)", wraps=True)
    metrics = [report.rankings[t].metric for t in report.primary_tracks if t in report.rankings]
    percent = bool(metrics) and all(get_metric(m).percent for m in metrics)
    return Column("Primary score", percent=percent, wraps=True)


def _score_cell(ranking: TrackRanking, system: str, style: Style, counted: dict) -> str:
    """A system's score on a track in the overall table: bold when the best as shown (a score
    that prints as the best's is as bold), marked when tied with the best, with its rank on the
    track; "-" when it did not submit the track, with the rank ``counted`` for it (track id ->
    rank) where there is one."""
    row = next((r for r in ranking.rows if r.system == system), None)
    if row is None:
        return f"- ({counted[ranking.track.id]})" if ranking.track.id in counted else "-"
    percent = get_metric(ranking.metric).percent
    text = shown(row.value, percent)
    text = style.bold.format(text) if text == shown(ranking.rows[0].value, percent) else text
    text += style.mark if row.tied_with_best else ""
    return text + (f" ({row.rank})" if style.ranks else "")


def group_table(report: RankingReport, group: GroupTable, style: Style) -> Table:
    """A group's table: place, system, the group's number (mean rank or mean score) and the rank
    on each track (``STAND_IN_RANK`` after a stand-in's). In the CSV (table ``group``, its name in
    ``title``): the mean rank in ``mean_rank`` or the mean score in ``value``, and each track's rank
    in ``note``."""
    by_rank = group.order == GROUP_MEAN_RANK
    columns = [RANK, SYSTEM, Column("Mean rank" if by_rank else "Mean score")]
    columns += [Column(report.rankings[t].track.title, wraps=True) for t in group.track_ids]
    group_fields = dict(table="group", metric=group.order, title=group.name)
    rows, records = [], []
    for row in group.rows:
        ranks = {
            t: f"{row.track_ranks[t]}{STAND_IN_RANK if t in row.stand_ins else ''}"
            for t in group.track_ids
        }
        value = f"{row.value:.2f}" if by_rank else f"{row.value:.4f}"
        rows.append([str(row.rank), style.name(row.system), value, *ranks.values()])
        # system and rank are CSV columns; value is the mean score's, a mean rank has its own
        mean = dict(value=None, mean_rank=row.value) if by_rank else {}
        note = "; ".join(f"{t}={rank}" for t, rank in ranks.items())
        records.append(dict(vars(row), **mean, **group_fields, note=note))
    # a run that entered none of the group's tracks: a row without a rank, saying so
    not_entered = kit_text("ranking/group_not_entered_note")
    records += [dict(system=name, **group_fields, note=not_entered) for name in group.not_entered]
    return Table(columns, rows, records)


def group_remarks(group: GroupTable, name: Callable[[str], str]) -> str:
    """The sentence naming the runs that entered none of the group's tracks (each name through
    ``name``), "" when there is none."""
    runs = ", ".join(map(name, group.not_entered))
    return kit_text("ranking/group_not_entered", runs=runs) if runs else ""


def track_table(ranking: TrackRanking, style: Style) -> Table:
    """A track's table: rank, system, score, 95% interval, p against the best (not in the paper)
    and cluster."""
    percent = get_metric(ranking.metric).percent
    columns = [
        Column("Rank", paper="#"),
        SYSTEM,
        Column(get_metric(ranking.metric).title, percent=percent, paper="Score"),
        Column("95% interval", interval=True, paper="95% CI"),
        Column("p vs best", in_paper=False),
        Column("Cluster", paper="Cl."),
    ]
    number = clusters(ranking)
    perfect = bool(ranking.rows) and (ranking.rows[0].value or 0.0) >= 1.0 - 1e-12
    # the CSV columns every row of the track shares
    track_fields = dict(
        table=ranking.track.id,
        metric=ranking.metric,
        title=ranking.track.title,
    )
    rows, records = [], []
    for r in ranking.rows:
        low, high = (r.interval.low, r.interval.high) if r.interval else (None, None)
        none = "-" if r.undefined else "n/a"  # an undefined score has none, see the track's note
        interval = f"[{shown(low, percent)}, {shown(high, percent)}]" if r.interval else none
        # every p below 0.0001 is "<0.0001" (compared before rounding: 8.9e-05 is not "0.0001"),
        # never "0.0000" (a p of 0); escaped as text
        p_value = "-" if r.p_value is None else f"{r.p_value:.4f}"
        p_value = style.name("<0.0001") if r.p_value is not None and r.p_value < 1e-4 else p_value
        cells = [str(r.rank), style.name(r.system), shown(r.value, percent), interval, p_value]
        rows.append([*cells, str(number[r.system])])
        # system, value, rank and tied_with_best are CSV columns
        found = dict(ci_low=low, ci_high=high, p_vs_best=r.p_value, cluster=number[r.system])
        # an undefined score is not tested; a pair of few differing items had the exact test
        found["test"] = None if r.undefined else (r.test or ranking.test)
        # a p that underflowed to 0.0 is kept as computed, and said so
        underflow = kit_text("ranking/p_underflow") if r.p_value == 0.0 else None
        # against a perfect system (r = 1) Williams' test is degenerate: its p is the floor
        floor = perfect and found["test"] == WILLIAMS and r.p_value is not None and r.p_value < 1
        floored = kit_text("ranking/p_floor_perfect") if floor else None
        found["note"] = ". ".join(filter(None, (ranking.note, underflow, floored)))
        records.append(dict(vars(r), **found, **track_fields))
    return Table(columns, rows, records)


class Section(NamedTuple):
    """A table as the pages (Markdown, HTML) show it, each text through the page's escaping: its
    ``heading`` (a track's with its id in brackets), its ``intro`` (the first's followed by the
    legend), a track's ``note`` before the table and the systems that did not submit it after
    (``missing``), each "" when there is none; a track's section holds its ``ranking`` (the
    pages draw its intervals)."""

    heading: str
    intro: str
    table: Table
    note: str = ""
    missing: str = ""
    ranking: TrackRanking | None = None


def page_sections(report: RankingReport, style: Style = Style(), mark: str = MARK) -> list[Section]:
    """The overall table, each group's, then each track's, primary tracks first, written in
    ``style``, their texts through its escaping (the legend names ``mark``); a track's intro states
    its main metric, its direction, its intervals and its clusters."""
    escape = style.name
    legend = " " + kit_text("ranking/legend", mark=mark, rule=cluster_rule())
    overall = overall_table(report, style)
    sections = [Section("Overall", escape(overall_text(report)) + legend, overall)]
    for group in report.groups:
        intro = escape(group_text(report, group))
        table, missing = group_table(report, group, style), group_remarks(group, escape)
        sections.append(Section(escape(group.name), intro, table, missing=missing))
    for t in report.track_order():
        ranking = report.rankings[t]
        intro = kit_text(
            "ranking/track_intro",
            metric=metric_label(ranking.metric),
            direction=get_metric(ranking.metric).direction,
            intervals=interval_text(report),
            clusters=cluster_text(report, ranking),
        )
        tag = t if t in report.primary_tracks else f"{t}, not primary"
        heading = f"{escape(ranking.track.title)} ({escape(tag)})"
        table = track_table(ranking, style)
        if not ranking.rows:  # one line, not a table of no rows
            sections.append(Section(heading, kit_text("ranking/nobody_submitted"), table))
            continue
        note, missing = track_remarks(ranking, escape, escape)
        sections.append(Section(heading, escape(intro), table, note, missing, ranking))
    return sections


def track_remarks(ranking: TrackRanking, escape: Callable, name: Callable) -> tuple[str, str]:
    """A track's note (through ``escape``) and the sentence naming the systems that did not
    submit it (each name through ``name``), each "" when there is none."""
    note = kit_text("ranking/track_note", note=escape(ranking.note)) if ranking.note else ""
    systems = ", ".join(map(name, ranking.missing))
    return note, kit_text("ranking/not_submitted", systems=systems) if ranking.missing else ""


CSV_COLUMNS = (
    "table",
    "rank",
    "system",
    "run",  # with --teams: the run that stands for the team (the system) in every table
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
    """A record's value as its CSV cell: a flag as 0 or 1, and a text (a name, a reason) as a
    spreadsheet shows text: a leading quote before a formula start, as OWASP advises (a negative
    score, a number, stays a number). The csv module writes the rest: a float by ``repr`` (full
    precision), None empty."""
    if isinstance(value, str):
        return "'" + value if value.startswith(FORMULA_STARTS) else value
    return int(value) if isinstance(value, bool) else value


def render_csv(report: RankingReport) -> str:
    """The official ranking as one CSV table (``ranking.csv``): the command first (table
    ``command``, in ``note``), then one row per system overall, per group and per (track, system)
    (with ``--teams``, each naming in ``run`` the run that stands for the team), then the
    missing-track rule's runs, the runs kept per team, the notes and the failures; empty
    cells where not applicable. Numbers at full precision (``repr``); every text cell made safe for
    spreadsheets (``_cell``)."""
    records = [dict(table="command", note=report.settings.command or report.signature)]
    for section in page_sections(report):
        records += [dict(r, run=report.runs.get(r.get("system"))) for r in section.table.records]
    notes = [(name, note) for name, notes in report.notes.items() for note in notes]
    listed = {
        "primary_rule": report.rule_notes,
        "team_run": report.runs.items(),
        "submission_note": notes,
        "not_ranked": report.failures,
    }
    for table, pairs in listed.items():
        records += [dict(table=table, system=name, note=note) for name, note in pairs]
    return csv_text(CSV_COLUMNS, ([_cell(r.get(name)) for name in CSV_COLUMNS] for r in records))
