"""ChaosNLI JSON lines: SNLI / MNLI items relabelled by 100 crowd workers each.

Options: ``path`` (the release folder) and ``files`` (split -> a file name or a list of names, read
in order and concatenated; required, since ChaosNLI has no splits of its own), e.g.
``{test: [chaosNLI_snli.jsonl, chaosNLI_mnli_m.jsonl]}``.

- ``id``: the record's ``uid``; ``texts``: ``example.premise`` and ``example.hypothesis``;
  ``genre``: ``example.source`` (``snli_agree_3`` / ``mnli_agree_3``); ``lang``: ``en``;
- ``label_count`` holds the votes in the fixed order [e, n, c] (README; checked against
  ``label_counter`` when present) and is expanded into one annotation per vote, sorted by label
  name so the output is deterministic, for annotators ``a000``..``a099`` (the workers are anonymous:
  annotator ids carry no identity across items);
- ``label``: ``majority_label`` as a full name. On ties (14 items in each released file) the release's
  choice is kept, so the label of those items is one of the tied classes, not "no majority".
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from ..errors import ConfigError, PlacedProblems, first_few
from ..formats.values import ValueProblem
from .ocnli import named_files, read_json_records

WHERE = "datasets (importer chaosnli)"
#: The fields every record must have, its id first.
FIELDS = ("uid", "example", "label_count", "majority_label")
#: Letter codes in the order of ``label_count`` / ``label_dist`` -> the kit's label names. The
#: importer reads the release's own codes with this table, before any track exists: the only place
#: the kit maps e, n, c itself. A submission's letters (``predicted_label``) are read through the
#: track's ``LabelSet``, whose ``label_aliases`` the chaosnli edition declares as this same mapping
#: (tests/test_formats_chaosnli.py checks the two agree).
CODES = ("e", "n", "c")
NAMES = {"e": "entailment", "n": "neutral", "c": "contradiction"}


def _counts(record: dict) -> list[int]:
    """The vote counts in [e, n, c] order; a ValueProblem when they cannot be."""
    counts = record["label_count"]
    three = isinstance(counts, list) and len(counts) == len(CODES)
    if not three or not all(type(c) is int and c >= 0 for c in counts) or sum(counts) == 0:
        raise ValueProblem(
            "'label_count' must be 3 vote counts [e, n, c]",
            expected="e.g. [30, 70, 0]",
            found=repr(counts)[:60],
        )
    counter = record.get("label_counter")
    if isinstance(counter, dict) and [counter.get(code, 0) for code in CODES] != counts:
        raise ValueProblem(
            "'label_count' disagrees with 'label_counter'",
            expected=f"counts in the order {CODES}",
            found=f"{counts} vs {counter}",
        )
    return counts


def _build_item(record: dict, at: PlacedProblems) -> dict:
    """The kit item of one ChaosNLI record, but its id; a ValueProblem, its first, when it cannot be read."""
    example = record["example"]
    texts = [example.get(k) for k in ("premise", "hypothesis")] if isinstance(example, dict) else []
    if not texts or not all(isinstance(text, str) for text in texts):
        raise ValueProblem("'example' must hold a string premise and hypothesis")
    counts = _counts(record)
    code = record["majority_label"]  # a most-voted class
    if not isinstance(code, str) or code not in NAMES or counts[CODES.index(code)] != max(counts):
        raise ValueProblem(
            "'majority_label' is not a most-voted class",
            expected=" or ".join(c for c, n in zip(CODES, counts) if n == max(counts)),
            found=repr(code),
        )
    annotations = sorted(NAMES[code] for code, n in zip(CODES, counts) for _ in range(n))
    width = max(3, len(str(len(annotations) - 1)))
    item = {
        "texts": texts,
        "lang": "en",
        "annotators": [f"a{k:0{width}d}" for k in range(len(annotations))],
        "annotations": annotations,
        "label": NAMES[code],
    }
    if isinstance(example.get("source"), str):
        item["genre"] = example["source"]
    return item


def split_file(source: dict, split: str):
    """The release file(s) of ``split`` (the ``files`` option), also named by the "release not
    found" message (``importers.missing_releases``)."""
    return named_files(source, split, {}, WHERE)


def load_split(source: dict, root: Path, split: str) -> list[dict]:
    """The ChaosNLI items of ``split``: 100 expanded votes each and the majority ``label``."""
    folder = Path(root) / source["path"]
    names = split_file(source, split)
    names = [names] if isinstance(names, str) else names
    items: list[dict] = []
    for name in names:
        items.extend(read_json_records(folder / name, FIELDS, _build_item))
    repeated = [key for key, count in Counter(item["id"] for item in items).items() if count > 1]
    if repeated:
        raise ConfigError.single(
            WHERE,
            f"an item id is repeated across the {split} split's files",
            expected="each id once per split",
            found=first_few(list(map(repr, repeated))),
        )
    return items


def labels_given(source: dict) -> bool:
    """Every item's label is the release's ``majority_label`` (on a tie, the release's choice)."""
    return True
