"""Generated pages that fit the edition: only its kinds and scales, similarity ranges from the
track, titles rather than keys on the Baselines page, Markdown table characters escaped; and
metrics chosen per track, so that a newly registered metric changes no existing edition."""

import dataclasses
import re
import zipfile
from pathlib import Path

import pytest

from codajudge import kinds
from codajudge.bundle import pages
from codajudge.bundle.edition import load_edition
from codajudge.bundle.pages import LocalScore
from codajudge.metrics import REGISTRY as METRICS, get as get_metric
from codajudge.metrics.lewidi import multilabel_error_rate
from codajudge.bundle.prose import Templates, kind_text
from codajudge.formats.archive import locate_track_files, safe_extract
from codajudge.formats.values import is_decimal
from codajudge.tracks import track_from_dict

REPO = Path(__file__).resolve().parents[1]
#: A starting kit without a local phase, its practice gold public.
NO_LOCAL = LocalScore(practice_public=True, local_items={})


def sts_only(range_=None):
    edition = load_edition(REPO / "editions" / "default")
    raw = {"id": "en_en", "title": "STS en|en", "kind": "similarity", "dataset": "sts_en"}
    if range_:
        raw["range"] = range_
    return dataclasses.replace(edition, tracks=[track_from_dict(raw)])


def test_the_data_page_of_an_sts_only_edition_describes_similarity_only():
    text = pages.data_page(sts_only([1, 5]))
    assert "**similarity**" in text and "score 1-5" in text
    for other in ("**classification**", "**soft label**", "**perspectivist**", "annotators"):
        assert other not in text


def test_the_kit_readme_describes_the_editions_kinds_only_as_the_data_page_does():
    """The kit README lists the same kinds' formats as the Data page, from the same templates."""
    listed = [dict(title=name, file=f"pages/{name}.md") for name in ("data", "evaluation", "terms")]
    for edition in (sts_only([1, 5]), load_edition(REPO / "editions" / "default")):
        readme = pages.render(edition, NO_LOCAL, {}, listed, "cosine_bow")
        formats = pages.kind_formats(Templates.of(edition.folder), edition)
        assert formats in readme and formats in pages.data_page(edition)
    assert (
        Templates().fill("data/labels", aliases="", layout="") in readme
    )  # the default edition's labelled tracks
    sts_readme = pages.render(sts_only([1, 5]), NO_LOCAL, {}, listed, "cosine_bow")
    for other in ("classification", "soft label", "perspectivist", "**Labels.**"):
        assert other not in sts_readme


def test_the_pages_say_a_label_left_out_of_a_soft_label_object_counts_as_0_with_a_note():
    """t61 OCNLI softmissingkey.zip: {"neutral": 0.5, "contradiction": 0.5} was scored with 0 for
    'entailment' and a note, while the Data page and the kit README said only "(or a JSON object
    label -> probability)": both say how a label left out is read, as the reader reads it."""
    edition = load_edition(REPO / "editions" / "default")
    listed = [dict(title=name, file=f"pages/{name}.md") for name in ("data", "evaluation", "terms")]
    readme = pages.render(edition, NO_LOCAL, {}, listed, "cosine_bow")
    said = "a label left out counts as probability 0, with a note naming it"
    assert said in pages.data_page(edition) and said in readme


def test_the_kit_readme_says_which_track_files_each_other_file_name_is_read_as():
    """The README describes the other accepted names itself (which track files each is read as),
    never sending the reader to an organiser's page that may not mention them."""
    names = ("overview", "data", "evaluation", "terms")
    listed = [dict(title=name, file=f"pages/{name}.md") for name in names]
    two = sts_only()
    en, ar = (
        dataclasses.replace(two.tracks[0], id=i, files=("STS.sys.*.txt",)) for i in ("en", "ar")
    )
    readme = pages.render(dataclasses.replace(two, tracks=[en, ar]), NO_LOCAL, {}, listed, "random")
    said = "This edition also accepts these file names: `STS.sys.*.txt` (read as `en.tsv` and `ar.tsv`)."
    assert said in " ".join(readme.split()) and "overview.md" not in readme


