"""The official metrics as a library (issue 39, point 1): ``codajudge.metrics.lewidi``, ``sts``,
``nli``, ``chaosnli`` on plain lists, and ``codajudge.leaderboard.score_predictions``.

The LeWiDi expectations come from ``tests/lewidi_official.py`` (the official definitions written out
as plain Python over the release JSON), never from the kit.
"""

from __future__ import annotations

import doctest
import inspect
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import lewidi_official as official
from codajudge import leaderboard
from codajudge.errors import SubmissionError
from codajudge.metrics import chaosnli, lewidi, nli, sts
from codajudge.programs.run_local import run_once

REPO = Path(__file__).resolve().parents[1]
PARTICIPANT_MODULES = [lewidi, sts, nli, chaosnli, leaderboard]


def public_functions(module):
    return [
        function
        for name, function in inspect.getmembers(module, inspect.isfunction)
        if not name.startswith("_") and function.__module__ == module.__name__
    ]


@pytest.mark.parametrize("module", PARTICIPANT_MODULES, ids=lambda m: m.__name__)
def test_every_function_has_an_example_and_the_examples_run(module):
    functions = public_functions(module)
    assert functions
    without = [f.__name__ for f in functions if ">>> " not in (f.__doc__ or "")]
    assert not without, f"no example in the docstring of {without}"
    result = doctest.testmod(module, verbose=False)
    assert result.attempted >= len(functions) and result.failed == 0


def test_numpy_arrays_and_ragged_lists_score_as_plain_lists():
    gold = [[1, 0], [0, 0, 1]]
    assert lewidi.error_rate([np.array(g) for g in gold], [[1, 1], np.array([0, 0, 1])]) == 0.25
    soft = np.array([[0.5, 0.5], [1.0, 0.0]])
    assert lewidi.manhattan(soft, soft[::-1]) == lewidi.manhattan(
        soft.tolist(), [[1, 0], [0.5, 0.5]]
    )
    assert sts.pearson(np.arange(4.0), [0, 1, 2, 3]) == 1.0
    assert nli.accuracy(np.array([0, 1, 2]), [0, 1, 1]) == pytest.approx(2 / 3)


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: lewidi.error_rate([[1, 0], [0, 1, 1]], [[1, 0], [0, 1]]), "item 1: gold has 3"),
        (lambda: lewidi.manhattan([[0.5, 0.5]], [[0.5, 0.5], [1, 0]]), "gold has 1 items but"),
        (lambda: lewidi.manhattan([[0.5, 0.5]], [[0.2, 0.3, 0.5]]), "expected one distribution"),
        (lambda: lewidi.manhattan([[0.5, 0.5]], [["a", "b"]]), "predictions: expected numbers"),
        (lambda: lewidi.wasserstein([], []), "no items"),
        (lambda: lewidi.manhattan([0.5, 0.5], [1.0, 0.0]), "expected one distribution for every"),
        (
            lambda: lewidi.multilabel_manhattan([[0.5, 0.5]], [[0.5, 0.5]]),
            "expected one [not chosen, chosen] per label for every item",
        ),
        (lambda: sts.pearson([[1.0, 2.0]], [[1.0, 2.0]]), "expected one score for every item"),
        (lambda: lewidi.manhattan([[0.5, 0.5], [1.0]], [[0.5, 0.5], [1, 0]]), "all of one length"),
        (lambda: sts.pearson([1.0, float("nan")], [1.0, 2.0]), "gold: expected finite numbers"),
        (
            lambda: lewidi.multilabel_error_rate([[[1, 0], [0, 1], [0, 0]]], [[1, 0, 0, 1]]),
            "predictions, item 0: expected a 0/1 vector over the annotators per label",
        ),
    ],
)
def test_inputs_of_the_wrong_shape_are_refused_with_what_was_expected(call, words):
    with pytest.raises(ValueError, match=re.escape(words)):
        call()


def test_score_predictions_gives_the_runners_scores(tmp_path):
    """A predictions folder (the track files the local runner scored), a result zip of it, and the
    prediction output itself all score what the runner's scores.json holds."""
    runner = run_once(REPO, "baseline:most_frequent", "practice", output=tmp_path / "run")
    folder = tmp_path / "mine"
    folder.mkdir()
    for track_file in (tmp_path / "run" / "predictions").glob("*.tsv"):
        shutil.copyfile(track_file, folder / track_file.name)
    archive = shutil.make_archive(str(tmp_path / "mine"), "zip", folder)
    for predictions in (folder, archive, tmp_path / "run" / "predictions"):
        assert leaderboard.score_predictions(REPO, predictions, "practice") == runner


def test_score_predictions_refuses_a_file_as_the_scoring_program_does(tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "en_en.tsv").write_text("no such id\t1.0\n", encoding="utf-8")
    with pytest.raises(SubmissionError, match="en_en.tsv"):
        leaderboard.score_predictions(REPO, folder, "practice")


# --- the README's section ----------------------------------------------------------------------

README_SECTION = "### Using the official metrics in your own code"


