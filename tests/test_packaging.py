"""Packaging (issue 39, point 1): ``python -m build`` gives an sdist and a wheel that ``twine check``
passes, and the wheel, installed in a fresh virtual environment with numpy, scipy and pyyaml only,
reproduces the local runner's scores on the LeWiDi 2025 practice phase with its metrics library.

Not a ``test_metrics*`` module: CI reruns those in the platform image's environment, which has no
build or twine.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import lewidi_official as official

REPO = Path(__file__).resolve().parents[1]
needs_lewidi = pytest.mark.skipif(
    not official.PRACTICE_ZIP.is_file(),
    reason="../shared/data/lewidi2025 not found: the release lives beside the repository",
)

#: Run by the fresh environment's Python (codajudge from the wheel, nothing of the repository on
#: its path but ``tests/lewidi_official.py``): each track's score by the library from plain lists
#: (the release's gold, the prediction files' rows), and the folder's scores by score_predictions.
IN_THE_FRESH_VENV = """
import json, sys
from pathlib import Path

import codajudge
import lewidi_official as official
from codajudge.leaderboard import score_predictions
from codajudge.metrics import lewidi

bundle, predictions = sys.argv[1], Path(sys.argv[2])
TRACKS = {
    "csc_soft_awd": ("CSC", lewidi.wasserstein),
    "csc_pe_anad": ("CSC", lambda g, p: lewidi.normalized_absolute_distance(g, p, n_values=6)),
    "mp_soft_amd": ("MP", lewidi.manhattan),
    "mp_pe_error_rate": ("MP", lewidi.error_rate),
    "par_soft_awd": ("Paraphrase", lewidi.wasserstein),
    "par_pe_anad": ("Paraphrase", lambda g, p: lewidi.normalized_absolute_distance(g, p, 11)),
    "ven_soft_mamd": ("VariErrNLI", lewidi.multilabel_manhattan),
    "ven_pe_mer": ("VariErrNLI", lewidi.multilabel_error_rate),
}


