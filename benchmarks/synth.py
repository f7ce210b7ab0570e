"""Synthetic phases for the benchmark: gold items, submissions and task.json, from a fixed seed.

Everything is written with the kit's own writers (``spec.write_spec``, ``formats.items.write_items``,
``formats.write.write_prediction``), so the files are what the builder and the ingestion step write.
Texts come from a pool of English-like sentences; gold and predictions are correlated so that scores
are ordinary numbers, not degenerate ones.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Sequence

import numpy as np

from codajudge.formats.items import reference_view, write_items
from codajudge.formats.write import write_prediction
from codajudge.spec import TaskSpec, write_spec
from codajudge.stats.bootstrap import DEFAULT_SEED
from codajudge.tracks import Track, track_from_dict

SEED = 2025

WORDS = (
    "the a man woman child dog cat bird horse car bus train plane boat house street park beach city "
    "field river table chair kitchen window door road bridge market school office garden tree flower "
    "is are was were runs walks plays eats drinks reads writes sings rides drives cooks cuts opens "
    "holds throws catches watches sits stands jumps sleeps talks looks smiles laughs waits climbs "
    "red blue green small big young old happy quiet fast slow black white brown long short new "
    "in on at near with under over behind into through across along from to of and but while"
).split()
CLITICS = ("don't", "it's", "can't", "she's", "they're", "we've", "isn't", "I'm", "you'll", "he'd")
NLI = ("contradiction", "entailment", "neutral")
GENRES = ("news", "captions", "forums")


@dataclass(frozen=True)
class TrackCase:
    """One synthetic track: its config and how many items, annotators and labels it has."""

    track: dict
    n_items: int
    n_annotators: int = 0  # per item (annotation kinds)
    pool: int = 200  # annotators in the whole dataset
    text_words: int = 12  # words per text, on average

    @property
    def kind(self) -> str:
        return self.track["kind"]

    def as_track(self) -> Track:
        return track_from_dict(self.track)


def sentence_pool(rng: random.Random, size: int, words: int) -> list[str]:
    """``size`` sentences of about ``words`` words, capitalised, with a clitic now and then."""
    out = []
    for _ in range(size):
        n = max(3, words + rng.randint(-3, 3))
        tokens = rng.choices(WORDS, k=n)
        if rng.random() < 0.3:
            tokens[rng.randrange(n)] = rng.choice(CLITICS)
        text = " ".join(tokens)
        out.append(text[0].upper() + text[1:] + rng.choice((".", ".", "!", "?", ", really.")))
    return out


def text_pairs(n: int, words: int, seed: int) -> list[list[str]]:
    """``n`` text pairs whose second text rewrites part of the first (graded word overlap)."""
    rng = random.Random(seed)
    pool = sentence_pool(rng, 4000, words)
    pairs = []
    for i in range(n):
        first = pool[rng.randrange(len(pool))]
        tokens = first.split()
        for k in rng.sample(range(len(tokens)), rng.randrange(len(tokens) + 1)):
            tokens[k] = rng.choice(WORDS)
        pairs.append([first, " ".join(tokens)])
    return pairs


def _annotator_sets(n_items: int, per_item: int, pool: int, rng: np.random.Generator) -> np.ndarray:
    """(n_items, per_item) distinct annotator numbers per item: a random start and a stride prime to ``pool``."""
    strides = np.array([s for s in range(1, pool) if np.gcd(s, pool) == 1])
    start = rng.integers(0, pool, n_items)
    stride = strides[rng.integers(0, len(strides), n_items)]
    return (start[:, None] + stride[:, None] * np.arange(per_item)[None, :]) % pool


def gold_items(case: TrackCase, seed: int = SEED) -> list[dict]:
    """Kit items with gold for ``case``: texts, lang, annotators and annotations, score or label; a
    genre as STS Benchmark and OCNLI have one (similarity, classification), none as LeWiDi has none."""
    rng = np.random.default_rng(seed)
    n = case.n_items
    texts = text_pairs(n, case.text_words, seed)
    ids = [f"{case.track['dataset']}-{i:07d}" for i in range(n)]
    genre = rng.integers(0, len(GENRES), n)
    base = [{"id": ids[i], "texts": texts[i], "lang": "en"} for i in range(n)]
    if case.kind in ("similarity", "classification"):
        for item, g in zip(base, genre):
            item["genre"] = GENRES[g]
    if case.kind == "similarity":
        scores = np.round(rng.uniform(0, 5, n), 2).tolist()
        for item, score in zip(base, scores):
            item["score"] = score
        return base
    labels = case.track["labels"]
    names = [f"A{k:03d}" for k in range(case.pool)]
    who = _annotator_sets(n, case.n_annotators, case.pool, rng)
    leaning = rng.integers(
        0, len(labels), n
    )  # each item leans to one label, so annotators mostly agree
    votes = np.where(
        rng.random((n, case.n_annotators)) < 0.6,
        leaning[:, None],
        rng.integers(0, len(labels), (n, case.n_annotators)),
    )
    second = rng.integers(0, len(labels), (n, case.n_annotators))
    double = rng.random((n, case.n_annotators)) < 0.3
    for i, item in enumerate(base):
        item["annotators"] = [names[a] for a in who[i]]
        if case.track.get("scale") == "multilabel":
            item["annotations"] = [
                sorted({labels[v], labels[s]}) if d else [labels[v]]
                for v, s, d in zip(votes[i], second[i], double[i])
            ]
        else:
            item["annotations"] = [labels[v] for v in votes[i]]
        if case.kind == "classification":
            counts = np.bincount(votes[i], minlength=len(labels))
            item["label"] = (
                labels[int(counts.argmax())] if counts.max() * 2 > case.n_annotators else None
            )
    return base


def predictions(
    case: TrackCase, items: Sequence[dict], seed: int = SEED + 1, noise: float = 0.3
) -> list:
    """A plausible system's values for ``items``: gold plus ``noise`` (0 = the gold itself)."""
    rng = np.random.default_rng(seed)
    n = len(items)
    kind, scale = case.kind, case.track.get("scale")
    labels = case.track.get("labels", [])
    if kind == "similarity":
        gold = np.array([it["score"] for it in items])
        return (gold + rng.normal(0, 5 * noise, n)).tolist()
    if kind == "classification":
        drawn = rng.integers(0, len(labels), n)
        keep = rng.random(n) >= noise
        return [
            it["label"] if k and it["label"] is not None else labels[d]
            for it, k, d in zip(items, keep, drawn)
        ]
    if kind == "soft_label":
        return _soft_predictions(items, labels, scale, noise, rng)
    out = []
    flip = rng.random((n, case.n_annotators)) < noise
    drawn = rng.integers(0, len(labels), (n, case.n_annotators))
    for i, it in enumerate(items):
        row = []
        for k, annotation in enumerate(it["annotations"]):
            if not flip[i, k]:
                row.append(annotation)
            else:
                row.append([labels[drawn[i, k]]] if scale == "multilabel" else labels[drawn[i, k]])
        out.append(row)
    return out


