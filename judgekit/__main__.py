"""``python -m judgekit``: the same as the ``judgekit`` command."""

import sys

from .cli import main

sys.exit(main())