def rows(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    return dict((i, json.loads(v)) for i, v in (line.split("\\t") for line in lines))


def first_entries(row, gold):
    # the 2025 scorer paired a row with the item's annotators by zip(): a longer row's first entries
    if gold and isinstance(gold[0], list):
        return [vector[: len(g)] for vector, g in zip(row, gold)]
    return row[: len(gold)]


scores = {}
for key, (dataset, metric) in TRACKS.items():
    track = key.split("_")[0] + ("_soft" if "_soft_" in key else "_pe")
    predicted = rows(predictions / f"{track}.tsv")
    records = official.load(dataset, "dev")
    if "_soft_" in key:
        gold = [official.soft_gold(r, dataset) for r in records.values()]
        pred = [predicted[i] for i in records]
    else:
        gold = [official.pe_gold(r, dataset) for r in records.values()]
        pred = [first_entries(predicted[i], g) for i, g in zip(records, gold)]
    scores[key] = metric(gold, pred)
print(json.dumps({
    "installed_at": codajudge.__file__,
    "library": scores,
    "score_predictions": score_predictions(bundle, predictions, "practice"),
}))
"""


@pytest.fixture(scope="module")
def built_dist(tmp_path_factory):
    """(the sdist, the wheel) that ``python -m build`` makes of this working tree (a copy of it:
    the build writes its own folders into the source)."""
    for tool in ("build", "twine"):
        if not _importable(tool):
            pytest.fail(f"{tool} is a development requirement: pip install -r requirements-dev.txt")
    work = tmp_path_factory.mktemp("dist")
    source = work / "source"
    shutil.copytree(
        REPO,
        source,
        ignore=shutil.ignore_patterns(
            ".git", ".venv*", "dist", "build", "*.egg-info", "__pycache__", ".pytest_cache"
        ),
    )
    _run([sys.executable, "-m", "build", "--outdir", str(work / "out"), str(source)])
    sdists, wheels = sorted((work / "out").glob("*.tar.gz")), sorted((work / "out").glob("*.whl"))
    assert len(sdists) == 1 and len(wheels) == 1, sorted((work / "out").iterdir())
    return sdists[0], wheels[0]


def _importable(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None


def _run(command, **kw) -> str:
    done = subprocess.run(command, capture_output=True, text=True, **kw)
    assert done.returncode == 0, (
        f"{command[:4]} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    )
    return done.stdout


@pytest.mark.slow
def test_python_m_build_gives_an_sdist_and_a_wheel_that_twine_check_passes(built_dist):
    output = _run([sys.executable, "-m", "twine", "check", "--strict", *map(str, built_dist)])
    assert output.count("PASSED") == 2, output


@pytest.mark.slow
def test_the_wheel_and_the_sdist_carry_the_page_templates(built_dist):
    """The builder reads the pages' words from codajudge/templates/ (package data)."""
    import tarfile
    import zipfile

    folder = REPO / "codajudge" / "templates"
    templates = sorted(p.relative_to(REPO).as_posix() for p in folder.rglob("*.md"))
    assert "codajudge/templates/evaluation.md" in templates
    sdist, wheel = built_dist
    with zipfile.ZipFile(wheel) as archive:
        in_wheel = set(archive.namelist())
    with tarfile.open(sdist) as archive:
        in_sdist = {member.name.split("/", 1)[-1] for member in archive.getmembers()}
    assert [name for name in templates if name not in in_wheel] == []
    assert [name for name in templates if name not in in_sdist] == []


@pytest.mark.slow
@needs_lewidi
def test_the_wheel_in_a_fresh_venv_reproduces_the_local_runner_on_the_lewidi_practice_files(
    built_dist, bundles, tmp_path
):
    """The runner scores the kit's most-frequent baseline on the LeWiDi 2025 practice phase; in a
    fresh environment with the wheel (and numpy, scipy, pyyaml only), the library's functions on
    plain lists and score_predictions on the prediction files give the same numbers."""
    built = bundles.shipped("lewidi2025", official.RELEASE.parent)
    # the run test_editions checks against the starter kit's numbers, made once for both
    runner, output = bundles.run(built.tree, "baseline:most_frequent", "practice")
    bundle = built.zip_path
    predictions = tmp_path / "predictions"
    predictions.mkdir()
    for track_file in (output / "predictions").glob("*.tsv"):
        shutil.copyfile(track_file, predictions / track_file.name)

    venv = tmp_path / "venv"
    # without pip of its own (installing pip is most of a venv's making): this environment's pip
    # installs into it and lists it (--python)
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    python = venv / "bin" / "python"
    pip = [sys.executable, "-m", "pip", "--python", str(python)]
    # nothing of this environment's Python path reaches the fresh one (pip's own settings do)
    fresh = {key: value for key, value in os.environ.items() if not key.startswith("PYTHON")}
    # --no-compile: byte-compiling all of scipy is most of the install's CPU time, and the check
    # below imports only what it uses
    _run([*pip, "install", "--quiet", "--no-compile", str(built_dist[1])], env=fresh)
    installed = _run([*pip, "list", "--format=freeze"], env=fresh)
    assert {line.split("==")[0].lower() for line in installed.split()} <= {
        "codajudge",
        "numpy",
        "scipy",
        "pyyaml",
        "pip",
        "setuptools",
    }, installed
    (tmp_path / "check.py").write_text(IN_THE_FRESH_VENV, encoding="utf-8")
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO / "tests")}
    found = json.loads(
        _run(
            [str(python), str(tmp_path / "check.py"), str(bundle), str(predictions)],
            env=env,
            cwd=tmp_path,
        )
    )
    assert Path(found["installed_at"]).is_relative_to(venv)
    assert found["score_predictions"] == runner
    printed = {key: f"{value:.4f}" for key, value in runner.items() if key != "primary"}
    assert {key: f"{value:.4f}" for key, value in found["library"].items()} == printed
    for key, value in found["library"].items():
        assert value == pytest.approx(runner[key], abs=1e-15), key
