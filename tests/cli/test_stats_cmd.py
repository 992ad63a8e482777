"""``indicifeval stats`` through the real command line: the tables, --json and --markdown files,
--against with a differing instruction list, the hub's layout, and one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from indicifeval.cli import main
from indicifeval.dataset import hub_record, load_rows, write_hub_layout
from tests.conftest import shared_path


def _rows(tags: list[str]) -> list[dict]:
    picked = [r for r in load_rows("sample") if r.language == "hi" and r.key.endswith("-pass")]
    return [{**hub_record(r), "language": "hi", "subset": r.subset, "tags": tags} for r in picked]


def _jsonl(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


def _out(capsys) -> str:
    captured = capsys.readouterr()
    assert captured.err == "", captured.err
    return captured.out


def test_tables_json_and_markdown(tmp_path: Path, capsys):
    data = _jsonl(tmp_path / "rows.jsonl", _rows(["correct", "gold prompt", "Poem"]))
    out_json, out_md = tmp_path / "s.json", tmp_path / "s.md"
    assert main(["stats", str(data), "--json", str(out_json), "--markdown", str(out_md)]) == 0
    text = _out(capsys)
    for title in ("Rows per language and subset", "Verification tags", "trans: instructions",
                  "ground: integer kwargs", "ground: relation values", "trans: tags and statuses",
                  "trans: prompt lengths"):
        assert title in text
    assert text.rstrip().splitlines()[-1] == (f"{data}: 14 rows, 29 instructions (hi/trans 11, hi/ground 3); wrote "
                                              f"{out_json}, {out_md}")
    stats = json.loads(out_json.read_text(encoding="utf-8"))
    assert stats["format_version"] == 1 and stats["rows"] == 14 and stats["tagged"] is True
    assert stats["verification"][0] == {"language": "hi", "subset": "trans", "rows": 11, "correct": 11,
                                        "incorrect": 0, "gold_translation": 0, "silver_translation": 0,
                                        "gold_prompt": 11, "silver_prompt": 0, "parallel": 0,
                                        "parallel_instructions": 0, "parallel_correct": 0}
    ground = stats["subsets"]["ground"]
    assert ground["relations"]["keywords:frequency"] == {"relation": {"(none)": 1}}
    assert ground["other_tags"] == {"Poem": 3} and ground["context_required"] == 0
    md = out_md.read_text(encoding="utf-8")
    assert md.startswith(f"## Dataset statistics: {data}\n")
    assert "| hi | trans | 11 | 11 | 0 | 0 | 0 | 11 | 0 | 0 | 0 |" in md
    assert "| hi | ground | 3 | 3 | 0 | – | – | 3 | 0 | – | – |" in md  # no translation nor parallel in Ground


def test_the_hub_layout_and_against_with_a_differing_list(tmp_path: Path, capsys):
    mine = _rows(["correct"])
    hub = tmp_path / "hub"
    write_hub_layout(hub, load_rows(mine), "test")
    theirs = [dict(r) for r in mine]
    changed = next(i for i, r in enumerate(theirs) if r["subset"] == "trans" and len(r["instruction_id_list"]) > 1)
    theirs[changed] = {**theirs[changed], "instruction_id_list": theirs[changed]["instruction_id_list"][1:],
                       "kwargs": theirs[changed]["kwargs"][1:]}
    other = _jsonl(tmp_path / "other.jsonl", theirs)
    out_json = tmp_path / "c.json"
    assert main(["stats", str(hub), "--against", str(other), "--json", str(out_json), "--quiet"]) == 0
    last = _out(capsys).strip()
    assert last.endswith(f"Trans instruction lists: 11 keys in both, 10 the same, 1 different; wrote {out_json}")
    data = json.loads(out_json.read_text(encoding="utf-8"))
    assert data["a"]["kind"] == "hub" and data["b"]["kind"] == "rows"
    (differing,) = data["instruction_lists"]["differing"]
    assert differing["row"] == f"hi/trans/{mine[changed]['key']}" and differing["b"] == differing["a"][1:]
    splits = data["tables"][0]
    assert splits["rows"][0]["instructions"] == {"a": 26, "b": 25, "difference": -1}
    assert main(["stats", str(hub), "--against", str(other)]) == 0
    text = _out(capsys)
    assert "Keys whose instruction lists differ" in text and f"hi/trans/{mine[changed]['key']}" in text
    assert "B − A" in text


def test_a_build_folder_without_tags(tmp_path: Path, capsys):
    from indicifeval.builder import BuildFolder
    from indicifeval.records.layout import TRANS_ROWS

    folder = tmp_path / "build"
    BuildFolder(folder).create("hi")
    rows = [{**r, "tags": [], "status": "needs-review" if i == 0 else "auto-ok"}
            for i, r in enumerate(x for x in _rows([]) if x["subset"] == "trans")]
    (folder / TRANS_ROWS).parent.mkdir(parents=True, exist_ok=True)
    _jsonl(folder / TRANS_ROWS, rows)
    assert main(["stats", str(folder)]) == 0
    text = _out(capsys)
    assert "no row has a verification tag" in text and "needs-review" in text and "auto-ok" in text
    assert text.rstrip().endswith("; no verification tags (build statuses shown)")


@pytest.mark.parametrize("args, message", [
    (["{tmp}/missing.jsonl"], "missing.jsonl: no such file or folder"),
    (["{tmp}/bad.jsonl"], "bad.jsonl, line 1, field 'kwargs': must be a list as long as instruction_id_list"),
    (["{tmp}/bad.jsonl", "--against", "{tmp}/missing.jsonl"], "bad.jsonl, line 1"),
    (["{tmp}/ok.jsonl", "--against", "{tmp}/missing.jsonl"], "missing.jsonl: no such file or folder"),
    (["{tmp}/ok.jsonl", "--source", "{tmp}/missing.jsonl"], "--source"),
])
def test_bad_input_is_one_line_exit_1(tmp_path: Path, capsys, args, message):
    (tmp_path / "bad.jsonl").write_text(json.dumps({"key": 1, "prompt": "p", "language": "hi", "instruction_id_list":
                                                    ["punctuation:no_comma"], "kwargs": []}) + "\n", encoding="utf-8")
    _jsonl(tmp_path / "ok.jsonl", _rows([]))
    out = tmp_path / "never.json"
    assert main(["stats", *(a.format(tmp=tmp_path) for a in args), "--json", str(out)]) == 1
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and captured.err.startswith("error: ") and message in captured.err
    assert "Traceback" not in captured.err and not out.exists()


def test_help_names_the_inputs_and_outputs(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["stats", "--help"])
    assert stop.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    for part in ("--against DATA2", "--source EN", "--json OUT", "--markdown OUT", "release folder", "build folder",
                 "Table 7", "Table 6", "Table 3", "--group"):
        assert part in text


def test_the_released_ne_rows_against_their_english_source(capsys):
    trans = shared_path("data", "indicifeval-ne", "indicifeval-trans-ne.jsonl")
    source = shared_path("data", "indicifeval-en-source", "verified_dataset-en.jsonl")
    assert main(["stats", str(trans), "--source", str(source)]) == 0
    text = _out(capsys)
    assert "dropped language:response_language" in text and "│ ne       │ trans  │  490 │     468 │" in text
