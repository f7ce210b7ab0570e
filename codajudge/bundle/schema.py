"""The edition config's schema: one table of fields, walked by one validator, published as JSON Schema.

Every key an ``edition.yaml`` may hold is declared here once, with its type, whether it is required,
its default, its allowed values and its check: the top level, phases, datasets (the options common to
every importer and each importer's own: ``IMPORTER_OPTIONS``, which must name every importer of
``codajudge.importers.IMPORTERS``), tracks, pages and the leaderboard. ``validate_config``
walks a loaded config against it before any file is read and returns every problem at once, each
naming the file, the key path, what was expected, what was found and a fix. Nothing is coerced:
a quoted boolean is refused, and so is a boolean or a number where a string is expected (YAML 1.1
reads unquoted ``yes``/``no``/``on``/``off`` as booleans and ``1`` as a number). An unknown key is
refused everywhere, with the closest known key as a suggestion. ``json_schema`` turns the same table
into a JSON Schema (``docs/edition.schema.json``, ``codajudge schema``) for editors, and
``markdown_reference`` into the reference tables of ``docs/edition-config.md``.

Cross-field rules (phase dates in order, files that exist, a track's dataset declared, a metric that
applies to the track's kind) are checked afterwards by ``edition.load_edition`` and ``tracks``, on a
config that has passed this schema.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import difflib
import re
import uuid
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from ..errors import Problem, boolean_problem, counted, plural
from .. import kinds
from ..baselines import BASELINES
from ..importers import IMPORTERS, SPLITS
from ..importers.table import one_column_or
from ..metrics import REGISTRY as METRICS
from ..spec import MEAN_RULES, PHASES, PLAIN, WORST, primary_rule_problem
from ..stats.bootstrap import DEFAULT_SEED
from ..stats.ranking import GROUP_MEAN_RANK, GROUP_ORDERS
from .check.leaderboard import SUBMISSION_RULES
from .schedule import DATE_FORMAT

#: Bounds of the config's numbers: Codabench stores limits as PostgreSQL integers (< 2**31); a time
#: limit past a week is a typo (its default queue stops at 600 s); numpy seeds are 32-bit.
MAX_COUNT = 2**31 - 1
MAX_TIME_LIMIT = 7 * 24 * 3600
MAX_SEED = 2**32 - 1
MAX_RESAMPLES = 100_000
QUOTE_HINT = (
    "quote it: YAML reads unquoted yes/no/true/false/on/off as booleans and digits as numbers"
)


@dataclass(frozen=True, eq=False)
class Type:
    """What a field's value must be: its name in docs/edition-config.md, its check (``check_value``
    calls it with the walk, the place, the value's label, the value and the field) and its JSON
    Schema (None: made from the field's items or fields by ``_json_shape``)."""

    name: str
    check: Callable[..., None]
    json: Optional[dict] = None


@dataclass(frozen=True)
class Field:
    """One key of a mapping: ``type`` (one of the constants above), ``required``, ``default`` (the
    docs and the JSON Schema show it; readers take it through ``with_defaults``), ``choices``
    (allowed strings), ``minimum`` and ``maximum`` (numbers), ``length`` (a list's exact length; a
    required list, like a required string, must not be empty), ``items`` (the field of a list's
    entries or a map's values), ``keys`` (allowed keys of a map), ``schema`` (the fields of an
    object, or a function choosing them from the object's value: ``dataset_fields``), ``check`` (a
    function returning a problem message or None), ``what`` (how messages name a bad choice),
    ``example`` (the hint of a missing or misshapen value) and ``doc``."""

    type: Type
    doc: str = ""
    required: bool = False
    default: object = None
    choices: Sequence = ()
    minimum: Optional[float] = None
    maximum: Optional[float] = None
    length: Optional[int] = None
    items: Optional["Field"] = None
    keys: Tuple[str, ...] = ()
    schema: object = None
    check: Optional[Callable[[object], Optional[str]]] = None
    what: str = ""
    example: str = ""


@dataclass
class Walk:
    """The state of one validation: the file's name and the problems found so far."""

    display: str
    problems: List[Problem] = field(default_factory=list)

    def place(self, where: str) -> str:
        return f"{self.display}: {where}" if where else self.display

    def add(self, where: str, message: str, **details) -> None:
        self.problems.append(Problem(self.place(where), message, **details))


def _found(value) -> str:
    return f"{value!r} ({type(value).__name__})"[:100]


def _shown(value) -> str:
    return repr(value)[:80]


def _example(spec: Field) -> Optional[str]:
    return f"e.g. {spec.example}" if spec.example else None


def _join(where: str, part: str) -> str:
    return f"{where} {part}" if where else part


def did_you_mean(key, known: Sequence) -> Optional[str]:
    """The hint naming the known key closest to ``key`` in any case (a misspelling, or the same in
    another case), or None."""
    lowered = {str(name).lower(): str(name) for name in known}
    close = difflib.get_close_matches(str(key).lower(), lowered, n=1, cutoff=0.6)
    return f"did you mean '{lowered[close[0]]}'?" if close else None


#: Item fields an organiser may write as a dataset option meaning "only the items with this value".
ITEM_FIELDS = ("genre", "lang", "label", "id", "score")


def _unknown_key(walk: Walk, where: str, key, known: Sequence[str], what: str = "key") -> None:
    hint = did_you_mean(key, known) or "remove it or correct its name"
    if key in ITEM_FIELDS and "where" in known:
        hint = f"to keep only some items, write where: {{{key}: VALUE}}"
    walk.add(
        where,
        f"unknown {what} {key!r}",
        expected="one of " + ", ".join(sorted(map(str, known))),
        found=repr(key),
        hint=hint,
    )


# --- one value against one field -------------------------------------------------------------------


def _check_str(walk: Walk, where: str, label: str, value, spec: Field) -> None:
    if not isinstance(value, str):
        hint = QUOTE_HINT if isinstance(value, (bool, int, float)) else None
        walk.add(where, f"{label} must be a string", found=_found(value), hint=hint)
    elif spec.required and not value.strip():
        walk.add(where, f"{label} must not be empty", expected="a non-empty string", found="''")
    elif spec.choices and value not in spec.choices:
        walk.add(
            where,
            f"unknown {spec.what}" if spec.what else f"{label} has an unknown value",
            expected=" | ".join(spec.choices),
            found=_shown(value),
            hint=did_you_mean(value, spec.choices),
        )


def _check_number(walk: Walk, where: str, label: str, value, spec: Field) -> None:
    """A number (a whole one for INT) within the field's bounds; every INT field has a minimum."""
    whole = spec.type == INT
    numeric = isinstance(value, int if whole else (int, float)) and not isinstance(value, bool)
    lo = spec.minimum if spec.minimum is not None else float("-inf")
    hi = spec.maximum if spec.maximum is not None else float("inf")
    if numeric and lo <= value <= hi:
        return
    if whole and spec.maximum is None:
        message = f"{label} must be a whole number of at least {lo:,}"
    elif whole:
        message = f"{label} must be a whole number from {lo:,} to {hi:,}"
    else:
        message = f"{label} must be a number"
    walk.add(where, message, found=_shown(value), hint=_number_hint(value, spec))


#: A duration's units, as an organiser may write them after the number (``10m``).
DURATION_UNITS = {"s": 1, "sec": 1, "m": 60, "min": 60, "h": 3600, "d": 86400}


def _number_hint(value, spec: Field) -> Optional[str]:
    """How to write a number key given text: without quotes, or in the unit the key takes (a
    duration in seconds: ``10m`` is 600)."""
    if not isinstance(value, str):
        return None
    try:
        float(value)
        return "write it without quotes"
    except ValueError:
        pass
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([a-z]+)\s*", value.lower())
    if spec.doc.startswith("seconds ") and match and match.group(2) in DURATION_UNITS:
        seconds = round(float(match.group(1)) * DURATION_UNITS[match.group(2)])
        return f"the value is a number of seconds, without a unit: {value} is {seconds}"
    return f"write a plain number ({spec.doc})" if spec.doc else "write a plain number"


def _check_bool(walk: Walk, where: str, label: str, value, spec: Field) -> None:
    if not isinstance(value, bool):
        walk.problems.append(boolean_problem(walk.place(where), label, value))


def _check_date(walk: Walk, where: str, label: str, value, spec: Field) -> None:
    """A quoted ``DATE_FORMAT`` or an unquoted YAML timestamp (a date, nothing to coerce)."""
    try:
        dt.datetime.strptime(value, DATE_FORMAT)
        return
    except (TypeError, ValueError):
        if isinstance(value, dt.date):
            return
    walk.add(
        where,
        f"{label} is not a UTC date and time",
        expected="'YYYY-MM-DD HH:MM:SS' (quoted)",
        found=_shown(value),
        hint='e.g. start: "2027-03-01 00:00:00"',
    )


def _check_str_or_list(walk: Walk, where: str, label: str, value, spec: Field) -> None:
    if isinstance(value, list) and value:
        for i, entry in enumerate(value):
            _check_str(walk, where, f"{label}[{i}]", entry, spec)
    elif isinstance(value, list):
        walk.add(where, f"{label} must not be an empty list", found="[]")
    else:
        _check_str(walk, where, label, value, spec)


def _is_container(walk: Walk, where: str, label: str, value, spec: Field) -> bool:
    """Whether ``value`` is the list or mapping ``spec`` wants (a problem said when not)."""
    python_type, said = (list, "a list") if spec.type == LIST else (dict, "a mapping")
    if not isinstance(value, python_type):
        walk.add(where, f"{label} must be {said}", found=_found(value), hint=_example(spec))
    return isinstance(value, python_type)


def _check_entry(walk: Walk, where: str, place: str, label: str, entry, spec: Field) -> None:
    """A list's or a map's entry: a mapping of fields is checked as an object at ``place`` inside
    ``where``, anything else as a value named ``label``."""
    if spec.type == OBJECT and isinstance(entry, dict):
        check_object(walk, _join(where, place), entry, resolve(spec.schema, entry))
    else:
        check_value(walk, where, label, entry, spec)


def _check_list(walk: Walk, where: str, label: str, value, spec: Field) -> None:
    if not _is_container(walk, where, label, value, spec):
        return
    if spec.required and not value:
        walk.add(where, f"{label} must list at least 1", found=_shown(value))
    if spec.length is not None and len(value) != spec.length:
        walk.add(where, f"{label} must list exactly {spec.length} values", found=_shown(value))
    name = label.strip("'")
    if _unquoted_strings(walk, where, name, value, spec):
        return
    for i, entry in enumerate(value):
        place = f"{name}[{i}]"
        if isinstance(entry, dict) and isinstance(entry.get("id"), str):
            place += f" '{entry['id']}'"  # tracks[2] 'en_en'
        _check_entry(walk, where, place, f"'{name}[{i}]'", entry, spec.items)


def _unquoted_strings(walk: Walk, where: str, name: str, value: list, spec: Field) -> bool:
    """Whether a list of strings holds several unquoted numbers or booleans, then said in one
    problem with the list as it should be written."""
    unquoted = [entry for entry in value if isinstance(entry, (bool, int, float))]
    if spec.items.type != STR or len(unquoted) < 2:
        return False
    written = ", ".join(f'"{str(e).lower() if isinstance(e, bool) else e}"' for e in value)
    walk.add(
        where,
        f"'{name}' must be strings: {counted(len(unquoted), 'entry', 'entries')} "
        f"{plural(len(unquoted), 'is', 'are')} not quoted",
        found=_shown(value),
        hint=f"write {name}: [{written}]; YAML reads unquoted digits as numbers "
        "and yes/no/true/false/on/off as booleans",
    )
    return True


def _check_map(walk: Walk, where: str, label: str, value, spec: Field) -> None:
    if not _is_container(walk, where, label, value, spec):
        return
    for key, entry in value.items():
        if spec.keys and key not in spec.keys:
            _unknown_key(walk, where, key, spec.keys, what=f"key of {label}")
        else:
            place = f"{label.strip(chr(39))} '{key}'"
            _check_entry(walk, where, place, f"{label} entry '{key}'", entry, spec.items)


def _check_object(walk: Walk, where: str, label: str, value, spec: Field) -> None:
    if _is_container(walk, where, label, value, spec):
        check_object(walk, _join(where, label.strip("'")), value, resolve(spec.schema, value))


def _anything(walk: Walk, where: str, label: str, value, spec: Field) -> None:
    """Any value: the module reading it judges it."""


STR = Type("str", _check_str, {"type": "string"})
INT = Type("int", _check_number, {"type": "integer"})
NUMBER = Type("number", _check_number, {"type": "number"})
BOOL = Type("bool", _check_bool, {"type": "boolean"})
DATE = Type(
    "date", _check_date, {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$"}
)
LIST = Type("list", _check_list)
MAP = Type("map", _check_map)
OBJECT = Type("mapping", _check_object)
ANY = Type("see note", _anything, {})
#: A string or a list of strings (``where`` values, chaosnli ``files`` entries).
STR_OR_LIST = Type(
    "string or list of strings",
    _check_str_or_list,
    {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]},
)


def check_value(walk: Walk, where: str, label: str, value, spec: Field) -> None:
    """Record every problem of ``value`` (named ``label`` inside ``where``) against ``spec``; a
    field with its own ``check`` says what is wanted in its message (``message|expected``)."""
    message = spec.check(value) if spec.check is not None else None
    if message:
        text, _, expected = message.partition("|")
        walk.add(where, text, expected=expected or None, found=_shown(value))
    elif spec.check is None:
        spec.type.check(walk, where, label, value, spec)


def check_object(walk: Walk, where: str, value: dict, fields: Dict[str, Field]) -> None:
    """A mapping against its table of fields: unknown keys, required keys, then each value."""
    for key in value:
        if key not in fields:
            _unknown_key(walk, where, key, list(fields))
    for key, spec in fields.items():
        if key in value:
            check_value(walk, where, f"'{key}'", value[key], spec)
        elif spec.required:
            expected = spec.doc.split(";")[0] if spec.doc else spec.type.name
            walk.add(where, f"'{key}' is required", expected=expected, hint=_example(spec))


def with_defaults(raw: Optional[dict], fields: Dict[str, Field]) -> Dict[str, object]:
    """Every key of ``fields``: its value in ``raw`` (a mapping that passed the schema, or None),
    else its declared default (None when it has none)."""
    given = raw or {}
    return {key: given.get(key, spec.default) for key, spec in fields.items()}


def resolve(schema, value):
    """The fields of an object: its table, or the table a variant function chooses for ``value``
    (a dataset's fields depend on its importer)."""
    return schema(value) if callable(schema) else schema


def validate_config(raw: dict, display: str) -> List[Problem]:
    """Every problem of a loaded edition config (a mapping: ``config_yaml.load_config_yaml``) against the
    schema (empty when it conforms)."""
    walk = Walk(display)
    check_object(walk, "", raw, TOP_LEVEL_FIELDS)
    return walk.problems


# --- the tables ------------------------------------------------------------------------------------


def _choice(
    doc: str,
    choices: Sequence[str],
    what: str = "",
    default: Optional[str] = None,
    required: bool = False,
) -> Field:
    """A string that must be one of ``choices``; ``what`` names a bad one in messages."""
    return Field(STR, doc, required=required, default=default, choices=tuple(choices), what=what)


def _strings(doc: str, example: str = "", required: bool = False) -> Field:
    return Field(LIST, doc, required=required, items=Field(STR), example=example)


def _string_map(doc: str, example: str, entries: Field = Field(STR)) -> Field:
    """A mapping from any names to strings (``entries``)."""
    return Field(MAP, doc, items=entries, example=example)


def _objects(doc: str, fields: Dict[str, Field], required: bool = False) -> Field:
    """A list of mappings, each of ``fields``."""
    return Field(LIST, doc, required=required, items=Field(OBJECT, schema=fields))


def _object(doc: str, fields: Dict[str, Field], example: str = "") -> Field:
    return Field(OBJECT, doc, schema=fields, example=example)


def _per_split(doc: str, items: Field, example: str) -> Field:
    """A mapping from some of the splits to ``items``."""
    return Field(MAP, doc, keys=SPLITS, items=items, example=example)


def _count(doc: str, minimum: int = 0, maximum: int = MAX_COUNT, default=None) -> Field:
    return Field(INT, doc, minimum=minimum, maximum=maximum, default=default)


def _uuid_check(value) -> Optional[str]:
    try:
        uuid.UUID(value.strip() if isinstance(value, str) else "")
        return None
    except ValueError:
        return (
            "'queue' must be the vhost of a Codabench queue (a UUID)|e.g. "
            "'0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d' (Codabench: Resources > Queue Management, "
            "the queue's details)"
        )


PHASE_FIELDS = {
    "id": _choice("the phase", PHASES, "phase id", required=True),
    "name": Field(STR, "its title on the platform (default: from the id)"),
    "start": Field(
        DATE, "start, UTC, 'YYYY-MM-DD HH:MM:SS'", required=True, example='"2027-03-01 00:00:00"'
    ),
    "end": Field(DATE, "end, UTC (required unless it is the last phase)"),
    "split": _choice(
        "the split scored (default: dev for practice, else test)", ("dev", "test"), "split"
    ),
    "description": Field(STR, "one line shown on the platform"),
    "max_submissions_per_day": _count("submissions a participant may make a day", default=5),
    "max_submissions": _count("submissions a participant may make in the phase", default=100),
    "execution_time_limit": _count("seconds per submission", 1, MAX_TIME_LIMIT, default=600),
    "public_gold": Field(
        BOOL, "its gold ships in the starting kit (default: practice only; see 'Data' above)"
    ),
}


ALIGNMENTS = dict.fromkeys(a for kind in kinds.REGISTRY.values() for a in kind.alignments)

#: A track's keys; ``metrics`` names registered metrics (the registry itself: an edition's own
#: metrics are registered when it is read).
TRACK_FIELDS = {
    "id": Field(
        STR, "lowercase letters, digits and _; names the submission file <id>.tsv", required=True
    ),
    "title": Field(STR, "its title on pages and leaderboard columns (default: the id)"),
    "kind": _choice("what is predicted", kinds.NAMES, "track kind", required=True),
    "dataset": Field(STR, "a key of 'datasets' (default: the track id)"),
    "scale": _choice("required for soft_label and perspectivist", kinds.SCALES, "scale"),
    "labels": _strings("the ordered labels (quote numbers and yes/no)", 'labels: ["1", "2", "3"]'),
    "label_aliases": _string_map(
        "alias text -> one of 'labels': other texts naming a label (docs/labels.md)",
        "label_aliases: {e: entailment, n: neutral, c: contradiction}",
    ),
    "metrics": Field(
        LIST,
        "the metrics scored, main metric first (default: the kind's; see docs/edition-config.md)",
        items=Field(STR, choices=METRICS, what="metric"),
    ),
    "primary": Field(BOOL, "its main metric counts in the primary score", default=True),
    "files": _strings("other accepted submission file names (globs)"),
    "positional": Field(BOOL, "accept one score per line in input order (similarity)"),
    "release_lines": Field(INT, "input lines of a positional release", minimum=2),
    "results_layout": _choice(
        "another task's submission layout also read: lewidi2023 (<Dataset>_results.tsv, "
        "rows hard label<TAB>p0<TAB>p1 in item order, no id; name the file in 'files')",
        ("lewidi2023",),
        "results layout",
    ),
    "range": Field(
        LIST,
        "similarity gold's scale [lowest, highest] (default [0, 5]; see 'Data' above)",
        items=Field(NUMBER),
        length=2,
        example="range: [1, 5]",
    ),
    "annotator_alignment": _choice(
        "how a perspectivist row wider than its item's annotators is scored: by_name (default) "
        "or official_2025 (see 'Metrics' above)",
        ALIGNMENTS,
        "annotator alignment",
    ),
}


PAGE_FIELDS = {
    "title": Field(STR, "the page's tab title", required=True),
    "file": Field(STR, "a Markdown file inside the edition folder", required=True),
}

LEADERBOARD_FIELDS = {
    "title": Field(STR, "the leaderboard's title", default="Results"),
    "key": Field(STR, "its key", default="main"),
    "submission_rule": _choice(
        "which submission counts", SUBMISSION_RULES, "leaderboard submission_rule", "Force_Last"
    ),
}

PRIMARY_SCORE_FIELDS = {
    "missing": Field(
        STR,
        "what a primary track a run did not submit counts as: worst | baseline NAME | unranked "
        "(README: Primary score)",
        default=WORST,
        check=primary_rule_problem,
        example="missing: baseline most_frequent",
    ),
    "mean": _choice(
        "plain | normalised mean of the primary tracks' main metric (README: Primary score)",
        MEAN_RULES,
        default=PLAIN,
    ),
}

RANKING_GROUP_FIELDS = {
    "tracks": _strings("the group's track ids", required=True),
    "order": _choice(
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

TABLE_FORMATS = ("csv", "tsv", "jsonl", "json")


def _path(required: bool = True) -> Field:
    doc = "the release folder or file, relative to --data"
    return Field(STR, doc, required=required, example="path: data/my_release")


def _files(entry: Field = Field(STR)) -> Field:
    example = "files: {dev: dev.json, test: test.json}"
    return _per_split("split -> release file name", entry, example)


#: ``columns`` of the ``table`` importer: the kit's fields -> the file's column names.
TABLE_COLUMNS = {
    "id": Field(STR, "the column of item ids (unique within a split)", required=True),
    "texts": _strings(
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


def dataset_fields(value) -> Dict[str, Field]:
    """The fields of one dataset entry, chosen by its ``importer``."""
    importer = value.get("importer", "kit") if isinstance(value, dict) else "kit"
    if isinstance(importer, str) and importer in IMPORTER_OPTIONS:
        options = IMPORTER_OPTIONS[importer]
        return {**common_fields(options), **options}
    fields = common_fields({})
    for options in IMPORTER_OPTIONS.values():  # unknown importer: reported once, options unjudged
        fields.update(dict.fromkeys(options, Field(ANY)))
    return fields


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
            items=_object("", dataset_fields),
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
        "label_map": _string_map(
            "an annotation as released -> the label it counts as (2023 layout)",
            'label_map: {"-3": "1", "-2": "1", "-1": "1", "0": "0", "1": "0"}',
        ),
        "soft_gold": _choice(
            "annotations (the shares recomputed) | release (the file's own soft_label)",
            ("annotations", "release"),
            "soft gold",
            default="annotations",
        ),
        "hard_gold": _choice(
            "majority (recomputed; ties unscored) | release (the file's hard_label, its "
            "organisers' tie-breaks kept); without it the items have no hard label",
            ("majority", "release"),
            "hard gold",
        ),
    },
    "table": {
        "path": _path(required=False),
        "format": _choice(
            "csv | tsv | jsonl | json (default: from the file's suffix; see 'Data' above)",
            TABLE_FORMATS,
            "table format",
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
    "of": _choice("the split sampled", SPLITS, "split", required=True),
    "items": Field(INT, "how many items", required=True, minimum=1),
    "seed": Field(INT, "the seed of the hash that chooses them", required=True, minimum=0),
}

SPLIT_FIELDS = {
    **dict.fromkeys(SPLITS, Field(NUMBER, "the share of the items kept", minimum=0, maximum=1)),
    "seed": Field(INT, "the seed of the hash that assigns items", minimum=0, default=0),
    "from": _choice(
        "the release split cut (default: test; the table importer reads its one file)",
        SPLITS,
        "split",
    ),
}


def common_fields(options: Dict[str, Field]) -> Dict[str, Field]:
    """Options every dataset takes, whatever its importer; a split's own options (``splits``) are
    the importer's ``options``, none required."""
    override = {
        key: dataclasses.replace(spec, required=False, default=None, example="")
        for key, spec in options.items()
        if key != "fallback"
    }
    return {
        "importer": _choice("the release format", IMPORTERS, "importer", default="kit"),
        "where": Field(
            MAP,
            "column or field -> the value (or list of values) of the items kept",
            items=Field(STR_OR_LIST),
            example="where: {genre: main-captions}",
        ),
        "split": _object(
            "cut one release into train/dev/test by shares",
            SPLIT_FIELDS,
            "split: {train: 0.8, dev: 0.1, test: 0.1}",
        ),
        "splits": Field(
            MAP,
            "split -> the options that change for it",
            keys=SPLITS,
            items=_object("", override, "splits: {train: {path: release/train.zip}}"),
        ),
        "train": _choice("'none': no training split (see 'Data' above)", ("none",), "value"),
        "sample": Field(
            MAP,
            "split -> {of, items, seed}: a seeded sample of another split (see 'Data' above)",
            keys=SPLITS,
            items=_object("", SAMPLE_FIELDS, "sample: {dev: {of: test, items: 300, seed: 1}}"),
        ),
        # Read by bundle/build.py (_without) and bundle/phase_gold.py, which uses it to tell two
        # splits apart; data_checks refuses a split excluding itself.
        "exclude": _per_split(
            "split -> another split: the items whose texts that split holds are left out of it",
            _choice("", SPLITS, "split"),
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
        MAP,
        "dataset id -> its source (importer and options)",
        required=True,
        items=_object("", dataset_fields),
    ),
    "tracks": _objects("the scored tracks", TRACK_FIELDS, required=True),
    "pages": _objects("the edition's own pages", PAGE_FIELDS),
    "terms": Field(
        STR, "the terms page, a Markdown file", required=True, example="terms: pages/terms.md"
    ),
    "logo": Field(STR, "a PNG file", required=True, example="logo: logo.png"),
    "docker_image": Field(
        STR, "the image submissions run in", default="codalab/codalab-legacy:py312"
    ),
    "leaderboard": _object("title, key, submission rule", LEADERBOARD_FIELDS),
    "ranking": _object("the official ranking's extra tables (codajudge rank)", RANKING_FIELDS),
    "primary_score": _object(
        "how the primary score treats a missing primary track and averages", PRIMARY_SCORE_FIELDS
    ),
    "baselines": Field(
        LIST,
        "the built-in baselines run at build time",
        items=_choice("", BASELINES, "baseline"),
        default=["random", "most_frequent", "cosine_bow"],
    ),
    "seed": _count("the seed of baselines and bootstrap", 0, MAX_SEED, DEFAULT_SEED),
    "metrics_module": Field(
        STR,
        "a Python file of the edition folder registering the edition's own metrics "
        "(README: an edition's own metric)",
        example="metrics_module: metrics.py",
    ),
    "bootstrap_resamples": _count(
        "resamples behind the 95% intervals (0: none)", 0, MAX_RESAMPLES, 1000
    ),
    "public_files": _strings("files of the edition folder copied into the starting kit"),
    # Read by bundle/leaks.py's check_public_tree, which also refuses a path that names no
    # public file of the bundle (known only once the bundle is written).
    "known_leaks": _string_map(
        "a public file's path in the bundle -> why it holds hidden gold on purpose "
        "(docs/participant-checks.md)",
        'known_leaks: {starting_kit/extra/labels.tsv: "test gold, released after the campaign"}',
        Field(STR, required=True),
    ),
    "local": _object(
        "the starting kit's local validation split, held out of train (--phase local)", LOCAL_FIELDS
    ),
    "contact_email": Field(STR, "the organisers' address"),
    "kit_scores_no_phase": Field(STR, "why the starting kit can score no phase (README: Build)"),
    "queue": Field(STR, "a Codabench queue's vhost (UUID)", check=_uuid_check),
}


# --- the same table as JSON Schema -----------------------------------------------------------------


def _json_field(spec: Field) -> dict:
    """One field as a JSON Schema (draft 2020-12) fragment."""
    out: dict = {"description": spec.doc} if spec.doc else {}
    out.update(_json_shape(spec) if spec.type.json is None else spec.type.json)
    bounds = {"minimum": spec.minimum, "maximum": spec.maximum}
    if spec.type == LIST:
        bounds = {
            "minItems": spec.length or (1 if spec.required else None),
            "maxItems": spec.length,
        }
    out.update((key, bound) for key, bound in bounds.items() if bound is not None)
    if spec.choices:
        out["enum"] = list(spec.choices)
    if spec.default is not None:
        out["default"] = spec.default
    return out


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


def json_object(fields: Dict[str, Field]) -> dict:
    return {
        "type": "object",
        "properties": {key: _json_field(spec) for key, spec in fields.items()},
        "required": [key for key, spec in fields.items() if spec.required],
        "additionalProperties": False,
    }


def _json_dataset() -> dict:
    """One branch per importer, told apart by ``importer`` (absent: kit)."""
    branches = []
    for name in IMPORTER_OPTIONS:
        branch = json_object(dataset_fields({"importer": name}))
        branch["properties"]["importer"] = {"const": name}
        if name != "kit":
            branch["required"] = ["importer"] + branch["required"]
        branches.append(branch)
    return {"oneOf": branches}


def json_schema() -> dict:
    """The edition config's schema as JSON Schema, for editors (docs/edition.schema.json)."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://codajudge/edition.schema.json",
        "title": "codajudge edition.yaml",
        "description": "An edition of a codajudge competition (generated by `codajudge schema`).",
        **json_object(TOP_LEVEL_FIELDS),
        "$defs": {"dataset": _json_dataset()},
    }


# --- the same table as the reference in docs/edition-config.md -------------------------------------


def _type_text(spec: Field) -> str:
    if spec.type in (LIST, MAP):
        keys = " | ".join(spec.keys) if spec.keys else "name"
        inner = _type_text(spec.items)
        return f"list of {inner}" if spec.type == LIST else f"{keys} -> {inner}"
    return spec.type.name


def _cell(text) -> str:
    return " ".join(str(text).replace("|", "\\|").split())


def markdown_table(title: str, fields: Dict[str, Field]) -> List[str]:
    """One table of fields: key, type, required, default, allowed values, meaning."""
    lines = [f"#### {title}", "", "| key | type | required | default | allowed | meaning |"]
    lines.append("|---|---|---|---|---|---|")
    for key, spec in fields.items():
        allowed = " | ".join(map(str, spec.choices))
        if spec.minimum is not None:
            allowed = f"{spec.minimum} to {spec.maximum or ''}"
        default = "" if spec.default is None else f"`{spec.default}`"
        lines.append(
            f"| `{key}` | {_cell(_type_text(spec))} | {'yes' if spec.required else ''} | {default} "
            f"| {_cell(allowed)} | {_cell(spec.doc)} |"
        )
    return lines + [""]


def reference_tables() -> Dict[str, Dict[str, Field]]:
    """Every table of the schema by its title in docs/edition-config.md."""
    return {
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
    tables = reference_tables().items()
    parts = [line for title, fields in tables for line in markdown_table(title, fields)]
    return "\n".join(parts + metrics_table())


def metrics_table() -> List[str]:
    """Per kind and scale: the metrics scored by default, and those a track may name in ``metrics``."""
    lines = ["#### Metrics per kind (the `metrics` key of a track)", ""]
    lines += ["| kind | scale | default (main first) | may be chosen |", "|---|---|---|---|"]
    for kind in kinds.REGISTRY.values():
        for scale in kind.scales:
            default = ", ".join(f"`{m}`" for m in kind.default_metrics[scale])
            names = kind.applicable_metrics(scale)
            chosen = ", ".join(f"`{m}` ({_cell(METRICS[m].title)})" for m in names)
            lines.append(f"| {kind.name} | {scale or ''} | {default} | {chosen} |")
    return lines + [""]
