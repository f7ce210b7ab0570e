"""Fields declared as data and the one validator that walks a value against them.

A ``Field`` says what one key of a mapping holds (its ``Type``, whether it is required, its default,
allowed values, bounds, the fields of its entries) and ``check_object`` records every problem of a
mapping against a table of fields, each naming the place, the key, what was expected, what was found
and a fix. Nothing is coerced: a quoted boolean is refused, and so is a boolean or a number where a
string is expected (YAML 1.1 reads unquoted ``yes``/``no``/``on``/``off`` as booleans and ``1`` as a
number). An unknown key is refused, with the closest known key as a suggestion. The edition config's
schema (``bundle.schema``) is made of these tables, and a track's (``tracks.TRACK_FIELDS``) checks a
phase's ``task.json`` too, where the scoring program cannot import the bundle.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable
from collections.abc import Mapping, Sequence

from .errors import ConfigError, Problem, boolean_problem, counted, plural

QUOTE_HINT = (
    "quote it: YAML reads unquoted yes/no/true/false/on/off as booleans and digits as numbers"
)


@dataclass(frozen=True, eq=False)
class Type:
    """What a field's value must be: its name in docs/edition-config.md, its check (``check_value``
    calls it with the walk, the place, the value's label, the value and the field) and its JSON
    Schema (None: made from the field's items or fields by ``bundle.schema``)."""

    name: str
    check: Callable[..., None]
    json: dict | None = None


@dataclass(frozen=True)
class Field:
    """One key of a mapping: ``type`` (``STR``, ``INT``, ... below), ``required``, ``default`` (the
    docs and the JSON Schema show it; readers take it through ``with_defaults``), ``choices``
    (allowed strings), ``minimum`` and ``maximum`` (numbers), ``length`` (a list's exact length; a
    required list, like a required string, must not be empty), ``items`` (the field of a list's
    entries or a map's values), ``keys`` (allowed keys of a map), ``schema`` (the fields of an
    object, or a function choosing them from the object's value:
    ``bundle.schema.dataset_fields``), ``check`` (a function returning a problem message or None),
    ``what`` (how messages name a bad choice), ``suggest`` (the choices a bad one is matched
    against and shown, when fewer fit its place: a track's metrics, by its kind), ``synonyms``
    (another name an organiser may write -> the allowed value it means: ``ndjson`` -> ``jsonl``;
    its hint names that value, which a misspelling's closest match would not), ``example`` (the
    hint of a missing or misshapen value), ``doc``, and ``extensible``: the choices are the kit's,
    which an edition may add to (a track's metrics: ``metrics_module``), so the JSON Schema gives
    them as ``examples`` an editor suggests, not as an ``enum`` it enforces."""

    type: Type
    doc: str = ""
    required: bool = False
    default: object = None
    choices: Sequence = ()
    minimum: float | None = None
    maximum: float | None = None
    length: int | None = None
    items: Field | None = None
    keys: tuple[str, ...] = ()
    schema: object = None
    check: Callable[[object], str | None] | None = None
    what: str = ""
    suggest: Sequence = ()
    synonyms: Mapping[str, str] = field(default_factory=dict)
    example: str = ""
    extensible: bool = False


@dataclass
class Walk:
    """The state of one validation: the file's name and the problems found so far."""

    display: str
    problems: list[Problem] = field(default_factory=list)

    def place(self, where: str) -> str:
        return f"{self.display}: {where}" if where else self.display

    def add(self, where: str, message: str, **details) -> None:
        self.problems.append(Problem(self.place(where), message, **details))

    def refuse(self, message: str, **details) -> None:
        """A problem at the walk's own place: a rule across its keys."""
        self.add("", message, **details)

    def raise_if_any(self) -> None:
        """The problems found so far as one ConfigError, when there are any."""
        if self.problems:
            raise ConfigError(self.problems)


def _found(value) -> str:
    return f"{value!r} ({type(value).__name__})"[:100]


def shown(value) -> str:
    return repr(value)[:80]


def _example(spec: Field) -> str | None:
    return f"e.g. {spec.example}" if spec.example else None


def _join(where: str, part: str) -> str:
    return f"{where} {part}" if where else part


def did_you_mean(key, known: Sequence, synonyms: Mapping[str, str] = {}) -> str | None:
    """The hint naming the known key ``key`` is another name for (``synonyms``, in any case), else
    the known key closest to it in any case (``closest``), or None."""
    meant = synonyms.get(str(key).lower())
    if meant is not None:
        return f"did you mean '{meant}'? ({str(key)!r} is another name for it)"
    meant = closest(key, known)
    return f"did you mean '{meant}'?" if meant is not None else None


def closest(key, known: Sequence) -> str | None:
    """The known name closest to ``key`` in any case (a misspelling, or ``key`` in another case),
    or None."""
    import difflib  # imported here: only a refusal needs it, and the scoring program imports this

    lowered = {str(name).lower(): str(name) for name in known}
    close = difflib.get_close_matches(str(key).lower(), lowered, n=1, cutoff=0.6)
    return lowered[close[0]] if close else None


#: Item fields an organiser may write as a dataset option meaning "only the items with this value".
ITEM_FIELDS = ("genre", "lang", "label", "id", "score")


def _unknown_key(
    walk: Walk, where: str, key, known: Sequence[str], what: str = "key", synonyms: Mapping = {}
) -> None:
    hint = did_you_mean(key, known, synonyms) or "remove it or correct its name"
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
        shown_choices = spec.suggest or spec.choices
        walk.add(
            where,
            f"unknown {spec.what}" if spec.what else f"{label} has an unknown value",
            expected=" | ".join(shown_choices),
            found=shown(value),
            hint=did_you_mean(value, shown_choices, spec.synonyms),
        )


def _check_number(walk: Walk, where: str, label: str, value, spec: Field) -> None:
    """A number (a whole one for INT) within the field's bounds; every INT field has a minimum."""
    whole = spec.type == INT
    numeric = isinstance(value, int if whole else (int, float)) and not isinstance(value, bool)
    lo = spec.minimum if spec.minimum is not None else float("-inf")
    hi = spec.maximum if spec.maximum is not None else float("inf")
    if numeric and lo <= value <= hi:
        return
    bounds = f"of at least {lo:,}" if spec.maximum is None else f"from {lo:,} to {hi:,}"
    message = f"{label} must be a whole number {bounds}" if whole else f"{label} must be a number"
    walk.add(where, message, found=shown(value), hint=_number_hint(value, spec))


#: A duration's units, as an organiser may write them after the number (``10m``).
DURATION_UNITS = {"s": 1, "sec": 1, "m": 60, "min": 60, "h": 3600, "d": 86400}


def _number_hint(value, spec: Field) -> str | None:
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
        walk.add(where, f"{label} must list at least 1", found=shown(value))
    if spec.length is not None and len(value) != spec.length:
        walk.add(where, f"{label} must list exactly {spec.length} values", found=shown(value))
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
        found=shown(value),
        hint=f"write {name}: [{written}]; YAML reads unquoted digits as numbers "
        "and yes/no/true/false/on/off as booleans",
    )
    return True


