"""The detailed results page: intervals with their signature, plots, breakdowns, no leak of hidden
gold, self-contained HTML, byte-for-byte reproducibility, and a real headless-browser rendering."""

import json
import re
from bisect import bisect_right
from html import escape as html_escape
import shutil
import struct
import subprocess
import zlib
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from codajudge import plots, report
from codajudge.programs.score import main as score_main
from codajudge.scoring import score_folder
from codajudge.spec import read_spec
from codajudge.stats.bootstrap import signature_text, track_intervals
from codajudge.stats.bootstrap import DEFAULT_SEED

CHROMIUM = Path("/usr/bin/chromium")
NLI = ["entailment", "neutral", "contradiction"]
N_ITEMS = 300


def _write_jsonl(path, rows):
    """As the kit writes items (formats.items.write_items): U+2028 and U+0085 in a text stay raw."""
    path.write_text(
        "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in rows),
        encoding="utf-8",
    )


def _pair(chosen: float) -> list[float]:
    """A multilabel soft label's [P(not chosen), P(chosen)], P(chosen) at 3 decimals."""
    p = round(float(chosen), 3)
    return [1.0 - p, p]


def make_phase(
    root: Path, hide_gold: bool, seed: int = 0, extra: dict = None, n_items: int = N_ITEMS
) -> dict:
    """A phase with one track of each kind: ref/ (task.json + gold), res/ (predictions).

    Similarity gold has six decimals in [1.5, 5], away from every score and interval on the page,
    so that a leaked gold value cannot be mistaken for another number. Returns the gold per track.
    """
    rng = np.random.default_rng(seed)
    ref, res = root / "ref", root / "res"
    ref.mkdir(parents=True)
    res.mkdir()
    tracks = [
        {"id": "sim", "title": "Similarity <en/es>", "kind": "similarity", "dataset": "sim"},
        {"id": "nli", "kind": "classification", "dataset": "nli", "labels": NLI},
        {
            "id": "soft",
            "kind": "soft_label",
            "scale": "ordinal",
            "dataset": "csc",
            "labels": ["1", "2", "3", "4", "5", "6"],
            "primary": False,
        },
        {
            "id": "persp",
            "kind": "perspectivist",
            "scale": "categorical",
            "dataset": "mp",
            "labels": ["0", "1"],
            "primary": False,
        },
        {
            "id": "ven_soft",
            "kind": "soft_label",
            "scale": "multilabel",
            "dataset": "ven",
            "labels": NLI,
            "primary": False,
        },
        {
            "id": "ven_persp",
            "kind": "perspectivist",
            "scale": "multilabel",
            "dataset": "ven",
            "labels": NLI,
            "primary": False,
        },
    ]
    spec = {
        "edition": "demo",
        "title": "Demo",
        "phase": "evaluation" if hide_gold else "practice",
        "hide_gold": hide_gold,
        "seed": DEFAULT_SEED,
        "tracks": tracks,
        **(extra or {}),
    }
    (ref / "task.json").write_text(json.dumps(spec), encoding="utf-8")
    # a text may hold U+2028 and U+0085 (web and social-media text does): text, not line ends
    sim = [
        {
            "id": f"simitem-{i:04d}",
            "texts": ["a\u2028b", "c\x85d"],
            "lang": "en" if i % 2 else "es",
            "score": round(float(rng.uniform(1.5, 5.0)), 6),
        }
        for i in range(n_items)
    ]
    _write_jsonl(ref / "sim.jsonl", sim)
    (res / "sim.tsv").write_text(
        "".join(f"{it['id']}\t{it['score'] + rng.normal(0, 1):.4f}\n" for it in sim)
    )
    nli = [
        {
            "id": f"nliitem-{i:04d}",
            "texts": ["a", "b"],
            "genre": "news" if i % 3 else "fiction",
            "label": NLI[rng.integers(3)] if i % 10 else None,
        }
        for i in range(n_items)
    ]
    _write_jsonl(ref / "nli.jsonl", nli)
    (res / "nli.tsv").write_text(
        "".join(
            f"{it['id']}\t{it['label'] if it['label'] and rng.random() < 0.7 else NLI[rng.integers(3)]}\n"
            for it in nli
        )
    )
    csc = []
    for i in range(n_items):
        names = [f"C{k}" for k in rng.choice(10, size=4, replace=False)]
        csc.append(
            {
                "id": f"cscitem-{i:04d}",
                "texts": ["x"],
                "annotators": names,
                "annotations": [str(rng.integers(1, 7)) for _ in names],
            }
        )
    _write_jsonl(ref / "csc.jsonl", csc)
    soft_lines = []
    for it in csc:
        p = np.round(rng.dirichlet(np.ones(6)), 4)
        p[-1] = round(1.0 - p[:-1].sum(), 4)
        soft_lines.append(f"{it['id']}\t{json.dumps(p.tolist())}\n")
    (res / "soft.tsv").write_text("".join(soft_lines))
    mp = []
    for i in range(n_items):
        names = [f"M{k}" for k in rng.choice(30, size=5, replace=False)]
        if i < 3:
            names[0] = "Rare1"  # an annotator with 3 labels: never shown when the gold is hidden
        mp.append(
            {
                "id": f"mpitem-{i:04d}",
                "texts": ["x"],
                "annotators": names,
                "annotations": [str(rng.integers(0, 2)) for _ in names],
            }
        )
    _write_jsonl(ref / "mp.jsonl", mp)
    (res / "persp.tsv").write_text(
        "".join(
            f"{it['id']}\t{json.dumps([a if rng.random() < 0.7 else str(1 - int(a)) for a in it['annotations']])}\n"
            for it in mp
        )
    )
    ven = [
        {
            "id": f"venitem-{i:04d}",
            "texts": ["p", "h"],
            "annotators": ["V1", "V2", "V3", "V4"],
            "annotations": [
                list(rng.choice(NLI, size=rng.integers(1, 3), replace=False)) for _ in range(4)
            ],
        }
        for i in range(n_items)
    ]
    _write_jsonl(ref / "ven.jsonl", ven)
    (res / "ven_soft.tsv").write_text(
        "".join(
            f"{it['id']}\t{json.dumps([_pair(v) for v in rng.uniform(0, 1, 3)])}\n" for it in ven
        )
    )
    (res / "ven_persp.tsv").write_text(
        "".join(
            f"{it['id']}\t{json.dumps([[NLI[rng.integers(3)]] for _ in range(4)])}\n" for it in ven
        )
    )
    return {"sim": sim, "nli": nli, "csc": csc, "mp": mp, "ven": ven}


