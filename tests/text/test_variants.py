"""The loose variants cut by slicing are IFEval's split-and-join ones, on any text."""

from hypothesis import given, settings
from hypothesis import strategies as st

from indicifeval.text.variants import LOOSE_CUTS


def ifeval_cut(cut, text: str) -> str:
    """IFEval's own construction of the variant (instructions_util / evaluation_lib)."""
    if cut.drop_first or cut.drop_last:
        lines = text.split("\n")
        text = "\n".join(lines[1 if cut.drop_first else 0: -1 if cut.drop_last else None]).strip()
    return text.replace("*", "") if cut.no_star else text


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab \n\n*\t\r\u00a0\u2028क"), max_size=40))
def test_cuts_match_ifeval(text):
    for cut in LOOSE_CUTS:
        assert cut.apply(text) == ifeval_cut(cut, text), cut.label


def test_edge_cases():
    for text in ("", "\n", "one line", "a\nb", "a\n\nb", "\n*x*\n", " a \n b \n c "):
        for cut in LOOSE_CUTS:
            assert cut.apply(text) == ifeval_cut(cut, text), (cut.label, text)
