"""Reasoning is split from the answer; only the answer is scored."""

import pytest

from indicifeval.text.reasoning import split_reasoning


@pytest.mark.parametrize(
    "output,separate,answer,reasoning,unterminated",
    [
        ("plain answer", None, "plain answer", None, False),
        ("<think>let me see</think>\n\nthe answer", None, "the answer", "let me see", False),
        ("let me see</think>the answer", None, "the answer", "let me see", False),  # template opened <think>
        ("<think>\n\n</think>\n\nanswer", None, "answer", None, False),  # thinking off: empty block
        ("<think>still thinking when tokens ran out", None, "", "still thinking when tokens ran out", True),
        ("the answer", "server reasoning", "the answer", "server reasoning", False),
        ("", "only reasoning", "", "only reasoning", False),
        (None, None, "", None, False),
    ],
)
def test_split(output, separate, answer, reasoning, unterminated):
    got = split_reasoning(output, separate)
    assert (got.answer, got.reasoning, got.unterminated) == (answer, reasoning, unterminated)
