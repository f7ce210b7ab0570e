"""LeWiDi 2025 (3rd Learning-With-Disagreements) and 2023 (2nd, SemEval-2023 Task 11) harmonised
JSON releases -> the kit's items.

Each split file is one JSON object mapping an item id to a record with ``text``, ``annotators`` (a
comma-separated string), ``annotations``, ``soft_label``, ``lang`` and ``other_info``. The layout is
told by each record: in 2025 ``text`` is a dict of the dataset's fields and ``annotations`` an object
{annotator: label string}; in 2023 (ArMIS, ConvAbuse, HS-Brexit, MD-Agreement) ``text`` is one string
and ``annotations`` a comma-separated string in the order of ``annotators``, with a ``hard_label``
(the majority, ties broken at random by the organisers; a number, not a string, on the ConvAbuse
items whose tie was broken; one MD-Agreement test item lists an annotator twice, and both its
annotations are kept, as the release's soft label counts them). Source options of an edition's dataset entry:

- ``path``: the release folder (``<path>/<dataset>_<split>.json`` or
  ``<path>/<dataset>/<dataset>_<split>.json``) or the practice-phase zip
  (``data_practice_phase.zip``), read in place; macOS junk (``__MACOSX/``, ``._*``, ``.DS_Store``)
  is skipped;
- ``dataset``: CSC | MP | Paraphrase | VariErrNLI, or ArMIS | ConvAbuse | HS-Brexit | MD-Agreement;
  a 2023 file may sit in ``<Dataset>_dataset/``;
- ``files`` (optional): split -> file name (or path inside the folder or zip);
- ``check_soft_label`` (optional, default true): refuse a release whose own ``soft_label`` disagrees
  with its annotations by more than ``SOFT_LABEL_TOLERANCE`` (a sign the file was misread);
- ``label_map`` (optional): an annotation as released -> the label it counts as (ConvAbuse's
  severity -3..1: -3, -2, -1 -> "1", abusive; 0, 1 -> "0");
- ``soft_gold`` (optional): ``annotations`` (default: the soft-label gold is the annotations' shares)
  or ``release`` (the file's own, rounded ``soft_label``, which the 2023 scores were computed
  against: the item's ``distribution``);
- ``hard_gold`` (optional): ``majority`` (the item's ``label`` is the annotations' majority, null and
  unscored on a tie) or ``release`` (the file's ``hard_label``, the organisers' tie-breaks kept);
  without it items have no ``label``;
- ``split_in_ids`` (optional, default false): item ids ``<split>-<release id>`` (``test-17``): the
  2023 release numbers each split's items from 1, so that without it a dev file's ids are test ids.

By default gold is the annotations only; the released ``soft_label`` (rounded to 2 decimals in the
test files) is then a consistency check. Release quirks handled here: CSC practice-phase annotator keys (all but the
first) have a leading space and its soft labels a 7th, always-empty ``"0"`` bin; MP soft-label keys
are ``"0.0"``/``"1.0"`` in dev and ``"0"``/``"1"`` in test; VariErrNLI labels may be multi-valued
(``"entailment,neutral"``) and its ``annotators`` string repeats an annotator once per label; the
``split`` field of the practice-phase CSC train file says ``dev`` (ignored: the file name decides).
"""

from __future__ import annotations

import json
import zipfile
from collections import Counter
from pathlib import Path, PurePosixPath
from typing import NamedTuple

from ..errors import ConfigError, PlacedProblems, ProblemCollector
from ..formats.archive import is_ignored
from ..formats.textfile import utf8_text
from ..formats.values import ValueProblem, add_problem, unique_keys
from ..labels import label_key

#: Largest accepted gap between a released soft-label value and the share rebuilt from the
#: annotations (test files are rounded to 2 decimals, so up to 0.005 is expected).
SOFT_LABEL_TOLERANCE = 0.01


class Dataset(NamedTuple):
    """One LeWiDi dataset: its text fields (in item order; none: the text is one string, as in the
    2023 release), ordered labels and scale."""

    name: str
    text_fields: tuple[str, ...]
    labels: tuple[str, ...]
    scale: str  # categorical | ordinal | multilabel (as in codajudge.kinds.SCALES)
    genre_field: str | None = None  # key of other_info holding an obvious genre

    @property
    def multilabel(self) -> bool:
        return self.scale == "multilabel"


