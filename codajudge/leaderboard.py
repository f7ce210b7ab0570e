"""Score a predictions folder against a phase of an edition from your own code, as the platform's
scoring program does: the leaderboard's numbers, without running the two steps.
"""

import tempfile
import warnings
from pathlib import Path

from .programs.run_local import kit_phase_task, open_bundle
from .programs.score import score_submission_folder
from .report import published_scores, submission_notes
from .spec import read_spec


def score_predictions(bundle, predictions, phase: str) -> dict[str, float]:
    """The scores.json of ``predictions`` on ``phase`` of ``bundle``: ``{"primary": ..., "<track
    id>_<metric>": ...}``, the leaderboard's keys, each metric's direction its own (the edition's
    Evaluation page says which).

    ``bundle``: a built bundle's folder or zip, or an unzipped starting kit (which scores the phases
    whose gold it holds: ``local``, and ``practice`` where that gold is public). ``predictions``:
    a folder of prediction files (as you would zip them) or a result zip. The values are those of
    scores.json: at full precision where the phase's gold is public, and where it is hidden (a
    bundle's evaluation phase) the leaderboard's, rounded to 4 decimals (``tracks.PRECISION``), as
    further digits would tell hidden items' gold. A phase the kit has no gold of, or a bundle or
    phase that is not there, raises ``codajudge.errors.UsageError``; a refused file raises
    ``codajudge.errors.SubmissionError`` with the message the scoring program would print (its
    ``problems``: ``Problem`` records). Each note the scoring program prints first (a file it
    ignored, a primary track not submitted, a constant prediction, rows renormalised) is issued as
    a ``UserWarning`` (``warnings.warn``) with its text; the scores are those of the leaderboard
    all the same.

    In an unzipped starting kit, ``score_predictions(".", "my_predictions", "local")``. A bundle
    that is not there is said so:

    >>> score_predictions("no_such_kit", "my_predictions", "local")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    codajudge.errors.UsageError: BUNDLE no_such_kit: not a bundle; ... found nothing at this path. ...
    """
    with tempfile.TemporaryDirectory(prefix="codajudge-scores-") as tmp:
        folder = open_bundle(Path(bundle), Path(tmp))
        reference = kit_phase_task(folder, phase, str(bundle), option="phase").reference_data
        result = score_submission_folder(read_spec(reference), reference, Path(predictions))
    for note in submission_notes(result):
        warnings.warn(note, stacklevel=2)
    return published_scores(result)
