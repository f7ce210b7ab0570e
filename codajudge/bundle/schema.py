"""The edition config's schema: one table of fields, walked by one validator, published as JSON Schema.

Every key an ``edition.yaml`` may hold is declared here once (a track's keys in
``tracks.TRACK_FIELDS``, which also checks a phase's ``task.json``), with its type, whether it is
required, its default, its allowed values and its check (``codajudge.fields``): the top level,
phases, datasets (the options common to every importer and each importer's own:
``IMPORTER_OPTIONS``, which must name every importer of ``codajudge.importers.IMPORTERS``), tracks,
pages and the leaderboard. ``validate_config`` walks a loaded config against it before any data file is
read and returns every problem at once, each naming the file, the key path, what was expected, what
was found and a fix. ``json_schema`` turns the same table into a JSON Schema
(``docs/edition.schema.json``, ``codajudge schema``) for editors, and ``markdown_reference`` into
the reference tables of ``docs/edition-config.md``.

Cross-field rules (phase dates in order, files that exist, a track's dataset declared, a metric that
applies to the track's kind) are checked afterwards by ``edition.load_edition`` and ``tracks``, on a
config that has passed this schema.
"""

from __future__ import annotations

import dataclasses
import re

from ..errors import Problem
from .. import kinds
from ..baselines import BASELINES
from ..fields import ANY, BOOL, INT, LIST, MAP, NUMBER, OBJECT, STR, STR_OR_LIST
from ..fields import Field, Type, Walk, check_object, choice, resolve, shown, string_map, strings
from ..importers import IMPORTERS, SPLIT_SYNONYMS, SPLITS
from ..importers.lewidi import DATASETS as LEWIDI_DATASETS
from ..importers.table import FORMS as TABLE_FORMS, FORM_SYNONYMS, one_column_or
from ..metrics import REGISTRY as METRICS
from .check.findings import is_email, is_uuid
from ..spec import PHASES, PRIMARY_SCORE_FIELDS
from ..stats.bootstrap import DEFAULT_SEED
from ..stats.ranking import GROUP_MEAN_RANK, GROUP_ORDERS
from ..baselines.interface import KIT_IMAGE
from ..tracks import TRACK_FIELDS, track_fields
from .check.leaderboard import SUBMISSION_RULES
from .schedule import config_date


#: The text of a date in the config (``schedule.DATE_FORMAT``), whatever its day and time.
DATE_PATTERN = r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$"


def _check_date(walk: Walk, where: str, label: str, value, spec: Field) -> None:
    """A date ``schedule.config_date`` reads: of its format, and a day and time that exist."""
    try:
        config_date(value)
    except (TypeError, ValueError):
        message, expected = "is not a UTC date and time", "'YYYY-MM-DD HH:MM:SS' (quoted)"
        if isinstance(value, str) and re.match(DATE_PATTERN, value):  # of the format: a day off
            message = "names a day or time that does not exist"
            expected = "a day of the calendar (February has 28 days, 29 in a leap year; April, "
            expected += "June, September and November 30) and a time from 00:00:00 to 23:59:59"
        hint = f'e.g. {label.strip(chr(39))}: "2027-03-01 00:00:00"'
        walk.add(where, f"{label} {message}", expected=expected, found=shown(value), hint=hint)


DATE = Type("date", _check_date, {"type": "string", "pattern": DATE_PATTERN})


def validate_config(raw: dict, display: str) -> list[Problem]:
    """Every problem of a loaded edition config (a mapping: ``config_yaml.load_config_yaml``) against the
    schema (empty when it conforms)."""
    walk = Walk(display)
    check_object(walk, "", raw, TOP_LEVEL_FIELDS)
    return walk.problems


