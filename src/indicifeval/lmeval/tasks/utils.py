"""lm-eval resolves `!function utils.<name>` to this file; the hooks live in the installed package."""

import importlib

_hooks = importlib.import_module("indicifeval.lmeval.hooks")
_hooks.scoring_mode()  # a bad INDICIFEVAL_SCORING fails when the tasks load, not after generation
agg_inst_level_acc = _hooks.agg_inst_level_acc


def __getattr__(name):
    return getattr(_hooks, name)  # process_results_<subset>_<xx>, made on first use
