"""A small generated edition with one track of every kind and scale, for tests that need a bundle
without depending on the shipped sample data."""

import json
import random
import shutil
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
WORDS = "the cat dog runs fast slow red blue house car tree sky big small man woman child plays eats".split()


def _sentence(rng):
    return " ".join(rng.sample(WORDS, 5))


def _item(rng, dataset, split, i):
    a, b = _sentence(rng), _sentence(rng)
    item = {"id": f"{dataset}-{split}-{i:03d}", "texts": [a, b], "lang": "en"}
    if dataset == "sim":
        item["score"] = round(len(set(a.split()) & set(b.split())), 1)
    elif dataset == "nli":
        votes = [rng.choice(["entailment", "neutral", "contradiction"]) for _ in range(5)]
        top = max(set(votes), key=votes.count)
        item.update(
            annotators=[f"ann{k}" for k in range(1, 6)],
            annotations=votes,
            label=top if votes.count(top) >= 3 else None,
        )
    elif dataset == "sar":
        item.update(
            annotators=rng.sample([f"S{k:02d}" for k in range(1, 8)], 3),
            annotations=[rng.choice("123456") for _ in range(3)],
        )
    else:
        item.update(
            annotators=["V1", "V2", "V3"],
            annotations=[
                rng.sample(["contradiction", "entailment", "neutral"], rng.choice([1, 2]))
                for _ in range(3)
            ],
        )
    return item


def make_edition(folder: Path, name: str = "small", seed: int = 7, test_items: int = 14) -> Path:
    """Write edition.yaml, pages, logo and kit data under ``folder`` (``test_items`` items in each test
    split); returns the folder."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(REPO / "editions" / "default" / "logo.png", folder / "logo.png")
    (folder / "pages").mkdir(exist_ok=True)
    (folder / "pages" / "terms.md").write_text("# Terms\n\nTest edition.\n")
    (folder / "pages" / "overview.md").write_text("# Overview\n\nTest edition.\n")
    datasets = {}
    for dataset in ("sim", "nli", "sar", "var"):
        datasets[dataset] = {"importer": "kit", "path": f"data/{dataset}"}
        (folder / "data" / dataset).mkdir(parents=True, exist_ok=True)
        for split, n in (("train", 24), ("dev", 14), ("test", test_items)):
            rows = [_item(rng, dataset, split, i) for i in range(n)]
            (folder / "data" / dataset / f"{split}.jsonl").write_text(
                "".join(json.dumps(r, sort_keys=True) + "\n" for r in rows)
            )
    nli = ["entailment", "neutral", "contradiction"]
    var = ["contradiction", "entailment", "neutral"]
    config = {
        "name": name,
        "title": "Small test edition",
        "logo": "logo.png",
        "terms": "pages/terms.md",
        "pages": [{"title": "Overview", "file": "pages/overview.md"}],
        "phases": [
            {
                "id": "practice",
                "start": "2027-01-01 00:00:00",
                "end": "2027-01-31 23:59:59",
                "execution_time_limit": 120,
            },
            {
                "id": "evaluation",
                "start": "2027-02-01 00:00:00",
                "end": "2027-02-14 23:59:59",
                "execution_time_limit": 120,
            },
            {"id": "post-campaign", "start": "2027-02-15 00:00:00", "execution_time_limit": 120},
        ],
        "datasets": datasets,
        "tracks": [
            {"id": "sim", "kind": "similarity", "dataset": "sim"},
            {"id": "nli", "kind": "classification", "dataset": "nli", "labels": nli},
            {
                "id": "nli_soft",
                "kind": "soft_label",
                "scale": "categorical",
                "dataset": "nli",
                "labels": nli,
                "primary": False,
            },
            {
                "id": "sar_soft",
                "kind": "soft_label",
                "scale": "ordinal",
                "dataset": "sar",
                "labels": list("123456"),
                "primary": False,
            },
            {
                "id": "sar_pe",
                "kind": "perspectivist",
                "scale": "ordinal",
                "dataset": "sar",
                "labels": list("123456"),
                "primary": False,
            },
            {
                "id": "var_soft",
                "kind": "soft_label",
                "scale": "multilabel",
                "dataset": "var",
                "labels": var,
                "primary": False,
            },
            {
                "id": "var_pe",
                "kind": "perspectivist",
                "scale": "multilabel",
                "dataset": "var",
                "labels": var,
                "primary": False,
            },
        ],
    }
    (folder / "edition.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    return folder