def known_part(value, spec: Field):
    """``value`` (checked against ``spec`` by ``validate_config``) without the keys, at any depth,
    that ``spec`` does not declare: each is reported as an unknown key and leaves the rest readable.
    """
    if spec.check is not None:  # a field with its own check: the schema does not walk it
        return value
    if isinstance(value, dict) and spec.type in (OBJECT, MAP):
        # a map without ``keys`` takes any key, each holding its ``items``
        by_key = dict.fromkeys(spec.keys or value, spec.items)
        fields = resolve(spec.schema, value) if spec.type == OBJECT else by_key
        return {
            key: known_part(entry, fields[key]) for key, entry in value.items() if key in fields
        }
    if isinstance(value, list) and spec.type == LIST:
        return [known_part(entry, spec.items) for entry in value]
    return value


# --- the tables ------------------------------------------------------------------------------------


def _objects(doc: str, fields: dict[str, Field], required: bool = False) -> Field:
    """A list of mappings, each of ``fields``."""
    return Field(LIST, doc, required=required, items=Field(OBJECT, schema=fields))


def _object(doc: str, fields: dict[str, Field], example: str = "") -> Field:
    return Field(OBJECT, doc, schema=fields, example=example)


def _per_split(doc: str, items: Field, example: str = "") -> Field:
    """A mapping from some of the splits to ``items``."""
    return Field(MAP, doc, keys=SPLITS, items=items, synonyms=SPLIT_SYNONYMS, example=example)


def _split(doc: str, required: bool = False) -> Field:
    """The name of one of the splits."""
    return choice(doc, SPLITS, "split", required=required, synonyms=SPLIT_SYNONYMS)


def _count(doc: str, minimum: int = 0, maximum: int = 2**31 - 1, default=None) -> Field:
    """A count; its upper bound by default: Codabench stores limits as PostgreSQL integers."""
    return Field(INT, doc, minimum=minimum, maximum=maximum, default=default)


def _uuid_check(value) -> str | None:
    if not is_uuid(value):
        return (
            "'queue' must be the vhost of a Codabench queue (a UUID)|e.g. "
            "'0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d' (Codabench: Resources > Queue Management, "
            "the queue's details)"
        )


def _email_check(value) -> str | None:
    if not is_email(value):
        return "'contact_email' must be an e-mail address (Codabench refuses others)|e.g. me@x.org"


PHASE_FIELDS = {
    "id": choice("the phase", PHASES, "phase id", required=True),
    "name": Field(STR, "its title on the platform (default: from the id)"),
    "start": Field(
        DATE, "start, UTC, 'YYYY-MM-DD HH:MM:SS'", required=True, example='"2027-03-01 00:00:00"'
    ),
    "end": Field(DATE, "end, UTC (required unless it is the last phase; one past is noted)"),
    "split": choice(
        "the split scored (default: dev for practice, else test)",
        ("dev", "test"),
        "split",
        synonyms=SPLIT_SYNONYMS,
    ),
    "description": Field(STR, "one line shown on the platform"),
    "max_submissions_per_day": _count("submissions a participant may make a day", default=5),
    "max_submissions": _count("submissions a participant may make in the phase", default=100),
    # a time limit past a week is a typo (Codabench's default queue stops at 600 s)
    "execution_time_limit": _count("seconds per submission", 1, 7 * 24 * 3600, default=600),
    "public_gold": Field(
        BOOL, "its gold ships in the starting kit (default: practice only; see 'Data' above)"
    ),
}


PAGE_FIELDS = {
    "title": Field(
        STR,
        "the page's tab title, another page's (the builder's too) not repeated, compared "
        "without case",
        required=True,
    ),
    "file": Field(STR, "a Markdown file inside the edition folder", required=True),
}

LEADERBOARD_FIELDS = {
    "title": Field(STR, "the leaderboard's title", default="Results"),
    "key": Field(STR, "its key", default="main"),
    "submission_rule": choice(
        "which submission counts", SUBMISSION_RULES, "leaderboard submission_rule", "Force_Last"
    ),
}

RANKING_GROUP_FIELDS = {
    "tracks": strings("the group's track ids", required=True),
    "order": choice(
        "its overall order: the mean of the tracks' tie-aware ranks, or of their main scores",
        GROUP_ORDERS,
        default=GROUP_MEAN_RANK,
    ),
}

