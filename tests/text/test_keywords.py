"""Whole-word keyword matching: the fast scan agrees with the boundary regex."""

from hypothesis import given, settings
from hypothesis import strategies as st

from indicifeval.text.keywords import count_keyword, has_keyword, keyword_pattern
from indicifeval.text.normalize import match_key

ALPHABET = list("कखि्ं ািকஅ்ാa Ab-.,।\n0१")


@settings(max_examples=400, deadline=None)
@given(text=st.lists(st.sampled_from(ALPHABET), max_size=40).map("".join),
       key=st.lists(st.sampled_from([c for c in ALPHABET if not c.isspace()]), min_size=1, max_size=3).map("".join))
def test_fast_scan_equals_regex(text, key):
    normalised = match_key(text)
    pattern = keyword_pattern(key)
    expected = 0 if pattern is None else len(pattern.findall(normalised))
    assert count_keyword(normalised, key) == expected
    assert has_keyword(normalised, key) == (expected > 0)


def test_examples():
    assert count_keyword(match_key("पार्ने र पार्नेछ, पार्ने।"), "पार्ने") == 2
    assert count_keyword(match_key("कमल कम कमी"), "कम") == 1
    assert has_keyword(match_key("मशीन\nलर्निंग"), "मशीन लर्निंग")
