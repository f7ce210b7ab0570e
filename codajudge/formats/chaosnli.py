"""ChaosNLI's own prediction layout: one JSON document per part, read for a soft-label track (the
probabilities) and for a classification track (the labels), so that one file submits both.

The layout is what ChaosNLI's official script reads (easonnie/ChaosNLI, ``src/evaluation/tools.py``)::

    {"model name": {"2407214681.jpg#0r1n": {"predicted_probabilities": [pE, pN, pC],
                                             "predicted_label": "neutral"}, ...}}

Probabilities (or ``logits``, turned into probabilities by a softmax, as the script's
``model_label_dist`` does) come in ChaosNLI's fixed label order e, n, c and are put in the track's
order by name; ``predicted_label`` is a letter (e, n, c) or a full name, read through the track's
``LabelSet`` (the edition declares the letters as ``label_aliases``, as the script's
``simply_nli_label_mapping`` maps them). A record may repeat its own ``uid`` (the repository's
samples do): it must then be its key. The file holds one model.
"""

from __future__ import annotations

import codecs
import re
from pathlib import Path

import numpy as np

from .. import kinds
from ..errors import ProblemCollector, SubmissionError, counted, plural
from ..kinds.base import DISTRIBUTION, LABEL
from ..tracks import Track
from ..untrusted import read_head
from .coverage import missing_items, part_items, unknown_id
from .notes import VALUE_NOTES, note_warnings
from .soft import soft_label_by_name
from .textfile import PRETTY_JSON, Rule, opened, shorten, utf8_text
from .values import (
    ValueProblem,
    add_problem,
    outside_label_set,
    refuse_many_entries,
    is_number,
    parse_json,
    show,
    show_json,
)

#: ChaosNLI's label order of ``predicted_probabilities`` and ``logits`` (its ``label_count`` order).
LABEL_ORDER = ("entailment", "neutral", "contradiction")
PROBABILITIES_KEY, LOGITS_KEY = "predicted_probabilities", "logits"
LABEL_KEY = "predicted_label"
PREDICTION = '{"predicted_probabilities": [pE, pN, pC], "predicted_label": "e"}'
RECORD = "{uid: " + PREDICTION + "}"
EXAMPLE = '{"my_model": ' + RECORD + "}"
#: The start of such a document: an object whose first value is an object whose first value is one.
_OPENING = re.compile(
    rb'[ \t\r\n]*\{[ \t\r\n]*"(?:[^"\\]|\\.)*"[ \t\r\n]*:[ \t\r\n]*\{[ \t\r\n]*'
    rb'(?:"(?:[^"\\]|\\.)*"[ \t\r\n]*:[ \t\r\n]*\{|\})'
)
PEEK_BYTES = 64 * 1024
#: Entries (``values.entry_count``) a document may hold per item of its track, and beyond those: a
#: record holds about 6 (its uid, 3 probabilities, its label), the model's object 2.
ENTRIES_PER_ITEM = 32
ENTRY_SLACK = 64
NOTE = "the file was read in ChaosNLI's own layout ({{model: {{uid: {{...}}}}}}), model {!r}"


def is_chaosnli_document(path: Path) -> bool:
    """Whether the file opens as ChaosNLI's layout: ``{"model": {"uid": {`` (a BOM and spaces aside).
    Nothing else the kit reads opens so (a JSON line's values are not objects)."""
    head = read_head(path, PEEK_BYTES) or b""  # None: the usual reader names the problem
    return bool(_OPENING.match(head.removeprefix(codecs.BOM_UTF8)))


#: The keys that make a JSON object one of ChaosNLI's records, whatever holds it.
RECORD_KEYS = ("uid", PROBABILITIES_KEY, LOGITS_KEY, LABEL_KEY)
KEYED = 'json.dump({"my_model": {r["uid"]: r for r in records}}, f)'
MISSHAPEN = "ChaosNLI records not in ChaosNLI's layout"
DOCUMENT = "one document " + EXAMPLE
#: What the kit's JSON lines are: each line its item's id under "id" and one value.
JSON_LINE = 'one object {"id": ID, "any name": VALUE} a line'


