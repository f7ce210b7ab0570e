"""The edition config's schema: every key of every table refused when misspelt (with a "did you
mean"), every value of the wrong type refused without coercion, all problems of a config reported at
once naming the file and the key path, and the published JSON Schema the same table."""

import copy
import json
import shutil
from pathlib import Path

import pytest
import yaml

from codajudge import kinds
from codajudge.bundle import schema as S
from codajudge.bundle.schema import IMPORTER_OPTIONS, dataset_fields
from codajudge.bundle.config_yaml import load_config_yaml
from codajudge.bundle.edition import load_edition
from codajudge.errors import ConfigError
from codajudge.fields import resolve
from codajudge.importers import IMPORTERS

from small_edition import make_edition

REPO = Path(__file__).resolve().parents[1]
DEFAULT = REPO / "editions" / "default" / "edition.yaml"
DISPLAY = "my/edition.yaml"


def default_config() -> dict:
    return yaml.safe_load(DEFAULT.read_text(encoding="utf-8"))


def sample(spec: S.Field):
    """A value that conforms to ``spec``."""
    if spec.choices:
        return next(iter(spec.choices))
    if spec.check is not None:  # the queue, the contact address
        candidates = ("0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d", "me@example.org")
        return next((value for value in candidates if spec.check(value) is None), candidates[0])
    simple = {S.STR: "x", S.BOOL: True, S.DATE: "2027-01-01 00:00:00", S.STR_OR_LIST: "x"}
    if spec.type in simple:
        return simple[spec.type]
    if spec.type in (S.INT, S.NUMBER):
        return spec.minimum if spec.minimum is not None else 1
    if spec.type == S.LIST:
        n = spec.length or 1
        return [sample(spec.items) for _ in range(n)]
    if spec.type == S.MAP:
        return {(spec.keys or ("k",))[0]: sample(spec.items)} if spec.items else {}
    if spec.type == S.OBJECT:
        return minimal(resolve(spec.schema, {}))
    return None


def minimal(fields) -> dict:
    return {key: sample(spec) for key, spec in fields.items() if spec.required}


def dataset(importer: str) -> dict:
    fields = dataset_fields({"importer": importer})
    return {"importer": importer, **minimal(fields)}


def places():
    """(label, the config holding it, the object at that place, its fields) for every table."""
    base = default_config()
    yield "top level", base, base, S.TOP_LEVEL_FIELDS
    for name, key, fields in (
        ("phase", "phases", S.PHASE_FIELDS),
        ("track", "tracks", S.TRACK_FIELDS),
        ("page", "pages", S.PAGE_FIELDS),
    ):
        config = default_config()
        yield name, config, config[key][0], fields
    config = default_config()
    yield "leaderboard", config, config["leaderboard"], S.LEADERBOARD_FIELDS
    for importer in IMPORTER_OPTIONS:
        config = default_config()
        config["datasets"]["sts_en"] = entry = dataset(importer)
        yield f"dataset ({importer})", config, entry, dataset_fields(entry)
        entry_fields = dataset_fields(entry)
        for nested in ("split", "columns"):
            if nested in entry_fields:
                config = default_config()
                config["datasets"]["sts_en"] = entry = dataset(importer)
                entry[nested] = minimal(entry_fields[nested].schema) or {"seed": 1}
                yield f"{nested} ({importer})", config, entry[nested], entry_fields[nested].schema


PLACES = list(places())
KEYS = [(label, key) for label, _, _, fields in PLACES for key in fields]


def at(label: str):
    return next(p for p in PLACES if p[0] == label)


def problems_of(config) -> str:
    return "\n".join(p.render() for p in S.validate_config(config, DISPLAY))


def test_every_place_conforms_before_it_is_edited():
    for label, config, _, _ in PLACES:
        assert problems_of(config) == "", label


def test_every_importer_has_its_options_in_the_schema():
    assert set(IMPORTER_OPTIONS) == set(IMPORTERS)


