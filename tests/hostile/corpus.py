"""A corpus of hostile and broken submissions for the edition in ``edition.py``.

Each ``Case`` is what lands in INPUT/res (files, links, FIFOs, sparse files, or no folder at all),
the exit code the scoring program must return and a regex its message must match: stderr for a
refusal (naming the file and, where there is one, the line and item id), stdout for an accepted
submission. ``cases()`` builds them all; ``materialise`` lays one out on disk as the platform would.

Run ``python3 tests/hostile/corpus.py`` for a count per group.
"""

from __future__ import annotations

import json
import os
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

try:
    from . import edition as ed
    from .zips import make_zip, patch
except ImportError:  # run as a script
    import edition as ed  # type: ignore
    from zips import make_zip, patch  # type: ignore

FAIL, OK = 2, 0
#: Sparse files this large are refused from their size alone (never read).
HUGE_BYTES = 1024**3  # "a 1 GB single line"
BOM = b"\xef\xbb\xbf"


@dataclass
class Case:
    """One submission and what the scoring program must do with it."""

    name: str
    group: str  # a track id, or archive / folder / ingestion / multi
    files: dict[str, bytes] = field(default_factory=dict)  # path in res -> content
    exit_code: int = FAIL
    pattern: str = ""  # regex on stderr (refusal) or stdout (accepted)
    links: dict[str, str] = field(
        default_factory=dict
    )  # path in res -> target ('@ref/..', '@outside/..')
    fifos: tuple[str, ...] = ()
    sparse: dict[str, int] = field(default_factory=dict)  # path in res -> size
    without_res: bool = False
    escapes: tuple[
        str, ...
    ] = ()  # file names an escaping write would create outside the work folder
    hostile: tuple[str, ...] = ()  # raw strings that must never appear unescaped in the HTML

    def fingerprint(self) -> tuple:
        return (
            tuple(sorted(self.files.items())),
            tuple(sorted(self.links.items())),
            self.fifos,
            tuple(sorted(self.sparse.items())),
            self.without_res,
        )


def at(file: str, line: int | None = None, item: str | None = None) -> str:
    """Regex of a rendered problem's location prefix, at the start of a stderr line."""
    where = (
        file
        + (f", line {line}" if line is not None else "")
        + (f", item {item!r}" if item is not None else "")
    )
    return r"(?m)^" + re.escape(where) + ": "


def _file(track_id: str) -> str:
    return f"{track_id}.tsv"


def _lines_to_bytes(lines: list[str], end: str = "\n") -> bytes:
    return (end.join(lines) + end).encode("utf-8")


# ---------------------------------------------------------------------------------------------
# file-level cases: the same breakage for every track


#: File-level breakage does not depend on the kind: every case runs on these tracks, and the
#: ones in CORE_FILE_CASES (where the value parser is reached) on every other track.
FULL_FILE_TRACKS = ("sim", "persp_ml")
CORE_FILE_CASES = (
    "empty",
    "latin1_byte",
    "duplicate_id",
    "unknown_id",
    "truncated_write",
    "empty_value",
)
#: The JSON-level hostile values run in full on one scale per kind; other scales get these.
CORE_JSON_VALUES = ("NaN", "1e999")


