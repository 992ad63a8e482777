"""Tiny M2M100 and NLLB translation models built offline in a second or two, for the seq2seq
engine's real tokenizers, language tokens and ``generate``. The M2M100 one is trained for a
moment to copy LINES (so it ends its outputs with an end-of-sequence token, and its output
can be checked); the NLLB one is random.

In transformers 5.x ``len(tokenizer)`` of an M2M100 tokenizer is smaller than its largest
language-token id, so the embedding is sized from the largest id, not from ``len``."""

from __future__ import annotations

import io
import json
from pathlib import Path

LINES = [
    "The cat sat on the mat.", "यह एक छोटा वाक्य है।", "Write a short poem about the sea.", "मैं घर जा रहा हूँ।",
    "Answer in exactly three paragraphs.", "भारत एक बड़ा देश है।", "Hello world, how are you?",
    "क्या आप मेरी मदद कर सकते हैं?", "Use at least {{1}} words and end with {{2}}.",
]
SPECIALS = {"<s>": 0, "<pad>": 1, "</s>": 2, "<unk>": 3}


def _model(vocab_size: int, seed: int):
    import torch
    from transformers import M2M100Config, M2M100ForConditionalGeneration

    config = M2M100Config(vocab_size=vocab_size, d_model=32, encoder_layers=1, decoder_layers=1,
                          encoder_attention_heads=2, decoder_attention_heads=2, encoder_ffn_dim=64, decoder_ffn_dim=64,
                          max_position_embeddings=256, dropout=0.0, attention_dropout=0.0, activation_dropout=0.0,
                          pad_token_id=1, bos_token_id=0, eos_token_id=2, decoder_start_token_id=2)
    torch.manual_seed(seed)
    return M2M100ForConditionalGeneration(config)


def _train_to_copy(model, tokenizer, language: str, steps: int) -> None:
    """A few hundred Adam steps on LINES -> LINES (target ``language``): enough to memorise them."""
    import torch

    tokenizer.tgt_lang = language
    batch = tokenizer(LINES, text_target=LINES, return_tensors="pt", padding=True)
    labels = batch.pop("labels")
    labels[labels == tokenizer.pad_token_id] = -100
    optimiser = torch.optim.Adam(model.parameters(), lr=1e-2)
    model.train()
    for _ in range(steps):
        loss = model(**batch, labels=labels).loss
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
    model.eval()


def build_tiny_m2m100(folder: str | Path, seed: int = 0, train_steps: int = 300) -> Path:
    """A 120-piece SentencePiece model trained on LINES, its vocab.json, an M2M100Tokenizer and a
    one-layer encoder-decoder taught to copy LINES into Hindi, saved to ``folder``."""
    import sentencepiece as spm
    from transformers import M2M100Tokenizer

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    proto = io.BytesIO()
    spm.SentencePieceTrainer.train(sentence_iterator=iter(LINES * 4), model_writer=proto, vocab_size=120,
                                   model_type="unigram", character_coverage=1.0, bos_id=-1, eos_id=-1, unk_id=0,
                                   pad_id=-1, hard_vocab_limit=False, minloglevel=2)
    (folder / "sentencepiece.bpe.model").write_bytes(proto.getvalue())
    pieces = spm.SentencePieceProcessor(model_proto=proto.getvalue())
    vocab = dict(SPECIALS)
    for i in range(pieces.get_piece_size()):
        vocab.setdefault(pieces.id_to_piece(i), len(vocab))
    (folder / "vocab.json").write_text(json.dumps(vocab, ensure_ascii=False), encoding="utf-8")
    tokenizer = M2M100Tokenizer(str(folder / "vocab.json"), str(folder / "sentencepiece.bpe.model"), src_lang="en")
    largest = max(max(tokenizer.get_vocab().values()), *tokenizer.lang_token_to_id.values())
    model = _model(largest + 1, seed)
    if train_steps:
        _train_to_copy(model, tokenizer, "hi", train_steps)
    tokenizer.save_pretrained(folder)
    model.save_pretrained(folder)
    return folder


def build_tiny_nllb(folder: str | Path, seed: int = 0) -> Path:
    """An NllbTokenizer over the characters of LINES (no merges: nothing to train) with the
    FLORES-200 language tokens, and a random one-layer M2M100 model, saved to ``folder``."""
    from transformers import NllbTokenizer

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    vocab = {**SPECIALS, "▁": 4}
    for char in sorted({c for line in LINES for c in line if not c.isspace()}):
        vocab.setdefault(char, len(vocab))
    tokenizer = NllbTokenizer(vocab=vocab, merges=[], src_lang="eng_Latn")
    tokenizer.save_pretrained(folder)
    _model(max(tokenizer.get_vocab().values()) + 1, seed).eval().save_pretrained(folder)
    return folder
