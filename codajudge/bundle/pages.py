"""Pages generated from the edition itself, so they can never disagree with what is scored:
data and formats, evaluation (every metric's definition), baselines with their scores, timeline.

Their words are the templates ``templates/data.md``, ``evaluation.md``, ``baselines.md``,
``timeline.md`` and the parts in the folders of those names (``bundle.prose``); a kind's own text
is ``templates/kinds/KIND_PART.md``, a baseline's ``templates/baseline/NAME.md`` and a metric's
``templates/metrics/NAME.md``."""

from __future__ import annotations

import datetime as dt
from typing import Dict, List, Optional, Tuple

from .. import kinds
from ..formats.results_tsv import layout_files
from ..importers import gold_choices
from ..kinds import Kind
from ..metrics import get as get_metric
from ..spec import BASELINE, NORMALISED
from ..tracks import PRIMARY_KEY
from .compose import score_rows
from .edition import DATE_FORMAT, Edition
from . import kit_readme
from .kit_readme import LocalScore, what_is_scored
from .prose import Templates, kind_text, listed

#: How long before the next phase starts Codabench's conversion of a CodaLab v1.5 bundle ends one.
ONE_DAY = dt.timedelta(days=1)


def md_cell(text: str) -> str:
    """Text that stays inside one cell of a Markdown table (``|`` escaped, line ends as spaces)."""
    return " ".join(str(text).replace("\\", "\\\\").replace("|", "\\|").split())


def score_titles(tracks, primary: str) -> List[Tuple[str, str]]:
    """(score key, title) of every score (``compose.score_rows``): the primary score titled
    ``primary``, each track's metric "track title metric title"."""
    return [
        (key, f"{t.title} {get_metric(metric).title}" if t else primary)
        for key, t, metric in score_rows(tracks)
    ]


def _kinds(edition: Edition) -> List[Kind]:
    """The kinds of the edition's tracks, in registry order."""
    present = [kinds.of(t) for t in edition.tracks]
    return [kind for kind in kinds.REGISTRY.values() if kind in present]


def _track_values(prose: Templates, t) -> str:
    """What a track's gold is: the scale of its scores for a kind with a ``range``, else its labels,
    each with the aliases the track declares for it (``entailment (or e)``)."""
    if kinds.of(t).has_range:
        lo, hi = t.score_range
        return prose.fill("data/scale", low=f"{lo:g}", high=f"{hi:g}")
    names = []
    for label in t.labels:
        aliases = ", ".join(alias for alias, named in t.label_aliases if named == label)
        names.append(prose.fill("data/aliases", label=label, aliases=aliases) if aliases else label)
    return ", ".join(names)


def _alignment_paragraphs(prose: Templates, edition: Edition) -> List[str]:
    """Per annotator-alignment rule the tracks declare (``annotator_alignment``), its paragraph
    (``kinds/KIND_alignment_RULE``) and the tracks that declare it."""
    declared: Dict[str, List[str]] = {}  # paragraph -> track ids
    for t in edition.tracks:
        if t.annotator_alignment is not None:
            text = kind_text(prose, kinds.of(t), f"alignment_{t.annotator_alignment}")
            declared.setdefault(text, []).append(f"`{t.id}`")
    return [
        line
        for text, ids in declared.items()
        for line in ("", prose.fill("data/alignment", alignment=text, tracks=", ".join(ids)))
    ]


def _track_row(prose: Templates, t) -> str:
    kind = kinds.of(t).name + (f" ({t.scale})" if t.scale else "")
    return prose.fill(
        "data/track",
        title=md_cell(t.title),
        file=t.file_names[0],
        kind=kind,
        values=md_cell(_track_values(prose, t)),
        example=md_cell(kinds.of(t).example_value(t).replace("\t", " ")),
    )


