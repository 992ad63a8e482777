#!/usr/bin/env bash
# Smoke test of `indicifeval run --backend vllm` on a GPU machine, with a tiny random model
# built locally (no model download). Exits non-zero on any failure.
#
#   benchmarks/gpu_smoke_vllm.sh              # uses this python if it has vllm, else makes a venv
#   PYTHON=/path/to/python WORK=/tmp/smoke GPU_MEM=0.3 benchmarks/gpu_smoke_vllm.sh
#
# Checks: one generation per item, the chat-template hash in the manifest, a rerun that
# generates nothing, `--thinking off` reaching the chat template (longer prompts: the template
# pre-fills an empty think block), and data parallelism when two or more GPUs are visible.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK="${WORK:-$(mktemp -d -t indicifeval-vllm-smoke.XXXXXX)}"
GPU_MEM="${GPU_MEM:-0.4}"
PYTHON="${PYTHON:-python3}"
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false
mkdir -p "$WORK"
echo "== work folder: $WORK"

if ! "$PYTHON" -c "import vllm" 2>/dev/null; then
    echo "== vllm not importable with $PYTHON: creating $WORK/venv and installing vllm"
    "$PYTHON" -m venv "$WORK/venv"
    PYTHON="$WORK/venv/bin/python"
    "$PYTHON" -m pip install -q --upgrade pip
    "$PYTHON" -m pip install -q vllm
fi
if ! "$PYTHON" -c "import indicifeval" 2>/dev/null || [ "${REINSTALL:-0}" = 1 ]; then
    "$PYTHON" -m pip install -q -e "$REPO"
fi
"$PYTHON" -c "import vllm, torch; print('vllm', vllm.__version__, '| torch', torch.__version__, '| GPUs', torch.cuda.device_count())"

MODEL="$WORK/tiny-model"
# head size 64 (hidden 256 / 4 heads): every vLLM attention backend supports it
"$PYTHON" -c "import sys; sys.path.insert(0, '$REPO/tests/runs'); from tiny_model import build_tiny_model; \
print('== tiny model:', build_tiny_model('$MODEL', hidden_size=256, num_heads=4))"

run() {  # run OUT [extra args...]
    local out="$1"; shift
    "$PYTHON" -m indicifeval.cli run --backend vllm --model "$MODEL" --data sample --languages hi,en --limit 2 \
        --max-tokens 16 --gpu-memory-utilization "$GPU_MEM" --out "$out" "$@"
}

check() {  # check OUT: every item generated once, hash recorded; prints the summary
    "$PYTHON" - "$1" <<'EOF'
import json, sys
from pathlib import Path
out = Path(sys.argv[1])
manifest = json.loads((out / "manifest.json").read_text())
gens = [json.loads(x) for x in (out / "generations.jsonl").read_text().splitlines()]
assert manifest["status"] == "complete", manifest["status"]
assert len(gens) == manifest["items"] == len({g["uid"] for g in gens}) > 0, (len(gens), manifest["items"])
assert manifest["backend"]["name"] == "vllm" and manifest["backend"]["chat_template_hash"], manifest["backend"]
for g in gens:
    assert g["finish_reason"] in ("stop", "length"), g
    assert 0 < g["usage"]["completion_tokens"] <= 16 and g["usage"]["prompt_tokens"] > 0, g
summary = json.loads((out / "summary.json").read_text())
print(json.dumps({"overall": summary.get("overall"), "run": summary.get("run")}, ensure_ascii=False, indent=1))
print(f"OK {out}: {len(gens)} items, {sum(g['truncated'] for g in gens)} hit the token limit")
EOF
}

echo "== run (model default thinking)"
run "$WORK/run-default"
check "$WORK/run-default"

echo "== rerun: must generate nothing"
run "$WORK/run-default" | tee "$WORK/rerun.log"
grep -q "0 generated" "$WORK/rerun.log"

echo "== run --thinking off"
run "$WORK/run-off" --thinking off
check "$WORK/run-off"
"$PYTHON" - "$WORK/run-default" "$WORK/run-off" <<'EOF'
import json, sys
from pathlib import Path
def prompt_tokens(folder):
    return {g["uid"]: g["usage"]["prompt_tokens"] for g in map(json.loads, (Path(folder) / "generations.jsonl").read_text().splitlines())}
default, off = prompt_tokens(sys.argv[1]), prompt_tokens(sys.argv[2])
assert default.keys() == off.keys()
assert all(off[u] > default[u] for u in default), "--thinking off did not reach the chat template"
print("OK --thinking off reached the chat template (empty think block in every prompt)")
EOF

GPUS="$("$PYTHON" -c "import torch; print(torch.cuda.device_count())")"
if [ "$GPUS" -ge 2 ]; then
    echo "== run --data-parallel 2"
    run "$WORK/run-dp" --data-parallel 2
    check "$WORK/run-dp"
else
    echo "== skipped --data-parallel 2 (only $GPUS GPU visible)"
fi
echo "== vLLM smoke test passed"