def misshapen_records(value, reads=None) -> ValueProblem | None:
    """The problem of a JSON line holding ChaosNLI's records (``RECORD_KEYS``) in a shape other
    than its layout: a record of its own (JSON lines; ``reads``: whether the track reads a value,
    ``_record_lines``), uid -> record without the model's name, or a list of records (a model's, or
    one of its own); or ChaosNLI's layout of records that are lists of 3 probabilities, not
    objects; else None."""
    first = next(iter(value.values()), None) if isinstance(value, dict) else None
    listed = value if isinstance(value, list) else first  # a model's list, or one of its own
    head = listed[0] if isinstance(listed, list) and listed else None
    if isinstance(value, dict) and any(key in value for key in RECORD_KEYS):
        return _record_lines(value, reads)
    shapes = (
        (first, "uid -> record, without the model's name", 'json.dump({"my_model": records}, f)'),
        (head, "a JSON array of records", KEYED),
    )
    for record, found, fix in shapes:
        if isinstance(record, dict) and any(key in record for key in RECORD_KEYS):
            hint = "key each record by its uid under the model's name: " + fix
            return ValueProblem(MISSHAPEN, DOCUMENT, found, hint)
    uid, record = next(iter(first.items() if isinstance(first, dict) else ()), (None, None))
    if isinstance(record, list) and len(record) == 3 and all(map(is_number, record)):
        found = f"the record of uid {shorten(uid)!r} is a list, {show_json(record)}"
        keys = f"{PROBABILITIES_KEY!r} (or {LOGITS_KEY!r}) and {LABEL_KEY!r}"
        hint = f"write each uid's record as an object with {keys}"
        return ValueProblem("a ChaosNLI record must be an object", DOCUMENT, found, hint)
    return None


def _record_lines(record: dict, reads=None) -> ValueProblem:
    """The problem of ChaosNLI's records written one a line (``record``: the first), its fix built
    from the record's own keys: one document keyed by its id where it holds ChaosNLI's probabilities
    (or logits) and label, and the kit's JSON lines (the id under "id", which JSON lines read, never
    "uid") of one value each, of the keys whose values the track reads (``reads``, a JSON value ->
    bool) where some are read, else of the first two; every fix, followed, is read."""
    keys = list(map(str, record))
    id_key = next((key for key in ("uid", "id") if key in keys), None)
    values = [key for key in keys if key != id_key]
    values = [key for key in values if reads and reads(record[key])] or values
    found = f"one record a line (JSON lines) of {len(keys)} keys: {shorten(', '.join(keys))}"
    if id_key is None:
        hint = 'write each item\'s id under "id" and keep one value beside it'
        return ValueProblem(MISSHAPEN, JSON_LINE, found, hint)
    lines = " or ".join(f'{{"id": r["{id_key}"], "{key}": r["{key}"]}}' for key in values[:2])
    hint = f'write one line per item, the id under "id" and one value: {lines}'
    hint += " (the one the track reads)" if len(values) > 1 else ""
    probabilities = any(key in keys for key in (PROBABILITIES_KEY, LOGITS_KEY))
    if not (probabilities and LABEL_KEY in keys):
        return ValueProblem(MISSHAPEN, JSON_LINE, found, hint)
    keyed = f'json.dump({{"my_model": {{r["{id_key}"]: r for r in records}}}}, f)'
    document = (
        f"key each record by its {id_key} under the model's name: write one document: {keyed}"
    )
    return ValueProblem(MISSHAPEN, DOCUMENT, found, f"{document}; or {hint}")


def pretty_records(error: SubmissionError, path: Path, track: Track, ids: list[str], elsewhere):
    """``error`` (a file's refusal), or where it refuses a pretty-printed JSON document
    (``textfile.PRETTY_JSON``) that holds ChaosNLI's records in another shape (``misshapen_records``),
    the refusal naming ChaosNLI's layout instead of a JSON-lines fix, and where it refuses the
    records of a one-line JSON array as JSON lines, the refusal naming the array (``elsewhere``: as
    ``read_chaosnli`` takes it)."""
    if not error.problems or error.problems[0].message not in (PRETTY_JSON.message, MISSHAPEN):
        return error
    display = error.problems[0].file
    try:
        problem = misshapen_records(_parsed(path, display, _part_items(track, ids, elsewhere)))
    except SubmissionError:
        return error
    return SubmissionError.single(display, **vars(problem)) if problem else error