RANKING_FIELDS = {
    "groups": Field(
        MAP,
        "groups of tracks, each with its own overall table in the official ranking (e.g. a "
        "task's datasets), by name",
        items=_object("", RANKING_GROUP_FIELDS),
        example="groups: {Task A: {tracks: [csc_soft, mp_soft]}}",
    )
}

LOCAL_FIELDS = {
    "fraction": Field(
        NUMBER,
        "the share of each dataset's training items held out (at least one)",
        required=True,
        minimum=0,
        maximum=0.5,
    ),
    "seed": Field(INT, "the seed of the hash that picks them", minimum=0, default=0),
}


# --- a dataset: the options every importer takes, and each importer's own ----------------------


def _path(required: bool = True) -> Field:
    doc = "the release folder or file, relative to --data"
    return Field(STR, doc, required=required, example="path: data/my_release")


def _files(entry: Field = Field(STR)) -> Field:
    example = "files: {dev: dev.json, test: test.json}"
    return _per_split("split -> release file name", entry, example)


#: ``columns`` of the ``table`` importer: the kit's fields -> the file's column names.
TABLE_COLUMNS = {
    "id": Field(STR, "the column of item ids (unique within a split)", required=True),
    "texts": strings(
        "the columns of the item's texts, in order", "texts: [sentence1, sentence2]", required=True
    ),
    "score": Field(STR, "the column of similarity gold"),
    "label": Field(STR, "the column of the gold label (default: the annotations' majority)"),
    "annotations": Field(
        ANY,
        "a list of columns, one per annotator, or {column: NAME, sep: \",\"} (see 'Data' above)",
        example='annotations: {column: annotations, sep: ","}',
        check=one_column_or(
            "annotations",
            "a list of columns, one per annotator, each named once",
            lambda v: (
                isinstance(v, list)
                and all(isinstance(c, str) for c in v)
                and 0 < len(v) == len(set(v))
            ),
        ),
    ),
    "annotators": Field(
        ANY,
        "the column of each row's annotators (see 'Data' above)",
        check=one_column_or(
            "annotators", "a column of comma-separated names", lambda v: isinstance(v, str) and v
        ),
    ),
    "distribution": Field(STR, "the column of soft-label gold (see 'Data' above)"),
    "lang": Field(STR, "the column of the item's language"),
    "genre": Field(STR, "the column of the item's genre"),
}


def dataset_fields(value) -> dict[str, Field]:
    """The fields of one dataset entry, chosen by its ``importer``."""
    importer = value.get("importer", "kit")
    if isinstance(importer, str) and importer in IMPORTER_OPTIONS:
        options = IMPORTER_OPTIONS[importer]
        return {**common_fields(options), **options}
    # unknown importer: reported once, every importer's options taken unjudged
    unjudged = {key: Field(ANY) for options in IMPORTER_OPTIONS.values() for key in options}
    return {**common_fields({}), **unjudged}


#: A dataset entry: its fields chosen by its importer (``datasets`` values, a ``fallback``'s).
DATASET = _object("", dataset_fields)

