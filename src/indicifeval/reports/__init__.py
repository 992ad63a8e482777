"""Analyses across runs: the paper's tables, disparity Δ, categories, thinking, uncertainty,
and the Markdown/CSV/JSON/plot/HTML outputs."""
