"""The schema of one ``datasets`` entry: the options every importer takes, and each importer's own.

A dataset's fields depend on its ``importer`` (default ``kit``), so the table is chosen per entry
(``schema.VARIANTS['dataset']``). ``IMPORTER_OPTIONS`` must name every importer of
``codajudge.importers.IMPORTERS`` (a test holds them together): an option an importer does not take
is refused like any unknown key, before any file is read.
"""

from __future__ import annotations

from typing import Dict

from .schema import (
    ANY,
    INT,
    LIST,
    MAP,
    NUMBER,
    OBJECT,
    SPLITS,
    STR,
    STR_OR_LIST,
    BOOL,
    Field,
    VARIANTS,
)

TABLE_FORMATS = ("csv", "tsv", "jsonl", "json")


def _path(required: bool = True) -> Field:
    return Field(
        STR,
        "the release folder or file, relative to --data",
        required=required,
        example="path: data/my_release",
    )


def _files(entry: Field = Field(STR)) -> Field:
    return Field(
        MAP,
        "split -> release file name",
        keys=SPLITS,
        items=entry,
        example="files: {dev: dev.json, test: test.json}",
    )


def table_columns() -> Dict[str, Field]:
    """``columns`` of the ``table`` importer: the kit's fields -> the file's column names."""
    column = Field(STR)
    return {
        "id": Field(STR, "the column of item ids (unique within a split)", required=True),
        "texts": Field(
            LIST,
            "the columns of the item's texts, in order",
            required=True,
            items=column,
            min_items=1,
            example="texts: [sentence1, sentence2]",
        ),
        "score": Field(STR, "the column of similarity gold"),
        "label": Field(STR, "the column of the gold label (default: the annotations' majority)"),
        "annotations": Field(
            ANY,
            "a list of columns, one per annotator (its name is the annotator's, unless "
            "'annotators' is given), or one column holding each row's annotations: "
            '{column: NAME, sep: ","} (a JSON record\'s list, or text cut at sep); an empty cell '
            "or part: not labelled",
            example='annotations: {column: annotations, sep: ","}',
        ),
        "annotators": Field(
            ANY,
            "the column listing each row's annotators, comma-separated (or "
            '{column: NAME, sep: ","}), one per annotation',
        ),
        "distribution": Field(
            STR,
            "the column of soft-label gold: a JSON list in the labels' order, or a JSON object "
            "label -> probability (default: the annotations' shares)",
        ),
        "lang": Field(STR, "the column of the item's language"),
        "genre": Field(STR, "the column of the item's genre"),
    }


#: importer -> its own options (``path`` included); the common ones are in ``common_fields``.
IMPORTER_OPTIONS: Dict[str, Dict[str, Field]] = {
    "kit": {"path": _path()},
    "semeval_sts": {
        "path": _path(),
        "track": Field(
            STR, "the release's track name", required=True, example="track: track1.ar-ar"
        ),
        "lang": Field(STR, "the items' language (default: from the track name)"),
        "fallback": Field(
            MAP,
            "train/dev -> another dataset source",
            keys=("train", "dev"),
            items=Field(OBJECT, schema="dataset"),
        ),
    },
    "stsb": {"path": _path(), "files": _files()},
    "ocnli": {"path": _path(), "files": _files()},
    "chaosnli": {"path": _path(), "files": _files(Field(STR_OR_LIST))},
    "lewidi": {
        "path": _path(),
        "dataset": Field(
            STR,
            "CSC | MP | Paraphrase | VariErrNLI (2025); ArMIS | ConvAbuse | HS-Brexit | MD-Agreement (2023)",
            required=True,
        ),
        "files": _files(),
        "check_soft_label": Field(
            BOOL, "refuse a release whose soft labels disagree", default=True
        ),
        "split_in_ids": Field(
            BOOL,
            "item ids <split>-<release id>, for a release that numbers each split from 1",
            default=False,
        ),
        "label_map": Field(
            MAP,
            "an annotation as released -> the label it counts as (2023 layout)",
            items=Field(STR),
            example='label_map: {"-3": "1", "-2": "1", "-1": "1", "0": "0", "1": "0"}',
        ),
        "soft_gold": Field(
            STR,
            "annotations (the shares recomputed) | release (the file's own soft_label)",
            default="annotations",
            choices=("annotations", "release"),
            what="soft gold",
        ),
        "hard_gold": Field(
            STR,
            "majority (recomputed; ties unscored) | release (the file's hard_label, its "
            "organisers' tie-breaks kept); without it the items have no hard label",
            choices=("majority", "release"),
            what="hard gold",
        ),
    },
    "table": {
        "path": _path(required=False),
        "format": Field(
            STR,
            "csv | tsv | jsonl | json (one JSON document: an object keyed by id, or a list of "
            "records) (default: from the file's suffix, .json read as jsonl)",
            choices=TABLE_FORMATS,
            what="table format",
        ),
        "columns": Field(
            OBJECT, "the kit's fields -> the file's columns", required=True, schema=table_columns()
        ),
        "lang": Field(STR, "the items' language, when no column gives it", example="lang: en"),
        "genre": Field(STR, "the items' genre, when no column gives it"),
    },
}


