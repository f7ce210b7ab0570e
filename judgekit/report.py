"""Writing results: scores.json (flat, finite, leaderboard keys), scores.txt (legacy CodaLab) and a
self-contained detailed_results.html (inline CSS and SVG, no script, nothing fetched).

The page shows, per track, each score with its seeded bootstrap interval and the signature that
reproduces it, a plot (predicted vs gold scatter, confusion matrix, mean soft labels, error per
annotator), and per-language / per-genre scores. A phase that hides its gold shows the leaderboard's
scores only (``HIDDEN_GOLD_NOTE``; the policy is in docs/participant-checks.md). Scores themselves
come from ``scoring``; intervals and aggregates from ``stats``."""

from __future__ import annotations

import html
import json
import math
import os
import re
import sys
import tempfile
from itertools import chain
from pathlib import Path
from typing import Dict, Optional

from . import __version__, plots
from .metrics import get as get_metric
from .scoring import Result, scored_subset
from .stats import DEFAULT_RESAMPLES, Signature, summaries, track_intervals

SCORES_JSON = "scores.json"
SCORES_TXT = "scores.txt"
DETAILED_HTML = "detailed_results.html"


def atomic_write(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that readers see the old file or the whole new one, never a part."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
    try:
        # a stray surrogate (a file name that is not UTF-8) is escaped, never a crash
        with os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace", newline="\n") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def scores_json_text(scores: Dict[str, float]) -> str:
    for key, value in scores.items():
        if not isinstance(value, float) or not math.isfinite(value):
            raise ValueError(f"refusing to write a non-finite score {key}={value!r}")
    return json.dumps(scores, indent=1, allow_nan=False) + "\n"


def scores_txt_text(scores: Dict[str, float]) -> str:
    return "".join(f"{key}: {value!r}\n" for key, value in scores.items())


def write_outputs(output_dir: Path, result: Result, html_text: str = None) -> None:
    """Write the detailed page and scores.txt, then scores.json last: its presence means success."""
    output_dir = Path(output_dir)
    output_dir.mkdir(parents=True, exist_ok=True)
    scores = result.scores()
    json_text = scores_json_text(scores)
    atomic_write(
        output_dir / DETAILED_HTML, html_text if html_text is not None else detailed_html(result)
    )
    atomic_write(output_dir / SCORES_TXT, scores_txt_text(scores))
    atomic_write(output_dir / SCORES_JSON, json_text)


def failure_html(title: str, message: str) -> str:
    """A detailed-results page for a submission that could not be scored."""
    return html_page(
        title, f"<h2>Submission not scored</h2><pre class='err'>{html.escape(message)}</pre>"
    )


_CSS = """body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:1.5em;color:#222;max-width:70em}
table{border-collapse:collapse;margin:.5em 0 1.2em}td,th{border:1px solid #ccc;padding:.25em .6em;text-align:right}
th{background:#f3f3f3}td.l,th.l{text-align:left}.warn{color:#8a5a00}.err{color:#a00;white-space:pre-wrap}
.sig{color:#666;font-size:.85em}h2{border-bottom:1px solid #ddd;padding-bottom:.2em}
.fig{margin:.5em 0;overflow-x:auto}svg.plot{background:#fff;margin-right:1em}h3{font-size:1em}"""


def html_page(title: str, body: str) -> str:
    """A self-contained HTML page (its style inline) with ``title`` and the HTML ``body``."""
    return (
        "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
        f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>\n{body}\n</body></html>\n"
    )


def _fmt(value: float) -> str:
    return f"{value:.4f}"


def bootstrap_resamples(spec) -> int:
    """Resamples behind the page's intervals: the spec's ``bootstrap_resamples`` (task.json), else
    ``stats.DEFAULT_RESAMPLES`` (1,000; 0 turns intervals off). A large track gets fewer, see
    ``page_resamples``."""
    value = spec.extra.get("bootstrap_resamples", DEFAULT_RESAMPLES)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 100_000:
        return DEFAULT_RESAMPLES
    return value


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
    if requested * max(n_items, 1) <= PAGE_DRAWS:
        return requested
    fitting = PAGE_DRAWS // n_items
    return fitting if fitting >= PAGE_MIN_RESAMPLES else 0


#: What a page of a hidden-gold phase says instead of its intervals, plots and breakdowns.
HIDDEN_GOLD_NOTE = (
    "The gold of this phase is hidden, so this page shows the leaderboard's scores only: no "
    "intervals, plots or breakdowns by annotator, language or genre. Comparing two submissions "
    "on those would tell the gold of single items. The practice phase's page shows them all."
)


def detailed_html(
    result: Result, extra_sections: Dict[str, str] = None, resamples: Optional[int] = None
) -> str:
    """Per-track scores with bootstrap intervals, plots, breakdowns and warnings.

    When the phase hides its gold (``spec.hide_gold``) the page holds nothing that depends on the
    gold beyond the scores written to scores.json (and notes that depend on the submission alone):
    every interval, plot or breakdown would let the difference between two submissions be
    attributed to single items.
    """
    spec = result.spec
    esc = html.escape
    hidden = spec.hide_gold
    resamples = 0 if hidden else bootstrap_resamples(spec) if resamples is None else resamples
    signature = Signature(resamples, spec.seed).render()
    parts = [
        f"<h1>{esc(spec.title)}</h1>",
        f"<p>Phase: <b>{esc(spec.phase)}</b>. Primary score: <b>{_fmt(result.primary)}</b> "
        f"(mean of the primary tracks' main metric; a missing primary track counts as its worst value).</p>",
    ]
    if hidden:
        parts.append(f"<p class='sig'>{esc(HIDDEN_GOLD_NOTE)}</p>")
    parts.append(_summary_table(result))
    for t in spec.tracks:
        tr = result.tracks.get(t.id)
        if tr is None:
            continue
        section = [
            f"<h2>{esc(t.title)}</h2>",
            _guarded(
                lambda: _score_table(tr, resamples, spec.seed, signature, not hidden),
                "the confidence intervals",
            ),
        ]
        if extra_sections and t.id in extra_sections:
            section.append(extra_sections[t.id])
        if not hidden:
            section.append(_guarded(lambda: track_visuals(tr), "the plots"))
        for w in tr.warnings:
            section.append(f"<p class='warn'>Warning: {esc(w)}</p>")
        parts.append("\n".join(section))
    if result.warnings:
        parts.append(
            "<h2>Submission notes</h2><ul>"
            + "".join(f"<li class='warn'>{esc(w)}</li>" for w in result.warnings)
            + "</ul>"
        )
    parts.append(
        f"<p class='sig'>judgekit {esc(__version__)} | edition {esc(spec.edition)} | "
        f"phase {esc(spec.phase)}" + ("" if hidden else f" | intervals: {esc(signature)}") + "</p>"
    )
    return html_page(f"{spec.title}: detailed results", "\n".join(parts))


def _summary_table(result: Result) -> str:
    """One row per track of the edition: its scores, items scored and file, or "not submitted"."""
    esc = html.escape
    rows = []
    for t in result.spec.tracks:
        tr = result.tracks.get(t.id)
        if tr is None:
            rows.append(
                f"<tr><td class='l'>{esc(t.title)}</td><td class='l'>{esc(t.kind)}</td>"
                f"<td colspan='3' class='l warn'>not submitted</td></tr>"
            )
            continue
        metrics = "; ".join(f"{esc(get_metric(m).title)} {_fmt(v)}" for m, v in tr.scores.items())
        rows.append(
            f"<tr><td class='l'>{esc(t.title)}</td><td class='l'>{esc(t.kind)}</td>"
            f"<td class='l'>{metrics}</td><td>{tr.n_scored}</td><td class='l'>{esc(tr.file)}</td></tr>"
        )
    return (
        "<table><tr><th class='l'>Track</th><th class='l'>Kind</th><th class='l'>Scores</th>"
        "<th>Items scored</th><th class='l'>File</th></tr>" + "".join(rows) + "</table>"
    )


def _guarded(build, what: str) -> str:
    """A part of the page that must not cost the participant their scores if it fails to draw."""
    try:
        return build()
    except Exception as e:  # noqa: BLE001 - scores are written whatever happens to a plot
        print(f"note: {what} could not be drawn ({e.__class__.__name__}: {e})", file=sys.stderr)
        return f"<p class='warn'>{html.escape(what.capitalize())} could not be drawn (an internal problem of the kit).</p>"


def _score_table(
    tr, resamples: int, seed: int, signature: str, interval_column: bool = True
) -> str:
    """Each metric's value, its percentile bootstrap interval (n/a when ``resamples`` is 0; no such
    column without ``interval_column``), direction and range."""
    used = page_resamples(resamples, tr.n_scored)
    intervals = track_intervals(tr, used, seed) if used else {}
    rows = []
    for m, v in tr.scores.items():
        metric = get_metric(m)
        lo, hi = metric.bounds(len(tr.track.labels))
        iv = intervals.get(m)
        ci = f"[{_fmt(iv.low)}, {_fmt(iv.high)}]" if iv is not None else "n/a"
        ci = f"<td>{ci}</td>" if interval_column else ""
        rows.append(
            f"<tr><td class='l'>{html.escape(metric.title)}</td><td><b>{_fmt(v)}</b></td>{ci}"
            f"<td class='l'>{metric.direction} is better</td><td>{lo:g} to {hi:g}</td></tr>"
        )
    note = ""
    if intervals:
        fewer = ""
        if used != resamples:
            signature = Signature(used, seed).render()
            fewer = f" ({used} resamples, not {resamples}: the page draws at most {PAGE_DRAWS:,} items per track)"
        note = (
            f"<p class='sig'>95% percentile bootstrap intervals over items{fewer}; recompute with: "
            f"{html.escape(signature)}</p>"
        )
    elif resamples and not used:
        note = (
            f"<p class='sig'>No interval: {PAGE_MIN_RESAMPLES} resamples of these {tr.n_scored:,} items would "
            f"draw more than the {PAGE_DRAWS:,} items the page may spend on a track; recompute with: "
            f"{html.escape(signature)}</p>"
        )
    head = "<th>95% interval</th>" if interval_column else ""
    return (
        f"<table><tr><th class='l'>Metric</th><th>Score</th>{head}<th class='l'>Direction</th>"
        "<th>Range</th></tr>" + "".join(rows) + "</table>" + note
    )


def track_visuals(tr) -> str:
    """The track's plot and its per-language / per-genre breakdown (phases with public gold only)."""
    kind = tr.track.kind
    if kind == "similarity":
        figure = _similarity_figure(tr)
    elif kind == "classification":
        figure = _confusion_figure(tr)
    elif kind == "soft_label":
        figure = _distribution_figure(tr)
    else:
        figure = _annotator_figure(tr)
    return "<div class='fig'>" + figure + "</div>" + _breakdowns(tr)


def _scored(tr):
    """Gold and predicted arrays of the scored items (similarity, classification, soft labels)."""
    gold, pred, _ = scored_subset(tr.gold, tr.prediction.values)
    return gold, pred


def _similarity_figure(tr) -> str:
    gold, pred = _scored(tr)
    return plots.scatter(
        gold, pred, "gold score", "predicted score", "Predicted vs gold, one point per item"
    )


def _confusion_figure(tr) -> str:
    gold, pred = _scored(tr)
    labels = list(tr.track.labels)
    counts = summaries.confusion_counts(gold, pred, len(labels))
    return plots.heatmap(
        counts.tolist(), labels, labels, "gold label", "predicted label", "Confusion matrix (items)"
    )


def _distribution_figure(tr) -> str:
    gold, pred = _scored(tr)
    gold_mean, pred_mean = summaries.mean_distributions(gold, pred)
    multilabel = tr.track.scale == "multilabel"
    return plots.bar_chart(
        list(tr.track.labels),
        {"gold": gold_mean, "predicted": pred_mean},
        "Mean soft label over items" + (": P(label chosen)" if multilabel else ""),
        "mean probability",
        y_max=1.0,
    )


#: The per-annotator chart shows at most this many annotators (those with the most labels).
MAX_ANNOTATOR_BARS = 40


def _annotator_figure(tr) -> str:
    rows_of = list(chain.from_iterable(tr.gold.annotators))
    errors = summaries.per_annotator_errors(
        tr.gold.gold, tr.prediction.values, rows_of, tr.track.scale or ""
    )
    shown = sorted(errors, key=lambda e: (-e[1], e[0]))[:MAX_ANNOTATOR_BARS]
    left_out = len(errors) - len(shown)
    unit = {
        "ordinal": "mean |gold - predicted| / number of labels",
        "multilabel": "share of labels mispredicted",
    }.get(tr.track.scale, "error rate")
    note = ""
    if left_out:
        note = (
            f"<p class='sig'>{left_out} annotator(s) not shown (beyond the {MAX_ANNOTATOR_BARS} "
            f"with the most labels).</p>"
        )
    if not shown:
        return note or "<p class='sig'>No annotator to show.</p>"
    shown.sort(key=lambda e: _natural_key(e[0]))
    return (
        plots.bar_chart(
            [f"{name} ({n})" for name, n, _ in shown],
            {"error": [e for _, _, e in shown]},
            "Error per annotator (labels in brackets)",
            unit,
        )
        + note
    )


def _natural_key(name: str):
    """Sort key putting A2 before A10."""
    return [
        (0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"(\d+)", name)
    ]


def _breakdowns(tr) -> str:
    """Main-metric score per language and per genre, where the track has more than one."""
    metric = get_metric(tr.track.main_metric)
    stats = tr.stats.get(tr.track.main_metric)
    if stats is None:
        return ""
    out = []
    for key, values in sorted(tr.gold.groups.items()):
        values = (
            [v for v, s in zip(values, tr.gold.scored) if s]
            if len(values) != len(stats)
            else values
        )
        if len(values) != len(stats) or not values or values.count(values[0]) == len(values):
            continue  # a single group (counted in C: a set of a million strings takes a while)
        rows = []
        for value, n, score in summaries.group_scores(metric, stats, values):
            shown = _fmt(score) if score is not None else "undefined"
            rows.append(
                f"<tr><td class='l'>{html.escape(value or '(none)')}</td><td>{n}</td><td>{shown}</td></tr>"
            )
        out.append(
            f"<h3>{html.escape(metric.title)} by {html.escape(key)}</h3><table><tr><th class='l'>"
            f"{html.escape(key)}</th><th>Items</th><th>{html.escape(metric.title)}</th></tr>"
            + "".join(rows)
            + "</table>"
        )
    return "".join(out)