DATASETS: dict[str, Dataset] = {
    "CSC": Dataset("CSC", ("context", "response"), tuple(str(v) for v in range(1, 7)), "ordinal"),
    "MP": Dataset("MP", ("post", "reply"), ("0", "1"), "categorical", genre_field="source"),
    "Paraphrase": Dataset(
        "Paraphrase", ("Question1", "Question2"), tuple(str(v) for v in range(-5, 6)), "ordinal"
    ),
    "VariErrNLI": Dataset(
        "VariErrNLI",
        ("context", "statement"),
        ("contradiction", "entailment", "neutral"),
        "multilabel",
    ),
}
#: The 2023 datasets: one text string, binary labels.
for _name in ("ArMIS", "ConvAbuse", "HS-Brexit", "MD-Agreement"):
    DATASETS[_name] = Dataset(_name, (), ("0", "1"), "categorical")


def load_split(source: dict, root: Path, split: str) -> list[dict]:
    """The kit items of one split (train, dev or test) of one LeWiDi dataset, in file order; the
    schema has checked the source's options (see the module docstring)."""
    dataset = DATASETS[source["dataset"]]
    if dataset.multilabel and (source.get("soft_gold") == "release" or source.get("hard_gold")):
        raise ConfigError.single(
            "datasets (lewidi importer)",
            "soft_gold: release and hard_gold are for single-label datasets",
            hint=f"leave them out of the {dataset.name} source",
        )
    label_map = {str(k).strip(): v for k, v in (source.get("label_map") or {}).items()}
    raw, display = read_release_file(source, Path(root), dataset, split)
    records = _parse_json(raw, display)
    problems = ProblemCollector(display)
    items = []
    prefix = f"{split}-" if source.get("split_in_ids") else ""
    for item_id, record in records.items():
        at = problems.at(item=prefix + item_id)
        try:
            item = {"id": at.item, **record_to_item(record, dataset, label_map)}
        except ValueProblem as problem:
            add_problem(at, problem)
            continue
        _add_gold(item, record, dataset, source, at)
        items.append(item)
    problems.raise_if_any(ConfigError)
    return items


# --- locating and reading the split file -------------------------------------------------------


def read_release_file(source: dict, root: Path, dataset: Dataset, split: str) -> tuple[bytes, str]:
    """The bytes of the split's file and a display name, from a folder or a zip (read in place);
    the schema has checked ``path`` and ``files``."""
    name = str((source.get("files") or {}).get(split) or f"{dataset.name}_{split}.json")
    base = root / source["path"]
    try:
        if base.is_dir():
            files = [p.relative_to(base).as_posix() for p in base.rglob("*") if p.is_file()]
            member = _member(str(base), files, dataset, split, name)
            return (base / member).read_bytes(), str(base / member)
        if base.is_file() and zipfile.is_zipfile(base):
            with zipfile.ZipFile(base) as archive:
                members = [m for m in archive.namelist() if not m.endswith("/")]
                member = _member(str(base), members, dataset, split, name)
                return archive.read(member), f"{base}:{member}"
    except (zipfile.BadZipFile, OSError) as e:
        raise ConfigError.single(str(base), f"cannot read the release ({type(e).__name__}: {e})")
    raise ConfigError.single(
        str(base),
        "the LeWiDi release was not found",
        expected="a folder or a .zip holding " + name,
        found="a file that is not a zip" if base.exists() else "nothing at this path",
    )


def _member(where: str, members: list[str], dataset: Dataset, split: str, name: str) -> str:
    """The member of a release (a folder's files or a zip's members, macOS junk and dotfiles left
    out, as a submission's are: ``formats.archive.is_ignored``) that ``name`` names: that path,
    else the one file so named in the dataset's folder (``<Dataset>/`` or ``<Dataset>_dataset/``),
    else anywhere; none or several are refused."""
    members = [m for m in members if not is_ignored(PurePosixPath(m))]
    by_name = [m for m in members if PurePosixPath(m).name == PurePosixPath(name).name]
    folders = (dataset.name, f"{dataset.name}_dataset")
    under_dataset = [m for m in by_name if PurePosixPath(m).parts[0] in folders]
    chosen = [m for m in members if m == name] or under_dataset or by_name
    if len(chosen) > 1:
        raise ConfigError.single(
            where,
            f"the {split} split of {dataset.name} is ambiguous",
            expected=f"one member named {name}",
            found=", ".join(chosen[:8]),
            hint="give its full path inside the release in the source's 'files'",
        )
    if chosen:
        return chosen[0]
    hint = "name the file in the source's 'files' mapping (split -> file name)"
    if split == "train" and dataset.name in ("CSC", "MP"):
        hint = (
            "the CSC and MP training files were released only in data_practice_phase.zip; point "
            "'path' at that zip, or " + hint
        )
    elif split == "test":
        hint = "the practice-phase zip holds train and dev only; the test files came with the final release"
    related = [m for m in members if dataset.name.lower() in m.lower()] or members
    raise ConfigError.single(
        where,
        f"the {split} split of {dataset.name} is missing",
        expected=name,
        found=", ".join(sorted(related)[:8]) or "no such file",
        hint=hint,
    )


