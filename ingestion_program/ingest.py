#!/usr/bin/env python3
"""Codabench ingestion program: ``python3 ingest.py INPUT_DATA OUTPUT SUBMISSION`` (see codajudge.programs.ingest).

In a built bundle the engine ``codajudge`` sits beside this file; in the repository (the source tree,
not an uploadable bundle) it is one folder up; an installed kit imports its own. Anywhere else the
script says so in one line and exits 1.
"""

import os
import sys

# first, in syntax every Python parses: the engine needs 3.9 (an older one, such as CodaLab's
# default image codalab/codalab-legacy:py37, would stop in a SyntaxError traceback)
if sys.version_info < (3, 9):
    sys.exit(
        "ingestion program: Python 3.9 or newer needed; expected 3.9+, found Python %d.%d.%d (%s). "
        "Set the competition's docker image (docker_image) to codalab/codalab-legacy:py312"
        % (sys.version_info[:3] + (sys.executable,))
    )

HERE = os.path.dirname(os.path.abspath(__file__))
ENGINE_HOME = next(
    (d for d in (HERE, os.path.dirname(HERE)) if os.path.isdir(os.path.join(d, "codajudge"))), None
)
if ENGINE_HOME is not None:
    sys.path.insert(0, ENGINE_HOME)
else:
    import importlib.util  # an installed kit (pip install .) runs its packaged copy of this script

    if importlib.util.find_spec("codajudge") is None:
        sys.exit(
            "ingestion program: the codajudge engine is not beside this script: this is the source tree's copy; "
            "upload the bundle built by build_bundle.py (python3 build_bundle.py --out dist)"
        )

from codajudge.programs.ingest import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
