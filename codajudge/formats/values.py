"""The rules of one submitted value (numbers, JSON and Python-literal values, labels), which raise
``ValueProblem`` (expected, found), and the warnings of the notes these rules leave (their kinds
and texts are in ``notes``); soft labels are in ``soft``, per-annotator rows in ``perspectivist``."""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Sequence

from .. import kinds
from ..kinds.base import LABEL
from ..errors import first_few
from ..labels import DECIMAL
from ..tracks import Track
from .items import scanned_json
from .notes import PYTHON_LITERAL, ReadNote
from .textfile import NO_QUOTES, other_digits_hint, shorten, unquoted

#: Entries a value may hold beyond the most a valid value of its track holds (``most_entries``), so
#: that a value a few entries too long is named by its own rule (its length).
ENTRY_SLACK = 16
#: A number written with a decimal comma (``2,68``): not a number, named as such by ``parse_number``.
COMMA_DECIMAL = re.compile(r"[+-]?\d+,\d+")
#: NaN and infinity as Python, numpy and pandas print them: numbers, but not finite ones.
NON_FINITE = re.compile(r"[+-]?(?:nan|inf(?:inity)?)", re.IGNORECASE)
#: A JSON string, or a Python one in single quotes (``python_literal``), its escapes removed: what
#: is inside opens no entry. One left unclosed runs to the end of the text (no parser reads past it).
QUOTED = re.compile(r'"[^"]*(?:"|\Z)|\'[^\']*(?:\'|\Z)')
#: The characters that open an entry of a list, tuple or object, outside strings.
ENTRY_OPENERS = ",[{("
#: The fix of a value that is numpy's printing (``np.float64(0.5)``, ``array([...])``,
#: ``[0.3 0.7]``).
NUMPY_HINT = "this is numpy's printing: write json.dumps(x.tolist())"
#: numpy's printing of a number or an array (``np.int64(0)``, ``array([0.3, 0.7])``).
NUMPY_PRINTED = re.compile(r"\b(?:np|numpy)\.\w+\(|\barray\(")
#: The fix of a label written as numpy's printing of a number (``np.int64(0)``).
NUMPY_LABEL_HINT = "this is numpy's printing: write the label itself (x.item(), or int(x))"
#: The hint for a value in quotes, as CSV quoting writes it (csv.QUOTE_ALL, QUOTE_NONNUMERIC).
CSV_QUOTED = f"the value is CSV-quoted: write it without quotes ({NO_QUOTES})"


class ValueProblem(Exception):
    """A refused value; ``kinds``: the kind of its hint's fix where one value may need another fix
    than the next (``Problem.kinds``)."""

    def __init__(
        self, message: str, expected: str = None, found: str = None, hint: str = None, kinds=()
    ):
        super().__init__(message)
        self.message, self.expected, self.found, self.hint = message, expected, found, hint
        self.kinds = tuple(kinds)


def add_problem(problems, problem: ValueProblem, **where) -> None:
    """Add ``problem`` to a ``ProblemCollector`` at ``where`` (its line, its item)."""
    problems.add(**vars(problem), **where)


def show(text: str) -> str:
    return repr(shorten(str(text)))


def show_json(value) -> str:
    """A submitted JSON value, shortened for a message (it is the participant's, never gold)."""
    try:
        return show(json.dumps(value, ensure_ascii=False))
    except (ValueError, RecursionError):
        return "a value too deeply nested to show"


def parse_numbers(texts: Sequence[str]) -> list[float] | None:
    """The rule of a number, over a column of texts at once: each text finite, decimal, in ASCII
    digits (``DECIMAL``, spaces around it aside). The texts as floats when every one is, else None
    (``parse_number`` names the problem of one text)."""
    stripped = list(map(str.strip, texts))
    if not all(map(DECIMAL.fullmatch, stripped)):
        return None
    values = list(map(float, stripped))
    return values if all(map(math.isfinite, values)) else None


