"""Release importers for STS (SemEval STS 2017, STS Benchmark) and NLI (OCNLI, ChaosNLI).

Expected values are either published facts (the data READMEs, the OCNLI paper) or recomputed here
from the raw files with plain string handling, independently of the importers."""

import json
from collections import Counter
from pathlib import Path

import pytest

from codajudge.errors import ConfigError
from codajudge.importers import load_split

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
STS17_TRACKS = (
    "track1.ar-ar",
    "track2.ar-en",
    "track3.es-es",
    "track4a.es-en",
    "track4b.es-en",
    "track5.en-en",
    "track6.tr-en",
)
CHAOS_FILES = ("chaosNLI_snli.jsonl", "chaosNLI_mnli_m.jsonl")

needs_data = pytest.mark.skipif(not DATA.is_dir(), reason="shared release data not available")


def raw_lines(path: Path):
    return path.read_text(encoding="utf-8").splitlines()


def sts17(track, split="test", **options):
    return load_split(
        {"importer": "semeval_sts", "path": "sts2017", "track": track, **options}, DATA, split
    )


def stsb(split):
    return load_split({"importer": "stsb", "path": "stsbenchmark"}, DATA, split)


def ocnli(split):
    return load_split({"importer": "ocnli", "path": "ocnli"}, DATA, split)


def chaosnli(*names):
    return load_split(
        {"importer": "chaosnli", "path": "chaosnli", "files": {"test": list(names)}}, DATA, "test"
    )


# --- SemEval STS 2017 -------------------------------------------------------------------------------


@needs_data
@pytest.mark.parametrize("track", STS17_TRACKS)
def test_sts17_items_follow_the_raw_lines(track):
    inputs = raw_lines(DATA / "sts2017" / f"STS.input.{track}.txt")
    gold = raw_lines(DATA / "sts2017" / f"STS.gs.{track}.txt")
    items = sts17(track)
    assert len(items) == len(gold) == 250
    assert [it["id"] for it in items] == [str(i) for i in range(len(gold))]
    for i, it in enumerate(items):
        assert it["texts"] == inputs[i].split("\t")
        assert it["score"] == float(gold[i])
        assert it["lang"] == track.split(".")[1]


@needs_data
def test_sts17_track6_keeps_only_the_first_250_of_500_pairs():
    inputs = raw_lines(DATA / "sts2017" / "STS.input.track6.tr-en.txt")
    assert len(inputs) == 500
    items = sts17("track6.tr-en")
    assert len(items) == 250
    assert [it["texts"] for it in items] == [line.split("\t") for line in inputs[:250]]


@needs_data
def test_sts17_quotes_are_text_not_csv_quoting():
    quoted = [
        line for line in raw_lines(DATA / "sts2017" / "STS.input.track4b.es-en.txt") if '"' in line
    ]
    assert len(quoted) == 53
    items = sts17("track4b.es-en")
    assert sum('"' in "\t".join(it["texts"]) for it in items) == 53
    assert {it["score"] for it in items} == {2.0, 3.0, 4.0, 5.0}


@needs_data
def test_sts17_track5_ids_match_the_stsb_id_field():
    by_id = {it["id"]: it for it in sts17("track5.en-en")}
    matched = 0
    for split in ("dev", "test"):
        for line in raw_lines(DATA / "stsbenchmark" / f"sts-{split}.csv"):
            fields = line.split("\t")
            if fields[1] == "track5.en-en":
                item = by_id[str(int(fields[3]))]
                assert item["texts"] == fields[5:7]
                assert item["score"] == pytest.approx(float(fields[4]))
                matched += 1
    assert matched == 250


@needs_data
def test_sts17_lang_option_overrides_the_track_suffix():
    assert {it["lang"] for it in sts17("track3.es-es", lang="es")} == {"es"}


@needs_data
def test_sts17_has_no_train_split_unless_a_fallback_is_named():
    """The 2017 release has no training data: its train split is empty (an optional split), and
    a fallback names where dev comes from."""
    assert sts17("track5.en-en", split="train") == []
    fallback = {"dev": {"importer": "stsb", "path": "stsbenchmark"}}
    items = sts17("track5.en-en", split="dev", fallback=fallback)
    assert len(items) == 1500 and items[0]["id"] == "dev-0"
    assert sts17("track5.en-en", split="train", fallback=fallback) == []
    with pytest.raises(ConfigError, match="fallback"):
        sts17(
            "track5.en-en",
            split="dev",
            fallback={"test": {"importer": "stsb", "path": "stsbenchmark"}},
        )


