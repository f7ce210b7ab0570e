"""Property-based fuzzing of the submission reader and the scoring program (hypothesis).

For any generated file content, the scoring program either writes a valid scores.json of finite
numbers and exits 0, or exits 2 with a single clear message naming the file: never a traceback,
an internal error, NaN, or a partial scores.json. Contents mix valid files with a few mutations
(hostile values, dropped, doubled or unknown lines, odd separators and line ends, BOMs, foreign
encodings, corrupted bytes) and arbitrary bytes or text, for every track of every kind.

The large run (CI runs a small seeded sample through tests/test_fuzz.py):

    python3 tests/hostile/fuzz.py --cases 10000          # per track kind; prints counts
"""

import argparse
import json
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

if __package__ in (None, ""):  # run as a script: make the repository and tests/ importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from hostile import checks, edition as ed  # type: ignore
else:
    from . import checks, edition as ed

KINDS = ("similarity", "classification", "soft_label", "perspectivist")
TRACKS_OF_KIND = {kind: [t["id"] for t in ed.TRACKS if t["kind"] == kind] for kind in KINDS}

HOSTILE_TOKENS = [
    "nan",
    "NaN",
    "-nan",
    "inf",
    "-inf",
    "Infinity",
    "-Infinity",
    "1e999",
    "-1e999",
    "1e-999",
    "0x1p3",
    "\uff11",
    "\uff13.\uff15",
    "\u0663",
    "1_000",
    "true",
    "false",
    "null",
    "None",
    "",
    " ",
    "0",
    "-0",
    "1e308",
    "1.7976931348623157e308",
    "4.9e-324",
    "9" * 400,
    "[",
    "]",
    "{}",
    "[]",
    '""',
    "\u200b",
    "\ufeff",
    "\x1b[31m",
    "<script>alert(1)</script>",
    "0.5",
    "3,5",
    "1e5e5",
    "+.5",
    ".5",
    "5.",
]


def _json_values(labels: list[str], names: list[str]):
    scalars = (
        st.none()
        | st.booleans()
        | st.floats()
        | st.integers(-(10**30), 10**30)
        | st.text(max_size=8)
        | st.sampled_from(labels)
        | st.floats(0, 1)
    )
    keys = st.text(max_size=8) | st.sampled_from(labels + names)
    return st.recursive(
        scalars,
        lambda children: (
            st.lists(children, max_size=8) | st.dictionaries(keys, children, max_size=6)
        ),
        max_leaves=16,
    )


@st.composite
def _plausible_value(draw, track_id: str, index: int) -> str:
    """A value near the valid format: right shape, possibly wrong sum, label or type."""
    track = ed.TRACK_BY_ID[track_id]
    kind, scale, labels = track["kind"], track.get("scale"), track.get("labels", [])
    names = ed.items_of(track_id)[index].get("annotators", [])
    if kind == "similarity":
        x = draw(st.floats(allow_nan=True, allow_infinity=True) | st.integers(-(10**6), 10**6))
        return draw(
            st.sampled_from([repr(x), str(x), f"{x:g}" if isinstance(x, float) else str(x)])
        )
    if kind == "classification":
        label = draw(st.sampled_from(labels))
        return draw(st.sampled_from([label, label.upper(), f" {label} ", label[:-1], f'"{label}"']))
    if kind == "soft_label":
        k = len(labels)
        if scale == "multilabel":
            pairs = draw(
                st.lists(
                    st.lists(st.floats(-0.1, 1.1), min_size=2, max_size=2),
                    min_size=k - 1,
                    max_size=k + 1,
                )
            )
            return json.dumps(pairs)
        probs = draw(st.lists(st.floats(0, 1) | st.floats(-1, 2), min_size=k - 1, max_size=k + 1))
        total = sum(probs)
        if probs and total > 0 and draw(st.booleans()):
            probs = [p / total for p in probs]
        return json.dumps(probs)
    choices = (
        labels + ["bogus", "", "1.0"] + ([labels[:2], [labels[0]]] if scale == "multilabel" else [])
    )
    votes = draw(
        st.lists(
            st.sampled_from(choices) | st.integers(0, 7),
            min_size=max(len(names) - 1, 0),
            max_size=len(names) + 1,
        )
    )
    if draw(st.booleans()):
        return json.dumps(dict(zip(names, votes)))
    return json.dumps(votes)


def _any_value(track_id: str, index: int):
    track = ed.TRACK_BY_ID[track_id]
    names = ed.items_of(track_id)[index].get("annotators", [])
    return st.one_of(
        _plausible_value(track_id, index),
        st.sampled_from(HOSTILE_TOKENS),
        _json_values(track.get("labels", ["x"]), names).map(
            lambda v: json.dumps(v, allow_nan=True)
        ),
        st.text(max_size=30),
    )


def _mutate_line(draw, op: str, lines: list, at: int, items: list, track_id: str) -> None:
    """Apply one mutation ``op`` to ``lines`` at line ``at`` (in place)."""
    if op == "value":
        index = draw(st.integers(0, len(items) - 1))
        lines[at] = f"{items[index]['id']}\t{draw(_any_value(track_id, index))}"
    elif op == "drop":
        del lines[at]
    elif op == "dup":
        lines.insert(at, lines[at])
    elif op == "unknown":
        lines.insert(at, draw(st.text(max_size=12)) + "\t" + draw(_any_value(track_id, 0)))
    elif op == "separator":
        lines[at] = lines[at].replace(
            "\t", draw(st.sampled_from([" ", "\t\t", "", ",", " \t", "\u3000"])), 1
        )
    elif op == "raw":
        lines[at] = draw(st.text(max_size=40))
    else:
        lines.insert(at, draw(st.sampled_from(["", " ", "\t", "\u00a0"])))


