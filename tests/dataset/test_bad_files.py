"""Bad input gets one clear line naming file, line and field, never a traceback; a row is
never relabelled; responses that would make an answer a guess are errors."""

import gzip
import json
import subprocess
import sys
import time

import pytest

from indicifeval.cli import main
from indicifeval.core.jsonl import read_jsonl
from indicifeval.dataset import InputError, load_responses, load_rows

GOOD = {"key": 1, "prompt": "p", "instruction_id_list": ["punctuation:no_comma"], "kwargs": [{}], "language": "hi"}
LINE = json.dumps(GOOD, ensure_ascii=False) + "\n"


def write(path, records):
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return str(path)


def _score(tmp_path, data, responses=None, *extra):
    responses = responses or write(tmp_path / "resp.jsonl", [{"key": 1, "response": "बिना अल्पविराम"}])
    return main(["score", "--data", str(data), "--responses", str(responses), "--out", str(tmp_path / "o"),
                 "--quiet", *extra])


BAD_ROW_FILES = {
    "invalid-utf8.jsonl": (LINE.encode() + b'{"key": 2, "prompt": "\xff bad"}\n',
                           ["line 2", "not valid UTF-8", "0xff"]),
    "utf16.jsonl": (LINE.encode("utf-16"), ["UTF-16", "expected UTF-8"]),
    "utf16-nobom.jsonl": (LINE.encode("utf-16-le") * 3, ["UTF-16"]),
    "binary.jsonl": (bytes(range(256)) * 8, ["binary file"]),
    "fake.parquet": (LINE.encode(), ["not a Parquet file"]),
    "broken.parquet": (b"PAR1" + b"\x00" * 40 + b"PAR1", ["unreadable Parquet"]),
    "csv.jsonl": (b"key,prompt,instruction_id_list\n1,hello,x\n", ["looks like CSV", "expected JSON lines"]),
    "list-key.jsonl": ((json.dumps(GOOD | {"key": [1, 2]}) + "\n").encode(),
                       ["line 1", "'key'", "integer or a string"]),
    "crlf-key.jsonl": ((json.dumps(GOOD | {"key": "a\r\nb"}) + "\n").encode(), ["'key'", "line breaks"]),
    "fields.jsonl": (b'{"id": 1, "text": "x"}\n', ["missing field", "found fields: id, text"]),
    "unterminated.jsonl": (b'{"key": "abc\n', ["line 1", "malformed JSON"]),
    "truncated.jsonl.gz": (gzip.compress("".join(json.dumps(GOOD | {"key": i}) + "\n"
                                                 for i in range(3000)).encode())[:300], ["cannot read"]),
    "ambiguous.jsonl": ((LINE + json.dumps(GOOD | {"key": "1"}) + "\n").encode(), ["line 2", "ambiguous keys"]),
}


@pytest.mark.parametrize("name", sorted(BAD_ROW_FILES))
def test_bad_row_files_are_one_clear_line(tmp_path, capsys, name):
    content, expected = BAD_ROW_FILES[name]
    (tmp_path / name).write_bytes(content)
    assert _score(tmp_path, tmp_path / name) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert name in err and all(e in err for e in expected), err
    assert "at at" not in err
    assert not (tmp_path / "o").exists()  # nothing written


def test_the_same_in_a_subprocess_never_shows_a_traceback(tmp_path):
    (tmp_path / "x.jsonl").write_bytes(BAD_ROW_FILES["binary.jsonl"][0])
    done = subprocess.run([sys.executable, "-m", "indicifeval", "score", "--data", str(tmp_path / "x.jsonl"),
                           "--responses", str(tmp_path / "x.jsonl"), "--out", str(tmp_path / "o")],
                          capture_output=True, text=True)
    assert done.returncode == 1 and "Traceback" not in done.stderr and "binary file" in done.stderr
    debug = subprocess.run([sys.executable, "-m", "indicifeval", "--debug", "score",
                            "--data", str(tmp_path / "x.jsonl"),
                            "--responses", str(tmp_path / "x.jsonl"), "--out", str(tmp_path / "o")],
                           capture_output=True, text=True)
    assert "Traceback" in debug.stderr  # --debug shows where