def _file_cases(tid: str) -> list[Case]:
    f = _file(tid)
    lines = ed.valid_lines(tid)
    ids = [it["id"] for it in ed.items_of(tid)]
    n = len(ids)  # the messages below count the edition's items and number its lines
    value = lambda i: ed.valid_value(tid, i)  # noqa: E731
    good = ed.valid_file(tid)
    out = [
        Case("empty", tid, {f: b""}, pattern=at(f) + "file is empty"),
        Case("whitespace_only", tid, {f: b" \n\t\n\r\n\n"}, pattern=at(f) + "file is empty"),
        Case("bom_only", tid, {f: BOM}, pattern=at(f) + "file is empty"),
        Case(
            "unicode_spaces_only",
            tid,
            {f: "\u00a0\u3000\n\u2003\n".encode()},
            pattern=at(f) + "file is empty",
        ),
        Case(
            "latin1_byte",
            tid,
            {
                f: _lines_to_bytes(lines[:1])
                + lines[1].encode()
                + b" caf\xe9\n"
                + _lines_to_bytes(lines[2:])
            },
            pattern=at(f, 2) + r"file is not UTF-8 text.*byte 0xe9",
        ),
        Case(
            "latin1_file",
            tid,
            {f: "\n".join(lines[:3] + [ids[3] + "\tcaf\u00e9"]).encode("latin-1")},
            pattern=at(f, 4) + r"file is not UTF-8 text.*Latin-1",
        ),
        Case(
            "nul_byte",
            tid,
            {f: _lines_to_bytes(lines[:3]) + lines[3].encode() + b"\x00\n"},
            pattern=at(f, 4) + r"file is binary, not text; expected UTF-8 text, found a NUL byte",
        ),
        Case(
            "binary_png",
            tid,
            {f: b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"},
            pattern=at(f, 1) + "file is not UTF-8",
        ),
        Case(
            "utf16",
            tid,
            {f: "\n".join(lines).encode("utf-16")},
            pattern=at(f) + "file is UTF-16 text",
        ),
        Case(
            "utf32",
            tid,
            {f: "\n".join(lines).encode("utf-32")},
            pattern=at(f) + "file is UTF-32 text",
        ),
        Case(
            "long_line",
            tid,
            {
                f: _lines_to_bytes(lines[:4])
                + ids[4].encode()
                + b"\t"
                + b"1" * (1024 * 1024 + 8)
                + b"\n"
                + _lines_to_bytes(lines[5:])
            },
            pattern=at(f, 5) + "line is too long",
        ),
        Case("huge_single_line", tid, sparse={f: HUGE_BYTES}, pattern=at(f) + r"file is too large"),
        Case(
            "bare_cr",
            tid,
            {f: _lines_to_bytes(lines, "\r")},
            pattern=at(f, 1) + r"line holds a carriage return \(CR\) in the middle",
        ),
        Case(
            "missing_item",
            tid,
            {f: _lines_to_bytes(lines[:3] + lines[4:])},
            pattern=at(f) + rf"1 of the track's {n} items has no prediction .*'{ids[3]}'",
        ),
        Case(
            "missing_most",
            tid,
            {f: _lines_to_bytes(lines[:2])},
            pattern=at(f)
            + rf"{n - 2} of the track's {n} items have no prediction \(the file has 2 of them\): "
            rf"'{ids[2]}', '{ids[3]}'.* and {n - 2 - 5} more",
        ),
        Case(
            "duplicate_id",
            tid,
            {f: good + _lines_to_bytes(lines[1:2])},
            pattern=at(f, n + 1, ids[1]) + r"duplicate id.*first seen on line 2",
        ),
        Case(
            "duplicate_id_other_value",
            tid,
            {f: _lines_to_bytes(lines[:2] + [f"{ids[0]}\t{value(3)}"] + lines[2:])},
            pattern=at(f, 3, ids[0]) + r"duplicate id",
        ),
        Case(
            "unknown_id",
            tid,
            {f: good + f"zz99\t{value(0)}\n".encode()},
            pattern=at(f, n + 1, "zz99") + r"unknown id: not an item of this track",
        ),
        Case(
            "id_case_changed",
            tid,
            {f: _lines_to_bytes(lines[:2] + [lines[2].upper()] + lines[3:])},
            pattern=at(f, 3, lines[2].upper().split("\t")[0]) + r"unknown id",
        ),
        Case(
            "no_tab",
            tid,
            {f: _lines_to_bytes(lines[:2] + [lines[2].replace("\t", " ", 1)] + lines[3:])},
            pattern=at(f, 3) + r"line has no tab",
        ),
        Case(
            "all_ids_wrong",
            tid,
            {f: _lines_to_bytes(["X" + line for line in lines])},
            pattern=at(f)
            + r"none of the ids in this file belong to the track.*found ids such as 'X",
        ),
        Case(
            "script_id",
            tid,
            {f: good + f"<script>alert(1)</script>\t{value(0)}\n".encode()},
            pattern=at(f, n + 1, "<script>alert(1)</script>") + "unknown id",
            hostile=("<script>alert(1)</script>",),
        ),
        Case(
            "terminal_escape_id",
            tid,
            {f: good + f"\x1b[31mred\x1b[0m\t{value(0)}\n".encode()},
            pattern=at(f, n + 1, "\x1b[31mred\x1b[0m") + "unknown id",
        ),
        Case(
            "very_long_id",
            tid,
            {f: good + ("q" * 5000 + f"\t{value(0)}\n").encode()},
            pattern=r"(?m)^" + re.escape(f) + rf", line {n + 1}, item 'q{{60}}\.\.\.': unknown id",
        ),
        Case(
            "truncated_write",
            tid,
            {f: _lines_to_bytes(lines[:-1]) + lines[-1][:2].encode()},
            pattern=at(f, n) + r"line has no tab",
        ),
        Case(
            "header_only",
            tid,
            {f: b"id\tprediction\n"},
            pattern=at(f) + rf"{n} of the track's {n} items have no prediction",
        ),
        Case(
            "trailing_garbage",
            tid,
            {f: good + b"garbage\n"},
            pattern=at(f, n + 1) + r"line has no tab",
        ),
        Case(
            "empty_value",
            tid,
            {f: _lines_to_bytes(lines[:2] + [ids[2] + "\t"] + lines[3:])},
            pattern=at(f, 3, ids[2]),
        ),
        Case(
            "empty_id",
            tid,
            {f: _lines_to_bytes(lines + [f"\t{value(0)}"])},
            pattern=at(f, n + 1, "") + "unknown id",
        ),
    ]
    return (
        out if tid in FULL_FILE_TRACKS else [case for case in out if case.name in CORE_FILE_CASES]
    )


# ---------------------------------------------------------------------------------------------
# value-level cases: one item's value replaced by a hostile one, per kind and scale

_LABEL = "label outside the track's label set"
_JSON_COMMON = [
    ("nan", "not valid JSON"),
    ("NaN", "not a finite number.*found NaN"),
    ("Infinity", "not a finite number.*found Infinity"),
    ("-Infinity", "not a finite number.*found -Infinity"),
    ("1e999", "number out of range.*found '1e999'"),
    ("-1e999", "number out of range.*found '-1e999'"),
    ("0x1p3", "not valid JSON"),
    ("\uff11", "not valid JSON"),
    ("[" * 3000, "more entries than a value of this track can"),  # refused before it is parsed
    ("[0.5, 0.5", "not valid JSON"),
    ("'single quotes'", "not valid JSON"),
]


def _sim_values() -> list[tuple[str, str]]:
    non_finite = ["nan", "NaN", "inf", "-inf", "Infinity"]
    bad = [
        "0x1p3",
        "\uff11",
        "\uff13.\uff15",
        "\u0663",
        "1_000",
        "true",
        "false",
        "null",
        "3.2.1",
        "[3.2]",
        "1e5e5",
        "0b101",
        "--1",
        "3.2\x07",
        "\u00bd",
        "1e",
    ]
    cases = [(v, "not a finite number.*found " + re.escape(repr(v))) for v in non_finite]
    cases += [(v, "not a number.*found " + re.escape(repr(v))) for v in bad]
    cases += [
        ("1e999", r"number out of range.*found '1e999'"),
        ("-1e999", r"number out of range"),
        ("3,5", r"not a number.*found '3,5'. Use a dot as the decimal separator"),
        ("9" * 400, r"number out of range"),
    ]
    return cases


def _cls_values() -> list[tuple[str, str]]:
    bad = [
        "nan",
        "NaN",
        "inf",
        "1e999",
        "0x1p3",
        "\uff11",
        "true",
        "false",
        "null",
        "Entailment",
        "entailment,neutral",
        '"entailment"',
        "0",
        "\uff45\uff4e\uff54\uff41\uff49\uff4c\uff4d\uff45\uff4e\uff54",
        "entailment\u200b",
        '["entailment"]',
    ]
    return [(v, _LABEL + ".*found " + re.escape(repr(v))) for v in bad]


def _soft_values(scale: str) -> list[tuple[str, str]]:
    k = 6 if scale == "ordinal" else 3
    rest = ", ".join(["0"] * (k - 1))
    half = ", ".join(["0.5"] + ["0.5"] + ["0"] * (k - 2))
    cases = list(_JSON_COMMON) + [
        (v, "wrong soft label length") for v in ("true", "false", "null", '"0.5"')
    ]
    cases += [
        (
            '{"%s": 0.5, "%s": 0.5}' % (ed.NLI[0] if k == 3 else "1", ed.NLI[0] if k == 3 else "1"),
            "same key twice",
        ),
        ('{"bogus": 1}', "soft label names an unknown label"),
        (f"[0x1p3, {rest}]", "not valid JSON"),
        (f"[\uff11, {rest}]", "not valid JSON"),
        (f"[1{'0' * 400}, {rest}]", "number out of range"),
    ]
    if scale == "multilabel":
        pair = "[0.5, 0.5]"
        cases += [
            ("[1.5, 0.2, 0.3]", r"a P\(chosen\) value is above 1"),
            ("[-0.1, 0.5, 0.5]", "negative probability"),
            (f"[[0.5, 0.6], {pair}, {pair}]", "pair for 'entailment' does not sum to 1"),
            (
                f"[[true, false], {pair}, {pair}]",
                "pair for 'entailment' holds a value that is not a finite",
            ),
            (f"[{pair}, {pair}]", "wrong soft label length"),
            (f"[{pair}, {pair}, [0.5, 0.5, 0.0]]", "wrong pair for 'contradiction' length"),
            (f"[[NaN, 1], {pair}, {pair}]", "not a finite number"),
            (f"[[1e999, 0], {pair}, {pair}]", "number out of range"),
            (f'[{pair}, {pair}, "x"]', "wrong pair for 'contradiction' length"),
            ('{"entailment": [0.5, 0.5], "bogus": [1, 0]}', "names an unknown label"),
        ]
        return cases
    cases += [
        (f"[NaN, {rest}]", "not a finite number.*found NaN"),
        (f"[1e999, {rest}]", "number out of range.*found '1e999'"),
        (f"[true, {rest}]", "soft label holds a value that is not a finite number.*found 'true'"),
        (json.dumps(["0.5"] * k), "not a finite number.*found '\"0.5\"'"),
        (f"[{half}, 0.0]" if k == 3 else "[0.5, 0.5]", "wrong soft label length"),
        ("[" + ", ".join(["-0.5", "1.0", "0.5"] + ["0"] * (k - 3)) + "]", "negative probability"),
        ("[" + ", ".join(["0.1"] * k) + "]", "does not sum to 1"),
        ("[" + ", ".join(["0"] * k) + "]", "does not sum to 1.*found sum 0"),
        ("[" + ", ".join(["[0.5]"] * k) + "]", "not a finite number"),
        (f"[{half}] trailing", "not valid JSON"),
        ("[" + ", ".join(["1e-5"] * k) + "]", "does not sum to 1"),
    ]
    if scale == "ordinal":
        cases += [
            ("[0.1, 0.1, 0.1, 0.2, 0.2, 0.2, 0.1]", "wrong soft label length.*found 7 values")
        ]
    return cases


def _persp_values(scale: str, n: int) -> list[tuple[str, str]]:
    first = ed.NLI[0] if scale != "ordinal" else "2"
    fill = lambda v: (
        "["
        + ", ".join([v] + [json.dumps(first if scale != "multilabel" else [first])] * (n - 1))
        + "]"
    )  # noqa: E731
    cases = list(_JSON_COMMON) + [
        (v, "a perspectivist prediction must be a JSON list") for v in ("true", "null", '"x"')
    ]
    cases += [
        (
            fill(json.dumps(first if scale != "multilabel" else [first]))[:-1] + ', "extra"]',
            f"wrong number of annotator entries.*found {n + 1} entries",
        ),
        ("[" + ", ".join([json.dumps(first)] * (n - 1)) + "]", f"found {n - 1} entries"),
        ('{"ann1": "%s"}' % first, "annotators do not match the item's annotators"),
        ('{"ann1": "%s", "ann1": "%s"}' % (first, first), "same key twice"),
        (fill("NaN"), "not a finite number"),
        (fill("1e999"), "number out of range"),
    ]
    if scale == "categorical":
        cases += [
            (fill(v), _LABEL + ".*found " + re.escape(repr(s)))
            for v, s in [
                ('"bogus"', '"bogus"'),
                ("true", "true"),
                ("null", "null"),
                ("0", "0"),
                ('"\uff45ntailment"', '"\uff45ntailment"'),
                ('["entailment"]', '["entailment"]'),
            ]
        ]
    elif scale == "ordinal":
        cases += [
            (fill(v), _LABEL + ".*found " + re.escape(repr(s)))
            for v, s in [
                ('"\uff13"', '"\uff13"'),
                ("3.5", "3.5"),
                ('"0x1p3"', '"0x1p3"'),
                ('"1_0"', '"1_0"'),
                ('"nan"', '"nan"'),
                ("7", "7"),
                ("true", "true"),
                ('"\u0663"', '"\u0663"'),
                ('"3,0"', '"3,0"'),
                ('"Infinity"', '"Infinity"'),
                ("0", "0"),
            ]
        ]
    else:
        cases += [
            (fill('["bogus"]'), _LABEL + ".*found 'bogus'"),
            (fill("[true, false, false]"), "an annotator's labels must be a list of labels"),
            (fill("[2, 0, 0]"), "an annotator's labels must be a list of labels"),
            (fill("[1, 0]"), "an annotator's labels must be a list of labels"),
            (fill('"entailment,bogus"'), _LABEL + ".*found 'bogus'"),
            (fill("null"), "an annotator's labels must be a list"),
            (fill('[["entailment"]]'), "an annotator's labels must be a list"),
        ]
    return cases


def _value_cases(tid: str) -> list[Case]:
    track = ed.TRACK_BY_ID[tid]
    kind, scale = track["kind"], track.get("scale")
    item = ed.items_of(tid)[ed.BAD_INDEX]
    if kind == "similarity":
        values = _sim_values()
    elif kind == "classification":
        values = _cls_values()
    elif kind == "soft_label":
        values = _soft_values(scale)
    else:
        values = _persp_values(scale, len(item["annotators"]))
    if scale not in (None, "categorical"):
        values = [(v, m) for v, m in values if (v, m) not in _JSON_COMMON or v in CORE_JSON_VALUES]
    lines = ed.valid_lines(tid)
    f = _file(tid)
    out = []
    for number, (value, message) in enumerate(values, start=1):
        broken = lines[: ed.BAD_INDEX] + [f"{item['id']}\t{value}"] + lines[ed.BAD_INDEX + 1 :]
        slug = re.sub(r"[^A-Za-z0-9.]+", "_", value.encode("ascii", "backslashreplace").decode())[
            :24
        ].strip("_")
        out.append(
            Case(
                f"value_{number:02d}_{slug}",
                tid,
                {f: _lines_to_bytes(broken)},
                pattern=at(f, ed.BAD_INDEX + 1, item["id"]) + ".*" + message,
            )
        )
    return out


# ---------------------------------------------------------------------------------------------
# accepted variants: what must NOT be refused


def _accepted_cases() -> list[Case]:
    sim = ed.valid_lines("sim")
    soft = ed.valid_lines("soft_ord")
    all_files = {_file(t["id"]): ed.valid_file(t["id"]) for t in ed.TRACKS}
    scores = r"(?m)^primary: -?\d"
    out = [
        Case("all_tracks", "multi", dict(all_files), OK, scores),
        Case("bom", "sim", {"sim.tsv": BOM + ed.valid_file("sim")}, OK, scores),
        Case(
            "crlf", "cls", {"cls.tsv": _lines_to_bytes(ed.valid_lines("cls"), "\r\n")}, OK, scores
        ),
        Case(
            "bom_crlf_no_final_newline",
            "soft_cat",
            {"soft_cat.tsv": BOM + "\r\n".join(ed.valid_lines("soft_cat")).encode()},
            OK,
            scores,
        ),
        Case(
            "blank_trailing_lines",
            "persp_cat",
            {"persp_cat.tsv": ed.valid_file("persp_cat") + b"\n\n \n\r\n"},
            OK,
            scores,
        ),
        Case(
            "blank_lines_between",
            "persp_ord",
            {"persp_ord.tsv": "\n\n".join(ed.valid_lines("persp_ord")).encode()},
            OK,
            scores,
        ),
        Case(
            "header_line",
            "persp_ml",
            {"persp_ml.tsv": b"id\tprediction\n" + ed.valid_file("persp_ml")},
            OK,
            r"(?m)^note: .*header",
        ),
        Case(
            "positional_semeval",
            "sim",
            {"sim.tsv": _lines_to_bytes([line.split("\t")[1] for line in sim])},
            OK,
            scores,
        ),
        Case(
            "positional_with_confidence",
            "sim",
            {"sim.tsv": _lines_to_bytes([line.split("\t")[1] + "\t80" for line in sim])},
            OK,
            scores,
        ),
        Case(
            "soft_object_form",
            "soft_cat",
            {
                "soft_cat.tsv": _lines_to_bytes(
                    [
                        f"{it['id']}\t"
                        + json.dumps({"entailment": 0.25, "neutral": 0.25, "contradiction": 0.5})
                        for it in ed.items_of("soft_cat")
                    ]
                )
            },
            OK,
            scores,
        ),
        Case(
            "soft_renormalised",
            "soft_ord",
            {
                "soft_ord.tsv": _lines_to_bytes(
                    [line.split("\t")[0] + "\t[0.05, 0.1, 0.2, 0.3, 0.2, 0.16]" for line in soft]
                )
            },
            OK,
            r"(?m)^note: .*renormalised",
        ),
        Case(
            "soft_extra_leading_bin",
            "soft_ord",
            {
                "soft_ord.tsv": _lines_to_bytes(
                    [line.split("\t")[0] + "\t[0, 0.05, 0.1, 0.2, 0.3, 0.2, 0.15]" for line in soft]
                )
            },
            OK,
            r"(?m)^note: .*extra, empty leading bin",
        ),
        Case(
            "persp_object_form",
            "persp_cat",
            {
                "persp_cat.tsv": _lines_to_bytes(
                    [
                        f"{it['id']}\t" + json.dumps({a: "neutral" for a in it["annotators"]})
                        for it in ed.items_of("persp_cat")
                    ]
                )
            },
            OK,
            scores,
        ),
        Case(
            "spaces_around_values",
            "sim",
            {"sim.tsv": _lines_to_bytes([line.replace("\t", " \t ") + "  " for line in sim])},
            OK,
            scores,
        ),
        Case("subfolder", "multi", {"predictions/cls.tsv": ed.valid_file("cls")}, OK, scores),
        Case("uppercase_name", "multi", {"CLS.TSV": ed.valid_file("cls")}, OK, scores),
        Case(
            "junk_beside",
            "multi",
            {
                "cls.tsv": ed.valid_file("cls"),
                "README.txt": b"hello",
                ".DS_Store": b"\x00\x01",
                "__MACOSX/._cls.tsv": b"\x00\x05",
                "metadata": b"exitCode: 0\ningestionExitCode: 0\n",
            },
            OK,
            r"(?m)^note: file 'README.txt' matches no track",
        ),
        Case(
            "hostile_unclaimed_name",
            "multi",
            {"cls.tsv": ed.valid_file("cls"), "<img src=x onerror=alert(1)>.txt": b"x"},
            OK,
            r"(?m)^note: file '<img src=x onerror=alert\(1\)>.txt' matches no track",
            hostile=("<img src=x onerror=alert(1)>",),
        ),
        Case(
            "hostile_folder_name",
            "multi",
            {"<b>bold</b>/cls.tsv": ed.valid_file("cls")},
            OK,
            scores,
            hostile=("<b>bold</b>",),
        ),
        Case(
            "zip_of_files",
            "archive",
            {"submission.zip": make_zip(sorted(all_files.items()))},
            OK,
            scores,
        ),
        Case(
            "zip_top_folder",
            "archive",
            {
                "submission.zip": make_zip(
                    [("submission/", b"", {"directory": True})]
                    + [("submission/" + k, v) for k, v in sorted(all_files.items())]
                )
            },
            OK,
            scores,
        ),
        Case(
            "zip_with_mac_junk",
            "archive",
            {
                "submission.zip": make_zip(
                    [
                        ("cls.tsv", ed.valid_file("cls")),
                        ("__MACOSX/._cls.tsv", b"\x00\x05"),
                        (".DS_Store", b"\x00"),
                    ]
                )
            },
            OK,
            scores,
        ),
        Case(
            "zip_nested_archive_beside_files",
            "archive",
            {
                "submission.zip": make_zip(
                    [("cls.tsv", ed.valid_file("cls")), ("old.zip", make_zip([("x.tsv", b"1")]))]
                )
            },
            OK,
            r"(?m)^note: nested archive 'old.zip' ignored",
        ),
        Case(
            "zip_stored",
            "archive",
            {
                "submission.zip": make_zip(
                    [("cls.tsv", ed.valid_file("cls"))], compression=zipfile.ZIP_STORED
                )
            },
            OK,
            scores,
        ),
        Case(
            "ingestion_ok",
            "ingestion",
            {
                "cls.tsv": ed.valid_file("cls"),
                "ingestion_status.json": b'{"status": "ok", "message": ""}',
            },
            OK,
            scores,
        ),
        Case(
            "metadata_garbage_ignored",
            "ingestion",
            {"cls.tsv": ed.valid_file("cls"), "metadata": b":\n- [\x00\xff"},
            OK,
            scores,
        ),
    ]
    return out


# ---------------------------------------------------------------------------------------------
# archives, folders and the prediction step


def _archive_cases() -> list[Case]:
    sim = ed.valid_file("sim")
    z = "submission.zip"
    # an entry name is shown in quotes as it is: a Windows zip's backslashes are not doubled
    escape = lambda name: at(z) + r"entry path escapes the archive.*" + re.escape(f"'{name}'")  # noqa: E731
    many = make_zip([(f"f{k:04d}.txt", b"x") for k in range(1001)])
    bomb = make_zip([("sim.tsv", b"0" * (11 * 1024 * 1024))])
    inner = make_zip([("sim.tsv", sim)])
    lie = make_zip([("sim.tsv", sim)])
    odd = make_zip([("sim_XX.tsv", sim)])
    huge_declared = patch(make_zip([("sim.tsv", sim)]), 0, file_size=0xF0000000)
    total = make_zip([(f"part{k}.tsv", b"1" * 64) for k in range(5)])
    for k in range(5):
        total = patch(total, k, file_size=500 * 1024 * 1024, compress_size=400 * 1024 * 1024)
    return [
        Case(
            "zip_slip_parent",
            "archive",
            {z: make_zip([("../escaped-parent.txt", b"x"), ("sim.tsv", sim)])},
            pattern=escape("../escaped-parent.txt"),
            escapes=("escaped-parent.txt",),
        ),
        Case(
            "zip_slip_deep",
            "archive",
            {z: make_zip([("sim.tsv", sim), ("a/../../../../../../escaped-deep.txt", b"x")])},
            pattern=escape("a/../../../../../../escaped-deep.txt"),
            escapes=("escaped-deep.txt",),
        ),
        Case(
            "zip_slip_absolute",
            "archive",
            {z: make_zip([("/tmp/escaped-absolute.txt", b"x")])},
            pattern=escape("/tmp/escaped-absolute.txt"),
            escapes=("escaped-absolute.txt",),
        ),
        Case(
            "zip_slip_backslash",
            "archive",
            {z: make_zip([("..\\..\\escaped-backslash.txt", b"x")])},
            pattern=escape("..\\..\\escaped-backslash.txt"),
            escapes=("escaped-backslash.txt",),
        ),
        Case(
            "zip_slip_drive",
            "archive",
            {z: make_zip([("C:/escaped-drive.txt", b"x")])},
            pattern=escape("C:/escaped-drive.txt"),
            escapes=("escaped-drive.txt",),
        ),
        Case(
            "zip_symlink_file",
            "archive",
            {z: make_zip([("sim.tsv", b"../ref/sts.jsonl", {"symlink": True})])},
            pattern=at(z) + r"archive contains a symbolic link.*'sim.tsv'",
        ),
        Case(
            "zip_symlink_escape",
            "archive",
            {
                z: make_zip(
                    [
                        ("link", b"../../../..", {"symlink": True}),
                        ("link/escaped-through-link.txt", b"x"),
                    ]
                )
            },
            pattern=at(z) + r"archive contains a symbolic link.*'link'",
            escapes=("escaped-through-link.txt",),
        ),
        Case(
            "zip_symlink_absolute",
            "archive",
            {z: make_zip([("sim.tsv", sim), ("passwd", b"/etc/passwd", {"symlink": True})])},
            pattern=at(z) + r"archive contains a symbolic link.*'passwd'",
        ),
        Case(
            "zip_too_many_entries",
            "archive",
            {z: many},
            pattern=at(z) + r"archive has too many entries; expected at most 1000, found 1001",
        ),
        Case(
            "zip_bomb_ratio",
            "archive",
            {z: bomb},
            pattern=at(z) + r"archive expands too much \(a zip bomb\?\)",
        ),
        Case(
            "zip_bomb_declared_huge",
            "archive",
            {z: huge_declared},
            pattern=at(z) + r"archive entry is too large.*4026531840 bytes declared by 'sim.tsv'",
        ),
        Case(
            "zip_bomb_total",
            "archive",
            {z: total},
            pattern=at(z) + r"archive expands too much.*'part2.tsv'",
        ),
        Case(
            "zip_size_lie",
            "archive",
            {z: patch(lie, 0, file_size=10)},
            pattern=at(z) + r"archive entry cannot be extracted.*'sim.tsv'",
        ),
        Case(
            "zip_bad_crc",
            "archive",
            {z: patch(lie, 0, crc=0x12345678)},
            pattern=at(z)
            + r"archive entry cannot be extracted: a damaged file inside the zip.*'sim.tsv'",
        ),
        Case(
            "zip_encrypted_flag",
            "archive",
            {z: patch(lie, 0, flag_bits=0x1)},
            pattern=at(z) + r"archive entry is encrypted.*'sim.tsv'",
        ),
        Case(
            "zip_unsupported_method",
            "archive",
            {z: patch(lie, 0, method=9)},
            pattern=at(z)
            + r"archive entry cannot be extracted: a file encrypted or compressed.*'sim.tsv'",
        ),
        Case(
            "zip_truncated",
            "archive",
            {z: lie[: len(lie) // 2]},
            pattern=at(z) + r"not a valid zip archive",
        ),
        Case(
            "zip_not_a_zip",
            "archive",
            {z: b"id\tvalue\nthis is not a zip\n"},
            pattern=at(z) + r"not a valid zip archive",
        ),
        Case("zip_empty_file", "archive", {z: b""}, pattern=at(z) + r"not a valid zip archive"),
        Case(
            "zip_no_entries",
            "archive",
            {z: make_zip([])},
            pattern=r"(?m)^submission\.zip: no prediction file for any track was found",
        ),
        Case(
            "zip_name_bad_utf8_flagged",
            "archive",
            {z: patch(odd, 0, name=b"sim_\xff\xfe.tsv", flag_bits=0x800)},
            # the name's bytes that are not UTF-8 as their values, as in the ranking tables
            pattern=at(z)
            + r"an entry name is not valid UTF-8; .*found 'sim_\\xff\\xfe\.tsv', marked UTF-8\. R",
        ),
        Case(
            "zip_name_bad_utf8_cp437",
            "archive",
            {z: patch(odd, 0, name=b"sim_\x82\x01.tsv")},
            pattern=at(z)
            + r"an entry name is not valid UTF-8; .*found 'sim_\\x82\\x01\.tsv'\. Rename",
        ),
        Case(
            "zip_duplicate_entry",
            "archive",
            {z: make_zip([("sim.tsv", sim), ("sim.tsv", b"s01\tnan\n")])},
            pattern=at(z) + r"archive holds the same path twice.*'sim.tsv'",
        ),
        Case(
            "zip_only_nested_zip",
            "archive",
            {z: make_zip([("inner.zip", inner)])},
            pattern=at(z)
            + r"the zip holds no file but an archive inside it, found 'inner.zip'\. Put",
        ),
        Case(
            "zip_track_twice",
            "archive",
            {z: make_zip([("sim.tsv", sim), ("preds/sim.tsv", sim)])},
            pattern=at("sim.tsv, preds/sim.tsv") + r"track 'sim' is given by more than one file",
        ),
        Case(
            "zip_file_and_folder_clash",
            "archive",
            {z: make_zip([("sim.tsv", sim), ("sim.tsv/cls.tsv", b"x")])},
            pattern=at(z) + r"archive entry cannot be extracted.*'sim.tsv/cls.tsv'",
        ),
        Case(
            "zip_name_too_long",
            "archive",
            {z: make_zip([("a" * 300 + "/sim.tsv", sim)])},
            pattern=at(z) + r"archive entry cannot be extracted",
        ),
        Case(
            "zip_empty_name",
            "archive",
            {z: make_zip([("", b"x")])},
            pattern=at(z) + r"archive holds no prediction file.*has no file name",
        ),
        Case(
            "zip_hostile_entry_names",
            "archive",
            {z: make_zip([("<script>x</script>.txt", b"x")])},
            pattern=r"(?m)^submission\.zip: no prediction file.*<script>x</script>.txt",
            hostile=("<script>x</script>",),
        ),
        Case(
            "zip_content_broken",
            "archive",
            {z: make_zip([("cls.tsv", b"n01\tnan\n" + ed.valid_file("cls")[4 + 10 :])])},
            pattern=at("cls.tsv", 1, "n01") + _LABEL,
        ),
        Case(
            "tar_gz_only",
            "archive",
            {"submission.tar.gz": b"\x1f\x8b\x08\x00" + b"\x00" * 20},
            pattern=at("submission.tar.gz") + r"only zip archives are read",
        ),
    ]


def _folder_cases() -> list[Case]:
    sim = ed.valid_file("sim")
    return [
        Case(
            "symlink_to_gold",
            "folder",
            links={"sim.tsv": "@ref/sts.jsonl"},
            pattern=at("sim.tsv") + r"the prediction file is a symbolic link",
        ),
        Case(
            "symlink_dangling",
            "folder",
            links={"cls.tsv": "/nonexistent/cls.tsv"},
            pattern=at("cls.tsv") + r"the prediction file is a symbolic link",
        ),
        Case(
            "symlink_dir_outside",
            "folder",
            links={"preds": "@outside"},
            pattern=r"(?m)^submission: no prediction file for any track was found",
        ),
        Case(
            "symlink_unclaimed_beside",
            "folder",
            {"cls.tsv": ed.valid_file("cls")},
            links={"notes.txt": "/etc/passwd"},
            exit_code=OK,
            pattern=r"(?m)^note: file 'notes.txt' matches no track",
        ),
        Case(
            "fifo_track_file",
            "folder",
            fifos=("sim.tsv",),
            pattern=at("sim.tsv")
            + r"the prediction file is a named pipe \(FIFO\); expected a regular file",
        ),
        Case(
            "res_missing", "folder", without_res=True, pattern=r"the submission folder is missing"
        ),
        Case(
            "res_empty",
            "folder",
            pattern=r"(?m)^submission: no prediction file for any track was found",
        ),
        Case(
            "only_unclaimed",
            "folder",
            {"predictions.csv": b"s01,3.2\n"},
            pattern=r"(?m)^submission: no prediction file.*found predictions.csv",
        ),
        Case(
            "control_char_name",
            "folder",
            {"evil\x1b[2J\nname.txt": b"x"},
            pattern=r"(?m)^submission: no prediction file.*found evil\\x1b\[2J\\nname.txt",
        ),
        Case(
            "track_twice_root_and_folder",
            "folder",
            {"sim.tsv": sim, "sub/sim.tsv": sim},
            pattern=at("sim.tsv, sub/sim.tsv") + r"track 'sim' is given by more than one file",
        ),
        Case(
            "track_twice_case",
            "folder",
            {"sim.tsv": sim, "SIM.tsv": sim},
            pattern=at("SIM.tsv, sim.tsv") + r"track 'sim' is given by more than one file",
        ),
        Case(
            "track_file_is_folder",
            "folder",
            {"sim.tsv/inner.txt": sim},
            pattern=r"(?m)^submission: no prediction file.*sim.tsv/inner.txt",
        ),
    ]


def _ingestion_cases() -> list[Case]:
    sim = ed.valid_file("sim")
    status = "ingestion_status.json"
    failed = at(status) + "the prediction step failed: "
    return [
        Case(
            "status_failed",
            "ingestion",
            {
                "sim.tsv": sim,
                status: json.dumps(
                    {"status": "failed", "message": "model crashed: CUDA out of memory"}
                ).encode(),
            },
            pattern=failed + r".*CUDA out of memory",
        ),
        Case(
            "status_unreadable",
            "ingestion",
            {"sim.tsv": sim, status: b"{not json"},
            pattern=failed + r".*unreadable",
        ),
        Case(
            "status_not_object",
            "ingestion",
            {"sim.tsv": sim, status: b"[1, 2]"},
            pattern=failed + r".*unreadable",
        ),
        Case(
            "status_huge",
            "ingestion",
            {"sim.tsv": sim, status: b'{"status": "ok", "pad": "' + b"x" * 100000 + b'"}'},
            pattern=failed + r".*unreadable",
        ),
        Case(
            "status_deep",
            "ingestion",
            {"sim.tsv": sim, status: b"[" * 50000},
            pattern=failed + r".*unreadable",
        ),
        Case(
            "status_hostile_message",
            "ingestion",
            {
                status: json.dumps(
                    {"status": "failed", "message": "<script>alert('x')</script>\x1b[2J"}
                ).encode()
            },
            pattern=failed + r".*<script>alert\('x'\)</script>\\x1b\[2J",
            hostile=("<script>alert('x')</script>",),
        ),
        Case(
            "status_no_files",
            "ingestion",
            {status: b'{"status": "failed"}'},
            pattern=failed + r".*no message",
        ),
        Case(
            "metadata_ingestion_exit",
            "ingestion",
            {"sim.tsv": sim, "metadata": b"exitCode: 0\ningestionExitCode: 1\n"},
            pattern=at("metadata") + r"the prediction step failed.*ingestionExitCode 1",
        ),
        Case(
            "metadata_killed",
            "ingestion",
            {"metadata": b"exitCode: 137\nelapsedTime: 3600\n"},
            pattern=at("metadata") + r"the prediction step failed.*exitCode 137",
        ),
        Case(
            "metadata_ok_partial_predictions",
            "ingestion",
            {
                "metadata": b"exitCode: 0\ningestionExitCode: 0\n",
                "sim.tsv": _lines_to_bytes(ed.valid_lines("sim")[:5]) + b"s06\t2.",
            },
            pattern=at("sim.tsv")
            + rf"{len(ed.items_of('sim')) - 6} of the track's {len(ed.items_of('sim'))} items have no prediction",
        ),
        Case(
            "metadata_ok_no_predictions",
            "ingestion",
            {"metadata": b"exitCode: 0\ningestionExitCode: 0\n"},
            pattern=r"(?m)^submission: no prediction file for any track was found",
        ),
    ]


def cases() -> list[Case]:
    """Every case, with unique names of the form group/name."""
    out: list[Case] = []
    for track in ed.TRACKS:
        out += _file_cases(track["id"]) + _value_cases(track["id"])
    out += _accepted_cases() + _archive_cases() + _folder_cases() + _ingestion_cases()
    for case in out:
        case.name = f"{case.group}/{case.name}"
    return out


def materialise(case: Case, root: Path, phase: str = "evaluation") -> tuple[Path, Path]:
    """Lay ``case`` out under ``root`` as the platform would; returns (INPUT, OUTPUT) folders.

    ``root/outside`` holds a valid prediction file that a followed link would reach."""
    input_dir, output_dir = root / "input", root / "output"
    ed.write_reference(input_dir / "ref", phase)
    outside = root / "outside"
    outside.mkdir(parents=True, exist_ok=True)
    (outside / "sim.tsv").write_bytes(ed.valid_file("sim"))
    res = input_dir / "res"
    if case.without_res:
        return input_dir, output_dir
    res.mkdir(parents=True, exist_ok=True)
    for relative, data in case.files.items():
        path = res / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    for relative, size in case.sparse.items():
        with open(res / relative, "wb") as f:
            f.truncate(size)
    for relative in case.fifos:
        os.mkfifo(res / relative)
    for relative, target in case.links.items():
        if target.startswith("@ref/"):
            target = str(input_dir / "ref" / target[5:])
        elif target == "@outside":
            target = str(outside)
        (res / relative).parent.mkdir(parents=True, exist_ok=True)
        os.symlink(target, res / relative)
    return input_dir, output_dir


if __name__ == "__main__":
    from collections import Counter

    all_cases = cases()
    print(f"{len(all_cases)} cases, {len({c.fingerprint() for c in all_cases})} distinct")
    for group, count in sorted(Counter(c.group for c in all_cases).items()):
        print(f"  {group}: {count}")
