"""A small edition with one track of every kind and scale, its gold items, valid predictions, and
the strings that would reveal its gold (for leak checks). Everything is generated, deterministic.

Gold similarity scores carry six distinctive decimals, and soft-label gold is built from 7 (or 3)
annotators, so that a message echoing a gold value is easy to spot.
"""

import json
import random
from pathlib import Path

NLI = ["entailment", "neutral", "contradiction"]
ORDINAL = ["1", "2", "3", "4", "5", "6"]
ANNOTATOR_POOL = [f"ann{k}" for k in range(1, 10)]
N_ITEMS = 8
#: The item whose value the value-level cases break (third line of a file in gold order).
BAD_INDEX = 2
#: An item with only three annotators (its soft-label gold is in thirds).
SMALL_INDEX = 5
#: The last item: no annotator at all (not scored; a perspectivist prediction for it is ``[]``), and
#: texts with U+2028 and U+0085, which are text inside a JSON line, not line ends.
EMPTY_INDEX = N_ITEMS

TRACKS = [
    {"id": "sim", "kind": "similarity", "dataset": "sts", "primary": True},
    {"id": "cls", "kind": "classification", "dataset": "nli", "labels": NLI, "primary": True},
    {
        "id": "soft_cat",
        "kind": "soft_label",
        "scale": "categorical",
        "dataset": "nli",
        "labels": NLI,
        "primary": False,
    },
    {
        "id": "soft_ord",
        "kind": "soft_label",
        "scale": "ordinal",
        "dataset": "csc",
        "labels": ORDINAL,
        "primary": False,
    },
    {
        "id": "soft_ml",
        "kind": "soft_label",
        "scale": "multilabel",
        "dataset": "ver",
        "labels": NLI,
        "primary": False,
    },
    {
        "id": "persp_cat",
        "kind": "perspectivist",
        "scale": "categorical",
        "dataset": "nli",
        "labels": NLI,
        "primary": False,
    },
    {
        "id": "persp_ord",
        "kind": "perspectivist",
        "scale": "ordinal",
        "dataset": "csc",
        "labels": ORDINAL,
        "primary": False,
    },
    {
        "id": "persp_ml",
        "kind": "perspectivist",
        "scale": "multilabel",
        "dataset": "ver",
        "labels": NLI,
        "primary": False,
    },
]
TRACK_BY_ID = {t["id"]: t for t in TRACKS}
PREFIX = {"sts": "s", "nli": "n", "csc": "c", "ver": "v"}


def spec(phase: str = "evaluation") -> dict:
    return {
        "edition": "hostile-test",
        "title": "Hostile corpus edition",
        "phase": phase,
        "hide_gold": phase != "practice",
        "seed": 7,
        "tracks": TRACKS,
        "bootstrap_resamples": 200,
    }  # intervals stay seeded and tested, at a fifth of the default cost


def _annotators(rng: random.Random, index: int) -> list[str]:
    n = 3 if index == SMALL_INDEX else 7
    return sorted(rng.sample(ANNOTATOR_POOL, n), key=ANNOTATOR_POOL.index)


def _dataset_items(dataset: str) -> list[dict]:
    rng = random.Random(f"hostile-{dataset}")
    items = []
    for i in range(N_ITEMS):
        item = {
            "id": f"{PREFIX[dataset]}{i + 1:02d}",
            "texts": [f"first text {i}", f"second text {i}"],
            "lang": "en",
        }
        if dataset == "sts":
            # six distinctive decimals, never equal to a submitted value
            item["score"] = round(rng.uniform(0.05, 4.95), 6)
        else:
            names = _annotators(rng, i)
            item["annotators"] = names
            if dataset == "nli":
                votes = [rng.choice([NLI[i % 3]] * 3 + NLI) for _ in names]
                item["annotations"] = votes
                top = max(NLI, key=votes.count)
                item["label"] = None if i == 4 or votes.count(top) * 2 <= len(votes) else top
            elif dataset == "csc":
                item["annotations"] = [rng.choice(ORDINAL) for _ in names]
            else:
                item["annotations"] = [
                    sorted(rng.sample(NLI, rng.choice([1, 1, 2])), key=NLI.index) for _ in names
                ]
        items.append(item)
    items.append(_empty_item(dataset, rng))
    return items


