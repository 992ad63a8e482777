"""``python -m indicifeval``: the command line."""

import sys

from indicifeval.cli import main

sys.exit(main())
