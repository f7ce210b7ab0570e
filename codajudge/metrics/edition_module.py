"""An edition's own metrics: a Python file in its folder (``metrics_module: metrics.py``) that
registers metrics with ``base.register(Metric(...))``, as the kit's own metric modules do.

The builder reads the file and every phase's ``task.json`` carries its name and text
(``{"file": ..., "source": ...}``), so that whatever reads a task.json (the scoring and ingestion
programs of the Codabench bundle, the starting kit and the legacy bundle; ``codajudge rank``;
``run_local``) registers the same metrics before it reads the tracks naming them. The builder also
checks each of them on the edition's gold (``property_problems``): the registry's basic properties,
with numpy alone.
"""

import sys
import traceback
import types

import numpy as np

from ..errors import ConfigError, problem_text
from .base import MEAN, ONE_HOT, REGISTRY, Metric


#: The text of every edition metrics module run in this process -> its file name and the names of
#: the metrics it registered.
LOADED: dict[str, tuple[str, tuple[str, ...]]] = {}


def load_entry(entry, where: str) -> tuple[str, ...]:
    """Register the metrics of a task.json's ``metrics_module`` entry (once per process)."""
    given = entry if isinstance(entry, dict) else {}
    if not all(isinstance(given.get(key), str) for key in ("file", "source")):
        raise ConfigError.single(
            f"{where}: metrics_module",
            "must be an object of the module's file name and text",
            expected='{"file": "metrics.py", "source": "..."}',
            found=repr(entry)[:80],
        )
    return load_source(entry["source"], entry["file"])


def load_source(source: str, file_name: str) -> tuple[str, ...]:
    """Run an edition's metrics module ``source`` (``file_name`` in messages) once per process;
    the names of the metrics it registered."""
    if source in LOADED:
        return LOADED[source][1]
    before = set(REGISTRY)
    module = types.ModuleType(f"codajudge_edition_metrics_{len(LOADED)}")
    module.__file__ = file_name
    # the name its functions pickle by, for worker processes (codajudge rank --jobs)
    sys.modules[module.__name__] = module
    try:
        exec(compile(source, file_name, "exec"), module.__dict__)
    except Exception as error:  # the organiser's code: any failure is the module's problem
        raise code_failure(error, file_name) from None
    names = tuple(name for name in REGISTRY if name not in before)
    if not names:
        raise ConfigError.single(
            file_name, "registers no metric", hint="register each with register(Metric(...))"
        )
    for metric in map(REGISTRY.get, names):
        if not metric.applies_to:
            example = '(("classification", None),)'
            problem = f"metric {metric.name!r} applies to no kind: give applies_to, e.g. {example}"
            raise ConfigError.single(file_name, problem)
        if not metric.description.strip() or "|" in metric.description:
            cell = "its description is a cell of the Evaluation page's table: text without '|'"
            raise ConfigError.single(file_name, f"metric {metric.name!r}: {cell}")
    LOADED[source] = (file_name, names)
    return names


def metrics_of(source: str) -> tuple[str, ...]:
    """The names of the metrics the module ``source`` registered in this process (none if not run)."""
    return LOADED.get(source, ("", ()))[1]


def own_module_of(name: str) -> str:
    """The file of the edition metrics module run in this process that registered metric ``name``;
    "" for a kit metric."""
    return next((file for file, names in LOADED.values() if name in names), "")


def loaded_modules() -> list[tuple[str, str]]:
    """Every edition metrics module run in this process, as (source, file name): what a worker
    process started by spawn or forkserver runs again before it unpickles anything naming them."""
    return [(source, file_name) for source, (file_name, _) in LOADED.items()]


