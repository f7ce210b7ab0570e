"""The reproducibility signature printed beside every interval and ranking (as sacrebleu does).

Anyone with the same kit version, seed and number of resamples recomputes the same intervals.
"""

from __future__ import annotations

from typing import Optional

from .. import __version__
from .bootstrap import DEFAULT_CONFIDENCE


def signature_text(
    resamples: int, seed: int, test: Optional[str] = None, alpha: Optional[float] = None
) -> str:
    """The settings behind a set of intervals or significance tests, e.g.
    ``codajudge 0.1.0|bootstrap 1000|seed 12345|ci 95%`` (plus the test and alpha when set)."""
    parts = [
        f"codajudge {__version__}",
        f"bootstrap {resamples}",
        f"seed {seed}",
        f"ci {DEFAULT_CONFIDENCE * 100:g}%",
    ]
    if test is not None:
        parts.append(f"test {test}")
    if alpha is not None:
        parts.append(f"alpha {alpha:g}")
    return "|".join(parts)