def _results_layout(prose: Templates, edition: Edition) -> List[str]:
    """The paragraph on the LeWiDi 2023 layout, naming its files and the tracks each one gives
    (nothing when no track declares it)."""
    files = layout_files(edition.tracks)
    if not files:
        return []
    given = [f"`{name}`: " + ", ".join(f"`{i}`" for i in ids) for name, ids in files.items()]
    return ["", prose.fill("data/results_layout", files="; ".join(given))]


def data_page(edition: Edition) -> str:
    prose = Templates.of(edition.folder)
    present = _kinds(edition)
    disagreement = any(kind.lists_annotators for kind in present)
    formats = [kind_text(prose, kind, "format") for kind in present]
    formats += _alignment_paragraphs(prose, edition)
    formats += _results_layout(prose, edition)
    if any(kind.has_labels for kind in present):  # the label policy
        formats += ["", prose.fill("data/labels")]
    formats += _gold_sources(prose, edition)
    page = prose.fill(
        "data",
        annotators=", " + prose.fill("data/annotators") if disagreement else "",
        tracks="\n".join(_track_row(prose, t) for t in edition.tracks),
        formats_heading=prose.fill(
            "data/formats_heading" if len(present) > 1 else "data/format_heading"
        ),
        formats="\n".join(formats),
    )
    return page + "\n"


def _gold_sources(prose: Templates, edition: Edition) -> List[str]:
    """Per dataset whose importer options choose its gold (``importers.gold_choices``), one line:
    the parts' templates, filled."""
    chosen = []
    for name, source in edition.datasets.items():
        parts = [prose.fill(f"importers/{part}", **fields) for part, fields in gold_choices(source)]
        if parts:
            text = "; ".join(parts) + "."
            chosen.append(prose.fill("data/gold_source", dataset=name, text=text))
    return ["", prose.fill("data/gold", sources="\n".join(chosen))] if chosen else []


def _range_sentences(prose: Templates, edition: Edition) -> List[str]:
    """Per kind with a gold ``range``, one sentence on the gold scale of its tracks."""
    lines: List[str] = []
    for kind in (kind for kind in _kinds(edition) if kind.has_range):
        tracks = [t for t in edition.tracks if kinds.of(t) is kind]
        low, high = tracks[0].score_range
        per_track = [f"{t.title} {t.score_range[0]:g}-{t.score_range[1]:g}" for t in tracks]
        # one range for all its tracks (kinds/KIND_range), or each track's (kinds/KIND_ranges)
        part = "range" if len({t.score_range for t in tracks}) == 1 else "ranges"
        fields = {"low": f"{low:g}", "high": f"{high:g}", "per_track": ", ".join(per_track)}
        lines += ["", kind_text(prose, kind, part, **fields)]
    return lines


def _phases(prose: Templates, names: List[str]) -> str:
    """``the practice phase``, ``the evaluation and post-campaign phases``."""
    return prose.fill(
        "evaluation/phases" if len(names) > 1 else "evaluation/phase", phases=listed(names)
    )


def details_sentence(edition: Edition, score: LocalScore) -> str:
    """What the detailed results show, by phase: the phases whose gold is public (the edition's,
    and the starting kit's local phase when it has one) also show intervals, plots and breakdowns,
    which the phases with hidden gold leave out."""
    prose = Templates.of(edition.folder)
    public = [p.id for p in edition.phases if p.public_gold]
    hidden = [p.id for p in edition.phases if not p.public_gold]
    shown = [_phases(prose, public)] if public else []
    if score.has_local:
        shown.append(prose.fill("evaluation/details_local"))
    extras = prose.fill("evaluation/details_extras")
    if not shown:
        return prose.fill("evaluation/details_all_hidden", hidden=listed(hidden), extras=extras)
    hidden_part = ""
    if hidden:
        hides = prose.fill("evaluation/hides_many" if len(hidden) > 1 else "evaluation/hides_one")
        hidden_part = prose.fill(
            "evaluation/details_hidden", phases=_phases(prose, hidden), hides=hides
        )
    return prose.fill("evaluation/details", shown=listed(shown), extras=extras, hidden=hidden_part)