def test_the_kit_readmes_evaluation_section_follows_the_evaluation_phases_gold():
    """Hidden: the section says the kit checks formats only; public (the gold ships in the kit):
    it scores the phase, as ``run_local.py --phase evaluation`` does."""
    listed = [dict(title=name, file=f"pages/{name}.md") for name in ("data", "evaluation", "terms")]
    edition = sts_only()
    hidden = pages.render(edition, NO_LOCAL, {}, listed, "random")
    public = [dataclasses.replace(p, public_gold=p.id != "post-campaign") for p in edition.phases]
    shown = pages.render(
        dataclasses.replace(edition, phases=public), NO_LOCAL, {}, listed, "random"
    )
    assert "This kit does not score the evaluation phase: its gold is hidden." in hidden
    assert "This kit scores the evaluation phase: its gold is public" in shown
    assert "run_local.py . baseline:random --phase evaluation" in shown
    assert "does not score the evaluation" not in shown and "exits with code 2" not in shown


def test_the_kit_readme_lists_only_the_checks_of_the_editions_kinds():
    """sts2017's, lewidi2023's and chaosnli's READMEs listed the perspectivist check (one label per
    annotator); each kind's checks are its own (``kinds/KIND_checks``), a shared one said once."""
    listed = [dict(title=name, file=f"pages/{name}.md") for name in ("data", "evaluation", "terms")]
    checks = {
        "sts2017": ["numbers finite"],
        "lewidi2023": ["labels spelled", "numbers finite", "probability vectors"],
        "default": ["numbers finite", "labels spelled", "probability vectors", "one label per"],
    }
    for name, expected in checks.items():
        readme = pages.render(
            load_edition(REPO / "editions" / name), NO_LOCAL, {}, listed, "random"
        )
        said = readme.split("The checks: ")[1].split(". Archives")[0].split("; ")[2:]
        assert len(said) == len(expected), name
        assert all(check.startswith(start) for check, start in zip(said, expected)), name


def test_the_evaluation_page_says_the_tracks_scale_and_only_its_kinds_edge_cases():
    text = pages.evaluation_page(sts_only([1, 5]), NO_LOCAL)
    assert "from 1 (unrelated) to 5 (equivalent)" in text
    assert "correlation undefined" in text and "LeWiDi" not in text and "majority" not in text


def test_the_lewidi_rounding_is_stated_only_where_a_track_uses_a_metric_that_rounds():
    """chaosnli (JSD, KL, accuracy) and lewidi2023 (cross-entropy, micro-F1) have soft-label tracks
    but no LeWiDi 2025 metric: their Evaluation pages do not say that metrics round."""
    rounding = Templates().fill("evaluation/lewidi_rounding", metrics="$").split("$")[0]
    for name, rounds in (("chaosnli", False), ("lewidi2023", False), ("lewidi2025", True)):
        text = pages.evaluation_page(load_edition(REPO / "editions" / name), NO_LOCAL)
        assert (rounding in text) is rounds, name


def test_table_cells_escape_markdown_table_characters(tmp_path):
    assert "| STS en\\|en |" in pages.data_page(sts_only())
    (tmp_path / "templates" / "metrics").mkdir(parents=True)
    (tmp_path / "templates" / "metrics" / "pearson.md").write_text("r = cov | sd\nnext line\n")
    edition = dataclasses.replace(sts_only(), folder=tmp_path)
    row = next(
        line
        for line in pages.evaluation_page(edition, NO_LOCAL).splitlines()
        if "`pearson`" in line
    )
    assert row.count("|") - row.count("\\|") == 5 and "cov \\| sd next line" in row


def test_the_baselines_page_uses_track_and_metric_titles_and_says_what_was_not_run():
    edition = sts_only()
    scores = {
        "evaluation": {"random": {"primary": 0.1, "en_en_pearson": 0.1, "en_en_spearman": 0.2}}
    }
    text = pages.baselines_page(
        dataclasses.replace(edition, baselines=["random"]),
        scores,
        LocalScore(practice_public=False, local_items={"sts": 10}),
        {"most_frequent": "it learns"},
        {},
    )
    assert "| STS en\\|en Pearson r |" in text and "en_en_pearson" not in text
    assert "**most_frequent** is not run in this edition: it learns." in text
    assert "**cosine_bow**" not in text
    assert "`python3 run_local.py . baseline:random --phase local`" in text  # its only baseline
    assert "items per dataset: sts 10" in text and "stays hidden" in text


