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
            raise description_error(metric, file_name)
        if metric.undefined_note and not metric.zero_inside():
            raise undefined_zero_error(metric, file_name)
    LOADED[source] = (file_name, names)
    return names


def description_error(metric: Metric, file_name: str) -> ConfigError:
    """The error of ``metric``'s description empty or holding '|' (a cell of the Evaluation page's
    table): the text found, shortened around its first '|', and the fix."""
    text = " ".join(metric.description.split())
    at = max(text.find("|") - 40, 0)
    shown = ("..." if at else "") + text[at : at + 80] + ("..." if len(text) > at + 80 else "")
    bars = text.count("|")
    return ConfigError.single(
        file_name,
        f"metric {metric.name!r}: its description is a cell of the Evaluation page's table",
        expected="text without '|'",
        found=f"{bars} '|' in {shown!r}" if bars else "no text",
        hint="remove each '|' or write it otherwise (abs(p - g) for |p - g|, '/' or a word for a "
        "separator)"
        if bars
        else "give description='...', the metric in a sentence with a worked example",
    )


def undefined_zero_error(metric: Metric, file_name: str) -> ConfigError:
    """The error of ``metric`` declaring ``undefined_note`` where 0.0, what an undefined value is
    reported as, is not strictly inside its range: there it is the best or the worst score (a
    constant submission would win a lower-is-better track on [0, 2])."""
    low, high = metric.shown_bounds(2 if callable(metric.upper) else 0)
    end = "best" if (low == 0.0) != metric.higher_is_better else "worst"
    where = f"the {end} end of its range" if low <= 0.0 <= high else "outside its range"
    return ConfigError.single(
        file_name,
        f"metric {metric.name!r} ({metric.direction} is better) declares undefined_note: an "
        f"undefined score would be reported as 0.0, {where}",
        expected="undefined_note only on a metric whose range has 0.0 strictly inside it (a "
        "correlation's [-1, 1]: 0.0 is neither best nor worst)",
        found=f"range [{low:g}, {high:g}]",
        hint="remove undefined_note and guard the values the metric takes so that it is defined "
        "on every valid prediction, returning the value it should report there (e.g. its worst "
        "end for a constant prediction)",
    )


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
        if isinstance(error, ModuleNotFoundError) and not doing:
            hint = (
                "the module must be one self-contained file: only its text is shipped (each "
                "phase's task.json carries it), so copy what it uses from a file beside it "
                f"({error.name}.py) into it; a library must be installed in the scoring image"
            )
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
    and ``from_stats`` vectorised over stacked sums; first, a finite range (the statistics layer's
    checks follow: ``stats.metric_checks``). A similarity prediction off the gold's scale (negative) must score too: a metric undefined on it
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
        problems.append(
            f"stats_form MEAN needs one column per item, item_stats gives {columns}: declare "
            "stats_form=MOMENTS (columns of statistics whose sums from_stats scores) or ONE_HOT "
            "(one confusion cell per item) in its registration, or return values[:, None]"
        )
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
    return problems


def direction_problems(metric: Metric, gold, track: str = "") -> list[str]:
    """The problem of ``metric`` scoring a prediction certainly no better than the gold (each item
    predicted as its neighbour's gold) better than the gold itself in its declared direction: the
    direction is then probably the other way (a Brier score registered higher-is-better: the
    leaderboard would sort it the wrong way). None where the gold is not an array of 2 items or
    more."""
    if not isinstance(gold, np.ndarray) or len(gold) < 2:
        return []
    own = metric.score(gold, gold, track=track).value
    other = metric.score(gold, np.roll(gold, 1, axis=0), track=track).value
    gain = other - own if metric.higher_is_better else own - other
    if gain <= max(1e-9, metric.on_gold_tolerance):
        return []
    swapped = "LOWER" if metric.higher_is_better else "HIGHER"
    return [
        problem_text(
            "",
            f"each item predicted as its neighbour's gold scores better than the gold itself "
            f"where {metric.direction} is better: direction is probably the other way",
            f"the gold's score, {own:g}, at least as good as any other prediction's",
            f"{other:g} for the neighbour's gold, {own:g} for the gold",
            f"register direction={swapped} if so, else correct the function",
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