def run_scoring(root: Path, expect_drawn: bool = True) -> str:
    out = root / "out"
    assert score_main([str(root), str(out)]) == 0
    assert (out / "scores.json").is_file()
    page = (out / "detailed_results.html").read_text(encoding="utf-8")
    assert ("could not be drawn" not in page) == expect_drawn
    return page


@pytest.fixture(scope="module")
def practice(tmp_path_factory):
    root = tmp_path_factory.mktemp("practice")
    gold = make_phase(root, hide_gold=False)
    return root, gold, run_scoring(root)


@pytest.fixture(scope="module")
def evaluation(tmp_path_factory):
    root = tmp_path_factory.mktemp("evaluation")
    gold = make_phase(root, hide_gold=True)
    return root, gold, run_scoring(root)


def test_page_shows_intervals_signature_plots_and_breakdowns(practice):
    root, _, page = practice
    assert page.count("<svg") == 6
    assert page.count("95% interval") == 6
    signature = signature_text(1000, DEFAULT_SEED)
    assert signature in page
    result = score_folder(read_spec(root / "ref"), root / "ref", root / "res")
    for track_id in ("sim", "nli", "soft", "persp", "ven_soft", "ven_persp"):
        for iv in track_intervals(result.tracks[track_id], 1000, DEFAULT_SEED).values():
            assert f"[{iv.low:.4f}, {iv.high:.4f}]" in page
    assert "Pearson r by lang" in page and "Accuracy by genre" in page
    assert "Similarity &lt;en/es&gt;" in page and "<en/es>" not in page
    assert page.count("<circle") == N_ITEMS  # the practice phase may show one point per item


