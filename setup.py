"""The optional compiled kernel; everything else is in pyproject.toml.

``indicifeval.text._langdetect_kernel`` runs langdetect's estimation in C with the same
floating-point operations as the pure-Python version it replaces. It is optional: where no
compiler is found the package installs without it and the Python version is used.
Contraction into fused multiply-adds is turned off, as it would round differently."""

import sys

from setuptools import Extension, setup

_NO_CONTRACTION = [] if sys.platform == "win32" else ["-ffp-contract=off"]  # MSVC: /fp:precise by default

setup(ext_modules=[Extension("indicifeval.text._langdetect_kernel", ["src/indicifeval/text/_langdetect_kernel.c"],
                             extra_compile_args=_NO_CONTRACTION, optional=True)])
