"""Shared test fixtures and markers."""

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"
SHARED_CHECKER = REPO.parent / "shared" / "tools" / "codabench_check.py"

#: Test modules of the scoring engine and its readers that CI reruns with numpy 1.26.4 / scipy 1.11.4 (the hostile
#: corpus runs once: it is dominated by process start-up, not by the libraries).
PLATFORM_MODULES = ("test_metrics", "test_scoring", "test_stats", "test_fuzz", "test_fastpaths")


def pytest_collection_modifyitems(items):
    for item in items:
        if item.module.__name__.split(".")[-1].startswith(PLATFORM_MODULES):
            item.add_marker(pytest.mark.platform)


def shared_data(*parts) -> Path:
    """A path in ../shared/data, skipping the test when the releases are not beside the repository."""
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} not found: the real releases live in ../shared/data beside the repository")
    return path


def shared_checker() -> Path:
    """../shared/tools/codabench_check.py (the second opinion run in CI), skipping the test when absent."""
    if not SHARED_CHECKER.is_file():
        pytest.skip(f"{SHARED_CHECKER} not found: the offline Codabench validator lives in ../shared/tools")
    return SHARED_CHECKER