def test_page_is_self_contained(practice, evaluation):
    for _, _, page in (practice, evaluation):
        lowered = page.lower()
        for forbidden in (
            "<script",
            "http://",
            "https://",
            "url(",
            "@import",
            "<link",
            "<img",
            "<iframe",
            "src=",
            "href=",
            "<object",
            "<embed",
            "xlink",
        ):
            assert forbidden not in lowered, forbidden


def _number_tokens(page: str):
    return set(re.findall(r"\d+\.\d+", page))


def test_evaluation_page_reveals_no_item_gold(evaluation, practice):
    _, gold, page = evaluation
    tokens = _number_tokens(page)
    for item in gold["sim"]:
        value = item["score"]
        renderings = {repr(value)} | {f"{value:.{d}f}" for d in (3, 4, 5, 6)}
        assert not renderings & tokens, item["id"]
    for dataset in gold.values():
        for item in dataset:
            assert item["id"] not in page
    # the leaderboard's scores only: no plot, interval, breakdown or annotator (docs/participant-checks.md)
    for absent in (
        "<svg",
        "<circle",
        "95% interval",
        "recompute with",
        " by lang",
        " by genre",
        "Rare1",
        "M1 (",
    ):
        assert absent not in page, absent
    assert html_escape(report.HIDDEN_GOLD_NOTE) in page
    # the same checks see per-item content when the phase may show it
    _, _, practice_page = practice
    assert (
        "<circle" in practice_page and "M1 (" in practice_page and "95% interval" in practice_page
    )


@pytest.mark.parametrize(
    ("public", "named"),
    [
        ([], ""),
        (["local"], " The local phase's page shows them all."),
        (["practice", "local"], " The practice and local phases' pages show them all."),
    ],
)
def test_a_hidden_gold_page_names_only_the_editions_public_gold_phases(tmp_path, public, named):
    """A hidden-gold practice phase (STS 2017's) is no page that shows it all: the page names the
    phases task.json lists as public-gold, and none when there are none."""
    make_phase(tmp_path, hide_gold=True, n_items=12, extra={"public_gold_phases": public})
    page = run_scoring(tmp_path)
    assert html_escape(report.HIDDEN_GOLD_NOTE + named) + "</p>" in page


def test_a_hidden_gold_page_comes_back_whole_when_the_gold_is_public(tmp_path):
    make_phase(tmp_path, hide_gold=True, n_items=12)
    page = run_scoring(tmp_path)
    assert "<svg" not in page and "recompute with" not in page
    assert "<svg" in run_scoring_practice_copy(tmp_path)


def run_scoring_practice_copy(root: Path) -> str:
    """The same tiny phase with its gold public: plots come back."""
    copy = root / "practice-copy"
    shutil.copytree(root / "ref", copy / "ref")
    shutil.copytree(root / "res", copy / "res")
    spec = json.loads((copy / "ref" / "task.json").read_text())
    spec.update(hide_gold=False, phase="practice")
    (copy / "ref" / "task.json").write_text(json.dumps(spec))
    return run_scoring(copy)


def test_same_seed_same_bytes_other_seed_other_intervals(tmp_path):
    make_phase(tmp_path / "a", hide_gold=False)
    make_phase(tmp_path / "b", hide_gold=False)
    make_phase(tmp_path / "c", hide_gold=False, extra={"seed": 999})
    first, second, other = (run_scoring(tmp_path / k) for k in "abc")
    assert first == second
    assert "seed 999" in other and other != first


def test_resamples_come_from_the_task_spec(tmp_path):
    make_phase(tmp_path / "off", hide_gold=False, extra={"bootstrap_resamples": 0})
    make_phase(tmp_path / "few", hide_gold=False, extra={"bootstrap_resamples": 200})
    off, few = run_scoring(tmp_path / "off"), run_scoring(tmp_path / "few")
    assert "n/a" in off and "recompute with" not in off
    assert signature_text(200, DEFAULT_SEED) in few


def test_a_failing_plot_does_not_cost_the_scores(tmp_path, monkeypatch, capsys):
    make_phase(tmp_path, hide_gold=False)

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(report, "track_visuals", broken)
    page = run_scoring(tmp_path, expect_drawn=False)
    assert "The plots could not be drawn" in page and "95% interval" in page
    assert "boom" not in page and "Traceback" not in page


