"""The generated pages' words are Markdown templates (codajudge/templates/, bundle.prose): one
sentence is changed by editing one template file, in the kit or in an edition's own templates/
folder; docs/templates.md lists every template with the fields it receives."""

import dataclasses
import re
import shutil
import string
from pathlib import Path

import pytest

from codajudge import texts
from codajudge.bundle import pages
from codajudge.bundle.edition import load_edition
from codajudge.bundle.pages import LocalScore
from codajudge.errors import ConfigError

REPO = Path(__file__).resolve().parents[1]
#: A starting kit without a local phase.
NO_LOCAL = LocalScore(practice_public=True, local_items={})
#: The Evaluation page's sentence on the primary score, as the kit's template says it.
PRIMARY_SENTENCE = "is the unweighted mean of the main metric of these tracks:"


def default_edition():
    return load_edition(REPO / "editions" / "default")


def template_names():
    root = texts.KIT_TEMPLATES
    return sorted(str(p.relative_to(root).with_suffix("")) for p in root.rglob("*.md"))


def fields_of(text: str):
    """The ``$field`` names of a template's text, in order of first use."""
    found = [m.group("named") or m.group("braced") for m in string.Template.pattern.finditer(text)]
    return list(dict.fromkeys(name for name in found if name))


def test_editing_the_kits_evaluation_template_changes_the_evaluation_page(tmp_path, monkeypatch):
    edition = default_edition()
    before = pages.evaluation_page(edition, NO_LOCAL)
    assert PRIMARY_SENTENCE in before
    copy = tmp_path / "templates"
    shutil.copytree(texts.KIT_TEMPLATES, copy)
    evaluation = copy / "evaluation.md"
    text = evaluation.read_text(encoding="utf-8")
    evaluation.write_text(
        text.replace(PRIMARY_SENTENCE, "averages the main metric of these tracks:"),
        encoding="utf-8",
    )
    monkeypatch.setattr(texts, "KIT_TEMPLATES", copy)
    after = pages.evaluation_page(edition, NO_LOCAL)
    assert PRIMARY_SENTENCE not in after and "averages the main metric of these tracks:" in after
    assert after == before.replace(PRIMARY_SENTENCE, "averages the main metric of these tracks:")
    assert pages.data_page(edition) == pages.data_page(default_edition())


def test_an_editions_template_replaces_the_kits_of_that_name(tmp_path):
    edition = default_edition()
    before = {name: text for _, name, text in pages.generated_pages(edition, {}, NO_LOCAL, {}, {})}
    own = tmp_path / "templates" / "evaluation"
    own.mkdir(parents=True)
    (own / "edge_cases.md").write_text("At the edges: $edge_cases\n", encoding="utf-8")
    moved = dataclasses.replace(edition, folder=tmp_path)
    after = {name: text for _, name, text in pages.generated_pages(moved, {}, NO_LOCAL, {}, {})}
    assert "\nAt the edges: " in after["evaluation.md"]
    assert after["evaluation.md"] == before["evaluation.md"].replace(
        "\nEdge cases: ", "\nAt the edges: "
    )
    assert {k: v for k, v in after.items() if k != "evaluation.md"} == {
        k: v for k, v in before.items() if k != "evaluation.md"
    }


def test_an_editions_template_naming_an_unknown_field_is_a_located_config_error(tmp_path):
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "timeline.md").write_text("# When\n\n$phase_list\n", encoding="utf-8")
    edition = dataclasses.replace(default_edition(), folder=tmp_path)
    with pytest.raises(ConfigError) as raised:
        pages.timeline_page(edition)
    message = str(raised.value)
    assert str(tmp_path / "templates" / "timeline.md") in message
    assert "$phase_list" in message and "$phases" in message


def test_a_stray_dollar_sign_in_a_template_is_a_config_error_with_the_fix(tmp_path):
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "timeline.md").write_text("Costs $ 5\n$phases\n", encoding="utf-8")
    edition = dataclasses.replace(default_edition(), folder=tmp_path)
    with pytest.raises(ConfigError, match=r"(?i)write \$\$ for a dollar sign"):
        pages.timeline_page(edition)


def test_an_editions_template_that_is_not_utf8_is_a_located_config_error(tmp_path):
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "timeline.md").write_bytes(b"Dates\n$phases caf\xe9\n")
    edition = dataclasses.replace(default_edition(), folder=tmp_path)
    with pytest.raises(ConfigError, match=r"timeline.md, line 2: file is not UTF-8 text.*0xe9"):
        pages.timeline_page(edition)


def test_a_template_saved_on_windows_fills_as_one_with_unix_line_ends(tmp_path):
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "note.md").write_bytes(b"\xef\xbb\xbfOne\r\n$two\rthree\r\n")
    filled = texts.Templates.of(tmp_path).fill("note", two="2")
    assert filled == "One\n2\nthree"


