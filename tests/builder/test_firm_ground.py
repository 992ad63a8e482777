"""The build half's everyday paths lose nothing: --force on any stage re-asks nothing already
answered and deletes no cache; a phrase-table edit reruns only what depends on it; the same build
resumes from another directory, with absolute paths and after a move; a torn last line (a full
disk mid-append) is repaired; untranslated or wrong-language output is never auto-ok; a corpus in
another script is refused before any request; a build with no rows is an error."""

from __future__ import annotations

import errno
import json
import shutil
from pathlib import Path

import pytest

from indicifeval.builder.ground.pipeline import MiningOptions, build_ground
from indicifeval.builder.trans.pipeline import TransSettings, build_trans
from indicifeval.cli import main
from indicifeval.core.errors import InputError, OutputError
from indicifeval.core.log import JsonlLog
from indicifeval.dataset import load_rows
from indicifeval.runs.backends.mock import MockBackend
from indicifeval.runs.backends.spec import ModelSpec
from tests.builder.corpus_fixture import corpus_path

SMALL = MiningOptions(top_k=300, shard_bytes=100_000)
TRANS_STAGES = ("plan", "pretranslate", "translate", "assemble", "validate")
GROUND_STAGES = ("shards", "vocab", "features", "select", "requests", "generate", "rows")


def _fake() -> ModelSpec:
    return ModelSpec.of("mock", "fake", {"answers": "fake:0"})


def _lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def _asked(done) -> int:
    return sum(r.counts.get("asked", 0) for r in done.values() if r.ran)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> str:
    return corpus_path("hi", tmp_path_factory.mktemp("corpus"))


def test_force_on_every_trans_stage_reasks_nothing_and_keeps_every_translation(tmp_path):
    out = tmp_path / "hi"
    first = build_trans(out, "hi", "sample", _fake())
    assert _asked(first) > 0
    rows, mt = (out / "trans" / "rows.jsonl").read_bytes(), _lines(out / "trans" / "mt.jsonl")
    for name in TRANS_STAGES:
        done = build_trans(out, "hi", "sample", _fake(), force=[name])
        assert done[name].reran_because == "--force" and _asked(done) == 0, name
        assert _lines(out / "trans" / "mt.jsonl") == mt and (out / "trans" / "rows.jsonl").read_bytes() == rows


def test_force_on_every_ground_stage_reasks_nothing_and_keeps_every_reply(tmp_path, corpus):
    out = tmp_path / "g"
    gen = ModelSpec.of("mock", "fake", {"answers": "fake:0.2"})
    first = build_ground(out, "hi", corpus, None, gen, executor="serial", mining=SMALL)
    assert first["generate"].counts["asked"] > 0 and first["rows"].counts["rows"] > 0
    rows, replies = (out / "ground" / "rows.jsonl").read_bytes(), _lines(out / "ground" / "generations.jsonl")
    for name in GROUND_STAGES:
        done = build_ground(out, "hi", corpus, None, gen, executor="serial", mining=SMALL, force=[name])
        assert done[name].reran_because == "--force" and _asked(done) == 0, name
        assert _lines(out / "ground" / "generations.jsonl") == replies
        assert (out / "ground" / "rows.jsonl").read_bytes() == rows, name


