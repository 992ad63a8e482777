"""The seq2seq engine on tiny M2M100 and NLLB models built in the test session: the forced
target-language token, batching, finish reasons, determinism, language codes per family."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("torch", reason="needs torch (the CPU build is enough: pip install torch, as .ci/run does)")
pytest.importorskip("transformers")
pytest.importorskip("sentencepiece")

from indicifeval.builder.trans.translator import translator  # noqa: E402
from indicifeval.core.errors import InputError  # noqa: E402
from indicifeval.runs.backends.base import BackendError, MissingDependency  # noqa: E402
from indicifeval.runs.backends.seq2seq import (  # noqa: E402
    Seq2SeqOptions,
    Seq2SeqTranslator,
    detect_family,
    language_code,
)
from indicifeval.runs.backends.spec import ModelSpec  # noqa: E402
from indicifeval.runs.requests import GenerationRequest, SamplingSettings  # noqa: E402
from tests.builder.tiny_m2m100 import LINES, build_tiny_m2m100, build_tiny_nllb  # noqa: E402


@pytest.fixture(scope="session")
def m2m100_dir(tmp_path_factory):
    return build_tiny_m2m100(tmp_path_factory.mktemp("tiny-m2m100"))


@pytest.fixture(scope="session")
def nllb_dir(tmp_path_factory):
    return build_tiny_nllb(tmp_path_factory.mktemp("tiny-nllb"))


@pytest.fixture(scope="session")
def hindi(m2m100_dir):
    return Seq2SeqTranslator(str(m2m100_dir), Seq2SeqOptions(target_language="hi"))


def translate(backend, texts, max_tokens: int = 64) -> list:
    settings = SamplingSettings(max_tokens=max_tokens)
    results: list = []
    backend.generate([GenerationRequest(f"hi/trans/{i}", [{"role": "user", "content": t}], settings)
                      for i, t in enumerate(texts)], results.append)
    return results


def recording(backend):
    """Wrap the model's generate to keep what it returned."""
    calls: list = []
    original = backend.model.generate

    def generate(**kwargs):
        out = original(**kwargs)
        calls.append((kwargs, out))
        return out

    backend.model.generate = generate
    return calls


def test_the_forced_token_is_the_targets_and_is_not_in_the_text(hindi):
    calls = recording(hindi)
    try:
        results = translate(hindi, LINES)
    finally:
        del hindi.model.generate
    kwargs, out = calls[0]
    lang_id = hindi.tokenizer.get_lang_id("hi")
    assert kwargs["forced_bos_token_id"] == lang_id and (out[:, 1] == lang_id).all()
    assert hindi.tokenizer.src_lang == "en" and hindi.family == "m2m100"
    assert all("__" not in r.output for r in results)
    # the model was taught to copy: its output is the input, decoded through the real tokenizer
    assert sum(r.output == line for r, line in zip(results, LINES)) >= len(LINES) - 2


def test_batching_keeps_order(m2m100_dir, hindi):
    texts = [*LINES, "", "The sea."]
    one_by_one = Seq2SeqTranslator(str(m2m100_dir), Seq2SeqOptions(target_language="hi", batch_size=1))
    batched = translate(hindi, texts)
    single = translate(one_by_one, texts)
    assert [r.uid for r in batched] == [f"hi/trans/{i}" for i in range(len(texts))]
    assert [r.output for r in batched] == [r.output for r in single]
    assert len({r.output for r in batched}) > 3  # the outputs depend on the input
    assert batched[len(LINES)].output == "" and batched[len(LINES)].finish_reason == "stop"


def test_finish_length_when_the_budget_runs_out_and_stop_otherwise(hindi):
    short = translate(hindi, LINES[:4], max_tokens=3)
    assert [r.finish_reason for r in short] == ["length"] * 4
    assert all(r.usage["completion_tokens"] == 3 for r in short)
    assert [r.finish_reason for r in translate(hindi, LINES[:4])] == ["stop"] * 4
    # a checkpoint that forces EOS at the limit would hide the cut: the engine turns that off
    hindi.model.generation_config.forced_eos_token_id = 2
    try:
        assert [r.finish_reason for r in translate(hindi, LINES[:2], max_tokens=3)] == ["length"] * 2
    finally:
        hindi.model.generation_config.forced_eos_token_id = None


def test_two_runs_are_equal(m2m100_dir, hindi):
    again = Seq2SeqTranslator(str(m2m100_dir), Seq2SeqOptions(target_language="hi"))
    first = [(r.output, r.finish_reason) for r in translate(hindi, LINES)]
    assert first == [(r.output, r.finish_reason) for r in translate(hindi, LINES)]
    assert first == [(r.output, r.finish_reason) for r in translate(again, LINES)]


def test_through_the_model_spec(m2m100_dir):
    """``--backend hf`` with an encoder-decoder model translates as seq2seq, bound to the language."""
    spec = translator(ModelSpec.of("hf", str(m2m100_dir)), "hi")
    assert spec.backend == "seq2seq" and spec.system is None
    backend = spec.open()
    results: list = []
    backend.generate([spec.request("hi/trans/0", LINES[0])], results.append)
    assert results[0].uid == "hi/trans/0" and results[0].finish_reason == "stop"
    assert backend.describe()["family"] == "m2m100" and backend.describe()["target_code"] == "hi"
    identity = spec.identity()
    assert identity["options"]["target_language"] == "hi"
    json.dumps(identity)  # recordable as it is