def code_failure(error: Exception, file_name: str, doing: str = "") -> ConfigError:
    """The ConfigError of the module ``file_name`` raising ``error`` (while ``doing`` something, in
    messages: running a metric's function; else while it ran): at its line (the innermost of the
    module's own frames) and how to fix it; a ConfigError as it is."""
    if isinstance(error, ConfigError):
        return error
    if isinstance(error, SyntaxError):
        problem = f"line {error.lineno}: {error.msg}"
        hint = f"correct the Python there (python -m py_compile {file_name} checks the file)"
    else:
        lines = module_lines(error, file_name)
        at = f"line {lines[-1]}: " if lines else ""
        problem = f"{at}{doing}{' raises ' if doing else ''}{type(error).__name__}: {error}"
        hint = "fix the module's code there"
        if doing:  # a metric's function failed on the arrays it is given
            hint += ": a metric must not fail on any valid prediction (the numpy arrays of gold "
            hint += "and predictions the README's 'An edition's own metric' describes)"
    return ConfigError.single(file_name, problem, hint=hint)


def module_lines(error: Exception, file_name: str) -> list[int]:
    """The lines of the module ``file_name`` that ``error``'s traceback passes through, outermost
    first (none: the module's code did not run into it)."""
    return [f.lineno for f in traceback.extract_tb(error.__traceback__) if f.filename == file_name]


