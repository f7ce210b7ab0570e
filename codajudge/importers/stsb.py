"""STS Benchmark (English): ``sts-{train,dev,test}.csv``.

Options: ``path`` (the release folder) and optionally ``files`` (split -> file name; default
``sts-<split>.csv``).

Despite the suffix the files are tab-separated with no header and no quoting (sentences contain
``"``): ``genre file year id score sentence1 sentence2``. Some lines carry two more fields (source or
licence credits); only the first 7 are used. The genre ``main-forum`` of train is spelled
``main-forums`` in dev and test; both become ``main-forums``. Item ids are ``<split>-<line index>``
(0-based), because the file's own ``id`` field repeats within a split (e.g. 352 repeated values in
dev). Every item has ``lang`` ``en`` and its ``score`` (0-5, higher = more similar).
"""

from pathlib import Path

from ..errors import ConfigError, ProblemCollector
from .semeval_sts import parse_gold_score, tab_fields

FIELDS = ("genre", "file", "year", "id", "score", "sentence1", "sentence2")
#: Release spelling -> the kit's single spelling of a genre.
GENRE_SPELLINGS = {"main-forum": "main-forums"}


def split_file(source: dict, split: str) -> str:
    """The release file of ``split`` (``files``, else ``sts-<split>.csv``), also named by the
    "release not found" message (``importers.missing_releases``)."""
    return (source.get("files") or {}).get(split, f"sts-{split}.csv")


def load_split(source: dict, root: Path, split: str) -> list[dict]:
    """The STS-B items of ``split`` with their gold similarity ``score``."""
    path = Path(root) / source["path"] / split_file(source, split)
    problems = ProblemCollector(str(path))
    items = []
    for index, fields in tab_fields(path, FIELDS, problems, more=True):
        genre, _, _, _, score_text, sentence1, sentence2 = fields
        score = parse_gold_score(score_text, index + 1, problems)
        if score is not None:  # else a problem recorded
            items.append(
                {
                    "id": f"{split}-{index}",
                    "texts": [sentence1, sentence2],
                    "lang": "en",
                    "genre": GENRE_SPELLINGS.get(genre, genre),
                    "score": score,
                }
            )
    problems.raise_if_any(ConfigError)
    return items
