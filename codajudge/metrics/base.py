"""The metric registry: every metric is a pair of small pure functions over numpy arrays.

``item_stats(gold, pred) -> (N, S) array`` gives each item's contribution (or sufficient statistics,
for correlations and F1); ``from_stats(sums, n) -> score`` turns column sums over any subset or
resample of items into the score. Bootstrap intervals and paired tests therefore work for every
metric through one code path: resample items, sum their rows, call ``from_stats``.
``from_stats`` is vectorised: ``sums`` may be ``(S,)`` or ``(B, S)`` for B resamples.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from numbers import Integral
from pathlib import Path
from typing import Callable, NamedTuple

import numpy as np

from ..errors import ConfigError

HIGHER = "higher"
LOWER = "lower"

#: The significance tests a metric can name as its own (``Metric.significance``, ``--test auto``).
WILLIAMS = "williams"
WILCOXON = "wilcoxon"
BOOTSTRAP = "bootstrap"

#: The forms of per-item statistics (``Metric.stats_form``), which say how a bootstrap sums them:
#: MEAN: one column, each item's contribution to a mean (the metric has per-item losses), gathered;
#: MOMENTS: a few columns of sufficient statistics (correlations), summed as counts @ stats;
#: ONE_HOT: one 1 per row among 0s (confusion cells), counted per cell.
MEAN = "mean"
MOMENTS = "moments"
ONE_HOT = "one_hot"

#: What a metric's direction, stats form and significance test (in this order) may each be.
CHOICES = ((HIGHER, LOWER), (MEAN, MOMENTS, ONE_HOT), (WILLIAMS, WILCOXON, BOOTSTRAP))


def round5(x):
    """Python's ``round(x, 5)`` of each value (the LeWiDi 2025 official rounding): a float for a
    number, an array of the same shape for an array. ``np.round`` multiplies by 1e5 first, which
    can break near-ties differently from Python."""
    values = np.asarray(x, dtype=float)
    # k / 1e5 is the double nearest to k decimal places, as Python's; only k can differ, where
    # values * 1e5 (itself rounded) lies next to a half or beyond whole doubles' precision:
    # those few values take Python's round
    flat = values.ravel()
    scaled = flat * 1e5
    rounded = np.rint(scaled) / 1e5
    near_half = np.abs(np.abs(scaled - np.floor(scaled)) - 0.5) < 1e-6
    by_python = near_half | (np.abs(scaled) >= 2.0**52)
    rounded[by_python] = [round(v, 5) for v in flat[by_python].tolist()]
    return rounded.reshape(values.shape) if values.ndim else float(rounded[0])


def item_order_sum(stats: np.ndarray) -> np.ndarray:
    """Column sums of per-item statistics added in item order, as the official scripts' Python
    ``sum`` adds them: numpy's pairwise sum can land on the other side of a rounding tie (LeWiDi 2025
    VariErrNLI dev, most-frequent baseline: MAMD 0.65291 instead of the official 0.65292)."""
    return np.cumsum(stats, axis=0)[-1] if stats.shape[0] else stats.sum(axis=0)


def cell_counts(cells: np.ndarray, n_cells: int) -> np.ndarray:
    """Per row of ``cells`` (b, n) of cell numbers 0..n_cells-1, how often each cell occurs:
    (b, n_cells) floats (a bootstrap's draws per item, a resample's values per distinct value).

    One ``bincount`` for every row at once, each row's cells offset by its own n_cells, not a
    Python loop over rows."""
    b = cells.shape[0]
    offset = cells + (np.arange(b, dtype=cells.dtype) * n_cells)[:, None]
    return np.bincount(offset.ravel(), minlength=b * n_cells).reshape(b, n_cells).astype(float)


def mean_from_sums(sums, n):
    """The mean of a one-column statistic from its sum over ``n`` items (vectorised over resamples)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.asarray(sums, dtype=float)[..., 0] / np.asarray(n, dtype=float)


def shown_end(value: float) -> float:
    """A range's end as pages and reports show it: to 6 decimals, so that a floating artefact
    reads as the value meant (about -1e-9 as 0; -0.0 + 0.0 is 0.0)."""
    return round(value, 6) + 0.0


#: How an undefined value may be declared, offered only where 0.0 is inside the range
UNDEFINED_HINT = (
    ", or, where it is undefined by nature (a correlation of a constant series), register "
    "undefined_note='...' saying so: the score is then reported as 0.0 with that note"
)