def readme_examples():
    """The Python blocks of the README's section on the library, in order."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split(README_SECTION, 1)[1].split("\n## ", 1)[0].split("\n### ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, re.S)


def run_example(code: str, cwd: Path):
    """Run one block as a participant would (codajudge installed: here the checkout on the path)
    and pair each printed line with the value its ``print(...)  # value`` comment states."""
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO)},
    )
    assert done.returncode == 0, done.stderr
    stated = re.findall(r"^print\(.*\)  # (.*)$", code, re.M)
    assert stated and len(stated) == code.count("print(")
    return done.stdout.splitlines(), stated


def test_the_readme_metrics_example_runs_as_written_and_prints_what_it_says(tmp_path):
    printed, stated = run_example(readme_examples()[0], tmp_path)
    assert printed == stated


def test_the_readme_folder_example_runs_in_a_starting_kit_whose_readme_points_to_it(tmp_path):
    from codajudge.bundle.build import build
    from codajudge.bundle.edition import load_edition

    if not (REPO / "editions" / "default" / "data").is_dir():
        pytest.skip("editions/default/data is not there yet")
    tree = build(
        load_edition(REPO / "editions" / "default"), REPO / "editions" / "default", tmp_path
    ).tree
    printed, stated = run_example(readme_examples()[1], tree / "starting_kit")
    assert printed == stated
    kit_readme = (tree / "starting_kit" / "README.md").read_text(encoding="utf-8")
    assert f'"{README_SECTION[4:]}" in its README' in " ".join(kit_readme.split())


# --- the LeWiDi metrics against the official definitions ----------------------------------------

needs_lewidi = pytest.mark.skipif(
    not official.PRACTICE_ZIP.is_file(),
    reason="../shared/data/lewidi2025 not found: the release lives beside the repository",
)

#: dataset -> (soft-label function, perspectivist function), as the 2025 tasks scored them.
LIBRARY = {
    "CSC": (lewidi.wasserstein, lambda g, p: lewidi.normalized_absolute_distance(g, p, 6)),
    "MP": (lewidi.manhattan, lewidi.error_rate),
    "Paraphrase": (lewidi.wasserstein, lambda g, p: lewidi.normalized_absolute_distance(g, p, 11)),
    "VariErrNLI": (lewidi.multilabel_manhattan, lewidi.multilabel_error_rate),
}


@needs_lewidi
@pytest.mark.parametrize("dataset", sorted(LIBRARY))
def test_the_library_gives_the_official_values_of_the_starter_kit_baseline(dataset):
    """The 2025 starter kit's most-frequent baseline on dev, in the official layouts (plain nested
    lists, ragged rows of each item's own annotators), scores the official values exactly."""
    train, dev = official.load(dataset, "train"), official.load(dataset, "dev")
    soft = official.baseline_soft(train, dataset)
    per, fallback = official.baseline_pe(train, dataset)
    gold_soft = [official.soft_gold(r, dataset) for r in dev.values()]
    gold_pe = [official.pe_gold(r, dataset) for r in dev.values()]
    pred_pe = [official.pe_row(r, dataset, per, fallback) for r in dev.values()]
    soft_metric, pe_metric = LIBRARY[dataset]
    assert soft_metric(gold_soft, [soft] * len(dev)) == official.soft_score(
        gold_soft, [soft] * len(dev), dataset
    )
    assert pe_metric(gold_pe, pred_pe) == pytest.approx(
        official.pe_score(gold_pe, pred_pe, dataset), abs=1e-15
    )


# --- the wheel, installed in a fresh virtual environment ------------------------------------------

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
@needs_lewidi
def test_the_wheel_in_a_fresh_venv_reproduces_the_local_runner_on_the_lewidi_practice_files(
    built_dist, tmp_path
):
    """The runner scores the kit's most-frequent baseline on the LeWiDi 2025 practice phase; in a
    fresh environment with the wheel (and numpy, scipy, pyyaml only), the library's functions on
    plain lists and score_predictions on the prediction files give the same numbers."""
    from codajudge.bundle.build import build
    from codajudge.bundle.edition import load_edition

    built = build(
        load_edition(REPO / "editions" / "lewidi2025"), official.RELEASE.parent, tmp_path / "b"
    )
    bundle, output = built.zip_path, tmp_path / "run"
    runner = run_once(built.tree, "baseline:most_frequent", "practice", output=output)
    predictions = tmp_path / "predictions"
    predictions.mkdir()
    for track_file in (output / "predictions").glob("*.tsv"):
        shutil.copyfile(track_file, predictions / track_file.name)

    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", str(venv)])
    python = venv / "bin" / "python"
    # nothing of this environment's Python path reaches the fresh one (pip's own settings do)
    fresh = {key: value for key, value in os.environ.items() if not key.startswith("PYTHON")}
    _run([str(python), "-m", "pip", "install", "--quiet", str(built_dist[1])], env=fresh)
    installed = _run([str(python), "-m", "pip", "list", "--format=freeze"], env=fresh)
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