def test_a_failed_prediction_step_shows_its_message_as_text(tmp_path, capsys):
    """The ingestion program's message (a traceback with quotes and line breaks) is shown as it was
    written: lines as line breaks, no repr escapes; the refusal says what failed in plain words."""
    make_phase(tmp_path, hide_gold=False, n_items=12)
    message = (
        "ingestion program: the submission was not accepted:\n"
        "model.py: track 'es_es': Model.predict failed with KeyError: 'es_es'. Your code's "
        'traceback:\n  File "model.py", line 14, in predict\n    return [d["x"]]\n'
        "KeyError: 'es_es'"
    )
    status = {"status": "failed", "message": message}
    (tmp_path / "res" / "ingestion_status.json").write_text(json.dumps(status), encoding="utf-8")
    out = tmp_path / "out"
    assert score_main([str(tmp_path), str(out)]) == 2
    shown = message.split("accepted:\n", 1)[1]
    assert capsys.readouterr().err == (
        "scoring program: the submission was not accepted:\n"
        f"ingestion_status.json: the prediction step failed: {shown}\n"
    )
    page = (out / "detailed_results.html").read_text(encoding="utf-8")
    assert html_escape(f"ingestion_status.json: the prediction step failed: {shown}") in page
    assert "\\n" not in page and "\\&#x27;" not in page


def test_the_notes_of_a_file_two_tracks_read_are_said_once():
    """A LeWiDi 2023 results file gives its soft and hard tracks the same reading notes: the
    scoring program's log and the page's list of notes say them once, each track's own after."""
    layout = "the file was read in the LeWiDi 2023 layout"
    soft = SimpleNamespace(file="HS-Brexit_results.tsv", warnings=[layout])
    hard = SimpleNamespace(file="HS-Brexit_results.tsv", warnings=[layout, "Micro-F1: undefined"])
    result = SimpleNamespace(warnings=["tracks not covered"], tracks={"s": soft, "h": hard})
    assert report.submission_notes(result) == [
        "tracks not covered",
        f"HS-Brexit_results.tsv: {layout}",
        "HS-Brexit_results.tsv: Micro-F1: undefined",
    ]


def test_plot_labels_are_escaped():
    nasty = "<b>&\"x'"
    svg = plots.heatmap([[1, 0], [0, 1]], [nasty, "b"], nasty, nasty, nasty)
    svg += plots.bar_chart([nasty], {nasty: [0.5]}, nasty, nasty)
    svg += plots.scatter([1, 2], [2, 1], nasty, nasty, nasty)
    assert "<b>" not in svg and "&lt;b&gt;&amp;&quot;x&#x27;" in svg


def test_nice_ticks_are_round_and_cover_the_range():
    assert plots.nice_ticks(0, 5) == [0, 2, 4]  # (5 - 0) / 4 = 1.25 rounds up to a step of 2
    assert plots.nice_ticks(0, 1) == [0, 0.25, 0.5, 0.75, 1]
    ticks = plots.nice_ticks(-0.37, 4.2)
    assert ticks[0] >= -0.37 and ticks[-1] <= 4.2 and len(ticks) >= 3


# --- a real browser --------------------------------------------------------------------------


def _paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def _paeth_channel(line: np.ndarray, up: list) -> list:
    """One channel of a Paeth row (every bpp-th byte, and the row above's): each byte is its
    filtered byte plus ``_paeth(left, above, above-left)``, mod 256. Where the left byte equals the
    one above it (as before the first), a filtered 0 decodes to the byte above, and so does the run
    of 0s after it: only the other bytes are decoded one by one (a screenshot's are mostly 0s)."""
    out = list(up)
    nonzero = np.flatnonzero(line).tolist()
    line = line.tolist()
    x = nonzero[0] if nonzero else len(line)
    while x < len(line):
        left, corner = (out[x - 1], up[x - 1]) if x else (0, 0)
        out[x] = (line[x] + _paeth(left, up[x], corner)) & 255
        if out[x] != up[x]:  # the next byte's left is not the one above it
            x += 1
        else:
            following = bisect_right(nonzero, x)
            x = nonzero[following] if following < len(nonzero) else len(line)
    return out


