"""Paper-mode segmentation against the real indic-nlp-library 0.92, called as the authors call
it. Skips when the library is not installed (``pip install --no-deps indic-nlp-library pandas``)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from indicifeval.text.sentences import _paper_split_paragraph
from indicifeval.text.words import paper_tokens

NEEDS = "needs indic-nlp-library: pip install --no-deps indic-nlp-library==0.92 pandas, as .ci/run does"
sentence_tokenize = pytest.importorskip("indicnlp.tokenize.sentence_tokenize", reason=NEEDS)
indic_tokenize = pytest.importorskip("indicnlp.tokenize.indic_tokenize", reason=NEEDS)

# The codes the authors pass (FLORES-style; `pan_Gurm` sic).
FLORES = ["asm_Beng", "ben_Beng", "guj_Gujr", "hin_Deva", "kan_Knda", "mal_Mlym", "mar_Deva", "nep_Deva",
          "ori_Orya", "pan_Gurm", "san_Deva", "tam_Taml", "tel_Telu", "urd_Arab"]
PIECES = (list("कखगमनरसतािीुेैोंःँ़्ডকলা০১২ಕನ்தகیہےکا۔؟،") + list("0123456789") +
          [" ", " ", " ", "\n", "\t", ".", ".", "?", "!", "।", "॥", ":", ",", "'", '"', "-", "*", "(", ")", "/"] +
          ["डॉ", "श्री", "बी", "एम", "क", "www", "3.5", "1,000", "12 : 30", "...", "…"])
texts = st.lists(st.sampled_from(PIECES), max_size=50).map("".join)


@settings(max_examples=600, deadline=None)
@given(text=texts, code=st.sampled_from(FLORES))
def test_sentence_split_matches_indicnlp(text, code):
    expected = sentence_tokenize.sentence_split(text, lang=code, delim_pat=sentence_tokenize.DELIM_PAT_NO_DANDA)
    assert _paper_split_paragraph(text) == expected


@settings(max_examples=600, deadline=None)
@given(text=texts, lang=st.sampled_from(["hi", "ur", "ta", "bn"]))
def test_trivial_tokenize_matches_indicnlp(text, lang):
    expected = indic_tokenize.trivial_tokenize(text, lang)
    assert paper_tokens(text, "urdu" if lang == "ur" else "indic") == expected