@pytest.mark.parametrize("label, key", KEYS)
def test_every_misspelt_key_is_refused_naming_it_and_the_key_meant(label, key):
    _, config, obj, _ = copy.deepcopy(at(label))
    obj[key + key[-1]] = obj.pop(key, sample(at(label)[3][key]))
    text = problems_of(config)
    assert f"unknown key '{key + key[-1]}'" in text and f"did you mean '{key}'?" in text.lower()
    assert text.startswith(DISPLAY)


#: Every key whose value is one of some choices, some of them with other names.
SYNONYM_KEYS = [
    (label, key)
    for label, _, _, fields in PLACES
    for key, spec in fields.items()
    if spec.synonyms and spec.choices
]


@pytest.mark.parametrize("label, key", SYNONYM_KEYS)
def test_another_name_of_an_allowed_value_is_refused_naming_the_value_it_means(label, key):
    spec = at(label)[3][key]
    for other, meant in spec.synonyms.items():
        assert meant in spec.choices and other not in spec.choices, other
        _, config, obj, _ = copy.deepcopy(at(label))
        obj[key] = other.upper()  # in any case
        text = problems_of(config)
        assert f"Did you mean '{meant}'? ('{other.upper()}' is another name for it)" in text, text


def test_the_table_format_ndjson_is_told_to_be_jsonl_and_a_validation_split_dev():
    config = default_config()
    config["datasets"]["sts_en"] = {**dataset("table"), "format": "ndjson"}
    config["datasets"]["sts_en"]["exclude"] = {"validation": "test"}
    text = problems_of(config)
    assert "Did you mean 'jsonl'? ('ndjson' is another name for it)" in text
    assert "unknown key of 'exclude' 'validation'" in text
    assert "Did you mean 'dev'? ('validation' is another name for it)" in text
    assert SYNONYM_KEYS  # the parametrised test above has cases


#: A value of the wrong type for each type, and the words the refusal must contain.
WRONG = {
    S.STR: (True, "must be a string", "quote it"),
    S.BOOL: ("false", "must be a boolean", "without quotes"),
    S.INT: ("1", "must be a whole number", "without quotes"),
    S.NUMBER: ("0.5", "must be a number", "without quotes"),
    S.DATE: ("1 March 2027", "is not a UTC date and time", "2027-03-01 00:00:00"),
    S.LIST: ("x", "must be a list", ""),
    S.MAP: ("x", "must be a mapping", ""),
    S.OBJECT: ("x", "must be a mapping", ""),
    S.STR_OR_LIST: (1, "must be a string", "quote it"),
}


@pytest.mark.parametrize("label, key", KEYS)
def test_every_value_of_the_wrong_type_is_refused_without_coercion(label, key):
    _, config, obj, _ = copy.deepcopy(at(label))
    spec = at(label)[3][key]
    if spec.type == S.ANY or key == "importer":
        pytest.skip("any value (declared for another module) / the importer chooses the table")
    value, says, hint = WRONG[spec.type]
    if spec.check is not None:
        says, hint = "must be", ""
    obj[key] = value
    text = problems_of(config)
    assert f"'{key}'" in text and says in text and hint.lower() in text.lower(), text


def test_the_organisers_reports_are_refused_all_at_once_naming_file_key_and_fix():
    config = default_config()
    config["datasets"]["sts_en"] = {"importer": "stsb", "path": "stsbenchmark", "genre": "x"}
    config["datasets"]["sts_es"] = {"importer": "kit", "pth": "data/sts_es"}
    config["tracks"][5]["scale"] = "ordnial"
    config["phases"][0]["public_gold"] = "false"
    config["tracks"][4]["labels"] = [True, False]  # labels: [yes, no]
    config["phases"][1]["start"] = "2027-03-01"
    lines = S.validate_config(config, DISPLAY)
    text = "\n".join(p.render() for p in lines)
    assert "datasets 'sts_en': unknown key 'genre'" in text and "where: {genre: VALUE}" in text
    assert "unknown key 'pth'" in text and "Did you mean 'path'?" in text
    assert "unknown scale" in text and "Did you mean 'ordinal'?" in text
    assert "'public_gold' must be a boolean" in text and "the string 'false'" in text
    assert "'labels' must be strings: 2 entries are not quoted, found [True, False]" in text
    assert "'start' is not a UTC date and time" in text and "1970" not in text
    assert "is required" not in text  # 'pth' for the required 'path': one problem, its hint
    assert all(p.file.startswith(DISPLAY) for p in lines) and len(lines) == 6


