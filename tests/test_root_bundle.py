"""The repository root holds the default edition's generated bundle files (issue 2): they are up to
date with editions/default, the root passes the offline Codabench checker as a bundle layout, and a
sample submission's scores.json matches its leaderboard. The root is the source tree, not an
uploadable bundle (its programs carry no engine; issue 12, tests/test_platforms.py)."""

import filecmp
import subprocess
import sys
from pathlib import Path

import pytest


REPO = Path(__file__).resolve().parents[1]
CHECKER = REPO.parent / "shared" / "tools" / "codabench_check.py"


def checker(*args):
    if not CHECKER.is_file():
        pytest.skip(
            f"{CHECKER} not found: the checker lives in ../shared/tools beside the repository"
        )
    return subprocess.run(
        [sys.executable, str(CHECKER), "--strict", *map(str, args)], capture_output=True, text=True
    )


def test_root_files_are_generated_from_the_default_edition(bundles):
    """The root's generated files are those of the run's one default build: ``--sync-root`` writes
    them with the builder's ``write_tree``, as a build does (only the programs' engine copies, none
    of them at the root, differ), so the build stands for a second ``write_tree`` of its own (CI
    runs ``build_bundle.py --check-root`` as a step of its own as well)."""
    from codajudge.programs.build import ROOT_GENERATED, gitattributes_text

    tree = bundles.shipped("default", REPO / "editions" / "default").tree
    stale = []
    for name in ROOT_GENERATED:
        built, root = tree / name, REPO / name
        if built.is_dir():
            compared = filecmp.dircmp(built, root, ignore=["__pycache__"])
            stale += _dir_differences(compared, name)
        elif not (root.is_file() and filecmp.cmp(built, root, shallow=False)):
            stale.append(name)
    assert stale == [], "run: python3 build_bundle.py --sync-root"
    assert (REPO / ".gitattributes").read_text(encoding="utf-8") == gitattributes_text(tree)


def _dir_differences(compared: filecmp.dircmp, prefix: str) -> list:
    """Paths (under ``prefix``) in one folder only, or differing, at any depth."""
    names = compared.left_only + compared.right_only + compared.diff_files + compared.funny_files
    found = [f"{prefix}/{name}" for name in names]
    for name, below in compared.subdirs.items():
        found += _dir_differences(below, f"{prefix}/{name}")
    return found


def test_root_passes_the_checker_with_a_sample_submissions_scores(bundles):
    """The scores of test_runner's practice-phase run (made once for both: ``bundles.run``)."""
    _, output = bundles.run(REPO, "baseline:most_frequent", "practice")
    done = checker("--scores", output / "scores.json", REPO)
    assert done.returncode == 0, done.stdout[-3000:]
    assert "0 error(s), 0 runtime problem(s), 0 warning(s)" in done.stdout


def test_root_passes_the_kits_own_checker_but_for_its_programs_without_engine():
    """The root is a sound bundle layout; the checker names the one thing that makes it no
    uploadable bundle: its programs carry no engine."""
    from codajudge.bundle.check import check_bundle

    problems = check_bundle(REPO)
    assert [line.split(":")[1] for line in problems] == [
        " scoring program's score.py imports the codajudge engine, but the program has no "
        "codajudge folder beside it",
        " ingestion program's ingest.py imports the codajudge engine, but the program has no "
        "codajudge folder beside it",
    ]
