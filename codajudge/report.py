"""Writing results: scores.json (flat, finite, leaderboard keys), scores.txt (legacy CodaLab), a
self-contained detailed_results.html (inline CSS and SVG, no script, nothing fetched) and, where
the gold is public, detailed_results.csv.

The page shows, per track, its warnings, each score with its seeded bootstrap interval, the
baselines' scores (``BASELINE_SCORES``, written by the builder) and the command that recomputes it,
the plot its kind declares (predicted vs gold scatter, confusion matrix, mean soft labels, error per
annotator), per-language / per-genre scores and the items of largest error; ``DETAILED_CSV`` holds
every item's gold, prediction and error. A phase that hides its gold shows the leaderboard's scores
only, at the leaderboard's precision (``published_scores``), and gets no CSV (``hidden_gold_note``;
the policy is in docs/participant-checks.md). Scores themselves come from ``scoring``; intervals and
aggregates from ``stats``."""

from __future__ import annotations

import html
import json
import math
import os
import re
import shlex
import sys
import tempfile
from functools import partial
from pathlib import Path
from collections.abc import Iterable, Sequence

import numpy as np

from . import __version__, kinds, plots
from .metrics import get as get_metric
from .metrics.base import shown_end
from .errors import counted, plural
from .formats.textfile import safe_display
from .formats.values import is_finite_number
from .scoring import Result, as_counted, scored_subset
from .spec import MEAN_WORDS, UNRANKED
from .stats import summaries
from .texts import csv_text
from .stats.bootstrap import DEFAULT_RESAMPLES, signature_text, track_intervals
from .tracks import PRECISION, score_key

SCORES_JSON = "scores.json"
SCORES_TXT = "scores.txt"
DETAILED_HTML = "detailed_results.html"
#: Every item's gold, prediction and error, one row per item of each track (public-gold phases only).
DETAILED_CSV = "detailed_results.csv"
#: The baselines' scores of a public-gold phase, written into its reference data by the builder:
#: ``{baseline: {scores.json key: value}}``.
BASELINE_SCORES = "baseline_scores.json"

_e = html.escape