def _check_map(walk: Walk, where: str, label: str, value, spec: Field) -> None:
    if not _is_container(walk, where, label, value, spec):
        return
    for key, entry in value.items():
        if spec.keys and key not in spec.keys:
            _unknown_key(walk, where, key, spec.keys, f"key of {label}", spec.synonyms)
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
    if spec.check is None:
        spec.type.check(walk, where, label, value, spec)
    elif message := spec.check(value):
        text, _, expected = message.partition("|")
        walk.add(where, text, expected=expected or None, found=shown(value))


def check_object(walk: Walk, where: str, value: dict, fields: dict[str, Field]) -> None:
    """A mapping against its table of fields: unknown keys, required keys, then each value. A
    required key that an unknown key's did-you-mean names is that one problem, not a second (a
    reader that goes on without the unknown keys checks their absence: ``edition.load_edition``)."""
    unknown = [key for key in value if key not in fields]
    for key in unknown:
        _unknown_key(walk, where, key, list(fields))
    misspelt = {closest(key, list(fields)) for key in unknown}
    for key, spec in fields.items():
        if key in value:
            check_value(walk, where, f"'{key}'", value[key], spec)
        elif spec.required and key not in misspelt:
            expected = spec.doc.split(";")[0] if spec.doc else spec.type.name
            walk.add(where, f"'{key}' is required", expected=expected, hint=_example(spec))


def with_defaults(raw: dict | None, fields: dict[str, Field]) -> dict[str, object]:
    """Every key of ``fields``: its value in ``raw`` (a mapping that passed the schema, or None),
    else its declared default (None when it has none)."""
    return {key: (raw or {}).get(key, spec.default) for key, spec in fields.items()}


def resolve(schema, value):
    """The fields of an object: its table, or the table a variant function chooses for ``value``
    (a dataset's fields depend on its importer)."""
    return schema(value) if callable(schema) else schema


def choice(
    doc: str, choices: Sequence[str], what: str = "", default: str | None = None, **options
) -> Field:
    """A string that must be one of ``choices``; ``what`` names a bad one in messages; ``options``:
    the field's ``required`` and ``synonyms`` (other names meaning one of the choices:
    ``Field.synonyms``)."""
    return Field(STR, doc, default=default, choices=tuple(choices), what=what, **options)


def strings(doc: str, example: str = "", required: bool = False) -> Field:
    return Field(LIST, doc, required=required, items=Field(STR), example=example)


def string_map(doc: str, example: str, entries: Field = Field(STR)) -> Field:
    """A mapping from any names to strings (``entries``)."""
    return Field(MAP, doc, items=entries, example=example)
