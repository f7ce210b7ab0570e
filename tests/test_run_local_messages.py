"""run_local.py's output on the repository's own bundle: files ignored are shown, a result
submission in which no file matches a track is refused, a refusal is said once, baseline:NAME
checks its name."""

import html
import io
import json
import re
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from codajudge.programs.run_local import main, said_notes
from codajudge.programs.status import NOTE_CHARS

REPO = Path(__file__).resolve().parents[1]


def en_en_lines() -> str:
    items = [
        json.loads(line)
        for line in (REPO / "reference_data" / "practice" / "sts_en.jsonl")
        .read_text(encoding="utf-8")
        .split("\n")
        if line
    ]
    return "".join(f"{it['id']}\t{it['score']}\n" for it in items)


@pytest.fixture(scope="module")
def en_en_run(tmp_path_factory):
    """run_local.py on the practice phase with en_en.tsv (the gold's values) and a misnamed en-en.tsv,
    its outputs kept: (what it printed, the output folder)."""
    work = tmp_path_factory.mktemp("en_en")
    submission = work / "sub"
    submission.mkdir()
    (submission / "en_en.tsv").write_text(en_en_lines(), encoding="utf-8")
    (submission / "en-en.tsv").write_text("x\t1\n", encoding="utf-8")
    printed = io.StringIO()
    with redirect_stdout(printed):
        code = main(
            [str(REPO), str(submission), "--phase", "practice", "--output", str(work / "out")]
        )
    assert code == 0
    return printed.getvalue(), work / "out"


def test_ignored_files_are_shown_with_the_track_they_were_meant_for(en_en_run):
    printed, output = en_en_run
    note = (  # a file tied to a track given none refuses the submission: this one's track has one
        "file 'en-en.tsv' matches no track and was ignored; its name is like that of track "
        "'en_en', which is read from en_en.tsv; "
    )
    assert f"note: {note}" in printed
    assert note.replace("'", "&#x27;") in (output / "detailed_results.html").read_text(
        encoding="utf-8"
    )


def test_notes_and_the_results_page_name_the_participants_own_file(tmp_path, capsys):
    """The ingestion program copies a result submission's file to ``<track_id>.tsv`` for the scorer, whose
    notes and "File" column then named that copy (``en_en.tsv``), a file the participant never wrote."""
    submission = tmp_path / "sub" / "Run1"
    submission.mkdir(parents=True)
    (submission / "EN_EN.tsv").write_text("id\tscore\n" + en_en_lines(), encoding="utf-8")
    assert (
        main(
            [
                str(REPO),
                str(tmp_path / "sub"),
                "--phase",
                "practice",
                "--output",
                str(tmp_path / "out"),
            ]
        )
        == 0
    )
    assert (
        "note: Run1/EN_EN.tsv: the first line was read as a header and skipped\n"
        in capsys.readouterr().out
    )
    page = (tmp_path / "out" / "detailed_results.html").read_text(encoding="utf-8")
    assert "Run1/EN_EN.tsv" in page and "en_en.tsv" not in page


def test_a_result_submission_without_any_track_file_is_refused(tmp_path, capsys):
    submission = tmp_path / "sub"
    submission.mkdir()
    (submission / "en-en.tsv").write_text(en_en_lines(), encoding="utf-8")
    assert main([str(REPO), str(submission), "--phase", "practice"]) == 2
    err = capsys.readouterr().err
    assert (
        err.count("not accepted") == 1
        and "prediction step" not in err
        and "exited with code" not in err
    )
    assert err.startswith(
        "run_local.py: the submission was not accepted:\nsubmission: no prediction file for any "
        "track was found; expected model.py (a code submission) or files named en_en: en_en.tsv"
    )
    assert err.rstrip().endswith(
        "found en-en.tsv. File 'en-en.tsv' was probably meant for track 'en_en': name it en_en.tsv"
    )


def test_a_bad_value_is_reported_once_in_plain_words(tmp_path, capsys):
    submission = tmp_path / "sub"
    submission.mkdir()
    (submission / "en_en.tsv").write_text(
        en_en_lines().replace("\t4.8\n", "\tfour\n", 1), encoding="utf-8"
    )
    assert main([str(REPO), str(submission), "--phase", "practice"]) == 2
    assert capsys.readouterr().err == (
        "run_local.py: the submission was not accepted:\n"
        "en_en.tsv, line 1, item 'en-dev-001': not a number; expected a decimal number such as 3.2, found 'four'\n"
    )