def parse_number(text: str, track: Track = None, notes: list[ReadNote] = None) -> float:
    """One number by the rule of ``parse_numbers``, or its problem: not a number (named when it has
    a decimal comma, is numpy's printing or JSON's null, a NaN), or not finite (NaN, infinity, a
    JSON number that overflows: ``_json_float``); ``track`` and ``notes``, unused, make the
    signature of a value type's reader."""
    stripped = text.strip()
    if NON_FINITE.fullmatch(stripped):
        raise ValueProblem("not a finite number", "finite numbers", show(text), NOT_FINITE_HINT)
    if not DECIMAL.fullmatch(stripped):
        comma = COMMA_DECIMAL.fullmatch(stripped)
        hint = "use a dot as the decimal separator" if comma else _not_json_hint(stripped)
        hint = null_hint(stripped) or other_digits_hint(stripped) or hint
        raise ValueProblem("not a number", "a decimal number such as 3.2", show(text), hint)
    return _json_float(stripped)


def is_decimal(text: str) -> bool:
    """Whether ``text`` is a number ``parse_number`` accepts."""
    return parse_numbers([text]) is not None


#: The fix of a value that is NaN or infinite.
NOT_FINITE_HINT = (
    "predict a finite number for every item (the model's output holds NaN or infinity)"
)


#: The fix of a JSON null where a value is expected (a number, a label, a list): pandas' to_json
#: writes a NaN as null.
NULL_HINT = (
    "predict a value for every item (the model's output holds NaN, which pandas' to_json writes "
    "as null)"
)


def null_hint(value) -> str | None:
    """``NULL_HINT`` for a JSON null where a value is expected, read (None) or as text ("null"),
    whatever the value's type; else None."""
    return NULL_HINT if value is None or str(value).strip() == "null" else None


def _reject_constant(name: str):
    raise ValueProblem("not a finite number", "finite numbers", name, NOT_FINITE_HINT)


#: The fix of a number finite as written that a float cannot hold ({0}: its length in characters).
TOO_LARGE_HINT = (
    "the number ({0:,} characters) is too large for a float, whose magnitude is at most about "
    "1.8e308: predict a number within the track's range for every item"
)


def _json_float(text: str) -> float:
    """``text``, a decimal literal, as a float; refused where it overflows to infinity."""
    value = float(text)
    if not math.isfinite(value):
        hint = TOO_LARGE_HINT.format(len(text.strip()))
        raise ValueProblem("number out of range", "finite numbers", show(text), hint)
    return value


def unique_keys(pairs):
    out = {}
    for key, value in pairs:
        if key in out:
            raise ValueProblem("a JSON object has the same key twice", "each key once", show(key))
        out[key] = value
    return out


def _json_int(digits: str):
    return int(digits) if len(digits) <= 300 else _json_float(digits)


#: The JSON reader of ``parse_json``, with its rules on numbers and keys.
_DECODER = json.JSONDecoder(
    parse_constant=_reject_constant,
    parse_float=_json_float,
    object_pairs_hook=unique_keys,
    parse_int=_json_int,
)
#: ``_DECODER`` reading every number token: NaN, Infinity and -Infinity (json.dump's default
#: allow_nan writes them) and numbers that overflow (1e309, integers of over 300 digits) as floats:
#: a file's JSON layout is read with it (``layout_json``), each such value then refused as not
#: finite at its item.
_LAYOUT_DECODER = json.JSONDecoder(
    parse_float=float,
    object_pairs_hook=unique_keys,
    parse_int=lambda digits: int(digits) if len(digits) <= 300 else float(digits),
)


#: How many characters before a JSON error a message shows (of the 60 it shows of a value).
NEAR = 30


