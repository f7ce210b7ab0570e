"""``codajudge new NAME``: write a new edition folder to fill in, then build it with ``codajudge build``.

    codajudge new NAME [--out DIR]      # writes DIR/NAME/ (default: ./NAME)

The folder holds ``edition.yaml`` (every key commented; a ``table`` dataset reading
``data/items.csv``; a ``local`` phase, so that the starting kit scores), an example CSV to replace
with the edition's own data, the kit's logo, and ``pages/overview.md`` and ``pages/terms.md`` marked
as placeholders: the builder refuses to ship them, or the placeholder ``title`` and
``description``, until they are rewritten (see ``bundle/placeholders.py``).
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import shutil
import sys
from pathlib import Path
from typing import List, Optional

from ..assets import kit_root
from ..confine import slug_problem
from ..errors import ConfigError
from .common import run_guarded, summary

CONFIG = """\
# Edition '{name}', written by `codajudge new`. Every key is described in docs/edition-config.md, and
# docs/edition.schema.json lets an editor complete and check this file.
# Build: codajudge build --edition {name} --data {name} --out dist   (paths below are relative to --data)
# Baselines: codajudge baselines {name} --data {name}
name: {name}
# Rewrite title and description (the builder refuses these placeholders): they head the competition.
title: "{title}"
description: >-
  {description}
logo: logo.png
# Rewrite both pages (the builder refuses the placeholders) with the task, the data's source and licence.
terms: pages/terms.md
pages:
  - {{title: Overview, file: pages/overview.md}}
seed: 1

# Dates are UTC, quoted. Each phase must start after the previous one ends.
phases:
  - id: practice
    start: "2028-01-10 00:00:00"
    end: "2028-02-27 23:59:59"
    split: dev
    public_gold: false   # true ships the dev gold in the starting kit (a YAML boolean, unquoted)
    max_submissions_per_day: 10
    max_submissions: 200
  - id: evaluation
    start: "2028-03-01 00:00:00"
    end: "2028-03-10 23:59:59"
    split: test
    max_submissions_per_day: 2
    max_submissions: 5
  - id: post-campaign
    start: "2028-03-11 00:00:00"
    split: test

# One table (CSV, TSV or JSON lines) cut into disjoint splits by a hash of (seed, id); replace
# data/items.csv with your own and name its columns. `where: {{COLUMN: VALUE}}` keeps some rows only;
# leave train out of `split` if there is no training data.
datasets:
  pairs:
    importer: table
    path: data/items.csv
    columns: {{id: id, texts: [sentence1, sentence2], score: score}}
    lang: en
    split: {{train: 0.5, dev: 0.25, test: 0.25, seed: 1}}

# The starting kit's local phase (python3 run_local.py . SUBMISSION --phase local): a seeded share of
# each dataset's training items, held out of the training data of that local run, its gold in the kit.
local: {{fraction: 0.2, seed: 1}}

# Track kinds: similarity, classification (labels: [...], quoted), soft_label and perspectivist
# (with a scale). `metrics` picks the track's metrics (default: the kind's). A metric of your own:
# write it in a Python file of this folder and name the file here (README: an edition's own metric).
# metrics_module: metrics.py
tracks:
  - {{id: sim, title: "Similarity", kind: similarity, dataset: pairs, range: [0, 5]}}

leaderboard: {{title: Results, key: main, submission_rule: Force_Last}}
baselines: [random, most_frequent, cosine_bow]
"""

OVERVIEW = """{mark}
# {title}

Describe the task: what systems predict, for which texts, and how they are ranked (the generated
Data, Evaluation and Baselines pages give the formats, metrics and baseline scores).
"""

TERMS = """{mark}
# Terms

State the data's source and licence, what participants may do with it, and the rules of the
competition. The example data in data/items.csv comes from the kit's default edition (CC0).
"""


def example_rows() -> List[dict]:
    """The default edition's English sample pairs, as the rows of the example table."""
    folder = kit_root() / "editions" / "default" / "data" / "sts_en"
    rows = []
    for split in ("train", "dev", "test"):
        for line in (folder / f"{split}.jsonl").read_text(encoding="utf-8").splitlines():
            if line.strip():
                item = json.loads(line)
                rows.append(
                    {
                        "id": item["id"],
                        "sentence1": item["texts"][0],
                        "sentence2": item["texts"][1],
                        "score": item["score"],
                    }
                )
    return rows


def csv_text(rows: List[dict]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def write_edition(name: str, out: Path) -> Path:
    """The new edition's folder ``out/name`` (refused if it exists or the name is not plain)."""
    from ..bundle.placeholders import PLACEHOLDER_MARK, PLACEHOLDER_TEXTS

    problem = slug_problem(name, "codajudge new", "NAME")
    if problem is not None:
        raise ConfigError([problem])
    folder = Path(out) / name
    if folder.exists():
        raise ConfigError.single(str(folder), "already exists", hint="choose another NAME or --out")
    title = PLACEHOLDER_TEXTS["title"].format(name=name)
    (folder / "pages").mkdir(parents=True)
    (folder / "data").mkdir()
    (folder / "edition.yaml").write_text(
        CONFIG.format(name=name, title=title, description=PLACEHOLDER_TEXTS["description"]),
        encoding="utf-8",
    )
    for page, text in (("overview.md", OVERVIEW), ("terms.md", TERMS)):
        (folder / "pages" / page).write_text(
            text.format(mark=PLACEHOLDER_MARK, title=title), encoding="utf-8"
        )
    (folder / "data" / "items.csv").write_text(csv_text(example_rows()), encoding="utf-8")
    shutil.copyfile(kit_root() / "editions" / "default" / "logo.png", folder / "logo.png")
    return folder


def invoked_as() -> str:
    """The kit's command as this process was started: ``python -m codajudge`` (a checkout's
    environment, where no ``codajudge`` script may be installed) or ``codajudge``."""
    return "python -m codajudge" if Path(sys.argv[0]).name == "__main__.py" else "codajudge"


def run(args) -> int:
    folder = write_edition(args.name, Path(args.out))
    kit = invoked_as()
    print(
        f"wrote {folder}: rewrite the title and description in edition.yaml, replace "
        f"data/items.csv, rewrite pages/overview.md and pages/terms.md, then:\n"
        f"  {kit} check {folder} --data {folder}\n"
        f"  {kit} build --edition {folder} --data {folder} --out dist"
    )
    return 0


def main(argv: Optional[List[str]] = None, prog: str = "codajudge new") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=summary(__doc__))
    parser.add_argument("name", help="the edition's name (a plain folder name)")
    parser.add_argument("--out", default=".", help="the folder to write NAME/ in (default: .)")
    args = parser.parse_args(argv)
    return run_guarded(lambda: run(args), prog)
