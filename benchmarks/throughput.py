"""The cosine bag-of-words baseline's throughput beside a plain-Python set-cosine floor.

The floor splits each text on whitespace, makes sets and takes |A & B| / sqrt(|A| |B|): the least
work any word-overlap cosine can do. The baseline does the same with its Penn Treebank-style
Unicode tokenizer (normalisation, lowercasing, clitics, punctuation) on the same pairs.
"""

import math
from pathlib import Path

from codajudge.baselines import CosineBow

from . import synth
from .cases import sized
from .measure import best_of, peak_mb, reset_peak

N_PAIRS = sized(100_000)


def set_cosine_floor(items: list[dict]) -> list[float]:
    out = []
    for item in items:
        a, b = item["texts"]
        left, right = set(a.split()), set(b.split())
        out.append(len(left & right) / math.sqrt(len(left) * len(right)) if left and right else 0.0)
    return out


def cosine_case(workdir: Path) -> list[dict]:
    items = synth.english_pairs(N_PAIRS)
    model = CosineBow({"id": "sts", "kind": "similarity", "dataset": "sts"})
    model.fit([])
    reset_peak()
    floor_seconds, _ = best_of(3, lambda: set_cosine_floor(items))
    kit_seconds, predicted = best_of(2, lambda: model.predict(items))
    assert len(predicted) == N_PAIRS
    kit_rate, floor_rate = N_PAIRS / kit_seconds, N_PAIRS / floor_seconds
    return [
        {
            "case": "cosine_bow baseline",
            "items": N_PAIRS,
            "seconds": kit_seconds,
            "peak_mb": peak_mb(),
            "floor_seconds": floor_seconds,
            "throughput": kit_rate,
            "floor_throughput": floor_rate,
            "throughput_ratio": kit_rate / floor_rate,
            "detail": f"{kit_rate:,.0f} pairs/s; set-cosine floor {floor_rate:,.0f} pairs/s",
        }
    ]
