"""``python -m codajudge``: the same as the ``codajudge`` command."""

import sys

from .cli import main

sys.exit(main())
