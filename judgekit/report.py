"""Writing results: scores.json (flat, finite, leaderboard keys), scores.txt (legacy CodaLab) and a
self-contained detailed_results.html. Nothing here knows how scores were computed."""

from __future__ import annotations

import html
import json
import math
import os
import tempfile
from pathlib import Path
from typing import Dict

from . import __version__
from .metrics import get as get_metric
from .scoring import Result

SCORES_JSON = "scores.json"
SCORES_TXT = "scores.txt"
DETAILED_HTML = "detailed_results.html"


def atomic_write(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that readers see the old file or the whole new one, never a part."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
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
    atomic_write(output_dir / DETAILED_HTML, html_text if html_text is not None else detailed_html(result))
    atomic_write(output_dir / SCORES_TXT, scores_txt_text(scores))
    atomic_write(output_dir / SCORES_JSON, json_text)


def failure_html(title: str, message: str) -> str:
    """A detailed-results page for a submission that could not be scored."""
    return _page(title, f"<h2>Submission not scored</h2><pre class='err'>{html.escape(message)}</pre>")


_CSS = """body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:1.5em;color:#222;max-width:70em}
table{border-collapse:collapse;margin:.5em 0 1.2em}td,th{border:1px solid #ccc;padding:.25em .6em;text-align:right}
th{background:#f3f3f3}td.l,th.l{text-align:left}.warn{color:#8a5a00}.err{color:#a00;white-space:pre-wrap}
.sig{color:#666;font-size:.85em}h2{border-bottom:1px solid #ddd;padding-bottom:.2em}"""


def _page(title: str, body: str) -> str:
    return ("<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
            f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>\n{body}\n</body></html>\n")


def _fmt(value: float) -> str:
    return f"{value:.4f}"


def detailed_html(result: Result, extra_sections: Dict[str, str] = None) -> str:
    """Per-track scores, sizes and warnings. No item-level gold is ever written here."""
    spec = result.spec
    esc = html.escape
    parts = [f"<h1>{esc(spec.title)}</h1>",
             f"<p>Phase: <b>{esc(spec.phase)}</b>. Primary score: <b>{_fmt(result.primary)}</b> "
             f"(mean of the primary tracks' main metric; a missing primary track counts as its worst value).</p>"]
    rows = []
    for t in spec.tracks:
        tr = result.tracks.get(t.id)
        if tr is None:
            rows.append(f"<tr><td class='l'>{esc(t.title)}</td><td class='l'>{esc(t.kind)}</td>"
                        f"<td colspan='3' class='l warn'>not submitted</td></tr>")
            continue
        metrics = "; ".join(f"{esc(get_metric(m).title)} {_fmt(v)}" for m, v in tr.scores.items())
        rows.append(f"<tr><td class='l'>{esc(t.title)}</td><td class='l'>{esc(t.kind)}</td>"
                    f"<td class='l'>{metrics}</td><td>{tr.n_scored}</td><td class='l'>{esc(tr.file)}</td></tr>")
    parts.append("<table><tr><th class='l'>Track</th><th class='l'>Kind</th><th class='l'>Scores</th>"
                 "<th>Items scored</th><th class='l'>File</th></tr>" + "".join(rows) + "</table>")
    for t in spec.tracks:
        tr = result.tracks.get(t.id)
        if tr is None:
            continue
        section = [f"<h2>{esc(t.title)}</h2>"]
        for m, v in tr.scores.items():
            metric = get_metric(m)
            lo, hi = metric.bounds(len(t.labels))
            section.append(f"<p><b>{esc(metric.title)}</b>: {_fmt(v)} "
                           f"({metric.direction} is better; range {lo:g} to {hi:g})</p>")
        if extra_sections and t.id in extra_sections:
            section.append(extra_sections[t.id])
        for w in tr.warnings:
            section.append(f"<p class='warn'>Warning: {esc(w)}</p>")
        parts.append("\n".join(section))
    if result.warnings:
        parts.append("<h2>Submission notes</h2><ul>" +
                     "".join(f"<li class='warn'>{esc(w)}</li>" for w in result.warnings) + "</ul>")
    parts.append(f"<p class='sig'>judgekit {esc(__version__)} | edition {esc(spec.edition)} | "
                 f"phase {esc(spec.phase)}</p>")
    return _page(f"{spec.title}: detailed results", "\n".join(parts))