def test_a_missing_template_is_named():
    with pytest.raises(ConfigError, match="templates/kinds/nothing_format.md"):
        texts.Templates().fill("kinds/nothing_format")


def test_every_template_is_listed_in_the_document_with_its_fields():
    """docs/templates.md has one row per template: `NAME` and its fields, as the file names them."""
    document = (REPO / "docs" / "templates.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `([^`]+)` \| ([^|]*) \|", document, re.MULTILINE))
    assert sorted(rows) == template_names()
    for name in template_names():
        text = (texts.KIT_TEMPLATES / f"{name}.md").read_text(encoding="utf-8")
        listed = re.findall(r"`\$(\w+)`", rows[name])
        # in the order the kit's file names them; fields it receives but does not use come after
        assert listed[: len(fields_of(text))] == fields_of(text), name
        assert len(set(listed)) == len(listed), name


def test_every_template_is_used_by_the_code():
    """A template that no code fills would be prose that never reaches a page: a page's template
    is named in the code; a kind's starts with a registered kind's name, a baseline's is a
    built-in baseline's name, a metric's a registered metric's, an importer's starts with an
    importer's name."""
    from codajudge import kinds
    from codajudge.baselines import BASELINES
    from codajudge.importers import IMPORTERS
    from codajudge.metrics import REGISTRY

    code = "\n".join(p.read_text(encoding="utf-8") for p in (REPO / "codajudge").rglob("*.py"))
    for name in template_names():
        folder, _, stem = name.rpartition("/")
        if folder == "kinds":
            assert any(stem.startswith(kind + "_") for kind in kinds.REGISTRY), name
        elif folder == "baseline":
            assert stem in BASELINES, name
        elif folder == "metrics":
            assert stem in REGISTRY, name
        elif folder == "importers":
            assert any(stem.startswith(importer + "_") for importer in IMPORTERS), name
        else:  # named, or chosen by a field (f"kit_readme/samples_{phase}", f"ranking/group_{order}")
            chosen = ['f"' + name.rpartition("_")[0] + "_{", 'f"' + name.split("_")[0] + "_{"]
            assert f'"{name}"' in code or any(c in code for c in chosen), name


def test_a_metrics_text_is_its_template_and_an_editions_template_replaces_it(tmp_path):
    edition = default_edition()
    before = pages.evaluation_page(edition, NO_LOCAL)
    kit_text = " ".join(texts.Templates().fill("metrics/pearson").split())
    assert f"| {kit_text} |" in before
    own = tmp_path / "templates" / "metrics"
    own.mkdir(parents=True)
    (own / "pearson.md").write_text("Pearson's r of predictions and gold.\n", encoding="utf-8")
    after = pages.evaluation_page(dataclasses.replace(edition, folder=tmp_path), NO_LOCAL)
    assert after == before.replace(kit_text, "Pearson's r of predictions and gold.")


def test_a_template_override_that_replaces_no_kit_template_is_refused_naming_the_closest(tmp_path):
    """A misnamed override (``metrics.md`` for ``metric.md``) once left the kit's text in use
    without a word; a registered metric's or kind's own text stays allowed."""
    shutil.copytree(
        REPO / "editions" / "default", tmp_path / "ed", ignore=shutil.ignore_patterns("data")
    )
    own = tmp_path / "ed" / "templates"
    (own / "evaluation").mkdir(parents=True)
    (own / "evaluation" / "metrics.md").write_text("| $title |\n", encoding="utf-8")
    (own / "kinds").mkdir()
    (own / "kinds" / "classification_range.md").write_text("0-5\n", encoding="utf-8")
    (own / "metrics").mkdir()
    (own / "metrics" / "accuracy.md").write_text("The share right.\n", encoding="utf-8")
    with pytest.raises(ConfigError) as raised:
        load_edition(tmp_path / "ed")
    assert [p.file for p in raised.value.problems] == [str(own / "evaluation" / "metrics.md")]
    assert (
        "the file replaces no template of the kit: the kit's own text would be used; expected "
        "templates/NAME.md, NAME a template of codajudge/templates (docs/templates.md). Did you "
        "mean 'evaluation/metric.md'?"
    ) in str(raised.value)


def test_a_template_override_in_the_wrong_folder_is_told_the_one_of_its_file_name(tmp_path):
    """templates/metric.md is evaluation/metric.md in the wrong folder, not metrics/kl.md: a kit
    template of the same file name is the suggestion, whatever folder it is in."""
    shutil.copytree(
        REPO / "editions" / "default", tmp_path / "ed", ignore=shutil.ignore_patterns("data")
    )
    own = tmp_path / "ed" / "templates"
    (own / "timeline").mkdir(parents=True)
    (own / "metric.md").write_text("| $title |\n", encoding="utf-8")
    (own / "timeline" / "evaluation.md").write_text("Evaluation.\n", encoding="utf-8")
    with pytest.raises(ConfigError) as raised:
        load_edition(tmp_path / "ed")
    told = [p.render() for p in raised.value.problems]
    assert len(told) == 2, told
    assert "Did you mean 'evaluation/metric.md'? (the kit's template of that" in told[0], told
    assert "Did you mean 'evaluation.md'? (the kit's template of that" in told[1], told


