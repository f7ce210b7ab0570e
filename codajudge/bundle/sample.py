"""A split made of a seeded sample of another split's items (a dataset's ``sample`` option).

``sample: {dev: {of: test, items: 300, seed: 2020}}`` makes the dev split 300 items of the test
split: those whose SHA-256 of ``"<seed>:<item id>"`` is smallest, kept in the release's order. The
choice depends only on the seed and the ids (no numpy or Python random state), so every build, on
any version, picks the same items; a different seed picks another sample.

The sample's items are the other split's own items, gold included: a phase scoring them reuses
items of the phase scoring the whole split. The edition declares it here and its pages say so.
"""

from __future__ import annotations

import hashlib
from typing import NamedTuple

from ..errors import ConfigError


def smallest_keys(items: list[dict], seed: int, count: int) -> list[int]:
    """The positions of the ``count`` items whose hex SHA-256 of ``"<seed>:<id>"`` is smallest, in
    the release's order."""
    digests = [hashlib.sha256(f"{seed}:{item['id']}".encode("utf-8")).hexdigest() for item in items]
    return sorted(sorted(range(len(items)), key=digests.__getitem__)[:count])


def sampled_items(items: list[dict], split: str, sample: dict, where: str) -> list[dict]:
    """Split ``split``: the ``items`` of split ``of`` that ``smallest_keys`` chooses by ``seed``, as
    many as ``sample`` (the dataset's ``sample: {SPLIT: {of, items, seed}}`` entry, its shape checked
    by the schema, its ``of`` by ``data_checks.dataset_problems``) asks for, in their release order."""
    if sample["items"] > len(items):
        raise ConfigError.single(
            where,
            f"the {split} sample asks for more items than the {sample['of']} split has",
            expected=f"at most {len(items)} items",
            found=str(sample["items"]),
        )
    return [items[i] for i in smallest_keys(items, sample["seed"], sample["items"])]


class LocalSplit(NamedTuple):
    """The starting kit's local validation split: ``fraction`` of each dataset's training items
    (at least one, never all), those ``smallest_keys`` chooses by ``seed``, held out of the
    training data of the kit's ``local`` phase (``build.local_splits``). Its gold is the training
    split's, public anyway."""

    fraction: float
    seed: int


def declared_local(raw) -> LocalSplit | None:
    """The edition's ``local: {fraction, seed}`` (its shape checked by the schema), None if absent."""
    if not isinstance(raw, dict):
        return None
    return LocalSplit(float(raw["fraction"]), int(raw.get("seed", 0)))
