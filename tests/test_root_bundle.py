"""The repository root holds the default edition's generated bundle files (issue 2): they are up to
date with editions/default, the root passes the offline Codabench checker as a bundle layout, and a
sample submission's scores.json matches its leaderboard. The root is the source tree, not an
uploadable bundle (its programs carry no engine; issue 12, tests/test_platforms.py)."""

import subprocess
import sys
from pathlib import Path

import pytest

from codajudge.programs import run_local

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


def test_root_files_are_generated_from_the_default_edition():
    done = subprocess.run(
        [sys.executable, str(REPO / "build_bundle.py"), "--check-root"],
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    assert done.returncode == 0, done.stderr


def test_root_passes_the_checker_with_a_sample_submissions_scores(tmp_path):
    run_local.run_once(REPO, "baseline:cosine_bow", "practice", output=tmp_path)
    done = checker("--scores", tmp_path / "scores.json", REPO)
    assert done.returncode == 0, done.stdout[-3000:]
    assert "0 error(s), 0 runtime problem(s), 0 warning(s)" in done.stdout


def test_root_passes_the_kits_own_checker():
    from codajudge.bundle.check import check_bundle

    assert check_bundle(REPO) == []