@pytest.mark.parametrize("protect", ["placeholder", "inline"])
def test_a_phrase_table_edit_reruns_what_depends_on_it_and_asks_only_what_it_changed(tmp_path, protect):
    """Placeholders: the engine never saw the word, so nothing is asked again. Inline: the
    units the edited word is written into are asked again (the engine must see the new word),
    and only those."""
    out, settings = tmp_path / "hi", TransSettings(protect=protect)
    first = build_trans(out, "hi", "sample", _fake(), settings=settings)
    table = out / "trans" / "pretranslations.jsonl"
    items = [json.loads(x) for x in table.read_text(encoding="utf-8").splitlines()]
    edited = next(i for i in items if i["role"] == "translate" and i["translation"])
    edited.update(translation="संपादितशब्द", status="edited")
    table.write_text("".join(json.dumps(i, ensure_ascii=False) + "\n" for i in items), encoding="utf-8")
    done = build_trans(out, "hi", "sample", _fake(), settings=settings)  # no --force: the edit is seen
    assert done["assemble"].ran
    if protect == "placeholder":
        assert done["assemble"].reran_because == "changed: inputs.pretranslations"
        assert not done["translate"].ran and _asked(done) == 0
    else:
        assert done["translate"].reran_because == "changed: inputs.pretranslations"
        assert 0 < _asked(done) <= len(edited["rows"]) < first["translate"].counts["asked"]
    assert "संपादितशब्द" in (out / "trans" / "rows.jsonl").read_text(encoding="utf-8")
    build_trans(out, "hi", "sample", _fake(), settings=settings, force=["pretranslate"])  # keeps the edit
    assert "संपादितशब्द" in table.read_text(encoding="utf-8")


def test_a_build_resumes_from_anywhere_and_after_a_move(tmp_path, corpus, monkeypatch):
    gen = ModelSpec.of("mock", "fake", {"answers": "fake:0.2"})
    (tmp_path / "a").mkdir()
    shutil.copy(corpus, tmp_path / "a" / "hi.jsonl")
    monkeypatch.chdir(tmp_path / "a")
    build_ground("g", "hi", "hi.jsonl", None, gen, executor="serial", mining=SMALL)
    rows = (tmp_path / "a" / "g" / "ground" / "rows.jsonl").read_bytes()
    monkeypatch.chdir(tmp_path)  # another directory, absolute paths
    again = build_ground(tmp_path / "a" / "g", "hi", str(tmp_path / "a" / "hi.jsonl"), None, gen,
                         executor="serial", mining=SMALL)
    assert not any(r.ran for r in again.values())
    shutil.move(tmp_path / "a", tmp_path / "b")  # the folder and the corpus moved
    moved = build_ground(tmp_path / "b" / "g", "hi", str(tmp_path / "b" / "hi.jsonl"), None, gen,
                         executor="serial", mining=SMALL, force=["vocab"])
    assert _asked(moved) == 0 and (tmp_path / "b" / "g" / "ground" / "rows.jsonl").read_bytes() == rows
    trans = build_trans(tmp_path / "t", "hi", "sample", _fake())
    shutil.move(tmp_path / "t", tmp_path / "t2")
    monkeypatch.chdir(tmp_path / "t2")
    assert not any(r.ran for r in build_trans(".", "hi", "sample", _fake()).values()) and trans


def test_a_torn_last_line_from_a_full_disk_is_repaired_and_the_resume_goes_on(tmp_path, monkeypatch, capsys):
    out = tmp_path / "hi"
    whole = tmp_path / "whole"
    build_trans(whole, "hi", "sample", _fake())
    real_append = JsonlLog.append
    calls = {"n": 0}

    def full_disk(self, record):  # the fifth record half written, then the disk is full
        calls["n"] += 1
        if calls["n"] == 5:
            self._fh.write(json.dumps(record)[:17])
            self._fh.flush()
            raise OutputError(f"{self.path}: no space left on the device") from OSError(errno.ENOSPC, "full")
        real_append(self, record)

    monkeypatch.setattr(JsonlLog, "append", full_disk)
    args = ["build", "trans", str(out), "--lang", "hi", "--source", "sample", "--backend", "mock", "--model", "fake",
            "--mock-answers", "fake:0", "--quiet"]
    assert main(args) == 1
    assert "no space left" in capsys.readouterr().err
    log = out / "trans" / "phrases-mt.jsonl"
    assert not log.read_bytes().endswith(b"\n")  # torn
    monkeypatch.setattr(JsonlLog, "append", real_append)
    assert main(args) == 0
    err = capsys.readouterr().err
    assert "dropped a torn last line" in err
    assert (out / "trans" / "rows.jsonl").read_bytes() == (whole / "trans" / "rows.jsonl").read_bytes()
    assert _lines(log) == _lines(whole / "trans" / "phrases-mt.jsonl")  # nothing asked twice


