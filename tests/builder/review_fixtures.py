"""Build folders to review, made the way users make them: Trans folders by `build trans` with the
fake translator over the bundled sample's English rows (one row's prompt made hostile), and a
Ground folder from the sample's Tamil Ground rows."""

from __future__ import annotations

import json
from pathlib import Path

from indicifeval.builder.project import BuildFolder
from indicifeval.builder.trans.pipeline import EngineSpec, build_trans
from indicifeval.dataset import hub_record, load_rows

HOSTILE = '<script>window.pwned = 1</script><img src=x onerror="window.pwned = 2"></script> "quoted" & more'
TOKENS = {"asha": "asha-token-0123456789", "ravi": "ravi-token-0123456789",
          "admin": {"token": "admin-token-0123456789", "role": "admin"}}


def trans_folder(root: Path, language: str, hostile: bool = False) -> Path:
    out = root / f"{language}-trans"
    build_trans(out, language, "sample", EngineSpec("mock", "fake", {"answers": "fake:0"}))
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