def _parse_json(raw: bytes, display: str) -> dict[str, dict]:
    """The release file's records by item id; a key repeated in one object (an item id, or an
    annotator within an item) is refused by the kit's rule on JSON keys (``formats.values``)."""
    try:
        records = json.loads(utf8_text(raw, display), object_pairs_hook=unique_keys)
    except json.JSONDecodeError as e:
        raise ConfigError.single(display, f"not valid JSON ({e.msg})", line=e.lineno)
    except ValueProblem as problem:  # a key twice in one object: an item id, or an annotator
        hint = "every item id, and every annotator within an item, must be unique"
        raise ConfigError.single(display, **{**vars(problem), "hint": hint})
    if not isinstance(records, dict):
        raise ConfigError.single(
            display,
            "the file must be one JSON object mapping item ids to records",
            found=type(records).__name__,
        )
    return records


# --- one record -> one item --------------------------------------------------------------------


def record_to_item(record, dataset: Dataset, label_map: dict[str, str]) -> dict:
    """One kit item (id left to the caller, texts, lang, genre, annotators, annotations); a
    ValueProblem, the record's first, when it cannot be read."""
    if not isinstance(record, dict):
        raise ValueProblem("an item must be a JSON object", found=type(record).__name__)
    # the item's texts: the one string (2023) or the dataset's fields of a dict (2025)
    text, fields = record.get("text"), dataset.text_fields
    texts = [text.get(f) for f in fields] if fields and isinstance(text, dict) else [text]
    if len(texts) != (len(fields) or 1) or not all(isinstance(t, str) for t in texts):
        raise ValueProblem(
            f"'text' must hold the item's {len(fields) or 'one'} text(s)",
            expected=" and ".join(f"text.{f} (a string)" for f in fields) or "text (a string)",
            found=repr(text)[:80],
        )
    annotations = record.get("annotations")
    if isinstance(annotations, str):
        pairs = _delimited_pairs(record)
    elif isinstance(annotations, dict) and annotations:
        pairs = _keyed_pairs(record, dataset)
    else:
        raise ValueProblem(
            "'annotations' must be a non-empty object {annotator: label}",
            found=repr(annotations)[:80],
        )
    item = {
        "texts": texts,
        "lang": str(record.get("lang", "")),
        "annotators": [name for name, _ in pairs],
        "annotations": [_label(name, raw, dataset, label_map) for name, raw in pairs],
    }
    listed = _listed_names(record)
    if listed is not None and len(listed) != len(pairs) and set(listed) == set(item["annotators"]):
        # VariErrNLI: a name once per label given (as released; public only where the gold is:
        # formats.items GOLD_SHAPED_FIELDS)
        item["annotators_listed"] = listed
    other = record.get("other_info")
    genre = other.get(dataset.genre_field) if isinstance(other, dict) else None
    if dataset.genre_field and isinstance(genre, str):
        item["genre"] = genre
    return item


def _delimited_pairs(record: dict) -> list[tuple[str, str]]:
    """The 2023 layout: ``annotators`` and ``annotations`` two comma-separated strings, paired in
    order, as (annotator, label as released) pairs."""
    names = _listed_names(record) or []
    labels = [a.strip() for a in record["annotations"].split(",") if a.strip()]
    if not labels or len(names) != len(labels):
        raise ValueProblem(
            "'annotators' and 'annotations' must list as many entries, one label per annotator",
            found=f"{len(names)} annotators, {len(labels)} annotations",
        )
    # a name listed twice keeps both its annotations: the release's soft_label counts both (one
    # MD-Agreement test item, 2038, lists Ann448 twice)
    return list(zip(names, labels))