def _normalised_text(prose: Templates, edition: Edition) -> str:
    """The normalised mean's formula and each primary track's range (nothing for a plain mean)."""
    if edition.primary_rule.mean != NORMALISED:
        return ""
    ranges = [
        prose.fill("evaluation/normalised_range", track=t.title, **_metric_fields(t.main_metric, t))
        for t in edition.tracks
        if t.primary
    ]
    return "\n\n" + prose.fill("evaluation/normalised", ranges="; ".join(ranges))


def _metric_fields(name: str, *tracks) -> Dict[str, str]:
    """A metric's title and the bounds of its range (for the most labels ``tracks`` have)."""
    metric = get_metric(name)
    lower, upper = metric.bounds(max((len(t.labels) for t in tracks), default=0))
    return {"metric": metric.title, "lower": f"{lower:g}", "upper": f"{upper:g}"}


def _metric_rows(prose: Templates, edition: Edition) -> List[str]:
    """One row per metric the tracks use, in the order of first use; a metric's text is its
    template ``metrics/NAME``, else its registration's ``description``."""
    rows = []
    for name in dict.fromkeys(m for t in edition.tracks for m in t.metrics):
        metric = get_metric(name)
        own = f"metrics/{name}"
        description = prose.fill(own) if prose.has(own) else metric.description
        rows.append(
            prose.fill(
                "evaluation/metric",
                **_metric_fields(name, *(t for t in edition.tracks if name in t.metrics)),
                title=md_cell(metric.title),
                name=name,
                direction=metric.direction,
                description=md_cell(description),
            )
        )
    return rows


def evaluation_page(edition: Edition, score: LocalScore) -> str:
    """``score``: what the starting kit can score (``LocalScore``), whose local phase shows what a
    public-gold phase shows."""
    prose = Templates.of(edition.folder)
    primary = [
        prose.fill("evaluation/primary_track", track=t.title, **_metric_fields(t.main_metric, t))
        for t in edition.tracks
        if t.primary
    ]
    edges = [
        kind_text(prose, kind, "edge_cases")
        for kind in _kinds(edition)
        if prose.has(f"kinds/{kind.name}_edge_cases")
    ]
    notes = ["", prose.fill("evaluation/edge_cases", edge_cases=" ".join(edges))] if edges else []
    notes += _alignment_paragraphs(prose, edition)
    notes += _range_sentences(prose, edition)
    # what the missing-track rule promises about incomplete runs
    by_baseline = edition.primary_rule.missing == BASELINE
    consequence = " " + prose.fill("evaluation/missing_baseline") if by_baseline else ""
    page = prose.fill(
        "evaluation",
        primary_key=PRIMARY_KEY,
        primary_tracks=", ".join(primary),
        missing_rule=edition.primary_rule.missing_words(),
        missing_consequence=consequence,
        normalised=_normalised_text(prose, edition),
        metrics="\n".join(_metric_rows(prose, edition)),
        notes="".join("\n" + line for line in notes),
        details=details_sentence(edition, score),
    )
    return page + "\n"


def timeline_page(edition: Edition, page: str = "timeline", row: str = "timeline/phase") -> str:
    """The Timeline page: template ``page`` with template ``row`` filled for each phase. The
    CodaLab v1.5 timeline (``legacy/timeline``) says when each phase ends on each platform: a v1.5
    phase has a start date only and stays open ``until`` the next one starts, and Codabench's
    conversion of such a bundle ``ends`` it one day before."""
    prose = Templates.of(edition.folder)
    rows = []
    for phase, following in zip(edition.phases, [*edition.phases[1:], None]):
        end = phase.date_text("end") or prose.fill("timeline/open")
        limits = prose.fill(
            "timeline/limits", per_day=phase.max_submissions_per_day, total=phase.max_submissions
        )
        rows.append(
            prose.fill(
                row,
                phase=md_cell(phase.name),
                start=phase.date_text("start"),
                end=end,
                until=following.date_text("start") if following else end,
                ends=(following.start - ONE_DAY).strftime(DATE_FORMAT) if following else end,
                split=phase.split,
                limits=limits,
            )
        )
    return prose.fill(page, phases="\n".join(rows)) + "\n"


