"""The same inputs give the same bytes, whatever the process: the sample scored in two fresh
interpreters with different hash seeds (set and dict order, str hashes) writes identical
scores.jsonl and summary.json, in both modes."""

import os
import subprocess
import sys

import pytest


@pytest.mark.parametrize("mode", ["fixed", "paper"])
def test_scores_are_byte_identical_across_hash_seeds(tmp_path, mode):
    outputs = []
    for seed in ("0", "12345"):
        out = tmp_path / f"seed-{seed}"
        env = dict(os.environ, PYTHONHASHSEED=seed)
        done = subprocess.run([sys.executable, "-m", "indicifeval", "score", "--data", "sample", "--scoring", mode,
                               "--out", str(out), "--quiet"], env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        outputs.append({name: (out / name).read_bytes() for name in ("scores.jsonl", "summary.json", "rows.jsonl",
                                                                        "responses.jsonl")})
    assert outputs[0] == outputs[1]
