"""Results others can cite: a run folder exported in the common formats (Every Eval Ever's
aggregate record and instance JSONL, the Hub's ``.eval_results`` YAML), re-scored from its
export (``results verify``), pushed to a hub dataset and logged to an experiment tracker.
See docs/results.md."""