def test_the_builder_refuses_before_reading_any_file(tmp_path):
    folder = tmp_path / "ed"
    folder.mkdir()
    config = default_config()
    config["datasets"]["sts_en"] = {"importer": "stsb", "pth": "stsbenchmark"}
    (folder / "edition.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    with pytest.raises(ConfigError) as caught:  # no logo, terms or pages exist: not yet looked at
        load_edition(folder)
    # the required 'path' misspelt: one problem, the misspelling with its did-you-mean
    assert [p.message for p in caught.value.problems] == ["unknown key 'pth'"]
    assert caught.value.problems[0].hint == "did you mean 'path'?"


def test_the_published_json_schema_is_the_schema():
    """docs/edition.schema.json is `codajudge schema --out docs/edition.schema.json`."""
    from codajudge.programs.schema import schema_text

    assert (REPO / "docs" / "edition.schema.json").read_text(encoding="utf-8") == schema_text()


def test_the_json_schema_accepts_the_shipped_editions_and_refuses_a_misspelt_key():
    jsonschema = pytest.importorskip("jsonschema")
    doc = json.loads(S.json_schema() and json.dumps(S.json_schema()))
    for path in sorted((REPO / "editions").glob("*/edition.yaml")):
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
        jsonschema.validate(json.loads(json.dumps(raw, default=str)), doc)
    config = default_config()
    config["datasets"]["sts_en"]["pth"] = "x"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(config, doc)


def test_the_json_schema_accepts_an_edition_s_own_metric_and_suggests_the_kit_s():
    """A track may name a metric its edition's ``metrics_module`` registers: the editor's schema
    lists the kit's metrics as examples, not as the only names allowed."""
    jsonschema = pytest.importorskip("jsonschema")
    config = default_config()
    config["tracks"][0]["metrics"] = ["kendall", "pearson"]
    jsonschema.validate(json.loads(json.dumps(config, default=str)), S.json_schema())
    track = S.json_schema()["properties"]["tracks"]["items"]["properties"]
    assert "pearson" in track["metrics"]["items"]["examples"]


def test_the_documented_reference_is_the_schema():
    """docs/edition-config.md ends with `codajudge schema --markdown`: every key documented."""
    from codajudge.programs.schema import markdown_reference

    text = (REPO / "docs" / "edition-config.md").read_text(encoding="utf-8")
    assert "The tables below are generated from the schema" in text
    assert text.endswith(markdown_reference())
    for _, _, _, fields in PLACES:
        for key in fields:
            assert f"| `{key}` |" in text


def test_an_importer_that_is_no_string_is_refused_without_a_traceback():
    config = default_config()
    config["datasets"]["sts_en"] = {"importer": ["stsb"], "path": "stsbenchmark"}
    assert "datasets 'sts_en': 'importer' must be a string, found ['stsb'] (list)" in problems_of(
        config
    )


@pytest.mark.parametrize(
    "written",
    ["2027-03-01", "2027-03-01T00:00:00", "2027-03-01T12:00:00Z", "2027-03-01 12:00:00+05:00"],
)
def test_an_unquoted_date_is_refused_as_the_same_text_quoted(tmp_path, written):
    """YAML reads `start: 2027-03-01` (unquoted) as a date, and a zone as an aware datetime (which
    the schedule could not compare with the others): each is judged as its text quoted, so a date
    alone, a 'T' or a zone is refused."""
    folder = tmp_path / "ed"
    shutil.copytree(REPO / "editions" / "default", folder)
    text = DEFAULT.read_text(encoding="utf-8").replace('"2027-03-01 00:00:00"', written)
    (folder / "edition.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_edition(folder)
    assert (
        f"phases[1] 'evaluation': 'start' is not a UTC date and time; expected "
        f"'YYYY-MM-DD HH:MM:SS' (quoted), found {written!r}"
    ) in "\n".join(p.render() for p in caught.value.problems)


@pytest.mark.parametrize(
    "written",
    ["2027-02-30 23:59:59", "2027-02-29 12:00:00", "2027-04-31 00:00:00", "2027-02-27 24:00:00"],
)
def test_a_date_of_the_right_format_that_does_not_exist_is_told_so_by_its_own_key(written):
    """February 30th (or 29th in 2027, April 31st, hour 24) has the format right: the message says
    the day or time does not exist, not that the format is wrong, and its example names the key."""
    config = default_config()
    config["phases"][0]["end"] = written
    assert (
        f"phases[0] 'practice': 'end' names a day or time that does not exist; expected a day of "
        f"the calendar (February has 28 days, 29 in a leap year; April, June, September and "
        f"November 30) and a time from 00:00:00 to 23:59:59, found {written!r}. E.g. end: "
        '"2027-03-01 00:00:00"'
    ) in problems_of(config)


def test_an_unknown_metric_is_matched_against_the_metrics_of_the_track_s_kind_and_scale():
    """'mad' on a categorical soft-label track is its 'amd', not the multilabel 'mamd'; the list
    shown is the metrics that apply to the track, in the schema and in a task.json's track."""
    from codajudge.tracks import track_from_dict

    config = default_config()
    track = config["tracks"][5]
    assert (track["kind"], track["scale"]) == ("soft_label", "categorical")
    track["metrics"] = ["mad"]
    # the metrics that apply, from the registry: a new metric module among them changes no test
    applying = " | ".join(sorted(kinds.REGISTRY["soft_label"].applicable_metrics("categorical")))
    assert "amd" in applying and "mamd" not in applying
    told = f"unknown metric; expected {applying}, found 'mad'. Did you mean 'amd'?"
    assert f"tracks[5] 'nli_zh_soft': {told}" in problems_of(config)
    with pytest.raises(ConfigError) as caught:
        track_from_dict(track)
    assert told in caught.value.render()


def test_an_unquoted_date_and_time_is_that_value(tmp_path):
    """Unquoted, 'YYYY-MM-DD HH:MM:SS' is the text it is quoted."""
    unquoted = DEFAULT.read_text(encoding="utf-8").replace(
        '"2027-03-01 00:00:00"', "2027-03-01 00:00:00"
    )
    (tmp_path / "edition.yaml").write_text(unquoted, encoding="utf-8")
    _, raw = load_config_yaml(tmp_path)
    assert raw["phases"][1]["start"] == "2027-03-01 00:00:00" and problems_of(raw) == ""


def test_an_unknown_key_in_a_track_is_named_once(tmp_path):
    folder = tmp_path / "ed"
    shutil.copytree(REPO / "editions" / "default", folder)
    config = yaml.safe_load((folder / "edition.yaml").read_text(encoding="utf-8"))
    config["tracks"][0]["titel"] = config["tracks"][0].pop("title")
    (folder / "edition.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_edition(folder)
    unknown = [p for p in caught.value.problems if p.message == "unknown key 'titel'"]
    assert len(unknown) == 1 and "Did you mean 'title'?" in unknown[0].render()


def test_a_phase_holds_every_key_of_the_schema_s_phase_table():
    """``Phase`` states its fields for its readers; the schema's table is what a config may say."""
    from dataclasses import fields

    from codajudge.bundle.edition import Phase
    from codajudge.bundle.schema import PHASE_FIELDS

    assert [f.name for f in fields(Phase)] == list(PHASE_FIELDS)


def test_a_sample_of_an_unknown_split_is_an_unknown_key_not_an_internal_error(tmp_path):
    """An unknown key leaves the config readable without it: the cross-field rules that read the
    datasets' samples must not read its value (here not a mapping) either."""
    folder = tmp_path / "ed"
    folder.mkdir()
    config = default_config()
    dataset = next(iter(config["datasets"].values()))
    dataset["sample"] = {"dve": 5}
    (folder / "edition.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_edition(folder)
    messages = [p.message for p in caught.value.problems]
    assert "unknown key of 'sample' 'dve'" in messages, messages


def test_unknown_keys_at_every_depth_are_named_and_the_rest_is_still_checked(tmp_path):
    """An unknown key anywhere is reported with its hint and read as absent: the cross-field rules
    then check the rest of the config in the same run, and none of them reads the unknown value."""
    folder = tmp_path / "ed"
    shutil.copytree(REPO / "editions" / "default", folder)
    config = yaml.safe_load((folder / "edition.yaml").read_text(encoding="utf-8"))
    config["titel"] = "x"
    config["phases"][1]["strat"] = "2027-03-02 00:00:00"
    config["phases"][1]["start"] = "2027-02-01 00:00:00"  # overlaps the practice phase
    config["datasets"]["sts_en"]["exlude"] = {"test": "dev"}
    config["datasets"]["sts_en"]["sample"] = {"dve": 5, "dev": {"of": "dev", "items": 3, "seed": 1}}
    config["datasets"]["sts_en"]["sample"]["dev"]["sed"] = 2
    config["datasets"]["sts_es"]["split"] = {"train": 0.8, "dev": 0.3, "seeed": 1}
    config["tracks"][0]["colour"] = "red"
    config["pages"][0]["titel"] = "x"
    config["leaderboard"]["ky"] = "x"
    config["primary_score"]["mising"] = "worst"
    config["ranking"] = {"groups": {"A": {"tracks": ["en_en", "xx"], "ordr": "x"}}}
    (folder / "edition.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_edition(folder)
    text = caught.value.render()
    for unknown, known in [
        ("titel", "title"),
        ("strat", "start"),
        ("exlude", "exclude"),
        ("sed", "seed"),
        ("seeed", "seed"),
        ("colour", None),
        ("ky", "key"),
        ("mising", "missing"),
        ("ordr", "order"),
    ]:
        assert f"unknown key '{unknown}'" in text, unknown
        assert known is None or f"did you mean '{known}'?" in text.lower(), known
    assert "unknown key of 'sample' 'dve'" in text
    assert "phase 'Evaluation' starts before phase 'Practice' ends" in text
    assert "'sample.dev.of' must name another split" in text
    assert "the shares of 'split' add up to 1.1, not 1" in text
    assert "names tracks the edition does not have" in text
    assert text.count("unknown key 'colour'") == 1


def test_a_problem_the_cross_field_rules_find_twice_is_reported_once(tmp_path):
    """A track declared three times is one problem ("declared twice"), said once."""
    folder = tmp_path / "ed"
    shutil.copytree(REPO / "editions" / "default", folder)
    config = yaml.safe_load((folder / "edition.yaml").read_text(encoding="utf-8"))
    config["tracks"] += [config["tracks"][0], config["tracks"][0]]
    (folder / "edition.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_edition(folder)
    assert caught.value.render().count("is declared twice") == 1, caught.value.render()


def test_a_ranking_group_naming_a_track_twice_is_refused(tmp_path):
    """A group's table has one column per track: a track listed twice is refused, not drawn as a
    column no row fills."""
    folder = tmp_path / "ed"
    shutil.copytree(REPO / "editions" / "default", folder)
    config = yaml.safe_load((folder / "edition.yaml").read_text(encoding="utf-8"))
    config["ranking"] = {"groups": {"A": {"tracks": ["en_en", "es_es", "en_en"]}}}
    (folder / "edition.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_edition(folder)
    [problem] = caught.value.problems
    assert problem.file.endswith("ranking: groups: A: tracks")
    assert (problem.message, problem.found) == ("names a track more than once", "en_en")


def test_a_ranking_group_is_checked_against_the_declared_tracks_when_one_fails(tmp_path):
    """A track that fails to load (here a metric that does not apply to its kind) is still one of
    the edition's: a group naming it is not told it names tracks the edition does not have."""
    folder = tmp_path / "ed"
    shutil.copytree(REPO / "editions" / "default", folder)
    config = yaml.safe_load((folder / "edition.yaml").read_text(encoding="utf-8"))
    config["tracks"][1]["metrics"] = ["accuracy"]
    config["ranking"] = {"groups": {"A": {"tracks": ["en_en", "es_es"]}}}
    (folder / "edition.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_edition(folder)
    [problem] = caught.value.problems
    assert "'accuracy' does not apply" in problem.message, problem


def test_a_page_named_like_a_built_page_or_another_page_is_refused(tmp_path):
    """Every page lands in the bundle's pages/ by its file name alone: an edition's page named
    timeline.md would be replaced by the generated Timeline (it was, silently), and of two pages
    of one name the second would replace the first."""
    from codajudge.bundle.edition import BUILT_PAGES

    built = {path.name for path in (REPO / "pages").iterdir()} - {"overview.md"}
    assert built == set(BUILT_PAGES)  # the repository root holds the default edition's pages
    folder = tmp_path / "ed"
    shutil.copytree(REPO / "editions" / "default", folder)
    for name in ("own/timeline.md", "own/overview.md"):
        (folder / name).parent.mkdir(exist_ok=True)
        (folder / name).write_text("# Ours\n\nOur own words.\n", encoding="utf-8")
    config = yaml.safe_load((folder / "edition.yaml").read_text(encoding="utf-8"))
    config["pages"] += [
        {"title": "Schedule", "file": "own/timeline.md"},
        {"title": "More", "file": "own/overview.md"},
    ]
    (folder / "edition.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_edition(folder)
    found = [(p.file.rsplit(": ", 1)[-1], p.message) for p in caught.value.problems]
    assert found == [
        ("pages[1]", "the page's file name 'timeline.md' is that of a page the builder writes"),
        ("pages[2]", "the page's file name 'overview.md' is that of pages[0]"),
    ]


def test_a_page_titled_like_a_built_page_or_another_page_is_refused(tmp_path):
    """Page titles are tabs: two pages of one title, compared without case (an edition's two
    'FAQ' pages, or its own 'evaluation' beside the generated Evaluation), gave two tabs of that
    title, and the legacy html: keyed one by its file name instead (" faq " too: spaces around a
    title are ignored). Both pages are named."""
    folder = tmp_path / "ed"
    shutil.copytree(REPO / "editions" / "default", folder)
    for name in ("own/eval.md", "own/faq.md", "own/more.md"):
        (folder / name).parent.mkdir(exist_ok=True)
        (folder / name).write_text("# Ours\n\nOur own words.\n", encoding="utf-8")
    config = yaml.safe_load((folder / "edition.yaml").read_text(encoding="utf-8"))
    count = len(config["pages"]) + 3
    config["pages"] += [
        {"title": "evaluation", "file": "own/eval.md"},
        {"title": "FAQ", "file": "own/faq.md"},
        {"title": " faq ", "file": "own/more.md"},  # spaces around it: still one tab's title
    ]
    (folder / "edition.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_edition(folder)
    found = [(p.file.rsplit(": ", 1)[-1], p.message, p.hint) for p in caught.value.problems]
    tail = "compared without case: competition.yaml would show 2 tabs of that title"
    assert found == [
        (
            f"pages[{count - 3}]",
            f"its title 'evaluation' (own/eval.md) is that of the builder's page 'Evaluation', {tail}",
            "retitle own/eval.md",
        ),
        (
            f"pages[{count - 1}]",
            f"its title 'faq' (own/more.md) is that of pages[{count - 2}] (own/faq.md), {tail}",
            "retitle own/more.md or own/faq.md",
        ),
    ]
    assert caught.value.problems[0].expected.startswith(f"{count + 5} distinct titles")


@pytest.mark.parametrize("files", [["nli.tsv"], ["NLI*.tsv"]])
def test_a_track_s_files_naming_another_track_s_own_file_is_refused(tmp_path, files):
    """A name in 'files' that another track's own <id>.tsv matches would give the first track twice
    in a submission of both tracks' own files (and in the builder's gold): refused at the config
    check, whatever the kinds, naming the track, the name and the fix."""
    folder = make_edition(tmp_path / "ed")
    config = yaml.safe_load((folder / "edition.yaml").read_text(encoding="utf-8"))
    config["tracks"][2]["files"] = files
    (folder / "edition.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_edition(folder)
    [problem] = caught.value.problems
    assert problem.file == f"{folder / 'edition.yaml'}: tracks[2] 'nli_soft': files"
    assert "the own file name of track 'nli'" in problem.message and problem.found == files[0]
    assert "list a name such as nli*.json (ChaosNLI's) under both tracks' 'files'" in problem.hint
    config["tracks"][1]["files"] = config["tracks"][2]["files"] = ["nli*.json"]
    (folder / "edition.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    load_edition(folder)


def test_tracks_of_one_dataset_and_kind_may_claim_one_file(tmp_path):
    """Two similarity tracks of one dataset (two metrics' tracks) whose patterns overlap
    (en_*.tsv, en_en*.tsv) read one file's same values: the shared-name rule refused them."""
    folder = make_edition(tmp_path / "ed")
    config = yaml.safe_load((folder / "edition.yaml").read_text(encoding="utf-8"))
    similarity = [t for t in config["tracks"] if t["kind"] == "similarity"][0]
    second = dict(similarity, id="sim2", primary=False, files=["en_en*.tsv"])
    similarity["files"] = ["en_*.tsv"]
    config["tracks"].append(second)
    (folder / "edition.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    load_edition(folder)


@pytest.mark.parametrize(
    "first, second, names",
    [
        (3, 4, (["sar.tsv"], ["SAR.tsv"])),  # soft_label and perspectivist, as in a trial
        (1, 2, (["nli_preds.tsv"], ["nli_*.tsv"])),  # a pattern matching the other's name
        (1, 2, (["nli_a*"], ["nli_all.json"])),  # a document's name for one track only
        (0, 1, (["any.json"], ["any.json"])),  # a document of two datasets' tracks
    ],
)
def test_a_file_name_two_tracks_claim_is_refused_unless_a_document_holds_both(
    tmp_path, first, second, names
):
    """A file of ID<TAB>VALUE lines holds one track's value: a name (or pattern) in two tracks'
    'files' is refused at the config check, naming both tracks, the name and the fix, unless both
    tracks, of one dataset and of different kinds, read one document holding both (ChaosNLI's
    *.json, or their one results_layout: test_edition_schema checks the shipped editions)."""
    folder = make_edition(tmp_path / "ed")
    config = yaml.safe_load((folder / "edition.yaml").read_text(encoding="utf-8"))
    config["tracks"][first]["files"], config["tracks"][second]["files"] = names
    (folder / "edition.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_edition(folder)
    [problem] = caught.value.problems
    ids = [config["tracks"][i]["id"] for i in (first, second)]
    assert problem.message.startswith("file name '") and "is claimed by tracks" in problem.message
    assert all(f"'{track}'" in problem.message for track in ids)
    assert problem.expected.startswith("a name of its own per track")
    assert f"give each track a name of its own ({ids[0]}.tsv and {ids[1]}.tsv" in problem.hint


def test_a_track_whose_dataset_is_not_declared_is_told_the_default_or_the_name_meant(tmp_path):
    """A track with no 'dataset' reads the dataset of its id: the problem says so and to add
    'dataset: NAME'; a misspelt dataset gets its did-you-mean. Both name the declared datasets."""
    folder = tmp_path / "ed"
    shutil.copytree(REPO / "editions" / "default", folder)
    config = yaml.safe_load((folder / "edition.yaml").read_text(encoding="utf-8"))
    config["tracks"].append({"id": "extra", "kind": "similarity"})
    config["tracks"][0]["dataset"] = "sts_enn"
    (folder / "edition.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_edition(folder)
    text = caught.value.render()
    declared = (
        "expected one of the 8 declared: irony, nli_var, nli_zh, sarcasm, sts_ar, sts_en, sts_es, "
        "sts_es_en"
    )
    assert (
        "tracks 'extra': its dataset (by default its id, as it gives no 'dataset') is not "
        f"declared under 'datasets'; {declared}, found 'extra'. Add 'dataset: NAME' to the "
        "track, NAME one of the 8 declared"
    ) in text, text
    assert (
        "tracks 'en_en': its dataset is not declared under 'datasets'; "
        f"{declared}, found 'sts_enn'. Did you mean 'sts_en'?"
    ) in text, text
