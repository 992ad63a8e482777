"""open-instruct's RL-training instruction ids ("IFEvalG", allenai/open-instruct): the 29 that
training mixes such as NeMo Gym's add to IFEval's 25. Same ids and kwargs names as the reference;
our own code, language-aware through the profiles. Fixed mode only; importing the package
registers them."""

from indicifeval.checkers.open_instruct import (  # noqa: F401  (imported for registration)
    copy_layout,
    copy_repeat,
    copy_words,
    counts_format,
    counts_keywords,
    counts_letters,
)