def test_the_baselines_page_says_most_frequent_writes_pool_rows_scored_by_position():
    """lewidi2025's Baselines page showed most_frequent's VariErrNLI MER 0.2972 on dev against the
    0.315 of rows of each item's own annotators, without saying its rows cover the whole pool and are
    scored by position (``most_frequent.writes_pool_rows``); an edition without such a track is
    silent."""
    lewidi = load_edition(REPO / "editions" / "lewidi2025")
    text = pages.baselines_page(lewidi, {}, NO_LOCAL, {}, {})
    assert (
        "- **most_frequent** writes each row of `csc_pe`, `mp_pe`, `par_pe`, `ven_pe` over the "
        "dataset's whole annotator pool, as the LeWiDi 2025 starter kit did, and these tracks "
        "score a row as the 2025 scorer did "
        "(annotator alignment `official_2025`"
    ) in text
    assert "differs from that of rows of each item's own annotators" in text
    no_mf = dataclasses.replace(lewidi, baselines=["random"])
    assert "annotator pool" not in pages.baselines_page(no_mf, {}, NO_LOCAL, {}, {})
    assert "annotator pool" not in pages.baselines_page(sts_only(), {}, NO_LOCAL, {}, {})


def test_an_edition_without_baselines_shows_the_command_of_the_baseline_its_samples_hold():
    """The commands the pages show run the baseline whose predictions the sample submissions hold
    (``baselines_run.sample_baseline``): random where the edition declares none, which needs no
    training split (they showed cosine_bow)."""
    edition = dataclasses.replace(sts_only(), baselines=[])
    text = pages.baselines_page(edition, {}, NO_LOCAL, {}, {})
    assert "baseline:random" in text and "cosine_bow" not in text


def test_the_baselines_page_says_when_the_kit_can_score_nothing():
    nothing = LocalScore(practice_public=False, local_items={})
    text = pages.baselines_page(sts_only(), {}, nothing, {}, {})
    assert "no phase can be scored here" in text and "ingestion_program/ingest.py" in text
    assert "run_local.py" not in text


def test_a_metric_registered_for_a_kind_changes_no_edition_that_does_not_name_it(monkeypatch):
    kendall = dataclasses.replace(get_metric("spearman"), name="kendall")
    monkeypatch.setitem(METRICS, "kendall", kendall)
    plain = track_from_dict({"id": "s", "kind": "similarity", "dataset": "d"})
    chosen = track_from_dict(
        {"id": "s", "kind": "similarity", "dataset": "d", "metrics": ["kendall"]}
    )
    assert plain.metrics == ("pearson", "spearman") and chosen.metrics == ("kendall",)


def test_the_data_page_states_the_label_policy_where_tracks_have_labels():
    POLICY_TEXT = Templates().fill("data/labels", aliases="", layout="")

    assert POLICY_TEXT not in pages.data_page(sts_only())
    assert POLICY_TEXT in pages.data_page(load_edition(REPO / "editions" / "ocnli"))
    chaosnli = pages.data_page(load_edition(REPO / "editions" / "chaosnli"))
    assert chaosnli.count("**Labels.**") == 1
    assert "| entailment (or e), neutral (or n), contradiction (or c) |" in chaosnli


def test_the_labels_paragraph_names_every_space_stripped_around_a_label():
    """o_nbsp: a label with U+3000 or U+00A0 around it is accepted (label_key strips every Unicode
    space), while the Data page said "spaces or tabs"; it says any Unicode space."""
    from codajudge.labels import label_key

    spaces = [chr(c) for c in range(0x110000) if chr(c).isspace()]
    assert all(label_key(f"{space}neutral{space}") == "neutral" for space in spaces)
    assert label_key("\u200bneutral") != "neutral"  # a zero-width space is not a space
    policy = Templates().fill("data/labels", aliases="", layout="")
    assert "spaces (any Unicode space, such as U+00A0 or U+3000) or tabs around it" in policy


def test_the_evaluation_page_names_the_phases_whose_detailed_results_show_intervals():
    """Derived from the edition and the kit: the public-gold phases and the kit's local phase get
    intervals and plots; where every phase hides its gold, the page says so."""
    edition = sts_only()
    hidden = dataclasses.replace(
        edition,
        phases=[dataclasses.replace(p, public_gold=False) for p in edition.phases],
    )
    local = LocalScore(practice_public=False, local_items={"sts": 10})
    text = pages.evaluation_page(hidden, local)
    assert "(practice)" not in text
    assert "Where the gold is public (the starting kit's local phase, `--phase local`)" in text
    assert "the practice, evaluation and post-campaign phases hide their gold" in text
    nothing = LocalScore(practice_public=False, local_items={})
    text = pages.evaluation_page(hidden, nothing)
    assert "every phase hides its gold (practice, evaluation and post-campaign)" in text
    text = pages.evaluation_page(edition, NO_LOCAL)
    assert "Where the gold is public (the practice phase)" in text
    assert "the evaluation and post-campaign phases hide their gold" in text


