"""Cutting one release into disjoint splits by shares: ``split: {train: 0.8, dev: 0.1, test: 0.1, seed: N}``.

Each item's split depends only on its own id, the seed and the shares, never on the other items, a
random generator or the file's order, so that the cut is the same on every Python and numpy version
and stays put when the release is edited: deleting, adding or changing other rows moves no item
(a published practice item never drifts into a hidden split on a rebuild).

- The item's position: the first 16 hex digits of the SHA-256 of ``"<seed>:<id>"`` (UTF-8) as a
  number, divided by 16^16, a number in [0, 1).
- The splits given a share take the interval [0, 1) in the order train, dev, test, each a stretch as
  long as its share: an item is train when its position is below the train share, dev when below
  train + dev, else test.

The counts are therefore expected counts, ``share x N`` of N items give or take the chance of the
hash (a binomial spread: about ``sqrt(share x (1 - share) x N)``), not exact ones; a split may even
be empty for a small release, which the builder then refuses. Ids must be unique in the release.
"""

import hashlib
from itertools import accumulate


ORDER = ("train", "dev", "test")
SUM_TOLERANCE = 1e-9
#: The hex digits of the hash read as the item's position (64 bits, correctly rounded to a float).
POSITION_DIGITS = 16


def shares_problem(shares: dict) -> str:
    """Why the shares cannot cut a release ('' when they can): at least one split, summing to 1."""
    given = {s: shares[s] for s in ORDER if shares.get(s)}
    if not given:
        return "'split' gives no split a share"
    if abs(sum(given.values()) - 1.0) > SUM_TOLERANCE:
        return f"the shares of 'split' add up to {sum(given.values()):g}, not 1"
    return ""


def split_of(item_id: str, shares: dict) -> str:
    """The split of one item: the first (train, dev, test) whose running total of shares is above the
    item's position; the last split given a share takes what rounding leaves above its total."""
    given = [s for s in ORDER if shares.get(s)]
    # where the item falls in [0, 1): its hash's first 16 hex digits over 16^16
    digest = hashlib.sha256(f"{shares.get('seed', 0)}:{item_id}".encode("utf-8")).hexdigest()
    at = int(digest[:POSITION_DIGITS], 16) / 16**POSITION_DIGITS
    ends = accumulate(shares[s] for s in given)
    return next((s for s, end in zip(given, ends) if at < end), given[-1])
