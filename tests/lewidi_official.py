"""The LeWiDi 2025 official definitions, written out as plain per-item Python for the tests.

Read straight from the release JSON (not through the kit): the most-frequent baseline of the 2025
starter kit and the official metrics (``../shared/docs/metrics.md`` §3, §4, §6), in the files'
official layouts. Nothing here imports codajudge.
"""

import json
import zipfile
from pathlib import Path

RELEASE = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "lewidi2025"
PRACTICE_ZIP = RELEASE / "data_practice_phase.zip"

#: dataset -> (labels in order, scale)
DATASETS = {
    "CSC": ([str(v) for v in range(1, 7)], "ordinal"),
    "MP": (["0", "1"], "categorical"),
    "Paraphrase": ([str(v) for v in range(-5, 6)], "ordinal"),
    "VariErrNLI": (["contradiction", "entailment", "neutral"], "multilabel"),
}


def load(dataset: str, split: str) -> dict:
    """id -> record; the train splits of CSC and MP come from the practice-phase zip."""
    loose = RELEASE / dataset / f"{dataset}_{split}.json"
    if loose.is_file():
        return json.loads(loose.read_text(encoding="utf-8"))
    with zipfile.ZipFile(PRACTICE_ZIP) as archive:
        return json.loads(archive.read(f"{dataset}/{dataset}_{split}.json").decode("utf-8"))


def annotations(record: dict) -> dict:
    """{annotator: label} (CSC practice keys have a leading space; VariErrNLI labels: a list)."""
    multilabel = "contradiction" in json.dumps(record.get("soft_label", {}))
    out = {}
    for name, label in record["annotations"].items():
        out[name.strip()] = (
            [p.strip() for p in label.split(",")] if multilabel else str(label).strip()
        )
    return out


def soft_gold(record: dict, dataset: str) -> list:
    labels, scale = DATASETS[dataset]
    given = list(annotations(record).values())
    if scale == "multilabel":
        return [
            [1 - sum(l in g for g in given) / len(given), sum(l in g for g in given) / len(given)]
            for l in labels
        ]
    return [sum(g == l for g in given) / len(given) for l in labels]


# --- the starter kit's most-frequent baseline ---------------------------------------------------


def baseline_soft(train: dict, dataset: str) -> list:
    rows = [soft_gold(r, dataset) for r in train.values()]
    if DATASETS[dataset][1] == "multilabel":
        return [[sum(row[j][b] for row in rows) / len(rows) for b in (0, 1)] for j in range(3)]
    return [sum(row[j] for row in rows) / len(rows) for j in range(len(rows[0]))]


def _most_frequent(history: list):
    counts = {}
    for value in history:
        counts[value] = counts.get(value, 0) + 1
    best = max(counts.values())
    return next(v for v in history if counts[v] == best)  # a tie goes to the value met first


def baseline_pe(train: dict, dataset: str):
    """annotator -> label (multilabel: annotator -> [0/1 per label]), and the overall fallback."""
    labels, scale = DATASETS[dataset]
    history, overall = {}, []
    for record in train.values():
        for name, label in annotations(record).items():
            value = tuple(int(l in label) for l in labels) if scale == "multilabel" else label
            history.setdefault(name, []).append(value)
            overall.append(value)
    if scale == "multilabel":
        per = {
            name: [_most_frequent([v[j] for v in values]) for j in range(3)]
            for name, values in history.items()
        }
        return per, [_most_frequent([v[j] for v in overall]) for j in range(3)]
    return {name: _most_frequent(values) for name, values in history.items()}, _most_frequent(
        overall
    )


#: The annotators the starter kit's VariErrNLI rows are written over, on every item (its
#: ``VariErrNLI_dev_pe.tsv``): the whole pool, even for an item with 3 of them.
VEN_POOL = ["Ann1", "Ann2", "Ann3", "Ann4"]


def starter_kit_names(record: dict, dataset: str) -> list:
    """The annotators the starter kit wrote an item's row over: VariErrNLI's pool, else the item's."""
    return VEN_POOL if dataset == "VariErrNLI" else list(annotations(record))


def pe_row(record: dict, dataset: str, per: dict, fallback, names=None) -> list:
    """The official layout: labels per annotator; VariErrNLI label-major 0/1 vectors. ``names``:
    the annotators the row is written over (default: the item's own)."""
    names = names or list(annotations(record))
    chosen = [per.get(name, fallback) for name in names]
    if DATASETS[dataset][1] == "multilabel":
        return [[c[j] for c in chosen] for j in range(3)]
    return chosen


# --- the official metrics -------------------------------------------------------------------------


def r5(x: float) -> float:
    return round(x, 5)


def soft_score(gold: list, pred: list, dataset: str) -> float:
    """AMD (MP), AWD (CSC, Paraphrase), MAMD (VariErrNLI): lower is better."""
    scale = DATASETS[dataset][1]
    per_item = []
    for t, p in zip(gold, pred):
        if scale == "multilabel":
            per_item.append(
                r5(sum(r5(abs(p[j][0] - t[j][0]) + abs(p[j][1] - t[j][1])) for j in range(3)) / 3)
            )
        elif scale == "categorical":
            per_item.append(r5(sum(abs(a - b) for a, b in zip(p, t))))
        else:
            total, ct, cp = 0.0, 0.0, 0.0
            for a, b in zip(t, p):
                ct, cp = ct + a, cp + b
                total += abs(ct - cp)
            per_item.append(total)
    return r5(sum(per_item) / len(per_item))


def pe_score(gold: list, pred: list, dataset: str) -> float:
    """ER (MP), ANAD (CSC, Paraphrase), MER (VariErrNLI) on per-item annotator lists; gold in the
    same layout as pred (VariErrNLI: label-major 0/1 vectors). As the organisers wrote it, a row is
    paired with the item's annotators by ``zip()``, which stops at the shorter: a row longer than
    the item's annotators has its first entries scored against them in order, the rest dropped
    (the denominator is the gold's length)."""
    labels, scale = DATASETS[dataset]
    per_item = []
    for t, p in zip(gold, pred):
        if scale == "multilabel":
            per_item.append(
                sum(r5(sum(abs(a - b) for a, b in zip(t[j], p[j])) / len(t[j])) for j in range(3))
                / 3
            )
        elif scale == "categorical":
            per_item.append(r5(sum(int(a) != int(b) for a, b in zip(t, p)) / len(t)))
        else:
            per_item.append(sum(abs(int(a) - int(b)) for a, b in zip(t, p)) / len(t) / len(labels))
    return sum(per_item) / len(per_item)


def pe_gold(record: dict, dataset: str) -> list:
    labels, scale = DATASETS[dataset]
    given = annotations(record)
    if scale == "multilabel":
        return [[int(l in g) for g in given.values()] for l in labels]
    return list(given.values())