def test_the_evaluation_page_names_only_the_breakdowns_the_detailed_results_show():
    """Per annotator where a kind plots the error per annotator (perspectivist); per language and
    per genre where a track's items in a public-gold split have more than one value
    (``build.breakdowns``): lewidi2023's and sts2017's pages named breakdowns theirs lack."""
    from types import SimpleNamespace

    from codajudge.bundle.build import breakdowns

    edition = sts_only()  # practice (dev) public, evaluation and post-campaign (test) hidden
    items = [{"lang": "en", "genre": "news"}, {"lang": "en", "genre": "forum"}]
    hidden = [{"lang": "en"}, {"lang": "es"}]
    data = SimpleNamespace(
        splits={"dev": {"sts_en": items}, "test": {"sts_en": hidden}}, local=None
    )
    assert breakdowns(edition, data) == ("genre",)
    data.local = {"local": {"sts_en": hidden}}
    assert breakdowns(edition, data) == ("lang", "genre")
    by_genre = LocalScore(practice_public=True, local_items={}, breakdowns=("genre",))
    assert "a 95% bootstrap interval, plots and per-genre scores;" in pages.evaluation_page(
        edition, by_genre
    )
    lewidi2023 = load_edition(REPO / "editions" / "lewidi2023")
    assert "a 95% bootstrap interval and plots;" in pages.evaluation_page(lewidi2023, NO_LOCAL)
    every = dataclasses.replace(NO_LOCAL, breakdowns=("lang", "genre"))
    text = pages.evaluation_page(load_edition(REPO / "editions" / "default"), every)
    assert "plots and per-annotator, per-language and per-genre scores;" in text


def test_datasets_sharing_their_local_items_are_named_where_the_local_score_is_explained():
    """Datasets built from one training source (STS 2017's seven tracks all train on the STS
    Benchmark) have the same local items: the README and the Baselines page say that a system
    scores alike on their tracks there, and a kit whose local items differ says nothing of it."""
    from codajudge.bundle.build import same_items
    from codajudge.bundle.pages import what_is_scored

    item = {"id": "train-2", "texts": ["a", "b"], "score": 3.8}
    other = {"id": "train-2", "texts": ["a", "c"], "score": 3.8}
    items = {"sts_es": [item], "sts_ar": [item], "sts_en": [other], "sts_tr": [item]}
    assert same_items(items) == [("sts_ar", "sts_es", "sts_tr")]
    assert same_items({"sts_en": [other], "sts_ar": [item]}) == []

    sizes = {name: 1 for name in items}
    shared = LocalScore(False, sizes, shared=same_items(items))
    text = what_is_scored(Templates(), shared, "They score")
    assert "The datasets sts_ar, sts_es and sts_tr share one training source" in text
    assert "scores alike on their tracks of one kind" in text
    assert "share one training source" not in what_is_scored(
        Templates(), LocalScore(False, sizes), "They score"
    )
    page = pages.baselines_page(sts_only(), {}, shared, {}, {})
    assert "The datasets sts_ar, sts_es and sts_tr share one training source" in page


def test_the_data_and_evaluation_pages_state_a_declared_annotator_alignment():
    """lewidi2025's perspectivist tracks are scored as the 2025 scorer: both pages say how, with the
    VariErrNLI example (its two numbers are checked against the data in test_lewidi_files)."""
    from codajudge.kinds.perspectivist import OFFICIAL_2025

    lewidi = load_edition(REPO / "editions" / "lewidi2025")
    rule = kind_text(Templates(), kinds.REGISTRY["perspectivist"], f"alignment_{OFFICIAL_2025}")
    paragraph = f"\n\n{rule} Tracks: `csc_pe`, `mp_pe`, `par_pe`, `ven_pe`.\n"
    assert paragraph in pages.data_page(lewidi)
    assert paragraph in pages.evaluation_page(lewidi, NO_LOCAL)
    assert "0.345000" in paragraph and "0.340556" in paragraph