def document_uids(path: Path, display: str, n_items: int) -> set | None:
    """The uids of a ChaosNLI document's one model, or None for any file that is not one, or is
    larger than one for a track of ``n_items`` items (the reader then names its problem when a
    track claims it); a document of several models is refused (``_several_models``), whatever its
    name, as ChaosNLI's own file of several models is named for no track."""
    try:
        return set(_document(path, display, n_items)[1]) if is_chaosnli_document(path) else None
    except SubmissionError as error:
        if error.problems[0].message == SEVERAL_MODELS:
            raise
        return None


def read_chaosnli(
    path: Path, display: str, track: Track, ids: list[str], elsewhere=None, tracks=()
):
    """(values aligned with ``ids``, warnings) for ``track``: probabilities ``(N, K)`` in the track's
    label order for a soft-label track (``soft.soft_label``'s rules, a record's logits turned into
    probabilities), label indices ``(N,)`` for a classification track (``predicted_label``, by the
    track's ``LabelSet``: a letter its aliases declare, or a name). The document is read within the
    bounds of the dataset's whole part: ``ids`` and the other phases' items (``elsewhere``, a
    ``coverage.OtherPhases``, which also names the phase of a document of only its uids);
    ``tracks``: the edition's, to name the files of another part whose records it holds."""
    order = _track_order(track, display)  # refuses a track the layout does not fit, before reading
    model, records = _document(path, display, _part_items(track, ids, elsewhere))
    problems, notes = ProblemCollector(display), []
    position, skipped = _positions(records, ids, problems, elsewhere, tracks)
    soft = kinds.of(track).value_type is DISTRIBUTION
    unlabelled = "" if soft else _no_label_hint(track, tracks, display)
    k = len(track.labels)
    values = np.zeros((len(ids), k)) if soft else np.full(len(ids), -1, dtype=np.int64)
    for uid, i in position.items():
        try:
            record = _record(records[uid], uid)
            if soft:
                probabilities = _probabilities(record)  # a list in e, n, c order, or by label
                at = slice(None) if isinstance(probabilities, dict) else order
                values[i, at], read = soft_label_by_name(probabilities, track)
                notes += read
            else:
                values[i] = _label_code(record.get(LABEL_KEY), track, unlabelled)
        except ValueProblem as p:
            add_problem(problems, p, item=uid)
    problems.raise_if_any()
    return values, [NOTE.format(shorten(model))] + skipped + note_warnings(notes, VALUE_NOTES)


def _positions(records: dict, ids: list[str], problems: ProblemCollector, elsewhere, tracks):
    """(uid -> item index of the records whose uid is an item of the track, warnings). A document
    holding a record for every item of the track may hold records of other items (``_elsewhere``),
    left out with a warning naming how many and one of them. A document of no item but of another
    phase's (``elsewhere``) is refused naming that phase. Otherwise a record naming no item is
    refused (with the part it is an item of, if another: ``_part_hint``), and the items without a
    record are named (as ``submission`` names them) unless no record is of an item: the refusal of
    its uids then says why, and a second problem listing every item would repeat it."""
    index = {item_id: i for i, item_id in enumerate(ids)}
    position = {uid: index[uid] for uid in records if uid in index}
    others = [uid for uid in records if uid not in index]
    phase = elsewhere(others) if elsewhere is not None and not position else None
    if phase:
        message = "none of the document's uids belong to the track"
        rule = Rule(message, f"uids such as {ids[0]!r}", phase)
        raise rule.error(problems.file, f"uids such as {shorten(others[0])!r}")
    parts = {uid: elsewhere.part_of(uid) if elsewhere else None for uid in others}
    every = elsewhere is not None and len(position) == len(ids)
    skipped = _elsewhere(records, parts, elsewhere) if every else {}
    for uid in (uid for uid in others if uid not in skipped):
        part_hint = _part_hint(parts[uid], elsewhere, problems.file, tracks)
        hint = _keyed_otherwise(records[uid], uid, index) or part_hint
        unknown_id(problems, uid, index, hint=hint)
    if position or not others:  # a document of no item of the track: its uids' problem says it
        missing_items(ids, sorted(position.values()), problems)
    return position, [_skipped_note(skipped, elsewhere.dataset, len(ids))] if skipped else []