#: importer -> its own options (``path`` included); the common ones are in ``common_fields``.
IMPORTER_OPTIONS: dict[str, dict[str, Field]] = {
    "kit": {"path": _path()},
    "semeval_sts": {
        "path": _path(),
        "track": Field(
            STR, "the release's track name", required=True, example="track: track1.ar-ar"
        ),
        "lang": Field(STR, "the items' language (default: from the track name)"),
        "fallback": Field(
            MAP, "train/dev -> another dataset source", keys=("train", "dev"), items=DATASET
        ),
    },
    "stsb": {"path": _path(), "files": _files()},
    "ocnli": {"path": _path(), "files": _files()},
    "chaosnli": {"path": _path(), "files": _files(Field(STR_OR_LIST))},
    "lewidi": {
        "path": _path(),
        "dataset": choice(
            "the release's dataset: 2025's first four, 2023's last four",
            LEWIDI_DATASETS,
            "LeWiDi dataset",
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
        "label_map": string_map(
            "an annotation as released -> the label it counts as (2023 layout)",
            'label_map: {"-3": "1", "-2": "1", "-1": "1", "0": "0", "1": "0"}',
        ),
        "soft_gold": choice(
            "annotations (the shares recomputed) | release (the file's own soft_label)",
            ("annotations", "release"),
            "soft gold",
            default="annotations",
        ),
        "hard_gold": choice(
            "majority (recomputed; ties unscored) | release (the file's hard_label, its "
            "organisers' tie-breaks kept); without it the items have no hard label",
            ("majority", "release"),
            "hard gold",
        ),
    },
    "table": {
        "path": _path(required=False),
        "format": choice(
            "csv | tsv | jsonl | json (default: from the file's suffix; see 'Data' above)",
            TABLE_FORMS,  # the importer's forms, in its own order
            "table format",
            synonyms=FORM_SYNONYMS,
        ),
        "columns": Field(
            OBJECT, "the kit's fields -> the file's columns", required=True, schema=TABLE_COLUMNS
        ),
        "lang": Field(STR, "the items' language, when no column gives it", example="lang: en"),
        "genre": Field(STR, "the items' genre, when no column gives it"),
    },
}

#: A ``sample`` entry (``bundle/sample.py``): ``items`` items of split ``of``, chosen by ``seed``.
SAMPLE_FIELDS = {
    "of": _split("the split sampled", required=True),
    "items": Field(INT, "how many items", required=True, minimum=1),
    "seed": Field(INT, "the seed of the hash that chooses them", required=True, minimum=0),
}

SPLIT_FIELDS = {
    **dict.fromkeys(SPLITS, Field(NUMBER, "the share of the items kept", minimum=0, maximum=1)),
    "seed": Field(INT, "the seed of the hash that assigns items", minimum=0, default=0),
    "from": _split("the release split cut (default: test; the table importer reads its one file)"),
}


def common_fields(options: dict[str, Field]) -> dict[str, Field]:
    """Options every dataset takes, whatever its importer; a split's own options (``splits``) are
    the importer's ``options``, none required."""
    override = {
        key: dataclasses.replace(spec, required=False, default=None, example="")
        for key, spec in options.items()
        if key != "fallback"
    }
    return {
        "importer": choice("the release format", IMPORTERS, "importer", default="kit"),
        "where": string_map(
            "column or field -> the value (or list of values) of the items kept",
            "where: {genre: main-captions}",
            Field(STR_OR_LIST),
        ),
        "split": _object(
            "cut one release into train/dev/test by shares",
            SPLIT_FIELDS,
            "split: {train: 0.8, dev: 0.1, test: 0.1}",
        ),
        "splits": _per_split(
            "split -> the options that change for it",
            _object("", override, "splits: {train: {path: release/train.zip}}"),
        ),
        "train": choice("'none': no training split (see 'Data' above)", ("none",), "value"),
        "sample": _per_split(
            "split -> {of, items, seed}: a seeded sample of another split (see 'Data' above)",
            _object("", SAMPLE_FIELDS, "sample: {dev: {of: test, items: 300, seed: 1}}"),
        ),
        # Read by bundle/build.py (_dataset_splits) and bundle/phase_gold.py, which uses it to tell two
        # splits apart; data_checks refuses a split excluding itself.
        "exclude": _per_split(
            "split -> another split: the items whose texts that split holds are left out of it",
            _split(""),
            "exclude: {test: dev}",
        ),
        # Read by bundle/build.py's check_repeats, which also refuses a split whose gold no
        # phase hides (a check across phases and datasets).
        "known_repeats": _per_split(
            "hidden-gold split -> how many of its items the release repeats from a public split "
            "(docs/participant-checks.md)",
            Field(INT, minimum=0),
            "known_repeats: {test: 18}",
        ),
    }


TOP_LEVEL_FIELDS = {
    "name": Field(STR, "the edition's name (a plain folder name)", required=True),
    "title": Field(STR, "the competition's title", required=True),
    "description": Field(STR, "one paragraph shown on the platform"),
    "phases": _objects("practice, evaluation, post-campaign", PHASE_FIELDS, required=True),
    "datasets": Field(
        MAP, "dataset id -> its source (importer and options)", required=True, items=DATASET
    ),
    "tracks": _objects("the scored tracks", track_fields, required=True),
    "pages": _objects("the edition's own pages", PAGE_FIELDS),
    "terms": Field(
        STR, "the terms page, a Markdown file", required=True, example="terms: pages/terms.md"
    ),
    "logo": Field(STR, "a PNG file", required=True, example="logo: logo.png"),
    "docker_image": Field(STR, "the image submissions run in", default=KIT_IMAGE),
    "leaderboard": _object("title, key, submission rule", LEADERBOARD_FIELDS),
    "ranking": _object("the official ranking's extra tables (codajudge rank)", RANKING_FIELDS),
    "primary_score": _object(
        "how the primary score treats a missing primary track and averages", PRIMARY_SCORE_FIELDS
    ),
    "baselines": Field(
        LIST,
        "the built-in baselines run at build time",
        items=choice("", BASELINES, "baseline"),
        default=["random", "most_frequent", "cosine_bow"],
    ),
    # numpy's seeds are 32-bit
    "seed": _count("the seed of baselines and bootstrap", 0, 2**32 - 1, DEFAULT_SEED),
    "metrics_module": Field(
        STR,
        "a Python file of the edition folder registering the edition's own metrics "
        "(README: an edition's own metric)",
        example="metrics_module: metrics.py",
    ),
    "bootstrap_resamples": _count("resamples behind the 95% intervals (0: none)", 0, 100_000, 1000),
    "public_files": strings("files of the edition folder copied into the starting kit"),
    # Read by bundle/leaks.py's check_public_tree, which also refuses a path that names no
    # public file of the bundle (known only once the bundle is written).
    "known_leaks": string_map(
        "a public file's path in the bundle -> why it holds hidden gold on purpose "
        "(docs/participant-checks.md)",
        'known_leaks: {starting_kit/extra/labels.tsv: "test gold, released after the campaign"}',
        Field(STR, required=True),
    ),
    "local": _object(
        "the starting kit's local validation split, held out of train (--phase local)", LOCAL_FIELDS
    ),
    "contact_email": Field(STR, "the organisers' address", check=_email_check),
    "kit_scores_no_phase": Field(STR, "why the starting kit can score no phase (README: Build)"),
    "queue": Field(STR, "a Codabench queue's vhost (UUID)", check=_uuid_check),
}

#: A whole edition config: a mapping of the top-level fields.
CONFIG = _object("", TOP_LEVEL_FIELDS)


# --- the same table as JSON Schema -----------------------------------------------------------------


def _json_field(spec: Field) -> dict:
    """One field as a JSON Schema (draft 2020-12) fragment (keywords without a value left out)."""
    shape = _json_shape(spec) if spec.type.json is None else spec.type.json
    if spec.type == LIST:
        fewest = spec.length or (1 if spec.required else None)
        bounds = {"minItems": fewest, "maxItems": spec.length}
    else:
        bounds = {"minimum": spec.minimum, "maximum": spec.maximum}
    listed = "examples" if spec.extensible else "enum"
    extra = {**bounds, listed: list(spec.choices) or None, "default": spec.default}
    out = {"description": spec.doc or None, **shape, **extra}
    return {key: value for key, value in out.items() if value is not None}


def _json_shape(spec: Field) -> dict:
    """The JSON Schema of a list, map or object field: its items or fields."""
    if spec.type == OBJECT:
        if spec.schema is dataset_fields:
            return {"$ref": "#/$defs/dataset"}
        return json_object(resolve(spec.schema, {}))
    if spec.type == MAP and spec.keys:
        properties = dict.fromkeys(spec.keys, _json_field(spec.items))
        return {"type": "object", "properties": properties, "additionalProperties": False}
    if spec.type == MAP:
        return {"type": "object", "additionalProperties": _json_field(spec.items)}
    return {"type": "array", "items": _json_field(spec.items)}


def json_object(fields: dict[str, Field]) -> dict:
    return {
        "type": "object",
        "properties": {key: _json_field(spec) for key, spec in fields.items()},
        "required": [key for key, spec in fields.items() if spec.required],
        "additionalProperties": False,
    }


def json_schema() -> dict:
    """The edition config's schema as JSON Schema, for editors (docs/edition.schema.json); a
    dataset has one branch per importer, told apart by ``importer`` (absent: kit)."""
    branches = []
    for name in IMPORTER_OPTIONS:
        branch = json_object(dataset_fields({"importer": name}))
        branch["properties"]["importer"] = {"const": name}
        if name != "kit":
            branch["required"] = ["importer"] + branch["required"]
        branches.append(branch)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://codajudge/edition.schema.json",
        "title": "codajudge edition.yaml",
        "description": "An edition of a codajudge competition (generated by `codajudge schema`).",
        **json_object(TOP_LEVEL_FIELDS),
        "$defs": {"dataset": {"oneOf": branches}},
    }