def test_an_echo_translator_stops_the_build_saying_why(tmp_path):
    """Every prompt came back in English: the build stops with one line naming it (after the
    validate stage has written its findings), and no row is auto-ok."""
    echo = MockBackend("m", script=lambda request: request.messages[-1]["content"])
    with pytest.raises(InputError, match="mostly in the Latn script, not Beng: the engine did not translate"):
        build_trans(tmp_path / "bn", "bn", "sample", ModelSpec.of("mock", "m"), backend=echo)
    rows = tmp_path / "bn" / "trans" / "rows.jsonl"
    assert not rows.exists() or all(json.loads(x)["status"] == "needs-review" for x in rows.read_text().splitlines())
    assert (tmp_path / "bn" / "trans" / "validation.jsonl").is_file()


def test_english_prompts_are_a_validator_error(tmp_path):
    rows = [r for r in load_rows("sample") if r.language == "en" and r.subset == "trans"]
    path = tmp_path / "ta.jsonl"
    path.write_text("".join(json.dumps({"key": r.key, "prompt": r.prompt, "instruction_id_list":
                                        list(r.instruction_id_list), "kwargs": [dict(k) for k in r.kwargs],
                                        "language": "ta", "subset": "trans"}) + "\n" for r in rows))
    assert main(["validate", str(path), "--out", str(tmp_path / "v.jsonl")]) == 1
    found = [json.loads(x) for x in (tmp_path / "v.jsonl").read_text().splitlines()]
    assert sum(f["check"] == "prompt_language" and f["severity"] == "error" for f in found) >= len(rows) - 2


def test_an_english_writing_prompt_writer_gives_no_rows_and_an_error(tmp_path, corpus):
    english = ('{"instruction": "Write a short essay about the history of this city and its people.", '
               '"constraint": "", "unsafe": false}')
    gen, ready = ModelSpec.of("mock", "m"), MockBackend("m", script=lambda request: english)
    with pytest.raises(InputError, match="identified as English \\(en\\), not Hindi .* the model wrote them in "
                       "another language or script"):
        build_ground(tmp_path / "g", "hi", corpus, None, gen, executor="serial", mining=SMALL, backend=ready)
    assert _lines(tmp_path / "g" / "ground" / "generations.jsonl") > 0  # paid for, and kept


@pytest.mark.parametrize("other", ["ta", "ur"])
def test_a_corpus_in_another_script_is_refused_before_any_request(tmp_path, other):
    asked = []
    gen, ready = ModelSpec.of("mock", "m"), MockBackend("m", script=lambda request: asked.append(1) or "{}")
    with pytest.raises(InputError, match=r"in the Deva script of hi; 100% are in"):
        build_ground(tmp_path / "g", "hi", corpus_path(other, tmp_path), None, gen, executor="serial", mining=SMALL,
                     backend=ready)
    assert asked == [] and not (tmp_path / "g" / "ground" / "requests.jsonl").exists()


def test_bad_corpus_lines_are_skipped_and_counted(tmp_path, corpus):
    bad = tmp_path / "bad.jsonl"
    lines = Path(corpus).read_bytes().splitlines(keepends=True)
    dup = json.loads(lines[1])
    dup["doc_id"] = json.loads(lines[0])["doc_id"]
    bad.write_bytes(b"".join(lines) + json.dumps(dup, ensure_ascii=False).encode() + b"\n"
                    + b'{"doc_id": "s", "text": "\\ud800 x"}\n' + b'{"doc_id": "u", "text": "\xff\xfe"}\n'
                    + b"[" * 50_000 + b"]" * 50_000 + b"\n" + b'{"doc_id": [1], "text": "x"}\n')
    done = build_ground(tmp_path / "g", "hi", str(bad), None, ModelSpec.of("mock", "fake", {"answers": "fake:0"}),
                        executor="serial", mining=SMALL)
    vocab = done["vocab"].counts
    assert vocab["skipped_lone_surrogate"] == 1 and vocab["skipped_invalid_utf8"] == 1
    assert vocab["skipped_malformed"] == 1 and vocab["skipped_bad_doc_id"] == 1
    assert done["select"].counts["duplicate_doc_ids"] >= 1 and done["rows"].counts["rows"] > 0


