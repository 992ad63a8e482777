"""IFBench's custom:mcq_count_length: four multiple-choice questions of five options each, every
question starting with the label "Question N", each question longer than the one before, and
nothing before the first question.

Another language labels its questions with its own word (``word_lists.mcq_question_label``:
प्रश्न 1, প্রশ্ন ১) and its options with A-E or its own letters (``word_lists.mcq_option_labels``:
(क), ক., (அ)); a question's length is counted in aksharas."""

from __future__ import annotations

import re
from functools import lru_cache

import regex

from indicifeval.checkers.ifbench.custom_common import CUSTOM, SUITE, aksharas, requires_lists, word_list
from indicifeval.checkers.registry import all_but, checker
from indicifeval.checkers.rules import Rules, TextView
from indicifeval.text.normalize import nfc

_QUESTIONS = 4
_OPTIONS = 5
# The reference splits at r'\n*(?:Question \d+[\.|\):;]?\s*)'; the newlines it takes before a
# label only end the piece before, which is stripped, so they are left to the strip (a run of
# newlines before no label made that pattern quadratic).
_REFERENCE_LABEL = re.compile(r"Question \d+[\.|\):;]?\s*")
_REFERENCE_OPTION = re.compile(r"^[A-Ea-e][\.|\)]\s*\w+")
_ENGLISH_LABEL = "Question"
_LATIN_OPTIONS = tuple("ABCDEabcde")


@lru_cache(maxsize=32)
def _patterns(labels: tuple[str, ...], options: tuple[str, ...]) -> tuple[regex.Pattern, regex.Pattern]:
    """A question label (a word of its own, then its number in any script's digits) and an
    option line (its letter, bare or in brackets, then '.', ')' or '|', then the option)."""
    def alternatives(items: tuple[str, ...]) -> str:
        return "|".join(regex.escape(i) for i in sorted(set(items), key=len, reverse=True))

    label = regex.compile(rf"(?<![\p{{L}}\p{{M}}])(?:{alternatives(labels)})[ \t]*[-–]?[ \t]*\p{{Nd}}+[.|):;।]?\s*")
    option = regex.compile(rf"\(?(?:{alternatives(options)})[.|)]\s*[\p{{L}}\p{{N}}]")
    return label, option


def _length(text: str, rules: Rules) -> int:
    return len(text) if rules.ifeval else len(aksharas(text))


@checker(
    "custom:mcq_count_length",
    category=CUSTOM, table_row=266, fixed_only=True, suite=SUITE, conflicts=all_but(),
    requires=requires_lists("custom:mcq_count_length", "mcq_question_label", "mcq_option_labels"),
)
def mcq_count_length(view: TextView, args: dict, rules: Rules):
    if rules.ifeval:
        text = view.text
        labels: tuple[str, ...] = (_ENGLISH_LABEL,)
        label, option = _REFERENCE_LABEL, _REFERENCE_OPTION
    else:
        text = view.nfc.lstrip()
        labels = (*(nfc(w) for w in word_list(rules, "mcq_question_label")), _ENGLISH_LABEL)
        label, option = _patterns(labels, (*word_list(rules, "mcq_option_labels"), *_LATIN_OPTIONS))
    if not text.startswith(labels):
        return False, f"the answer does not start with the label {labels[0]!r} (nothing may come before it)"
    questions = [s for q in label.split(text) if (s := q.strip())]
    if len(questions) != _QUESTIONS:
        return False, f"{len(questions)} labelled questions, needed {_QUESTIONS}"
    lengths = []
    for n, question in enumerate(questions, 1):
        asked, options, done = [], 0, False
        for line in question.split("\n"):
            line = line.strip()
            if option.match(line):
                options += 1
                done = True
            elif not done:
                asked.append(line)
        if options != _OPTIONS:
            return False, f"question {n} has {options} options, needed {_OPTIONS}"
        lengths.append(_length("".join(" " + line for line in asked).strip(), rules))
    unit = "characters" if rules.ifeval else "aksharas"
    for n in range(1, len(lengths)):
        if lengths[n] <= lengths[n - 1]:
            return False, (f"question {n + 1} has {lengths[n]} {unit}, question {n} {lengths[n - 1]}: "
                           f"each must be longer than the one before")
    return True, f"{_QUESTIONS} questions of {_OPTIONS} options, of {', '.join(map(str, lengths))} {unit}"