def test_the_pages_state_the_annotator_alignment_each_perspectivist_track_applies():
    """A row wider than its item's annotators: the kit README, Data and Evaluation pages give the
    paragraph of the rule each track applies (its ``annotator_alignment``, else ``by_name``) and no
    other rule's (LeWiDi 2025's tracks are scored by first entries, not by pool position)."""
    listed = [dict(title=name, file=f"pages/{name}.md") for name in ("data", "evaluation", "terms")]
    for name in ("default", "lewidi2025"):
        edition = load_edition(REPO / "editions" / name)
        prose = Templates.of(edition.folder)
        texts = [
            pages.render(edition, NO_LOCAL, {}, listed, "cosine_bow"),
            pages.data_page(edition),
            pages.evaluation_page(edition, NO_LOCAL),
        ]
        perspectivist = kinds.REGISTRY["perspectivist"]
        applied = {
            t.annotator_alignment or "by_name"
            for t in edition.tracks
            if t.annotator_alignment or kinds.of(t) is perspectivist
        }
        for rule in perspectivist.alignments:
            paragraph = kind_text(prose, perspectivist, f"alignment_{rule}")
            assert all((paragraph in text) == (rule in applied) for text in texts), (name, rule)
        assert not any("read by pool position" in text for text in texts)


def test_multilabel_layouts_are_described_only_where_a_multilabel_track_exists():
    """An edition of a categorical soft-label and an ordinal perspectivist track: its README and
    Data page describe no multi-label layout; the default edition (multilabel tracks) does."""
    listed = [dict(title=name, file=f"pages/{name}.md") for name in ("data", "evaluation", "terms")]
    default = load_edition(REPO / "editions" / "default")
    single = [t for t in default.tracks if t.id in ("irony_soft", "sarcasm_pe")]
    for edition, multilabel in (
        (dataclasses.replace(default, tracks=single), False),
        (default, True),
    ):
        readme = pages.render(edition, NO_LOCAL, {}, listed, "cosine_bow")
        for text in (readme, pages.data_page(edition)):
            for layout in ("Multi-label tracks", "label-major", "P(chosen)", "annotators list"):
                assert (layout in text) == multilabel, (multilabel, layout)


def test_the_extra_leading_bin_is_described_only_where_an_ordinal_soft_label_track_exists():
    """An ordinal soft label's extra leading "0" bin (the 2025 practice-phase CSC layout) is dropped
    or refused, which only docs/participant-checks.md said: the Data page and README say when, for
    an edition with an ordinal soft-label track only."""
    listed = [dict(title=name, file=f"pages/{name}.md") for name in ("data", "evaluation", "terms")]
    default = load_edition(REPO / "editions" / "default")
    sentence = (
        'Ordinal tracks also take one value more than the labels, an extra first bin "0" before the '
        "first label (the LeWiDi 2025 practice-phase layout): it is dropped, with a note, where its "
        "value is 0, or at most 0.02"
    )
    for ids, ordinal in ((("irony_soft", "sarcasm_pe"), False), (("sarcasm_soft",), True)):
        edition = dataclasses.replace(default, tracks=[t for t in default.tracks if t.id in ids])
        assert [t.scale for t in edition.tracks if t.kind == "soft_label"] == (
            ["ordinal"] if ordinal else ["categorical"]
        )
        readme = pages.render(edition, NO_LOCAL, {}, listed, "cosine_bow")
        for text in (readme, pages.data_page(edition)):
            assert (sentence in text) == ordinal
            assert ("its extra bin may be the last" in text) == ordinal


def test_the_chaosnli_pages_describe_chaosnlis_prediction_document():
    """The kit README and the Data page of an edition whose tracks take a JSON document (ChaosNLI's
    ``snli*.json``) describe its layout, which the scorer reads; an edition without such tracks
    says nothing of it."""
    listed = [dict(title=name, file=f"pages/{name}.md") for name in ("data", "evaluation", "terms")]
    chaosnli = load_edition(REPO / "editions" / "chaosnli")
    layout = '`{"model_name": {"uid": {"predicted_probabilities": [pE, pN, pC]'
    for text in (pages.render(chaosnli, NO_LOCAL, {}, listed, "random"), pages.data_page(chaosnli)):
        assert layout in text and "`snli*.json` or `mnli*.json`" in text
        assert "passed through a softmax" in text and "submit one model per file" in text
    default = load_edition(REPO / "editions" / "default")
    assert layout not in pages.data_page(default)
    # ocnli's *.json name is CLUE's file of labels (JSON lines), which its own note describes
    ocnli = load_edition(REPO / "editions" / "ocnli")
    for text in (pages.render(ocnli, NO_LOCAL, {}, listed, "random"), pages.data_page(ocnli)):
        assert layout not in text and "ChaosNLI's own prediction file" not in text


