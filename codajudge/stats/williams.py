"""Williams' t-test for two dependent Pearson correlations that share the gold (metrics.md §7).

Systems 2 and 3 are each correlated with the same gold (variable 1): r12 and r13, with r23 the
correlation between the two systems' predictions. Under H0 (r12 = r13)

    t = (r12 - r13) * sqrt((n-1)(1+r23)) / sqrt(2 ((n-1)/(n-3)) |R| + ((r12+r13)^2 / 4) (1-r23)^3)

with |R| = 1 - r12^2 - r13^2 - r23^2 + 2 r12 r13 r23, follows Student's t with n - 3 degrees of
freedom (Williams 1959; used by SemEval-2017 STS and WMT). The kit's tests are two-sided.

Degenerate cases, where the formula divides 0 by 0 (or by rounding noise), are decided explicitly
(``_degenerate``), in this order:

- n <= 3: no test (p = 1).
- r12 = r13: the correlations are equal (t = 0, p = 1), whatever else holds.
- a constant system (its r undefined, scored 0): the other system's r is tested against 0 with
  Pearson's t = r sqrt((n-2)/(1-r^2)), n - 2 degrees of freedom (a constant's r does not vary).
- |r23| = 1 (to ``AFFINE_TOLERANCE``): one system is an affine map of the other. With r23 = +1
  their correlations with the gold are equal (a tie, p = 1); with r23 = -1 they are opposite
  (r13 = -r12), so they differ exactly when r12 differs from 0: r12 is tested against 0 as above,
  with t signed as r12 - r13.

A two-sided p-value is never below ``exact.p_floor(n)``, 2 x 0.5^n: no
paired test on n items can say more (a t distribution would, for a perfect system against its negation on 30 items: p = 0).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional, Tuple


from .exact import p_floor


@dataclass(frozen=True)
class TestResult:
    """A test statistic (None when the test has none), its p-value and the test's name."""

    statistic: object
    p_value: float
    test: str


def williams_t(r12: float, r13: float, r23: float, n: int) -> float:
    """Williams' t statistic (positive when r12 > r13); needs n > 3.

    Identical systems (r23 = 1, r12 = r13) give 0.0; a zero denominator with a non-zero
    difference (impossible in exact arithmetic) gives an infinite t of the difference's sign.
    """
    det_r = 1.0 - r12 * r12 - r13 * r13 - r23 * r23 + 2.0 * r12 * r13 * r23
    det_r = max(det_r, 0.0)  # a correlation matrix is positive semi-definite; clip rounding noise
    numerator = (r12 - r13) * math.sqrt(max((n - 1) * (1.0 + r23), 0.0))
    denominator_sq = 2.0 * ((n - 1) / (n - 3)) * det_r + ((r12 + r13) ** 2 / 4.0) * (1.0 - r23) ** 3
    if denominator_sq <= 0.0:
        return 0.0 if numerator == 0.0 else math.copysign(math.inf, numerator)
    return numerator / math.sqrt(denominator_sq)


#: |r23| within this of 1 means one system is an affine map of the other: the Williams formula
#: would divide rounding noise by rounding noise (r computed in floats is exact to about 1e-15).
AFFINE_TOLERANCE = 1e-12


def pearson_against_zero_t(r: float, n: int) -> float:
    """Pearson's t = r sqrt((n-2)/(1-r^2)) for r against 0 (n - 2 degrees of freedom); |r| = 1
    gives an infinite t of r's sign."""
    if abs(r) >= 1.0:
        return math.copysign(math.inf, r)
    return r * math.sqrt((n - 2) / (1.0 - r * r))


def _degenerate(
    r12: float, r13: float, r23: float, n: int, constant_a: bool, constant_b: bool
) -> Optional[Tuple[float, int]]:
    """(t, degrees of freedom) of a degenerate case (the module docstring), None otherwise; t is
    signed as r12 - r13. Needs n > 3."""
    if r12 == r13:
        return 0.0, n - 3
    if constant_a or constant_b:
        r, sign = (r13, -1.0) if constant_a else (r12, 1.0)
        return sign * pearson_against_zero_t(r, n), n - 2
    if r23 >= 1.0 - AFFINE_TOLERANCE:
        return 0.0, n - 3
    if r23 <= -1.0 + AFFINE_TOLERANCE:
        return pearson_against_zero_t(r12, n), n - 2
    return None


def williams_test(
    r12: float, r13: float, r23: float, n: int, constant_a: bool = False, constant_b: bool = False
) -> TestResult:
    """Two-sided Williams' test of A (r12 with the gold) against B (r13 with the gold, r23 with A;
    ``constant_a``, ``constant_b``: the system is constant): a degenerate case's (t, degrees of
    freedom), else Williams' t with n - 3, its p never below ``exact.p_floor(n)``."""
    if n <= 3:
        return TestResult(None, 1.0, "williams")
    # imported here: the builder and the programs import this module, and few of them run a test
    from scipy.stats import t as student_t

    found = _degenerate(r12, r13, r23, n, constant_a, constant_b)
    t, df = found if found is not None else (williams_t(r12, r13, r23, n), n - 3)
    p = min(max(2.0 * float(student_t.sf(abs(t), df)), p_floor(n)), 1.0)
    return TestResult(t, p, "williams")
