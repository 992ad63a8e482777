"""IFBench's 58 instruction ids (allenai/IFBench): the out-of-distribution test of instruction
following, in its seven groups (count, ratio, words, sentence, format, custom, repeat). Same ids
and kwargs names as the reference; our own code, language-aware through the profiles. Fixed
mode only; importing the package registers them."""

import indicifeval.checkers.ifbench.words_letters  # noqa: F401  (registers words:alphabet, :vowel...)
import indicifeval.checkers.ifbench.words_order  # noqa: F401  (registers words:repeats, :last_first...)