def test_the_lewidi2025_overview_says_varierrnlis_error_rate_is_label_by_label():
    """The Overview said VariErrNLI's error rate asks an annotator's whole set of labels to match;
    the metric scores each label's choice (the README's example: 1 of 6 choices wrong, 1/6,
    not the 0.5 of one annotator of two whose set differs)."""
    assert multilabel_error_rate(
        [[[1, 0], [0, 1], [0, 0]]], [[[1, 0], [0, 0], [0, 0]]]
    ) == pytest.approx(1 / 6)
    text = " ".join(
        (REPO / "editions" / "lewidi2025" / "pages" / "overview.md").read_text().split()
    )
    assert "labels set must match" not in text
    assert "VariErrNLI: label by label, the share of the item's annotators whose choice" in text


def test_the_kit_readmes_number_check_says_which_numbers_are_read_and_which_refused():
    """The check promised "plain decimal notation", yet 2.17e-01, +.2174 and 1e-05 are read (rightly):
    the README's number check names examples the reader reads before "never" and ones it refuses
    after it, for an edition of similarity tracks and one of soft-label tracks."""
    listed = [dict(title=name, file=f"pages/{name}.md") for name in ("data", "evaluation", "terms")]
    for name in ("sts2017", "lewidi2023"):
        readme = pages.render(
            load_edition(REPO / "editions" / name), NO_LOCAL, {}, listed, "random"
        )
        checks = " ".join(readme.split("The checks: ")[1].split(". Archives")[0].split())
        check = next(line for line in checks.split("; ") if line.startswith("numbers"))
        assert "plain decimal" not in check
        read, refused = (re.findall(r"`([^`]+)`", part) for part in check.split(" never "))
        assert {"2.17e-01", "1e-05", "+.2174"} <= set(read), read
        assert all(map(is_decimal, read)), read
        assert len(refused) >= 5 and not any(map(is_decimal, refused)), refused


def test_the_data_pages_table_gives_the_gold_scale_and_the_predictions_as_the_format_does(
    monkeypatch,
):
    """sts2017's table said "score 0-5" while the format below and the overview say predictions may
    be on any scale (Pearson is scale-free, out-of-range values are read): each ranged row names the
    gold's scale and the predictions', as the format sentence does, by the tracks' metrics."""
    sts = load_edition(REPO / "editions" / "sts2017")
    text = pages.data_page(sts)
    rows = [line for line in text.splitlines() if "| similarity |" in line]
    assert len(rows) == len(sts.tracks) == 7
    assert all("| gold score 0-5; predictions on any scale |" in row for row in rows)
    assert "a number (any scale" in text
    bound = dataclasses.replace(get_metric("pearson"), scale_free=False)
    monkeypatch.setattr(pages, "get_metric", lambda name: bound)
    text = pages.data_page(sts)
    assert "| gold score 0-5; predictions on that scale |" in text and "any scale" not in text


def test_the_pages_say_where_in_the_zip_the_track_files_may_be_as_the_reader_finds_them(tmp_path):
    """The Data page and the kit README said "at its root or inside one folder"; the reader finds a
    track's file at any depth, the tracks' files split between the root and folders."""
    sts = sts_only()
    tracks = [dataclasses.replace(sts.tracks[0], id=i) for i in ("en_en", "es_es", "ar_ar")]
    archive = tmp_path / "submission.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for name in ("en_en.tsv", "a/es_es.tsv", "a/b/ar_ar.tsv"):
            zf.writestr(name, "1\t3.2\n")
    safe_extract(archive, tmp_path / "out", "submission.zip", tracks)
    found, _ = locate_track_files(tmp_path / "out", tracks)
    assert sorted(map(str, found.values())) == ["a/b/ar_ar.tsv", "a/es_es.tsv", "en_en.tsv"]
    listed = [dict(title=name, file=f"pages/{name}.md") for name in ("data", "evaluation", "terms")]
    said = (
        "anywhere in the zip: at its root or in folders at any depth, the tracks' files in the same"
    )
    for text in (pages.data_page(sts), pages.render(sts, NO_LOCAL, {}, listed, "random")):
        assert said in " ".join(text.split()) and "one folder" not in text