def test_another_model_is_asked_anew_and_the_first_ones_replies_are_kept(tmp_path, corpus):
    out = tmp_path / "g"
    first = build_ground(out, "hi", corpus, None, ModelSpec.of("mock", "a", {"answers": "fake:0"}),
                         executor="serial", mining=SMALL)
    other = build_ground(out, "hi", corpus, None, ModelSpec.of("mock", "b", {"answers": "fake:0"}),
                         executor="serial", mining=SMALL)
    assert other["generate"].reran_because.startswith("changed: model.model")
    assert other["generate"].counts["asked"] == first["generate"].counts["asked"] > 0
    back = build_ground(out, "hi", corpus, None, ModelSpec.of("mock", "a", {"answers": "fake:0"}),
                        executor="serial", mining=SMALL)
    assert back["generate"].ran and back["generate"].counts["asked"] == 0


@pytest.fixture
def small_disk(tmp_path):
    """A 1.1 MB tmpfs (root only; skipped where mounting is not allowed), grown later by remount:
    it fills while translate appends to mt.jsonl."""
    import os
    import subprocess

    where = tmp_path / "disk"
    where.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1100k", "tmpfs", str(where)],
                                           capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        yield where, lambda: subprocess.run(["mount", "-o", "remount,size=16m", str(where)], check=True)
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def test_a_real_full_disk_mid_translation_stops_in_one_line_and_the_resume_completes(small_disk, tmp_path, capsys):
    from tests.conftest import shared_path

    source = shared_path("data", "indicifeval-en-source", "verified_dataset-en.jsonl")
    disk, grow = small_disk
    whole = build_trans(tmp_path / "whole", "hi", str(source), _fake())
    args = ["build", "trans", str(disk / "hi"), "--lang", "hi", "--source", str(source), "--backend", "mock",
            "--model", "fake", "--mock-answers", "fake:0", "--quiet"]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert "no space left on the device" in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    grow()
    assert main(args[:-1]) == 0
    assert "mt.jsonl: dropped a torn last line" in capsys.readouterr().err
    for name in ("rows.jsonl", "candidates.jsonl", "pretranslations.jsonl"):
        assert (disk / "hi" / "trans" / name).read_bytes() == (tmp_path / "whole" / "trans" / name).read_bytes()
    mt = [json.loads(x) for x in (disk / "hi" / "trans" / "mt.jsonl").read_text().splitlines()]
    assert len({m["content_hash"] for m in mt}) == len(mt) == whole["translate"].counts["asked"]  # none twice


def test_a_hand_edited_keyword_list_outlives_a_forced_vocab_stage(tmp_path, corpus):
    out = tmp_path / "g"
    gen = ModelSpec.of("mock", "fake", {"answers": "fake:0"})
    build_ground(out, "hi", corpus, None, gen, executor="serial", mining=SMALL)
    path = out / "ground" / "keywords.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join(lines[: len(lines) // 2]) + "\n", encoding="utf-8")  # a person keeps half
    edited = path.read_bytes()
    done = build_ground(out, "hi", corpus, None, gen, executor="serial", mining=SMALL)
    assert done["features"].reran_because == "changed: inputs.keywords"
    done = build_ground(out, "hi", corpus, None, gen, executor="serial", mining=SMALL, force=["vocab"])
    assert path.read_bytes() == edited and (out / "ground" / "keywords.ranked.jsonl").is_file()
    assert any("edited by hand" in n for n in done["vocab"].notes)
