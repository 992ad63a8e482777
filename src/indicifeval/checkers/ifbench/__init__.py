"""IFBench's 58 instruction ids (allenai/IFBench): the out-of-distribution test of instruction
following, in its seven groups (count, ratio, words, sentence, format, custom, repeat). Same ids
and kwargs names as the reference; our own code, language-aware through the profiles. Fixed
mode only; importing the package registers them."""

from indicifeval.checkers.ifbench import (  # noqa: F401  (imported for registration)
    counts,
    custom_csv,
    custom_lists,
    custom_mcq,
    custom_reverse,
    custom_sentences,
    format_answer,
    format_lines,
    format_marks,
    ratios,
    repeats,
    words_letters,
    words_order,
)
