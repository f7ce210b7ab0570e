"""Edition configs cannot touch the disk outside their folders (issue 13, item 1).

Every attack is an edition config an organiser might be handed: an edition name that climbs out of
``--out``, pages, terms, logo and public files that are absolute, climb with ``..`` or are symbolic
links leading out, dataset ids and dataset paths that do the same, a YAML alias bomb, and numbers
past any sane limit. Each is refused with a clear message (exit 1 on the command line), and a
snapshot of the whole temporary tree taken before and after shows that nothing outside ``--out``
was created, changed or removed.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
import yaml

from small_edition import make_edition

from codajudge.bundle.build import build, import_data
from codajudge.bundle.config_yaml import MAX_EXPANDED_NODES
from codajudge.bundle.edition import load_edition
from codajudge.errors import ConfigError
from codajudge.programs.build import main as build_main

REPO = Path(__file__).resolve().parents[1]


def snapshot(root: Path, skip: Path = None) -> dict:
    """Every entry under ``root`` (but ``skip``): kind, size, modification time, link target."""
    state = {}
    for current, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(current) / name
            if skip is not None and (path == skip or skip in path.parents):
                continue
            st = path.lstat()
            state[str(path.relative_to(root))] = (
                st.st_mode,
                st.st_size,
                st.st_mtime_ns,
                os.readlink(path) if path.is_symlink() else None,
            )
    return state


@pytest.fixture
def sandbox(tmp_path):
    """A small edition at sandbox/ed, a victim folder and a secret file beside it."""
    make_edition(tmp_path / "ed")
    (tmp_path / "victim").mkdir()
    (tmp_path / "victim" / "keep.txt").write_text("must survive\n")
    (tmp_path / "secret.md").write_text("# secret outside the edition folder\n")
    return tmp_path


def edit(folder: Path, change) -> None:
    path = folder / "edition.yaml"
    config = yaml.safe_load(path.read_text())
    change(config)
    path.write_text(yaml.safe_dump(config, sort_keys=False))


def refused(folder: Path) -> str:
    with pytest.raises(ConfigError) as caught:
        load_edition(folder)
    return str(caught.value)


def run_builder(edition: Path, out: Path, *extra: str) -> subprocess.CompletedProcess:
    """``build_bundle.py --edition EDITION --out OUT`` by its ``main`` in this process: the exit
    code and what it printed (the script as a process of its own: test_cli, and the alias bomb
    below)."""
    args = ["--edition", str(edition), "--out", str(out), *extra]
    printed, said = io.StringIO(), io.StringIO()
    with redirect_stdout(printed), redirect_stderr(said):
        code = build_main(args)
    return subprocess.CompletedProcess(args, code, printed.getvalue(), said.getvalue())


def test_an_edition_name_climbing_out_of_out_is_refused_and_nothing_is_deleted(sandbox):
    edit(sandbox / "ed", lambda c: c.update(name="./../../victim"))
    out = sandbox / "out" / "a" / "b"
    before = snapshot(sandbox)
    done = run_builder(sandbox / "ed", out)
    assert done.returncode == 1, done.stderr
    assert "'name' must be a plain name" in done.stderr and "'./../../victim'" in done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    assert snapshot(sandbox) == before  # the victim folder is there, and --out was not even created
    for name in ("..", ".hidden", "a/b", "a\\b", "", "x" * 65, 7):
        edit(sandbox / "ed", lambda c: c.update(name=name))
        assert "'name'" in refused(sandbox / "ed")


@pytest.mark.parametrize("key", ["terms", "logo", "page", "public_file"])
def test_files_outside_the_edition_folder_are_refused(sandbox, key):
    folder = sandbox / "ed"
    (folder / "pages" / "link.md").symlink_to(sandbox / "secret.md")
    (folder / "pages" / "dirlink").symlink_to(sandbox, target_is_directory=True)
    (folder / "pages" / "loop").symlink_to("loop")

    def set_path(value):
        def change(c):
            if key == "page":
                c["pages"] = [{"title": "Overview", "file": value}]
            elif key == "public_file":
                c["public_files"] = [value]
            else:
                c[key] = value

        edit(folder, change)

    before = snapshot(sandbox)
    for value, message in [
        (str(sandbox / "secret.md"), "no absolute path"),
        ("../secret.md", "no absolute path"),
        ("pages/../../secret.md", "no absolute path"),
        ("pages/link.md", "leads outside the edition folder through a symbolic link"),
        ("pages/dirlink/secret.md", "leads outside the edition folder through a symbolic link"),
        ("pages/loop/secret.md", "pages/loop/secret.md -> a loop of symbolic links"),
    ]:
        set_path(value)
        text = refused(folder)
        assert message in text and value[:40] in text, (value, text)  # long paths are cut at 80
    assert {k: v for k, v in snapshot(sandbox).items() if k != "ed/edition.yaml"} == {
        k: v for k, v in before.items() if k != "ed/edition.yaml"
    }


def test_dataset_ids_must_be_plain_names(sandbox):
    folder = sandbox / "ed"

    def change(c):
        c["datasets"]["../../../../../escaped_ds"] = c["datasets"].pop("sim")
        c["tracks"][0]["dataset"] = "../../../../../escaped_ds"

    edit(folder, change)
    before = snapshot(sandbox)
    done = run_builder(folder, sandbox / "out")
    assert done.returncode == 1 and "'dataset id' must be a plain name" in done.stderr, done.stderr
    assert snapshot(sandbox) == before


def test_dataset_paths_outside_the_data_folder_are_refused_before_anything_is_written(sandbox):
    folder = sandbox / "ed"
    outside = sandbox / "outside_data"
    shutil.copytree(folder / "data" / "sim", outside)
    (folder / "data" / "linked").symlink_to(outside, target_is_directory=True)
    cases = [
        ("sim", {"path": str(outside)}, "no absolute path"),
        ("sim", {"path": "../outside_data"}, "no absolute path"),
        ("sim", {"path": "data/linked"}, "through a symbolic link"),
        ("nli", {}, "through a symbolic link"),
        (
            "sim",
            {"importer": "semeval_sts", "track": "../../outside", "path": "data/sim"},
            "must stay inside",
        ),
        ("sim", {"splits": {"test": {"path": "../outside_data"}}}, "no absolute path"),
    ]
    for dataset, change, message in cases:
        if dataset == "nli":  # a file of the release folder that links outside
            (folder / "data" / "nli" / "test.jsonl").rename(
                folder / "data" / "nli" / "real_test.jsonl"
            )
            (folder / "data" / "nli" / "test.jsonl").symlink_to(outside / "test.jsonl")
        edition = load_edition(folder)
        source = dict(edition.datasets[dataset], **change)
        edition.datasets[dataset] = source
        before = snapshot(sandbox)
        with pytest.raises(ConfigError) as caught:
            build(edition, folder, sandbox / "out")
        assert message in str(caught.value), (change, str(caught.value))
        assert snapshot(sandbox) == before  # --out not even created
        if dataset == "nli":
            (folder / "data" / "nli" / "test.jsonl").unlink()
            (folder / "data" / "nli" / "real_test.jsonl").rename(
                folder / "data" / "nli" / "test.jsonl"
            )
    import_data(load_edition(folder), folder)  # links that stay inside are fine


def test_a_symlink_at_the_output_place_is_replaced_not_followed(sandbox):
    folder = sandbox / "ed"
    edit(folder, lambda c: c.update(baselines=[]))
    out = sandbox / "out"
    out.mkdir()
    (out / "small").symlink_to(sandbox / "victim", target_is_directory=True)
    (out / "small.zip").symlink_to(sandbox / "victim" / "keep.txt")
    before = snapshot(sandbox, skip=out)
    summary = build(load_edition(folder), folder, out)
    assert summary.tree == out / "small" and not summary.tree.is_symlink() and summary.tree.is_dir()
    assert not (out / "small.zip").is_symlink()
    assert snapshot(sandbox, skip=out) == before
    assert (sandbox / "victim" / "keep.txt").read_text() == "must survive\n"


BOMB_LEVELS = "abcdefghi"


def billion_laughs() -> str:
    """Nine levels of ten aliases: 10**9 strings from under 4 KB of YAML."""
    lines = ['lol0: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for level, (prev, anchor) in enumerate(zip(BOMB_LEVELS, BOMB_LEVELS[1:] + "j"), start=1):
        lines.append(f"lol{level}: &{anchor} [" + ", ".join([f"*{prev}"] * 10) + "]")
    return "\n".join(lines)


def test_a_yaml_alias_bomb_is_refused_fast_within_bounded_memory(sandbox):
    folder = sandbox / "ed"
    config = (folder / "edition.yaml").read_text()
    bomb = "x-laughs:\n  " + billion_laughs().replace("\n", "\n  ") + "\ndescription: *j\n"
    (folder / "edition.yaml").write_text(bomb + config.replace("description:", "x-description:"))
    assert (
        folder / "edition.yaml"
    ).stat().st_size < 4096  # a whole config of under 4 KB, for 10**9 strings
    limit = (
        "import resource; resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30)); "
        "import sys; sys.argv = ['build_bundle.py', '--edition', sys.argv[1], '--out', sys.argv[2]]; "
        f"sys.path.insert(0, {str(REPO)!r}); from codajudge.programs.build import main; sys.exit(main())"
    )
    done = subprocess.run(
        [sys.executable, "-c", limit, str(folder), str(sandbox / "out")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1, done.stderr
    assert (
        f"aliases expand to more than {MAX_EXPANDED_NODES:,} values (an alias bomb?)" in done.stderr
    )
    assert "Traceback" not in done.stderr
    assert not (sandbox / "out").exists()


def test_yaml_aliases_that_stay_small_still_work_and_cycles_are_refused(sandbox):
    edition = load_edition(
        REPO / "editions" / "sts2017"
    )  # shares one fallback source through an alias
    assert len({id(source["fallback"]) for source in edition.datasets.values()}) == 1
    folder = sandbox / "ed"
    config = (folder / "edition.yaml").read_text()
    (folder / "edition.yaml").write_text("x-loop: &loop [1, *loop]\n" + config)
    assert "nested too deeply, or an alias inside its own node" in refused(folder)
    (folder / "edition.yaml").write_text("[" * 5000 + "]" * 5000)
    assert "not a usable YAML config: nested too deeply" in refused(folder)


@pytest.mark.parametrize(
    "key, value",
    [
        ("execution_time_limit", 10**20),
        ("execution_time_limit", "1e20"),
        ("execution_time_limit", 1.0e20),
        ("execution_time_limit", 0),
        ("max_submissions", 2**40),
        ("max_submissions_per_day", -1),
        ("seed", 2**40),
        ("bootstrap_resamples", 10**9),
        ("seed", True),
    ],
)
def test_numbers_outside_a_sane_range_are_refused(sandbox, key, value):
    folder = sandbox / "ed"
    if key in ("seed", "bootstrap_resamples"):
        edit(folder, lambda c: c.update({key: value}))
    else:
        edit(folder, lambda c: c["phases"][1].update({key: value}))
    text = refused(folder)
    assert f"'{key}' must be a whole number from" in text and repr(value)[:20] in text


def test_the_shipped_editions_pass_the_new_checks():
    for folder in sorted((REPO / "editions").iterdir()):
        if (folder / "edition.yaml").is_file():
            load_edition(folder)
