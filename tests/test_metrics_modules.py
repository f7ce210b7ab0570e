"""A metric is one module: the kit's own (one file in ``codajudge/metrics/``) and an edition's own
(``metrics_module: metrics.py`` in its folder), registered with the same ``register(Metric(...))``.

The edition module of these tests is the README's worked example (a mean absolute error on the
similarity track), the main metric of a track that is not primary.
"""

import dataclasses
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest
import yaml

from codajudge.errors import ConfigError
from codajudge.metrics import REGISTRY, Metric
from codajudge.metrics.base import HIGHER, LOWER, MEAN, mean_from_sums
from codajudge.metrics.edition_module import LOADED, load_source, property_problems
from codajudge.stats.metric_checks import statistics_problems

from small_edition import REPO, make_edition


def readme_example() -> str:
    """The Python block of the README's section on an edition's own metric."""
    section = (REPO / "README.md").read_text().split("### An edition's own metric")[1]
    return section.split("```python\n")[1].split("```")[0]


MAE_MODULE = readme_example()
assert 'name="mae"' in MAE_MODULE


@pytest.fixture(autouse=True)
def kit_metrics_only():
    """Each test leaves the registry as it found it: the kit's metrics alone (the other tests of
    the process see no edition's metric)."""
    registry, loaded = dict(REGISTRY), dict(LOADED)
    yield
    REGISTRY.clear()
    REGISTRY.update(registry)
    LOADED.clear()
    LOADED.update(loaded)


def mae_module(name: str) -> str:
    """The module registering the metric as ``name`` (each test its own: one registry a process)."""
    return MAE_MODULE.replace('name="mae"', f"name={name!r}")