def _listed_names(record: dict) -> list[str] | None:
    listed = record.get("annotators")
    return [n.strip() for n in listed.split(",") if n.strip()] if isinstance(listed, str) else None


def _keyed_pairs(record: dict, dataset: Dataset) -> list[tuple[str, object]]:
    """The 2025 layout: ``annotations`` an object {annotator: label}, as (annotator, label as
    released) pairs in the order the ``annotators`` field lists them when it does."""
    by_name: dict[str, object] = {}
    for key, label in record["annotations"].items():
        name = str(key).strip()  # CSC practice-phase keys have a leading space
        if name in by_name:
            raise ValueProblem("an annotator appears twice in 'annotations'", found=repr(key))
        by_name[name] = label
    names = _listed_names(record)
    if names is None or not record["annotators"].strip():
        return list(by_name.items())  # no order given: the order of the annotations object
    unique = list(dict.fromkeys(names))
    if len(unique) != len(names) and not dataset.multilabel:
        raise ValueProblem(
            "an annotator is listed twice in 'annotators'",
            found=repr(record["annotators"])[:80],
            hint=f"{dataset.name} items take one label per annotator",
        )
    if set(unique) != set(by_name):
        raise ValueProblem(
            "'annotators' and the keys of 'annotations' name different annotators",
            found=f"only in annotators: {sorted(set(unique) - set(by_name))[:5]}, "
            f"only in annotations: {sorted(set(by_name) - set(unique))[:5]}",
        )
    return [(name, by_name[name]) for name in unique]


def _label_text(raw) -> str | None:
    """A label as released, a string or a number, as its text (None for any other value)."""
    return str(raw).strip() if isinstance(raw, (str, int)) and not isinstance(raw, bool) else None


def _label(annotator: str, raw, dataset: Dataset, label_map: dict):
    """A label string (mapped by ``label_map``), or for multilabel datasets a list of label strings
    (split on commas); a ValueProblem for one outside the label set."""
    text = _label_text(raw)
    text = label_map.get(text, text)
    multilabel = text is not None and dataset.multilabel
    parts = [p.strip() for p in text.split(",")] if multilabel else [text]
    if any(p not in dataset.labels for p in parts):  # None (no text) included
        raise ValueProblem(
            f"annotator {annotator}'s label is outside the {dataset.name} label set",
            expected=("one or more of " if dataset.multilabel else "one of ")
            + ", ".join(dataset.labels),
            found=repr(raw)[:60],
            hint=None
            if label_map
            else "if the release annotates on another scale, map its values to the labels with "
            'the source\'s label_map (e.g. ConvAbuse\'s severity: -3, -2, -1 -> "1", 0, 1 -> "0")',
        )
    return parts if dataset.multilabel else text


# --- the gold the options choose: the release's soft label, a hard label -----------------------


def gold_choices(source: dict) -> list[tuple[str, dict[str, str]]]:
    """What the source's options choose as gold, for the Data page (none: the defaults): per part,
    the name of its template ``templates/importers/NAME.md`` and the fields it takes (the schema
    has checked the options' types): the soft gold's (the release's, or the annotations' shares
    beside a hard gold), the hard gold's, the label map's and the ids'."""
    soft, hard = source.get("soft_gold"), source.get("hard_gold")
    parts = []
    if soft == "release" or hard:
        parts.append(("lewidi_soft_release" if soft == "release" else "lewidi_soft_shares", {}))
    if hard:
        parts.append((f"lewidi_hard_{hard}", {}))
    if source.get("label_map"):
        pairs = ", ".join(f"{k} -> {v}" for k, v in source["label_map"].items())
        parts.append(("lewidi_label_map", {"pairs": pairs}))
    if source.get("split_in_ids"):
        parts.append(("lewidi_split_in_ids", {}))
    return parts


def labels_given(source: dict) -> bool:
    """Whether every item's ``label`` is the release's ``hard_label`` (``hard_gold: release``, ties
    broken by the organisers), never null as the recomputed majority is on a tie."""
    return source.get("hard_gold") == "release"


