"""A name of ``indicifeval.languages`` stays what it is whatever was imported first: a submodule
named like a function would shadow it once loaded (``composition`` was both)."""

import subprocess
import sys


def test_listing_the_languages_first_does_not_break_the_checkers():
    code = ("from indicifeval.languages import get_profile, list_languages\n"
            "[get_profile(c) for c in list_languages()]\n"
            "import indicifeval.dataset, indicifeval.checkers\n"
            "from indicifeval.languages import composition\n"
            "assert callable(composition), composition\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