def parse_json(text: str, expected: str = "a JSON value", decoder=_DECODER):
    """A JSON value; NaN, Infinity, numbers that overflow to infinity and duplicate keys are refused.
    Integers of over 300 digits are read as floats (Python refuses to convert very long ones to int).
    ``expected``: what a text that is not JSON should be, for its message."""
    try:
        if text.startswith("\ufeff"):  # as json.loads refuses it
            raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
        return scanned_json(text, decoder, decoder.decode)
    except (ValueError, RecursionError) as e:  # JSONDecodeError is a ValueError
        reason, pos = getattr(e, "msg", "too deeply nested or too long"), getattr(e, "pos", 0)
        if pos > NEAR:  # past the start a message shows: where it is, and the text around it
            reason += f", at line {e.lineno}, column {e.colno}"
        found = show(text) if pos <= NEAR else show("..." + text[pos - NEAR :])
        raise ValueProblem(f"not valid JSON ({reason})", expected=expected, found=found)


def json_or_none(text: str):
    """``text`` as one JSON value (``parse_json``), or None where it is none."""
    try:
        return parse_json(text)
    except ValueProblem:
        return None


def layout_json(text: str):
    """``json_or_none`` but NaN, Infinity, -Infinity and numbers that overflow (1e309) read as
    floats: the layout of a file is JSON (lines, an array of records) when it is JSON but for
    them, and ``json.dumps`` writes them back into the value read (as Infinity), which the
    value's own rule refuses as not finite, at its item."""
    try:
        return parse_json(text, decoder=_LAYOUT_DECODER)
    except ValueProblem:
        return None


def entry_count(text: str) -> int:
    """An upper bound, counted without parsing, on the entries (list or tuple items, object members,
    at any depth) of the value ``text`` writes: each entry but a container's first follows a comma,
    and the first its opening bracket or brace. Parsing builds an object of at most about 70 bytes
    per entry (an empty object), so this bounds what the parsed value costs."""
    if '"' in text or "'" in text:  # escaped backslashes first: in '\\"' the quote ends the string
        text = QUOTED.sub("", text.replace("\\\\", "").replace('\\"', "").replace("\\'", ""))
    return sum(map(text.count, ENTRY_OPENERS))


def most_entries(track: Track, row_length: int = 0) -> int:
    """The most entries (``entry_count``) a submitted value of ``track`` is parsed with: what a
    valid value holds (``Kind.most_value_entries``, rows of at most ``row_length`` annotators) and
    ``ENTRY_SLACK``. A value over it is refused before it is parsed, so that no row costs more
    memory than a fixed multiple of what its track can hold."""
    return kinds.of(track).most_value_entries(track, row_length) + ENTRY_SLACK


def parse_value(text: str, track: Track, notes: list[ReadNote], row_length: int = 0):
    """A submitted value: JSON or, where it is not, a Python literal of lists (``python_literal``: pandas'
    to_csv of a list column writes ``str(list)``), noted; else the JSON problem, with a hint on its cause.
    A value of more entries than ``most_entries(track, row_length)`` is refused unparsed."""
    example = track.example.partition("<TAB>")[2]  # a valid value of the track, for messages
    most = most_entries(track, row_length)
    if len(text) > most:  # a text no longer than ``most`` holds no more entries
        holder = "value holds more entries than a value of this track"
        refuse_many_entries(text, most, holder, f"write the item's own value, such as {example}")
    try:
        return parse_json(text, expected=f"a JSON list such as {example}")
    except ValueProblem as problem:
        value = python_literal(text) if problem.message.startswith("not valid JSON") else None
        if value is None:
            stripped = text.strip()
            problem.hint = problem.hint or _not_json_hint(stripped) or _bare_numbers_hint(stripped)
            raise
    notes.append(ReadNote(PYTHON_LITERAL))
    return value


def refuse_many_entries(text: str, most: int, holder: str, hint: str) -> None:
    """Refuse, unparsed, a text of more than ``most`` entries (``entry_count``): ``holder`` says
    what holds it and what it can hold."""
    count = entry_count(text)
    if count > most:
        raise ValueProblem(
            f"the {holder} can",
            expected=f"at most {most:,} list entries and object members",
            found=f"{count:,} (commas and opening brackets outside strings)",
            hint=hint,
        )


