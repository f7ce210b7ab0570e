"""Issue 6: hostile and broken submissions. Every corpus case is scored as the platform does it --
``python3 scoring_program/score.py INPUT OUTPUT`` in a fresh process, cases in parallel -- and must
exit with the expected code and message, without a traceback, a partial scores.json, a gold value in
a message, unescaped hostile text in the HTML, or a file written outside its own folder.

The cases and their expected messages are in tests/hostile/corpus.py (``python3 tests/hostile/corpus.py``
prints the counts).
"""

from __future__ import annotations

import html
import os
import re
import shutil
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from hostile import checks, corpus, edition
from judgekit.spec import spec_from_dict
from judgekit.tracks import leaderboard_keys

CASES = corpus.cases()
BY_NAME = {case.name: case for case in CASES}
KEYS = leaderboard_keys(spec_from_dict(edition.spec(), "task.json").tracks)
#: Where a refusal may point: a track file, the archive, the platform's files, the submission as a whole.
FILE_NAMES = tuple(f"{t['id']}.tsv" for t in edition.TRACKS) + (
    "SIM.tsv", "CLS.TSV", "submission", "metadata", "ingestion_status.json", "/res")
ABSOLUTE_ESCAPES = [Path("/tmp/escaped-absolute.txt")]


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

    def run(indexed):
        index, case = indexed
        root = base / f"case{index:03d}"
        input_dir, output_dir = corpus.materialise(case, root)
        guarded = {"ref": _tree(input_dir / "ref"), "outside": _tree(root / "outside")}
        outcome = checks.run_program(input_dir, output_dir, root / "work")
        return case.name, (root, outcome, guarded)

    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        results = dict(pool.map(run, enumerate(CASES)))
    yield base, results, before_absolute
    shutil.rmtree(base, ignore_errors=True)


def test_corpus_is_large_distinct_and_covers_every_track():
    assert len(CASES) >= 200
    assert len(BY_NAME) == len(CASES), "case names are unique"
    assert len({case.fingerprint() for case in CASES}) == len(CASES), "no two cases submit the same thing"
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
    assert not problems, f"{name}: {problems}\n--- stdout:\n{outcome.stdout[:2000]}\n--- stderr:\n{outcome.stderr[:3000]}"


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
        assert any(html.escape(text) in page for text in case.hostile), "the refusal is shown on the page"


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
        assert sorted(p.name for p in work.iterdir()) == ["tmp"], f"{name} wrote into the working directory"
        assert not list((work / "tmp").iterdir()), f"{name} left temporary files"


@pytest.mark.parametrize("name,phase", [("multi/all_tracks", "evaluation"), ("multi/all_tracks", "practice"),
                                        ("archive/zip_of_files", "evaluation"),
                                        ("multi/hostile_unclaimed_name", "practice")])
def test_scoring_twice_is_byte_identical(name, phase, tmp_path):
    """The same submission scored twice into the same output folder gives the same bytes (the
    practice phase shows gold-based plots and bootstrap intervals, so they are covered too)."""
    input_dir, output_dir = corpus.materialise(BY_NAME[name], tmp_path, phase)
    first = checks.run_program(input_dir, output_dir, tmp_path / "work")
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

    from judgekit.errors import SubmissionError
    from judgekit.formats import textfile

    path = tmp_path / "sim.tsv"
    with open(path, "wb") as f:
        f.truncate(1024 ** 3)
    monkeypatch.setattr(textfile, "MAX_FILE_BYTES", 2 * 1024 ** 3)
    tracemalloc.start()
    try:
        with pytest.raises(SubmissionError, match=r"sim.tsv, line 1: line is too long"):
            textfile.read_texts(path, "sim.tsv")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 * textfile.MAX_LINE_BYTES
