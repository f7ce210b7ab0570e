"""The reproducibility signature printed beside every interval and ranking (as sacrebleu does).

Anyone with the same kit version, seed and number of resamples recomputes the same intervals.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from .. import __version__


@dataclass(frozen=True)
class Signature:
    """Settings behind a set of intervals or significance tests."""

    resamples: int
    seed: int
    confidence: float = 0.95
    test: Optional[str] = None
    alpha: Optional[float] = None
    version: str = __version__

    def render(self) -> str:
        """E.g. ``codajudge 0.1.0|bootstrap 1000|seed 12345|ci 95%`` (plus test and alpha when set)."""
        parts = [
            f"codajudge {self.version}",
            f"bootstrap {self.resamples}",
            f"seed {self.seed}",
            f"ci {self.confidence * 100:g}%",
        ]
        if self.test is not None:
            parts.append(f"test {self.test}")
        if self.alpha is not None:
            parts.append(f"alpha {self.alpha:g}")
        return "|".join(parts)
