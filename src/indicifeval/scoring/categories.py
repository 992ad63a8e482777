"""The paper's five instruction categories (IndicIFEval Table 3, verbatim). They differ from
IFEval's id prefixes: "Keyword" holds many format-looking ids."""

from __future__ import annotations

CATEGORIES: dict[str, tuple[str, ...]] = {
    "English": (
        "change_case:capital_word_frequency",
        "change_case:english_capital",
        "change_case:english_lowercase",
    ),
    "Keyword": (
        "combination:repeat_prompt",
        "detectable_content:postscript",
        "detectable_format:constrained_response",
        "detectable_format:multiple_sections",
        "detectable_format:title",
        "keywords:existence",
        "keywords:forbidden_words",
        "keywords:frequency",
        "length_constraints:nth_paragraph_first_word",
        "punctuation:no_comma",
        "startend:end_checker",
        "keywords:letter_frequency",
        "startend:quotation",
    ),
    "Format": (
        "combination:two_responses",
        "detectable_content:number_placeholders",
        "detectable_format:json_format",
        "detectable_format:number_bullet_lists",
        "detectable_format:number_highlighted_sections",
    ),
    "Length": (
        "length_constraints:number_paragraphs",
        "length_constraints:number_sentences",
        "length_constraints:number_words",
    ),
    "Language": ("language:response_language",),
}

CATEGORY_OF: dict[str, str] = {iid: cat for cat, ids in CATEGORIES.items() for iid in ids}
