"""A sample code submission: one class, ``Model``, used once per track.

The ingestion program calls ``Model(track)``, then ``fit(train_items)`` with the training split
(gold included), then ``predict(items)`` with the items to predict (no gold). ``track`` is a dict:
``id``, ``kind`` (similarity | classification | soft_label | perspectivist), ``scale``
(categorical | ordinal | multilabel, for the last two kinds) and ``labels`` (in order).
``predict`` returns one value per item:

- similarity: a number (any scale);
- classification: a label string;
- soft_label: a list of probabilities in label order (multilabel: one [P(not), P(chosen)] pair per label);
- perspectivist: a list with one label per annotator in ``item["annotators"]`` order
  (multilabel: a list of labels per annotator).

This example uses only the standard library: character-trigram overlap for similarity, and the
training data's majority answers for everything else. Replace it with your system.
"""

from collections import Counter


def _trigrams(text):
    text = " " + text.lower() + " "
    return {text[i : i + 3] for i in range(len(text) - 2)}


def _labels_of(annotation):
    if isinstance(annotation, list):
        return annotation
    return [part.strip() for part in str(annotation).split(",") if part.strip()]


class Model:
    def __init__(self, track):
        self.track = track
        self.labels = list(track.get("labels") or [])
        self.multilabel = track.get("scale") == "multilabel"

    def fit(self, train_items):
        votes = Counter()
        by_annotator = {}
        for item in train_items:
            if item.get("label") is not None:
                votes[item["label"]] += 1
            for name, annotation in zip(
                item.get("annotators") or [], item.get("annotations") or []
            ):
                key = tuple(_labels_of(annotation)) if self.multilabel else str(annotation)
                by_annotator.setdefault(name, Counter())[key] += 1
                if not self.multilabel and item.get("label") is None:
                    votes[key] += 1
                elif self.multilabel:
                    votes.update(key)
        self.majority = (
            votes.most_common(1)[0][0] if votes else (self.labels[0] if self.labels else None)
        )
        total = sum(votes.values()) or 1
        self.distribution = [votes.get(label, 0) / total for label in self.labels]
        self.per_annotator = {name: c.most_common(1)[0][0] for name, c in by_annotator.items()}
        return self

    def predict(self, items):
        return [self._predict_one(item) for item in items]

    def _predict_one(self, item):
        kind = self.track["kind"]
        if kind == "similarity":
            a, b = (_trigrams(t) for t in item["texts"][:2])
            return 5.0 * len(a & b) / max(len(a | b), 1)
        if kind == "classification":
            return self.majority
        if kind == "soft_label":
            if self.multilabel:
                return [[1.0 - min(p, 1.0), min(p, 1.0)] for p in self.distribution]
            total = sum(self.distribution) or 1.0
            return (
                [p / total for p in self.distribution]
                if sum(self.distribution)
                else [1.0 / len(self.labels)] * len(self.labels)
            )
        fallback = [self.majority] if self.multilabel else self.majority
        answers = []
        for name in item.get("annotators") or []:
            answer = self.per_annotator.get(name, fallback)
            answers.append(list(answer) if self.multilabel else answer)
        return answers
