"""IFBench's 58 instruction ids (allenai/IFBench): the out-of-distribution test of instruction
following, in its seven groups (count, ratio, words, sentence, format, custom, repeat). Same ids
and kwargs names as the reference; our own code, language-aware through the profiles. Fixed
mode only; importing the package registers them."""

import indicifeval.checkers.ifbench.counts  # noqa: F401  (count:*)
import indicifeval.checkers.ifbench.ratios  # noqa: F401  (ratio:*)
import indicifeval.checkers.ifbench.repeats  # noqa: F401  (repeat:*)
