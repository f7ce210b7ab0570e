"""Issue 6: hostile and broken submissions. Every corpus case is scored as the platform does it --
``score.py INPUT OUTPUT``'s main with its own working folder, TMPDIR and C.UTF-8 streams, many cases
to an interpreter (tests/score_batch.py), two interpreters in parallel -- and must
exit with the expected code and message, without a traceback, a partial scores.json, a gold value in
a message, unescaped hostile text in the HTML, or a file written outside its own folder.

The cases and their expected messages are in tests/hostile/corpus.py (``python3 tests/hostile/corpus.py``
prints the counts).
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from hostile import checks, corpus, edition
from codajudge.spec import spec_from_dict
from codajudge.bundle.compose import score_rows

CASES = corpus.cases()
BY_NAME = {case.name: case for case in CASES}
KEYS = [key for key, _, _ in score_rows(spec_from_dict(edition.spec(), "task.json").tracks)]
#: Where a refusal may point: a track file, the archive, the platform's files, the submission as a whole.
FILE_NAMES = tuple(f"{t['id']}.tsv" for t in edition.TRACKS) + (
    "SIM.tsv",
    "CLS.TSV",
    "submission",
    "metadata",
    "ingestion_status.json",
    "/res",
)
ABSOLUTE_ESCAPES = [Path("/tmp/escaped-absolute.txt")]
BATCH = Path(__file__).resolve().parent / "score_batch.py"


def _tree(folder: Path) -> dict:
    """Relative path -> bytes (or link target) of everything under ``folder``."""
    out = {}
    for path in sorted(folder.rglob("*")):
        if path.is_symlink():
            out[str(path.relative_to(folder))] = "-> " + os.readlink(path)
        elif path.is_file() and not path.is_fifo():
            out[str(path.relative_to(folder))] = path.read_bytes()
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """case name -> (case root, Outcome, the root's reference and outside trees before the run)."""
    base = tmp_path_factory.mktemp("hostile")
    before_absolute = {p: p.exists() for p in ABSOLUTE_ESCAPES}
    roots, guarded, jobs = [], [], []
    for index, case in enumerate(CASES):
        root = base / f"case{index:03d}"
        input_dir, output_dir = corpus.materialise(case, root)
        roots.append(root)
        guarded.append({"ref": _tree(input_dir / "ref"), "outside": _tree(root / "outside")})
        jobs.append((input_dir, output_dir, root / "work"))
    outcomes = run_in_batches(jobs, tmp_path_factory.mktemp("batches"), max(2, os.cpu_count() or 2))
    results = {
        case.name: (root, outcome, before)
        for case, root, outcome, before in zip(CASES, roots, outcomes, guarded)
    }
    yield base, results, before_absolute
    shutil.rmtree(base, ignore_errors=True)


def run_in_batches(jobs, folder: Path, batches: int) -> list:
    """``checks.run_program`` for each (input, output, work), the jobs shared among ``batches`` interpreters
    (tests/score_batch.py) rather than one interpreter each: a fresh process per case would cost the
    corpus 300 starts of Python and numpy. The tests below that score twice, or remove stale scores,
    start the real ``score.py`` in a process of its own."""
    size = -(-len(jobs) // batches)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "COV_"))}
    env.update(PYTHONDONTWRITEBYTECODE="1", PYTHONUNBUFFERED="1", LC_ALL="C.UTF-8")

    def run(k):
        jobs_file = folder / f"batch{k}.json"
        jobs_file.write_text(
            json.dumps([[str(p) for p in job] for job in jobs[k * size : (k + 1) * size]])
        )
        done = subprocess.run(
            [sys.executable, str(BATCH), str(jobs_file)],
            cwd=folder,
            env=env,
            capture_output=True,
            text=True,
            timeout=1800,
        )
        assert done.returncode == 0, done.stderr[-3000:]
        return json.loads(jobs_file.with_suffix(".out").read_text())

    with ThreadPoolExecutor(max_workers=batches) as pool:
        results = [result for chunk in pool.map(run, range(batches)) for result in chunk]
    assert len(results) == len(jobs)
    return [
        checks.collect(code, stdout, stderr, output_dir)
        for (code, stdout, stderr), (_, output_dir, _) in zip(results, jobs)
    ]


def test_corpus_is_large_distinct_and_covers_every_track():
    assert len(CASES) >= 200
    assert len(BY_NAME) == len(CASES), "case names are unique"
    assert len({case.fingerprint() for case in CASES}) == len(CASES), (
        "no two cases submit the same thing"
    )
    refused = Counter(case.group for case in CASES if case.exit_code != 0)
    for track in edition.TRACKS:
        assert refused[track["id"]] >= 20, f"track {track['id']} has too few malformed cases"
    assert sum(1 for case in CASES if case.exit_code == 0) >= 15
    assert all(case.pattern for case in CASES)


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_case(name, runs):
    case = BY_NAME[name]
    _, results, _ = runs
    root, outcome, _ = results[name]
    problems = checks.violations(outcome, KEYS, FILE_NAMES, case.exit_code)
    stream = outcome.stdout if case.exit_code == 0 else outcome.stderr
    if not re.search(case.pattern, stream):
        problems.append(f"message does not match {case.pattern!r}")
    assert not problems, (
        f"{name}: {problems}\n--- stdout:\n{outcome.stdout[:2000]}\n--- stderr:\n{outcome.stderr[:3000]}"
    )


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_no_gold_in_messages_or_page(name, runs):
    """Evaluation phase: neither the messages nor the detailed page show a gold value."""
    case = BY_NAME[name]
    _, results, _ = runs
    _, outcome, _ = results[name]
    shown = outcome.stderr + outcome.stdout + outcome.html
    leaked = [m for m in edition.gold_markers(strict=case.exit_code != 0) if m in shown]
    assert not leaked, f"{name} shows gold values {leaked}"


@pytest.mark.parametrize("name", sorted(n for n, c in BY_NAME.items() if c.hostile))
def test_hostile_text_is_escaped_in_html(name, runs):
    case = BY_NAME[name]
    _, results, _ = runs
    _, outcome, _ = results[name]
    page = outcome.html
    assert page, "a detailed results page is always written"
    for text in case.hostile:
        assert text not in page, f"raw {text!r} in the HTML"
    if case.exit_code != 0:
        assert any(html.escape(text) in page for text in case.hostile), (
            "the refusal is shown on the page"
        )


def test_nothing_written_outside_each_work_folder(runs):
    """Zip-slip, absolute paths and links leave everything outside the case's own folders untouched:
    no escape marker anywhere, reference data and the 'outside' folder unchanged, temp folders
    emptied, nothing written into the working directory."""
    base, results, before_absolute = runs
    markers = {name for case in CASES for name in case.escapes}
    assert len(markers) >= 6
    strays = [p for p in base.rglob("*") if p.name in markers]
    assert not strays, strays
    for path, existed in before_absolute.items():
        assert path.exists() == existed, f"{path} was created"
    for name, (root, _, guarded) in results.items():
        assert _tree(root / "input" / "ref") == guarded["ref"], f"{name} changed the reference data"
        assert _tree(root / "outside") == guarded["outside"], f"{name} changed a folder outside"
        work = root / "work"
        assert sorted(p.name for p in work.iterdir()) == ["tmp"], (
            f"{name} wrote into the working directory"
        )
        assert not list((work / "tmp").iterdir()), f"{name} left temporary files"


#: archive/zip_of_files is multi/all_tracks's files in a zip: on the evaluation phase it stands for both.
@pytest.mark.parametrize(
    "name,phase",
    [
        ("multi/all_tracks", "practice"),
        ("archive/zip_of_files", "evaluation"),
        ("multi/hostile_unclaimed_name", "practice"),
    ],
)
def test_scoring_twice_is_byte_identical(name, phase, tmp_path):
    """The same submission scored twice into the same output folder gives the same bytes (the
    practice phase shows gold-based plots and bootstrap intervals, so they are covered too): once
    by the program's ``main`` in this interpreter, once in a fresh one (another hash seed)."""
    input_dir, output_dir = corpus.materialise(BY_NAME[name], tmp_path, phase)
    first = checks.run_in_process(input_dir, output_dir)
    second = checks.run_program(input_dir, output_dir, tmp_path / "work")
    assert first.code == second.code == 0, first.stderr + second.stderr
    assert set(first.outputs) >= set(checks.OUTPUT_NAMES)
    for output in checks.OUTPUT_NAMES:
        assert first.outputs[output] == second.outputs[output], f"{output} differs between two runs"
    assert first.stdout == second.stdout


def test_a_failed_run_removes_scores_of_an_earlier_run(tmp_path):
    """A stale scores.json in the output folder never survives a refusal."""
    input_dir, output_dir = corpus.materialise(BY_NAME["sim/value_01_nan"], tmp_path)
    output_dir.mkdir()
    (output_dir / "scores.json").write_text('{"primary": 1.0}\n')
    (output_dir / "scores.txt").write_text("primary: 1.0\n")
    outcome = checks.run_program(input_dir, output_dir, tmp_path / "work")
    assert outcome.code == 2
    assert "scores.json" not in outcome.outputs and "scores.txt" not in outcome.outputs


def test_a_1gb_single_line_is_refused_without_loading_it(tmp_path, monkeypatch):
    """Even with the file-size limit lifted, a 1 GiB file without a newline is refused at line 1
    after reading about one line's budget (a sparse file: nothing is really stored)."""
    import tracemalloc

    from codajudge.errors import SubmissionError
    from codajudge.formats import textfile

    path = tmp_path / "sim.tsv"
    with open(path, "wb") as f:
        f.truncate(1024**3)
    monkeypatch.setattr(textfile, "MAX_FILE_BYTES", 2 * 1024**3)
    tracemalloc.start()
    try:
        with pytest.raises(SubmissionError, match=r"sim.tsv, line 1: line is too long"):
            textfile.read_texts(path, "sim.tsv", 10**6)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 * textfile.MAX_LINE_BYTES