def _elsewhere(records: dict, parts: dict, elsewhere) -> dict[str, str]:
    """uid -> part of the records (``parts``: uid -> the dataset it is an item of, or None) that
    the track's reading leaves out: another phase's items of its part (a whole ChaosNLI part, of
    which a phase scores some) and this phase's items of another part whose every item the
    document holds (ChaosNLI's one document for both parts, read by each part's tracks)."""
    whole = {part for part, (ids, _) in elsewhere.parts.items() if ids <= records.keys()}
    return {uid: part for uid, part in parts.items() if part == elsewhere.dataset or part in whole}


def _skipped_note(skipped: dict, own: str, n_items: int) -> str:
    """The warning for the records ``_elsewhere`` leaves out (``own``: the track's dataset, named,
    since the one note per file of each part's tracks would otherwise read the same)."""
    phases = [uid for uid, part in skipped.items() if part == own]
    notes = [
        f"its records of part {p!r} are read for that part's tracks"
        for p in sorted(set(skipped.values()) - {own})
    ]
    if phases:
        were = plural(len(phases), "was", "were")
        notes.append(
            f"{counted(len(phases), 'record')} of other phases' items (such as {shorten(phases[0])!r}) {were} skipped"
        )
    return (
        f"the document holds more than the {counted(n_items, 'item')} of part {own!r} that its "
        f"tracks read here: {'; '.join(notes)}"
    )


def _part_hint(part: str | None, elsewhere, display: str, tracks) -> str | None:
    """The hint for an unknown uid of the file ``display`` that is an item of ``part``, another
    dataset, else None: write its record in the file of that part's tracks or, when none is
    another file, in a file named as their ``tracks``' files are."""
    if part is None or part == elsewhere.dataset:
        return None
    file = elsewhere.parts[part][1] if part in elsewhere.parts else None
    if file in (None, display):
        names = dict.fromkeys(name for t in tracks if t.dataset == part for name in t.file_names)
        named = f" ({' or '.join(names)}, any case; * stands for any text)" if names else ""
        file = f"a file named for that part's tracks{named}, not {display}"
    return (
        f"that uid is an item of part {part!r}, not of this one: write its record in {file} (or "
        "one document holding every item of both parts)"
    )


def _keyed_otherwise(record, key: str, index: dict[str, int]) -> str | None:
    """The hint for a record under ``key``, no id of the track, whose own ``uid`` is one (``index``:
    id -> item index), as in a document keyed by row number; else None."""
    uid = record.get("uid") if isinstance(record, dict) else None
    if not isinstance(uid, str) or uid not in index:
        return None
    return (
        f"the record under {shorten(key)!r} holds the uid {uid!r}, an id of the track: key each "
        f"record by its uid, not its row number: {KEYED}"
    )


def _part_items(track: Track, ids: list[str], elsewhere) -> int:
    """The items of the dataset's whole part: ``ids`` and the other phases' (``elsewhere``)."""
    return part_items(len(ids), elsewhere.phases if elsewhere is not None else {}, track.dataset)


def _track_order(track: Track, display: str) -> np.ndarray:
    """For each of ChaosNLI's labels (e, n, c), its index among the track's labels."""
    fits = kinds.of(track).value_type is LABEL or track.scale == "categorical"
    if fits and sorted(track.labels) == sorted(LABEL_ORDER):
        return np.array(track.label_set.codes(LABEL_ORDER))
    expected = f"a file of track '{track.id}' as the starting kit writes it (ID<TAB>VALUE lines)"
    hint = "ChaosNLI's layout is for NLI tracks labelled entailment, neutral, contradiction"
    rule = Rule("ChaosNLI's layout does not apply to this track", expected, hint)
    raise rule.error(display, "a ChaosNLI prediction document")


