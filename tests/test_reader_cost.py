"""Issue 22, items 2 and 12: what a participant's line may cost the readers, and what they may print.

Every reader's work is linear in its input and bounded per line (docs/participant-checks.md, "What a
line may cost"): the cost is compared between two sizes (a ratio, not seconds, so a loaded machine
does not decide), or the work itself is counted. No numpy warning reaches the participant's stderr
from a message built on their values.
"""

from __future__ import annotations

import json
import time
import warnings

import numpy as np
import pytest

from judgekit.errors import SubmissionError
from judgekit.formats.soft import soft_label_rows
from judgekit.gold import build_gold
from judgekit.scoring import read_track_file
from judgekit.tracks import Track, track_from_dict

SOFT = track_from_dict(
    {"id": "soft", "kind": "soft_label", "scale": "categorical", "labels": ["0", "1"]}
)
ORDINAL = track_from_dict(
    {"id": "ord", "kind": "soft_label", "scale": "ordinal", "labels": ["0", "1", "2"]}
)
MULTI = ["a", "b", "c"]
MULTI_SOFT = track_from_dict(
    {"id": "ml", "kind": "soft_label", "scale": "multilabel", "labels": MULTI}
)
MULTI_PE = track_from_dict(
    {"id": "mlpe", "kind": "perspectivist", "scale": "multilabel", "labels": MULTI}
)
ITEMS = [
    {
        "id": f"i{k}",
        "texts": ["a", "b"],
        "annotators": ["A1", "A2"],
        "annotations": ["0", "1"] if k % 2 else ["1", "1"],
    }
    for k in range(3)
]
MULTI_ITEMS = [{**item, "annotations": [["a"], ["b", "c"]]} for item in ITEMS]


def _read(track: Track, items, rows, tmp_path):
    """The track's file of one line per item, ``rows[k]`` the value text of item k."""
    path = tmp_path / f"{track.id}.tsv"
    path.write_text("".join(f"{i['id']}\t{r}\n" for i, r in zip(items, rows)), encoding="utf-8")
    return read_track_file(path, path.name, build_gold(track, items, "gold"))


def _best_time(action, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - start)
    return best


def _literal_row(numbers: int) -> str:
    """A Python literal (a tuple, so not JSON) of ``numbers`` soft-label numbers."""
    return "(" + ", ".join(["0.5"] * numbers) + ")"


# --- item 12: no numpy warning from a message ------------------------------------------------------


@pytest.mark.parametrize(
    "track, items, row, message",
    [
        (SOFT, ITEMS, "[1e308, 1e308]", "soft label does not sum to 1"),
        (SOFT, ITEMS, '{"0": 1e308, "1": 1e308}', "soft label does not sum to 1"),
        (ORDINAL, ITEMS, "[1e308, 1e308, 1e308]", "soft label does not sum to 1"),
        (ORDINAL, ITEMS, "[0.01, 1e308, 1e308, 1e308]", "soft label does not sum to 1"),
        (
            MULTI_SOFT,
            MULTI_ITEMS,
            "[[0.5, 0.5], [1e308, 1e308], [0.5, 0.5]]",
            "pair for 'b' does not sum to 1",
        ),
    ],
)
def test_a_sum_that_overflows_is_named_without_a_numpy_warning(
    track, items, row, message, tmp_path
):
    """The message's ``row.sum()`` overflowed: numpy's RuntimeWarning, with its internal path, reached
    the participant's stderr, and the message said "found sum inf" of finite values."""
    good = json.dumps([[0.5, 0.5]] * 3) if track is MULTI_SOFT else json.dumps([0.5, 0.5])
    good = json.dumps([0.25, 0.5, 0.25]) if track is ORDINAL else good
    with warnings.catch_warnings(record=True) as caught, pytest.raises(SubmissionError) as error:
        warnings.simplefilter("always")
        _read(track, items, [good, row, good], tmp_path)
    assert [str(w.message) for w in caught] == []
    assert str(error.value) == (
        f"{track.id}.tsv, line 2, item 'i1': {message}; expected a sum within 0.02 of 1, found "
        "values too large to add up (the sum overflows; the largest value is 1e+308). Divide each "
        "value by the row's sum"
    )


def test_no_numpy_operation_of_the_soft_rules_warns_on_extreme_values():
    """Every rule's message, on the extremes of a float: numpy is silent, and no message says inf."""
    extreme = [1e308, -1e308, 5e-324, 0.0, 1.7976931348623157e308]
    rows = [[a, b] for a in extreme for b in extreme]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _, bad, problem, _ = soft_label_rows(SOFT, rows)
        shown = [problem(j).found for j in np.flatnonzero(bad).tolist()]
    assert len(shown) == int(bad.sum()) > 0
    assert not any("inf" in found for found in shown)
