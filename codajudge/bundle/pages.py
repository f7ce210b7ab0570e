"""Pages generated from the edition itself, so they can never disagree with what is scored:
data and formats, evaluation (every metric's definition), baselines with their scores, timeline."""

from __future__ import annotations

from typing import Dict, List, Optional

from .. import kinds
from ..formats.results_tsv import results_layout_text
from ..formats.values import describe_value
from ..importers import gold_text
from ..kinds import Kind
from ..labels import POLICY_TEXT
from ..metrics import get as get_metric
from ..spec import BASELINE, NORMALISED
from ..tracks import PRIMARY_KEY
from .edition import Edition
from .kit_readme import FORMAT_CHECK, NOTHING_SCORED, LocalScore, listed, what_is_scored


def md_cell(text: str) -> str:
    """Text that stays inside one cell of a Markdown table (``|`` escaped, line ends as spaces)."""
    return " ".join(str(text).replace("\\", "\\\\").replace("|", "\\|").split())


def _kinds(edition: Edition) -> List[Kind]:
    """The kinds of the edition's tracks, in registry order."""
    present = [kinds.of(t) for t in edition.tracks]
    return [kind for kind in kinds.REGISTRY.values() if kind in present]


def _track_values(t) -> str:
    """What a track's gold is: the scale of its scores for a kind with a ``range``, else its labels,
    each with the aliases naming it."""
    if not kinds.of(t).has_range:
        return ", ".join(_label_names(t, label) for label in t.labels)
    lo, hi = t.score_range
    return f"score {lo:g}-{hi:g}"


def _label_names(t, label: str) -> str:
    """A label, and the aliases the track declares for it: ``entailment (or e)``."""
    aliases = [alias for alias, named in t.label_aliases if named == label]
    return f"{label} (or {', '.join(aliases)})" if aliases else label


def _label_policy(edition: Edition) -> List[str]:
    """The label policy's paragraph (``labels.POLICY_TEXT``), for an edition with labelled tracks."""
    if any(kinds.of(t).has_labels for t in edition.tracks):
        return ["", "**Labels.** " + POLICY_TEXT]
    return []


def _alignment_paragraphs(edition: Edition) -> List[str]:
    """Per annotator-alignment rule the tracks declare (``annotator_alignment``), its paragraph
    (``Kind.alignments``) and the tracks that declare it."""
    declared: Dict[str, List[str]] = {}  # paragraph -> track ids
    for t in edition.tracks:
        if t.annotator_alignment is not None:
            text = kinds.of(t).alignments[t.annotator_alignment]
            declared.setdefault(text, []).append(f"`{t.id}`")
    return [
        line for text, ids in declared.items() for line in ("", f"{text} Tracks: {', '.join(ids)}.")
    ]


def data_page(edition: Edition) -> str:
    present = _kinds(edition)
    disagreement = any(kind.lists_annotators for kind in present)
    annotators = (
        ", and for disagreement tracks the item's `annotators` in order" if disagreement else ""
    )
    lines = [
        "# Data and formats",
        "",
        "Each phase's public data (Files tab, and `input_data/<phase>/` in the bundle) holds, per dataset, "
        f"`<dataset>.jsonl` (the items to predict: `id`, `texts`, `lang`{annotators}) and "
        "`<dataset>.train.jsonl` (the training split with gold).",
        "",
        "A submission is a zip with one file per track, at its root or inside one folder, named after the "
        "track. Each line is `ID<TAB>VALUE`. You may submit any subset of tracks.",
        "",
        "| track | file | kind | labels | example line |",
        "|---|---|---|---|---|",
    ]
    for t in edition.tracks:
        kind = kinds.of(t).name + (f" ({t.scale})" if t.scale else "")
        example = md_cell(describe_value(t).replace("\t", " "))
        lines.append(
            f"| {md_cell(t.title)} | `{t.file_names[0]}` | {kind} | {md_cell(_track_values(t))} "
            f"| `{example}` |"
        )
    lines += ["", "Formats by kind:" if len(present) > 1 else "Format:", ""]
    lines += [kind.format_text for kind in present]
    lines += _alignment_paragraphs(edition)
    lines += results_layout_text(edition.tracks)
    lines += _label_policy(edition)
    lines += _gold_sources(edition)
    lines += [
        "",
        "Files are UTF-8 (a byte-order mark and CRLF line ends are fine). Every error message names the "
        "file, the line or item id, what was expected and what was found.",
    ]
    return "\n".join(lines) + "\n"


def _gold_sources(edition: Edition) -> List[str]:
    """Per dataset whose importer options choose its gold (``importers.gold_text``), one line."""
    texts = {name: gold_text(source) for name, source in edition.datasets.items()}
    chosen = [f"- `{name}`: {text}" for name, text in texts.items() if text]
    return ["", "**Gold.**", "", *chosen] if chosen else []