def atomic_write(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that readers see the old file or the whole new one, never a
    part, with the mode a new file gets under the umask (not mkstemp's 0600)."""
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
    try:
        umask = os.umask(0)  # the one way to read it is to set it: put it back at once
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        # a stray surrogate (a file name that is not UTF-8) is escaped, never a crash
        with os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace", newline="\n") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def scores_txt_text(scores: dict[str, float]) -> str:
    return "".join(f"{key}: {value!r}\n" for key, value in scores.items())


def leaderboard_rounded(value: float) -> float:
    """``value`` to the leaderboard's ``PRECISION`` decimals; a value that rounds to zero is 0.0,
    never -0.0 (whose sign would tell one more thing than the leaderboard shows)."""
    return round(float(value), PRECISION) + 0.0


def published_scores(result: Result) -> dict[str, float]:
    """The scores as the participant sees them (scores.json, scores.txt, the page, the log): where
    the phase hides its gold (``spec.hide_gold``, from task.json), at the leaderboard's precision,
    since further digits of a score over hidden items would tell those items' gold to crafted
    submissions; where the gold is public, at full precision."""
    scores = result.scores()
    if not result.spec.hide_gold:
        return scores
    return {key: leaderboard_rounded(value) for key, value in scores.items()}


#: Decimals of each score in the scoring program's log where the gold is public.
LOG_DECIMALS = 6


def score_log_lines(result: Result) -> list[str]:
    """The scoring program's log of the scores, ``key: value``: to ``LOG_DECIMALS`` decimals where
    the gold is public, to the leaderboard's precision where it is hidden."""
    decimals = PRECISION if result.spec.hide_gold else LOG_DECIMALS
    return [f"{key}: {value:.{decimals}f}" for key, value in published_scores(result).items()]


def submission_notes(result: Result) -> list[str]:
    """Every note on a scored submission, as the scoring program prints them first and the page
    shows them at its top: the submission's own (archive entries skipped, files ignored, tracks
    not covered), then each track's (lines skipped, values read in another form), after its file:
    once for a file two tracks read (a LeWiDi 2023 results file)."""
    tracks = [f"{safe_display(tr.file)}: {w}" for tr in result.tracks.values() for w in tr.warnings]
    return [*result.warnings, *dict.fromkeys(tracks)]


def score_meanings(spec) -> dict[str, str]:
    """Each scores.json key's direction and range, as the terminal shows them beside the score:
    ``higher is better, -1 to 1``; the primary score's range is that of the mean of the primary
    tracks' main metric (0 to 1 with ``mean: normalised``)."""
    meanings = {score_key(t.id, m): _meaning([(t, m)]) for t in spec.tracks for m in t.metrics}
    # a task spec has at least one primary track (``spec.check_primary_direction``)
    primary = [(t, t.main_metric) for t in spec.primary_tracks]
    return {**meanings, "primary": _meaning(primary, partial(as_counted, spec))}


def missing_primary_words(spec, scores: dict[str, float]) -> str | None:
    """What the primary score in ``scores`` (a run's scores.json) is when the run did not submit
    every primary track of ``spec``, in words for the terminal beside it (an unranked run's -1 is
    the worst value, not a correlation of -1); else None."""
    keys = (score_key(t.id, t.main_metric) for t in spec.primary_tracks)
    count = sum(key not in scores for key in keys)
    if not count:
        return None
    rule, missing = spec.primary_rule, counted(count, "primary track")
    if rule.missing == UNRANKED:
        return f"{missing} missing: no primary score, the worst value stands in"
    return f"{missing} missing, each {rule.missing_words()}"


def _meaning(scored: list[tuple], counted=lambda track, value: value) -> str:
    """``<direction> is better, <low> to <high>`` of the mean of (track, metric name) pairs' values
    (one direction: the primary tracks share theirs), each end as ``counted(track, value)`` counts
    it (the primary score's ``as_counted``; by default as it is)."""
    ends = [[counted(t, end) for end in get_metric(m).bounds(len(t.labels))] for t, m in scored]
    low, high = (shown_end(float(np.mean(side))) for side in zip(*ends))
    return f"{get_metric(scored[0][1]).direction} is better, {low:.4g} to {high:.4g}"


def write_outputs(output_dir: Path, result: Result, html_text: str) -> None:
    """Write the detailed page ``html_text``, the per-item CSV (public gold only) and scores.txt,
    then scores.json last: its presence means success. Scores are ``published_scores``. The
    folder exists: the scoring program made it (``common.writing_into``)."""
    scores = published_scores(result)
    # a non-finite score is refused (ValueError) before anything is written
    json_text = json.dumps(scores, indent=1, allow_nan=False) + "\n"
    atomic_write(output_dir / DETAILED_HTML, html_text)
    write_item_csv(output_dir, result)
    atomic_write(output_dir / SCORES_TXT, scores_txt_text(scores))
    atomic_write(output_dir / SCORES_JSON, json_text)


def failure_html(message: str) -> str:
    """A detailed-results page for a submission that could not be scored, for ``message``."""
    title = "Submission not scored"
    return html_page(title, f"<h2>{title}</h2><pre class='err'>{_e(message)}</pre>")


_CSS = """body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:1.5em;color:#222;max-width:70em}
table{border-collapse:collapse;margin:.5em 0 1.2em}td,th{border:1px solid #ccc;padding:.25em .6em;text-align:right}
th{background:#f3f3f3}td.l,th.l{text-align:left}.warn{color:#8a5a00}.err{color:#a00;white-space:pre-wrap}
.sig{color:#666;font-size:.85em}h2{border-bottom:1px solid #ddd;padding-bottom:.2em}
.fig{margin:.5em 0;overflow-x:auto}svg.plot{background:#fff;margin-right:1em}h3{font-size:1em}"""


def html_page(title: str, body: str) -> str:
    """A self-contained HTML page (its style inline) with ``title`` and the HTML ``body``."""
    return (
        "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
        f"<title>{_e(title)}</title><style>{_CSS}</style></head><body>\n{body}\n</body></html>\n"
    )


def primary_sentence(result: Result) -> str:
    """The primary score and the rule behind it (an unranked run's has none)."""
    rule = result.spec.primary_rule
    if not result.ranked:
        return f"Primary score: none ({rule.missing_note(result.stand_ins)})."
    return (
        f"Primary score: {_fmt(result.primary)} ({MEAN_WORDS[rule.mean]}; a missing primary track "
        f"{rule.missing_words()})."
    )


def _fmt(value: float) -> str:
    """A number on the page: to the leaderboard's precision, as every score there is shown."""
    return f"{leaderboard_rounded(value):.{PRECISION}f}"


#: The page draws at most this many items per track for its intervals (resamples x items, about
#: 0.03 s): the scoring step must stay a small multiple of reading the files, whatever their size.
#: A track of more than 5,000 items gets fewer resamples than asked for ...
PAGE_DRAWS = 5_000_000
#: ... but not fewer than this: a track too large for it gets no interval on the page (organisers
#: compute one with ``rank_submissions.py``, which has no such budget).
PAGE_MIN_RESAMPLES = 100


def page_resamples(requested: int, n_items: int) -> int:
    """Resamples behind one track's intervals on the page: ``requested`` if ``requested x n_items``
    draws fit in ``PAGE_DRAWS``, else as many as fit, and 0 (no interval) if that is fewer than
    ``PAGE_MIN_RESAMPLES``. The page says which."""
    fitting = min(requested, PAGE_DRAWS // max(n_items, 1))
    return fitting if fitting == requested or fitting >= PAGE_MIN_RESAMPLES else 0


#: What a page of a hidden-gold phase says instead of its intervals, plots and breakdowns.
HIDDEN_GOLD_NOTE = (
    "The gold of this phase is hidden, so this page shows the leaderboard's scores only: no "
    "intervals, plots or breakdowns by annotator, language or genre. Comparing two submissions "
    "on those would tell the gold of single items."
)


def hidden_gold_note(spec) -> str:
    """``HIDDEN_GOLD_NOTE``, then the edition's public-gold phases, whose pages show it all (the
    builder lists them in task.json's ``public_gold_phases``), when it has any."""
    public = spec.extra.get("public_gold_phases", ())
    if not public:
        return HIDDEN_GOLD_NOTE
    pages = plural(len(public), "phase's page shows", "phases' pages show")
    return f"{HIDDEN_GOLD_NOTE} The {' and '.join(public)} {pages} them all."


def read_baseline_scores(ref_dir: Path) -> dict[str, dict[str, float]]:
    """The baselines' scores of the phase (``BASELINE_SCORES`` in its reference data), in name
    order, or {} when the file is absent or not the builder's ``{baseline: {key: number}}`` (the
    page then has no baselines column: a hand-edited file never stops the scoring)."""
    try:  # absent, unreadable or not JSON: none
        raw = json.loads((Path(ref_dir) / BASELINE_SCORES).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {
        str(name): {k: float(v) for k, v in scores.items() if is_finite_number(v)}
        for name, scores in (sorted(raw.items()) if isinstance(raw, dict) else ())
        if isinstance(scores, dict)
    }


def detailed_html(result: Result, baselines: dict[str, dict[str, float]]) -> str:
    """Per-track scores with bootstrap intervals and the baselines' scores, plots, breakdowns, the
    worst items and warnings.

    When the phase hides its gold (``spec.hide_gold``) the page holds nothing that depends on the
    gold beyond the scores written to scores.json (and notes that depend on the submission alone):
    every interval, plot, breakdown or item would let the difference between two submissions be
    attributed to single items. ``baselines``: ``read_baseline_scores`` of the phase.
    """
    spec = result.spec
    hidden = spec.hide_gold
    baselines = {} if hidden else baselines
    csv_note = (
        f"Every item's gold, prediction and error: {DETAILED_CSV}, beside this page in the "
        "scoring output."
    )
    parts = [
        f"<h1>{_e(spec.title)}</h1>",
        f"<p>Phase: <b>{_e(spec.phase)}</b>. {_e(primary_sentence(result))}</p>",
        f"<p class='sig'>{_e(hidden_gold_note(spec)) if hidden else csv_note}</p>",
    ]
    notes = "".join(f"<li class='warn'>{_e(w)}</li>" for w in submission_notes(result))
    # first, beside the scores they explain (files ignored, tracks missing, lines skipped)
    if notes:
        parts.append(f"<h2>Submission notes</h2><ul>{notes}</ul>")
    parts.append(_summary_table(result))
    parts += [_track_section(tr, spec, baselines) for tr in result.tracks.values()]
    footer = f"codajudge {__version__} | edition {spec.edition} | phase {spec.phase}"
    if not hidden:
        footer += f" | intervals: {signature_text(requested_resamples(spec), spec.seed)}"
    parts.append(f"<p class='sig'>{_e(footer)}</p>")
    return html_page(f"{spec.title}: detailed results", "\n".join(parts))


def requested_resamples(spec) -> int:
    """The resamples behind a page's intervals: task.json's bootstrap_resamples (checked by the
    edition's loader; 0 turns intervals off), and none where the gold is hidden."""
    return 0 if spec.hide_gold else spec.extra.get("bootstrap_resamples", DEFAULT_RESAMPLES)


def _track_section(tr, spec, baselines: dict[str, dict[str, float]]) -> str:
    """One track: its title, its warnings, its scores, then (public gold) plots and worst items."""
    section = [f"<section><h2>{_e(tr.track.title)}</h2>"]
    section.extend(f"<p class='warn'>Warning: {_e(w)}</p>" for w in tr.warnings)
    section.append(_guarded(lambda: _score_table(tr, spec, baselines), "the confidence intervals"))
    if not spec.hide_gold:
        section.append(_guarded(lambda: track_visuals(tr), "the plots"))
        section.append(_guarded(lambda: worst_items_table(tr), "the worst items"))
    return "\n".join(section + ["</section>"])


#: Whether a column of an HTML table aligns left (text) or right (numbers); TEXT: left, and each
#: cell's direction its own text's (dir='auto': an item's Arabic text reads right to left).
LEFT, RIGHT, TEXT = True, False, "text"
ALIGNED = {LEFT: " class='l'", RIGHT: "", TEXT: " class='l'"}


def html_table(columns: Sequence[tuple[str, bool]], rows: Iterable[Sequence[str]]) -> str:
    """An HTML table of ``columns``, each its head (HTML) and alignment (LEFT, RIGHT or TEXT), each
    row's cells (HTML), in the alignment of their column (a ``RowEnd`` cell as it is)."""
    heads = [ALIGNED[left] for _, left in columns]
    data = [a + (" dir='auto'" if left == TEXT else "") for a, (_, left) in zip(heads, columns)]

    def row(tag: str, cells: Sequence[str], aligned: Sequence[str]) -> str:
        whole = [
            c if isinstance(c, RowEnd) else f"<{tag}{a}>{c}</{tag}>" for a, c in zip(aligned, cells)
        ]
        return f"<tr>{''.join(whole)}</tr>"

    body = "".join(row("td", values, data) for values in rows)
    return f"<table>{row('th', [head for head, _ in columns], heads)}{body}</table>"


class RowEnd(str):
    """A row's last cell written whole (its ``td`` tag spanning the columns left)."""


def _summary_table(result: Result) -> str:
    """One row per track of the edition: its scores, items scored and file, or "not submitted"."""
    rows = []
    for t in result.spec.tracks:
        tr = result.tracks.get(t.id)
        row = [_e(t.title), _e(t.kind)]
        if tr is None:
            names = _e(" or ".join(t.file_names))
            missing = f"<td colspan='3' class='l warn'>not submitted (no file named {names})</td>"
            row.append(RowEnd(missing))
        else:
            metrics = "; ".join(f"{get_metric(m).title} {_fmt(v)}" for m, v in tr.scores.items())
            row += [_e(metrics), str(tr.gold.n_scored), _e(tr.file)]
        rows.append(row)
    columns = [("Track", LEFT), ("Kind", LEFT), ("Scores", LEFT), ("Items scored", RIGHT)]
    return html_table(columns + [("File", LEFT)], rows)


def _guarded(build, what: str) -> str:
    """A part of the page that must not cost the participant their scores if it fails to draw."""
    try:
        return build()
    except Exception as e:  # noqa: BLE001 - scores are written whatever happens to a plot
        print(f"note: {what} could not be drawn ({e.__class__.__name__}: {e})", file=sys.stderr)
        return f"<p class='warn'>{_e(what.capitalize())} could not be drawn (an internal problem of the kit).</p>"


def _score_table(tr, spec, baselines: dict[str, dict[str, float]]) -> str:
    """Each metric's value, its percentile bootstrap interval (n/a when no resample; no such column
    where the gold is hidden), the ``baselines``' scores (each with its name, when known),
    direction and range."""
    used = page_resamples(requested_resamples(spec), tr.gold.n_scored)
    intervals = track_intervals(tr, used, spec.seed) if used else {}
    public = not spec.hide_gold
    rows = []
    for m, v in tr.scores.items():
        metric = get_metric(m)
        lo, hi = metric.shown_bounds(len(tr.track.labels))
        row = [_e(metric.title), f"<b>{_fmt(v)}</b>"]
        if public:
            iv = intervals.get(m)
            row.append(f"[{_fmt(iv.low)}, {_fmt(iv.high)}]" if iv is not None else "n/a")
        if baselines:
            key = score_key(tr.track.id, m)
            shown = [f"{name} {_fmt(s[key])}" for name, s in baselines.items() if key in s]
            row.append(_e("; ".join(shown) or "n/a"))
        rows.append(row + [f"{metric.direction} is better", f"{lo:g} to {hi:g}"])
    columns = [("Metric", LEFT), ("Score", RIGHT)]
    columns += [("95% interval", RIGHT)] if public else []
    columns += [("Baselines", LEFT)] if baselines else []
    columns += [("Direction", LEFT), ("Range", RIGHT)]
    return html_table(columns, rows) + _interval_note(tr, spec, used, intervals)


#: Below this many items a bootstrap interval is shown with a warning: resampling so few items
#: gives intervals that say little (over 2 items a correlation's spans its whole range).
FEW_INTERVAL_ITEMS = 10


def _interval_note(tr, spec, used: int, intervals) -> str:
    """How the intervals were drawn and the command that draws them again (none when none), and a
    warning on intervals drawn over fewer than FEW_INTERVAL_ITEMS items."""
    requested = requested_resamples(spec)
    if not intervals:
        if used or not requested:
            return ""
        return (
            f"<p class='sig'>No interval: {PAGE_MIN_RESAMPLES} resamples of these "
            f"{tr.gold.n_scored:,} items would draw more than the {PAGE_DRAWS:,} items the page "
            f"may spend on a track ({_e(signature_text(requested, spec.seed))}); organisers "
            "compute one with rank_submissions.py.</p>"
        )
    budget = f"the page draws at most {PAGE_DRAWS:,} items per track"
    fewer = f", {used} resamples, not {requested}: {budget}" if used != requested else ""
    note = (
        f"<p class='sig'>95% percentile bootstrap intervals over items "
        f"({_e(signature_text(used, spec.seed))}{fewer}); recompute with: <code>python3 "
        f"run_local.py . YOUR_SUBMISSION.zip --phase {_e(shlex.quote(spec.phase))} --output "
        "results</code> in the starting kit.</p>"
    )
    if tr.gold.n_scored < FEW_INTERVAL_ITEMS:
        note += (
            "<p class='warn'>Warning: these intervals are drawn over only "
            f"{counted(tr.gold.n_scored, 'item')} (fewer than {FEW_INTERVAL_ITEMS}): "
            "resampling so few items says little about how the score would vary on others.</p>"
        )
    return note


def track_visuals(tr) -> str:
    """The track's plot, as its kind declares it, then its main metric's score per language and
    per genre, where the track has more than one (phases with public gold only)."""
    gold, pred, _ = scored_subset(tr.gold, tr.prediction.values)
    figure = FIGURES[kinds.of(tr.track).report_figure](tr, gold, pred)
    parts = ["<div class='fig'>" + figure + "</div>"]
    metric = get_metric(tr.track.main_metric)
    stats = tr.stats[tr.track.main_metric]  # one row per scored item
    for key, values in sorted(tr.gold.groups.items()):
        values = [value for value, scored in zip(values, tr.gold.scored) if scored]
        if not values or values.count(values[0]) == len(values):
            continue  # a single group
        rows = [
            [_e(value or "(none)"), str(n), "undefined" if score is None else _fmt(score)]
            for value, n, score in summaries.group_scores(metric, stats, values)
        ]
        title = _e(metric.title)
        columns = [(_e(key), LEFT), ("Items", RIGHT), (title, RIGHT)]
        parts.append(f"<h3>{title} by {_e(key)}</h3>" + html_table(columns, rows))
    return "".join(parts)


def _scatter_figure(tr, gold, pred) -> str:
    title = "Predicted vs gold, one point per item"
    return plots.scatter(gold, pred, "gold score", "predicted score", title)


def _confusion_figure(tr, gold, pred) -> str:
    counts = summaries.confusion_counts(gold, pred, len(tr.track.labels))
    title = "Confusion matrix (items)"
    return plots.heatmap(counts.tolist(), tr.track.labels, "gold label", "predicted label", title)


def _distribution_figure(tr, gold, pred) -> str:
    means = dict(zip(("gold", "predicted"), summaries.mean_distributions(gold, pred)))
    chosen = ": P(label chosen)" if tr.track.scale == "multilabel" else ""
    title = f"Mean soft label over items{chosen}"
    return plots.bar_chart(list(tr.track.labels), means, title, "mean probability", y_max=1.0)


#: The per-annotator chart shows at most this many annotators (those with the most labels) ...
MAX_ANNOTATOR_BARS = 40
#: ... and only annotators with at least this many labels: an error rate over fewer says little.
MIN_ANNOTATOR_LABELS = 30


def _annotator_figure(tr, gold, pred) -> str:
    rows_of = [name for names in tr.gold.annotators for name in names]
    errors = summaries.per_annotator_errors(gold, pred, rows_of, tr.track.scale or "")
    enough = [e for e in errors if e[1] >= MIN_ANNOTATOR_LABELS]
    shown = sorted(enough, key=lambda e: (-e[1], e[0]))[:MAX_ANNOTATOR_BARS]
    if not shown:
        most = max((n for _, n, _ in errors), default=0)
        return (
            f"<p class='sig'>No chart of the error per annotator: none of the {len(errors):,} "
            f"annotators has {MIN_ANNOTATOR_LABELS} labels or more (the most is {most:,}).</p>"
        )
    unit = kinds.of(tr.track).row_error_units.get(tr.track.scale, "error rate")
    shown.sort(key=lambda e: _natural_key(e[0]))
    most = " (those with the most labels)" if len(enough) > len(shown) else ""
    bars = [f"{name} ({n})" for name, n, _ in shown]
    title = "Error per annotator (labels in brackets)"
    return plots.bar_chart(bars, {"error": [e for _, _, e in shown]}, title, unit) + (
        f"<p class='sig'>{len(shown):,} of the {len(errors):,} annotators shown{most}: those with "
        f"at least {MIN_ANNOTATOR_LABELS} labels, at most {MAX_ANNOTATOR_BARS}.</p>"
    )


#: The figure each kind's ``report_figure`` names, drawn from the track result and its scored
#: items' gold and predicted values (``scoring.scored_subset``; per-annotator rows all items).
FIGURES = {
    "scatter": _scatter_figure,
    "confusion": _confusion_figure,
    "mean_distribution": _distribution_figure,
    "annotator_errors": _annotator_figure,
}


def _natural_key(name: str):
    """Sort key putting A2 before A10."""
    parts = re.split(r"(\d+)", name)
    return [(0, int(part), "") if part.isdigit() else (1, 0, part) for part in parts]


#: The worst items table lists this many items per track (public gold only).
WORST_ITEMS = 10


def item_errors(tr) -> np.ndarray:
    """Each item's error as the track's kind defines it, NaN for an item without gold or whose
    error is not finite."""
    kind = kinds.of(tr.track)
    errors = np.asarray(kind.item_errors(tr.track, tr.gold.gold, tr.prediction.values), dtype=float)
    return np.where(tr.gold.scored & np.isfinite(errors), errors, np.nan)


#: Characters of an item's text the worst items table shows (the rest is elided).
TEXT_CHARS = 300


def item_text_cell(texts: list[str] | None) -> str:
    """An item's texts for a table cell: each on its own line, cut at ``TEXT_CHARS`` characters."""
    shown = (t if len(t) <= TEXT_CHARS else t[:TEXT_CHARS] + "\u2026" for t in texts or [])
    return "<br>".join(map(html.escape, shown))


def worst_items_table(tr) -> str:
    """The track's WORST_ITEMS items with the largest errors (largest first, ties in item order),
    of those with an error above 0, the count of which is said when fewer (an item predicted right
    is no worst item): id, texts (where the reference data holds them, as it does in a phase whose
    gold is public), gold, prediction and error."""
    errors = item_errors(tr)
    scored = np.flatnonzero(~np.isnan(errors))
    wrong = scored[errors[scored] > 0]
    worst = wrong[np.argsort(-errors[wrong], kind="stable")][:WORST_ITEMS]
    fewer = f"Only {len(wrong)} of the {len(scored)} items scored have an error above 0. "
    fewer = fewer if len(wrong) < WORST_ITEMS else ""
    if not worst.size:
        return f"<p class='sig'>{fewer.strip()}</p>" if scored.size else ""
    gold, predicted = item_value_texts(tr, worst)
    texts = [tr.gold.texts[i] for i in worst.tolist()] if tr.gold.texts else []
    show_texts = any(texts)
    rows = []
    for n, i in enumerate(worst.tolist()):
        row = [_e(tr.gold.ids[i])] + ([item_text_cell(texts[n])] if show_texts else [])
        rows.append(row + [_e(gold[n]), _e(predicted[n]), _fmt(errors[i])])
    columns = [("Item", LEFT)] + ([("Texts", TEXT)] if show_texts else [])
    columns += [("Gold", LEFT), ("Prediction", LEFT), ("Error", RIGHT)]
    return (
        f"<h3>The {len(worst)} items with the largest error</h3><p class='sig'>{fewer}Error: "
        f"{_e(kinds.of(tr.track).item_error_unit(tr.track))}.</p>" + html_table(columns, rows)
    )


#: The columns of ``DETAILED_CSV``.
CSV_COLUMNS = ("track", "id", "gold", "prediction", "error")


def item_value_texts(tr, index) -> tuple[list[str], list[str]]:
    """The gold and the predicted value of each item at ``index``, as the track's kind writes them."""
    kind = kinds.of(tr.track)
    return tuple(kind.item_texts(tr.track, v, index) for v in (tr.gold.gold, tr.prediction.values))


def track_csv_rows(tr) -> list[tuple]:
    """One row per item of the track: gold is empty for an item without gold, and the error for
    an item without gold or whose error is undefined."""
    every = np.arange(len(tr.gold.ids))
    errors = ["" if math.isnan(e) else format(e, ".10g") for e in item_errors(tr).tolist()]
    gold, predicted = item_value_texts(tr, every)
    gold = [text if has_gold else "" for text, has_gold in zip(gold, tr.gold.scored.tolist())]
    return list(zip([tr.track.id] * len(every), tr.gold.ids, gold, predicted, errors))


def write_item_csv(output_dir: Path, result: Result) -> None:
    """``DETAILED_CSV``, every item of every scored track in the edition's track order, where the
    phase's gold is public; where it is hidden, none (the scoring program removed an earlier
    run's): a per-item file of a hidden-gold phase would tell single items' gold."""
    if result.spec.hide_gold:
        return
    try:
        rows = [row for track in result.tracks.values() for row in track_csv_rows(track)]
    except Exception as e:  # noqa: BLE001 - the scores are written whatever happens to this file
        note = f"note: {DETAILED_CSV} could not be written ({e.__class__.__name__}: {e})"
        print(note, file=sys.stderr)
        return
    atomic_write(output_dir / DETAILED_CSV, csv_text(CSV_COLUMNS, rows))
