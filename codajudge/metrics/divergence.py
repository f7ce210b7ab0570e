"""ChaosNLI (Nie, Zhou and Bansal, EMNLP 2020): distances between the human label distribution and
the model's, as the official evaluation script computes them (easonnie/ChaosNLI,
``src/evaluation/tools.py``, ``calculate_divergence_bwt_model_human_simplify``).

Both metrics are lower-is-better means over items of a per-item value, in nats (natural log).
Gold and predictions are arrays ``(N, K)`` of probabilities in the track's label order.

- ``normalize_dist``: every probability below 1e-15 is raised to 1e-15 and the row divided by its
  sum, as the script does to the model's distribution, and here to the human's too, so that a
  perfect prediction scores exactly 0 (the scoring program reads the gold's shares by the rule
  it reads a submitted soft label by: the shares submitted are the gold to the bit). That moves
  an item's value by less than 1e-12, except for an item predicted exactly that has a class
  nobody chose: 0 here, about 2.6e-8 by the script (the square root of the floor's own
  divergence); published values have 4 decimals.
- JSD: scipy's ``distance.jensenshannon`` (natural log): the Jensen-Shannon *distance*, the square
  root of the divergence, in [0, sqrt(ln 2)]. Where rounding makes the divergence of two nearly
  equal rows negative, scipy's square root is NaN and the script counts the item as 0: so here.
- KL: ``scipy.stats.entropy(human, model)``, the divergence KL(human || model), in
  [0, -ln 1e-15] (about 34.54) since no model probability is below 1e-15; an item's value that
  rounding makes negative (about -1e-16, nearly equal rows) counts as 0.
"""

import math
from functools import partial

import numpy as np

from .base import LOWER, registered

#: The script's floor under a probability (``normalize_dist``, ``model_label_dist``).
FLOOR = 1e-15


def normalize_dist(rows) -> np.ndarray:
    """Rows ``(N, K)`` with every probability below ``FLOOR`` (in absolute value) raised to it, each
    row then divided by its sum: the script's ``normalize_dist``, row by row."""
    rows = np.array(rows, dtype=float)
    rows[np.abs(rows) < FLOOR] = FLOOR
    return rows / rows.sum(axis=1, keepdims=True)


def rel_entr(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """scipy's ``rel_entr`` (x ln(x / y)), the function scipy's ``jensenshannon`` and ``entropy``
    use. Imported on first use: scipy.special costs every scoring process about 0.2 s and 24 MB
    at start-up, which a phase without these metrics should not pay."""
    from scipy.special import rel_entr as scipy_rel_entr

    return scipy_rel_entr(x, y)


def _normalised_twice(gold, pred):
    """Both ``normalize_dist``'s rows, each divided by its sum once more as scipy's ``jensenshannon``
    and ``entropy`` divide them (kept for the same bits)."""
    return [rows / rows.sum(axis=1, keepdims=True) for rows in map(normalize_dist, (gold, pred))]


def jsd_stats(gold, pred):
    """Per item: the Jensen-Shannon distance (natural log) of the normalised rows; NaN counts as 0."""
    p, q = _normalised_twice(gold, pred)
    m = (p + q) / 2.0
    # numpy sums a row of a few values left to right, as scipy does
    js = np.sum(rel_entr(p, m), axis=1) + np.sum(rel_entr(q, m), axis=1)
    with np.errstate(invalid="ignore"):
        distance = np.sqrt(js / 2.0)
    return np.where(np.isnan(distance), 0.0, distance)[:, None]


def kl_stats(gold, pred):
    """Per item: KL(human || model) = sum_k h_k ln(h_k / m_k) of the normalised rows (nats), 0
    where rounding makes it negative (nearly equal rows: about -1e-16; never below in theory)."""
    h, m = _normalised_twice(gold, pred)
    return np.maximum(np.sum(rel_entr(h, m), axis=1), 0.0)[:, None]


#: What both ChaosNLI metrics are: lower is better, from 0, the mean of per-item values.
_CHAOSNLI = partial(
    registered, direction=LOWER, lower=0.0, applies_to=(("soft_label", "categorical"),)
)

_CHAOSNLI(
    name="jsd",
    title="Jensen-Shannon distance",
    short_title="JS distance",
    upper=math.sqrt(math.log(2.0)),
    item_stats=jsd_stats,
)
_CHAOSNLI(name="kl", title="KL divergence", upper=-math.log(FLOOR), item_stats=kl_stats)
