"""Built-in baselines and the code-submission interface they follow.

Code submissions
================
A code submission is a folder (or a zip of its contents) holding ``model.py``, which defines::

    class Model:
        def __init__(self, track: dict): ...
        def fit(self, train_items: list) -> None: ...
        def predict(self, items: list) -> list: ...

- ``track`` describes one track: ``id``, ``kind`` (similarity | classification | soft_label |
  perspectivist), ``scale`` (categorical | ordinal | multilabel, for the last two kinds),
  ``labels`` (ordered), ``dataset``, ``title``, ``metrics`` ..., plus ``seed`` (an int to seed
  anything random, so that runs are reproducible). One ``Model`` instance serves one track.
- ``fit`` receives the training split: the kit's items WITH gold (``annotations``, ``score``,
  ``label``; see ``codajudge.formats.items``). It may be empty when an edition has no training data.
- ``predict`` receives the items to predict, public fields only (``id``, ``texts``, ``lang``,
  ``genre``, ``annotators``; never gold), and returns one value per item, in the same order:

  ============== =============== =============================================================
  kind           scale           value
  ============== =============== =============================================================
  similarity                     a float (0-5 in STS; only its correlation with gold matters)
  classification                 a label string from ``labels``
  soft_label     categorical,    a list of K probabilities in label order, summing to 1
                 ordinal
  soft_label     multilabel      a list of K pairs [P(not chosen), P(chosen)], one per label
  perspectivist  categorical,    a list of labels, one per entry of the item's ``annotators``,
                 ordinal         in that order
  perspectivist  multilabel      K lists of 0/1, one per label, each with one entry per
                                 annotator (label-major, as LeWiDi 2025); or a list of label
                                 lists, one per annotator
  ============== =============== =============================================================

  numpy arrays and numpy numbers are accepted wherever lists and floats are. ``predict`` may
  return ``None`` to skip a track: it is then reported as not submitted, as a result submission
  without that track's file.

The ingestion program (``codajudge.programs.ingest``) runs the model in a child process under the
phase's time limit, checks every value with the same parsers as the scoring program and writes
``<track_id>.tsv`` files. ``codajudge`` is importable from ``model.py``, so a baseline solution is
the one line ``from codajudge.baselines import CosineBow as Model``.

A submission folder without ``model.py`` is a result submission: its ``<track_id>.tsv`` files
(``id<TAB>value`` lines) are checked and passed on unchanged.

Baselines
=========
``random`` (``Random``), ``most_frequent`` (``MostFrequent``) and ``cosine_bow`` (``CosineBow``);
see each module for what it predicts per kind. All are deterministic: the same seed and data give
byte-identical predictions. Run one with ``python3 -m codajudge.programs.ingest --baseline NAME``.
"""

from ..errors import SubmissionError
from .base import BaselineModel
from .cosine_bow import CosineBow
from .most_frequent import MostFrequent
from .random_guess import Random

BASELINES: dict[str, type[BaselineModel]] = {
    "random": Random,
    "most_frequent": MostFrequent,
    "cosine_bow": CosineBow,
}


def baseline_class(name: str) -> type[BaselineModel]:
    """The baseline called ``name`` (``most-frequent`` and ``most_frequent`` are the same); KeyError if unknown."""
    return BASELINES[name.strip().lower().replace("-", "_")]


def known_baseline(name: str, given: str, prefix: str = "") -> type[BaselineModel]:
    """The baseline called ``name``; when there is none, a SubmissionError located at ``given``
    (what the user wrote) that lists the known names, each written after ``prefix``."""
    try:
        return baseline_class(name)
    except KeyError:
        raise SubmissionError.single(
            given,
            "no built-in baseline has this name",
            expected="one of " + ", ".join(prefix + known for known in BASELINES),
            found=repr(name),
        ) from None
