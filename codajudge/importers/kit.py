"""The kit's own format: ``<path>/<split>.jsonl`` item files (see ``formats.items``). Without a
``train.jsonl`` the dataset has no training split (an optional one)."""

from pathlib import Path

from ..formats.items import read_items
from . import SplitAbsent


def load_split(source: dict, root: Path, split: str) -> list[dict]:
    path = Path(root) / source["path"] / f"{split}.jsonl"
    if not path.is_file():
        raise SplitAbsent.single(
            str(path),
            f"the {split} split is missing",
            hint=f"write {split}.jsonl in the kit's item format",
        )
    return read_items(path)