def _add_gold(item: dict, record: dict, dataset: Dataset, source: dict, at: PlacedProblems) -> None:
    """Add the item's ``distribution`` (``soft_gold: release``: the release's ``soft_label``) and
    ``label`` (``hard_gold``) as the source chooses, and check the released soft label against the
    annotations (``check_soft_label``); a problem is added to ``at`` (and refuses the file), and
    no hard gold is added after a soft gold that cannot be read."""
    soft_gold, check = source.get("soft_gold") == "release", source.get("check_soft_label", True)
    hint = (
        "or take the soft gold from the annotations (soft_gold: annotations)"
        if soft_gold
        else "set check_soft_label: false to skip this check (gold comes from the annotations)"
    )
    try:
        released = released_soft_label(record, dataset) if soft_gold or check else None
    except (ValueError, TypeError, KeyError) as e:
        at.add("'soft_label' does not fit the dataset", found=str(e)[:120], hint=hint)
        if soft_gold:
            return
        released = None
    if soft_gold and released is None:
        at.add(
            "soft_gold: release needs the item's 'soft_label'",
            expected="an object label -> probability over " + ", ".join(dataset.labels),
            found="no soft_label",
            hint=hint,
        )
        return
    if soft_gold:
        item["distribution"] = dict(zip(dataset.labels, released))
    if check and released is not None:
        _check_soft_label(item, released, dataset, at)
    hard_gold = source.get("hard_gold")
    if hard_gold == "majority":  # the label most annotators gave, None on a tie
        top = Counter(item["annotations"]).most_common(2)
        item["label"] = None if len(top) > 1 and top[0][1] == top[1][1] else top[0][0]
    elif hard_gold == "release":  # a number where ConvAbuse broke a tie, read as its text
        item["label"] = _label_text(record.get("hard_label"))
    if hard_gold == "release" and item["label"] not in dataset.labels:
        at.add(
            "hard_gold: release needs the item's 'hard_label', one of the labels",
            expected="one of " + ", ".join(dataset.labels),
            found=repr(record.get("hard_label"))[:60],
            hint="or recompute the majority from the annotations (hard_gold: majority)",
        )


# --- the released soft label, as a consistency check only -------------------------------------


def released_soft_label(record: dict, dataset: Dataset) -> list | None:
    """The release's own ``soft_label`` in label order: K shares, or per label [P(not), P(chosen)]
    for VariErrNLI; None if absent. A key names a label as ``labels.label_key`` reads it ("0.0"
    for "0"); CSC's extra "0" bin is dropped only when empty. Raises ValueError when the keys do
    not fit the dataset."""
    soft = record.get("soft_label")
    if not isinstance(soft, dict):
        return None
    if dataset.multilabel:
        return [[float(soft[label]["0"]), float(soft[label]["1"])] for label in dataset.labels]
    named = {label_key(label): label for label in dataset.labels}
    shares = {named.get(label_key(k), str(k).strip()): float(v) for k, v in soft.items()}
    empty_bin = [k for k in shares if k not in dataset.labels and label_key(k) == label_key("0")]
    for key in empty_bin:  # CSC practice phase: a 7th, always-empty "0" bin (or "0.0")
        if shares[key] == 0.0:
            del shares[key]
    if set(shares) != set(dataset.labels):
        raise ValueError(
            f"soft_label keys {sorted(shares)} do not match the labels {list(dataset.labels)}"
        )
    return [shares[label] for label in dataset.labels]


def _check_soft_label(item: dict, released: list, dataset: Dataset, at: PlacedProblems) -> None:
    """A problem when the ``released`` soft label is further than ``SOFT_LABEL_TOLERANCE`` from the
    shares of the item's annotations."""
    # per label, the share of the item's annotations choosing it (multilabel: among their labels)
    given = [a if dataset.multilabel else [a] for a in item["annotations"]]
    rebuilt = [sum(label in labels for labels in given) / len(given) for label in dataset.labels]
    got, want = released, rebuilt
    if dataset.multilabel:  # per label [P(not chosen), P(chosen)]
        got = [share for pair in released for share in pair]
        want = [p for share in rebuilt for p in (1.0 - share, share)]
    if max(abs(a - b) for a, b in zip(got, want)) > SOFT_LABEL_TOLERANCE:
        at.add(
            "the released 'soft_label' disagrees with the annotations",
            expected=f"shares {[round(r, 4) for r in rebuilt]} (within {SOFT_LABEL_TOLERANCE})",
            found=str(released)[:120],
            hint="check the file; set check_soft_label: false to skip this check",
        )
