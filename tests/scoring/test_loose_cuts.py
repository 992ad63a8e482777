"""The engine's loose texts are IFEval's cuts: a cut of lines without stars is made from the
same cut of lines (less its stars), and a text without stars skips the star cuts (each would
repeat the cut before it)."""

from hypothesis import given
from hypothesis import strategies as st

from indicifeval.scoring.engine import _cut_text
from indicifeval.text.variants import LOOSE_CUTS


@given(st.text(alphabet=st.sampled_from("ab*\n \t\u0915"), max_size=20), st.permutations(range(7)))
def test_each_loose_text_is_its_cut_in_any_order(text, order):
    made: list[str | None] = [None] * 7
    for i in order:
        made[i] = _cut_text(text, i, made)
        assert made[i] == LOOSE_CUTS[i + 1].apply(text)


@given(st.text(alphabet=st.sampled_from("ab\n \t\u0915"), max_size=20))
def test_without_stars_a_star_cut_is_the_cut_before_it(text):
    for cut in LOOSE_CUTS[1:]:
        if cut.no_star:
            plain = LOOSE_CUTS[[(c.drop_first, c.drop_last, c.no_star) for c in LOOSE_CUTS].index(
                (cut.drop_first, cut.drop_last, False))]
            assert cut.apply(text) == plain.apply(text)
