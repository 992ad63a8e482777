"""Task functions for tests/builder/test_executors.py: top level in an importable module, since
spawned processes and Ray workers import them by name."""

import os
import time


def slow_square(x: int) -> dict:
    """Durations vary with x (0-80 ms) so that tasks finish out of order."""
    time.sleep((x * 7 % 5) * 0.02)
    return {"x": x, "square": x * x}


def fail_last(x: int) -> int:
    """Task 7 fails, late, so tasks 0-6 have finished by then."""
    if x == 7:
        time.sleep(0.3)
        raise ValueError(f"bad shard {x}\nsecond line")
    return x * 10


def die_on_two(x: int) -> int:
    """Task 2 kills its worker process, as the OOM killer would."""
    if x == 2:
        os._exit(13)
    time.sleep(0.05)
    return x