def property_problems(metric: Metric, gold, n_labels: int, track: str = "") -> list[str]:
    """What breaks the registry's basic properties on ``gold`` (a track's scored gold, as the metric
    takes it), against a prediction other than the gold where the gold is an array (each item
    predicted as its neighbour's gold): one statistics row per item in the declared form, a finite
    score within the declared range (the gold's own too), unchanged when the items are reversed,
    and ``from_stats`` vectorised over stacked sums; first, a finite range. Then a bootstrap
    resample scores what the metric computed on its items does (``resample_problems``), and a
    ``scale_free`` metric's exact permutation test ignores a system's scale (``scale_problems``). A
    similarity prediction off the gold's scale (negative) must score too: a metric undefined on it
    raises ConfigError (``Metric.score``)."""
    low, high = metric.bounds(n_labels)
    if not (np.isfinite([low, high]).all() and low < high):
        return [f"its range [{low:g}, {high:g}] is not a finite interval"]
    pred = np.roll(gold, 1, axis=0) if isinstance(gold, np.ndarray) else gold
    if isinstance(gold, np.ndarray) and gold.ndim == 1 and gold.dtype.kind == "f":
        metric.score(gold, -1.0 - pred, track=track)
    stats = np.asarray(metric.item_stats(gold, pred), dtype=float)
    n_items = len(gold) if isinstance(gold, np.ndarray) else gold.n_items
    if stats.ndim != 2 or stats.shape[0] != n_items:
        return [f"item_stats gives an array of shape {stats.shape}, not one row per item"]
    problems = []
    columns = stats.shape[1]  # per item
    if metric.stats_form == MEAN and columns != 1:
        problems.append(f"stats_form MEAN needs one column per item, item_stats gives {columns}")
    if metric.stats_form == ONE_HOT and not (
        np.isin(stats, (0.0, 1.0)).all() and (stats.sum(axis=1) == 1.0).all()
    ):
        problems.append("stats_form ONE_HOT needs a single 1 among 0s per row of item_stats")
    value = metric.score(gold, pred, track=track).value
    scores = {"a prediction": value, "the gold itself": metric.score(gold, gold, track=track).value}
    problems += range_problems(scores, low, high)
    if isinstance(gold, np.ndarray):
        flipped = metric.score(gold[::-1], pred[::-1], track=track).value
        if abs(flipped - value) > 1e-9:
            problems.append(f"reversing the items changes the score from {value:g} to {flipped:g}")
    sums = np.stack([stats.sum(axis=0), stats[: max(n_items // 2, 1)].sum(axis=0)])
    stacked = np.asarray(metric.from_stats(sums, n_items), dtype=float)
    one_by_one = np.array([float(metric.from_stats(row, n_items)) for row in sums])
    if stacked.shape != (2,) or not np.allclose(stacked, one_by_one, equal_nan=True):
        problems.append("from_stats on stacked sums (B, S) differs from one call per row")
    # the resamples' and the exact test's checks assume the properties above
    return problems or statistics_problems(metric, gold, pred, stats)


def statistics_problems(metric: Metric, gold, pred, stats) -> list[str]:
    """What the bootstrap and the exact test would get wrong on an array ``gold``: a resample's
    score (``resample_problems``) and, for a ``scale_free`` metric, a system's scale
    (``scale_problems``)."""
    if not isinstance(gold, np.ndarray):
        return []
    problems = resample_problems(metric, gold, pred, stats)
    if metric.scale_free and gold.ndim == 1:
        problems += scale_problems(metric, gold)
    return problems


#: The seeded resamples ``resample_problems`` draws (each of the track's size, items repeated).
CHECKED_RESAMPLES = 5


def resample_problems(metric: Metric, gold, pred, stats) -> list[str]:
    """A bootstrap resample scored as the bootstrap scores it (from its summed ``stats``, or by
    ``from_draws`` where registered) must score what the metric computed afresh on the resample's
    items does: a score that is not a mean of per-item values nor a function of summed statistics
    (Kendall's tau from per-item pair counts) needs ``from_draws``."""
    from ..stats.bootstrap import resample_scores, undefined_as_zero  # imports the metrics

    draws = np.random.default_rng(0).integers(0, len(gold), size=(CHECKED_RESAMPLES, len(gold)))
    sums = np.stack([stats[row].sum(axis=0) for row in draws])
    resampled = undefined_as_zero(resample_scores(metric, stats, draws, sums))
    fresh = np.array([metric.score(gold[row], pred[row]).value for row in draws])
    if np.allclose(resampled, fresh, rtol=1e-9, atol=1e-9):
        return []
    worst = int(np.argmax(np.abs(resampled - fresh)))
    how = "by its from_draws" if metric.from_draws else "from its summed item_stats"
    fix = (
        "register from_draws(stats, index, sums) returning each resample's score computed from its "
        "drawn rows of item_stats (index (B, n)), as the kit's correlations do; the bootstrap "
        "intervals and tests score resamples with it"
    )
    return [
        problem_text(
            "",
            f"a bootstrap resample (items drawn with repeats) scored {how} differs from the "
            "metric computed on the resample's items",
            "the same score",
            f"{resampled[worst]:g} against {fresh[worst]:g}",
            fix,
        )
    ]


def scale_problems(metric: Metric, gold) -> list[str]:
    """A ``scale_free`` metric's exact permutation test (tracks of at most 12 items) must not
    change when one system's predictions are scaled and shifted: the p-value of two systems on the
    track's first items, against the second system x 1000 shifted by 10,000 of the gold's
    standard deviations."""
    from ..stats.paired import permutation_p_value  # imports the metrics

    items = np.asarray(gold[:10], dtype=float)  # 1,024 arrangements
    spread = float(np.std(items)) or 1.0
    system_a = np.roll(items, 1)
    system_b = items + np.random.default_rng(0).normal(0.0, spread, items.size)
    p_values = [
        permutation_p_value(metric, metric.item_stats(items, system_a), metric.item_stats(items, b))
        for b in (system_b, 1000.0 * system_b + 1e4 * spread)
    ]
    if abs(p_values[0] - p_values[1]) <= 1e-12:
        return []
    fix = (
        "register swap_stats(stats) returning the statistics with each system's predictions "
        "standardised over the track (mean 0, standard deviation 1), as the kit's correlations do: "
        "the exact test swaps its rows between two systems, so they must share one scale"
    )
    return [
        problem_text(
            "",
            "scale_free, but its exact permutation test changes when one system's predictions are "
            "multiplied by 1000 and shifted by 10,000 standard deviations",
            f"the same p-value ({p_values[0]:.4f})",
            f"{p_values[1]:.4f}",
            fix,
        )
    ]


def range_problems(scores: dict[str, float], low: float, high: float) -> list[str]:
    """The problem of each of ``scores`` (what scored it -> the score) outside the declared range
    [``low``, ``high``], with the fix."""
    fix = "widen the range its registration declares (lower, upper), or correct the function"
    within = f"every score within [{low:g}, {high:g}]"
    return [
        problem_text("", f"{scored} scores outside the metric's range", within, f"{score:g}", fix)
        for scored, score in scores.items()
        if not low - 1e-9 <= score <= high + 1e-9
    ]
