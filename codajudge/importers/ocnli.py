"""OCNLI (and SNLI-style) JSON lines: ``sentence1``, ``sentence2``, ``label``, ``label0..label4``, ``genre``.

Options: ``path`` (the release folder) and ``files`` (split -> file name; default ``dev`` ->
``dev.json``, ``train`` -> ``train.10k.json``; the public test file has no labels).

- ``id``: the record's ``id`` as a string (it must be unique within the file);
- ``label``: ``entailment``/``neutral``/``contradiction``; ``-`` (no class has 3 of 5 votes) -> null,
  so the item is shown to systems but not scored;
- ``annotations``: the individual votes that are one of the three classes, with ``annotators``
  ``ann0``..``ann4`` by vote position. ``unrelated``/``unknown`` votes are dropped (the item is kept);
  ``null`` votes (most train items) are absent, and an item without any valid vote has neither field.
Files need not end with a newline; ``lang`` is ``zh``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from ..errors import ConfigError, PlacedProblems, ProblemCollector
from ..formats.values import ValueProblem, add_problem
from . import SplitAbsent, unique_items
from .semeval_sts import read_release_lines
from .table import json_rows

WHERE = "datasets (importer ocnli)"
LABELS = ("entailment", "neutral", "contradiction")
NO_MAJORITY = "-"
#: Votes outside the three classes that the release is known to contain; they are not annotations.
IGNORED_VOTES = ("unrelated", "unknown")
N_VOTES = 5
#: The fields every record must have, its id first.
FIELDS = ("id", "sentence1", "sentence2", "label")
DEFAULT_FILES = {"dev": "dev.json", "train": "train.10k.json"}


def named_files(source: dict, split: str, defaults: dict[str, object], where: str):
    """The file name (or list of names) of ``split`` from the ``files`` option (a mapping split ->
    names, as the schema has checked; else ``defaults``), else SplitAbsent (``where``: the
    importer, in its message)."""
    files = source.get("files", defaults)
    if split not in files:
        known = ", ".join(sorted(files)) or "none"
        raise SplitAbsent.single(
            where,
            f"no file for the {split} split",
            expected=f"a split among: {known}",
            found=repr(split),
            hint=f"name the {split} file in the dataset's 'files' option",
        )
    return files[split]


def split_file(source: dict, split: str):
    """The release file of ``split``, also named by the "release not found" message
    (``importers.missing_releases``): every importer's ``split_file`` takes these two arguments."""
    return named_files(source, split, DEFAULT_FILES, WHERE)


def read_json_records(
    path: Path, fields: tuple[str, ...], build: Callable[[dict, PlacedProblems], dict]
) -> list[dict]:
    """Items built from each JSON object line of ``path`` that has every one of ``fields`` (the
    first: the item's id) by ``build(record, at)``, which gives the item's fields but its id (``at``:
    the problems of the record's line and item; a ValueProblem raised is the record's problem, and
    it makes no item).

    Blank lines are skipped; invalid JSON, non-objects, missing fields and duplicate item ids are
    located problems; all problems of the file are raised together as one ConfigError."""
    problems = ProblemCollector(str(path))

    def complete_item(record: dict, at: PlacedProblems) -> dict | None:
        missing = [name for name in fields if name not in record]
        if missing:
            at.add("missing field(s)", expected=", ".join(fields), found="no " + ", ".join(missing))
            return None
        at = at._replace(item=str(record[fields[0]]))
        try:
            return {"id": at.item, **build(record, at)}
        except ValueProblem as problem:  # the record's first problem that stops it
            add_problem(at, problem)
            return None

    _, records = json_rows(read_release_lines(path), "jsonl", "", problems)
    items = unique_items(records, complete_item, problems)
    problems.raise_if_any(ConfigError)
    return items


def _build_item(record: dict, at: PlacedProblems) -> dict:
    """The kit item of one OCNLI record, but its id: a ValueProblem when it cannot be read, each unknown vote
    a problem added to ``at``."""
    label = record["label"]
    if label not in LABELS and label != NO_MAJORITY:
        raise ValueProblem(
            "unknown gold label",
            expected=", ".join(LABELS) + f" or {NO_MAJORITY!r}",
            found=repr(label),
        )
    texts = [record["sentence1"], record["sentence2"]]
    if not all(isinstance(text, str) for text in texts):
        raise ValueProblem("sentence1 and sentence2 must be strings")
    item = {
        "texts": texts,
        "lang": "zh",
        "label": None if label == NO_MAJORITY else label,
    }
    if isinstance(record.get("genre"), str):
        item["genre"] = record["genre"]
    votes = {position: record.get(f"label{position}") for position in range(N_VOTES)}
    for position, vote in votes.items():
        if vote is not None and vote not in LABELS + IGNORED_VOTES:
            at.add(
                f"unknown vote in 'label{position}'",
                expected=", ".join(LABELS + IGNORED_VOTES) + " or null",
                found=repr(vote),
            )
    given = [position for position, vote in votes.items() if vote in LABELS]
    if given:  # the votes in the three classes, by vote position
        item["annotators"] = [f"ann{position}" for position in given]
        item["annotations"] = [votes[position] for position in given]
    return item


def load_split(source: dict, root: Path, split: str) -> list[dict]:
    """The OCNLI items of ``split`` (majority ``label`` and the individual 3-class votes)."""
    name = split_file(source, split)
    return read_json_records(Path(root) / source["path"] / name, FIELDS, _build_item)
