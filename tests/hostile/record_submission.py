"""Recorded outcomes of the submission reader (``read_prediction``) over the hostile corpus, fuzzed
contents and edited valid files, so a rewrite of the reader can prove its messages unchanged.

``python3 tests/hostile/recordings.py`` rewrites ``recorded/submission-*.json``: per case the
track, the input (a digest of the corpus's and variants' inputs, which their code rebuilds; the
fuzzed file's text, or its bytes in base64) and the outcome: ``ok`` with the format, the warnings
and a digest of the values, or the error's type and full message. ``tests/test_fastpaths.py``
replays every case and compares.
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Iterator, List, Tuple

import numpy as np

HERE = Path(__file__).resolve().parent
FUZZ_CASES = 300

if __name__ == "__main__":  # run as a script: the repository and tests/ on the path
    sys.path[:0] = [str(HERE.parents[1]), str(HERE.parent)]

from hostile import corpus, edition, fuzz  # noqa: E402
from hostile.recording import recorded_outcome  # noqa: E402
from codajudge.gold import build_gold  # noqa: E402
from codajudge.metrics import PerAnnotator  # noqa: E402
from codajudge.scoring import read_track_file  # noqa: E402
from codajudge.spec import spec_from_dict  # noqa: E402

SPEC = spec_from_dict(edition.spec(), "task.json")
TRACKS = {t.id: t for t in SPEC.tracks}
GOLD = {t.id: build_gold(t, edition.items_of(t.id), "gold") for t in SPEC.tracks}


def read(path: Path, track_id: str):
    """``read_prediction`` of ``path`` as the hostile edition's track ``track_id``."""
    return read_track_file(path, f"{track_id}.tsv", GOLD[track_id])


def _digest(values) -> str:
    if isinstance(values, PerAnnotator):
        head = f"per-annotator {values.n_items} {values.n_labels} {_digest(values.item)} {_digest(values.offsets)}"
        return head + " " + _digest(values.values)
    array = np.ascontiguousarray(values)
    return f"{array.dtype.str} {array.shape} " + hashlib.sha256(array.tobytes()).hexdigest()[:16]


def outcome(action) -> list:
    """['ok', format, warnings, digest] or ['error', type, message]; any other exception propagates."""
    return recorded_outcome(action, lambda p: [p.format, list(p.warnings), _digest(p.values)])


def variants(track_id: str) -> Iterator[List[str]]:
    """Valid files edited the ways participants write them, and the near-misses of each edit."""
    lines = edition.valid_lines(track_id)
    track = TRACKS[track_id]
    ids = [line.split("\t")[0] for line in lines]
    values = [
        json.loads(line.split("\t")[1]) if line.split("\t")[1][:1] in "[{" else line.split("\t")[1]
        for line in lines
    ]
    yield lines
    shuffled = list(lines)
    random.Random(track_id).shuffle(shuffled)
    yield ["id\tprediction"] + shuffled
    yield [
        f"{i}\t{json.dumps(v)}" if not isinstance(v, str) else f"{i}\t {v} "
        for i, v in zip(ids, values)
    ]
    yield [f"{i}\t{json.dumps(v, separators=(',', ':'))}" for i, v in zip(ids, values)]
    yield lines[:1] + lines  # a duplicate
    yield lines[1:]  # a missing item
    yield [line.replace("\t", "\t\t", 1) for line in lines]
    if track.kind == "similarity":
        scores = [line.split("\t")[1] for line in lines]
        yield scores
        yield [s + "\t80" for s in scores]
        yield [f" {s} \t 9.5 " for s in scores] + ["", ""]
        yield [f"{k}\t{s}" for k, s in enumerate(scores)]
    if track.kind == "soft_label" and track.scale != "multilabel":
        yield [
            f"{i}\t{json.dumps([x * 1.01 for x in v])}" for i, v in zip(ids, values)
        ]  # renormalised
        yield [
            f"{i}\t{json.dumps([x * 1.03 for x in v])}" for i, v in zip(ids, values)
        ]  # off by 3%
        yield [f"{i}\t{json.dumps([0] + v)}" for i, v in zip(ids, values)]  # the extra leading bin
        yield [f"{i}\t{json.dumps([-0.0] + v[1:])}" for i, v in zip(ids, values)]
        yield [f"{i}\t{json.dumps(dict(zip(track.labels, v)))}" for i, v in zip(ids, values)]
    if track.kind == "soft_label" and track.scale == "multilabel":
        yield [
            f"{i}\t{json.dumps([p for _, p in v])}" for i, v in zip(ids, values)
        ]  # P(chosen) only
        yield [f"{i}\t{json.dumps([[a * 1.01, b] for a, b in v])}" for i, v in zip(ids, values)]
        yield [
            f"{i}\t{json.dumps([[a, b] for a, b in v[:1]] + [p for _, p in v[1:]])}"
            for i, v in zip(ids, values)
        ]
    if track.kind == "perspectivist":
        yield from _perspectivist_variants(track, ids, values)


