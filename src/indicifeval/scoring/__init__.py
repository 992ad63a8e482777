"""Strict and loose scoring of rows, and the summary metrics."""