#: One token of a Python literal of lists, tuples, strings and numbers, after optional spaces: an
#: opening or closing bracket, a comma, a string in single or double quotes (its escapes kept), a
#: number's text, or any other character (no such literal).
_LITERAL_TOKEN = re.compile(
    r"""\s*(?:([\[(])|([\])])|(,)|('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")|([-+]?[0-9.][-+.0-9eE]*)|(\S))"""
)
#: Python's escapes in a string's repr, and the character each stands for (``\x``, ``\u``, ``\U``:
#: by their hex digits).
_PYTHON_ESCAPE = re.compile(r"\\(?:x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[\\'\"ntr])")
_ESCAPED = {"\\": "\\", "'": "'", '"': '"', "n": "\n", "t": "\t", "r": "\r"}
#: The closing bracket of each opening one (a tuple is read as a list).
_CLOSING = {"[": "]", "(": ")"}


def python_literal(text: str):
    """``text`` as one Python list or tuple in brackets (Python's repr, ``str(list)``) of lists, tuples,
    strings and numbers, tuples read as lists and each number as JSON reads it; else None. One pass
    of ``_LITERAL_TOKEN`` writes the literal as JSON (brackets as lists, a comma before a closing
    bracket dropped, strings re-quoted by ``json.dumps``, numbers as written), which is then read
    once: nothing is evaluated. None where the text is no such literal (another token, brackets
    unmatched, a comma after no value, a parenthesised value without a comma, which is no tuple:
    ``(0.5)`` is 0.5); a value right after another, without a comma, is left to the JSON reader
    to refuse."""
    if text.strip()[:1] not in _CLOSING:
        return None
    # per bracket still open: its closing bracket, then "," once it holds a comma
    parts, closers = [], []
    for token in _LITERAL_TOKEN.finditer(text.rstrip()):  # end spaces: no token, each a retry
        opening, closing, comma, string, number, other = token.groups()
        if other or ((comma or closing) and not closers) or (comma and parts[-1] in ("[", ",")):
            return None
        if opening:
            closers.append(_CLOSING[opening])
            parts.append("[")
        elif comma:
            closers[-1] = closers[-1][0] + ","
            parts.append(",")
        elif closing:
            closer = closers.pop()
            if closer[0] != closing or (closer == ")" and parts[-1] != "["):
                return None
            if parts[-1] == ",":
                parts.pop()
            parts.append("]")
        else:
            parts.append(number or _json_string(string))
    return None if closers else json_or_none(" ".join(parts))


def _json_string(quoted: str) -> str:
    """A Python string literal (quotes included) as a JSON string."""
    return json.dumps(_PYTHON_ESCAPE.sub(_unescaped, quoted[1:-1]), ensure_ascii=False)


def _unescaped(escape: re.Match) -> str:
    code = escape.group()[1:]
    return _ESCAPED.get(code) or chr(int(code[1:], 16))


def is_percent(text: str) -> bool:
    """Whether ``text`` is a number ``parse_number`` accepts followed by a % sign: ``62.7%``."""
    return text.endswith("%") and is_decimal(text[:-1])


#: The fix of a number written as a percentage.
PERCENT_HINT = "write the number without the % sign (62.7, not 62.7%)"


def parse_probability(text: str) -> float:
    """``parse_number`` of a probability (a soft label's entry): a percentage (``87%``) is told to
    divide it by 100 (0.87), not only to drop its % sign (87, a probability above 1)."""
    try:
        return parse_number(text)
    except ValueProblem as problem:
        stripped = text.strip()
        if is_percent(stripped):
            problem.hint = (
                f"a probability is a number from 0 to 1: divide the percentage by 100 "
                f"({float(stripped[:-1]) / 100:g}, not {stripped})"
            )
        raise


def _not_json_hint(text: str):
    """The likely writer of a value that is neither JSON nor a ``python_literal``, and what to write instead."""
    if is_percent(text):
        return PERCENT_HINT
    if NUMPY_PRINTED.search(text) or (
        text.startswith("[") and "," not in text and re.search(r"[\d.]\s+[-+.\d]", text)
    ):
        return NUMPY_HINT
    if text.startswith('"') and '""' in text:
        return CSV_QUOTED
    return CSV_QUOTED if is_quoted_number(text) else other_digits_hint(text)