def test_every_generated_page_fills_each_template_with_its_documented_fields(monkeypatch):
    """A template receives exactly the fields docs/templates.md lists for it (an edition's own copy
    may use any of them), so the fields an unknown-field refusal names are the documented ones:
    on every generated page, the legacy timeline and the kit's README, where some rows receive
    fields the kit's own files do not use (``$until`` and ``$ends`` of ``timeline/phase``)."""
    document = (REPO / "docs" / "templates.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `([^`]+)` \| ([^|]*) \|", document, re.MULTILINE))
    received = {}
    fill = texts.Templates.fill

    def recording(self, name, /, **fields):
        received.setdefault(name, set()).update(fields)
        return fill(self, name, **fields)

    monkeypatch.setattr(texts.Templates, "fill", recording)
    pages.generated_pages(default_edition(), {"practice": {}}, NO_LOCAL, {}, {})
    pages.timeline_page(default_edition(), "legacy/timeline", "legacy/timeline_phase")
    kit_pages = [
        {"title": name, "file": f"pages/{name}.md"} for name in ("data", "evaluation", "terms")
    ]
    pages.render(default_edition(), NO_LOCAL, {}, kit_pages, "cosine_bow")
    wrong = {n: f for n, f in received.items() if f != set(re.findall(r"`\$(\w+)`", rows[n]))}
    assert "evaluation/metric" in received and not wrong, wrong


def test_a_field_a_template_does_not_receive_is_named_with_those_it_does_or_that_it_takes_none(
    tmp_path,
):
    (tmp_path / "mae.md").write_text("My MAE: $nme\n", encoding="utf-8")
    prose = texts.Templates((tmp_path,))
    with pytest.raises(ConfigError) as none:
        prose.fill("mae")
    assert "expected no field: it takes none, found $nme. Write $$ for a literal" in str(none.value)
    with pytest.raises(ConfigError) as some:
        prose.fill("mae", name="mae", title="MAE")
    assert "expected one of its 2 fields: $name, $title, found $nme" in str(some.value)
    (tmp_path / "metric.md").write_text("$title is $directon.\n", encoding="utf-8")
    with pytest.raises(ConfigError) as misspelt:  # a misspelt field: the one meant named
        prose.fill("metric", title="MAE", direction="lower is better")
    assert "found $directon. Did you mean '$direction'?" in str(misspelt.value)


def test_no_metric_description_names_a_shipped_editions_dataset():
    """A metric's text is on the Evaluation page of every edition that scores with it: anad's
    example named CSC, which a reused lewidi2025 without CSC still showed. Its examples name no
    dataset of a shipped edition (an official script's provenance, ChaosNLI's, is no dataset id)."""
    import yaml

    datasets = set()
    for config in (REPO / "editions").glob("*/edition.yaml"):
        datasets |= set(yaml.safe_load(config.read_text(encoding="utf-8")).get("datasets") or {})
    for template in (texts.KIT_TEMPLATES / "metrics").glob("*.md"):
        words = set(re.findall(r"[a-z0-9_]+", template.read_text(encoding="utf-8").lower()))
        assert not words & {d.lower() for d in datasets}, template.name


def test_the_rounding_sentence_names_the_editions_metrics_registered_as_rounding(monkeypatch):
    """An edition of its own scored with AMD and error rate was told 'LeWiDi metrics round as the
    official 2025 code does': the sentence names the edition's metrics registered with
    ``official_rounding`` (the registry decides, not a list of names), and is left out without one."""
    from codajudge.metrics import base

    edition = default_edition()
    nli = [t for t in edition.tracks if t.id in ("nli_zh_soft", "irony_pe")]
    text = pages.evaluation_page(dataclasses.replace(edition, tracks=nli), NO_LOCAL)
    assert (
        "Rounded as the official LeWiDi 2025 code rounds (5 decimals per item): Avg Manhattan "
        "dist and Error rate."
    ) in text
    similarity = [t for t in edition.tracks if t.kind == "similarity"]
    assert "LeWiDi" not in pages.evaluation_page(
        dataclasses.replace(edition, tracks=similarity), NO_LOCAL
    )
    pearson = dataclasses.replace(base.REGISTRY["pearson"], official_rounding=True)
    monkeypatch.setitem(base.REGISTRY, "pearson", pearson)
    text = pages.evaluation_page(dataclasses.replace(edition, tracks=similarity), NO_LOCAL)
    assert "code rounds (5 decimals per item): Pearson r." in text