def _range_sentences(edition: Edition) -> List[str]:
    """Per kind with a gold ``range``, one sentence on the gold scale of its tracks."""
    lines: List[str] = []
    for kind in _kinds(edition):
        if kind.has_range:
            lines += _range_sentence(kind, [t for t in edition.tracks if kinds.of(t) is kind])
    return lines


def _range_sentence(kind: Kind, tracks) -> List[str]:
    ranges = {t.score_range for t in tracks}
    if len(ranges) == 1:
        low, high = ranges.pop()
        return ["", kind.range_text.format(low=low, high=high)]
    per_track = ", ".join(f"{t.title} {t.score_range[0]:g}-{t.score_range[1]:g}" for t in tracks)
    return ["", kind.ranges_text.format(per_track=per_track)]


def _phases(names: List[str]) -> str:
    """``the practice phase``, ``the evaluation and post-campaign phases``."""
    return f"the {listed(names)} phase" + ("s" if len(names) > 1 else "")


def details_sentence(edition: Edition, score: LocalScore) -> str:
    """What the detailed results show, by phase: the phases whose gold is public (the edition's,
    and the starting kit's local phase when it has one) also show intervals, plots and breakdowns,
    which the phases with hidden gold leave out."""
    public = [p.id for p in edition.phases if p.public_gold]
    hidden = [p.id for p in edition.phases if not p.public_gold]
    shown = [_phases(public)] if public else []
    if score.has_local:
        shown.append("the starting kit's local phase, `--phase local`")
    extras = "a 95% bootstrap interval, plots and per-annotator, per-language and per-genre scores"
    if not shown:
        return (
            "The detailed results of each submission show every score and nothing more: every "
            f"phase hides its gold ({listed(hidden)}), and {extras} would tell single items' gold."
        )
    text = (
        "The detailed results of each submission show every score. Where the gold is public "
        f"({listed(shown)}) they also show {extras}"
    )
    if not hidden:
        return text + "."
    hides = "hide their gold" if len(hidden) > 1 else "hides its gold"
    return (
        f"{text}; {_phases(hidden)} {hides}, so their results leave these out (they would tell "
        "single items' gold)."
    )


def _normalised_text(edition: Edition) -> str:
    """The normalised mean's formula and each primary track's range (nothing for a plain mean)."""
    if edition.primary_rule.mean != NORMALISED:
        return ""
    ranges = []
    for t in (t for t in edition.tracks if t.primary):
        lower, upper = get_metric(t.main_metric).bounds(len(t.labels))
        ranges.append(f"{t.title} ({get_metric(t.main_metric).title}) {lower:g} to {upper:g}")
    return (
        "\n\nSo that every track weighs the same, each track's score is first normalised by its "
        "metric's range on that track, `(score - lower) / (upper - lower)`, which keeps its "
        "direction and runs from 0 to 1; the primary score is the mean of these. The ranges: "
        + "; ".join(ranges)
        + "."
    )


def _missing_consequence(missing: str) -> str:
    """What the missing-track rule promises about incomplete runs (none for the default rule)."""
    if missing == BASELINE:
        return (
            " (so a run that skips a track can rank above a complete run that is worse than that "
            "baseline on it)"
        )
    return ""


def evaluation_page(edition: Edition, score: LocalScore) -> str:
    """``score``: what the starting kit can score (``LocalScore``), whose local phase shows what a
    public-gold phase shows."""
    primary = [t for t in edition.tracks if t.primary]
    lines = [
        "# Evaluation",
        "",
        f"The primary score (`{PRIMARY_KEY}`) is the unweighted mean of the main metric of these tracks: "
        + ", ".join(f"{t.title} ({get_metric(t.main_metric).title})" for t in primary)
        + f". A primary track you do not submit {edition.primary_rule.missing_words()}"
        + _missing_consequence(edition.primary_rule.missing)
        + "."
        + _normalised_text(edition),
        "",
        "| metric | direction | range | definition |",
        "|---|---|---|---|",
    ]
    used = []
    for t in edition.tracks:
        for m in t.metrics:
            if m not in used:
                used.append(m)
    for name in used:
        metric = get_metric(name)
        n_labels = max((len(t.labels) for t in edition.tracks if name in t.metrics), default=0)
        lo, hi = metric.bounds(n_labels)
        lines.append(
            f"| {md_cell(metric.title)} (`{name}`) | {metric.direction} is better | {lo:g} to {hi:g} | "
            f"{md_cell(metric.description)} |"
        )
    edges = [kind.edge_case_text for kind in _kinds(edition) if kind.edge_case_text]
    lines += ["", "Edge cases: " + " ".join(edges)] if edges else []
    lines += _alignment_paragraphs(edition)
    lines += _range_sentences(edition)
    lines += ["", details_sentence(edition, score)]
    return "\n".join(lines) + "\n"


