"""IFEval's loose variants of a response: which lines to drop and whether to drop ``*``.

Kept as transforms (not just strings) so that facts computed once on the whole response,
such as its normalised form, can be carried over to each variant by the same cut."""

from __future__ import annotations

from typing import NamedTuple


class Cut(NamedTuple):
    label: str
    drop_first: bool
    drop_last: bool
    no_star: bool

    def apply(self, text: str) -> str:
        """IFEval's ``"\n".join(text.split("\n")[1:-1]).strip()`` (and the one-sided cuts), by
        slicing at the first and last newline: no list of lines, one copy."""
        if self.drop_first or self.drop_last:
            first = text.find("\n")
            if first < 0:
                text = ""  # one line: nothing is left without it
            else:
                start = first + 1 if self.drop_first else 0
                end = text.rfind("\n") if self.drop_last else len(text)
                text = text[start:end].strip() if start <= end else ""
        return text.replace("*", "") if self.no_star else text


# In IFEval's order; the first is the response itself.
LOOSE_CUTS = (
    Cut("as written", False, False, False),
    Cut("without *", False, False, True),
    Cut("without first line", True, False, False),
    Cut("without last line", False, True, False),
    Cut("without first and last lines", True, True, False),
    Cut("without first line and *", True, False, True),
    Cut("without last line and *", False, True, True),
    Cut("without first and last lines and *", True, True, True),
)