def _document(path: Path, display: str, n_items: int):
    """(model name, uid -> record) of the file parsed as one JSON object of exactly one model,
    within the byte bound of ``textfile.read_texts`` for ``n_items`` (a dataset's whole part) and,
    before it is parsed, ``ENTRIES_PER_ITEM`` entries per item."""
    document = _parsed(path, display, n_items)
    try:
        if len(document) != 1:  # records keyed by uid alone are told as such
            raise misshapen_records(document) or _several_models(list(document))
        ((model, records),) = document.items()
        if not isinstance(records, dict):
            raise ValueProblem(
                "the model's predictions must be an object of uid -> prediction",
                expected=EXAMPLE,
                found=show_json(records),
            )
    except ValueProblem as p:
        raise SubmissionError.single(display, **vars(p))
    return model, records


def _parsed(path: Path, display: str, n_items: int):
    """The file's JSON value, read within the byte bound of ``textfile.read_texts`` for ``n_items``
    (a dataset's whole part) and, before it is parsed, ``ENTRIES_PER_ITEM`` entries per item; a
    problem is refused as the file's (a number that is not finite naming its record)."""
    with opened(path, display, n_items) as f:
        text = utf8_text(f.read(), display, SubmissionError)
    most = ENTRIES_PER_ITEM * n_items + ENTRY_SLACK
    holder = (
        "document holds more entries than the predictions for the "
        f"{n_items:,} items of the track's dataset (those of every phase)"
    )
    try:
        refuse_many_entries(text, most, holder, f"write one record per item: {RECORD}")
    except ValueProblem as p:  # several models' records are many: their number is what is wrong
        models = _model_names(text)
        raise SubmissionError.single(display, **vars(_several_models(models) if models[1:] else p))
    try:
        return parse_json(text, expected=EXAMPLE)
    except ValueProblem as p:
        item = _record_at(text, p.found.strip("'")) if p.message in NOT_FINITE else None
        raise SubmissionError.single(display, **vars(p), item=item)


#: ``values.parse_json``'s problems of a number (NaN, Infinity, 1e999), which it names without
#: where it is: a document names its record.
NOT_FINITE = ("not a finite number", "number out of range")
#: A string, and what follows it when it is a key opening an object (a record's uid, or a
#: record's own key). Each string is one match, its closing quote optional (unterminated, it runs
#: to the end), so that finditer never retries inside one: a scan is linear in the document.
_OBJECT_KEY = re.compile(r'"((?:[^"\\]|\\.)*)"?(\s*:\s*\{)?')


SEVERAL_MODELS = "a ChaosNLI prediction file must hold one model"


def _several_models(models: list[str]) -> ValueProblem:
    """The problem of a document whose models (its keys) are not one, naming them and how to keep
    one."""
    first = show((models or ["my_model"])[0])
    keep = f", as json.dump({{{first}: document[{first}]}}, f) does"
    return ValueProblem(
        SEVERAL_MODELS,
        expected="{model_name: {uid: {...}}} with one model name",
        found=f"{len(models)} models: " + ", ".join(map(show, models[:5])),
        hint=f"keep one model in the file{keep}; submit each other one on its own",
    )


#: A string (a key when a colon follows it) or a bracket, as ``_model_names`` scans a document
#: (linear: a string, its closing quote optional, is one match, as in ``_OBJECT_KEY``).
_TOKEN = re.compile(r'"((?:[^"\\]|\\.)*)"?(\s*:)?|[\[\]{}]')


def _model_names(text: str) -> list[str]:
    """The keys of the document's outer object (its models) as written, found without parsing it."""
    names, depth = [], 0
    for match in _TOKEN.finditer(text):
        depth += {"{": 1, "[": 1, "}": -1, "]": -1}.get(match.group(), 0)
        if depth == 1 and match.group(2):
            names.append(match.group(1))
    return names


def _record_at(text: str, number: str) -> str | None:
    """The uid of the record whose value holds ``number`` (as the document writes it) first, else
    None: the last object key before it that is no key of a record (``RECORD_KEYS``)."""
    at = re.search(rf"[\[:,\s]{re.escape(number)}[\],}}\s]", text)
    keys = [m[1] for m in _OBJECT_KEY.finditer(text, 0, at.start() if at else 0) if m[2]]
    uid = next((key for key in reversed(keys[1:]) if key not in RECORD_KEYS), None)
    return shorten(uid) if uid else None