# --- STS Benchmark ----------------------------------------------------------------------------------


@needs_data
@pytest.mark.parametrize(
    "split,n_items,n_nine_fields,genres",
    [
        ("train", 5749, 197, {"main-news": 3299, "main-captions": 2000, "main-forums": 450}),
        ("dev", 1500, 22, {"main-news": 500, "main-captions": 625, "main-forums": 375}),
        ("test", 1379, 284, {"main-news": 500, "main-captions": 625, "main-forums": 254}),
    ],
)
def test_stsb_counts_genres_and_nine_field_lines(split, n_items, n_nine_fields, genres):
    lines = raw_lines(DATA / "stsbenchmark" / f"sts-{split}.csv")
    items = stsb(split)
    assert len(items) == n_items == len(lines)
    assert Counter(it["genre"] for it in items) == genres
    assert [it["id"] for it in items] == [f"{split}-{i}" for i in range(n_items)]
    nine = [i for i, line in enumerate(lines) if line.count("\t") == 8]
    assert len(nine) == n_nine_fields
    for i in nine:
        fields = lines[i].split("\t")
        assert items[i]["texts"] == [fields[5], fields[6]]
        assert items[i]["score"] == float(fields[4])
    assert {it["lang"] for it in items} == {"en"}


@needs_data
def test_stsb_id_field_is_not_unique_so_line_ids_are_used():
    for split in ("train", "dev", "test"):
        id_field = [
            line.split("\t")[3] for line in raw_lines(DATA / "stsbenchmark" / f"sts-{split}.csv")
        ]
        assert len(set(id_field)) < len(id_field)
        assert len({it["id"] for it in stsb(split)}) == len(id_field)


@needs_data
def test_stsb_mean_scores_match_the_readme():
    for split, mean in (("train", 2.70), ("dev", 2.36), ("test", 2.61)):
        scores = [it["score"] for it in stsb(split)]
        assert round(sum(scores) / len(scores), 2) == mean


# --- OCNLI ------------------------------------------------------------------------------------------


@needs_data
def test_ocnli_dev_counts_and_no_majority_items():
    items = ocnli("dev")
    assert len(items) == 3000
    assert sum(it["label"] is None for it in items) == 50
    assert Counter(it["label"] for it in items if it["label"]) == {
        "neutral": 1103,
        "entailment": 947,
        "contradiction": 900,
    }
    assert Counter(it["genre"] for it in items) == {
        "news": 662,
        "gov": 622,
        "tv": 615,
        "lit": 609,
        "phone": 492,
    }
    assert [it["id"] for it in items] == [str(i) for i in range(3000)]


@needs_data
def test_ocnli_majority_class_baseline_is_37_4_percent():
    train, dev = ocnli("train"), ocnli("dev")
    counts = {}
    for item in train:
        if item["label"] is not None:
            counts[item["label"]] = counts.get(item["label"], 0) + 1
    majority = max(counts, key=counts.get)
    assert majority == "neutral"
    correct = total = 0
    for item in dev:
        if item["label"] is None:
            continue
        total += 1
        correct += item["label"] == majority
    assert total == 2950
    assert round(100 * correct / total, 1) == 37.4


@needs_data
def test_ocnli_votes_outside_the_three_classes_are_dropped():
    records = [json.loads(line) for line in raw_lines(DATA / "ocnli" / "dev.json")]
    items = {it["id"]: it for it in ocnli("dev")}
    odd_votes = odd_items = 0
    for record in records:
        item = items[str(record["id"])]
        expected = [
            (f"ann{k}", record[f"label{k}"])
            for k in range(5)
            if record[f"label{k}"] in ("entailment", "neutral", "contradiction")
        ]
        assert list(zip(item["annotators"], item["annotations"])) == expected
        odd = 5 - len(expected)
        odd_votes += odd
        odd_items += odd > 0
    assert (odd_items, odd_votes) == (39, 46)
    assert items["2092"]["label"] is None and len(items["2092"]["annotations"]) == 2


@needs_data
def test_ocnli_train_items_without_votes_have_no_annotators():
    items = ocnli("train")
    assert len(items) == 10000
    assert sum("annotators" in it for it in items) == 1329
    assert all("annotations" not in it for it in items if "annotators" not in it)
    assert sum(it["label"] is None for it in items) == 15