def test_bom_and_gzip_are_accepted(tmp_path):
    (tmp_path / "bom.jsonl").write_bytes(b"\xef\xbb\xbf" + LINE.encode())
    (tmp_path / "rows.jsonl.gz").write_bytes(gzip.compress(LINE.encode()))
    (tmp_path / "gz-named-plainly.jsonl").write_bytes(gzip.compress(LINE.encode()))
    for name in ("bom.jsonl", "rows.jsonl.gz", "gz-named-plainly.jsonl"):
        assert load_rows(tmp_path / name)[0].prompt == "p"
    resp = tmp_path / "resp.jsonl.gz"
    resp.write_bytes(gzip.compress(b"\xef\xbb\xbf" + json.dumps({"key": 1, "response": "r"}).encode() + b"\n"))
    assert load_responses(resp).lookup(load_rows(tmp_path / "bom.jsonl")[0]) == "r"


# -- 6 and friends: responses that would make an answer a guess ----------------------------------
def test_two_ifeval_responses_for_one_prompt_are_an_error_of_the_responses_file(tmp_path):
    path = write(tmp_path / "r.jsonl", [{"prompt": "p", "response": "a"}, {"prompt": "p", "response": "b"}])
    with pytest.raises(InputError) as err:
        load_responses(path)
    assert err.value.file == path and err.value.line == 2 and "line 1" in str(err.value)


def test_duplicate_keys_are_blamed_on_the_responses_file(tmp_path, capsys):
    rows = write(tmp_path / "rows.jsonl", [GOOD])
    resp = write(tmp_path / "resp.jsonl", [{"key": 1, "response": "a"}, {"key": "1", "response": "b"}])
    assert _score(tmp_path, rows, resp) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: " + resp) and "line 2" in err and "rows.jsonl" not in err


def test_null_response_is_an_error_unless_missing_is_allowed(tmp_path, capsys):
    rows = write(tmp_path / "rows.jsonl", [GOOD, GOOD | {"key": 2}])
    resp = write(tmp_path / "resp.jsonl", [{"key": 1, "response": None}, {"key": 2, "response": "x"}])
    assert _score(tmp_path, rows, resp) == 1
    assert "null" in capsys.readouterr().err
    assert _score(tmp_path, rows, resp, "--allow-missing") == 0
    summary = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert summary["missing_responses"] == 1


def test_response_keys_are_checked(tmp_path):
    for bad in ([1], {"a": 1}, "two\nlines", True):
        path = write(tmp_path / "r.jsonl", [{"key": bad, "response": "x"}])
        with pytest.raises(InputError) as err:
            load_responses(path)
        assert err.value.field == "key" and err.value.line == 1


def test_lm_eval_output_folder_reads_samples_only(tmp_path):
    folder = tmp_path / "lm-eval-out" / "my__model"
    folder.mkdir(parents=True)
    (folder / "results_2026-01-01T00-00-00.json").write_text(json.dumps({"results": {"x": 1}}))
    sample = {"doc_id": 0, "doc": {"key": 1, "prompt": "p"}, "filtered_resps": ["the answer"]}
    write(folder / "samples_indicifeval_trans_hi_2026-01-01T00-00-00.jsonl", [sample])
    rows = load_rows([GOOD])
    assert load_responses(tmp_path / "lm-eval-out").lookup(rows[0]) == "the answer"


def test_in_memory_responses(tmp_path):
    import indicifeval

    rows = [GOOD, GOOD | {"key": 2}]
    as_mapping = indicifeval.score(rows, {1: "a, b", 2: "no commas"})
    as_list = indicifeval.score(rows, [{"key": 1, "response": "a, b"}, {"key": 2, "response": "no commas"}])
    assert [s.prompt_strict for s in as_mapping.scores] == [s.prompt_strict for s in as_list.scores] == [False, True]


