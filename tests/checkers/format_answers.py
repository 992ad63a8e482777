"""Seeded English answers for the IFBench format:* ids, near each check's boundary and degenerate,
for the differential tests against IFBench's own checkers (test_format_reference.py)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

WORDS = ("river", "Mountain", "light", "the", "of", "a", "I", "NASA", "iPhone", "don't", "it's", "well-known",
         "Paris", "quickly", "and", "Blue", "eBAY", "O'Neil", "x", "3D", "e.g.", "Dr.", "U.S.", "café", "naïve")
EMOJI = ("😀", "🌍", "🚀", "👍🏽", "❤️", "🇮🇳", "1️⃣", "©", "☺", "👨‍👩‍👧", "✨", "🔥")
ENDS = (".", "!", "?", "", "...", ".\"", ")")
DEGENERATE = ("", " ", "\n\n", "\u200b", "\u200d\u200c", "!!!", "...", "😀", "😀😀 🌍", "*", "**", "-", "x",
              "नमस्ते दुनिया।", "தமிழ் மொழி.", "مرحبا بالعالم۔", "a" * 5000, "word " * 2000, "\t\t",
              "\x1c\x1d", "((((((((((", "\"'\"'\"'", "<i></i>", "\u3000")
TEMPLATE_LABELS = ("My Answer:", "My Conclusion:", "Future Outlook:")


def _sentence(rng: random.Random) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(1, 7))]
    words[0] = words[0][:1].upper() + words[0][1:] if rng.random() < 0.8 else words[0]
    return " ".join(words) + rng.choice(ENDS)


def _prose(rng: random.Random, n: int) -> str:
    return " ".join(_sentence(rng) for _ in range(n))


def emoji(rng: random.Random) -> str:
    parts = []
    for _ in range(rng.randint(1, 4)):
        s = _sentence(rng)
        place = rng.random()
        e = rng.choice(EMOJI)
        if place < 0.35:
            s = s.rstrip(".!?") + " " + e + rng.choice((".", "!", ""))
        elif place < 0.7:
            s = s + " " + e
        elif place < 0.8:
            s = s + e + " " + e
        parts.append(s)
    return rng.choice((" ", "\n", "\n\n", "  ")).join(parts)


def line_indent(rng: random.Random) -> str:
    lines, width = [], 0
    for _ in range(rng.randint(1, 5)):
        width = max(0, width + rng.choice((-1, 0, 1, 2, 2, 3)))
        pad = rng.choice((" " * width, "\t" * (width // 2), " " * width))
        lines.append(pad + _sentence(rng))
        if rng.random() < 0.25:
            lines.extend(rng.choice(([""], ["", ""], ["  "], ["", "   "], [" ", " "])))
    return "\n".join(lines)


SEPARATORS = ("...", "SEPARATOR", "!?!?", "-", "•", "##")


def marked_list(rng: random.Random) -> tuple[str, dict]:
    sep = rng.choice(SEPARATORS)
    n = rng.randint(0, 4)
    style = rng.random()
    if style < 0.5:
        text = "\n".join(f"{sep} {_sentence(rng)}" for _ in range(n))
    elif style < 0.8:
        text = f" {sep} ".join(_sentence(rng) for _ in range(n + 1))
    else:
        text = _prose(rng, 3)
    return text or _sentence(rng), {"sep": sep}


def newline(rng: random.Random) -> str:
    lines = []
    for _ in range(rng.randint(1, 6)):
        r = rng.random()
        if r < 0.6:
            lines.append(rng.choice(WORDS) + rng.choice(("", ",", ".", "!")))
        elif r < 0.75:
            lines.append(" ".join(rng.choice(WORDS) for _ in range(2)))
        elif r < 0.85:
            lines.append(rng.choice(("", " ", "-", "* * *", "—", "😀")))
        else:
            lines.append(" " + rng.choice(WORDS) + " ")
    return "\n".join(lines)


def _bullet(rng: random.Random) -> str:
    return rng.choice(("* ", "*", "  * ", "** ")) + _sentence(rng)


def no_bullets_bullets(rng: random.Random) -> str:
    lines = [_prose(rng, rng.randint(0, 3)) for _ in range(rng.randint(0, 2))]
    if rng.random() < 0.3:
        lines.insert(rng.randint(0, len(lines)), "")
    lines += [_bullet(rng) for _ in range(rng.randint(0, 4))]
    r = rng.random()
    if r < 0.15:
        lines.append("")
    elif r < 0.25:
        lines.append(_sentence(rng))
    elif r < 0.3:
        lines.insert(rng.randint(0, len(lines)), "**" + _sentence(rng) + "**")
    return "\n".join(lines)


def no_whitespace(rng: random.Random) -> str:
    pieces = ("word", "-", "😀", "Hello", "\u200b", "नमस्ते", ".", "_")
    text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 8)))
    if rng.random() < 0.5:
        at = rng.randint(0, len(text))
        text = text[:at] + rng.choice((" ", "\n", "\t", "\u00a0", "\u3000", "\x1f", "\u2028")) + text[at:]
    return text


OPTIONS = ("yes/no/maybe", "I know or I don't know", "a), b), c), d)", "A), B), C)", "Correct, Incorrect",
           "True or False", "red / green", "Option 1, Option 2")


def options(rng: random.Random) -> tuple[str, dict]:
    given = rng.choice(OPTIONS)
    pieces = [p.strip() for p in given.replace(" or ", "/").replace(",", "/").split("/")]
    answer = rng.choice(pieces)
    r = rng.random()
    if r < 0.2:
        answer = answer.upper()
    elif r < 0.35:
        answer = answer + rng.choice((".", "!", " ", "\n", "."))
    elif r < 0.5:
        answer = f"{answer}. Because {_sentence(rng)}"
    elif r < 0.6:
        answer = rng.choice(("(a)", "a", "B)", "maybe so", "I know.", "Incorrect!"))
    return answer, {"options": given}


def output_template(rng: random.Random) -> str:
    parts = []
    for label in TEMPLATE_LABELS:
        r = rng.random()
        if r < 0.75:
            parts.append(f"{label} {_sentence(rng)}")
        elif r < 0.85:
            parts.append(f"{label.upper()} {_sentence(rng)}")
        elif r < 0.93:
            parts.append(f"**{label[:-1]}**: {_sentence(rng)}")
    rng.shuffle(parts)
    return "\n".join(parts) or _sentence(rng)


def parentheses(rng: random.Random) -> str:
    pieces = ("(", ")", "[", "]", "{", "}", "a", " ", "x y", ":)")
    opened = "".join(rng.choice("([{") for _ in range(rng.randint(3, 7)))
    closing = "".join({"(": ")", "[": "]", "{": "}"}[c] for c in reversed(opened))
    noise = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 6)))
    cut = rng.randint(0, len(closing))
    return rng.choice((noise + opened + "core" + closing[:cut] + noise, opened + closing, noise))


def _quoted(rng: random.Random, depth: int) -> str:
    mark = rng.choice(('"', "'")) if depth == 0 else None
    inner = rng.choice(WORDS)
    for level in range(depth):
        mark = '"' if level % 2 == 0 else "'"
        inner = f"{mark}{rng.choice(WORDS)} {inner} {rng.choice(WORDS)}{mark}"
    return inner if depth else f"{mark}{inner}{mark}"


def quotes(rng: random.Random) -> str:
    body = _quoted(rng, rng.randint(1, 4))
    if rng.random() < 0.3:
        body = body.replace("'", "’")
    return f"{_sentence(rng)} {body} {rng.choice(('', 'it is', 'don' + chr(39) + 't'))}"


def quote_unquote(rng: random.Random) -> str:
    out = []
    for _ in range(rng.randint(1, 4)):
        q = rng.choice(('"{}"', "“{}”", "'{}'", '"{}"'))
        out.append(q.format(_sentence(rng).rstrip(".!?")))
        r = rng.random()
        if r < 0.6:
            out.append(_sentence(rng))
        elif r < 0.7:
            out.append(rng.choice(("42.", ",", "'\"'", "")))
    return " ".join(out)


def sub_bullets(rng: random.Random) -> str:
    lines = []
    if rng.random() < 0.3:
        lines.append(_sentence(rng))
    for _ in range(rng.randint(0, 3)):
        lines.append(rng.choice(("* ", "*", "* **Bold** ")) + _sentence(rng))
        for _ in range(rng.choice((0, 1, 1, 2))):
            lines.append(rng.choice(("  - ", "- ", "    - - ")) + _sentence(rng))
    return "\n".join(lines) or _sentence(rng)


def thesis(rng: random.Random) -> str:
    tag = rng.choice(("i", "em", "i", "b"))
    close = rng.choice((tag, tag, "i" if tag == "em" else "em"))
    statement = rng.choice((_sentence(rng), "", " "))
    after = rng.choice((_prose(rng, 2), "", "\n"))
    return f"{rng.choice(('', _sentence(rng) + ' '))}<{tag}>{statement}</{close}>{after}"


def title_case(rng: random.Random) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(1, 10))]
    if rng.random() < 0.6:
        words = [w[:1].upper() + w[1:] for w in words]
    return " ".join(words) + rng.choice((".", "", "!"))


GENERATORS: dict[str, Callable[[random.Random], str | tuple[str, dict]]] = {
    "format:emoji": emoji, "format:line_indent": line_indent, "format:list": marked_list,
    "format:newline": newline, "format:no_bullets_bullets": no_bullets_bullets,
    "format:no_whitespace": no_whitespace, "format:options": options, "format:output_template": output_template,
    "format:parentheses": parentheses, "format:quote_unquote": quote_unquote, "format:quotes": quotes,
    "format:sub-bullets": sub_bullets, "format:thesis": thesis, "format:title_case": title_case,
}
DEFAULT_KWARGS = {"format:list": {"sep": "..."}, "format:options": {"options": "yes/no/maybe"}}


def answers(iid: str, n: int, seed: int = 0) -> Iterator[tuple[str, dict]]:
    """``n`` generated answers and the degenerate ones, each with its kwargs."""
    rng = random.Random(f"{iid}|{seed}")
    for _ in range(n):
        made = GENERATORS[iid](rng)
        yield made if isinstance(made, tuple) else (made, DEFAULT_KWARGS.get(iid, {}))
    for text in DEGENERATE:
        yield text, DEFAULT_KWARGS.get(iid, {})