def is_quoted_number(text: str) -> bool:
    """Whether ``text`` is a number ``parse_number`` accepts in double or single quotes (CSV
    quoting, ``repr`` of a string): ``"0.2174"``."""
    inner = unquoted(text)
    return inner is not None and is_decimal(inner)


def _bare_numbers_hint(text: str) -> str | None:
    """The hint for two or more numbers apart without brackets (``0.2;0.3;0.5``, a list written as
    CSV cells), naming their separator: write a JSON list; else None (``0,3`` is a decimal comma)."""
    separator = next((s for s in ";,\t" if s in text), None)
    parts = [part.strip() for part in text.split(separator)]
    if len(parts) < 2 or not all(map(is_decimal, parts)) or COMMA_DECIMAL.fullmatch(text):
        return None
    name = {";": "semicolons", ",": "commas", "\t": "tabs", None: "spaces"}[separator]
    listed = shorten("[" + ", ".join(parts) + "]")
    return (
        f"the values are separated by {name}, without brackets: write them as a JSON list in "
        f"brackets, comma-separated, such as {listed} (json.dumps(list))"
    )


#: The types of a JSON number (true and false are bools, a type of their own).
NUMBER_TYPES = frozenset((int, float))


def is_number(x) -> bool:
    """A JSON number (``parse_json`` refuses those that are not finite)."""
    return type(x) in NUMBER_TYPES


def not_a_number_hint(value) -> str | None:
    """The fix for a JSON value, written where a number is expected, that is a boolean or a number
    in quotes (``"1"``), or null (``null_hint``); else None."""
    if value is None:
        return NULL_HINT
    if type(value) is bool:
        return (
            "booleans are not accepted as numbers: write 1 for true and 0 for false (int(x); a "
            "numpy array of booleans: x.astype(int))"
        )
    if isinstance(value, str) and is_decimal(value):
        return "the number is in quotes: write it as a JSON number, without quotes"
    return None


def is_finite_number(x) -> bool:
    """A JSON number that is a finite float: not NaN or infinite, nor an int beyond the largest
    float (``10**400``, which has no float)."""
    return is_number(x) and abs(x) <= sys.float_info.max


def _loose_label(text: str) -> str:
    return re.sub(r"[\s_-]+", "", str(text)).casefold()


#: Words a release's own annotation names labels by, each with the label it stands for (OCNLI's
#: annotators chose among these Chinese words): a refusal names the label to write instead.
ANNOTATION_WORDS = {"蕴含": "entailment", "中立": "neutral", "矛盾": "contradiction"}


def outside_label_set(value, track: Track, shown: str, hint: str = None) -> ValueProblem:
    """The problem of a label outside the set, naming the label it probably meant (``label_meant``), or,
    where no label is a number, the label a whole number 0..K would be as a class index (and
    Hugging Face's LABEL_k on any track: ``_class_index_hint``), or, on a
    track of one label per item, that items without a majority label need a label too; else ``hint``."""
    index, fix = str(value).strip(), ()  # fix: the kind of the hint's fix (``Problem.kinds``)
    # '-': how SNLI, MNLI and OCNLI write the label of an item without a majority
    if index == "-" and kinds.of(track).value_type == LABEL:
        fix = ("dash",)
        hint = "'-' marks an item with no majority label in the release: the track does not score such items, but each needs one of its labels (any one)"
    meant = label_meant(index, track)
    as_index = None if meant else _class_index_hint(index, track)
    if as_index:
        fix, hint = ("class index",), as_index
    labels = ", ".join(track.labels)
    fix = (meant.partition(":")[0],) if meant else fix  # a case's fix is not an abbreviation's
    hint = meant or null_hint(value) or other_digits_hint(index, "the label") or hint
    hint = hint or (NUMPY_LABEL_HINT if NUMPY_PRINTED.match(index) else None)
    hint = hint or f"give a label among {labels}"
    return ValueProblem("label outside the track's label set", f"one of {labels}", shown, hint, fix)


