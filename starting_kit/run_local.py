#!/usr/bin/env python3
"""Run a submission through the same two steps as Codabench, locally: python3 run_local.py --help.

The phases are the kit's own (its README's first commands name the one it scores). Examples,
inside a starting kit with a local phase (a validation split held out of the training data):
    python3 run_local.py . baseline:cosine_bow --phase local
    python3 run_local.py . sample_submissions/local_result_submission.zip --phase local --output out
"""

import os
import sys

# first, in syntax every Python parses: the engine needs 3.9 (an older one, such as CodaLab's
# default image codalab/codalab-legacy:py37, would stop in a SyntaxError traceback)
if sys.version_info < (3, 9):
    sys.exit(
        "run_local.py: Python 3.9 or newer needed; expected 3.9+, found Python %d.%d.%d (%s). "
        "Run it with Python 3.9 or newer (python3.12 run_local.py ...)"
        % (sys.version_info[:3] + (sys.executable,))
    )

HERE = os.path.dirname(os.path.abspath(__file__))
for candidate in (HERE, os.path.join(HERE, "scoring_program"), os.path.dirname(HERE)):
    if os.path.isdir(os.path.join(candidate, "codajudge", "runner")):
        sys.path.insert(0, candidate)
        break
else:
    import importlib.util  # an installed kit (pip install .) runs its packaged copy of this script

    if importlib.util.find_spec("codajudge") is None:
        sys.exit(
            "run_local.py: the codajudge engine is not beside this script: this is the source tree's copy; "
            "use the starting kit of a bundle built by build_bundle.py"
        )

from codajudge.programs.run_local import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