# -- 1: rows keep their own language and subset -------------------------------------------------
pa = pytest.importorskip("pyarrow")


@pytest.fixture()
def hub_layout(tmp_path):
    import pyarrow.parquet as pq

    def split(config, lang, prompts):
        (tmp_path / "hub" / config).mkdir(parents=True, exist_ok=True)
        records = [{k: v for k, v in GOOD.items() if k != "language"} | {"key": i, "prompt": p, "tags": ["correct"],
                                                                           "resp_lang": "src",
                                                                           "kwargs": [{"num_words": None}]}
                   for i, p in enumerate(prompts)]
        pq.write_table(pa.Table.from_pylist(records), tmp_path / "hub" / config / f"{lang}-00000-of-00001.parquet")

    split("indicifeval-trans", "hi", ["हिंदी", "दूसरा"])
    split("indicifeval-trans", "ta", ["தமிழ்"])
    split("indicifeval-trans", "en", ["English"])
    split("indicifeval-ground", "hi", ["ग्राउंड"])
    return tmp_path / "hub"


def test_score_reads_the_hub_layout_and_never_relabels(hub_layout, tmp_path, capsys):
    resp = write(tmp_path / "resp.jsonl", [{"key": k, "language": lang, "subset": sub, "response": "x"}
                                           for lang, sub, k in [("hi", "trans", 0), ("hi", "trans", 1),
                                                                ("ta", "trans", 0), ("en", "trans", 0),
                                                                ("hi", "ground", 0)]])
    assert _score(tmp_path, hub_layout, resp) == 0
    summary = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert summary["per_language_subset"].keys() == {"en/trans", "hi/ground", "hi/trans", "ta/trans"}
    assert _score(tmp_path, hub_layout, resp, "--language", "hi") == 1  # never scores ta rows as hi
    err = capsys.readouterr().err
    assert "en-00000-of-00001.parquet" in err and "'en' (from the folder layout)" in err and "--languages hi" in err
    assert _score(tmp_path, hub_layout, resp, "--languages", "hi", "--subsets", "trans") == 0
    summary = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert list(summary["per_language_subset"]) == ["hi/trans"]
    assert _score(tmp_path, hub_layout, resp, "--tags", "nope") == 1
    assert "no rows left" in capsys.readouterr().err


def test_a_row_that_says_another_subset_is_an_error(tmp_path):
    path = write(tmp_path / "rows.jsonl", [GOOD | {"subset": "ground"}])
    with pytest.raises(InputError) as err:
        load_rows(path, subset="trans")
    assert err.value.line == 1 and err.value.field == "subset"


# -- 11 ---------------------------------------------------------------------------------------
def test_hub_offline_is_one_line_within_seconds(tmp_path, capsys, monkeypatch):
    pytest.importorskip("datasets")
    for var in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")  # nothing listens there: as offline as it gets
    started = time.monotonic()
    assert main(["run", "--backend", "openai", "--base-url", "http://127.0.0.1:9/v1", "--model", "m",
                 "--out", str(tmp_path / "r"), "--quiet"]) == 1
    assert time.monotonic() - started < 10
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "--data DIR" in err and "huggingface-cli download" in err


