"""Runs made from the bundled sample through the loopback server, with models of different
quality (weaker in Indic languages than in English; thinking helps), for report tests and demos."""

from __future__ import annotations

import hashlib
from pathlib import Path

from indicifeval.dataset import load_responses, load_rows
from indicifeval.runs.runner import DataOptions, run
from indicifeval.testing.fake_server import FakeOpenAIServer, ServerConfig
from tests.runs.specs import spec

# model -> (failure rate in English, in the Indic languages); thinking halves both
MODELS = {
    "demo/Llama-3.2-3B-Instruct": (0.25, 0.65),
    "demo/Qwen3-8B": (0.15, 0.45),
    "demo/gemma-3-27b-it": (0.05, 0.2),
}


def _answers():
    responses = load_responses("sample")
    good, bad, language = {}, {}, {}
    for row in load_rows("sample"):
        text = responses.lookup(row)
        (good if str(row.key).endswith("-pass") else bad)[row.prompt] = text
        language[row.prompt] = row.language
    return good, bad, language


def _answer_fn():
    good, bad, language = _answers()

    def answer(request: dict) -> str:
        prompt = request["messages"][-1]["content"]
        en_rate, indic_rate = MODELS.get(request["model"], (0.5, 0.5))
        rate = en_rate if language.get(prompt) == "en" else indic_rate
        if (request.get("chat_template_kwargs") or {}).get("enable_thinking"):
            rate /= 2
        draw = int(hashlib.sha256(f"{request['model']}|{prompt}".encode()).hexdigest()[:8], 16) / 0xFFFFFFFF
        return bad.get(prompt, good.get(prompt, "")) if draw < rate else good.get(prompt, "")

    return answer


def make_demo_runs(folder: str | Path) -> list[Path]:
    folder = Path(folder)
    runs = []
    with FakeOpenAIServer(ServerConfig(answer_fn=_answer_fn(), reasoning="separate")) as server:
        for model in MODELS:
            for thinking in ((False, True) if "Qwen3" in model else (None,)):
                name = model.split("/")[-1] + {None: "", False: "-nothink", True: "-think"}[thinking]
                out = folder / name
                run(spec(model, "openai", {"base_url": server.url, "concurrency": 16}, thinking=thinking), out,
                    DataOptions(source="sample"))
                runs.append(out)
    return runs


def make_named_runs(folder: str | Path, models: list[str]) -> list[Path]:
    """Each model without and with thinking (models not in MODELS fail half the prompts): runs
    with every language of the sample, under names of one's choosing (long ones, for layout)."""
    folder = Path(folder)
    runs = []
    with FakeOpenAIServer(ServerConfig(answer_fn=_answer_fn(), reasoning="separate")) as server:
        for i, model in enumerate(models):
            for thinking in (False, True):
                out = folder / f"m{i}-{'think' if thinking else 'nothink'}"
                run(spec(model, "openai", {"base_url": server.url, "concurrency": 16}, thinking=thinking), out,
                    DataOptions(source="sample"))
                runs.append(out)
    return runs


if __name__ == "__main__":
    import sys

    for path in make_demo_runs(sys.argv[1] if len(sys.argv) > 1 else "runs/demo"):
        print(path)
