"""The ingestion program (codajudge.programs.ingest): baselines, code and result submissions, and
every way a code submission can fail, down to the scoring program refusing the failed step.

Each test builds a small phase in tmp_path: ``input`` (task.json, public items, training items
with gold) and ``ref`` (task.json, gold), covering every track kind and scale.
"""

import io
import json
import os
import random
import re
import subprocess
import sys
import time
import zipfile
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path, PurePosixPath

import numpy as np
import pytest
import yaml

from codajudge.baselines.interface import prediction_lines
from codajudge.errors import SubmissionError
from codajudge.formats.items import public_view, write_items
from codajudge.programs.ingest import INGESTION_STATUS, main
from codajudge.scoring import score_folder
from codajudge.spec import RESULTS_ONLY, TaskSpec, read_spec, write_spec
from codajudge.tracks import track_from_dict

REPO = Path(__file__).resolve().parents[1]
NLI = ["entailment", "neutral", "contradiction"]
VEN = ["contradiction", "entailment", "neutral"]
ORDINAL = ["1", "2", "3", "4", "5", "6"]
ANNOTATORS = ["Ann1", "Ann2", "Ann3", "Ann4", "Ann5"]
WORDS = "a man is playing the guitar woman cuts an onion dog runs in park , . ! 我 爱 猫".split()

#: Every kind and scale once; lower-is-better tracks are not primary (the primary score averages one direction).
ALL_TRACKS = [
    {"id": "sts", "kind": "similarity", "dataset": "sts"},
    {"id": "nli", "kind": "classification", "dataset": "nli", "labels": NLI},
    {
        "id": "mp_soft",
        "kind": "soft_label",
        "scale": "categorical",
        "dataset": "mp",
        "labels": ["0", "1"],
        "primary": False,
    },
    {
        "id": "mp_pe",
        "kind": "perspectivist",
        "scale": "categorical",
        "dataset": "mp",
        "labels": ["0", "1"],
        "primary": False,
    },
    {
        "id": "csc_soft",
        "kind": "soft_label",
        "scale": "ordinal",
        "dataset": "csc",
        "labels": ORDINAL,
        "primary": False,
    },
    {
        "id": "csc_pe",
        "kind": "perspectivist",
        "scale": "ordinal",
        "dataset": "csc",
        "labels": ORDINAL,
        "primary": False,
    },
    {
        "id": "ven_soft",
        "kind": "soft_label",
        "scale": "multilabel",
        "dataset": "ven",
        "labels": VEN,
        "primary": False,
    },
    {
        "id": "ven_pe",
        "kind": "perspectivist",
        "scale": "multilabel",
        "dataset": "ven",
        "labels": VEN,
        "primary": False,
    },
]
SMALL_TRACKS = ALL_TRACKS[:2]


def _items(dataset: str, prefix: str, n: int, rng: random.Random) -> list:
    items = []
    for i in range(n):
        texts = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 6))) for _ in range(2)]
        if (
            i == 1
        ):  # a text may hold U+2028 and U+0085 (web and social-media text does): text, not line ends
            texts[0] += " line\u2028separator\x85next"
        item = {"id": f"{prefix}{i}", "texts": texts, "lang": "en"}
        if dataset == "sts":
            item["score"] = round(rng.uniform(0, 5), 1)
        elif dataset == "nli":
            item["label"] = rng.choice(NLI + [None])
        else:
            names = rng.sample(ANNOTATORS, rng.randint(1, 4))
            if dataset == "mp":
                labels = [rng.choice("01") for _ in names]
            elif dataset == "csc":
                labels = [rng.choice(ORDINAL) for _ in names]
            else:
                labels = [rng.sample(VEN, rng.randint(1, 2)) for _ in names]
            item.update(annotators=names, annotations=labels)
        items.append(item)
    return items


def make_phase(root: Path, tracks=ALL_TRACKS, n_test=14, n_train=30, **extra) -> dict:
    """Input data and reference data of one small phase; returns their folders and the spec."""
    spec = TaskSpec(
        edition="test",
        title="Test",
        phase="practice",
        seed=5,
        tracks=[track_from_dict(t) for t in tracks],
        extra=extra,
    )
    folders = {"input": root / "input", "ref": root / "ref"}
    for folder in folders.values():
        folder.mkdir(parents=True)
        write_spec(folder, spec)
    rng = random.Random(17)
    for dataset in sorted({t["dataset"] for t in tracks}):
        test = _items(dataset, f"{dataset}-t", n_test, rng)
        write_items(folders["ref"] / f"{dataset}.jsonl", test)
        write_items(folders["input"] / f"{dataset}.jsonl", [public_view(it) for it in test])
        write_items(
            folders["input"] / f"{dataset}.train.jsonl",
            _items(dataset, f"{dataset}-tr", n_train, rng),
        )
    return {**folders, "spec": spec}


def json_lines(path: Path) -> list:
    """The rows of a JSON-lines file the kit wrote, split at "\n" only: U+2028 and U+0085 are text."""
    return [
        json.loads(line) for line in path.read_text(encoding="utf-8").split("\n") if line.strip()
    ]


def tsv_lines(path: Path) -> list:
    return path.read_text(encoding="utf-8").removesuffix("\n").split("\n")


def status_of(output: Path) -> dict:
    return json.loads((output / INGESTION_STATUS).read_text(encoding="utf-8"))


def folder_bytes(folder: Path) -> dict:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def write_submission(folder: Path, code: str) -> Path:
    folder.mkdir(parents=True)
    (folder / "model.py").write_text(code, encoding="utf-8")
    return folder


def submission_of(tmp_path: Path, files: dict[str, str], zipped: bool) -> Path:
    """``files`` (relative name -> text) written in the folder ``tmp_path/sub``, and, ``zipped``,
    as the zip ``tmp_path/sub.zip`` too, which is then the submission."""
    folder = tmp_path / "sub"
    for relative, text in files.items():
        (folder / relative).parent.mkdir(parents=True, exist_ok=True)
        (folder / relative).write_text(text, encoding="utf-8")
    if not zipped:
        return folder
    with zipfile.ZipFile(tmp_path / "sub.zip", "w") as archive:
        for relative, text in files.items():
            archive.writestr(relative, text)
    return tmp_path / "sub.zip"


def run_scoring_program(phase_root: Path, res: Path, output=None) -> subprocess.CompletedProcess:
    """The real scoring program's main on INPUT = {ref, res}, in this process, writing to
    ``output`` (default: ``phase_root/scores``): its exit code and what it printed (its script in
    a process of its own: test_scoring_program and the hostile corpus). An exception it lets out
    fails the test here, as a traceback would have."""
    from codajudge.programs.score import main as score_main

    input_dir = phase_root / "scoring_input"
    input_dir.mkdir()
    (input_dir / "ref").symlink_to(phase_root / "ref", target_is_directory=True)
    (input_dir / "res").symlink_to(res, target_is_directory=True)
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = score_main([str(input_dir), str(output or phase_root / "scores")])
    return subprocess.CompletedProcess([], code, out.getvalue(), err.getvalue())


# ---------------------------------------------------------------- baselines through the program


@pytest.mark.parametrize("baseline", ["random", "most_frequent", "cosine_bow"])
def test_each_baseline_is_accepted_by_the_scorer_on_every_kind(tmp_path, baseline):
    phase = make_phase(tmp_path)
    out = tmp_path / "out"
    assert main(["--baseline", baseline, str(phase["input"]), str(out)]) == 0
    assert status_of(out)["status"] == "ok"
    assert sorted(p.name for p in out.glob("*.tsv")) == sorted(f"{t['id']}.tsv" for t in ALL_TRACKS)
    result = score_folder(read_spec(phase["ref"]), phase["ref"], out)
    assert sorted(result.tracks) == sorted(t["id"] for t in ALL_TRACKS)
    for track in result.tracks.values():
        assert all(np.isfinite(v) for v in track.scores.values())