@pytest.mark.parametrize("content,expected", [
    ('["not", "an", "object"]', "expected an object"),
    ('{"m": "Qwen"}', "expected {family, size_b}"),
    ('{"m": {"family": 3}}', "family must be a string"),
    ('{"m": {"size_b": "big"}}', "size_b must be a positive number"),
    ('{"m": {"famliy": "x"}}', "unknown keys famliy"),
    ("{broken", "malformed JSON"),
])
def test_families_file_shapes(tmp_path, capsys, content, expected):
    assert main(["score", "--data", "sample", "--out", str(tmp_path / "s"), "--quiet"]) == 0
    (tmp_path / "fam.json").write_text(content)
    assert main(["report", str(tmp_path / "s"), "--families", str(tmp_path / "fam.json"), "--no-plots",
                 "--out", str(tmp_path / "rep"), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert expected in err and "fam.json" in err and "Traceback" not in err


def test_missing_matplotlib_leaves_out_the_plots_and_says_so(tmp_path, capsys, monkeypatch):
    """As after a plain `pip install .`: the tables and the page are written, the plots are not,
    and one line names the extra (the README's first hour runs `report` so)."""
    assert main(["score", "--data", "sample", "--languages", "hi,en", "--out", str(tmp_path / "s"), "--quiet"]) == 0
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if it were not installed
    capsys.readouterr()
    assert main(["report", str(tmp_path / "s"), "--out", str(tmp_path / "rep"), "--bootstrap", "0"]) == 0
    told = capsys.readouterr()
    assert "plots left out" in told.err and "indicifeval[report]" in told.err and "Traceback" not in told.err
    assert (tmp_path / "rep" / "report.md").is_file() and (tmp_path / "rep" / "report.html").is_file()
    assert not (tmp_path / "rep" / "plots").exists()


@pytest.mark.parametrize("as_array", [False, True])
def test_surrogate_escapes_in_files_become_replacement_characters(tmp_path, as_array):
    """JSON may escape a lone surrogate (\ud800, \uDFFF); UTF-8 cannot hold one, so the reader
    turns it into U+FFFD wherever it is, and leaves everything else as it is."""
    body = ['{"key": 1, "response": "lone \\ud800 low \\uDFFF", "meta": {"\\udc00": ["\\ud83d"]}}',
            '{"key": 2, "response": "a \\\\ud800 b"}',  # an escaped backslash, then text
            '{"key": 3, "response": "\\u0905\\u093e \\ud83d\\ude00"}']  # a pair is a real character
    text = ("[" + ",".join(body) + "]") if as_array else "\n".join(body) + "\n"
    path = tmp_path / ("r.json" if as_array else "r.jsonl")
    path.write_text(text, encoding="utf-8")
    got = load_responses(str(path)).by_key
    assert got == {"1": "lone \ufffd low \ufffd", "2": "a \\ud800 b", "3": "\u0905\u093e \U0001f600"}
    from indicifeval.dataset.readers import read_records

    (_, first), *_ = read_records(path)
    assert first["meta"] == {"\ufffd": ["\ufffd"]}


@pytest.mark.parametrize("content, line, column", [
    (LINE + '{"key": "hi-trans-01-pass", "language": \n', 2, 41),  # cut short after column 40
    (LINE + '{"key": "hi-trans-01-pass", "language": ', 2, 41),  # the same, the file's last line
    ('{"key": 1, "prompt": "abc", \n', 1, 29),
    ('{"key": "abc\n', 1, 13),  # the line break that ends the string too soon
    ('\n\n{"key": 1,, "prompt": "x"}\n', 3, 11),
])
def test_a_line_cut_short_is_reported_at_its_column_not_at_column_1(tmp_path, content, line, column):
    """json counts a line cut short as column 1 of the line after it (past the line break)."""
    path = tmp_path / "cut.jsonl"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError) as err:
        list(read_jsonl(path))
    assert err.value.line == line and f"column {column})" in err.value.message, str(err.value)


def test_a_json_array_cut_short_names_its_last_line(tmp_path):
    path = tmp_path / "rows.json"
    path.write_text('[{"key": 1,\n  "prompt": \n\n', encoding="utf-8")
    with pytest.raises(InputError) as err:
        list(read_jsonl(path))
    assert err.value.line == 2 and "column 13)" in err.value.message, str(err.value)


def test_where_in_is_one_based_and_stops_at_the_content():
    from indicifeval.core.jsonl import where_in

    assert where_in("abc", 0) == (1, 1) and where_in("ab\ncd", 4) == (2, 2)
    assert where_in('{"a": \n', 7) == (1, 7) and where_in('{"a":\n\n  \n', 9) == (1, 6)