def _score_table(
    prose: Templates, edition: Edition, by_baseline: Dict[str, Dict[str, float]]
) -> List[str]:
    """One row per score some baseline has, primary first: track title and metric title."""
    names = list(by_baseline)
    no_score = prose.fill("baselines/no_score")
    head = prose.fill("baselines/table_head", baselines=" | ".join(names))
    lines = [head, "|---|" + "---:|" * len(names)]
    rows = score_titles(edition.tracks, prose.fill("baselines/primary_score"))
    for key, title in rows:
        if not any(key in by_baseline[n] for n in names):
            continue
        cells = [f"{by_baseline[n][key]:.4f}" if key in by_baseline[n] else no_score for n in names]
        lines.append(f"| {md_cell(title)} | " + " | ".join(cells) + " |")
    return lines


def scoring_yourself(edition: Edition, score: LocalScore) -> List[str]:
    """The Baselines page's section on scoring with the starting kit alone (``LocalScore``)."""
    prose = Templates.of(edition.folder)
    lines = [prose.fill("baselines/scoring_yourself"), ""]
    if not score.first_phase:
        return lines + [kit_readme.nothing_scored(prose, "baselines/nothing_scored"), ""]
    baseline = kit_readme.example_baseline(list(edition.baselines))
    command = kit_readme.run_command(score, f"baseline:{baseline}")
    return lines + [
        prose.fill("baselines/run_them", command=command, baseline=baseline),
        what_is_scored(prose, score, prose.fill("baselines/it_scores")),
        "",
    ]


def _baseline_lines(
    prose: Templates, edition: Edition, skipped: Dict[str, str], alike: Dict[str, str]
) -> List[str]:
    """What each baseline does, then the ones not run and the ones alike, with the reason."""
    # the schema has checked each is a built-in baseline, whose text is templates/baseline/NAME.md
    lines = [prose.fill(f"baseline/{n}") for n in list(edition.baselines) + list(skipped)]
    lines += [
        prose.fill("baselines/not_run", name=name, reason=why) for name, why in skipped.items()
    ]
    lines += [
        prose.fill("baselines/alike", name=name, reason=why)
        for name, why in alike.items()
        if name in edition.baselines
    ]
    return lines


def baselines_page(
    edition: Edition,
    scores: Dict[str, Dict[str, Dict[str, float]]],
    score: LocalScore,
    skipped: Optional[Dict[str, str]] = None,
    alike: Optional[Dict[str, str]] = None,
) -> str:
    """``scores[phase][baseline][key]``: the baselines' scores computed at build time; ``score``:
    what the starting kit can score (``LocalScore``); ``skipped``: baselines not run, with the
    reason (they need a training split the edition lacks); ``alike``: baselines that cannot differ
    from another on some tracks, with the reason."""
    prose = Templates.of(edition.folder)
    lines = _baseline_lines(prose, edition, skipped or {}, alike or {})
    lines += [""] + scoring_yourself(edition, score)
    for phase_id, by_baseline in scores.items():
        if by_baseline:
            lines += [f"## {phase_id}", ""] + _score_table(prose, edition, by_baseline) + [""]
    return prose.fill("baselines", body="\n".join(lines)) + "\n"


def generated_pages(
    edition: Edition, baseline_scores, score: LocalScore, skipped=None, alike=None
) -> List[Tuple[str, str, str]]:
    """(title, file name, text) of every generated page, in the order they appear; ``score``:
    what the starting kit can score (``LocalScore``)."""
    baselines = baselines_page(edition, baseline_scores, score, skipped, alike)
    return [
        ("Data and formats", "data.md", data_page(edition)),
        ("Evaluation", "evaluation.md", evaluation_page(edition, score)),
        ("Baselines", "baselines.md", baselines),
        ("Timeline", "timeline.md", timeline_page(edition)),
    ]
