"""Build folders to review, made the way users make them: Trans folders by `build trans` with the
fake translator over the bundled sample's English rows (one row's prompt made hostile), and a
Ground folder from the sample's Tamil Ground rows."""

from __future__ import annotations

import json
from pathlib import Path

from indicifeval.builder.project import BuildFolder
from indicifeval.builder.trans.pipeline import build_trans
from indicifeval.dataset import hub_record, load_rows
from indicifeval.runs.backends.spec import ModelSpec

HOSTILE = '<script>window.pwned = 1</script><img src=x onerror="window.pwned = 2"></script> "quoted" & more'
TOKENS = {"asha": "asha-token-0123456789", "ravi": "ravi-token-0123456789",
          "admin": {"token": "admin-token-0123456789", "role": "admin"}}


def trans_folder(root: Path, language: str, hostile: bool = False) -> Path:
    out = root / f"{language}-trans"
    build_trans(out, language, "sample", ModelSpec.of("mock", "fake", {"answers": "fake:0"}))
    if hostile:
        path = out / "trans" / "rows.jsonl"
        rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
        rows[0]["prompt"] = HOSTILE + " " + rows[0]["prompt"]
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return out


def ground_folder(root: Path, language: str = "ta") -> Path:
    out = root / f"{language}-ground"
    BuildFolder(out).create(language)
    rows = [r for r in load_rows("sample") if r.language == language and r.subset == "ground"]
    (out / "ground").mkdir(parents=True, exist_ok=True)
    with (out / "ground" / "rows.jsonl").open("w", encoding="utf-8") as fh:
        for row in rows:
            record = {**hub_record(row), "language": language, "subset": "ground", "status": "auto-ok",
                      "reasons": [], "warnings": []}
            fh.write(json.dumps(record, ensure_ascii=False) + "\n")
    return out


def annotators_file(root: Path) -> Path:
    path = root / "annotators.json"
    path.write_text(json.dumps(TOKENS), encoding="utf-8")
    return path


def token(name: str) -> str:
    value = TOKENS[name]
    return value if isinstance(value, str) else value["token"]


SMALL_PLAN = {"keyword_frequency": {"2": 1}, "forbidden_word": 1, "number_sentences": {"3": 1},
              "number_paragraphs": {"2": 1}, "first_word": 1, "sentences_and_paragraphs": {"4 in 2": 1},
              "context_required_share": 0.2}


def built_ground_folder(root: Path, language: str = "ur") -> Path:
    """A Ground folder made by the Ground pipeline (fake prompt writer, a corpus written from the
    sample's words, one context per constraint of a small plan): its rows carry provenance and
    its ``ground/contexts.jsonl`` the passages they were written from."""
    from indicifeval.builder.ground.pipeline import MiningOptions, build_ground
    from tests.builder.corpus_fixture import synthetic_corpus

    corpus = synthetic_corpus(root / f"corpus-{language}.jsonl", language)
    plan = root / "small-plan.json"
    plan.write_text(json.dumps(SMALL_PLAN), encoding="utf-8")
    out = root / f"{language}-ground-built"
    build_ground(out, language, str(corpus), str(plan), ModelSpec.of("mock", "fake", {"answers": "fake:0"}),
                 executor="serial", mining=MiningOptions(top_k=300, shard_bytes=100_000))
    return out