def test_an_unknown_baseline_lists_the_known_ones(tmp_path, capsys):
    assert main([str(REPO), "baseline:most_frequnet", "--phase", "practice"]) == 2
    assert capsys.readouterr().err == (
        "run_local.py: the submission was not accepted:\nbaseline:most_frequnet: no built-in baseline has this "
        "name; expected one of baseline:random, baseline:most_frequent, baseline:cosine_bow, found "
        "'most_frequnet'\n"
    )


def practice_items(dataset: str):
    text = (REPO / "input_data" / "practice" / f"{dataset}.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.split("\n") if line]


def test_three_broken_files_are_named_in_one_refusal(tmp_path, capsys):
    submission = tmp_path / "sub"
    submission.mkdir()
    irony = practice_items("irony")
    pe = [f"{it['id']}\t{json.dumps(['0'] * len(it['annotators']))}" for it in irony]
    pe[0] = f"{irony[0]['id']}\t{json.dumps(['0'] * (len(irony[0]['annotators']) + 1))}"
    soft = [f"{it['id']}\t[0.5, 0.5]" for it in irony]
    soft[1] = f"{irony[1]['id']}\t[0.5, 0.7]"
    lines = en_en_lines().splitlines()
    (submission / "irony_pe.tsv").write_text("\n".join(pe) + "\n", encoding="utf-8")
    (submission / "irony_soft.tsv").write_text("\n".join(soft) + "\n", encoding="utf-8")
    (submission / "en_en.tsv").write_text("\n".join(lines + lines[:1]) + "\n", encoding="utf-8")
    assert main([str(REPO), str(submission), "--phase", "practice"]) == 2
    err = capsys.readouterr().err
    assert "3 files have problems; each file's first ones are shown:\n" in err
    assert f"en_en.tsv, line {len(lines) + 1}, item 'en-dev-001': duplicate id" in err
    assert "irony_soft.tsv, line 2, item 'irony-dev-002':" in err
    assert "irony_pe.tsv, line 1, item 'irony-dev-001':" in err
    assert err.count("run_local.py: the submission was not accepted") == 1


def test_practice_ids_on_the_evaluation_phase_are_named_as_the_practice_phases(tmp_path, capsys):
    submission = tmp_path / "sub"
    submission.mkdir()
    (submission / "en_en.tsv").write_text(en_en_lines(), encoding="utf-8")
    assert main([str(REPO), str(submission), "--phase", "evaluation"]) == 2
    err = capsys.readouterr().err
    assert "en_en.tsv: none of the ids in this file belong to the track" in err
    assert (
        "These are the ids of the practice phase; submit predictions for this phase's items "
        "(input_data sts_en.jsonl of this phase)"
    ) in err


def test_the_kits_local_ids_on_the_evaluation_phase_are_named_as_the_local_phases(tmp_path, capsys):
    """The starting kit's local phase holds items out of the training data: predictions of them
    sent to a platform phase are named as the local phase's."""
    from codajudge.bundle.build import import_data
    from codajudge.bundle.edition import load_edition

    folder = REPO / "editions" / "default"
    edition = load_edition(folder)
    local = import_data(edition, folder).local["local"]["sts_en"]
    submission = tmp_path / "sub"
    submission.mkdir()
    lines = "".join(f"{item['id']}\t{item['score']}\n" for item in local)
    (submission / "en_en.tsv").write_text(lines, encoding="utf-8")
    assert main([str(REPO), str(submission), "--phase", "evaluation"]) == 2
    assert (
        "These are the ids of the local phase; submit predictions for this phase's items "
        "(input_data sts_en.jsonl of this phase)"
    ) in capsys.readouterr().err


def test_ids_of_no_phase_get_no_phase_hint(tmp_path, capsys):
    submission = tmp_path / "sub"
    submission.mkdir()
    (submission / "en_en.tsv").write_text(en_en_lines().replace("en-dev", "xx"), encoding="utf-8")
    assert main([str(REPO), str(submission), "--phase", "evaluation"]) == 2
    err = capsys.readouterr().err
    assert "none of the ids in this file belong to the track" in err
    assert "phase" not in err.split("not accepted:")[1]


def test_the_scorer_names_the_practice_phase_too(tmp_path):
    from codajudge.errors import SubmissionError
    from codajudge.scoring import score_folder
    from codajudge.spec import read_spec

    (tmp_path / "en_en.tsv").write_text(en_en_lines(), encoding="utf-8")
    ref = REPO / "reference_data" / "evaluation"
    with pytest.raises(SubmissionError) as refusal:
        score_folder(read_spec(ref), ref, tmp_path)
    assert "These are the ids of the practice phase" in str(refusal.value)


def test_the_last_line_lists_what_the_output_folder_holds(tmp_path, capsys):
    """On the practice phase (public gold) the scorer also writes detailed_results.csv, and a code
    submission that printed leaves predictions/participant_output.txt; a file of a previous run
    that this run did not write is not left to look like this run's."""
    submission = tmp_path / "sub"
    submission.mkdir()
    (submission / "model.py").write_text(
        "from codajudge.baselines import baseline_class\n"
        "class Model(baseline_class('most_frequent')):\n"
        "    def fit(self, items):\n        print('fitting')\n        super().fit(items)\n",
        encoding="utf-8",
    )
    output = tmp_path / "out"
    assert main([str(REPO), str(submission), "--phase", "practice", "--output", str(output)]) == 0
    kept = (
        "scores.json, scores.txt, detailed_results.html, detailed_results.csv, predictions/ and "
        "predictions/participant_output.txt"
    )
    assert capsys.readouterr().out.endswith(f"kept {kept} in {output}\n")
    for name in kept.replace(" and ", ", ").split(", "):
        assert (output / name).exists()
    assert main([str(REPO), "baseline:random", "--phase", "practice", "--output", str(output)]) == 0
    kept = "scores.json, scores.txt, detailed_results.html, detailed_results.csv and predictions/"
    assert capsys.readouterr().out.endswith(f"kept {kept} in {output}\n")
    assert not (output / "predictions" / "participant_output.txt").exists()


def test_an_output_folder_that_cannot_be_made_is_refused_before_anything_runs(tmp_path, capsys):
    """--output under a file is the user's mistake, named before the steps run (it was found after
    both, as an internal error of the kit)."""
    (tmp_path / "afile").write_text("", encoding="utf-8")
    output = tmp_path / "afile" / "out"
    argv = [str(REPO), "baseline:random", "--phase", "practice", "--output", str(output)]
    assert main(argv) == 2
    printed = capsys.readouterr()
    assert f"--output {output}: cannot make or write into this folder" in printed.err
    assert "internal error" not in printed.err + printed.out
    assert "on the practice phase" not in printed.out  # refused before the run


def test_loud_code_gets_only_the_note_on_where_its_output_is_kept(tmp_path, capsys):
    """Code that prints more than the ingestion log shows: the log's note on that (its last lines
    follow, kept in the prediction output) is not passed on, as no log is shown and nothing is
    kept without --output; the runner says where the output is, or that --output keeps it."""
    submission = tmp_path / "sub"
    submission.mkdir()
    (submission / "model.py").write_text(
        "import sys\nfrom codajudge.baselines import baseline_class\n"
        "class Model(baseline_class('most_frequent')):\n"
        "    def fit(self, items):\n        sys.stderr.write(('x' * 99 + '\\n') * 7000)\n"
        "        super().fit(items)\n",
        encoding="utf-8",
    )
    output = tmp_path / "out"
    said = {}
    for options in ([], ["--output", str(output)]):
        assert main([str(REPO), str(submission), "--phase", "practice", *options]) == 0
        said[bool(options)] = capsys.readouterr().out
        assert "more than the log shows" not in said[bool(options)]
    assert "run with --output DIR to keep it in DIR/predictions/participant_output.txt" in said[0]
    assert f"what your code printed is in {output / 'predictions'}" in said[1]


QUIET_WRONG_LABEL = (
    "class Model:\n    def __init__(self, track):\n        pass\n"
    "    def fit(self, items):\n        pass\n"
    "    def predict(self, items):\n        return [{'x': 1} for _ in items]\n"
)


def test_quiet_code_that_fails_gets_no_note_that_it_printed(tmp_path, capsys):
    """A participant_output.txt that holds only the ingestion program's message is not what the code
    printed: neither note names it (with or without --output)."""
    for name, code in (("wrong", QUIET_WRONG_LABEL), ("syntax", "class Model(:\n")):
        submission = tmp_path / name
        submission.mkdir()
        (submission / "model.py").write_text(code, encoding="utf-8")
        output = tmp_path / f"out-{name}"
        assert main([str(REPO), str(submission), "--phase", "practice"]) == 2
        assert (
            main([str(REPO), str(submission), "--phase", "practice", "--output", str(output)]) == 2
        )
        captured = capsys.readouterr()
        assert "your code printed" not in captured.out + captured.err
        saved = (output / "predictions" / "participant_output.txt").read_text(encoding="utf-8")
        assert saved.startswith("\n--- the ingestion program's message ---\n")


def fake_kit(root: Path, phases: dict, others: tuple = ()) -> Path:
    """A starting kit's competition.yaml and folders: ``phases`` maps each phase's name to whether
    its gold is in the kit (reference_data/<phase>); each phase's input data names the edition's
    ``others`` phases (other_phase_ids.json)."""
    import yaml

    (root / "sample_submissions").mkdir(parents=True)
    tasks, entries = [], []
    for index, (name, public) in enumerate(phases.items()):
        slug = name.lower()
        data = root / "input_data" / slug
        data.mkdir(parents=True)
        (data / "other_phase_ids.json").write_text(json.dumps({o: {} for o in others}), "utf-8")
        task = {
            "index": index,
            "scoring_program": "scoring_program",
            "reference_data": f"ref/{slug}",
        }
        tasks.append(dict(task, input_data=f"input_data/{slug}"))
        entries.append({"index": index, "name": name, "tasks": [index]})
        if public:
            (root / "ref" / slug).mkdir(parents=True)
    doc = {"tasks": tasks, "phases": entries}
    (root / "competition.yaml").write_text(yaml.safe_dump(doc), encoding="utf-8")
    return root


def test_a_kit_that_scores_no_phase_says_so_and_what_to_run(tmp_path, capsys):
    """The chaosnli kit: only a practice phase, its gold hidden; no message ends on an empty
    '--phase ' or offers practice."""
    kit = fake_kit(tmp_path / "kit", {"Practice": False})
    assert main([str(kit), "baseline:random", "--phase", "local"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(
        "run_local.py: --phase: no such phase: local; this "
        "starting kit can score no phase (the gold of practice is hidden). To check the format and "
        "coverage of your files without scores, download the phase's public data"
    )
    assert "python3 ingestion_program/ingest.py PHASE_DATA checked YOUR_SUBMISSION" in err
    assert main([str(kit), "baseline:random", "--phase", "practice"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(
        "run_local.py: --phase practice: this phase's gold is "
        "hidden, so this starting kit cannot score it, nor any other phase. To check the format "
        "and coverage of your files for that phase without scores,"
    )
    assert "expected --phase" not in err


def test_the_phases_offered_are_those_the_kit_scores(tmp_path, capsys):
    """The sts2017 kit: local scored, practice's gold hidden; an unknown phase is answered with
    local, and practice is named apart."""
    kit = fake_kit(tmp_path / "kit", {"Local": True, "Practice": False})
    assert main([str(kit), "baseline:random", "--phase", "dev"]) == 2
    assert capsys.readouterr().err == (
        "run_local.py: --phase: no such phase: dev; this "
        "starting kit can score: local (the gold of practice is hidden); expected --phase local\n"
    )


def test_a_platform_phase_the_edition_has_not_is_no_such_phase(tmp_path, capsys):
    """A kit of an edition with no practice phase (its one phase, evaluation, hides its gold):
    practice is answered as any unknown name, and the check hint names the data the kit holds; a
    phase its input data names (post-campaign) is the edition's, its gold hidden."""
    kit = fake_kit(tmp_path / "kit", {"Evaluation": False}, others=("post-campaign",))
    assert main([str(kit), "baseline:random", "--phase", "practice"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(
        "run_local.py: --phase: no such phase: practice; this starting kit can score no phase (the "
        "gold of evaluation is hidden). To check the format"
    )
    assert (
        "(Files tab on the platform; the evaluation data is input_data/evaluation in this kit)"
        in err
    )
    assert "input_data/practice" not in err
    assert main([str(kit), "baseline:random", "--phase", "post-campaign"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("run_local.py: --phase post-campaign: this phase's gold is hidden")


def reference_lines(dataset: str) -> str:
    text = (REPO / "reference_data" / "practice" / f"{dataset}.jsonl").read_text(encoding="utf-8")
    items = [json.loads(line) for line in text.split("\n") if line]
    return "".join(f"{it['id']}\t{it['score']}\n" for it in items)


def test_a_file_named_like_a_track_already_given_is_not_told_to_take_its_name(tmp_path, capsys):
    """sts2017: es_es.tsv renamed sp-en.tsv beside es_en.tsv; renaming it es_en.tsv would replace
    the track's file, so the note names the tracks without a file instead."""
    submission = tmp_path / "sub"
    submission.mkdir()
    (submission / "en_en.tsv").write_text(en_en_lines(), encoding="utf-8")
    (submission / "es_en.tsv").write_text(reference_lines("sts_es_en"), encoding="utf-8")
    (submission / "sp-en.tsv").write_text(reference_lines("sts_es"), encoding="utf-8")
    output = tmp_path / "out"
    assert main([str(REPO), str(submission), "--phase", "practice", "--output", str(output)]) == 0
    out = capsys.readouterr().out
    note = (
        "note: file 'sp-en.tsv' matches no track and was ignored; its name is like that of track "
        "'es_en', which is read from es_en.tsv; the tracks without a file read es_es.tsv, "
        "ar_ar.tsv, nli_zh.tsv"
    )
    assert note in out and "name it es_en.tsv" not in out
    assert out.count("'sp-en.tsv'") == 1


def _score_with_notes(tmp_path):
    """INPUT for the scoring program on the practice phase: en_en.tsv, a copy of it misnamed
    en-en.tsv and a file of no track."""
    res = tmp_path / "input" / "res"
    res.mkdir(parents=True)
    (tmp_path / "input" / "ref").symlink_to(REPO / "reference_data" / "practice")
    (res / "en_en.tsv").write_text(en_en_lines(), encoding="utf-8")
    (res / "en-en.tsv").write_text(en_en_lines(), encoding="utf-8")
    (res / "notes.txt").write_text("my run\n", encoding="utf-8")
    return tmp_path / "input"


IGNORED_NOTE = (  # its start
    "file 'en-en.tsv' matches no track and was ignored; its name is like that of track 'en_en', "
    "which is read from en_en.tsv; "
)


def test_the_results_page_shows_the_notes_first_and_what_a_missing_track_would_read(tmp_path):
    from codajudge.programs.score import main as score

    assert score([str(_score_with_notes(tmp_path)), str(tmp_path / "out")]) == 0
    page = (tmp_path / "out" / "detailed_results.html").read_text(encoding="utf-8")
    notes, table = page.index("<h2>Submission notes</h2>"), page.index("<table>")
    assert notes < page.index(html.escape(IGNORED_NOTE)) < table
    assert "not submitted (no file named es_es.tsv)" in page


def test_the_scoring_program_prints_the_notes_before_anything_else(tmp_path, capsys, monkeypatch):
    """The notes are printed before the page is drawn: a kit failure there (exit 3) leaves them in
    the log, whose first lines the platform shows."""
    from codajudge.programs import score

    def broken(*args):
        raise RuntimeError("the page could not be drawn")

    monkeypatch.setattr(score.report, "detailed_html", broken)
    assert score.main([str(_score_with_notes(tmp_path)), str(tmp_path / "out")]) == 3
    out = capsys.readouterr().out
    assert (
        out.startswith(f"note: {IGNORED_NOTE}")
        and "\nnote: file 'notes.txt' matches no track" in out
    )


def test_every_score_the_terminal_prints_says_its_direction_and_range(en_en_run):
    """A LeWiDi kit's "Primary score 1.1228" did not say lower is better."""
    out, _ = en_en_run
    primary = r"4 primary tracks missing, each counts as its metric's worst possible value; "
    assert re.search(
        rf"\n  Primary score +-0\.\d{{4}}  \({primary}higher is better, -0\.8 to 1\)\n", out
    )
    assert re.search(r"\n  STS en-en Pearson r +1\.0000  \(higher is better, -1 to 1\)\n", out)
    assert re.search(
        r"\n  Sarcasm persp\. Avg norm abs dist +n/a  \(lower is better, 0 to 0\.8333\)", out
    )


def test_a_codalab_v15_bundle_is_refused_in_one_line_naming_the_given_zip(tmp_path, capsys):
    """A v1.5 competition.yaml (numbered phases, as --legacy builds) is not run: one line naming
    the zip as given (not its extracted copy), what to run instead, exit 2."""
    import yaml
    import zipfile

    doc = {"title": "T", "phases": {1: {"phasenumber": 1, "label": "Evaluation"}}}
    bundle = tmp_path / "ed-legacy.zip"
    with zipfile.ZipFile(bundle, "w") as archive:
        archive.writestr("competition.yaml", yaml.safe_dump(doc))
    assert main([str(bundle), "baseline:random", "--phase", "evaluation"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"run_local.py: {bundle}: only Codabench bundles are run locally;")
    assert "found a CodaLab v1.5 bundle" in err and "without --legacy" in err
    assert "starting_kit.zip" in err and err.count("\n") == 1


def zipped_bundle(path: Path, phases: list) -> Path:
    """A zipped bundle whose competition.yaml (Codabench's form) has ``phases``, by name."""
    import yaml
    import zipfile

    tasks = [{"index": 0, "scoring_program": "scoring_program"}]
    entries = [{"index": i, "name": name, "tasks": [0]} for i, name in enumerate(phases)]
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("competition.yaml", yaml.safe_dump({"tasks": tasks, "phases": entries}))
    return path


def test_a_phase_the_bundle_has_not_is_a_usage_error_naming_the_given_zip(tmp_path, capsys):
    """Not the organisers' problem in a file of a temporary folder: the phases one may type."""
    bundle = zipped_bundle(tmp_path / "ed.zip", ["Practice", "Evaluation", "Post-campaign"])
    assert main([str(bundle), "baseline:random", "--phase", "final"]) == 2
    assert capsys.readouterr().err == (
        f"run_local.py: --phase: no such phase in {bundle}: final; "
        "expected --phase practice or evaluation or post-campaign\n"
    )


def test_a_note_longer_than_a_status_note_is_printed_once_and_whole():
    """vs/C2_swap_other (sts2017): the 2017 likely-swap note, over NOTE_CHARS characters, was
    printed twice: whole by the prediction step, then cut ("predict...") by the scoring step, which
    repeats the notes of the prediction step's status, cut to NOTE_CHARS. It is one note."""
    long = "file 'x.txt' was read for track 'en_en'" + ", and more" * (NOTE_CHARS // 10)
    short = "file 'y.txt' matches no track and was ignored"
    cut = long[:NOTE_CHARS] + "..."
    prediction = f"note: {long}\nnote: {short}\n"
    scoring = f"note: {cut}\nnote: {short}\nnote: another\n"
    assert said_notes(prediction, scoring) == [long, short, "another"]


MEANT_REFUSAL = (
    "es_es.txt: the file matches no track only by its suffix: track 'es_es' has no file, and "
    "this one would be ignored: the submission would be scored without track 'es_es'; expected "
    "a name that track "
    "'es_es' reads: es_es.tsv (any case)"
)


def test_a_file_named_as_a_tracks_but_for_its_suffix_is_refused_not_ignored(tmp_path, capsys):
    """LeWiDi 2025's CSC_test_soft.jsonl beside MP_test_soft.tsv was ignored with a note ("rename
    it CSC_test_soft.tsv") that Codabench keeps in a log, and the submission scored without it: a
    file named as the file of a track given none but for its suffix is refused, by the local
    runner's prediction step (the ingestion program) and by the scoring program alike."""
    from codajudge.programs.score import main as score

    submission = tmp_path / "sub"
    submission.mkdir()
    (submission / "en_en.tsv").write_text(en_en_lines(), encoding="utf-8")
    (submission / "es_es.txt").write_text(reference_lines("sts_es"), encoding="utf-8")
    assert main([str(REPO), str(submission), "--phase", "practice"]) == 2
    err = capsys.readouterr().err
    assert err.count("not accepted") == 1 and MEANT_REFUSAL in err
    assert err.rstrip().endswith("found suffix '.txt'. Rename it es_es.tsv")
    scoring = tmp_path / "input"
    scoring.mkdir()
    (scoring / "ref").symlink_to(REPO / "reference_data" / "practice")
    (scoring / "res").symlink_to(submission)
    assert score([str(scoring), str(tmp_path / "out")]) == 2
    assert MEANT_REFUSAL in capsys.readouterr().err