# --- the same table as the reference in docs/edition-config.md -------------------------------------


def _type_text(spec: Field) -> str:
    if spec.type in (LIST, MAP):
        keys = " | ".join(spec.keys) if spec.keys else "name"
        inner = _type_text(spec.items)
        return f"list of {inner}" if spec.type == LIST else f"{keys} -> {inner}"
    return spec.type.name


def md_cell(text) -> str:
    """Text that stays inside one cell of a Markdown table (``\\`` and ``|`` escaped, line ends as
    spaces)."""
    return " ".join(str(text).replace("\\", "\\\\").replace("|", "\\|").split())


def markdown_table(title: str, fields: dict[str, Field]) -> list[str]:
    """One table of fields: key, type, required, default, allowed values, meaning."""
    lines = [f"#### {title}", "", "| key | type | required | default | allowed | meaning |"]
    lines.append("|---|---|---|---|---|---|")
    for key, spec in fields.items():
        allowed = " | ".join(map(str, spec.choices))
        if spec.minimum is not None:
            allowed = f"{spec.minimum} to {spec.maximum or ''}"
        default = "" if spec.default is None else f"`{spec.default}`"
        required = "yes" if spec.required else ""
        cells = [f"`{key}`", _type_text(spec), required, default, allowed, spec.doc]
        lines.append("| " + " | ".join(map(md_cell, cells)) + " |")
    return lines + [""]