def _unfiltered(kind: int, line: np.ndarray, previous: np.ndarray, bpp: int) -> np.ndarray:
    """A row's bytes from its filtered bytes (``kind``: PNG's filter type) and the row above's."""
    if kind == 0:
        return line
    if kind == 1:  # Sub: a running sum per channel
        return np.cumsum(line.reshape(-1, bpp), axis=0).reshape(-1) % 256
    if kind == 2:  # Up
        return (line + previous) % 256
    current = np.zeros(len(line), dtype=np.int64)
    up = previous.tolist()
    if kind == 4:  # Paeth: each channel on its own
        for channel in range(bpp):
            current[channel::bpp] = _paeth_channel(line[channel::bpp], up[channel::bpp])
        return current
    values = line.tolist()  # Average (3) depends on the byte to the left: decoded byte by byte
    for i in range(len(values)):
        left = current[i - bpp] if i >= bpp else 0
        current[i] = (values[i] + (left + up[i]) // 2) & 255
    return current


def read_png(path: Path) -> np.ndarray:
    """Decode an 8-bit, non-interlaced RGB or RGBA PNG (what Chromium writes) to (H, W, 3) uint8."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0
        elif kind == b"IDAT":
            idat += body
    bpp = 3 if colour == 2 else 4
    stride = width * bpp
    raw = zlib.decompress(idat)
    image = np.zeros((height, stride), dtype=np.uint8)
    previous = np.zeros(stride, dtype=np.int64)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = np.frombuffer(raw, dtype=np.uint8, count=stride, offset=y * (stride + 1) + 1).astype(
            np.int64
        )
        current = _unfiltered(kind, line, previous, bpp)
        image[y] = current
        previous = current
    return image.reshape(height, width, bpp)[:, :, :3]


def screenshot(html_path: Path, png_path: Path, profile: Path) -> np.ndarray:
    command = [
        str(CHROMIUM),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        f"--user-data-dir={profile}",
        "--host-resolver-rules=MAP * ~NOTFOUND",
        "--force-device-scale-factor=1",
        "--hide-scrollbars",
        "--window-size=900,3400",
        f"--screenshot={png_path}",
        html_path.as_uri(),
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert png_path.is_file(), (
        f"chromium wrote no screenshot (exit {done.returncode}): {done.stderr[-2000:]}"
    )
    return read_png(png_path)


def plot_pixels(image: np.ndarray):
    """(bluish pixels, orange pixels): plot colours; the page's text and tables are grey or black."""
    rgb = image.astype(int)
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    blue = int(np.count_nonzero((b - r > 40) & (b > 120)))
    orange = int(np.count_nonzero((r > 200) & (g > 100) & (g < 160) & (b < 60)))
    return blue, orange


@pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="no headless browser: /usr/bin/chromium is not installed "
    "(CI installs Debian's chromium package)",
)
def test_pages_render_with_plots_in_a_real_browser(practice, evaluation, tmp_path):
    html_path = tmp_path / "practice.html"
    html_path.write_text(practice[2], encoding="utf-8")
    blue, orange = plot_pixels(
        screenshot(html_path, tmp_path / "practice.png", tmp_path / "profile")
    )
    assert blue > 20_000 and orange > 500, (blue, orange)  # scatter/heat map/bars, soft-label bars
    # the same page without its SVG elements has none of those colours: the count measures the plots
    # (and so has the evaluation page, whose gold is hidden)
    bare_path = tmp_path / "bare.html"
    bare_path.write_text(re.sub(r"<svg.*?</svg>", "", practice[2], flags=re.S), encoding="utf-8")
    bare_blue, bare_orange = plot_pixels(
        screenshot(bare_path, tmp_path / "bare.png", tmp_path / "profile")
    )
    assert bare_blue < 200 and bare_orange < 50, (bare_blue, bare_orange)
    hidden_path = tmp_path / "evaluation.html"
    hidden_path.write_text(evaluation[2], encoding="utf-8")
    hidden_blue, hidden_orange = plot_pixels(
        screenshot(hidden_path, tmp_path / "evaluation.png", tmp_path / "profile")
    )
    assert hidden_blue < 200 and hidden_orange < 50, (hidden_blue, hidden_orange)
    shutil.rmtree(tmp_path / "profile", ignore_errors=True)
