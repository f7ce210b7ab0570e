"""The ChaosNLI metrics on plain Python lists or numpy arrays of label distributions (one per item,
in the track's label order), as ChaosNLI's official script and the scoring program compute them
(natural log; probabilities below 1e-15 raised to it). Lower is better.

>>> from codajudge.metrics import chaosnli
>>> round(chaosnli.jsd([[0.5, 0.5, 0.0]], [[1.0, 0.0, 0.0]]), 4)
0.4645
"""

from .plain import array_score


def jsd(gold_dists, pred_dists) -> float:
    """Average Jensen-Shannon distance (the square root of the divergence, natural log) between
    the human and the predicted distributions. Lower is better; range [0, sqrt(ln 2) = 0.8326].

    >>> round(jsd([[0.5, 0.5, 0.0], [0.2, 0.3, 0.5]], [[0.5, 0.5, 0.0], [0.2, 0.3, 0.5]]), 4)
    0.0
    """
    return array_score("jsd", gold_dists, pred_dists)


def kl(gold_dists, pred_dists) -> float:
    """Average Kullback-Leibler divergence KL(human || predicted), in nats. Lower is better;
    range [0, -ln 1e-15 = 34.54].

    >>> round(kl([[0.5, 0.5, 0.0]], [[0.25, 0.75, 0.0]]), 4)
    0.1438
    """
    return array_score("kl", gold_dists, pred_dists)
