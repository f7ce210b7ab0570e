"""The registry of track kinds: every kind is one module of this package, registered here.

A new kind is one new module (a ``Kind`` subclass and its ``KIND``) and one line in ``REGISTRY``.
Outside this package no code compares a track's kind: it asks ``of(track)`` for the kind and calls
what the kind supplies.
"""

from . import classification, perspectivist, similarity, soft_label
from .base import SCALES, Kind

REGISTRY: dict[str, Kind] = {
    module.KIND.name: module.KIND
    for module in (similarity, classification, soft_label, perspectivist)
}
#: The kind names a config may give, in registry order.
NAMES = tuple(REGISTRY)

__all__ = ["Kind", "NAMES", "REGISTRY", "SCALES", "of"]


def of(track) -> Kind:
    """The kind of a track."""
    return REGISTRY[track.kind]