# --- ChaosNLI ---------------------------------------------------------------------------------------


@needs_data
@pytest.mark.parametrize(
    "name,n_items,majority",
    [
        ("chaosNLI_snli.jsonl", 1514, (421, 813, 280)),
        ("chaosNLI_mnli_m.jsonl", 1599, (741, 583, 275)),
    ],
)
def test_chaosnli_counts_and_label_distributions(name, n_items, majority):
    records = [json.loads(line) for line in raw_lines(DATA / "chaosnli" / name)]
    items = chaosnli(name)
    assert len(items) == n_items
    labels = ("entailment", "neutral", "contradiction")
    assert tuple(sum(it["label"] == label for it in items) for label in labels) == majority
    for record, item in zip(records, items):
        assert item["id"] == record["uid"]
        assert item["texts"] == [record["example"]["premise"], record["example"]["hypothesis"]]
        assert item["genre"] == record["example"]["source"]
        assert item["annotators"] == [f"a{k:03d}" for k in range(100)]
        assert item["annotations"] == sorted(item["annotations"])
        distribution = [item["annotations"].count(label) / 100 for label in labels]
        assert distribution == pytest.approx(record["label_dist"], abs=1e-9)


@needs_data
def test_chaosnli_files_of_a_split_are_concatenated_and_required():
    items = chaosnli(*CHAOS_FILES)
    assert len(items) == 1514 + 1599
    assert len({it["id"] for it in items}) == len(items)
    with pytest.raises(ConfigError, match="no file for the test split"):
        load_split({"importer": "chaosnli", "path": "chaosnli"}, DATA, "test")


# --- malformed releases -----------------------------------------------------------------------------


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def tmp_sts17(tmp_path, inputs, gold):
    write(tmp_path / "sts" / "STS.input.track9.xx-yy.txt", inputs)
    write(tmp_path / "sts" / "STS.gs.track9.xx-yy.txt", gold)
    return load_split(
        {"importer": "semeval_sts", "path": "sts", "track": "track9.xx-yy"}, tmp_path, "test"
    )


def assert_located(error: ConfigError, file_name: str, lines):
    """Exactly ``lines`` are reported, each in ``file_name``, and the message shows each location."""
    assert sorted(line for p in error.problems for line in (p.lines or (p.line,))) == sorted(lines)
    for problem in error.problems:  # the same problem on several lines is one message listing them
        assert Path(problem.file).name == file_name
        shown = (
            f"{file_name}, line {problem.line}"
            if problem.count == 1
            else f"{file_name}: {problem.message}, on {problem.count} lines (lines {', '.join(map(str, problem.lines))}"
        )
        assert shown in str(error)


def test_sts_wrong_field_count_names_file_and_lines(tmp_path):
    with pytest.raises(ConfigError) as caught:
        tmp_sts17(tmp_path, 'a\tb\nc\td\te\n"f\n', "1\n2\n3\n")
    assert_located(caught.value, "STS.input.track9.xx-yy.txt", [2, 3])


def test_sts_non_numeric_gold_names_file_and_line(tmp_path):
    with pytest.raises(ConfigError) as caught:
        tmp_sts17(tmp_path, "a\tb\nc\td\ne\tf\n", "1.0\nfive\nnan\n")
    assert_located(caught.value, "STS.gs.track9.xx-yy.txt", [2, 3])


def test_sts_blank_gold_and_short_gold_leave_pairs_out(tmp_path):
    items = tmp_sts17(tmp_path, "a\tb\nc\td\ne\tf\r\ng\th", "1\n\n2.5\n")
    assert [(it["id"], it["texts"], it["score"]) for it in items] == [
        ("0", ["a", "b"], 1.0),
        ("2", ["e", "f"], 2.5),
    ]
    assert {it["lang"] for it in items} == {"xx-yy"}
    with pytest.raises(ConfigError, match="more gold scores than input pairs"):
        tmp_sts17(tmp_path, "a\tb\n", "1\n2\n")


def test_sts_missing_file(tmp_path):
    with pytest.raises(ConfigError, match="STS.input.track1.ar-ar.txt"):
        load_split(
            {"importer": "semeval_sts", "path": ".", "track": "track1.ar-ar"}, tmp_path, "test"
        )


