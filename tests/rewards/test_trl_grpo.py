"""End to end with a real ``trl.GRPOTrainer``: two optimisation steps on CPU, offline, of a tiny
randomly initialised causal LM (tokenizer trained here on the bundled sample's text), rewarded by
``indicifeval.rewards.trl()``. The rewards TRL logs (``rewards/indicifeval_all/mean``) and every
reward it was handed must equal what ``indicifeval score`` says of the same completions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("torch", reason="needs torch (the CPU build is enough: pip install torch, as .ci/run does)")
pytest.importorskip("trl", reason="needs trl: pip install trl after torch (or 'indicifeval[rl]'), as .ci/run does")
pytest.importorskip("datasets")
pytest.importorskip("tokenizers")

import torch  # noqa: E402
from datasets import Dataset  # noqa: E402
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers  # noqa: E402
from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast  # noqa: E402
from trl import GRPOConfig, GRPOTrainer  # noqa: E402

from indicifeval.cli import main as cli_main  # noqa: E402
from indicifeval.dataset import load_rows  # noqa: E402
from indicifeval.rewards import trl as trl_reward  # noqa: E402

SAMPLE = Path(__file__).resolve().parents[2] / "src" / "indicifeval" / "sample"

# rows of several languages and both subsets; the forbidden-words ones a random model nearly always
# passes, the rest it nearly always fails, so the logged means are neither all 0 nor all 1
KEYS = ("en-trans-08-pass", "en-trans-12-pass", "hi-ground-01-pass", "hi-trans-09-pass", "bn-ground-01-pass",
        "as-ground-02-pass", "ta-trans-01-pass", "mr-ground-01-pass")
METRIC = "rewards/{}/mean"  # trl/trainer/grpo_trainer.py: self._metrics[mode][f"rewards/{name}/mean"]


def _tokenizer(rows) -> PreTrainedTokenizerFast:
    """A byte-level BPE (vocab 800) trained on the sample's prompts and responses."""
    texts = [r.prompt for r in rows]
    for path in sorted(SAMPLE.glob("*.responses.jsonl")):
        with open(path, encoding="utf-8") as f:
            texts += [json.loads(line)["response"] or "" for line in f if line.strip()]
    tok = Tokenizer(models.BPE(unk_token=None))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=800, special_tokens=["<pad>", "<eos>"],
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    tok.train_from_iterator(texts, trainer=trainer)
    return PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="<pad>", eos_token="<eos>", padding_side="left")


def _model(tokenizer: PreTrainedTokenizerFast) -> LlamaForCausalLM:
    torch.manual_seed(0)
    config = LlamaConfig(vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                         num_attention_heads=2, num_key_value_heads=2, max_position_embeddings=1024,
                         pad_token_id=tokenizer.pad_token_id, eos_token_id=tokenizer.eos_token_id,
                         bos_token_id=tokenizer.eos_token_id, tie_word_embeddings=True)
    return LlamaForCausalLM(config)


def _score_with_cli(calls: list[dict], tmp_path: Path) -> dict[str, dict]:
    """``indicifeval score`` on every recorded completion, each its own row (key c<call>-<i>)."""
    rows_file, responses_file, out = tmp_path / "rows.jsonl", tmp_path / "responses.jsonl", tmp_path / "scores"
    with open(rows_file, "w", encoding="utf-8") as rf, open(responses_file, "w", encoding="utf-8") as pf:
        for c, call in enumerate(calls):
            for i, item in enumerate(call["items"]):
                key = f"c{c}-{i}"
                rf.write(json.dumps({"key": key, "language": item["language"], "subset": item["subset"],
                                     "prompt": item["prompt"], "instruction_id_list": item["instruction_id_list"],
                                     "kwargs": json.loads(item["kwargs"])}, ensure_ascii=False) + "\n")
                pf.write(json.dumps({"key": key, "response": item["completion"]}, ensure_ascii=False) + "\n")
    assert cli_main(["score", "--data", str(rows_file), "--responses", str(responses_file), "--out", str(out),
                     "--quiet"]) in (0, None)
    with open(out / "scores.jsonl", encoding="utf-8") as f:
        return {s["key"]: s for s in map(json.loads, f)}


def test_grpo_trainer_logs_the_scorers_verdicts(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("WANDB_DISABLED", "true")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "")

    by_key = {r.key: r for r in load_rows("sample")}
    rows = [by_key[k] for k in KEYS]
    assert {"en", "hi"} <= {r.language for r in rows}
    train = Dataset.from_list([{"prompt": r.prompt, "language": r.language, "subset": r.subset,
                                "instruction_id_list": list(r.instruction_id_list),
                                "kwargs": json.dumps(list(r.kwargs), ensure_ascii=False)} for r in rows])
    tokenizer = _tokenizer(list(by_key.values()))
    model = _model(tokenizer)

    # the plain reward (a random model writes gibberish, which the implicit constraints would zero)
    inner = trl_reward(reward="all", implicit=None)
    calls: list[dict] = []

    def recording(prompts, completions, **columns):
        rewards = inner(prompts=prompts, completions=completions, **columns)
        state = columns.get("trainer_state")
        calls.append({"step": state.global_step if state is not None else None, "items": [
            {"prompt": p, "completion": c, "language": lang, "subset": sub, "instruction_id_list": list(ids),
             "kwargs": kw, "reward": r}
            for p, c, lang, sub, ids, kw, r in zip(prompts, completions, columns["language"], columns["subset"],
                                                   columns["instruction_id_list"], columns["kwargs"], rewards,
                                                   strict=True)]})
        return rewards

    recording.__name__ = recording.__qualname__ = inner.__name__
    assert recording.__name__ == "indicifeval_all"

    args = GRPOConfig(output_dir=str(tmp_path / "out"), max_steps=2, per_device_train_batch_size=4,
                      num_generations=2, max_completion_length=24, logging_steps=1, report_to="none",
                      use_cpu=True, bf16=False, fp16=False, save_strategy="no", seed=0, data_seed=0,
                      learning_rate=1e-3, temperature=1.0, dataloader_num_workers=0, disable_tqdm=True,
                      log_completions=False)
    trainer = GRPOTrainer(model=model, reward_funcs=[recording], args=args, train_dataset=train,
                          processing_class=tokenizer)
    trainer.train()

    assert trainer.state.global_step == 2
    assert [c["step"] for c in calls] == [0, 1]  # one generation batch per optimisation step
    assert all(len(c["items"]) == 4 for c in calls)
    rewards = [item["reward"] for c in calls for item in c["items"]]
    assert 0 < sum(rewards) < len(rewards), rewards  # some pass, some fail: the comparisons below mean something

    scores = _score_with_cli(calls, tmp_path)
    assert len(scores) == 8
    for c, call in enumerate(calls):
        for i, item in enumerate(call["items"]):
            s = scores[f"c{c}-{i}"]
            assert s["instruction_id_list"] == item["instruction_id_list"]
            assert item["reward"] == float(s["prompt_strict"]), (item, s)

    metric = METRIC.format(inner.__name__)
    logged = [h for h in trainer.state.log_history if metric in h]
    assert [h["step"] for h in logged] == [1, 2]
    for c, h in enumerate(logged):
        verdicts = [float(scores[f"c{c}-{i}"]["prompt_strict"]) for i in range(len(calls[c]["items"]))]
        assert h[metric] == pytest.approx(sum(verdicts) / len(verdicts), abs=1e-6)