#: Hugging Face's name of class index k where a model's config has no id2label (``LABEL_0``).
HF_DEFAULT_LABEL = re.compile(r"LABEL_([0-9]{1,6})")


def _class_index_hint(index: str, track: Track) -> str | None:
    """The hint for a label written as a class index: Hugging Face's default name ``LABEL_k``
    (counted from 0), or, where no label is a number, a whole number 0..K (counted from 0 or 1);
    each naming the label it would be; else None."""
    labels, default = track.labels, HF_DEFAULT_LABEL.fullmatch(index)
    if default:
        number, bases = int(default[1]), (0,)
        config = "a model config without id2label"
        named = f"{index} is Hugging Face's name of class index {number} ({config}), and "
    elif DECIMAL.fullmatch(index) and not track.label_set.numbers:
        number, bases, named = float(index), (0, 1), ""
    else:
        return None
    readings = [
        f"{labels[int(number) - b]!r} counted from {b}"
        for b in bases
        if 0 <= number - b < len(labels) and number == int(number)
    ]
    if not readings:
        return None
    order = ", ".join(labels)
    return (
        f"{named}labels are names, not class indices: write the name itself (as an index in the "
        f"order {order}, {int(number)} is {' or '.join(readings)}; your model's own label order "
        "may differ)"
    )


def labels_meant(texts: list[str], track: Track) -> str | None:
    """The hint naming the label each of ``texts`` (an object's unknown keys) probably means, all of
    them when each is a label or alias but for case, spaces, '_' and '-' (``E``) or the start of
    one label; else ``label_meant`` of the first."""
    names = list(track.labels) + list(track.label_set.aliases)
    pairs = []
    for text in texts if len(texts) > 1 else []:
        loose = _loose_label(text)
        meant = [name for name in names if _loose_label(name) == loose]
        meant = meant or [label for label in track.labels if _loose_label(label).startswith(loose)]
        if not loose.isalpha() or len(set(meant)) != 1:
            return label_meant(texts[0], track)
        pairs.append(f"{meant[0]!r} for {text!r}")
    if not pairs:
        return label_meant(texts[0], track) if texts else None
    return (
        f"write each of the {len(pairs)} keys as the track spells it: {first_few(pairs)} "
        "(labels are matched exactly; case and spaces count)"
    )


def label_meant(text: str, track: Track) -> str | None:
    """The hint naming the label (or alias) ``text`` probably means: the same but for case, spaces,
    '_' and '-' (``Neutral``); one the annotation names by ``text`` (``ANNOTATION_WORDS``); or the
    one label whose start it is (``e``, on a track without such aliases); else None. A label or
    alias in quotes is named as CSV-quoted."""
    inner = unquoted(text)
    if inner is not None and track.label_set.code(inner) >= 0:
        return CSV_QUOTED
    loose = _loose_label(text)  # once: the value is the participant's, of any length
    names = list(track.labels) + list(track.label_set.aliases)
    near = [name for name in names if _loose_label(name) == loose]
    starting = [label for label in track.labels if _loose_label(label).startswith(loose)]
    if near:
        return f"labels are matched exactly: write {near[0]!r} (case and spaces count)"
    if ANNOTATION_WORDS.get(text) in track.labels:
        words = (
            f"{label} for {word}" for word, label in ANNOTATION_WORDS.items() if label in names
        )
        return f"write the track's labels, not the annotation's words: {', '.join(words)}"
    if loose.isalpha() and len(starting) == 1:
        aliases = ", ".join(track.label_set.aliases) or "none"
        return (
            f"write labels in full (this track's abbreviations: {aliases}): {starting[0]!r} "
            f"for {text!r}"
        )
    return None


def parse_label(text: str, track: Track, notes: list[ReadNote]) -> int:
    """One label by the track's label policy (``LabelSet``); ``notes``, unused, makes the signature
    of a value type's reader."""
    code = track.label_set.code(text)
    if code < 0:
        raise outside_label_set(text.strip(), track, show(text))
    return code
