"""Pages generated from the edition itself, so they can never disagree with what is scored:
data and formats, evaluation (every metric's definition), baselines with their scores, timeline."""

from __future__ import annotations

from typing import Dict, List

from ..formats.values import SUM_TOLERANCE, describe_value
from ..metrics import get as get_metric
from ..tracks import PRIMARY_KEY
from .edition import Edition


def data_page(edition: Edition) -> str:
    lines = [
        "# Data and formats",
        "",
        "Each phase's public data (Files tab, and `input_data/<phase>/` in the bundle) holds, per dataset, "
        "`<dataset>.jsonl` (the items to predict: `id`, `texts`, `lang`, and for disagreement tracks the "
        "item's `annotators` in order) and `<dataset>.train.jsonl` (the training split with gold).",
        "",
        "A submission is a zip with one file per track, at its root or inside one folder, named after the "
        "track. Each line is `ID<TAB>VALUE`. You may submit any subset of tracks.",
        "",
        "| track | file | kind | labels | example line |",
        "|---|---|---|---|---|",
    ]
    for t in edition.tracks:
        kind = t.kind + (f" ({t.scale})" if t.scale else "")
        labels = ", ".join(t.labels) if t.labels else "score 0-5"
        example = describe_value(t).replace("\t", " ").replace("|", "\\|")
        lines.append(f"| {t.title} | `{t.file_names[0]}` | {kind} | {labels} | `{example}` |")
    lines += [
        "",
        "Formats by kind:",
        "",
        "- **similarity**: a number (any scale: Pearson r does not depend on it). The SemEval positional "
        "format, one score per line in input order with an optional second column (confidence), is "
        "accepted too.",
        "- **classification**: one of the track's labels, spelled exactly.",
        "- **soft label**: a JSON list of probabilities in the order of the track's labels (or a JSON "
        "object label -> probability). Multi-label tracks: a list of `[P(not chosen), P(chosen)]` pairs, "
        f"one per label. Values must be finite and non-negative; each distribution must sum to 1 within "
        f"{SUM_TOLERANCE} (it is then renormalised).",
        "- **perspectivist**: a JSON list with one label per annotator, in the item's `annotators` order "
        "(or an object annotator -> label). Multi-label tracks take two layouts, told apart by type: "
        "*label-major* (the LeWiDi 2025 layout, which the kit writes): one 0/1 vector per label in the "
        "track's label order, each with one entry per annotator (1 = chosen), e.g. `[[0, 0], [1, 0], "
        "[0, 1]]` for 2 annotators; or *annotator-major*: per annotator a list of labels, e.g. "
        '`[["entailment"], ["neutral"]]`. A row with one entry per name of the release\'s annotators '
        "list (`annotators_listed`, a name repeated once per label given) is merged when the repeated "
        "entries agree; a row with one entry per annotator of the dataset's whole pool is read by pool "
        "position (as the 2025 baseline files were written); each with one warning per file.",
        "",
        "Files are UTF-8 (a byte-order mark and CRLF line ends are fine). Every error message names the "
        "file, the line or item id, what was expected and what was found.",
    ]
    return "\n".join(lines) + "\n"


def evaluation_page(edition: Edition) -> str:
    primary = [t for t in edition.tracks if t.primary]
    lines = [
        "# Evaluation",
        "",
        f"The primary score (`{PRIMARY_KEY}`) is the unweighted mean of the main metric of these tracks: "
        + ", ".join(f"{t.title} ({get_metric(t.main_metric).title})" for t in primary)
        + ". A primary track you do not submit counts as its metric's worst possible value.",
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
            f"| {metric.title} (`{name}`) | {metric.direction} is better | {lo:g} to {hi:g} | "
            f"{metric.description} |"
        )
    lines += [
        "",
        "Edge cases: a constant prediction (or constant gold) makes a correlation undefined; it is "
        "reported as 0.0 with a warning. Classification items without a gold majority are not scored. "
        "LeWiDi metrics round as the official 2025 code does (5 decimals per item).",
        "",
        "The detailed results of each submission show every score; where the phase's gold is public "
        "(practice) also a 95% bootstrap interval, plots and per-annotator, per-language and per-genre "
        "scores, which phases with hidden gold leave out (they would tell single items' gold).",
    ]
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
            f"| {p.name} | {p.date_text('start')} | {p.date_text('end') or 'open'} | {p.split} | {limits} |"
        )
    return "\n".join(lines) + "\n"


def baselines_page(edition: Edition, scores: Dict[str, Dict[str, Dict[str, float]]]) -> str:
    """``scores[phase][baseline][key]``: the baselines' scores computed at build time."""
    lines = [
        "# Baselines",
        "",
        "- **random**: seeded uniform labels, scores or distributions.",
        "- **most_frequent**: the most frequent training class; the mean training soft label; each "
        "annotator's most frequent training label; the training mean for similarity (a constant, so its "
        "Pearson r is reported as 0.0).",
        "- **cosine_bow**: cosine of binary bag-of-words vectors (Penn Treebank-style tokens, lowercased); "
        "for tracks that are not similarity, a mapping from the cosine learned on the training split.",
        "",
        "Run them yourself with the starting kit: `python3 run_local.py . baseline:cosine_bow --phase practice`.",
        "",
    ]
    for phase_id, by_baseline in scores.items():
        untrained = [name for name, got in by_baseline.items() if not got]
        by_baseline = {name: got for name, got in by_baseline.items() if got}
        if untrained and phase_id == next(iter(scores)):
            lines += [untrained_note(untrained), ""]
        if not by_baseline:
            continue
        names = list(by_baseline)
        keys = list(by_baseline[names[0]])
        lines += [
            f"## {phase_id}",
            "",
            "| score | " + " | ".join(names) + " |",
            "|---|" + "---:|" * len(names),
        ]
        for key in keys:
            cells = [
                f"{by_baseline[n][key]:.4f}" if key in by_baseline[n] else "n/a" for n in names
            ]
            lines.append(f"| `{key}` | " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines) + "\n"


def untrained_note(names: List[str]) -> str:
    """The page's line on baselines that were not run: they learn from a training split that this
    edition does not have."""
    return (
        f"Not run here: {', '.join(f'**{name}**' for name in names)}, which learn from a training "
        "split; this edition has none (see the overview for the training data to use), so they "
        "have no scores and no solution."
    )


def generated_pages(edition: Edition, baseline_scores) -> List[tuple]:
    """(title, file name, text) of every generated page, in the order they appear."""
    return [
        ("Data and formats", "data.md", data_page(edition)),
        ("Evaluation", "evaluation.md", evaluation_page(edition)),
        ("Baselines", "baselines.md", baselines_page(edition, baseline_scores)),
        ("Timeline", "timeline.md", timeline_page(edition)),
    ]