def test_stsb_short_line_and_bad_score(tmp_path):
    write(
        tmp_path / "b" / "sts-dev.csv",
        "main-news\tf\t2012\t0001\t3.0\tA\tB\n"
        "main-forum\tf\t2012\t0002\tx\tA\tB\n"
        "main-news\tf\t2012\t0003\t1.0\tA\n",
    )
    with pytest.raises(ConfigError) as caught:
        load_split({"importer": "stsb", "path": "b"}, tmp_path, "dev")
    assert_located(caught.value, "sts-dev.csv", [2, 3])


def test_ocnli_malformed_lines(tmp_path):
    good = {
        "id": 1,
        "sentence1": "p",
        "sentence2": "h",
        "label": "neutral",
        "genre": "tv",
        "label0": "neutral",
        "label1": None,
        "label2": "unknown",
        "label3": "entailment",
        "label4": None,
    }
    lines = [
        json.dumps(good),
        "{not json",
        json.dumps({**good, "id": 2, "label": "maybe"}),
        json.dumps({**good, "label1": "nuetral", "id": 3}),
        json.dumps(good),
    ]
    write(tmp_path / "o" / "dev.json", "\n".join(lines))
    with pytest.raises(ConfigError) as caught:
        load_split({"importer": "ocnli", "path": "o"}, tmp_path, "dev")
    assert_located(caught.value, "dev.json", [2, 3, 4, 5])
    assert "duplicate id" in str(caught.value)
    write(tmp_path / "o" / "dev.json", json.dumps(good))
    [item] = load_split({"importer": "ocnli", "path": "o"}, tmp_path, "dev")
    assert item["annotators"] == ["ann0", "ann3"] and item["annotations"] == [
        "neutral",
        "entailment",
    ]
    with pytest.raises(ConfigError, match="no file for the test split"):
        load_split({"importer": "ocnli", "path": "o"}, tmp_path, "test")


def test_chaosnli_rejects_counts_that_disagree_with_the_counter(tmp_path):
    record = {
        "uid": "x1",
        "example": {"premise": "p", "hypothesis": "h", "source": "s"},
        "label_count": [1, 2, 0],
        "label_counter": {"e": 2, "n": 1},
        "majority_label": "n",
    }
    write(tmp_path / "c" / "c.jsonl", json.dumps(record) + "\n")
    with pytest.raises(ConfigError) as caught:
        load_split(
            {"importer": "chaosnli", "path": "c", "files": {"dev": "c.jsonl"}}, tmp_path, "dev"
        )
    assert_located(caught.value, "c.jsonl", [1])
    record["label_counter"] = {"e": 1, "n": 2}
    write(tmp_path / "c" / "c.jsonl", json.dumps(record) + "\n")
    [item] = load_split(
        {"importer": "chaosnli", "path": "c", "files": {"dev": "c.jsonl"}}, tmp_path, "dev"
    )
    assert item["annotations"] == ["entailment", "neutral", "neutral"]
    assert item["annotators"] == ["a000", "a001", "a002"] and item["label"] == "neutral"


@pytest.mark.parametrize("label", [["e"], {"e": 1}, 1, None])
def test_chaosnli_refuses_a_majority_label_that_is_no_code_at_its_line(tmp_path, label):
    record = {
        "uid": "x1",
        "example": {"premise": "p", "hypothesis": "h", "source": "s"},
        "label_count": [1, 0, 0],
        "majority_label": label,
    }
    write(tmp_path / "c" / "c.jsonl", json.dumps(record) + "\n")
    with pytest.raises(ConfigError, match="'majority_label' is not a most-voted class") as caught:
        load_split(
            {"importer": "chaosnli", "path": "c", "files": {"dev": "c.jsonl"}}, tmp_path, "dev"
        )
    assert_located(caught.value, "c.jsonl", [1])


def test_chaosnli_refuses_an_id_repeated_across_the_files_of_a_split(tmp_path):
    record = {
        "uid": "x1",
        "example": {"premise": "p", "hypothesis": "h", "source": "s"},
        "label_count": [1, 0, 0],
        "majority_label": "e",
    }
    for name in ("a.jsonl", "b.jsonl"):
        write(tmp_path / "c" / name, json.dumps(record) + "\n")
    source = {"importer": "chaosnli", "path": "c", "files": {"dev": ["a.jsonl", "b.jsonl"]}}
    with pytest.raises(ConfigError, match="repeated across the dev split's files") as caught:
        load_split(source, tmp_path, "dev")
    assert "'x1'" in str(caught.value)