def test_the_lewidi2025_overview_says_how_a_team_entering_one_task_is_ordered_and_ranked():
    """A Task B-only team is sorted on the one leaderboard by a primary score made of the baseline's
    Task A values, which the Overview called "a summary only": it now says so plainly, and that each
    task's ranking is the organisers' mean-rank table of that group of tracks."""
    edition = load_edition(REPO / "editions" / "lewidi2025")
    text = " ".join((edition.folder / "pages" / "overview.md").read_text().split())
    assert "a summary only" not in text
    rule = edition.primary_rule
    assert (rule.missing, rule.baseline) == ("baseline", "most_frequent")
    assert "**a team that enters Task B (perspectivist) only** is placed on the leaderboard" in text
    groups = edition.ranking["groups"]
    assert {group["order"] for group in groups.values()} == {"mean_rank"}
    assert "`codajudge rank`" in text and "by their mean rank over the four datasets" in text
    for title in groups:  # "Task A (soft labels)", "Task B (perspectivist)"
        assert f"table for {title}" in text or f"one for {title}" in text, title


def test_the_no_majority_edge_case_follows_where_the_hard_gold_comes_from():
    """Classification items without a majority are unscored only where the kit computes the
    majority (or the release leaves items without one): not when the release gives every label."""
    edge = Templates().fill("kinds/classification_edge_cases")
    edition = load_edition(REPO / "editions" / "lewidi2023")
    assert edge not in pages.evaluation_page(edition, NO_LOCAL)  # hard_gold: release
    recomputed = {k: {**v, "hard_gold": "majority"} for k, v in edition.datasets.items()}
    majority = dataclasses.replace(edition, datasets=recomputed)
    assert edge in pages.evaluation_page(majority, NO_LOCAL)
    assert edge not in pages.evaluation_page(load_edition(REPO / "editions" / "chaosnli"), NO_LOCAL)
    # OCNLI's release marks items without a majority ("-"): they are not scored
    assert edge in pages.evaluation_page(load_edition(REPO / "editions" / "ocnli"), NO_LOCAL)


def test_the_label_policy_speaks_of_aliases_only_where_a_track_declares_some():
    """The aliases sentence, with the edition's own aliases as its example, where a track declares
    aliases (ChaosNLI's e, n, c); none where no track does (OCNLI, whose Overview says so)."""
    said = "Where a track declares aliases (such as e, n and c for entailment, neutral and"
    chaosnli = load_edition(REPO / "editions" / "chaosnli")
    assert said in pages.data_page(chaosnli)
    for name in ("ocnli", "lewidi2023", "default"):
        assert "declares aliases" not in pages.data_page(load_edition(REPO / "editions" / name))
    aliased = dataclasses.replace(
        chaosnli.tracks[1], label_aliases=(("ent", "entailment"), ("con", "contradiction"))
    )
    text = pages.data_page(dataclasses.replace(chaosnli, tracks=[aliased]))
    assert "(such as ent and con for entailment and contradiction)" in text


def test_the_data_page_names_the_other_file_names_and_the_json_record_files_the_readers_accept():
    """OCNLI's nli track also reads CLUE's ocnli*_predict.json, and every track JSON lines or one
    JSON array of records: its Data page says so (names a paragraph describes are not repeated)."""
    ocnli = pages.data_page(load_edition(REPO / "editions" / "ocnli"))
    assert "also accepts these file names: `ocnli*_predict.json` (read as `nli.tsv`)" in ocnli
    assert Templates().fill("data/json_records") in ocnli
    lewidi2023 = pages.data_page(load_edition(REPO / "editions" / "lewidi2023"))
    assert "also accepts these file names" not in lewidi2023  # its results files' own paragraph
    listed = [dict(title=name, file=f"pages/{name}.md") for name in ("data", "evaluation", "terms")]
    readme = pages.render(load_edition(REPO / "editions" / "ocnli"), NO_LOCAL, {}, listed, "x")
    assert Templates().fill("data/json_records") in readme


def test_the_json_array_the_data_page_describes_is_read_only_on_one_line():
    """The page said "one JSON array of such objects (json.dump of a list of records)", and a
    json.dump(records, indent=1) is refused as pretty-printed (textfile.PRETTY_JSON): the page
    says "on one line", without indent."""
    said = Templates().fill("data/json_records")
    assert "one JSON array of such objects on one line" in said and "without `indent`" in said


def test_the_lewidi2023_overview_says_a_hard_tracks_only_team_is_last_by_the_primary_score():
    """A team entering the hard tracks only gets every soft track's worst value (missing: worst), so
    the Overview tells it to compare hard-track results in their own columns."""
    edition = load_edition(REPO / "editions" / "lewidi2023")
    text = " ".join((edition.folder / "pages" / "overview.md").read_text().split())
    assert edition.primary_rule.missing == "worst"
    assert not any(t.primary for t in edition.tracks if t.id.endswith("_hard"))
    assert (
        "**a team that enters the hard tracks only** is placed on the leaderboard by every" in text
    )
    assert "compare those in the four hard-track columns" in text