def edition_naming(folder: Path, metric: str, module: str = "") -> Path:
    """The small edition, its similarity track scored by ``metric`` first and not primary, with
    ``module`` as its ``metrics_module`` (metrics.py) when given."""
    make_edition(folder)
    config = yaml.safe_load((folder / "edition.yaml").read_text())
    config["tracks"][0].update(metrics=[metric, "pearson"], primary=False)
    if module:
        (folder / "metrics.py").write_text(module)
        config["metrics_module"] = "metrics.py"
    (folder / "edition.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    return folder


def run(*args, cwd: Path = REPO) -> subprocess.CompletedProcess:
    done = subprocess.run(
        [sys.executable, *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def zero_submission(reference: Path, target: Path) -> float:
    """A result zip predicting 0 for every similarity item of ``reference``; returns the mean
    absolute error it must score, computed from the gold file alone."""
    items = [json.loads(line) for line in (reference / "sim.jsonl").read_text().splitlines()]
    with zipfile.ZipFile(target, "w") as archive:
        archive.writestr("sim.tsv", "".join(f"{item['id']}\t0\n" for item in items))
    return float(np.mean([item["score"] for item in items]))


def test_an_edition_with_its_own_metrics_module_builds_scores_and_ranks(tmp_path):
    from codajudge.bundle.build import build
    from codajudge.bundle.edition import load_edition
    from codajudge.programs.rank import main as rank

    # built in this process, as the builder's refusals below are: the scoring program and the
    # spawned ranking that follow start fresh, where the registry holds the kit's metrics alone
    folder = edition_naming(tmp_path / "edition", "own_mae", mae_module("own_mae"))
    build(load_edition(folder), folder, tmp_path / "dist")
    bundle = tmp_path / "dist" / "small"
    assert "title: sim Mean absolute error" in (bundle / "competition.yaml").read_text()
    evaluation = (bundle / "pages" / "evaluation.md").read_text()
    assert "| Mean absolute error (`own_mae`) | lower is better | 0 to 5 |" in evaluation
    assert "| sim Mean absolute error |" in (bundle / "pages" / "baselines.md").read_text()
    # a metric that depends on the predictions' scale: they are asked on the gold's, not any scale
    scale = "a number (on the gold's scale, 0-5, which Mean absolute error depends on)"
    assert f"**similarity**: {scale}." in (bundle / "pages" / "data.md").read_text()
    # the kit's README describes each kind by the Data page's own words
    assert f"**similarity**: {scale}." in (bundle / "starting_kit" / "README.md").read_text()

    # the scoring program (run_local of the starting kit) and `codajudge rank` with spawned workers,
    # in fresh processes: each registers the metric from the phase's task.json
    kit = bundle / "starting_kit"
    ref = kit / "reference_data" / "practice"
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    expected = zero_submission(ref, submissions / "zeros.zip")
    shutil.copy(kit / "sample_submissions" / "result_submission.zip", submissions / "sample.zip")
    scored = run(
        "run_local.py",
        ".",
        submissions / "zeros.zip",
        "--phase",
        "practice",
        "--output",
        "out",
        cwd=kit,
    )
    assert "sim Mean absolute error" in scored.stdout
    scores = json.loads((kit / "out" / "scores.json").read_text())
    assert scores["sim_own_mae"] == pytest.approx(expected, abs=1e-9)
    # the ranking of this process, which the fresh one's must equal
    assert (
        rank([str(submissions), str(ref), "--out", str(tmp_path / "rank"), "--resamples", "20"])
        == 0
    )
    ranking = (tmp_path / "rank" / "ranking.md").read_text()
    assert "Mean absolute error" in ranking and "lower is better" in ranking
    # workers started by spawn (macOS, Windows; forkserver on Linux from Python 3.14) have not run
    # the edition's module, nor has their parent: they register it before reading what it sends them
    spawned = (
        "import multiprocessing, sys; multiprocessing.set_start_method('spawn');"
        "from codajudge.programs.rank import main; sys.exit(main(sys.argv[1:]))"
    )
    out = tmp_path / "rank-spawn"
    run("-c", spawned, submissions, ref, "--out", out, "--resamples", "20", "--jobs", "2")
    spawned_ranking = (out / "ranking.md").read_text().replace(str(out), str(tmp_path / "rank"))
    assert spawned_ranking == ranking


def test_similarity_predictions_take_any_scale_only_where_every_metric_ignores_it(tmp_path):
    from codajudge.bundle.edition import load_edition
    from codajudge.bundle.pages import data_page

    assert [m.name for m in REGISTRY.values() if m.scale_free] == ["pearson", "spearman"]
    folder = edition_naming(tmp_path / "edition", "spearman")
    assert "a number (any scale: the scores do not depend on it)" in data_page(load_edition(folder))
    folder = edition_naming(tmp_path / "own", "scaled", mae_module("scaled"))
    assert "0-5, which Mean absolute error depends on)" in data_page(load_edition(folder))


def test_a_new_kit_metric_is_one_module_in_a_copy_of_the_package(tmp_path):
    """The module dropped into ``codajudge/metrics/`` of a copy of the kit, nothing else changed: an
    edition naming it builds, and its title reaches the pages and the leaderboard; once the docs
    are regenerated (``codajudge schema --write-docs``, docs/architecture.md's worked example),
    the registry's and the schema's tests pass on the copy, the new metric among theirs."""
    kit = tmp_path / "kit"
    kept = ("codajudge", "scoring_program", "ingestion_program", "starting_kit", "editions")
    for name in (*kept, "tests", "docs", "pages"):
        shutil.copytree(REPO / name, kit / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("build_bundle.py", "pytest.ini", "README.md"):
        shutil.copy(REPO / name, kit)
    (kit / "codajudge" / "metrics" / "mae.py").write_text(mae_module("mae"))
    folder = edition_naming(tmp_path / "edition", "mae")
    run("build_bundle.py", "--edition", folder, "--out", tmp_path / "dist", cwd=kit)
    bundle = tmp_path / "dist" / "small"
    assert "title: sim Mean absolute error" in (bundle / "competition.yaml").read_text()
    assert "(`mae`) | lower is better" in (bundle / "pages" / "evaluation.md").read_text()
    assert "mae" not in REGISTRY  # the repository's own package is untouched
    run("-m", "codajudge", "schema", "--write-docs", cwd=kit)
    assert "`mae` (Mean absolute error)" in (kit / "docs" / "edition-config.md").read_text()
    registry_tests = ("tests/test_metrics_registry.py", "tests/test_edition_schema.py")
    done = run("-m", "pytest", "-q", "-p", "no:cacheprovider", *registry_tests, cwd=kit)
    assert "[mae]" in run("-m", "pytest", "-q", "--collect-only", registry_tests[0], cwd=kit).stdout
    assert " passed" in done.stdout and "failed" not in done.stdout


@pytest.mark.parametrize(
    "source, message",
    [
        ("import numpy as np\n\nx = 1 +\n", "line 3: invalid syntax. Correct the Python there"),
        ("import numpy\n", "registers no metric"),
        (
            "from mylib import EPS\n",
            "line 1: ModuleNotFoundError: No module named 'mylib'. The module must be one "
            "self-contained file: only its text is shipped",
        ),
        ("raise ValueError('no such scale')\n", "line 1: ValueError: no such scale"),
        (mae_module("x1").replace('applies_to=(("similarity", None),),', ""), "applies to no kind"),
        (mae_module("x2").replace("prediction and gold", "|p - g|"), "without '|'"),
        (mae_module("x3").replace("direction=LOWER", "direction='lowest'"), "unknown direction"),
        (
            mae_module("accuracy"),
            "'accuracy' is already a kit metric: a new one needs its own name",
        ),
        (
            mae_module("x4") * 2,
            "metric 'x4' is already registered by editions/x/metrics.py: a new one needs its own name",
        ),
    ],
)
def test_a_module_that_registers_no_sound_metric_is_refused_naming_its_file_and_line(
    source, message
):
    with pytest.raises(ConfigError) as refused:
        load_source(source, "editions/x/metrics.py")
    text = refused.value.render()
    assert "editions/x/metrics.py" in text and message in text, text
    assert "Traceback" not in text and "must not fail on any valid prediction" not in text


def test_undefined_note_is_refused_where_0_would_be_the_best_or_worst_score_and_kept_inside():
    """0.0 reports an undefined score: on a loss's [0, 5] it is the best score (a constant
    submission would win), on [0, 5] higher-is-better the worst, on [-5, 5] neither."""
    note = 'undefined_note="undefined for a constant prediction",\n        applies_to'
    best = mae_module("u1").replace("applies_to", note, 1)
    worst = mae_module("u2").replace("applies_to", note, 1).replace("=LOWER", "='higher'")
    for source, told in ((best, "lower is better) ... the best end"), (worst, "the worst end")):
        with pytest.raises(ConfigError) as refused:
            load_source(source, "editions/x/metrics.py")
        text = refused.value.render()
        assert "editions/x/metrics.py: metric 'u" in text and "declares undefined_note" in text
        assert told.split(" ... ")[-1] in text and "found range [0, 5]" in text, text
        assert "guard the values the metric takes" in text
    inside = mae_module("u3").replace("applies_to", note, 1).replace("lower=0.0", "lower=-5.0")
    assert load_source(inside, "editions/x/metrics.py") == ("u3",)


def test_a_description_with_a_bar_is_refused_quoting_it_with_the_fix():
    source = mae_module("bar").replace("-> 0.5.", "-> 0.5 | see the paper.")
    with pytest.raises(ConfigError) as refused:
        load_source(source, "editions/x/metrics.py")
    text = refused.value.render()
    assert "editions/x/metrics.py: metric 'bar': its description is a cell" in text, text
    assert "found 1 '|' in '...e: gold [1, 3], predicted [2, 3] -> 0.5 | see the paper.'" in text, (
        text
    )
    assert "Remove each '|' or write it otherwise" in text


def test_an_own_metric_naming_a_track_it_does_not_apply_to_says_both_and_how_to_change_it(
    tmp_path,
):
    from codajudge.bundle.edition import load_edition

    module = mae_module("cls_mae").replace('("similarity", None)', '("classification", None)')
    folder = edition_naming(tmp_path / "ed", "cls_mae", module)
    with pytest.raises(ConfigError) as refused:
        load_edition(folder)
    text = refused.value.render()
    assert (
        "metric 'cls_mae' does not apply to this track, of (kind, scale) ('similarity', None); "
        "expected " in text
    ), text
    assert "found 'cls_mae', which applies to ('classification', None)." in text, text
    assert f"add ('similarity', None) to applies_to in the registration in {folder}" in text


def test_a_metrics_module_that_is_not_utf8_is_refused_naming_its_line_and_byte(tmp_path):
    from codajudge.bundle.edition import load_edition

    folder = edition_naming(tmp_path / "ed", "pearson", "# caf\xe9\n")
    (folder / "metrics.py").write_bytes("# metrics\n# caf\xe9\n".encode("latin-1"))
    with pytest.raises(ConfigError) as refused:
        load_edition(folder)
    text = refused.value.render()
    assert "metrics.py" in text and "not UTF-8" in text and "line 2" in text and "0xe9" in text


def test_a_metrics_module_not_there_is_refused_with_the_path_tried_and_the_closest_file(tmp_path):
    from codajudge.bundle.edition import load_edition

    folder = edition_naming(tmp_path / "ed", "own_mae", mae_module("own_mae"))
    config = (folder / "edition.yaml").read_text()
    (folder / "edition.yaml").write_text(config.replace("metrics.py", "metric.py"))
    with pytest.raises(ConfigError) as refused:
        load_edition(folder)
    assert refused.value.render() == (
        f"{folder / 'edition.yaml'}: 'metrics_module' file not found; expected a Python file of "
        f"the edition folder at {folder / 'metric.py'}, found no such file. Did you mean "
        "'metrics.py'?"
    )
    (folder / "metrics.py").rename(folder / "scoring.txt")  # no Python file near its name
    with pytest.raises(ConfigError) as refused:
        load_edition(folder)
    assert "found no such file. Correct the path or add the file there" in refused.value.render()


def test_loading_the_same_module_twice_registers_its_metric_once():
    source = mae_module("twice_mae")
    assert load_source(source, "a/metrics.py") == ("twice_mae",)
    assert load_source(source, "b/metrics.py") == ("twice_mae",)


def _metric(item_stats, from_stats=mean_from_sums, upper=1.0, **kw) -> Metric:
    return Metric(
        name="probe",
        title="Probe",
        direction=kw.pop("direction", HIGHER),
        lower=0.0,
        upper=upper,
        item_stats=item_stats,
        from_stats=from_stats,
        description="a metric probed by the builder's property check",
        applies_to=(("similarity", None),),
        **kw,
    )


GOLD = np.array([0.0, 1.0, 2.5, 4.0, 5.0])


def test_the_property_check_passes_the_kit_metrics_and_the_worked_example():
    for name in ("pearson", "spearman"):
        assert property_problems(REGISTRY[name], GOLD, 0) == []
    assert property_problems(REGISTRY["accuracy"], np.array([0, 1, 2, 1]), 3) == []
    namespace = {}
    exec(MAE_MODULE.split("register(")[0], namespace)
    mae = _metric(namespace["absolute_errors"], upper=5.0, direction=LOWER)
    assert property_problems(mae, GOLD, 0) == []


def test_the_property_check_names_each_broken_property():
    def errors(gold, pred):
        return np.abs(pred - gold)[:, None]

    (outside,) = property_problems(_metric(errors, upper=0.5, direction=LOWER), GOLD, 0)
    assert outside == (
        "a prediction scores outside the metric's range; expected every score within [0, 0.5], "
        "found 2. Widen the range its registration declares (lower, upper), or correct the function"
    )

    def first_item_only(gold, pred):
        return np.abs(pred - gold)[:, None] * (np.arange(len(gold)) == 0)[:, None]

    (order,) = property_problems(_metric(first_item_only, upper=5.0, direction=LOWER), GOLD, 0)
    assert "reversing the items changes the score" in order
    (columns,) = property_problems(_metric(lambda g, p: np.zeros((len(g), 2))), GOLD, 0)
    assert "stats_form MEAN needs one column" in columns
    assert "declare stats_form=MOMENTS" in columns
    (rows,) = property_problems(_metric(lambda g, p: np.zeros((1, 1))), GOLD, 0)
    assert "not one row per item" in rows
    (endless,) = property_problems(_metric(errors, upper=np.inf), GOLD, 0)
    assert "its range [0, inf] is not a finite interval" in endless

    def first_row(sums, n):
        return np.atleast_2d(sums)[0, 0] / n

    (stacked,) = property_problems(_metric(errors, first_row, upper=5.0, stats_form=MEAN), GOLD, 0)
    assert "from_stats on stacked sums" in stacked


#: Ten items, as a small track: the exact permutation test's arrangements tell scales apart.
TEN_ITEMS = np.array([4.6, 1.2, 4.6, 0.0, 3.2, 2.0, 0.8, 3.8, 5.0, 2.4])


def test_a_scale_free_metric_whose_exact_test_mixes_scales_is_refused_with_the_fix():
    """Pearson r swapping predictions scaled by their own largest value (its swap_stats dropped):
    the exact test's p changes when one system is scaled and shifted, and ``scale_free`` says it
    may not."""
    pearson = REGISTRY["pearson"]
    assert statistics_problems(pearson, TEN_ITEMS) == []
    (mixed,) = statistics_problems(dataclasses.replace(pearson, swap_stats=None), TEN_ITEMS)
    assert "scale_free, but its exact permutation test changes" in mixed
    assert "Register swap_stats(stats)" in mixed


@pytest.mark.parametrize(
    "name, change, message",
    [
        (
            "narrow_mae",
            ("upper=5.0", "upper=0.01"),
            "edition/metrics.py: metric 'narrow_mae' on track 'sim': a prediction scores outside "
            "the metric's range; expected every score within [0, 0.01], found ",
        ),
        # the gold's own score outside the range (refused as it is scored, as a participant's
        # would be): the range is wrong, not on_gold missing
        (
            "low_mae",
            ("lower=0.0", "lower=0.5"),
            "metric 'low_mae' on track 'sim' scores outside the metric's range; "
            "expected every score within [0.5, 5], found 0. Widen the range",
        ),
        (
            "failing_mae",
            ("clipped = ", "clipped = 1 / 0 + "),
            "metrics.py: line 10: metric 'failing_mae' on track 'sim' raises ZeroDivisionError",
        ),
        ("flat_mae", ("[:, None]", ""), "item_stats gives no table of per-item statistics"),
        (
            "higher_mae",
            ("direction=LOWER", "direction='higher'"),
            "phase 'practice': gold scored against itself is not perfect on track 'sim'; expected "
            "higher_mae = 5, found 0. The gold scores the worst end of the range: is higher_mae's "
            "direction LOWER? (",
        ),
        # the gold's best value is not the range's end, and no on_gold says so
        (
            "offset_mae",
            ("np.abs(clipped", "0.5 + np.abs(clipped"),
            "metrics.py registers offset_mae without on_gold: where the gold's best value is not "
            "the range's end, declare on_gold (and on_gold_tolerance) as the README's",
        ),
        # an on_gold that is not what the metric gives the gold: on_gold itself named
        (
            "wrong_on_gold",
            ("from_stats=mean_from_sums,", "from_stats=mean_from_sums, on_gold=lambda gold: 0.25,"),
            "metrics.py registers wrong_on_gold's on_gold, whose value for this gold is not what "
            "the metric scores it (0): correct on_gold",
        ),
        # a wrong direction that on_gold hides from the gold's own check: a prediction other
        # than the gold (each item its neighbour's gold) must not score better than the gold
        (
            "flipped_mae",
            ("direction=LOWER,", "direction='higher', on_gold=lambda gold: 0.0,"),
            "metrics.py: metric 'flipped_mae' on track 'sim': each item predicted as its "
            "neighbour's gold scores better than the gold itself where higher is better: direction "
            "is probably the other way; expected the gold's score, 0, at least as good as any other "
            "prediction's, found ",
        ),
        # NaN on a negative prediction, which a similarity track accepts: not its best value, 0.0
        (
            "sqrt_mae",
            ("np.clip(np.asarray(pred, dtype=float), 0.0, 5.0)", "np.sqrt(pred) ** 2"),
            "metric 'sqrt_mae' gives no score on track 'sim'",
        ),
    ],
)
def test_the_builder_refuses_an_own_metric_that_misbehaves_on_the_gold(
    name, change, message, tmp_path
):
    from codajudge.bundle.build import build
    from codajudge.bundle.edition import load_edition

    folder = edition_naming(tmp_path / "edition", name, mae_module(name).replace(*change))
    with pytest.raises(ConfigError) as refused:
        build(load_edition(folder), folder, tmp_path / "dist")
    text = refused.value.render()
    assert "metrics.py" in text and message in text, text
    assert "reference_data" not in text  # a folder the build has not written yet


@pytest.mark.parametrize(
    "metric, module",
    [
        ("pearson", ""),  # refused before as "not perfect ... expected pearson = 1, found 0"
        # a wrong direction that no prediction other than a constant gold can show: it built
        (
            "flipped_mae",
            mae_module("flipped_mae").replace(
                "direction=LOWER,", "direction='higher', on_gold=lambda gold: 0.0,"
            ),
        ),
    ],
)
def test_a_track_whose_gold_on_a_phase_is_one_value_is_refused_with_its_count_and_value(
    metric, module, tmp_path
):
    from codajudge.bundle.build import build
    from codajudge.bundle.edition import load_edition

    folder = edition_naming(tmp_path / "edition", metric, module)
    for dataset, split, key, value in (
        ("sim", "dev", "score", 3.0),
        ("nli", "test", "label", "neutral"),
    ):
        path = folder / "data" / dataset / f"{split}.jsonl"
        items = [json.loads(line) for line in path.read_text().splitlines()]
        path.write_text("".join(json.dumps({**item, key: value}) + "\n" for item in items))
    with pytest.raises(ConfigError) as refused:
        build(load_edition(folder), folder, tmp_path / "dist")
    text = refused.value.render()
    assert (
        "(dataset 'sim', dev split): track 'sim': the gold of phase 'practice' is one value on all "
        "14 scored items; expected gold that differs between items (2 values at least), found 3 on "
        "each of the 14. No prediction can be told from another" in text
    ), text
    assert (
        "(dataset 'nli', test split): track 'nli': the gold of phases 'evaluation', "
        "'post-campaign' is one value on all 14 scored items; expected gold that differs between "
        "items (2 values at least), found 'neutral' on each of the 14." in text
    ), text
    assert "not perfect" not in text and "direction" not in text


def score_built_edition(tmp_path: Path, metric: str, prediction) -> int:
    """The scoring program's exit code on the practice phase of the edition built from
    ``tmp_path/edition`` (its own metric ``metric``), every item predicted ``prediction(items)``,
    as the platform runs it: the module registered anew from task.json, as "metrics.py"."""
    from codajudge.bundle.build import build
    from codajudge.bundle.edition import load_edition
    from codajudge.programs.score import main as score

    folder = tmp_path / "edition"
    build(load_edition(folder), folder, tmp_path / "dist")
    shutil.copytree(tmp_path / "dist" / "small" / "reference_data" / "practice", tmp_path / "ref")
    items = [json.loads(line) for line in (tmp_path / "ref" / "sim.jsonl").read_text().splitlines()]
    value = prediction(items)
    (tmp_path / "res").mkdir()
    (tmp_path / "res" / "sim.tsv").write_text("".join(f"{item['id']}\t{value}\n" for item in items))
    LOADED.clear()
    REGISTRY.pop(metric)
    return score([str(tmp_path), str(tmp_path / "out")])


def test_an_own_metric_raising_on_a_valid_prediction_is_the_bundle_s_error_not_a_kit_bug(
    tmp_path, capsys
):
    """At scoring time, an edition's metric that raises on a prediction the track accepts (above
    the gold's scale) stops the scoring program as the bundle's problem (exit 1, no scores.json),
    naming its module's line, the metric, the track and the exception; a kit metric's exception
    stays a bug of the kit."""
    high = "clipped = np.asarray(pred, dtype=float)\n    assert (clipped <= 5).all(), 'too high'"
    module = mae_module("picky_mae").replace("clipped = np.clip(", f"{high}\n    np.clip(")
    edition_naming(tmp_path / "edition", "picky_mae", module)
    assert score_built_edition(tmp_path, "picky_mae", lambda items: 6) == 1
    error = capsys.readouterr().err
    raising = (
        "metrics.py: line 11: metric 'picky_mae' on track 'sim' raises AssertionError: too high"
    )
    assert raising in error and "must not fail on any valid prediction" in error, error
    assert "internal error" not in error and not (tmp_path / "out" / "scores.json").exists()
    kit_bug = Metric(**{**vars(REGISTRY["picky_mae"]), "name": "kit_mae"})
    with pytest.raises(AssertionError):
        kit_bug.score(np.array([1.0, 2.0]), np.array([6.0, 2.0]), track="sim")


def test_an_own_metric_scoring_outside_its_range_is_the_bundle_s_error(tmp_path, capsys):
    """At scoring time, an edition's metric scoring a valid prediction outside the range it
    declares (which the pages state and a normalised primary score divides by) stops the scoring
    program as the bundle's problem (exit 1, no scores.json), naming its module, the metric, the
    track, the range and the score, and the fix."""
    module = mae_module("narrow_mae").replace("upper=5.0", "upper=2.5")
    edition_naming(tmp_path / "edition", "narrow_mae", module)

    def far(items):  # a valid prediction far from the gold: its MAE is above 2.5
        return 5 if np.mean([item["score"] for item in items]) < 2.5 else 0

    assert score_built_edition(tmp_path, "narrow_mae", far) == 1
    error = capsys.readouterr().err
    outside = "metrics.py: metric 'narrow_mae' on track 'sim' scores outside the metric's range; "
    assert outside + "expected every score within [0, 2.5], found " in error, error
    assert "Widen the range its registration declares" in error
    assert not (tmp_path / "out" / "scores.json").exists()


def test_the_new_editions_config_names_the_key_in_a_comment(tmp_path):
    from codajudge.programs.new_edition import write_edition

    folder = write_edition("mine", tmp_path / "mine")
    text = (folder / "edition.yaml").read_text()
    assert "# metrics_module: metrics.py" in text
    assert "metrics_module" not in yaml.safe_load(text)


def test_a_refusal_of_the_builder_s_own_gold_is_the_edition_s_not_its_module_s(
    tmp_path, monkeypatch
):
    """The scorer refusing the gold the builder submits (a config's tracks that clash) is a problem
    of the edition's config, not of its metrics module, nor a participant's submission."""
    from codajudge.bundle import build as builder
    from codajudge.bundle.edition import load_edition
    from codajudge.errors import SubmissionError

    def refused(ref):
        raise SubmissionError.single("nli.tsv", "track 'nli' is given by more than one file")

    monkeypatch.setattr(builder, "score_gold", refused)
    folder = edition_naming(tmp_path / "edition", "own_mae", mae_module("own_mae"))
    with pytest.raises(ConfigError) as caught:
        builder.build(load_edition(folder), folder, tmp_path / "dist")
    [problem] = caught.value.problems
    assert problem.message == "scoring the gold of phase 'practice' was refused", problem
    assert "given by more than one file" in problem.found and "metrics.py" not in problem.file


def test_a_metric_whose_resamples_are_not_its_score_on_their_items_is_refused_with_the_fix():
    """Spearman's rho without ``from_draws``: a resample summed from the whole track's ranks is not
    the rho of its own items (a bootstrap interval of the wrong width), which the builder refuses."""
    spearman = REGISTRY["spearman"]
    assert statistics_problems(spearman, GOLD) == []
    (summed,) = statistics_problems(dataclasses.replace(spearman, from_draws=None), GOLD)
    assert "a bootstrap resample (items drawn with repeats) scored from its summed" in summed
    assert "Register from_draws(stats, index, sums)" in summed
