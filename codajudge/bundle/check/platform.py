"""What the bundle checker reads from one form of ``competition.yaml``: its rules and where its
phases name their data, pages and kits. Codabench v2 is ``v2.PLATFORM``; CodaLab v1.5 is
``codajudge.legacy.check.PLATFORM``, given by the command line (``codajudge check``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List, Tuple

from .findings import Findings


@dataclass(frozen=True)
class Platform:
    """One ``competition.yaml`` form, chosen by the yaml's ``version`` (a missing one reads "1")."""

    versions: Tuple[str, ...]
    #: The expected ``version`` as a message gives it.
    version_text: str
    #: The form's own rules: keys, pages, phases, programs, leaderboard.
    check: Callable[[dict, Path, Findings], None]
    #: The keys the scoring program must write (the leaderboard's columns it does not compute).
    score_keys: Callable[[dict], List[str]]
    #: (phase name, reference_data path) of every scored phase, in phase order.
    phase_references: Callable[[dict], List[Tuple[str, str]]]
    #: reference_data path -> the input_data path of the same task or phase.
    inputs_of: Callable[[dict], Dict[str, str]]
    #: What participants can see or their code can read: pages, kits, public and input data.
    published_paths: Callable[[dict], List[str]]
    #: Whether phases have end dates, so that phase_gold's rule on rescored items applies.
    has_phase_ends: bool
