import sys

from indicifeval.cli import main

sys.exit(main())
