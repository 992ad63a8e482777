"""The paper's dataset tables (Tables 3, 6, 7) from `stats` and the card, and the Trans source's
attribution. On the real Nepali rows, `stats` is checked against a count written here, from the
paper's Table 3 as printed (not from the registry), over the raw JSON; in a build folder, keyword
corrections are counted from the review log; the released rows say "not recorded"."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from indicifeval.cli import main
from indicifeval.dataset.stats import load_stats, stats_tables
from tests.conftest import shared_path

# The paper's Table 3, as printed (25 ids in five categories)
TABLE_3 = {
    "English": ("change_case:capital_word_frequency", "change_case:english_capital", "change_case:english_lowercase"),
    "Keyword": ("combination:repeat_prompt", "detectable_content:postscript", "detectable_format:constrained_response",
                "detectable_format:multiple_sections", "detectable_format:title", "keywords:existence",
                "keywords:forbidden_words", "keywords:frequency", "length_constraints:nth_paragraph_first_word",
                "punctuation:no_comma", "startend:end_checker", "keywords:letter_frequency", "startend:quotation"),
    "Format": ("combination:two_responses", "detectable_content:number_placeholders",
               "detectable_format:json_format", "detectable_format:number_bullet_lists",
               "detectable_format:number_highlighted_sections"),
    "Length": ("length_constraints:number_paragraphs", "length_constraints:number_sentences",
               "length_constraints:number_words"),
    "Language": ("language:response_language",),
}


def _raw(name: str) -> list[dict]:
    path = shared_path("data", "indicifeval-ne", name)
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _independent_table3(records: list[dict], tag: str | None) -> dict[str, int]:
    category = {iid: name for name, ids in TABLE_3.items() for iid in ids}
    return dict(Counter(category[i] for r in records if tag is None or tag in r["tags"]
                        for i in r["instruction_id_list"]))


def test_table_3_and_7_on_the_real_nepali_trans_rows():
    records = _raw("indicifeval-trans-ne.jsonl")
    everything = _independent_table3(records, None)
    assert everything == {"Keyword": 409, "Format": 142, "Length": 119, "English": 39, "Language": 34}  # the issue's
    stats = load_stats(shared_path("data", "indicifeval-ne", "indicifeval-trans-ne.jsonl"))
    cats = stats.subsets["trans"].paper_categories["ne"]
    assert {c: a for c, (a, _, _) in cats.items()} == everything
    assert {c: b for c, (_, b, _) in cats.items()} == _independent_table3(records, "correct")
    assert {c: p for c, (_, _, p) in cats.items()} == _independent_table3(records, "parallel")
    (review,) = stats.trans_review
    correct = sum(1 for r in records if "correct" in r["tags"])
    assert (review.rows, review.correct, correct) == (490, 468, 468)
    assert review.keyword_fixes is None and review.how == "not recorded"  # no review log with released rows
    table7 = next(t for t in stats_tables(stats) if t.name == "trans-review")
    assert "Table 7" in table7.title and table7.detail == ("not recorded",)
    assert not any("Table 7" in t.title for t in stats_tables(stats) if t.name == "verification")


def test_table_6_on_the_real_nepali_ground_rows_is_an_estimate_from_the_keys():
    records = _raw("indicifeval-ground-ne.jsonl")
    keys = [int(r["key"]) for r in records]
    assert (max(keys), len(records)) == (419, 341)  # the paper's Table 6 for ne: 341 of 419
    stats = load_stats(shared_path("data", "indicifeval-ne", "indicifeval-ground-ne.jsonl"), subset="ground")
    (totals,) = stats.ground_totals
    assert (totals.generated, totals.kept, totals.how) == (419, 341, "estimate: highest key")
    ground = stats.subsets["ground"].paper_categories["ne"]
    assert {c: a for c, (a, _, _) in ground.items()} == _independent_table3(records, None)
    assert all(b is None for _, b, _ in ground.values())  # Ground rows carry no correct tag: none, not 0


def test_the_command_groups_by_category_unless_asked_for_prefixes(capsys, tmp_path: Path):
    trans = shared_path("data", "indicifeval-ne", "indicifeval-trans-ne.jsonl")
    assert main(["stats", str(trans), "--markdown", str(tmp_path / "c.md")]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "(the paper's Table 3)" in text and "per IFEval id prefix" not in text
    card = (tmp_path / "c.md").read_text(encoding="utf-8")
    assert "| ne | Keyword | 409 | 55.0 | 391 | 265 |" in card and "| ne | 490 | 468 | – | not recorded |" in card
    assert main(["stats", str(trans), "--group", "prefix", "--quiet", "--json", str(tmp_path / "s.json")]) == 0
    assert main(["stats", str(trans), "--group", "prefix"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "per IFEval id prefix" in text and "(the paper's Table 3)" not in text
    data = json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))
    assert data["subsets"]["trans"]["paper_categories"]["ne"]["Keyword"] == {"instructions": 409, "correct": 391,
                                                                             "parallel": 265}


def test_the_authors_source_differs_from_ifeval_in_61_of_490_prompts():
    from indicifeval.builder.trans.attribution import attribution, differing, ifeval_prompts, recorded
    from indicifeval.dataset.validation.loading import read_source

    source = read_source(shared_path("data", "indicifeval-en-source", "verified_dataset-en.jsonl"))
    ifeval_path = shared_path("data", "ifeval-en", "input_data.jsonl")
    ifeval = {}
    for line in ifeval_path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        ifeval[record["key"]] = record["prompt"]
    plain = sum(1 for r in source if ifeval[int(r.key)] != r.prompt)  # counted here, not by the module
    assert plain == 61 and differing(source, ifeval_prompts(ifeval_path)) == (61, 490)
    assert recorded()["differ_from_ifeval"] == 61 and recorded()["prompts"] == 490
    given = attribution(source, ifeval_path)
    assert given["authors"] and given["differ_from_ifeval"] == 61 and "computed at finalize" in given["how"]
    found = attribution(source)  # no IFEval file: the recorded count, for the authors' source only
    assert found["authors"] and found["differ_from_ifeval"] == 61 and found["how"].startswith("recorded")
    other = attribution(source[:-1])
    assert not other["authors"] and other["differ_from_ifeval"] is None


def test_keyword_corrections_from_the_review_log_reach_stats_the_release_and_the_card(tmp_path: Path, capsys):
    from indicifeval.builder.release import finalize, publish
    from indicifeval.builder.release.records import build_records
    from indicifeval.builder.review.desk import ReviewDesk
    from indicifeval.builder.review.items import load_items
    from indicifeval.builder.review.store import ReviewStore
    from indicifeval.checkers import lexical_kwargs
    from tests.builder.review_fixtures import trans_folder

    folder = trans_folder(tmp_path, "hi")
    store = ReviewStore(folder)
    store.put_items(load_items(folder))
    desk = ReviewDesk([store])
    fixable = []
    for item in store.items():
        words = [str(kw[name] if isinstance(kw[name], str) else kw[name][0])
                 for iid, kw in zip(item.row.instruction_id_list, item.row.kwargs)
                 for name in lexical_kwargs(iid) if kw.get(name)]
        if item.workflow == "trans-keywords" and words and words[0] in item.row.prompt:
            fixable.append((item.id, words[0]))
    (first, word), (second, other) = fixable[:2]
    desk.fix_keyword("asha", first, word, "संशोधितशब्द")  # a correction
    desk.fix_keyword("asha", second, other, "अस्थायी")
    desk.fix_keyword("asha", second, "अस्थायी", other)  # undone: no correction
    store.close()
    records = build_records(folder)
    assert records.keyword_fixes == {"hi": 1}
    assert main(["stats", str(folder)]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "review log" in text and "Table 7" in text
    release = tmp_path / "release"
    finalize([folder], release, accept_unreviewed=True)
    info = json.loads((release / "release.json").read_text(encoding="utf-8"))
    assert info["paper_records"]["keyword_fixes"] == {"hi": 1}
    assert info["trans_source"]["hi"]["authors"] is False  # the bundled sample, not the authors' prompts
    assert load_stats(release).trans_review[0].keyword_fixes == 1
    publish(release)
    card = (release / "hub" / "README.md").read_text(encoding="utf-8")
    assert "(the paper's Table 7)" in card and "| hi |" in card and "review log" in card
    assert "(the paper's Table 3)" in card and "per IFEval id prefix" not in card
    assert "not the authors' localised set" in card and "build finalize --ifeval" in card


def test_the_card_names_the_authors_localised_prompts_and_the_count():
    from indicifeval.builder.release.card import _trans_source
    from indicifeval.builder.trans.attribution import recorded

    facts = {"authors": True, "prompts": 490, "differ_from_ifeval": recorded()["differ_from_ifeval"],
             "how": f"recorded ({recorded()['how']})"}
    line = _trans_source({"trans_source": {"ne": facts, "hi": facts}})
    assert line is not None and line.startswith("- Trans rows in `hi`, `ne` translate the IndicIFEval authors' 490 "
                                                "localised English prompts (AI4Bharat/IndicIFEval")
    assert "61 of the 490 differ from IFEval's prompt of the same key (recorded (61 of 490" in line
    assert _trans_source({}) is None  # a release finalized before it was recorded: the card's old line
