"""Issue 22, item 5: no boolean is coerced. ``bool("false")`` is True, so a quoted ``public_gold:
"false"`` published the test gold; a string (or a number, or YAML 1.1's yes/no/on/off) where a
boolean is expected is a ConfigError naming the file, the key's path and the fix, wherever the kit
reads one (edition.yaml's phases and tracks, a dataset source, task.json)."""

import json
import shutil
from pathlib import Path

import pytest
import yaml

from codajudge.bundle.config_yaml import ConfigLoader
from codajudge.bundle.edition import load_edition
from codajudge.errors import ConfigError
from codajudge.spec import read_spec, spec_from_dict, write_spec
from codajudge.tracks import track_from_dict

REPO = Path(__file__).resolve().parents[1]
DEFAULT = REPO / "editions" / "default"
QUOTES = "Write true or false without quotes"
WORDS = "Write true or false: yes, no, on and off are read as words, not booleans"


def _edition(tmp_path: Path, change) -> Path:
    """The default edition (without its data) with ``change`` applied to the text of its config."""
    folder = tmp_path / "edition"
    shutil.copytree(DEFAULT, folder, ignore=shutil.ignore_patterns("data"))
    path = folder / "edition.yaml"
    path.write_text(change(path.read_text(encoding="utf-8")), encoding="utf-8")
    return path


def _after(line: str, added: str):
    """A change of the config's text: ``added`` (indented alike) on the line after ``line``."""

    def change(text: str) -> str:
        assert text.count(line + "\n") == 1, line
        indent = " " * (len(line) - len(line.lstrip(" -")))
        return text.replace(line + "\n", f"{line}\n{indent}{added}\n")

    return change


def _replaced(old: str, new: str):
    """A change of the config's text: its one ``old`` written ``new``."""

    def change(text: str) -> str:
        assert text.count(old) == 1, old
        return text.replace(old, new)

    return change


def _refusal(path: Path) -> str:
    """The refusal's problems, without its last line saying what a schema problem left unchecked."""
    with pytest.raises(ConfigError) as caught:
        load_edition(path)
    problems, _, unchecked = str(caught.value).rpartition("\n")
    assert unchecked.startswith("not checked: the cross-field rules")
    return problems


@pytest.mark.parametrize(
    "written, found, hint",
    [
        ('"false"', "the string 'false'", QUOTES),
        ("'False'", "the string 'False'", QUOTES),
        ("no", "the string 'no'", WORDS),
        ("off", "the string 'off'", WORDS),
        ("0", "0", QUOTES),
        ("null", "None", QUOTES),
    ],
)
def test_a_phase_public_gold_that_is_no_boolean_is_refused(written, found, hint, tmp_path):
    """``bool("false")`` made the post-campaign phase publish its test gold."""
    path = _edition(tmp_path, _after("  - id: post-campaign", f"public_gold: {written}"))
    assert _refusal(path) == (
        f"{path}: phases[2] 'post-campaign': 'public_gold' must be a boolean; expected true or "
        f"false, found {found}. {hint}"
    )


@pytest.mark.parametrize("written, public", [("false", False), ("true", True), ("FALSE", False)])
def test_yaml_booleans_are_read_as_written(written, public, tmp_path):
    """On the practice phase, whose dev split no other phase hides: the post-campaign phase's test
    gold may not be public while the evaluation hides it (tests/test_phase_gold.py)."""
    path = _edition(tmp_path, _after("  - id: practice", f"public_gold: {written}"))
    phases = {phase.id: phase for phase in load_edition(path).phases}
    assert phases["practice"].public_gold is public
    assert phases["practice"].hide_gold is not public


@pytest.mark.parametrize("key", ["positional", "primary"])
def test_a_track_boolean_that_is_a_string_is_refused(key, tmp_path):
    path = _edition(tmp_path, _replaced("{id: en_en, ", f'{{id: en_en, {key}: "false", '))
    assert _refusal(path) == (
        f"{path}: tracks[0] 'en_en': '{key}' must be a boolean; expected true or false, found the "
        f"string 'false'. {QUOTES}"
    )


def test_a_track_read_alone_refuses_a_string_positional():
    with pytest.raises(ConfigError) as caught:
        track_from_dict({"id": "sim", "kind": "similarity", "positional": "false"})
    assert "'positional' must be a boolean" in str(caught.value)
    assert (
        track_from_dict({"id": "sim", "kind": "similarity", "positional": False}).positional
        is False
    )


def _spec(**extra) -> dict:
    return {
        "edition": "e",
        "phase": "evaluation",
        "tracks": [{"id": "sim", "kind": "similarity"}],
        **extra,
    }


@pytest.mark.parametrize("written", ["false", "False", 0, "no"])
def test_a_task_json_hide_gold_that_is_no_boolean_is_refused(written, tmp_path):
    """task.json's ``hide_gold: "false"`` made a hidden-gold phase show per-item results."""
    folder = tmp_path / "reference"
    folder.mkdir()
    (folder / "task.json").write_text(json.dumps(_spec(hide_gold=written)), encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        read_spec(folder)
    assert str(caught.value).startswith(
        "reference/task.json: 'hide_gold' must be a boolean; expected true or false, found "
        f"{'the string ' if isinstance(written, str) else ''}{written!r}"
    )


def test_a_task_json_the_builder_writes_reads_back(tmp_path):
    for hidden in (True, False):
        write_spec(tmp_path, spec_from_dict(_spec(hide_gold=hidden), "task.json"))
        assert read_spec(tmp_path).hide_gold is hidden
    assert spec_from_dict(_spec(), "task.json").hide_gold is True  # the default: hidden


def test_a_lewidi_source_check_soft_label_that_is_a_string_is_refused(tmp_path):
    change = _replaced(
        "irony: {importer: kit, path: data/irony}",
        'irony: {importer: lewidi, path: data, dataset: MP, check_soft_label: "false"}',
    )
    path = _edition(tmp_path, change)
    assert _refusal(path) == (
        f"{path}: datasets 'irony': 'check_soft_label' must be a boolean; expected true or false, "
        f"found the string 'false'. {QUOTES}"
    )


def test_the_config_loader_reads_only_true_and_false_as_booleans():
    """YAML 1.1's yes/no/on/off stay words (so a boolean key refuses them, and a label ``no`` is the
    word); PyYAML's own SafeLoader, which other readers use, is left as it is."""
    loader = ConfigLoader("[yes, no, on, off, true, false, True, FALSE, 'true', 1]")
    try:
        assert loader.get_single_data() == [
            "yes",
            "no",
            "on",
            "off",
            True,
            False,
            True,
            False,
            "true",
            1,
        ]
    finally:
        loader.dispose()
    assert yaml.safe_load("[yes, off]") == [True, False]
