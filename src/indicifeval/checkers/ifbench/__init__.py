"""IFBench's 58 instruction ids (allenai/IFBench): the out-of-distribution test of instruction
following, in its seven groups (count, ratio, words, sentence, format, custom, repeat). Same ids
and kwargs names as the reference; our own code, language-aware through the profiles. Fixed
mode only; importing the package registers them."""

from indicifeval.checkers.ifbench import (
    custom_csv,  # noqa: F401  (custom:csv_*)
    custom_lists,  # noqa: F401  (multiples, dates, capitals, countries)
    custom_mcq,  # noqa: F401  (custom:mcq_count_length)
    custom_reverse,  # noqa: F401  (reversals, sentence_alphabet)
    custom_sentences,  # noqa: F401  (sentence:*)
)
