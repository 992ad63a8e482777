"""The answers' lines of a score folder, assembled around their one long string, are the lines
``json`` writes for the whole record."""

import io

from hypothesis import given
from hypothesis import strategies as st

from indicifeval.scoring.output import RESPONSES_FORMAT, dumps_line, response_line, write_response_line


@given(st.one_of(st.integers(-10**20, 10**20), st.text(max_size=20)), st.text(max_size=5), st.text(max_size=8),
       st.one_of(st.none(), st.text(), st.text(alphabet=st.sampled_from('"\\\n\t\r\x00\x1f\x7f\u2028क😀\ud800'))))
def test_response_line_is_the_records_json_line(key, language, subset, text):
    record = {"key": key, "language": language, "subset": subset, "response": text, "format_version": RESPONSES_FORMAT}
    assert response_line(key, language, subset, text) == dumps_line(record)


@given(st.one_of(st.integers(-10**20, 10**20), st.text(max_size=20)), st.text(max_size=5), st.text(max_size=8),
       st.one_of(st.none(), st.text(), st.text(alphabet=st.sampled_from('"\\\n\t\r\x00\x1f\x7f\u2028क😀\ud800'))))
def test_the_bytes_written_are_the_lines_utf8(key, language, subset, text):
    line = response_line(key, language, subset, text)
    try:
        expected: bytes | None = line.encode()
    except UnicodeEncodeError:  # a lone surrogate: neither writes it
        expected = None
    out = io.BytesIO()
    try:
        write_response_line(out, key, language, subset, text)
    except UnicodeEncodeError:
        assert expected is None
    else:
        assert out.getvalue() == expected