#: Every table of the schema by its title in docs/edition-config.md.
REFERENCE_TABLES = {
    "Top level": TOP_LEVEL_FIELDS,
    "A phase (`phases[...]`)": PHASE_FIELDS,
    "A track (`tracks[...]`)": TRACK_FIELDS,
    "A page (`pages[...]`)": PAGE_FIELDS,
    "`leaderboard`": LEADERBOARD_FIELDS,
    "`local`": LOCAL_FIELDS,
    "`primary_score`": PRIMARY_SCORE_FIELDS,
    "`ranking`": RANKING_FIELDS,
    "Every dataset (`datasets: {ID: ...}`), whatever its importer": common_fields({}),
    "`split` of a dataset": SPLIT_FIELDS,
    **{f"Importer `{name}`: its own options": opts for name, opts in IMPORTER_OPTIONS.items()},
    "`columns` of a `table` dataset": TABLE_COLUMNS,
}


def markdown_reference() -> str:
    """Every table of the schema, as the reference section of docs/edition-config.md."""
    tables = REFERENCE_TABLES.items()
    lines = [line for title, fields in tables for line in markdown_table(title, fields)]
    # per kind and scale: the metrics scored by default, and those a track may name in ``metrics``
    lines += ["#### Metrics per kind (the `metrics` key of a track)", ""]
    lines += ["| kind | scale | default (main first) | may be chosen |", "|---|---|---|---|"]
    for kind in kinds.REGISTRY.values():
        for scale in kind.scales:
            default = ", ".join(f"`{m}`" for m in kind.default_metrics[scale])
            names = kind.applicable_metrics(scale)
            chosen = ", ".join(f"`{m}` ({md_cell(METRICS[m].title)})" for m in names)
            lines.append(f"| {kind.name} | {scale or ''} | {default} | {chosen} |")
    return "\n".join(lines + [""])