def test_most_frequent_lines_follow_the_training_split(tmp_path):
    """The written classification file is the training majority label for every item, computed here."""
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    out = tmp_path / "out"
    assert main(["--baseline", "most-frequent", str(phase["input"]), str(out)]) == 0
    train = json_lines(phase["input"] / "nli.train.jsonl")
    counts = {label: sum(it["label"] == label for it in train) for label in NLI}
    majority = max(NLI, key=lambda label: (counts[label], -NLI.index(label)))
    lines = tsv_lines(out / "nli.tsv")
    test_ids = [it["id"] for it in json_lines(phase["input"] / "nli.jsonl")]
    assert lines == [f"{i}\t{majority}" for i in test_ids]


def test_same_seed_same_bytes_other_seed_other_bytes(tmp_path):
    phase = make_phase(tmp_path)
    runs = {}
    for name, seed in (("a", "7"), ("b", "7"), ("c", "8")):
        assert (
            main(
                ["--baseline", "random", "--seed", seed, str(phase["input"]), str(tmp_path / name)]
            )
            == 0
        )
        runs[name] = folder_bytes(tmp_path / name)
    assert runs["a"] == runs["b"]
    for track in ALL_TRACKS:
        assert runs["a"][f"{track['id']}.tsv"] != runs["c"][f"{track['id']}.tsv"], track["id"]


def test_cosine_baseline_is_deterministic_and_equals_its_code_submission(tmp_path):
    phase = make_phase(tmp_path)
    assert main(["--baseline", "cosine_bow", str(phase["input"]), str(tmp_path / "a")]) == 0
    assert main(["--baseline", "cosine_bow", str(phase["input"]), str(tmp_path / "b")]) == 0
    submission = write_submission(
        tmp_path / "sub", "from codajudge.baselines import CosineBow as Model\n"
    )
    assert main([str(phase["input"]), str(tmp_path / "c"), str(submission)]) == 0
    a, b, c = (folder_bytes(tmp_path / n) for n in "abc")
    assert a == b
    assert {k: v for k, v in a.items() if k.endswith(".tsv")} == {
        k: v for k, v in c.items() if k.endswith(".tsv")
    }
    assert status_of(tmp_path / "c")["message"].startswith("code submission")


# ---------------------------------------------------------------- code submissions that work

GOOD_MODEL = """
import helper

class Model:
    def __init__(self, track):
        self.track = track

    def fit(self, train_items):
        self.n_train = len(train_items)
        assert all("score" in it or "label" in it for it in train_items), "training items carry gold"

    def predict(self, items):
        assert not any("score" in it or "label" in it for it in items), "public items carry no gold"
        if self.track["kind"] == "similarity":
            import numpy as np
            return np.array([helper.length(it) for it in items], dtype=float)  # a numpy array is fine
        return [self.track["labels"][len(it["texts"][0]) % 3] for it in items]
"""


def test_zipped_code_submission_in_a_folder_with_a_helper_module(tmp_path):
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    archive = tmp_path / "submission.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("my_team/model.py", GOOD_MODEL)
        zf.writestr(
            "my_team/helper.py", "def length(item):\n    return float(len(item['texts'][1]))\n"
        )
    out = tmp_path / "out"
    assert main([str(phase["input"]), str(out), str(archive)]) == 0
    public = json_lines(phase["input"] / "sts.jsonl")
    expected = [f"{it['id']}\t{float(len(it['texts'][1]))!r}" for it in public]
    assert tsv_lines(out / "sts.tsv") == expected
    scored = score_folder(read_spec(phase["ref"]), phase["ref"], out).tracks["nli"]
    assert len(scored.gold.ids) == len(public)