def _record(record, uid: str) -> dict:
    """A record, which must be an object, its ``uid`` (if any) its key."""
    if not isinstance(record, dict):
        raise ValueProblem("a prediction must be an object", PREDICTION, show_json(record))
    if "uid" in record and record["uid"] != uid:
        raise ValueProblem(
            "the record's 'uid' is not its key",
            repr(uid),
            _shown(record["uid"]),
            "key each record by its own uid, {uid: {\"uid\": uid, ...}}, or leave 'uid' out",
        )
    return record


def _probabilities(record: dict):
    """A record's probabilities in ChaosNLI's order e, n, c, or the softmax of its 3 finite logits
    (shifted by their maximum: the same probabilities as the script's ``exp(x) / sum(exp(x))``
    wherever that does not overflow; a shift that overflows, logits near -1e308 and 1e308, is -inf,
    whose exp is 0: no warning, no NaN)."""
    if PROBABILITIES_KEY in record:
        return record[PROBABILITIES_KEY]
    if LOGITS_KEY not in record:
        raise ValueProblem(
            "the prediction has no probabilities",
            expected=f"a key {PROBABILITIES_KEY!r} (or {LOGITS_KEY!r}) with 3 values for e, n, c",
            found="keys " + shorten(", ".join(map(str, record))),
            hint=f"give each record its probabilities, {PROBABILITIES_KEY!r}: [pE, pN, pC], or a "
            f"model's raw scores as {LOGITS_KEY!r}: [lE, lN, lC] (read through a softmax)",
        )
    logits = record[LOGITS_KEY]
    if not (isinstance(logits, list) and len(logits) == 3 and all(map(is_number, logits))):
        raise ValueProblem(
            "'logits' must be 3 numbers for e, n, c", "e.g. [1.2, -0.3, 0.4]", show_json(logits)
        )
    with np.errstate(over="ignore"):
        shifted = np.exp(np.array(logits, dtype=float) - max(logits))
    return (shifted / shifted.sum()).tolist()


def _no_label_hint(track: Track, tracks, display: str) -> str:
    """How to fix a document read for ``track`` (a classification track) whose records have no
    ``predicted_label``, which ChaosNLI's script requires too: add it, the label of the highest
    probability; or, for the probabilities alone, name the document as the file of the part's
    soft-label track (among the edition's ``tracks``), which is read for that track only."""
    names = ", ".join(f'"{label}"' for label in LABEL_ORDER)
    hint = (
        f"add {LABEL_KEY!r} to each record, the label of its highest probability: "
        f"[{names}][int(np.argmax(r[{PROBABILITIES_KEY!r}]))] (or of its {LOGITS_KEY!r})"
    )
    soft = [
        t for t in tracks if t.dataset == track.dataset and kinds.of(t).value_type is DISTRIBUTION
    ]
    files = " or ".join(f"{t.file_names[0]} (track '{t.id}')" for t in soft)
    return (
        f"{hint}; or, to submit the probabilities alone, rename {display} {files}" if soft else hint
    )


def _label_code(label, track: Track, unlabelled: str = "") -> int:
    """``label``'s index among the track's labels, by its ``LabelSet``; a label outside it is
    refused as a file of lines refuses it (``values.outside_label_set``); none is refused with
    ``unlabelled`` (``_no_label_hint``) as its hint."""
    code = track.label_set.code(label)
    if code < 0 and label is None:
        names = ", ".join(list(track.label_set.aliases) + list(track.labels))
        expected = f"{LABEL_KEY!r}: one of {names}"
        problem = "the prediction has no label e, n or c"
        raise ValueProblem(problem, expected, "no 'predicted_label'", unlabelled or None)
    if code < 0:
        raise outside_label_set(label, track, _shown(label))
    return code


def _shown(value) -> str:
    """A record's value for a message: a string as a file of lines shows it (quoted once), any
    other value as JSON."""
    return show(value) if isinstance(value, str) else show_json(value)
