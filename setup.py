"""The optional compiled kernels; everything else is in pyproject.toml.

``indicifeval.text._langdetect_kernel`` runs langdetect's estimation in C with the same
floating-point operations as the pure-Python version it replaces (contraction into fused
multiply-adds is turned off, as it would round differently), looks up a line's words and makes
a new word's n-grams and a new n-gram's vector.
``indicifeval.text._scripts_kernel`` counts letters per script, tells whether a text is its own
NFC and counts words (the authors' Indic tokens, the corrected and IFEval patterns).
``indicifeval.scoring.implicit._kernel`` counts what the implicit
constraints of the reward compare (words, word 4-grams, lines) in one pass. All are optional:
where no compiler is found the package installs without them and the Python versions are used."""

import sys

from setuptools import Extension, setup

_NO_CONTRACTION = [] if sys.platform == "win32" else ["-ffp-contract=off"]  # MSVC: /fp:precise by default

setup(ext_modules=[
    Extension("indicifeval.text._langdetect_kernel", ["src/indicifeval/text/_langdetect_kernel.c"],
              extra_compile_args=_NO_CONTRACTION, optional=True),
    Extension("indicifeval.scoring.implicit._kernel", ["src/indicifeval/scoring/implicit/_kernel.c"], optional=True),
    Extension("indicifeval.text._scripts_kernel", ["src/indicifeval/text/_scripts_kernel.c"], optional=True),
])