def test_thin_entry_point_with_the_codabench_command(tmp_path):
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    meta = yaml.safe_load(
        (REPO / "ingestion_program" / "metadata.yaml").read_text(encoding="utf-8")
    )
    assert (
        meta["command"]
        == "python3 /app/program/ingest.py /app/input_data /app/output /app/ingested_program"
    )
    submission = write_submission(
        tmp_path / "sub", "from codajudge.baselines import MostFrequent as Model\n"
    )
    done = subprocess.run(
        [
            sys.executable,
            str(REPO / "ingestion_program" / "ingest.py"),
            str(phase["input"]),
            str(tmp_path / "out"),
            str(submission),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert status_of(tmp_path / "out")["status"] == "ok"
    assert run_scoring_program(tmp_path, tmp_path / "out").returncode == 0
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "codajudge.programs.ingest",
            "--baseline",
            "most_frequent",
            str(phase["input"]),
            str(tmp_path / "out_m"),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert folder_bytes(tmp_path / "out_m")["sts.tsv"] == folder_bytes(tmp_path / "out")["sts.tsv"]


# ---------------------------------------------------------------- code submissions that fail

VOCAB_FIX = "os.path.join(os.path.dirname(__file__), 'vocab.json')"
FAILING_MODELS = {
    "raises": (
        "class Model:\n    def __init__(self, track):\n        pass\n    def fit(self, items):\n"
        "        pass\n    def predict(self, items):\n        raise ValueError('boom from the model')\n",
        ["track 'sts'", "Model.predict", "ValueError: boom from the model", "model.py, line 7"],
    ),
    "wrong_count": (
        "class Model:\n    def __init__(self, track):\n        pass\n    def fit(self, items):\n"
        "        pass\n    def predict(self, items):\n        return [1.0] * (len(items) - 1)\n",
        ["track 'sts'", "wrong number of predictions", "expected 14", "found 13"],
    ),
    "bad_label": (
        "class Model:\n    def __init__(self, track):\n        self.kind = track['kind']\n"
        "    def fit(self, items):\n        pass\n    def predict(self, items):\n"
        "        return [2.5 if self.kind == 'similarity' else 'maybe' for _ in items]\n",
        [
            "track 'nli'",
            "item 'nli-t0'",
            "label outside the track's label set",
            "expected one of entailment, neutral, contradiction",
            "found 'maybe'",
        ],
    ),
    "exits": (
        "import os\nclass Model:\n    def __init__(self, track):\n        os._exit(7)\n"
        "    def fit(self, items):\n        pass\n    def predict(self, items):\n        return []\n",
        ["stopped unexpectedly", "exited with code 7", "track 'sts'"],
    ),
    "no_model_class": (
        "class Modle:\n    pass\n",
        ["no class named Model", "from codajudge.baselines"],
    ),
    "relative_path": (  # passes run from its own folder, not from the platform's working folder
        "import json\nVOCAB = json.load(open('vocab.json'))\nclass Model:\n    pass\n",
        ["FileNotFoundError", "model.py, line 2", "not the submission's", VOCAB_FIX],
    ),
    "predict_signature": (  # the kit's call does not bind: the signature it needs, the def's line
        "class Model:\n    def __init__(self, track):\n        pass\n    def fit(self, items):\n"
        "        pass\n    def predict(self, items, extra):\n        return []\n",
        [
            "expected def predict(self, items)",
            "found def predict(self, items, extra) at model.py, line 6",
        ],
    ),
    "init_signature": (
        "class Model:\n    def __init__(self):\n        pass\n    fit = predict = print\n",
        ["Model(track) failed", "expected def __init__(self, track), found def __init__(self) at"],
    ),
    # raised as import raises it, whatever the test machine has installed
    "package_in_image": (  # the README's list of the image's packages says which
        "raise ModuleNotFoundError(\"No module named 'sklearn'\", name='sklearn.svm')\n",
        [
            "No module named",
            "sklearn is in the platform's image (scikit-learn",
            "pip install scikit-learn ",
        ],
    ),
    "package_not_in_image": (
        "raise ModuleNotFoundError(\"No module named 'torch'\", name='torch')\n",
        ["No module named 'torch'", "(codalab/codalab-legacy:py312) does not have torch: ship"],
    ),
    "module_not_in_a_package_that_imports": (  # no advice to install what is there
        "import codajudge.gold_secret_xyz\n",
        ["codajudge imports, but it has no module gold_secret_xyz: fix the name in the import"],
    ),
    "submodule_not_in_a_package_of_the_image": (
        "import numpy.foo_bar\n",
        ["numpy imports, but it has no module foo_bar: fix the name in the import"],
    ),
    "syntax_error": (
        "class Model:\n    def fit(self, items)\n        pass\n",
        ["importing model.py failed with SyntaxError", "model.py, line 2"],
    ),
}


def assert_failed_cleanly(out: Path, stderr: str, code: int, needles) -> str:
    """Non-zero exit, status failed with the message, no prediction file, no traceback anywhere."""
    assert code != 0
    status = status_of(out)
    assert status["status"] == "failed"
    for needle in needles:
        assert needle in status["message"], (needle, status["message"])
        assert needle in stderr, (needle, stderr)
    assert not list(out.glob("*.tsv"))
    assert "Traceback" not in stderr and "Traceback" not in status["message"]
    for text in (
        stderr,
        status["message"],
    ):  # the participant's frames may be shown, never the kit's
        assert not re.search(r'File "[^"]*codajudge', text), text
    return status["message"]


@pytest.mark.parametrize("case", sorted(FAILING_MODELS))
def test_failing_code_submission_is_reported_and_not_scored(tmp_path, capfd, case):
    code, needles = FAILING_MODELS[case]
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    out = tmp_path / "out"
    out.mkdir()
    (out / "sts.tsv").write_text(
        "stale\t1.0\n", encoding="utf-8"
    )  # a previous run's file must not survive
    submission = write_submission(tmp_path / "sub", code)
    result = main([str(phase["input"]), str(out), str(submission)])
    assert_failed_cleanly(out, capfd.readouterr().err, result, needles)
    scored = run_scoring_program(tmp_path, out)
    assert scored.returncode != 0
    assert "prediction step failed" in scored.stderr
    assert not (tmp_path / "scores" / "scores.json").exists()


def test_a_code_submission_s_refused_tracks_are_named_in_one_refusal(tmp_path, capfd):
    """Each track's predictions are checked as the model returns them; a refused track does not
    stop the others, so one message names every track's problems, grouped by track."""
    code, _ = FAILING_MODELS["wrong_count"]  # one prediction short on every track
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    out = tmp_path / "out"
    result = main([str(phase["input"]), str(out), str(write_submission(tmp_path / "sub", code))])
    printed = capfd.readouterr()
    message = assert_failed_cleanly(out, printed.err, result, ["track 'sts'", "track 'nli'"])
    lines = message.split("\n")
    header = "2 tracks have problems; each track's first ones are shown:"
    assert header in lines
    following = lines[lines.index(header) + 1 :]
    assert following[0].startswith("predictions for track 'sts': wrong number of predictions")
    assert following[1].startswith("predictions for track 'nli': wrong number of predictions")
    assert "track nli: predicting 14 items" in printed.out  # nli ran after sts was refused
    # the log says what happens after a refused track: the run goes on, the submission is refused
    assert (
        "track sts: its predictions were refused (1 track so far): the submission will be refused "
        "once every track is checked, so that one message names every track's problems"
    ) in printed.out
    assert "track nli: its predictions were refused (2 tracks so far)" in printed.out
    assert "the other tracks go on" not in printed.out


SLOW_MODEL = (
    "import time\nclass Model:\n    def __init__(self, track):\n        pass\n"
    "    def fit(self, items):\n        open(MARKER, 'w').close()\n        time.sleep(60)\n"
    "    def predict(self, items):\n        return []\n"
)


@pytest.mark.parametrize("where", ["option", "task.json"])
def test_code_submission_past_the_time_limit_is_killed(tmp_path, capfd, where):
    # The phase's 6 s leave the code 4.5 s (a quarter kept for the checks after the code); --time-limit is taken as is.
    # The message must name the track being run, which needs the child to reach fit() before the kill:
    # the model marks that it did. On a machine so loaded that the child's start-up (imports) took the
    # whole limit, the run proves nothing about the track, so it is repeated with twice the limit.
    for scale in (1, 2, 4):
        attempt = tmp_path / f"limit_x{scale}"
        extra = {"execution_time_limit": 6 * scale} if where == "task.json" else {}
        limit = f"{4.5 * scale:g} s" if where == "task.json" else f"{4 * scale} s"
        phase = make_phase(attempt, tracks=SMALL_TRACKS, **extra)
        marker = attempt / "fit_started"
        submission = write_submission(attempt / "sub", f"MARKER = {str(marker)!r}\n" + SLOW_MODEL)
        out = attempt / "out"
        args = [str(phase["input"]), str(out), str(submission)]
        args += ["--time-limit", str(4 * scale)] if where == "option" else []
        started = time.monotonic()
        result = main(args)
        assert time.monotonic() - started < 4.5 * scale + 15
        needles = [f"the code submission ran past the time limit of {limit}"]
        if marker.exists():
            needles.append("track 'sts'")
        assert_failed_cleanly(out, capfd.readouterr().err, result, needles)
        if marker.exists():
            break
    else:
        pytest.fail(
            "the child never reached Model.fit within 18 s: the machine is too loaded to test the message"
        )
    scored = run_scoring_program(attempt, out)
    assert scored.returncode != 0 and "prediction step failed" in scored.stderr


def test_empty_training_split_makes_most_frequent_fail_clearly(tmp_path, capfd):
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    (phase["input"] / "nli.train.jsonl").unlink()
    out = tmp_path / "out"
    result = main(["--baseline", "most_frequent", str(phase["input"]), str(out)])
    assert_failed_cleanly(
        out, capfd.readouterr().err, result, ["track 'nli'", "training split is empty"]
    )


# ---------------------------------------------------------------- result submissions


def test_result_submission_is_checked_and_copied(tmp_path):
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    assert main(["--baseline", "random", str(phase["input"]), str(tmp_path / "made")]) == 0
    submission = tmp_path / "sub"
    submission.mkdir()
    sts_bytes = (tmp_path / "made" / "sts.tsv").read_bytes()
    (submission / "sts.tsv").write_bytes(sts_bytes)
    (submission / "notes.txt").write_text("not a track file\n", encoding="utf-8")
    out = tmp_path / "out"
    assert main([str(phase["input"]), str(out), str(submission)]) == 0
    assert status_of(out)["tracks"] == ["sts"] and status_of(out)["message"].startswith(
        "result submission"
    )
    assert (out / "sts.tsv").read_bytes() == sts_bytes and not (out / "nli.tsv").exists()
    assert run_scoring_program(tmp_path, out).returncode == 0


def test_a_result_submission_s_reading_notes_go_into_its_status_and_are_scored_once(
    tmp_path, capsys
):
    """The format check prints how a file was read, in the scoring program's words, and keeps it in
    the status's notes; the scoring program, which reads those notes, says it once."""
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    assert main(["--baseline", "random", str(phase["input"]), str(tmp_path / "made")]) == 0
    submission = tmp_path / "sub"
    submission.mkdir()
    rows = (tmp_path / "made" / "sts.tsv").read_text(encoding="utf-8")
    (submission / "sts.tsv").write_text("id\tscore\n" + rows, encoding="utf-8")
    out = tmp_path / "out"
    assert main([str(phase["input"]), str(out), str(submission)]) == 0
    note = "sts.tsv: the first line was read as a header and skipped"
    assert f"note: {note}\n" in capsys.readouterr().out and status_of(out)["notes"] == [note]
    scored = run_scoring_program(tmp_path, out)
    print(scored.stderr)
    assert scored.stdout.count(note) == 1


def test_a_file_named_as_clues_test_submission_is_warned_about_by_scoring_only(tmp_path, capsys):
    """CLUE's OCNLI test file name on a phase whose ids are CLUE's test ids (0..2999): only the
    scoring program, which sees the agreement with the gold (near chance here), warns, once; the
    format check has no gold to tell a CLUE test file from this phase's predictions."""
    phase = make_phase(tmp_path, tracks=[{**ALL_TRACKS[1], "files": ["ocnli*_predict.json"]}])
    for data in (phase["input"] / "nli.jsonl", phase["ref"] / "nli.jsonl"):
        numbered = re.sub(r'"nli-t(\d+)"', r'"\1"', data.read_text(encoding="utf-8"))
        data.write_text(numbered, encoding="utf-8")
    submission = tmp_path / "sub"
    submission.mkdir()
    lines = "".join(json.dumps({"id": i, "label": "neutral"}) + "\n" for i in range(14))
    (submission / "ocnli_50k_predict.json").write_text(lines, encoding="utf-8")
    out = tmp_path / "out"
    assert main([str(phase["input"]), str(out), str(submission)]) == 0
    note = "ocnli_50k_predict.json is the name of the submission file for CLUE's OCNLI test set"
    assert note not in capsys.readouterr().out
    assert not any(note in n for n in status_of(out)["notes"])
    assert run_scoring_program(tmp_path, out).stdout.count(note) == 1


def test_bad_result_submission_fails_with_line_and_item(tmp_path, capfd):
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    submission = tmp_path / "sub"
    submission.mkdir()
    ids = [it["id"] for it in json_lines(phase["input"] / "nli.jsonl")]
    lines = [f"{i}\tneutral" for i in ids]
    lines[3] = f"{ids[3]}\tNeutral"
    (submission / "nli.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    result = main([str(phase["input"]), str(out), str(submission)])
    assert_failed_cleanly(
        out, capfd.readouterr().err, result, ["nli.tsv, line 4", f"item '{ids[3]}'", "'Neutral'"]
    )


def _three_broken_files(input_folder: Path, folder: Path) -> dict:
    """A per-annotator list one entry too long (csc_pe, line 1), a soft label summing to 1.2
    (mp_soft, line 2) and a duplicate id (sts, last line): file name -> the refusal's line prefix."""
    folder.mkdir()
    csc = json_lines(input_folder / "csc.jsonl")
    rows = [json.dumps(["1"] * len(it["annotators"])) for it in csc]
    rows[0] = json.dumps(["1"] * (len(csc[0]["annotators"]) + 1))
    mp = json_lines(input_folder / "mp.jsonl")
    soft = ["[0.5, 0.5]"] * len(mp)
    soft[1] = "[0.5, 0.7]"
    sts = [it["id"] for it in json_lines(input_folder / "sts.jsonl")]
    files = {
        "csc_pe.tsv": [f"{it['id']}\t{row}" for it, row in zip(csc, rows)],
        "mp_soft.tsv": [f"{it['id']}\t{row}" for it, row in zip(mp, soft)],
        "sts.tsv": [f"{i}\t2.5" for i in sts + sts[:1]],
    }
    for name, lines in files.items():
        (folder / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return {
        "csc_pe.tsv": f"csc_pe.tsv, line 1, item '{csc[0]['id']}':",
        "mp_soft.tsv": f"mp_soft.tsv, line 2, item '{mp[1]['id']}':",
        "sts.tsv": f"sts.tsv, line {len(sts) + 1}, item '{sts[0]}': duplicate id",
    }


def test_three_broken_files_in_a_zip_get_one_refusal_from_both_programs(tmp_path, capfd):
    """The ingestion program's result check and the scoring program each name the three files
    in one refusal (what the local runner does is in test_run_local_messages.py)."""
    phase = make_phase(tmp_path)
    expected = _three_broken_files(phase["input"], tmp_path / "files")
    archive = tmp_path / "submission.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for path in sorted((tmp_path / "files").iterdir()):
            zf.write(path, path.name)
    out = tmp_path / "out"
    code = main([str(phase["input"]), str(out), str(archive)])
    needles = ["3 files have problems; each file's first ones are shown"] + list(expected.values())
    message = assert_failed_cleanly(out, capfd.readouterr().err, code, needles)
    assert message.count("files have problems") == 1
    scored = run_scoring_program(tmp_path, tmp_path / "files")
    assert scored.returncode != 0 and "Traceback" not in scored.stderr
    assert "3 files have problems; each file's first ones are shown" in scored.stderr
    for prefix in expected.values():
        assert prefix in scored.stderr, (prefix, scored.stderr)
    assert not (tmp_path / "scores" / "scores.json").exists()


def test_empty_submission_names_both_kinds(tmp_path, capfd):
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    (tmp_path / "sub").mkdir()
    out = tmp_path / "out"
    result = main([str(phase["input"]), str(out), str(tmp_path / "sub")])
    assert_failed_cleanly(
        out,
        capfd.readouterr().err,
        result,
        ["no prediction file for any track", "model.py", "sts.tsv", "nli.tsv"],
    )


@pytest.mark.parametrize("zipped", [False, True])
def test_a_submission_of_only_dotfiles_names_them_zipped_or_not(tmp_path, capfd, zipped):
    """A zip is extracted without its ignored entries, so nothing would be left to name: "found
    no files" would be untrue for a zip as for a folder."""
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    sub = submission_of(tmp_path, {".DS_Store": "x", ".sts.tsv": "a\t1\n"}, zipped)
    out = tmp_path / "out"
    result = main([str(phase["input"]), str(out), str(sub)])
    err = capfd.readouterr().err
    assert_failed_cleanly(out, err, result, ["found only", "'.DS_Store'", "'.sts.tsv'"])
    assert "no files" not in err


@pytest.mark.parametrize(
    "files, found",
    [
        ({"run.py": "print(1)\n"}, "run.py"),
        ({"src/main.py": "print(1)\n"}, "src/main.py"),
    ],
)
@pytest.mark.parametrize("zipped", [False, True])
def test_a_script_from_another_platform_is_told_what_this_competition_runs(
    tmp_path, capfd, files, found, zipped
):
    """A run.py or main.py without model.py, as a folder or a zip: the refusal names them and says
    how to make model.py, not how to name files."""
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    submission = submission_of(tmp_path, files, zipped)
    out = tmp_path / "out"
    result = main([str(phase["input"]), str(out), str(submission)])
    err = assert_failed_cleanly(out, capfd.readouterr().err, result, [f"found {found}"])
    assert result == 2 and "The ingestion program runs no script of a submission" in err
    assert "put your script's training in fit() and its prediction in predict()" in err
    assert "name each file after its track" not in err


@pytest.mark.parametrize("name", ["metadata", "metadata.yaml"])
@pytest.mark.parametrize("zipped", [False, True])
def test_a_submission_whose_metadata_codabench_runs_is_refused_and_not_scored(
    tmp_path, capfd, name, zipped
):
    """A trial's result submission with a metadata command (its run.py copied the results to
    /app/output and slept past the phase's limit): Codabench's worker runs that command in a
    container of its own, outside every limit, so the ingestion program refuses the submission
    (non-zero exit, which the scorer refuses to score) instead of ignoring run.py."""
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    assert main(["--baseline", "random", str(phase["input"]), str(tmp_path / "made")]) == 0
    files = {
        name: "command: python3 /app/program/run.py\n",
        "run.py": "import shutil, time; shutil.copytree('preds', '/app/output'); time.sleep(70)\n",
        "preds/sts.tsv": (tmp_path / "made" / "sts.tsv").read_text(encoding="utf-8"),
    }
    submission = submission_of(tmp_path, files, zipped)
    out = tmp_path / "out"
    result = main([str(phase["input"]), str(out), str(submission)])
    needles = [name, "Codabench runs the command of this file itself", "outside the competition's"]
    needles += ["found command 'python3 /app/program/run.py'", f"Remove {name} and submit"]
    assert_failed_cleanly(out, capfd.readouterr().err, result, needles)
    assert run_scoring_program(tmp_path, out).returncode != 0


@pytest.mark.parametrize("command, found", [("[python3, x.py]", "list"), ("123", "int")])
def test_a_metadata_command_that_is_not_text_is_refused_with_a_message(
    tmp_path, capfd, command, found
):
    """A trial's code submission whose metadata command was a list or a number was run without a
    word, while Codabench's worker fails on it (compute_worker.py replace_legacy_metadata_command
    calls its replace) and ends the prediction step with no message: it is refused, and told so."""
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    files = {"metadata": f"command: {command}\n", "model.py": "class Model:\n    pass\n"}
    submission = submission_of(tmp_path, files, False)
    out = tmp_path / "out"
    result = main([str(phase["input"]), str(out), str(submission)])
    needles = ["metadata: Codabench's worker reads the command of this file itself and fails on"]
    needles += [f"found a command of type {found}, not text: ", "Remove metadata and submit"]
    assert_failed_cleanly(out, capfd.readouterr().err, result, needles)


KIT_METADATA = REPO / "starting_kit/sample_submissions/code_submission/metadata"


@pytest.mark.parametrize(
    "files, runs",
    [
        ({"metadata": KIT_METADATA.read_text(encoding="utf-8")}, None),
        ({"metadata.yaml": "command: python3 run.py\n"}, "command 'python3 run.py'"),
        # the worker reads metadata.yaml only, when there is one
        ({"metadata.yaml": "description: x\n", "metadata": "command: sh run.sh\n"}, None),
        ({"metadata": "command: ''\n"}, None),
        # the worker fails on a value other than text (it calls its replace): refused too
        ({"metadata": "command: [python3, run.py]\n"}, "a command of type list, not text: ['py"),
        ({"metadata": "command: 123\n"}, "a command of type int, not text: 123"),
        ({"metadata": "command: {python3: run.py}\n"}, "a command of type dict, not text"),
        ({"metadata": "command: true\n"}, "a command of type bool, not text: True"),
        # an empty value of any type is no command to the worker: it runs nothing
        ({"metadata": "command: []\n"}, None),
        ({"metadata": "command: 0\n"}, None),
        ({"metadata": "command:\n"}, None),
        ({"metadata": "command: sh run.sh\n: [\n"}, None),  # not YAML: the worker runs nothing
        # a character escaped for the message is escaped once (a repr doubled its backslash)
        ({"metadata": 'command: "   "\n'}, "a blank command '\\x20\\x20\\x20'"),
        ({"metadata": 'command: "sh\\trun.sh"\n'}, "command 'sh\\trun.sh'"),
        ({"Metadata": "command: sh run.sh\n"}, None),
        ({"sub/metadata": "command: sh run.sh\n"}, None),
        # the worker's FullLoader reads a tag the safe loader refuses
        ({"metadata": "command: sh run.sh\nx: !!python/tuple [1]\n"}, "command 'sh run.sh'"),
        ({"metadata": "#" * 70_000 + "\ncommand: sh run.sh\n"}, "a file over 64 KiB"),
        # the worker catches only yaml.YAMLError: a RecursionError ends its step
        ({"metadata": "command: " + "[" * 5000 + "\n"}, "YAML nested deeper than the worker"),
    ],
)
def test_a_metadata_command_is_found_by_the_codabench_worker_s_own_rule(tmp_path, files, runs):
    """The command Codabench's worker runs (compute_worker.py _run_program_directory): the root's
    metadata.yaml, else its metadata, read as YAML; any value but an empty one (text runs, any
    other value fails the worker)."""
    from codajudge.programs.ingest import worker_command

    for relative, text in files.items():
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text(text, encoding="utf-8")
    found = worker_command(tmp_path)
    if runs is None:
        assert found is None
    else:
        assert found is not None and found[1].startswith(runs)


@pytest.mark.parametrize(
    "name, fix",
    [
        ("Model.py", "name it exactly model.py"),
        ("code/model.py.txt", "name it exactly model.py"),
        ("modle.py", "name it exactly model.py"),
        ("model.ipynb", "a notebook is not run: export it as a Python script"),
    ],
)
def test_a_file_named_almost_model_py_is_named_as_meant_for_model_py(tmp_path, capfd, name, fix):
    """A code submission whose model.py is named otherwise (case, an editor's .txt, a typo, a
    notebook) was told to name its files after the tracks: the refusal now says which file was
    probably meant as model.py and how to make it so."""
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    submission = tmp_path / "sub.zip"
    with zipfile.ZipFile(submission, "w") as archive:
        archive.writestr(name, "class Model:\n    pass\n")
    out = tmp_path / "out"
    result = main([str(phase["input"]), str(out), str(submission)])
    err = assert_failed_cleanly(out, capfd.readouterr().err, result, [f"found {name}"])
    assert (
        result == 2
        and (
            f"File '{name}' was probably meant as model.py, the file a code submission is run from: "
            f"{fix}"
        )
        in err
    )
    assert "name each file after its track" not in err


@pytest.mark.parametrize(
    "make, kind",
    [
        (lambda path: path.symlink_to(path.parents[2] / "elsewhere.py"), "a symbolic link"),
        (lambda path: os.mkfifo(path), "a named pipe (FIFO)"),
    ],
)
def test_a_model_py_that_is_no_regular_file_is_named_as_such(tmp_path, capfd, make, kind):
    """A submission folder whose model.py is a link (never followed) or a FIFO was told that no
    prediction file was found and that 'model.py' was probably meant as model.py."""
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    (tmp_path / "elsewhere.py").write_text(GOOD_MODEL, encoding="utf-8")
    (tmp_path / "sub" / "code").mkdir(parents=True)
    make(tmp_path / "sub" / "code" / "model.py")
    out = tmp_path / "out"
    result = main([str(phase["input"]), str(out), str(tmp_path / "sub")])
    needle = f"code/model.py: model.py is {kind}; expected a regular file. Put the file model.py"
    err = assert_failed_cleanly(out, capfd.readouterr().err, result, [needle])
    assert result == 2 and "probably meant" not in err


# ---------------------------------------------------------------- value conversion (in process)


def test_prediction_lines_accept_numpy_and_refuse_nan_with_the_item():
    track = track_from_dict({"id": "sts", "kind": "similarity", "dataset": "sts"})
    items = [{"id": "a", "texts": []}, {"id": "b", "texts": []}]
    assert prediction_lines(track, items, np.array([1.5, 2]), "t") == ["a\t1.5", "b\t2.0"]
    with pytest.raises(SubmissionError) as info:
        prediction_lines(track, items, [1.0, float("nan")], "t")
    assert "item 'b'" in str(info.value) and "'nan'" in str(info.value)


@pytest.mark.parametrize("kind, labels", [("similarity", None), ("classification", ["a", "b"])])
def test_prediction_lines_refuse_an_int_too_long_to_write_with_the_item(kind, labels):
    """An int of more digits than Python writes as text (4,300) is refused at its item, by size."""
    track = track_from_dict({"id": "t", "kind": kind, "dataset": "d", "labels": labels})
    items = [{"id": "a", "texts": []}]
    with pytest.raises(SubmissionError) as info:
        prediction_lines(track, items, [10**5000], "t")
    assert "item 'a'" in str(info.value) and "found int of 16,610 bits" in str(info.value)


class _SeriesLike:
    """A pandas-like Series: iterable, sized, with .tolist()."""

    def __iter__(self):
        return iter([1.0, 2.0])

    def tolist(self):
        return [1.0, 2.0]


@pytest.mark.parametrize(
    "returned, fix",
    [
        (
            {"a": 1.0, "b": 2.0},
            'Return a list in the items\' order: [pred[item["id"]] for item in items]',
        ),
        ((v for v in [1.0, 2.0]), "Wrap it in list(...)"),
        (_SeriesLike(), "Call its .tolist()"),
    ],
)
def test_predictions_that_are_no_list_are_told_how_to_make_one(returned, fix):
    track = track_from_dict({"id": "sts", "kind": "similarity", "dataset": "sts"})
    items = [{"id": "a", "texts": []}, {"id": "b", "texts": []}]
    with pytest.raises(SubmissionError) as info:
        prediction_lines(track, items, returned, "t")
    assert "expected a list (or tuple, numpy array), found" in str(info.value)
    assert fix in str(info.value)


def test_an_item_predicted_none_is_told_it_has_no_prediction():
    soft = track_from_dict(
        {"id": "s", "kind": "soft_label", "scale": "categorical", "dataset": "v", "labels": VEN}
    )
    items = [{"id": "a", "texts": []}, {"id": "b", "texts": []}]
    with pytest.raises(SubmissionError) as info:
        prediction_lines(soft, items, [[0.2, 0.3, 0.5], None], "t")
    assert "t, item 'b': the item has no prediction (None)" in str(info.value)
    assert "returning None instead of the whole list" in str(info.value)


def test_prediction_lines_soft_and_perspectivist_forms():
    soft = track_from_dict(
        {"id": "s", "kind": "soft_label", "scale": "multilabel", "dataset": "v", "labels": VEN}
    )
    items = [{"id": "a", "texts": [], "annotators": ["x", "y"]}]
    # K probabilities P(chosen) become K [P(not), P(chosen)] pairs
    assert prediction_lines(soft, items, [np.array([0.25, 1.0, 0.0])], "t") == [
        "a\t[[0.75, 0.25], [0.0, 1.0], [1.0, 0.0]]"
    ]
    persp = track_from_dict(
        {"id": "p", "kind": "perspectivist", "scale": "multilabel", "dataset": "v", "labels": VEN}
    )
    # written label-major (the LeWiDi 2025 layout): per label, a 0/1 per annotator (x, y)
    assert prediction_lines(
        persp, items, [[["neutral", "contradiction"], ["entailment"]]], "t"
    ) == ["a\t[[1, 0], [0, 1], [1, 0]]"]
    assert prediction_lines(persp, items, [[[1, 0], [0, 1], [1, 0]]], "t") == [
        "a\t[[1, 0], [0, 1], [1, 0]]"
    ]
    with pytest.raises(SubmissionError) as info:
        prediction_lines(persp, items, [[["neutral"]]], "t")
    assert "wrong number of annotator entries" in str(info.value) and "found 1 entries" in str(
        info.value
    )


# ---------------------------------------------------------------- skipping a track

SKIPPING_MODEL = """
class Model:
    def __init__(self, track):
        self.track = track
    def fit(self, train_items):
        pass
    def predict(self, items):
        if self.track["id"] in SKIPPED:
            return None
        return [2.5 + (len(it["texts"][0]) % 3) for it in items]
"""


def test_a_code_submission_may_skip_a_track(tmp_path, capfd):
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    submission = write_submission(tmp_path / "sub", "SKIPPED = {'nli'}\n" + SKIPPING_MODEL)
    out = tmp_path / "out"
    assert main([str(phase["input"]), str(out), str(submission)]) == 0
    assert (
        "note: track nli: predict() returned None, so the track is not submitted"
        in capfd.readouterr().out
    )
    assert status_of(out)["tracks"] == ["sts"] and not (out / "nli.tsv").exists()
    scored = run_scoring_program(tmp_path, out)
    assert scored.returncode == 0
    assert "note: tracks not covered by this submission: nli" in scored.stdout


def test_a_code_submission_that_skips_every_track_is_refused(tmp_path, capfd):
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    submission = write_submission(tmp_path / "sub", "SKIPPED = {'nli', 'sts'}\n" + SKIPPING_MODEL)
    out = tmp_path / "out"
    assert main([str(phase["input"]), str(out), str(submission)]) == 2
    assert capfd.readouterr().err.endswith(
        "ingestion program: the submission was not accepted:\nmodel.py: predict() returned None for every track, "
        "so nothing can be scored. Return one prediction per item for at least one track\n"
    )
    assert status_of(out)["status"] == "failed"


WRITING_MODEL = """
import os
class Model:
    def __init__(self, track):
        self.track = track
    def fit(self, train_items):
        pass
    def predict(self, items):
        if self.track["id"] == "sts" and WRITES_STS:
            return [1.0 for it in items]
        os.makedirs(FOLDER, exist_ok=True)
        with open(os.path.join(FOLDER, self.track["id"] + ".tsv"), "w") as f:
            f.writelines(it["id"] + "\\tx\\n" for it in items)
"""


def test_code_that_writes_its_own_prediction_files_is_told_to_return_them(tmp_path, capfd):
    """predict() writes the track's file into a folder of its choosing and returns None: the
    refusal names the files written and says to return the predictions from predict()."""
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    folder = tmp_path / "my_predictions"
    code = f"FOLDER = {str(folder)!r}\nWRITES_STS = False\n" + WRITING_MODEL
    out = tmp_path / "out"
    result = main([str(phase["input"]), str(out), str(write_submission(tmp_path / "sub", code))])
    message = assert_failed_cleanly(
        out, capfd.readouterr().err, result, ["predict() returned None for every track"]
    )
    assert result == 2
    wrote = re.search(r"Your code wrote ('[^']*'), ('[^']*'), but (.*)", message)
    assert wrote and [path[-23:] for path in wrote.group(1, 2)] == [
        "my_predictions/sts.tsv'",
        "my_predictions/nli.tsv'",
    ]
    assert wrote.group(3).startswith(
        "the kit writes the prediction files itself: return the predictions from predict() (one "
        "per item, in the items' order) instead of writing files"
    )


def test_a_track_skipped_by_code_that_wrote_its_file_gets_the_hint_in_its_note(tmp_path, capfd):
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    folder = tmp_path / "my_predictions"
    code = f"FOLDER = {str(folder)!r}\nWRITES_STS = True\n" + WRITING_MODEL
    out = tmp_path / "out"
    assert main([str(phase["input"]), str(out), str(write_submission(tmp_path / "sub", code))]) == 0
    note = re.search(
        r"note: track nli: predict\(\) returned None, so the track is not submitted; your code wrote ('[^']*'), but the kit writes the prediction files itself: return the predictions from predict\(\)",
        capfd.readouterr().out,
    )
    assert note and note.group(1).endswith("my_predictions/nli.tsv'")


def test_code_that_cannot_write_its_files_is_told_to_return_predictions(tmp_path, capfd):
    """In the local sandbox (and wherever the folder is read-only) writing 'predictions' fails:
    the error keeps the code's own line and adds the hint to return the predictions instead."""
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    code = (
        "import errno\nclass Model:\n    def __init__(self, track):\n        pass\n"
        "    def fit(self, items):\n        pass\n    def predict(self, items):\n        raise "
        "OSError(errno.EROFS, 'Read-only file system', 'predictions')\n"
    )
    out = tmp_path / "out"
    result = main([str(phase["input"]), str(out), str(write_submission(tmp_path / "sub", code))])
    assert_failed_cleanly(
        out,
        capfd.readouterr().err,
        result,
        [
            "Read-only file system: 'predictions'",
            "line 8; the kit writes the prediction files itself: return the predictions from predict()",
            "model.py, line 8",
        ],
    )


def test_a_missing_input_folder_is_a_usage_error_naming_the_phases_folders(tmp_path, capsys):
    """A mistyped phase folder is the user's to fix, not the organisers': exit 2, the folder named,
    and the folders beside it that hold a phase's data (a task.json) listed."""
    phase = make_phase(tmp_path / "input_data", tracks=SMALL_TRACKS)
    (tmp_path / "input_data" / "notes").mkdir()
    missing = tmp_path / "input_data" / "evaluation"
    submission = write_submission(tmp_path / "sub", "class Model:\n    pass\n")
    assert main([str(missing), str(tmp_path / "out"), str(submission)]) == 2
    assert capsys.readouterr().err == (
        f"ingestion program: {missing}: no such folder. The folders of a phase's data there are "
        f"{phase['input']}, {phase['ref']}\n"
    )


def test_input_data_given_as_its_zip_is_read_as_its_folder(tmp_path, capsys):
    """CodaLab v1.5's Files tab gives a phase's input data as a zip: the starting kit's local
    check reads it as the folder it holds (extracted safely); another file is a usage error."""
    phase = make_phase(tmp_path / "phase", tracks=SMALL_TRACKS)
    zipped = tmp_path / "input_data_evaluation.zip"
    with zipfile.ZipFile(zipped, "w") as archive:
        for path in sorted(phase["input"].iterdir()):
            archive.write(path, path.name)
    assert main([str(zipped), str(tmp_path / "out"), "--baseline", "most_frequent"]) == 0
    assert sorted(p.name for p in (tmp_path / "out").glob("*.tsv")) == ["nli.tsv", "sts.tsv"]
    capsys.readouterr()
    task = phase["input"] / "task.json"
    assert main([str(task), str(tmp_path / "out2"), "--baseline", "most_frequent"]) == 2
    assert capsys.readouterr().err == (
        f"ingestion program: {task}: a file, not a phase's data. Give the folder of a phase's "
        "data, the one holding its task.json, or its zip\n"
    )


def test_a_results_only_phase_refuses_a_zip_of_code_as_its_platform_does(tmp_path, capfd):
    """A CodaLab v1.5 phase (``scoring_only`` in its input data's task.json too) scores every
    upload as results: the kit's check refuses a zip holding model.py, as the scoring program
    does, saying why; the model's folder still runs, to write the prediction files to upload."""
    phase = make_phase(tmp_path / "phase", tracks=SMALL_TRACKS, scoring_only=True)
    code = write_submission(tmp_path / "code", GOOD_MODEL)
    (code / "helper.py").write_text("def length(item):\n    return 1.0\n", encoding="utf-8")
    zipped = tmp_path / "my_submission.zip"
    with zipfile.ZipFile(zipped, "w") as archive:
        archive.write(code / "model.py", "model.py")
    assert main([str(phase["input"]), str(tmp_path / "checked"), str(zipped)]) == 2
    refusal = capfd.readouterr().err
    assert (
        "the zip holds model.py, a code submission, and no prediction file: this competition's "
        "platform refuses it" in refusal
    )
    assert RESULTS_ONLY[1:] in refusal  # the hint begins with a capital
    with pytest.raises(SubmissionError) as scored:
        score_folder(phase["spec"], phase["ref"], code)
    assert RESULTS_ONLY[1:] in str(scored.value)
    assert main([str(phase["input"]), str(tmp_path / "predictions"), str(code)]) == 0


def test_a_results_only_phase_gives_no_code_advice_to_a_zip_without_prediction_files(
    tmp_path, capfd
):
    """Regression trial of the landed round: the legacy kit told a zip of model.ipynb to export
    it as model.py, "a code submission", which the same kit then refused (its platform runs no
    code). A scoring-only phase's refusal names the track files only, as its scoring program does."""
    phase = make_phase(tmp_path / "phase", tracks=SMALL_TRACKS, scoring_only=True)
    zipped = tmp_path / "notebook.zip"
    with zipfile.ZipFile(zipped, "w") as archive:
        archive.writestr("model.ipynb", "{}")
    assert main([str(phase["input"]), str(tmp_path / "checked"), str(zipped)]) == 2
    refusal = capfd.readouterr().err
    assert "no prediction file for any track was found" in refusal
    assert "a code submission" not in refusal and "nbconvert" not in refusal, refusal


def test_a_results_only_phase_scores_a_zip_of_code_and_predictions_as_results(tmp_path, capfd):
    """Trial 60, item 1: a zip holding model.py and prediction files was refused by the kit's
    check, while CodaLab v1.5 scores its prediction files; it is checked as results, model.py
    noted as ignored."""
    phase = make_phase(tmp_path / "phase", tracks=SMALL_TRACKS, scoring_only=True)
    code = write_submission(tmp_path / "code", GOOD_MODEL)
    (code / "helper.py").write_text("def length(item):\n    return 1.0\n", encoding="utf-8")
    assert main([str(phase["input"]), str(tmp_path / "predictions"), str(code)]) == 0
    zipped = tmp_path / "both.zip"
    with zipfile.ZipFile(zipped, "w") as archive:
        archive.write(code / "model.py", "model.py")
        for path in sorted((tmp_path / "predictions").glob("*.tsv")):
            archive.write(path, path.name)
    capfd.readouterr()
    assert main([str(phase["input"]), str(tmp_path / "checked"), str(zipped)]) == 0
    out = capfd.readouterr().out
    assert "result submission: predictions written for track(s)" in out
    assert "model.py" in out and "ignored" in out
    assert "run as a code submission" not in out


def test_no_submission_argument_says_how_to_give_one(tmp_path, capsys):
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    assert main([str(phase["input"]), str(tmp_path / "chk")]) == 2
    assert capsys.readouterr().err == (
        "ingestion program: SUBMISSION: no submission was given (and nothing is at "
        "/app/ingested_program, where the platform puts it). Give the submission folder or zip "
        "after the output folder, as in ingest.py INPUT_DATA OUTPUT SUBMISSION, or run a built-in "
        "baseline with --baseline NAME\n"
    )


@pytest.mark.parametrize(
    "where, relation",
    [("sub", "is"), ("sub/out", "is inside"), (".", "holds"), ("input", "is")],
)
def test_an_output_folder_sharing_the_submission_or_the_data_is_refused_first(
    tmp_path, capsys, where, relation
):
    """Trial 58, item 1: ``ingest.py INPUT same same`` removed the participant's html and track
    files, then refused the submission; such an OUTPUT is refused before anything is written."""
    phase = make_phase(tmp_path, SMALL_TRACKS)
    sub = write_submission(
        tmp_path / "sub", "from codajudge.baselines import MostFrequent as Model\n"
    )
    (sub / "page.html").write_text("<p>mine</p>", encoding="utf-8")
    (sub / "en_en.tsv").write_text("mine", encoding="utf-8")
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    code = main([str(phase["input"]), str(tmp_path / where), str(sub)])
    err = capsys.readouterr().err
    assert code == 2 and sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before
    what = "input data" if where == "input" else "submission"
    assert f"the output folder {relation} the {what} folder" in err, err
    assert str(tmp_path / where) in err and "Give another output folder" in err


@pytest.mark.parametrize("name", ["metadata", "metadata.yaml"])
def test_a_metadata_file_the_worker_cannot_read_as_utf8_is_refused(tmp_path, capfd, name):
    """Trial 58, item 5: a metadata file that is not UTF-8 was taken as "no command" and accepted,
    while Codabench's worker (open(..., "r") then yaml.load, catching only yaml.YAMLError) fails
    the step on it: it is refused, naming the file and the fix."""
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    sub = write_submission(
        tmp_path / "sub", "from codajudge.baselines import MostFrequent as Model\n"
    )
    (sub / name).write_bytes(b"description: caf\xe9\n")
    out = tmp_path / "out"
    result = main([str(phase["input"]), str(out), str(sub)])
    needles = [f"{name}: Codabench's worker reads this file as UTF-8 YAML and fails on one it"]
    needles += ["found bytes that are not UTF-8 text, the first at byte 16"]
    needles += [f"expected {name} saved as UTF-8 YAML, or no {name}"]
    assert_failed_cleanly(out, capfd.readouterr().err, result, needles)


#: The audit events the ingestion program raised while the next test watched it ("seen": None
#: when not watching). An audit hook cannot be removed, so the one hook added reads this.
_WATCHED: dict = {"seen": None, "hooked": False}


def _watch(event: str, args: tuple) -> None:
    if _WATCHED["seen"] is not None and event in ("open", "import"):
        _WATCHED["seen"].append((event, str(args[0])))


@pytest.mark.parametrize("case", ["succeeds", "raises", "wrong_count", "exits"])
def test_the_program_reads_nothing_of_its_input_data_or_modules_once_the_code_runs(
    tmp_path, monkeypatch, capfd, case
):
    """On Codabench the code can write into the input data and the ingestion program's folder
    (mounted writable): the program reads task.json and the items before the code starts, and
    opens nothing there nor imports any module afterwards (docs/participant-checks.md, "What the
    kit reads of what your code leaves behind")."""
    from codajudge.programs import ingest

    docs = " ".join((REPO / "docs" / "participant-checks.md").read_text(encoding="utf-8").split())
    assert "the ingestion program's folder (`/app/program`) and the input data" in docs
    assert "writes there after that change nothing" in docs
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    code = "from codajudge.baselines import MostFrequent as Model\n"
    code = code if case == "succeeds" else FAILING_MODELS[case][0]
    submission = write_submission(tmp_path / "sub", code)
    if not _WATCHED["hooked"]:
        sys.addaudithook(_watch)
        _WATCHED["hooked"] = True
    started = ingest.run_child

    def watched(*args, **kw):
        _WATCHED["seen"] = []
        return started(*args, **kw)

    monkeypatch.setattr(ingest, "run_child", watched)
    try:
        result = main([str(phase["input"]), str(tmp_path / "out"), str(submission)])
        seen = _WATCHED["seen"]
    finally:
        _WATCHED["seen"] = None
    capfd.readouterr()
    assert result == (0 if case == "succeeds" else 2) and seen is not None
    package = str(Path(ingest.__file__).parents[1])
    inside = (str(phase["input"]), package)
    late = [what for event, what in seen if event == "import" or what.startswith(inside)]
    assert not late, late


# ------------------------------------------------ a model.py among a result submission's files


@pytest.mark.parametrize("zipped", [False, True])
def test_a_repository_zipped_with_its_predictions_at_the_top_is_results(tmp_path, zipped, capsys):
    """Trial 62 (regress-e), item 1: the track files at the root and ``src/model.py`` deeper is a
    repository with its predictions, scored as results with a note naming model.py, not run."""
    phase = make_phase(tmp_path / "phase", tracks=SMALL_TRACKS)
    assert main(["--baseline", "most_frequent", str(phase["input"]), str(tmp_path / "pred")]) == 0
    files = {p.name: p.read_text("utf-8") for p in sorted((tmp_path / "pred").glob("*.tsv"))}
    files.update({"README.md": "# us\n", "src/model.py": "Model = None\n"})
    submission = submission_of(tmp_path, files, zipped)
    capsys.readouterr()
    assert main([str(phase["input"]), str(tmp_path / "out"), str(submission)]) == 0
    status = status_of(tmp_path / "out")
    assert status["message"].startswith("result submission")
    note = (
        "'src/model.py' not run: the submission's track files are read as results, as 2 of them "
        "('nli.tsv', 'sts.tsv') sit in a shallower folder; model.py makes a code submission only "
        "where no track file sits in a shallower folder than it (the starting kit's is at the "
        "root): to run it, move it up to the root, or remove the track files"
    )
    assert any(n.startswith(note) for n in status["notes"]), status["notes"]
    assert note in capsys.readouterr().out
    # the scoring program, given the submission as results, says the same
    result = score_folder(read_spec(phase["ref"]), phase["ref"], tmp_path / "sub")
    assert sorted(result.tracks) == ["nli", "sts"]
    assert any(w.startswith(note) for w in result.warnings), result.warnings


@pytest.mark.parametrize("where", ["model.py", "code/model.py"])
def test_model_py_beside_or_above_the_track_files_is_still_run(tmp_path, where, capsys):
    """The starting kit's code submission, model.py with a predictions file beside it (or deeper
    track files), is run as code, its prediction files noted as ignored."""
    phase = make_phase(tmp_path / "phase", tracks=SMALL_TRACKS)
    folder = where.removesuffix("model.py")
    files = {where: "from codajudge.baselines import MostFrequent as Model\n"}
    files[f"{folder}preds/sts.tsv"] = "x\t1.0\n"
    submission = submission_of(tmp_path, files, zipped=True)
    assert main([str(phase["input"]), str(tmp_path / "out"), str(submission)]) == 0
    assert status_of(tmp_path / "out")["message"].startswith("code submission")
    assert "so it was run as a code submission" in capsys.readouterr().out


def test_the_note_on_a_model_py_not_run_counts_one_track_file_in_the_singular():
    """'as 1 of them ('en_en.tsv') sit' read wrong (regression trial o_onetop)."""
    from codajudge.formats.archive import model_not_run

    note = model_not_run([PurePosixPath("src/model.py")], [PurePosixPath("en_en.tsv")])
    assert "as 1 of them ('en_en.tsv') sits in a shallower folder;" in note


def test_a_code_submission_with_two_files_of_one_track_notes_them_ignored(tmp_path, capsys):
    """Docs trial: model.py beside the track files and an old copy of one in old/ ran as code with
    no note on the prediction files (the note's own search refused the track given twice, and
    the note was dropped); both copies are now named as ignored."""
    phase = make_phase(tmp_path / "phase", tracks=SMALL_TRACKS)
    files = {"model.py": "from codajudge.baselines import MostFrequent as Model\n"}
    files.update({"sts.tsv": "x\t1.0\n", "old/sts.tsv": "x\t2.0\n"})
    submission = submission_of(tmp_path, files, zipped=True)
    assert main([str(phase["input"]), str(tmp_path / "out"), str(submission)]) == 0
    out = capsys.readouterr().out
    assert "so it was run as a code submission and its prediction files " in out
    assert "'old/sts.tsv'" in out and "'sts.tsv'" in out