def _perspectivist_variants(track, ids, values) -> Iterator[List[str]]:
    flat = track.scale != "multilabel"
    for convert in (int, float, str):  # ordinal labels given as numbers, or all as strings
        yield [
            f"{i}\t{json.dumps([convert(x) if flat and str(x).isdigit() else x for x in v])}"
            for i, v in zip(ids, values)
        ]
    yield [f"{i}\t{json.dumps(v[:-1])}" for i, v in zip(ids, values)]  # one label short
    if not flat:
        yield [f"{i}\t{json.dumps([','.join(x) for x in v])}" for i, v in zip(ids, values)]
        yield [f"{i}\t{json.dumps([[1, 0, 0] for _ in v])}" for i, v in zip(ids, values)]
        index = track.label_index()
        major = [[[int(label in chosen) for chosen in v] for label in index] for v in values]
        yield [f"{i}\t{json.dumps(m)}" for i, m in zip(ids, major)]  # label-major 0/1 vectors
        yield [f"{i}\t{json.dumps(m[:-1])}" for i, m in zip(ids, major)]
        yield [f"{i}\t{json.dumps([row + [2] for row in m])}" for i, m in zip(ids, major)]


def corpus_files() -> Iterator[Tuple[str, str, bytes]]:
    """(case name, track id, bytes) of the hostile corpus's single track files."""
    for case in corpus.cases():
        if len(case.files) == 1 and not (case.links or case.fifos or case.sparse):
            ((name, data),) = case.files.items()
            track_id = name.rsplit(".", 1)[0].lower()
            if track_id in TRACKS:
                yield case.name, track_id, data


def fuzzed_files(count: int) -> List[Tuple[str, str, bytes]]:
    """``count`` contents drawn (derandomized) from ``fuzz.submission_bytes``."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    drawn = []

    @settings(
        max_examples=count,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(data=st.data())
    def draw(data):
        track_id = data.draw(st.sampled_from(sorted(TRACKS)))
        drawn.append((f"fuzz-{len(drawn)}", track_id, data.draw(fuzz.submission_bytes(track_id))))

    draw()
    return drawn


def regenerated_inputs() -> List[Tuple[str, str, bytes]]:
    """The corpus's and the variants' inputs, which their code rebuilds byte for byte."""
    inputs = list(corpus_files())
    for track_id in sorted(TRACKS):
        for k, lines in enumerate(variants(track_id)):
            inputs.append(
                (f"variant-{track_id}-{k}", track_id, ("\n".join(lines) + "\n").encode("utf-8"))
            )
    return inputs


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def stored_input(data: bytes) -> dict:
    """A fuzzed input as the recording keeps it: its text when it is UTF-8, else base64."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return {"data": base64.b64encode(data).decode("ascii")}
    return {"text": text}


def stored_bytes(case: dict) -> bytes:
    """The input bytes of a recorded fuzz case (``stored_input`` read back)."""
    if "text" in case:
        return case["text"].encode("utf-8")
    return base64.b64decode(case["data"])


def record(folder: Path) -> list:
    """Every case's outcome; fuzzed contents are stored (base64), the others only as a digest."""
    out = []
    fuzzed = fuzzed_files(FUZZ_CASES)
    for name, track_id, data in regenerated_inputs() + fuzzed:
        path = folder / f"{track_id}.tsv"
        path.write_bytes(data)
        case = {
            "name": name,
            "track": track_id,
            "sha": sha(data),
            "outcome": outcome(lambda: read(path, track_id)),
        }
        if name.startswith("fuzz-"):
            case.update(stored_input(data))
        out.append(case)
    return out
