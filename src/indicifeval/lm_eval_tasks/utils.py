"""lm-eval resolves `!function utils.<name>` to this file; the hooks live in the installed package."""

import importlib

_hooks = importlib.import_module("indicifeval.scoring.lm_eval_hooks")
globals().update({name: getattr(_hooks, name) for name in _hooks.__all__})
_hooks.scoring_mode()  # a bad INDICIFEVAL_SCORING fails when the tasks load, not after generation
