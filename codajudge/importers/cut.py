"""Cutting one release into disjoint splits by shares: ``split: {train: 0.8, dev: 0.1, test: 0.1, seed: N}``.

Each item's place is decided by a hash of (seed, id), never by a random generator, so that the cut is
the same on every Python and numpy version and does not depend on the file's order:

1. The counts: each split gets ``floor(share x N)`` items of the N kept; the few left over (fewer
   than the number of splits) go one each to the splits with the largest fractional part of
   ``share x N`` (ties: in the order train, dev, test). The counts add up to N exactly.
2. The items are ranked by SHA-256 of ``"<seed>:<id>"`` (UTF-8); the first ``count[train]`` of that
   ranking are train, the next ``count[dev]`` dev, the rest test. Each split keeps the release order.

Ids must be unique in the release (they are what is hashed).
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from typing import Dict, List, Sequence

from ..errors import ConfigError, counted

ORDER = ("train", "dev", "test")
SUM_TOLERANCE = 1e-9


def shares_problem(shares: dict) -> str:
    """Why the shares cannot cut a release ('' when they can): at least one split, summing to 1."""
    given = {s: shares[s] for s in ORDER if shares.get(s)}
    if not given:
        return "'split' gives no split a share"
    if abs(sum(given.values()) - 1.0) > SUM_TOLERANCE:
        return f"the shares of 'split' add up to {sum(given.values()):g}, not 1"
    return ""


def split_counts(n: int, shares: dict) -> Dict[str, int]:
    """Items per split: floors of share x n, the remainder to the largest fractional parts."""
    exact = {s: shares.get(s, 0) * n for s in ORDER if shares.get(s)}
    counts = {s: math.floor(v) for s, v in exact.items()}
    left = n - sum(counts.values())
    by_remainder = sorted(exact, key=lambda s: (-(exact[s] - counts[s]), ORDER.index(s)))
    for s in by_remainder[:left]:
        counts[s] += 1
    return counts


def hash_rank(item_id: str, seed: int) -> str:
    return hashlib.sha256(f"{seed}:{item_id}".encode("utf-8")).hexdigest()


def assign(ids: Sequence[str], shares: dict, display: str) -> List[str]:
    """The split of each of ``ids`` (in their order) under ``shares`` (see the module's rule)."""
    problem = shares_problem(shares)
    if problem:
        raise ConfigError.single(
            display, problem, expected="shares such as train: 0.8, dev: 0.1, test: 0.1"
        )
    repeated = [i for i, c in Counter(ids).items() if c > 1]
    if repeated:
        raise ConfigError.single(
            display,
            "'split' needs unique item ids in the release",
            found=f"{counted(len(repeated), 'repeated id')} such as {repeated[0]!r}",
        )
    counts = split_counts(len(ids), shares)
    seed = shares.get("seed", 0)
    ranked = sorted(range(len(ids)), key=lambda i: (hash_rank(ids[i], seed), ids[i]))
    chosen = [""] * len(ids)
    position = 0
    for split in ORDER:
        for i in ranked[position : position + counts.get(split, 0)]:
            chosen[i] = split
        position += counts.get(split, 0)
    return chosen