@dataclass(frozen=True)
class Metric:
    """A registered metric: its direction, range, the two functions that compute it, and the facts
    the statistics layer asks about it.

    ``upper`` is the worst (or best) value of the range; a callable takes the track's number of
    labels, for metrics whose range depends on the scale (Wasserstein distance on K bins: K - 1).
    ``from_stats`` is by default the mean of a one-column statistic (``mean_from_sums``).
    ``from_draws(stats, index, sums)``, where given, scores resamples from their drawn items, not
    from their summed statistics alone: ``index`` (B, n) holds each resample's rows of ``stats``
    (N, S), ``sums`` (B, S) their sums or None, and it returns B scores (NaN where undefined). A
    correlation has one: each resample's r is that of its own values, as the whole track's is.
    The exact permutation test then swaps the rows of ``swap_stats(stats)`` (default: ``stats``)
    between two systems and scores each arrangement with ``from_draws`` (no sums): a
    correlation's predictions standardised over the track, on one scale.
    ``stats_form`` (MEAN, MOMENTS, ONE_HOT) says what ``item_stats`` returns and so whether the
    metric has per-item losses and how a bootstrap sums its rows; ``significance`` is the paired test
    that applies to it (WILLIAMS, WILCOXON or BOOTSTRAP); ``percent`` says tables print it x 100.
    ``on_gold`` gives the metric's value when the gold itself is submitted, from the scored gold
    array, for a metric whose best value on a gold is not its range's end (cross-entropy: the
    gold's entropy); ``on_gold_tolerance`` is how far the builder's gold self-check lets the score
    stray from that value.
    ``undefined_note`` declares that the metric can be undefined on a valid prediction (NaN: a
    correlation of a constant series) and is then reported as 0.0 with this note; an edition's own
    metric may declare one only where 0.0 lies strictly inside its range (``zero_inside``: neither
    best nor worst); a metric without one must be finite on every valid prediction.
    ``description`` is the Evaluation page's text on the metric where no template
    ``templates/metrics/NAME.md`` gives it (the kit's metrics have one; a new metric module may
    bring its text either way).
    ``applies_to`` lists the (kind, scale) pairs whose tracks may name the metric (scale None for a
    kind without scales; a kind's defaults are its own, ``Kind.default_metrics``); it also says which
    inputs the registry's property tests draw.
    ``scale_free`` says the score is the same for predictions on any scale (a correlation): the
    pages then let similarity predictions take any scale, else they ask for the gold's.
    ``official_rounding`` says it rounds as the official LeWiDi 2025 code does (5 decimals per
    item): the Evaluation page of an edition using it says so.
    """

    name: str
    title: str
    direction: str
    lower: float
    upper: object
    item_stats: Callable
    from_stats: Callable = mean_from_sums
    from_draws: Callable | None = None
    swap_stats: Callable | None = None
    description: str = ""
    undefined_note: str = ""
    short_title: str = ""  # for leaderboard columns whose full title would not fit (default: title)
    stats_form: str = MEAN
    significance: str = BOOTSTRAP
    percent: bool = False
    on_gold: Callable | None = None
    on_gold_tolerance: float = 1e-9
    applies_to: tuple[tuple[str, str | None], ...] = ()
    scale_free: bool = False
    official_rounding: bool = False

    def __post_init__(self):
        chosen = (self.direction, self.stats_form, self.significance)
        if any(value not in known for value, known in zip(chosen, CHOICES)):
            unknown = "unknown direction, stats form or significance test"
            raise ValueError(f"metric {self.name!r}: {unknown}")
        if self.significance == WILCOXON and self.stats_form != MEAN:
            needs = "Wilcoxon's test needs per-item losses (stats_form MEAN)"
            raise ValueError(f"metric {self.name!r}: {needs}")

    @property
    def higher_is_better(self) -> bool:
        return self.direction == HIGHER

    @property
    def has_item_losses(self) -> bool:
        """True when the score is a mean of one per-item value (a loss, once oriented)."""
        return self.stats_form == MEAN

    @property
    def module_file(self) -> str:
        """The file of the module defining ``item_stats`` (an edition's own: the name it ran as)."""
        module = sys.modules.get(getattr(self.item_stats, "__module__", ""))
        return getattr(module, "__file__", None) or "its metrics module"

    def bounds(self, n_labels: int | None = None) -> tuple[float, float]:
        """The range (lower, upper) on a track of ``n_labels`` labels, which only a callable
        ``upper`` reads (the README shows it to participants: ``REGISTRY["awd"].bounds(6)``); such a
        metric's range without its scale (``n_labels`` 0, not a positive whole number) is refused,
        not given as a scale's it is not."""
        whole = isinstance(n_labels, Integral) and not isinstance(n_labels, bool)
        if callable(self.upper) and not (whole and n_labels >= 1):
            raise ValueError(
                f"metric {self.name!r}: its range grows with the track's number of labels; "
                f"expected n_labels, a positive whole number (6 for CSC's 6 bins), found "
                + ("none given" if n_labels is None else repr(n_labels))
                + ": call bounds(n_labels=...)"
            )
        upper = self.upper(n_labels) if callable(self.upper) else self.upper
        return float(self.lower), float(upper)

    def shown_bounds(self, n_labels: int = 0) -> tuple[float, float]:
        """``bounds`` as pages and reports show them: each end to 6 decimals, so that a floating
        artefact reads as the value meant (cross-entropy's lower end -ln(1 - 1e-12 + 1e-9), about
        -1e-9, as 0); checks read ``bounds``."""
        return tuple(map(shown_end, self.bounds(n_labels)))

    def worst(self, n_labels: int = 0) -> float:
        """The range's lower end where higher is better, else its upper end."""
        return self.bounds(n_labels)[0 if self.higher_is_better else 1]

    def gold_value(self, gold, n_labels: int = 0) -> float:
        """What the gold submitted as a prediction scores: ``on_gold(gold)``, else the range's best
        end (its upper end where higher is better, else its lower end)."""
        best = self.bounds(n_labels)[1 if self.higher_is_better else 0]
        return best if self.on_gold is None else float(self.on_gold(gold))

    def score(
        self, gold, pred, keep=None, track: str = "", n_labels: int | None = None
    ) -> MetricValue:
        """The score of a whole track (``track`` names it in messages); an undefined value (NaN) is
        0.0 with the metric's ``undefined_note``, or a ConfigError for a metric without one.

        ``keep`` (a boolean mask over items) drops items without gold after per-item statistics.
        An edition's own metric that raises is a ConfigError at its module's line; a kit metric's
        exception propagates (a bug of the kit). Given the track's number of labels (``n_labels``:
        at scoring time), an edition's own metric scoring outside its declared range is a
        ConfigError too, as the pages, the tables and a normalised primary score state that range.
        """
        from .edition_module import code_failure, own_module_of, range_problems  # imports this

        module = own_module_of(self.name)
        try:
            stats, value = self._computed(gold, pred, keep)
        except Exception as error:
            if not module:
                raise
            raise code_failure(error, module, f"metric {self.name!r} on track {track!r}") from None
        if np.isfinite(value):
            if module and n_labels is not None:
                scored = {f"metric {self.name!r} on track {track!r}": value}
                outside = range_problems(scored, *self.bounds(n_labels))
                if outside:
                    raise ConfigError.single(module, outside[0])
            return MetricValue(value, None, stats)
        if self.undefined_note:
            return MetricValue(0.0, self.undefined_note, stats)
        raise ConfigError.single(
            self.module_file,
            f"metric {self.name!r} gives no score on track {track!r}",
            expected="a finite score on every valid prediction",
            found=str(value),
            hint="make the metric defined on every prediction the track accepts (clip or guard "
            "the values it takes, as the README's MAE example clips to the scale)"
            + (UNDEFINED_HINT if self.zero_inside(n_labels or 0) else ""),
        )

    def zero_inside(self, n_labels: int = 0) -> bool:
        """True where 0.0, what an undefined value is reported as (``undefined_note``), lies
        strictly inside the range, so that it is neither the best nor the worst score (a
        correlation's); a range growing with the scale is taken on 2 labels."""
        low, high = self.bounds(n_labels or 2)
        return low < 0.0 < high

    def _computed(self, gold, pred, keep) -> tuple[np.ndarray, float]:
        """The per-item statistics of ``pred`` against ``gold`` (those ``keep`` selects) and the
        score they give, finite or not."""
        with np.errstate(all="ignore"):  # a value that is not finite is refused by ``score``
            stats = self.item_stats(gold, pred)
            if np.ndim(stats) != 2:
                raise ConfigError.single(
                    self.module_file,
                    f"metric {self.name!r}: item_stats gives no table of per-item statistics",
                    expected="an array of one row per item, one column per statistic",
                    found=f"shape {np.shape(stats)}",
                    hint="a mean's single column is values[:, None], as in the README's example",
                )
            stats = stats if keep is None else stats[keep]
            return stats, float(self.from_stats(item_order_sum(stats), stats.shape[0]))


class MetricValue(NamedTuple):
    """A track's score, the warning if it was undefined, and the per-item statistics behind it."""

    value: float
    warning: str | None
    stats: np.ndarray | None = None


REGISTRY: dict[str, Metric] = {}


def register(metric: Metric) -> Metric:
    """Add ``metric`` to the registry under its name, which must be its own."""
    if metric.name in REGISTRY:
        owner = REGISTRY[metric.name].module_file
        kit = Path(owner).parent == Path(__file__).parent
        taken = "a kit metric" if kit else f"registered by {owner}"
        raise ValueError(f"metric {metric.name!r} is already {taken}: a new one needs its own name")
    REGISTRY[metric.name] = metric
    return metric


def registered(**fields) -> Metric:
    """``register(Metric(**fields))``: the kit's modules declare each metric's shared fields once,
    as ``partial(registered, ...)``."""
    return register(Metric(**fields))


def get(name: str) -> Metric:
    return REGISTRY[name]