def sample_fields() -> Dict[str, Field]:
    """A ``sample`` entry (``bundle/sample.py``): ``items`` items of split ``of``, chosen by ``seed``."""
    return {
        "of": Field(STR, "the split sampled", required=True, choices=SPLITS, what="split"),
        "items": Field(INT, "how many items", required=True, minimum=1),
        "seed": Field(INT, "the seed of the hash that chooses them", required=True, minimum=0),
    }


def split_fields() -> Dict[str, Field]:
    share = Field(NUMBER, "the share of the items kept", minimum=0, maximum=1)
    return {
        "train": share,
        "dev": share,
        "test": share,
        "seed": Field(INT, "the seed of the hash that assigns items", minimum=0, default=0),
        "from": Field(
            STR,
            "the release split cut (default: test; the table importer reads its one file)",
            choices=SPLITS,
            what="split",
        ),
    }


def common_fields(importer: str) -> Dict[str, Field]:
    """Options every dataset takes, whatever its importer."""
    from ..importers import IMPORTERS

    override = {k: v for k, v in IMPORTER_OPTIONS.get(importer, {}).items() if k != "fallback"}
    override = {
        k: Field(
            v.type,
            v.doc,
            items=v.items,
            keys=v.keys,
            schema=v.schema,
            choices=v.choices,
            what=v.what,
        )
        for k, v in override.items()
    }
    return {
        "importer": Field(
            STR, "the release format", default="kit", choices=tuple(IMPORTERS), what="importer"
        ),
        "where": Field(
            MAP,
            "column or field -> the value (or list of values) of the items kept",
            items=Field(STR_OR_LIST),
            example="where: {genre: main-captions}",
        ),
        "split": Field(
            OBJECT,
            "cut one release into train/dev/test by shares",
            schema=split_fields(),
            example="split: {train: 0.8, dev: 0.1, test: 0.1}",
        ),
        "splits": Field(
            MAP,
            "split -> the options that change for it",
            keys=SPLITS,
            items=Field(
                OBJECT, schema=override, example="splits: {train: {path: release/train.zip}}"
            ),
        ),
        "train": Field(
            STR,
            "'none': the dataset has no training split (baselines that learn from one are not run)",
            choices=("none",),
            what="value",
        ),
        "sample": Field(
            MAP,
            "split -> {of, items, seed}: the split is a seeded sample of another split's items "
            "(never public when that split is hidden)",
            keys=SPLITS,
            items=Field(
                OBJECT,
                schema=sample_fields(),
                example="sample: {dev: {of: test, items: 300, seed: 1}}",
            ),
        ),
        # Read by bundle/build.py (_without) and bundle/phase_gold.py, which uses it to tell two
        # splits apart; dataset_checks refuses a split excluding itself.
        "exclude": Field(
            MAP,
            "split -> another split: the items whose texts that split holds are left out of it",
            keys=SPLITS,
            items=Field(STR, choices=SPLITS, what="split"),
            example="exclude: {test: dev}",
        ),
        # Read by bundle/build.py's declared_repeats, which also refuses a split whose gold no
        # phase hides (a check across phases and datasets).
        "known_repeats": Field(
            MAP,
            "hidden-gold split -> how many of its items the release really repeats (by texts) "
            "from a public split (never items a sample copies); more are refused",
            keys=SPLITS,
            items=Field(INT, minimum=0),
            example="known_repeats: {test: 18}",
        ),
    }


def dataset_fields(value) -> Dict[str, Field]:
    """The fields of one dataset entry, chosen by its ``importer``."""
    importer = value.get("importer", "kit") if isinstance(value, dict) else "kit"
    fields = common_fields(importer)
    if importer in IMPORTER_OPTIONS:
        fields.update(IMPORTER_OPTIONS[importer])
        return fields
    for options in IMPORTER_OPTIONS.values():  # unknown importer: reported once, options unjudged
        fields.update({k: Field(ANY) for k in options})
    return fields


def register() -> None:
    VARIANTS["dataset"] = dataset_fields
