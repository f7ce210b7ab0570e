"""Shared test fixtures and markers."""

import fcntl
import os
import pickle
import re
import shutil
from pathlib import Path
from typing import Callable

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"
SHARED_CHECKER = REPO.parent / "shared" / "tools" / "codabench_check.py"

#: Test modules of the scoring engine and its readers that CI reruns with numpy 1.26.4 / scipy 1.11.4 (the hostile
#: corpus runs once: it is dominated by process start-up, not by the libraries).
PLATFORM_MODULES = (
    "test_metrics",
    "test_scoring",
    "test_stats",
    "test_fuzz",
    "test_submission_rules",
)


@pytest.hookimpl(
    tryfirst=True
)  # before pytest-xdist's own hook, which reads the groups into the node ids
def pytest_collection_modifyitems(config, items):
    if RERUN_LIST:
        _keep_only_listed(config, items)
    for item in items:
        module = item.module.__name__.split(".")[-1]
        if module.startswith(PLATFORM_MODULES):
            item.add_marker(pytest.mark.platform)
        if _uses_a_shared_fixture_of_its_module(item) and not item.get_closest_marker(
            "xdist_group"
        ):
            # test.sh runs pytest-xdist with --dist loadgroup: the tests of one group go to one worker,
            # so a module's bundles, corpus runs or editions are built once, not once per worker. A
            # module whose shared fixture builds one thing per parameter (test_editions: an edition per
            # ``name``) says so in XDIST_GROUP_BY: then each parameter's tests are a group of their own.
            param = getattr(item, "callspec", None) and item.callspec.params.get(
                getattr(item.module, "XDIST_GROUP_BY", None)
            )
            item.add_marker(pytest.mark.xdist_group(f"{module}-{param}" if param else module))


def _uses_a_shared_fixture_of_its_module(item) -> bool:
    """Whether the test uses a module- or session-scoped fixture defined in a test module."""
    info = getattr(item, "_fixtureinfo", None)
    for definitions in info.name2fixturedefs.values() if info else ():
        definition = definitions[-1]
        if definition.scope in ("module", "session") and definition.baseid.endswith(".py"):
            return True
    return False


#: CI sets this to a file: every test (or module) that skips is appended to it, one node id a line, so
#: that .ci/run can run in the development tree exactly what a fresh clone without ../shared skipped.
SKIPPED_LIST = os.environ.get("CODAJUDGE_SKIPPED_LIST")


#: CI sets this to the file SKIPPED_LIST wrote in the clone without ../shared: only the tests listed there
#: run (a listed module: all of its tests), so that no test runs twice and none is left out. Node ids are
#: compared exactly, and one that matches no collected test is an error, not a silent gap in coverage.
RERUN_LIST = os.environ.get("CODAJUDGE_RERUN_LIST")


def _keep_only_listed(config, items) -> None:
    wanted = _rerun_list()
    # A listed parametrization not collected here (ids made from ../shared's data, or pytest's "NOTSET" for a
    # parameter list that was empty without it): all parametrizations of that test function run.
    missing = wanted - {item.nodeid for item in items}
    whole = {nodeid.split("[")[0] for nodeid in missing}
    kept = [
        item
        for item in items
        if item.nodeid in wanted
        or item.nodeid.split("::")[0] in wanted
        or item.nodeid.split("[")[0] in whole
    ]
    kept_ids = {id(item) for item in kept}
    config.hook.pytest_deselected(items=[item for item in items if id(item) not in kept_ids])
    items[:] = kept
    if not hasattr(
        config, "workerinput"
    ):  # under pytest-xdist the controller checks (the hook below)
        _stop_unless_all_collected(wanted, [item.nodeid for item in kept])


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node, ids):
    if RERUN_LIST:
        _stop_unless_all_collected(_rerun_list(), [_without_group(nodeid) for nodeid in ids])


def _rerun_list() -> set:
    with open(RERUN_LIST, encoding="utf-8") as f:
        return {line.strip() for line in f if line.strip()}


def _stop_unless_all_collected(wanted: set, nodeids) -> None:
    found = set(nodeids) | {nodeid.split("::")[0] for nodeid in nodeids}
    functions = {nodeid.split("[")[0] for nodeid in nodeids}
    unmatched = sorted(n for n in wanted - found if n.split("[")[0] not in functions)
    if unmatched:
        pytest.exit(
            f"{RERUN_LIST}: {len(unmatched)} listed test(s) not collected (name their modules on the "
            f"command line): {', '.join(unmatched[:5])}",
            returncode=4,
        )


