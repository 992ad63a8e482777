"""open-instruct's RL-training instruction ids ("IFEvalG", allenai/open-instruct): the 29 that
training mixes such as NeMo Gym's add to IFEval's 25. Same ids and kwargs names as the reference;
our own code, language-aware through the profiles. Fixed mode only; importing the package
registers them."""

import indicifeval.checkers.open_instruct.copy_layout  # noqa: F401  (registers its ids)
import indicifeval.checkers.open_instruct.copy_repeat  # noqa: F401  (registers its ids)
import indicifeval.checkers.open_instruct.copy_words  # noqa: F401  (registers its ids)