def _empty_item(dataset: str, rng: random.Random) -> dict:
    """An item without annotators (as an OCNLI train item without votes) whose texts hold U+2028 and U+0085."""
    item = {
        "id": f"{PREFIX[dataset]}{EMPTY_INDEX + 1:02d}",
        "lang": "en",
        "texts": ["line\u2028separator inside a text", "next\u0085line inside a text"],
    }
    if dataset == "sts":
        item["score"] = round(rng.uniform(0.05, 4.95), 6)
    else:
        item.update(annotators=[], annotations=[])
        if dataset == "nli":
            item["label"] = None
    return item


GOLD: dict[str, list[dict]] = {d: _dataset_items(d) for d in PREFIX}


def items_of(track_id: str) -> list[dict]:
    return GOLD[TRACK_BY_ID[track_id]["dataset"]]


def write_reference(ref_dir: Path, phase: str = "evaluation") -> None:
    """task.json and one <dataset>.jsonl of gold per dataset, as the bundle's reference data holds."""
    ref_dir.mkdir(parents=True, exist_ok=True)
    (ref_dir / "task.json").write_text(
        json.dumps(spec(phase), indent=1, sort_keys=True), encoding="utf-8"
    )
    for dataset, items in GOLD.items():
        text = "".join(json.dumps(it, sort_keys=True, ensure_ascii=False) + "\n" for it in items)
        (ref_dir / f"{dataset}.jsonl").write_text(text, encoding="utf-8")


def valid_value(track_id: str, index: int) -> str:
    """A valid prediction for one item (never equal to its gold), as the text after the tab."""
    track = TRACK_BY_ID[track_id]
    item = items_of(track_id)[index]
    kind, scale = track["kind"], track.get("scale")
    if kind == "similarity":
        return f"{1.5 + 0.37 * index:.2f}"
    if kind == "classification":
        return NLI[index % 3]
    if kind == "soft_label":
        if scale == "categorical":
            return json.dumps([[0.2, 0.3, 0.5], [0.5, 0.2, 0.3], [0.3, 0.5, 0.2]][index % 3])
        if scale == "ordinal":
            return json.dumps([0.05, 0.1, 0.2, 0.3, 0.2, 0.15])
        return json.dumps([[0.4, 0.6], [0.7, 0.3], [0.5, 0.5]])
    names = item["annotators"]
    if scale == "categorical":
        return json.dumps([NLI[(index + k) % 3] for k in range(len(names))])
    if scale == "ordinal":
        return json.dumps(
            [str(2 + (index + k) % 3) if k % 2 else 2 + (index + k) % 3 for k in range(len(names))]
        )
    return json.dumps([[NLI[k % 3]] if k % 2 else [NLI[0], NLI[2]] for k in range(len(names))])


def valid_lines(track_id: str) -> list[str]:
    """ID<TAB>VALUE lines for every item of the track, in gold order, without line ends."""
    return [f"{it['id']}\t{valid_value(track_id, i)}" for i, it in enumerate(items_of(track_id))]


def valid_file(track_id: str) -> bytes:
    return ("\n".join(valid_lines(track_id)) + "\n").encode("utf-8")


def gold_markers(strict: bool = True) -> list[str]:
    """Strings that would reveal gold: similarity scores (6 and 4 decimals), the JSON of every item's
    annotations, and (``strict``) soft-label probabilities: 7ths at 4 decimals, 3rds at 6 (the
    format's own example shows 0.3333)."""
    markers = []
    for it in GOLD["sts"]:
        markers += [f"{it['score']:.6f}".rstrip("0"), f"{it['score']:.4f}"]
    for dataset in ("nli", "csc", "ver"):
        for it in filter(lambda it: it["annotations"], GOLD[dataset]):  # "[]" reveals nothing
            markers.append(json.dumps(it["annotations"]))
            markers.append(json.dumps(it["annotations"], ensure_ascii=False, separators=(",", ":")))
    if strict:
        markers += [f"{k / 7:.4f}" for k in range(1, 7)] + [f"{k / 3:.6f}" for k in (1, 2)]
    return sorted(set(markers))
