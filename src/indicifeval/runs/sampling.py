"""Repeated samples of a run (``run --samples N``): which uid and which seed each sample has.

Sample ``s`` of a row is asked under the row's uid with ``#s<s>`` appended (sample 0 keeps the
row's own uid, so a run of one sample, and every run made before samples existed, is sample 0
of itself and resumes as it is), with the seed ``seed + s`` (the run's ``--seed`` plus the
sample's number: sample 0 is asked exactly as a one-sample run with that seed, and adding
samples later never changes the earlier ones). Greedy decoding gives the same answer every
time, so more than one greedy sample is refused unless asked for."""

from __future__ import annotations

from dataclasses import replace

from indicifeval.core.errors import InputError
from indicifeval.runs.requests import SamplingSettings

SEED_SCHEME = "seed + sample (sample 0 uses the run's seed)"


def sample_uid(uid: str, sample: int) -> str:
    """The uid of sample ``sample`` of the item ``uid``."""
    return uid if sample == 0 else f"{uid}#s{sample}"


def sample_settings(settings: SamplingSettings, sample: int) -> SamplingSettings:
    """The settings sample ``sample`` is asked with: the run's, its seed moved on by ``sample``."""
    return settings if sample == 0 else replace(settings, seed=settings.seed + sample)


def check_samples(samples: int, settings: SamplingSettings, allow_greedy: bool = False) -> None:
    """Refuse what would give no information: fewer than one sample, or several greedy ones."""
    if samples < 1:
        raise InputError(f"--samples must be at least 1, got {samples}", field="samples")
    if samples > 1 and settings.temperature == 0 and not allow_greedy:
        raise InputError(f"--samples {samples} with greedy decoding (temperature 0) asks for the same answer "
                         f"{samples} times: identical samples carry no information. Set --temperature above 0, or "
                         f"pass --allow-greedy-samples (e.g. to measure a server's nondeterminism)", field="samples")


__all__ = ["SEED_SCHEME", "check_samples", "sample_settings", "sample_uid"]