def _soft_predictions(items, labels, scale, noise, rng) -> list:
    k = len(labels)
    index = {label: j for j, label in enumerate(labels)}
    n = len(items)
    if scale == "multilabel":
        chosen = np.zeros((n, k))
        for i, it in enumerate(items):
            for annotation in it["annotations"]:
                for label in annotation:
                    chosen[i, index[label]] += 1.0 / len(it["annotations"])
        p = np.clip((1 - noise) * chosen + noise * rng.random((n, k)), 0.0, 1.0)
        return np.stack([1.0 - p, p], axis=2).tolist()
    gold = np.zeros((n, k))
    for i, it in enumerate(items):
        for annotation in it["annotations"]:
            gold[i, index[annotation]] += 1.0
    gold /= gold.sum(axis=1, keepdims=True)
    p = (1 - noise) * gold + noise * rng.dirichlet(np.ones(k), n)
    return (p / p.sum(axis=1, keepdims=True)).tolist()


def task_spec(tracks: Sequence[Track], extra: dict | None = None) -> TaskSpec:
    """The evaluation phase's spec (gold hidden, as on the platform's main phase)."""
    return TaskSpec(
        edition="bench",
        title="Benchmark",
        phase="evaluation",
        tracks=list(tracks),
        hide_gold=True,
        seed=DEFAULT_SEED,
        extra=dict(extra or {}),
    )


def write_reference(ref: Path, spec: TaskSpec, items_by_dataset: dict[str, list[dict]]) -> None:
    """INPUT/ref: task.json and one gold ``<dataset>.jsonl`` per dataset, as the kit's builder writes
    reference data (``reference_view``: no texts, which are public inputs)."""
    ref.mkdir(parents=True, exist_ok=True)
    write_spec(ref, spec)
    for dataset, items in items_by_dataset.items():
        write_items(ref / f"{dataset}.jsonl", [reference_view(it) for it in items])


def write_submission(
    res: Path, track: Track, items: Sequence[dict], values: list, positional: bool = False
) -> Path:
    """INPUT/res/<track>.tsv: ``id<TAB>value`` lines, or SemEval positional scores (one per line)."""
    res.mkdir(parents=True, exist_ok=True)
    path = res / f"{track.id}.tsv"
    if positional:
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write("".join(f"{float(v)!r}\n" for v in values))
    else:
        write_prediction(path, track, [it["id"] for it in items], values)
    return path


def english_pairs(n: int, seed: int = SEED) -> list[dict]:
    """Public items of a similarity track: ``n`` English text pairs (the cosine baseline's input)."""
    return [
        {"id": f"pair-{i:07d}", "texts": pair, "lang": "en"}
        for i, pair in enumerate(text_pairs(n, 12, seed))
    ]
