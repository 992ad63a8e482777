"""A tiny, randomly initialised chat model built offline from the bundled sample.

It generates nonsense, but through the real tokenizer, chat template and ``generate`` code
paths, which is what backend tests need. Also used by ``benchmarks/gpu_smoke_vllm.sh``:

    python -c "import sys; sys.path.insert(0, 'tests/runs'); from tiny_model import build_tiny_model; \
build_tiny_model('/tmp/tiny')"
"""

from __future__ import annotations

from pathlib import Path

BOS, EOS, PAD = "<|bos|>", "<|eos|>", "<|pad|>"
ROLE_TOKENS = ["<|system|>", "<|user|>", "<|assistant|>"]
VOCAB_SIZE = 1000

# Renders system/user/assistant turns; like Qwen3, ``enable_thinking=False`` pre-fills an
# empty think block after the generation prompt. Absent or true: the model decides.
CHAT_TEMPLATE = (
    "{{ bos_token }}"
    "{% for message in messages %}"
    "<|{{ message['role'] }}|>{{ message['content'] }}{{ eos_token }}"
    "{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>"
    "{% if enable_thinking is defined and not enable_thinking %}<think>\n\n</think>\n\n{% endif %}"
    "{% endif %}"
)


def _texts() -> list[str]:
    from indicifeval.dataset import load_responses, load_rows

    texts = [row.prompt for row in load_rows("sample")]
    responses = load_responses("sample")
    texts += responses.texts()
    return [t for t in texts if t]


def build_tiny_model(folder: str | Path, seed: int = 0, hidden_size: int = 64, num_heads: int = 4) -> Path:
    """Train a byte-level BPE on the sample texts, wrap it with a chat template, and save it
    with a random 2-layer Llama (~200k parameters by default) to ``folder``. Returns the folder.

    GPU kernels (vLLM's attention backends) may not support the default head size of 16:
    pass e.g. ``hidden_size=256, num_heads=4`` (head size 64) there."""
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)

    raw = Tokenizer(models.BPE())
    raw.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    raw.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=VOCAB_SIZE,
        special_tokens=[PAD, BOS, EOS, *ROLE_TOKENS],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    raw.train_from_iterator(_texts(), trainer=trainer)

    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=raw,
        bos_token=BOS,
        eos_token=EOS,
        pad_token=PAD,
        additional_special_tokens=ROLE_TOKENS,
    )
    tokenizer.chat_template = CHAT_TEMPLATE
    tokenizer.save_pretrained(folder)

    torch.manual_seed(seed)
    config = LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=hidden_size,
        intermediate_size=2 * hidden_size,
        num_hidden_layers=2,
        num_attention_heads=num_heads,
        num_key_value_heads=num_heads,
        max_position_embeddings=2048,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
        tie_word_embeddings=True,
    )
    model = LlamaForCausalLM(config)
    model.generation_config.do_sample = False
    model.save_pretrained(folder)
    return folder


if __name__ == "__main__":
    import sys

    print(build_tiny_model(sys.argv[1] if len(sys.argv) > 1 else "tiny-model"))
