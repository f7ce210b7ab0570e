"""The one label policy: which texts (and JSON numbers) name which label of a track.

Every place a label is written, submission and gold alike, reads it through a track's ``LabelSet``,
so a text gets one verdict wherever it appears. The policy (docs/labels.md):

- surrounding whitespace is ignored (``" entailment"`` is ``entailment``);
- case counts (``Neutral`` is not ``neutral``; the refusal names the label that was probably meant);
- a label that is a finite decimal number is also named by any text or JSON number of the same value
  (``1``, ``1.0``, ``1e0`` and ``1.`` all name label ``"1"``); other labels are compared as texts;
- declared aliases (``label_aliases`` in a track's config, e.g. ChaosNLI's ``e``, ``n``, ``c``) name
  their label, by the same rules;
- a label set in which two labels or aliases name the same label once normalised is refused.
"""

from __future__ import annotations

import math
import re
import sys
from dataclasses import dataclass, field
from collections.abc import Mapping, Sequence

#: A decimal number as a label or a submitted number may be written: sign, digits with an optional
#: fraction, exponent (no nan, inf, hex, underscores or other scripts).
DECIMAL = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?", re.ASCII)


def label_key(value) -> object | None:
    """The normalised key of a text or JSON number: a float for a finite number (written as a decimal
    number, or a JSON int or float), else the text without surrounding whitespace; None for any other
    value (a bool, a list, an object)."""
    if type(value) in (int, float):
        # not NaN or infinite, nor an int beyond the largest float (10**400), which has no float
        return float(value) if abs(value) <= sys.float_info.max else None
    if not isinstance(value, str):
        return None
    text = value.strip()
    if DECIMAL.fullmatch(text):
        number = float(text)
        if math.isfinite(number):
            return number
    return text


@dataclass(frozen=True)
class LabelSet:
    """A track's labels in their order (a label's code is its position) and the aliases naming them."""

    labels: tuple[str, ...]
    aliases: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self):
        named = [(label, code) for code, label in enumerate(self.labels)]
        named += [(a, self.labels.index(b)) for a, b in self.aliases.items() if b in self.labels]
        # label_key -> code: built from the last name declared, so that the first declared wins
        table = {label_key(name): code for name, code in reversed(named)}
        object.__setattr__(self, "_table", table)
        object.__setattr__(self, "_exact", dict(named))
        #: Code -> value of each label (not alias) that is a finite decimal number.
        label_keys = enumerate(map(label_key, self.labels))
        object.__setattr__(self, "numbers", {c: k for c, k in label_keys if type(k) is float})

    def code(self, value) -> int:
        """The code (0..K-1) of the label ``value`` names, or -1 when it names none."""
        return self.codes([value])[0]

    def codes(self, values: Sequence) -> list[int]:
        """The code of the label each value names, -1 for a value that names none: a text written
        exactly as a label or alias by one lookup, any other value by its ``label_key``."""
        exact, table = self._exact, self._table
        return [
            exact[v] if type(v) is str and v in exact else table.get(label_key(v), -1)
            for v in values
        ]

    def collisions(self) -> list[tuple[str, str]]:
        """The pairs of declared names (labels, then aliases) that normalise to one key, the name
        declared first first."""
        names = list(self.labels) + list(self.aliases)
        keys = [label_key(name) for name in names]
        first = [keys.index(key) for key in keys]  # the position of the first name of each key
        return [(names[f], name) for i, (f, name) in enumerate(zip(first, names)) if f < i]