@st.composite
def submission_bytes(draw, track_id: str) -> bytes:
    """The bytes of one track file: mostly a valid file with a few mutations, sometimes anything."""
    mode = draw(st.sampled_from(["mutated"] * 6 + ["bytes", "text"]))
    if mode == "bytes":
        return draw(st.binary(max_size=600))
    if mode == "text":
        return draw(st.text(max_size=300)).encode("utf-8", "surrogatepass")
    items = ed.items_of(track_id)
    lines = ed.valid_lines(track_id)
    for _ in range(draw(st.integers(0, 4))):
        op = draw(
            st.sampled_from(
                ["value", "value", "drop", "dup", "unknown", "separator", "raw", "blank"]
            )
        )
        if not lines and op != "unknown":
            break
        at = draw(st.integers(0, max(len(lines) - 1, 0)))
        _mutate_line(draw, op, lines, at, items, track_id)
    if draw(st.booleans()) and draw(st.booleans()):
        lines.insert(0, draw(st.sampled_from(["id\tvalue", "ID\tprediction", "item_id\tlabel"])))
    end = draw(st.sampled_from(["\n", "\n", "\r\n", "\r"]))
    text = end.join(lines) + draw(st.sampled_from([end, "", end * 3]))
    encoding = draw(st.sampled_from(["utf-8"] * 8 + ["utf-8-sig", "utf-16", "latin-1"]))
    data = text.encode(encoding, "replace")
    if data and draw(st.integers(0, 9)) == 0:  # one corrupted byte
        position = draw(st.integers(0, len(data) - 1))
        data = data[:position] + bytes([draw(st.integers(0, 255))]) + data[position + 1 :]
    return data


class Arena:
    """One reference folder and a res/output pair reused for every example (in-process runs)."""

    def __init__(self, root: Path):
        self.root = root
        self.input = root / "input"
        ed.write_reference(self.input / "ref")
        self.res, self.output = self.input / "res", root / "output"
        from codajudge.spec import spec_from_dict
        from codajudge.bundle.compose import score_rows

        tracks = spec_from_dict(ed.spec(), "task.json").tracks
        self.keys = [key for key, _, _ in score_rows(tracks)]
        self.track_keys = {t.id: t.keys for t in tracks}

    def run(self, track_id: str, data: bytes) -> checks.Outcome:
        for folder in (self.res, self.output):
            shutil.rmtree(folder, ignore_errors=True)
        self.res.mkdir(parents=True)
        (self.res / f"{track_id}.tsv").write_bytes(data)
        return checks.run_in_process(self.input, self.output)

    def violations(self, track_id: str, outcome: checks.Outcome) -> list[str]:
        found = checks.violations(outcome, self.keys, [f"{track_id}.tsv"])
        if outcome.code not in (0, 2):
            found.append(f"exit code {outcome.code}")
        if outcome.code == 0 and "scores.json" in outcome.outputs:
            scores = json.loads(outcome.outputs["scores.json"])
            missing = [k for k in self.track_keys[track_id] if k not in scores]
            if missing:
                found.append(f"accepted without the track's scores {missing}")
        return found


def fuzz_kind(kind: str, cases: int, arena: Arena, counts: Counter) -> None:
    """Run ``cases`` generated submissions for the tracks of ``kind``; raises (after hypothesis has
    shrunk it) on the first violation, which hypothesis prints as the falsifying example."""

    @settings(
        max_examples=cases,
        derandomize=True,
        database=None,
        deadline=None,
        print_blob=False,
        suppress_health_check=list(HealthCheck),
    )
    @given(data=st.data())
    def property_holds(data):
        track_id = data.draw(st.sampled_from(TRACKS_OF_KIND[kind]), label="track")
        content = data.draw(submission_bytes(track_id), label="content")
        outcome = arena.run(track_id, content)
        counts[(kind, "accepted" if outcome.code == 0 else "refused")] += 1
        problems = arena.violations(track_id, outcome)
        assert not problems, f"{problems}\nstderr: {outcome.stderr[:1500]}"

    property_holds()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--cases", type=int, default=10000, help="generated submissions per track kind"
    )
    parser.add_argument("--kinds", nargs="*", default=list(KINDS), choices=KINDS)
    args = parser.parse_args(argv)
    counts: Counter = Counter()
    failed: dict[str, str] = {}
    root = Path(tempfile.mkdtemp(prefix="codajudge-fuzz-"))
    try:
        arena = Arena(root)
        for kind in args.kinds:
            start = time.time()
            try:
                fuzz_kind(kind, args.cases, arena, counts)
            except Exception as e:  # noqa: BLE001 - report every kind, then fail
                failed[kind] = str(e).splitlines()[0] if str(e) else e.__class__.__name__
            total = counts[(kind, "accepted")] + counts[(kind, "refused")]
            print(
                f"{kind:15s} {total:6d} runs: {counts[(kind, 'accepted')]:6d} accepted (exit 0), "
                f"{counts[(kind, 'refused')]:6d} refused (exit 2), "
                f"{'VIOLATION: ' + failed[kind] if kind in failed else '0 violations'} "
                f"[{time.time() - start:.0f} s]",
                flush=True,
            )
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