def test_a_metric_whose_range_depends_on_the_track_gives_each_tracks_range_in_the_table():
    """AWD runs to K - 1 and ANAD to (K - 1) / K: LeWiDi 2025's table gave one range for each
    (Paraphrase's 0 to 10, 0 to 0.909091) while CSC's are 0 to 5 and 0 to 0.833333, as the
    normalisation paragraph and run_local say; a metric of one range keeps one."""
    page = pages.evaluation_page(load_edition(REPO / "editions" / "lewidi2025"), NO_LOCAL)
    table = [line.split(" | ") for line in page.splitlines() if line.startswith("| ")]
    rows = {cells[0].split(" (`")[0]: cells[2] for cells in table}
    assert rows["| Avg Wasserstein dist"] == "CSC soft: 0 to 5; Paraphrase soft: 0 to 10"
    assert (
        rows["| Avg norm abs dist"] == "CSC persp.: 0 to 0.833333; Paraphrase persp.: 0 to 0.909091"
    )
    assert rows["| Multilabel error rate"] == "0 to 1"
    assert "CSC soft (Avg Wasserstein dist) 0 to 5; " in page


def test_the_cross_entropy_range_shows_its_lower_end_as_0_not_a_floating_artefact():
    """Cross-entropy's lower end is -ln(1 - 1e-12 + 1e-9), about -1e-9: pages and the terminal show
    it as 0 (the range checks still read the exact bound)."""
    from codajudge.report import score_meanings
    from codajudge.spec import spec_from_dict

    assert get_metric("cross_entropy").bounds(2)[0] < 0
    edition = load_edition(REPO / "editions" / "lewidi2023")
    assert "| lower is better | 0 to 20.7223 |" in pages.evaluation_page(edition, NO_LOCAL)
    raw = {"edition": "l", "phase": "evaluation", "tracks": [t.to_dict() for t in edition.tracks]}
    meanings = score_meanings(spec_from_dict(raw, "task.json"))
    assert meanings["primary"] == "lower is better, 0 to 20.72"
    assert meanings["armis_soft_cross_entropy"] == "lower is better, 0 to 20.72"


def test_the_per_annotator_example_line_has_as_many_labels_as_the_editions_items_annotators():
    """The Data page's perspectivist example had 2 labels where every item had 3 annotators: the
    build counts each dataset's annotators (their commonest number) and the example follows."""
    from codajudge.bundle.build import EditionData, annotator_counts

    edition = load_edition(REPO / "editions" / "default")
    items = [{"annotators": ["a1", "a2", "a3"]}] * 4 + [{"annotators": ["a1"]}, {"id": "none"}]
    data = EditionData(
        splits={"train": {"irony": items[:3]}, "dev": {"irony": items[3:]}}, golds={}
    )
    counts = annotator_counts(edition, data)
    assert counts == {"irony": 3}
    row = next(
        line
        for line in pages.data_page(edition, pages.DataFacts(annotators=counts)).splitlines()
        if "`irony_pe.tsv`" in line
    )
    assert '`ID<TAB>["0", "1", "0"]`' in row, row


def test_the_label_policy_says_tabs_separate_the_2023_layouts_fields():
    """A tab around a label is a field in LeWiDi 2023's layout (the trial's lead_tab.zip was
    refused, "found 4 fields"): the policy says only spaces are ignored there, and only where
    tracks read the layout."""
    from codajudge.formats.results_tsv import LAYOUT, is_results_row

    PAGES = [
        dict(title=name, file=f"pages/{name}.md")
        for name in ("overview", "data", "evaluation", "terms")
    ]

    lewidi = load_edition(REPO / "editions" / "lewidi2023")
    track = next(t for t in lewidi.tracks if t.results_layout == LAYOUT and t.labels)
    row = "\t".join([track.labels[0]] + ["0.5"] * len(track.labels))
    assert is_results_row(track, " " + row + " ") and not is_results_row(track, "\t" + row)
    said = "a tab separates the fields, so there only spaces around a label are ignored"
    data, readme = pages.data_page(lewidi), pages.render(lewidi, NO_LOCAL, {}, PAGES, "")
    assert said in data and said in readme and "`ArMIS_results.tsv`" in data
    for name in ("default", "ocnli", "chaosnli"):
        assert said not in pages.data_page(load_edition(REPO / "editions" / name))
