"""`build trans --source ifbench:PATH` / `open-instruct:PATH`: another suite's English file goes
through the same Trans pipeline (protection, restore, validation) and its rows keep the suite's
tag, so a release of them is that suite's Indic version."""

import json

from indicifeval.cli import main


def test_an_ifbench_file_is_translated_and_its_rows_keep_the_suite(tmp_path):
    source = tmp_path / "IFBench_test.jsonl"
    rows = [{"key": "0", "prompt": "Write a short story about a river. Do not use any commas in your answer.",
             "instruction_id_list": ["punctuation:no_comma"], "kwargs": [{}]},
            {"key": "1", "prompt": "Describe a market in at least 40 words.",
             "instruction_id_list": ["length_constraints:number_words"],
             "kwargs": [{"num_words": 40, "relation": "at least"}]}]
    source.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    out = tmp_path / "hi-ifbench"
    assert main(["build", "trans", str(out), "--lang", "hi", "--source", f"ifbench:{source}", "--backend", "mock",
                 "--mock-answers", "fake:0", "--quiet"]) == 0
    built = [json.loads(line) for line in (out / "trans" / "rows.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [r["key"] for r in built] == ["0", "1"] and all("ifbench" in r["tags"] for r in built)
    assert all(r["language"] == "hi" for r in built)
    again = main(["build", "trans", str(out), "--lang", "hi", "--source", f"ifbench:{source}", "--backend", "mock",
                  "--mock-answers", "fake:0", "--quiet"])
    assert again == 0  # the same command resumes: the copied source has the same content