def timeline_page(edition: Edition) -> str:
    lines = [
        "# Timeline",
        "",
        "All times are UTC.",
        "",
        "| phase | start | end | gold | submissions |",
        "|---|---|---|---|---|",
    ]
    for p in edition.phases:
        limits = f"{p.max_submissions_per_day} a day, {p.max_submissions} in all"
        lines.append(
            f"| {md_cell(p.name)} | {p.date_text('start')} | {p.date_text('end') or 'open'} | {p.split} | {limits} |"
        )
    return "\n".join(lines) + "\n"


#: What each built-in baseline does, on the Baselines page of the editions that run it.
BASELINE_TEXTS = {
    "random": "- **random**: seeded uniform labels, scores or distributions.",
    "most_frequent": "- **most_frequent**: the most frequent training class; the mean training soft "
    "label; each annotator's most frequent training label; the training mean for similarity (a "
    "constant, so its Pearson r is reported as 0.0). It needs a training split.",
    "cosine_bow": "- **cosine_bow**: cosine of binary bag-of-words vectors (Penn Treebank-style "
    "tokens, lowercased); for tracks that are not similarity, a mapping from the cosine learned on "
    "the training split.",
}


def _score_rows(edition: Edition) -> List[tuple]:
    """(key, its title) of every score, primary first: track title and metric title."""
    rows = [(PRIMARY_KEY, "primary score")]
    for t in edition.tracks:
        for key, m in zip(t.keys, t.metrics):
            rows.append((key, f"{t.title} {get_metric(m).title}"))
    return rows


def _score_table(edition: Edition, by_baseline: Dict[str, Dict[str, float]]) -> List[str]:
    names = list(by_baseline)
    lines = ["| score | " + " | ".join(names) + " |", "|---|" + "---:|" * len(names)]
    for key, title in _score_rows(edition):
        if not any(key in by_baseline[n] for n in names):
            continue
        cells = [f"{by_baseline[n][key]:.4f}" if key in by_baseline[n] else "n/a" for n in names]
        lines.append(f"| {md_cell(title)} | " + " | ".join(cells) + " |")
    return lines


def scoring_yourself(edition: Edition, score: LocalScore) -> List[str]:
    """The Baselines page's section on scoring with the starting kit alone (``LocalScore``)."""
    lines = ["## Scoring yourself", ""]
    if not score.first_phase:
        return lines + [
            f"{NOTHING_SCORED} The starting kit checks a submission's format and coverage on the "
            f"practice data, without scores: `{FORMAT_CHECK}`.",
            "",
        ]
    named = list(edition.baselines)
    baseline = "cosine_bow" if "cosine_bow" in named or not named else named[0]
    command = f"python3 run_local.py . baseline:{baseline} --phase {score.first_phase}"
    return lines + [
        f"Run the baselines yourself with the starting kit: `{command}` (or your own "
        f"submission's zip in place of `baseline:{baseline}`).",
        what_is_scored(score, "It scores").rstrip("\n"),
        "",
    ]


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
    lines = ["# Baselines", ""]
    lines += [
        BASELINE_TEXTS[n]
        for n in list(edition.baselines) + list(skipped or {})
        if n in BASELINE_TEXTS
    ]
    lines += [
        f"- **{name}** is not run in this edition: {why}." for name, why in (skipped or {}).items()
    ]
    lines += [
        f"- **{name}** cannot differ from another baseline here: {why}."
        for name, why in (alike or {}).items()
        if name in edition.baselines
    ]
    lines += [""] + scoring_yourself(edition, score)
    for phase_id, by_baseline in scores.items():
        if by_baseline:
            lines += [f"## {phase_id}", ""] + _score_table(edition, by_baseline) + [""]
    return "\n".join(lines) + "\n"


def generated_pages(
    edition: Edition, baseline_scores, score: LocalScore, skipped=None, alike=None
) -> List[tuple]:
    """(title, file name, text) of every generated page, in the order they appear; ``score``:
    what the starting kit can score (``LocalScore``)."""
    return [
        ("Data and formats", "data.md", data_page(edition)),
        ("Evaluation", "evaluation.md", evaluation_page(edition, score)),
        (
            "Baselines",
            "baselines.md",
            baselines_page(edition, baseline_scores, score, skipped, alike),
        ),
        ("Timeline", "timeline.md", timeline_page(edition)),
    ]
