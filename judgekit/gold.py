"""Gold for one track, built from the kit's items: the arrays the metrics compare against.

Soft labels are rebuilt from the individual annotations (never from released, rounded soft labels);
perspectivist gold is each annotator's own label, in the item's annotator order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional

import numpy as np

from .errors import ConfigError, ProblemCollector
from .metrics import PerAnnotator
from .tracks import Track


def split_multilabel(annotation) -> List[str]:
    """A multilabel annotation as a list of labels: a list, or a comma-separated string."""
    if isinstance(annotation, list):
        return [str(a).strip() for a in annotation]
    return [part.strip() for part in str(annotation).split(",") if part.strip()]


@dataclass
class GoldTrack:
    """Gold for one track. ``ids`` are all items a submission must cover, in file order;
    ``scored`` marks those with gold (classification items without a majority are not scored)."""

    track: Track
    ids: List[str]
    scored: np.ndarray
    gold: object
    annotators: List[List[str]] = field(default_factory=list)
    groups: Dict[str, List[str]] = field(default_factory=dict)  # 'lang'/'genre' -> value per item

    @property
    def n_scored(self) -> int:
        return int(self.scored.sum())


def _annotation_index(track: Track, problems: ProblemCollector, item_id: str):
    index = track.label_index()

    def lookup(label) -> Optional[int]:
        key = str(label).strip()
        if key not in index:
            problems.add("annotation outside the track's label set", item=item_id,
                         expected=", ".join(track.labels), found=repr(label))
            return None
        return index[key]
    return lookup


def build_gold(track: Track, items: List[dict], display: str) -> GoldTrack:
    """Gold arrays for ``track`` from its dataset's items; organiser data errors raise ConfigError."""
    problems = ProblemCollector(display)
    ids = [it["id"] for it in items]
    scored = np.ones(len(items), dtype=bool)
    groups = {g: [str(it.get(g, "")) for it in items] for g in ("lang", "genre") if any(g in it for it in items)}
    annotators: List[List[str]] = []
    if track.kind == "similarity":
        values = []
        for it in items:
            score = it.get("score")
            if isinstance(score, bool) or not isinstance(score, (int, float)) or not np.isfinite(score):
                problems.add("gold 'score' must be a finite number", item=it["id"], found=repr(score))
                score = 0.0
            values.append(float(score))
        gold = np.array(values, dtype=float)
    elif track.kind == "classification":
        index = track.label_index()
        values = []
        for i, it in enumerate(items):
            label = it.get("label")
            if label is None:
                scored[i] = False
                values.append(-1)
            elif str(label) not in index:
                problems.add("gold label outside the track's label set", item=it["id"],
                             expected=", ".join(track.labels), found=repr(label))
                values.append(-1)
            else:
                values.append(index[str(label)])
        gold = np.array(values, dtype=np.int64)
    else:
        gold, annotators = _build_annotation_gold(track, items, problems, scored)
    problems.raise_if_any(ConfigError)
    return GoldTrack(track=track, ids=ids, scored=scored, gold=gold, annotators=annotators, groups=groups)


def _build_annotation_gold(track: Track, items, problems: ProblemCollector, scored: np.ndarray):
    n_labels = len(track.labels)
    multilabel = track.scale == "multilabel"
    annotators: List[List[str]] = []
    soft = np.zeros((len(items), n_labels, 2) if multilabel else (len(items), n_labels))
    rows, row_item = [], []
    for i, it in enumerate(items):
        names = it.get("annotators") or []
        labels = it.get("annotations") or []
        if len(names) != len(labels):
            problems.add("item needs one 'annotations' entry per annotator", item=it["id"],
                         expected="equal lists", found=f"{len(names)} annotators, {len(labels)} labels")
        if not names or len(names) != len(labels):
            scored[i] = False  # no annotation (e.g. an OCNLI train item without votes): not scored
            annotators.append([])
            continue
        annotators.append([str(a) for a in names])
        lookup = _annotation_index(track, problems, it["id"])
        for label in labels:
            if multilabel:
                chosen = np.zeros(n_labels)
                for part in split_multilabel(label):
                    j = lookup(part)
                    if j is not None:
                        chosen[j] = 1.0
                rows.append(chosen)
            else:
                j = lookup(label)
                rows.append(j if j is not None else 0)
            row_item.append(i)
        item_rows = np.array(rows[-len(labels):], dtype=float)
        if multilabel:
            share = item_rows.mean(axis=0)
            soft[i, :, 1] = share
            soft[i, :, 0] = 1.0 - share
        else:
            soft[i] = np.bincount(item_rows.astype(np.int64), minlength=n_labels) / len(labels)
    if track.kind == "soft_label":
        return soft, annotators
    values = np.array(rows, dtype=float if multilabel else np.int64)
    if multilabel:
        values = values.reshape(-1, n_labels)
    per_annotator = PerAnnotator(values=values, item=np.array(row_item, dtype=np.int64),
                                 n_items=len(items), n_labels=n_labels)
    return per_annotator, annotators