def test_a_language_m2m100_lacks_is_a_clear_error(m2m100_dir):
    with pytest.raises(InputError, match=r"m2m100.*Assamese \(as\)"):
        translator(ModelSpec.of("seq2seq", str(m2m100_dir), language="as"), "as").open()


def test_nllb_uses_flores_codes(nllb_dir):
    backend = Seq2SeqTranslator(str(nllb_dir), Seq2SeqOptions(target_language="or"))
    assert backend.family == "nllb" and backend.source_code == "eng_Latn" and backend.target_code == "ory_Orya"
    assert backend.tokenizer.src_lang == "eng_Latn"
    forced = backend.tokenizer.convert_tokens_to_ids("ory_Orya")
    assert backend.forced_bos_token_id == forced != backend.tokenizer.unk_token_id
    calls = recording(backend)
    results = translate(backend, LINES[:3], max_tokens=5)
    assert (calls[0][1][:, 1] == forced).all()
    assert all(r.finish_reason == "length" and "ory_Orya" not in r.output for r in results)
    assert Seq2SeqTranslator(str(nllb_dir), Seq2SeqOptions(target_language="as")).target_code == "asm_Beng"


def test_code_selection_and_family_detection_without_a_model():
    assert language_code("m2m100", "hi") == "hi" and language_code("nllb", "ne") == "npi_Deva"
    assert language_code("indictrans2", "or") == "ory_Orya"
    with pytest.raises(InputError, match="Telugu"):
        language_code("m2m100", "te")
    assert detect_family("IndicTrans", "IndicTransTokenizer") == "indictrans2"
    assert detect_family("m2m_100", "NllbTokenizer") == "nllb"
    assert detect_family("m2m_100", "M2M100Tokenizer") == "m2m100"
    with pytest.raises(BackendError, match="--family"):
        detect_family("t5", "T5Tokenizer")


def test_indictrans2_needs_the_users_consent(tmp_path):
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "IndicTrans"}), encoding="utf-8")
    with pytest.raises(BackendError, match="trust-remote-code"):
        Seq2SeqTranslator(str(tmp_path), Seq2SeqOptions(target_language="hi"))
    try:
        import IndicTransToolkit  # noqa: F401
    except ImportError:
        with pytest.raises(MissingDependency, match="IndicTransToolkit"):
            Seq2SeqTranslator(str(tmp_path), Seq2SeqOptions(target_language="hi", trust_remote_code=True))


class FakeProcessor:
    """IndicProcessor's shape: state kept from preprocess_batch to the next postprocess_batch."""

    def __init__(self):
        self.calls: list[tuple[str, int]] = []
        self.pending: list[str] | None = None

    def preprocess_batch(self, batch, src_lang, tgt_lang):
        assert self.pending is None, "preprocess twice without postprocess"
        self.calls.append(("pre", len(batch)))
        self.pending = list(batch)
        return [f"{src_lang} {tgt_lang} {s}" for s in batch]

    def postprocess_batch(self, sents, lang):
        assert self.pending is not None and len(sents) == len(self.pending)
        self.calls.append(("post", len(sents)))
        self.pending = None
        return [f"<{lang}>{s}" for s in sents]


def test_a_processor_is_called_in_lock_step_one_batch_at_a_time(m2m100_dir):
    backend = Seq2SeqTranslator(str(m2m100_dir), Seq2SeqOptions(target_language="hi", batch_size=4))
    backend.processor = processor = FakeProcessor()
    results = translate(backend, [*LINES, "   "], max_tokens=8)
    assert processor.calls == [("pre", 4), ("post", 4), ("pre", 4), ("post", 4), ("pre", 1), ("post", 1)]
    assert all(r.output.startswith("<hi>") for r in results[:-1]) and results[-1].output == "   "


def test_options():
    options = Seq2SeqOptions(target_language="hi")
    assert set(options.output_settings()) == {"device", "dtype", "batch_size", "trust_remote_code", "family",
                                              "target_language", "source_language", "num_beams"}
    with pytest.raises(InputError, match="family"):
        Seq2SeqOptions(target_language="hi", family="marian")
    with pytest.raises(InputError, match="target language"):
        Seq2SeqOptions()


def test_hf_with_an_encoder_decoder_model_builds_as_seq2seq(m2m100_dir, tmp_path):
    """``--engine hf`` names both transformers routes: an encoder-decoder model translates with
    its target-language token, through a whole build (the tiny model's output is noise, so
    rows may need review; what matters is that every stage runs and is recorded)."""
    from indicifeval.builder.project import BuildFolder
    from indicifeval.cli import main
    from indicifeval.dataset import load_rows

    rows = [r for r in load_rows("sample") if r.language == "en"][:4]
    source = tmp_path / "en.jsonl"
    source.write_text("".join(json.dumps(r.to_record(), ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    out = tmp_path / "hi"
    assert main(["build", "trans", str(out), "--lang", "hi", "--source", str(source), "--engine", "hf",
                 "--model", str(m2m100_dir), "--device", "cpu", "--quiet"]) == 0
    stages = BuildFolder(out).stages()
    assert stages["translate"].identity["model"]["backend"] == "seq2seq"
    assert stages["validate"].status == "complete" and stages["validate"].counts["rows"] == 4