def pytest_runtest_logreport(report):
    if SKIPPED_LIST and report.skipped:
        _append_skipped(report.nodeid)


def pytest_collectreport(report):
    if SKIPPED_LIST and report.skipped:
        _append_skipped(report.nodeid)


def _append_skipped(nodeid: str) -> None:
    with open(
        SKIPPED_LIST, "a", encoding="utf-8"
    ) as f:  # one short append per line: workers may write at once
        f.write(_without_group(nodeid) + "\n")


def _without_group(nodeid: str) -> str:
    return re.sub(
        r"@test_[\w.-]+$", "", nodeid
    )  # the xdist_group suffix --dist loadgroup adds (module[-param])


def shared_data(*parts) -> Path:
    """A path in ../shared/data, skipping the test when the releases are not beside the repository."""
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(
            f"{path} not found: the real releases live in ../shared/data beside the repository"
        )
    return path


def shared_checker() -> Path:
    """../shared/tools/codabench_check.py (the second opinion run in CI), skipping the test when absent."""
    if not SHARED_CHECKER.is_file():
        pytest.skip(
            f"{SHARED_CHECKER} not found: the offline Codabench validator lives in ../shared/tools"
        )
    return SHARED_CHECKER


class BundleCache:
    """Bundles built once for the whole run: each is built in ``root/KEY/`` by the first worker that
    asks for it, under a file lock (``root/KEY.lock``) that pytest-xdist's other workers wait on,
    and its ``BuildSummary`` is kept beside it (``summary.pickle``) for them to load. The trees are
    shared: a test that changes a bundle copies it first."""

    def __init__(self, root: Path):
        self.root = root
        root.mkdir(parents=True, exist_ok=True)

    def get(self, key: str, build: Callable[[Path], object]):
        """The summary ``build(folder)`` returns, built into ``root/KEY/`` once for all workers."""
        folder = self.root / key
        kept = self.root / f"{key}.summary.pickle"
        with open(self.root / f"{key}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not kept.exists():
                shutil.rmtree(folder, ignore_errors=True)
                kept.write_bytes(pickle.dumps(build(folder)))
        return pickle.loads(kept.read_bytes())

    def small(self, test_items: int = 14, legacy: bool = False):
        """The small test edition (``small_edition.make_edition``) with ``test_items`` items in each
        test split, built for Codabench v2 or, with ``legacy``, for CodaLab v1.5."""
        from codajudge.bundle.build import build
        from codajudge.bundle.edition import load_edition
        from codajudge.legacy.build import build_legacy
        from small_edition import make_edition

        def made(folder: Path):
            edition = load_edition(make_edition(folder / "edition", test_items=test_items))
            return (build_legacy if legacy else build)(edition, edition.folder, folder / "dist")

        return self.get(f"small-{test_items}-{'legacy' if legacy else 'v2'}", made)

    def shipped(self, name: str, data_root: Path, legacy: bool = False):
        """The shipped edition ``name`` read from ``data_root``, for v2 or (``legacy``) v1.5."""
        from codajudge.bundle.build import build
        from codajudge.bundle.edition import load_edition
        from codajudge.legacy.build import build_legacy

        def made(folder: Path):
            edition = load_edition(REPO / "editions" / name)
            return (build_legacy if legacy else build)(edition, data_root, folder)

        return self.get(f"{name}-{'legacy' if legacy else 'v2'}", made)

    def run(self, tree: Path, submission: str, phase: str):
        """(scores, outputs folder) of ``submission`` run through the local runner on ``phase`` of
        ``tree`` (the repository's root or a bundle of this cache) once for all workers: for tests
        of several modules that check the same run. Its outputs (``run_once``'s ``output``) are
        kept, shared, in the cache."""
        from codajudge.programs.run_local import run_once

        bundle = "root" if tree == REPO else "-".join(tree.relative_to(self.root).parts)
        key = f"run-{bundle}-{submission.replace(':', '-')}-{phase}"

        def made(folder: Path):
            return run_once(tree, submission, phase, output=folder)

        return self.get(key, made), self.root / key


@pytest.fixture(scope="session")
def bundles(tmp_path_factory) -> BundleCache:
    """The run's one bundle cache: under the base temp's parent, which pytest-xdist's workers share
    (each has its own base temp below it), or in the base temp of a run without workers."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    return BundleCache(shared / "bundle-cache")
