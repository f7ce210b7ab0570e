"""Recorded outcomes of the readers: one JSON file per concern in ``tests/hostile/recorded/``.

A recording holds, per named case, what a reader gave: ``['ok', ...summary]`` or ``['error', type,
full message]``. The tests replay every case and compare it with the recording, one test per case,
so a changed message fails under its own name. No test edits a recording or its expectations: when
a message changes on purpose, re-record every concern with one command and review the diff (it
lists each changed case) in the commit that changes the message:

    python3 tests/hostile/recordings.py            # rewrite the recordings, list the changed cases
    python3 tests/hostile/recordings.py --check    # list the changed cases, write nothing (exit 1 if any)

The concerns: ``submission-corpus`` (the hostile corpus's single track files),
``submission-variants`` (valid files edited the ways participants write them),
``submission-fuzz`` (fuzzed contents, stored in the recording), ``gold`` (item files and gold built
from mutated items), ``textfile`` (the text-file reader over fixed inputs and bounds) and
``archive`` (the archive and folder readers over the corpus's zips and folders).
"""

from __future__ import annotations

import json
import sys
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Callable, Dict, List

HERE = Path(__file__).resolve().parent
FOLDER = HERE / "recorded"

if __name__ == "__main__":  # run as a script: the repository and tests/ on the path
    sys.path[:0] = [str(HERE.parents[1]), str(HERE.parent)]


def _submission_cases() -> Dict[str, dict]:
    from hostile import record_submission

    with tempfile.TemporaryDirectory() as tmp:
        return {case.pop("name"): case for case in record_submission.record(Path(tmp))}


@lru_cache(maxsize=1)
def _submission_cases_once() -> Dict[str, dict]:
    return _submission_cases()


def _submission_concern(prefix: str) -> Callable[[], Dict[str, dict]]:
    """The submission cases of one concern: by their name's prefix ('' for the corpus's)."""

    def cases() -> Dict[str, dict]:
        chosen = {}
        for name, case in _submission_cases_once().items():
            if submission_concern_of(name) == prefix:
                chosen[name] = case
        return chosen

    return cases


def submission_concern_of(name: str) -> str:
    """'fuzz', 'variant' or '' (the hostile corpus) for a submission case's name."""
    for prefix in ("fuzz", "variant"):
        if name.startswith(prefix + "-"):
            return prefix
    return ""


def _gold() -> Dict[str, list]:
    from hostile import gold_cases

    return gold_cases.outcomes()


def _textfile() -> Dict[str, list]:
    from hostile import textfile_outcomes

    return textfile_outcomes.record()


def _archive() -> Dict[str, list]:
    from hostile import archive_outcomes

    return json.loads(json.dumps(archive_outcomes.record()))


#: concern -> the function that records it (case name -> recorded case).
CONCERNS: Dict[str, Callable[[], dict]] = {
    "submission-corpus": _submission_concern(""),
    "submission-variants": _submission_concern("variant"),
    "submission-fuzz": _submission_concern("fuzz"),
    "gold": _gold,
    "textfile": _textfile,
    "archive": _archive,
}


def path_of(concern: str) -> Path:
    return FOLDER / f"{concern}.json"


def recorded(concern: str) -> dict:
    """The recording of ``concern``: case name -> what was recorded."""
    return json.loads(path_of(concern).read_text(encoding="utf-8"))


def serialise(cases: dict) -> str:
    """A recording's text: sorted by case name, one key a line, so that a diff names each case."""
    return json.dumps(cases, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def changed_cases(old: dict, new: dict) -> List[str]:
    """The case names added, removed or recorded differently."""
    return sorted(name for name in set(old) | set(new) if old.get(name) != new.get(name))


def main(argv: List[str]) -> int:
    check = "--check" in argv
    any_change = False
    for concern, record in CONCERNS.items():
        new = json.loads(json.dumps(record()))
        path = path_of(concern)
        old = recorded(concern) if path.exists() else {}
        changed = changed_cases(old, new)
        any_change = any_change or bool(changed)
        print(f"{concern}: {len(new)} cases, {len(changed)} changed")
        for name in changed[:50]:
            print(f"  {name}")
        if not check and changed:
            FOLDER.mkdir(exist_ok=True)
            path.write_text(serialise(new), encoding="utf-8")
    return 1 if check and any_change else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
