"""Seeded English answers for IFBench's custom:* and sentence:* ids: right ones, near misses
(one row, letter, word or day off) and degenerate ones, for comparing verdicts with the
reference (tests/checkers/test_custom_reference.py)."""

from __future__ import annotations

import random
from collections.abc import Callable

DEGENERATE = ["", " ", "\n\n", "\u200b", ".", "...", "!!!", "a", "Q", "x" * 3000, "\u200d" * 50, "🙂🙂",
              "किताब पढ़ो।", '"', ",,,", "\t\t", "1", "Question", "ID,Country"]

WORDS = ("the a an bald eagle eagles symbol national bird of is was America United States US big brave blue "
         "birds bright bold bears baked brown dogs dig deep down quick quiet queens rest run river").split()
AFRICA = sorted([
    "Algeria", "Angola", "Benin", "Botswana", "Burkina Faso", "Burundi", "Cabo Verde", "Cameroon",
    "Central African Republic", "Chad", "Comoros", "Congo", "Democratic Republic of the Congo", "Djibouti", "Egypt",
    "Equatorial Guinea", "Eritrea", "Eswatini", "Ethiopia", "Gabon", "Gambia", "Ghana", "Guinea", "Guinea-Bissau",
    "Côte d'Ivoire", "Kenya", "Lesotho", "Liberia", "Libya", "Madagascar", "Malawi", "Mali", "Mauritania",
    "Mauritius", "Morocco", "Mozambique", "Namibia", "Niger", "Nigeria", "Rwanda", "São Tomé and Príncipe",
    "Senegal", "Seychelles", "Sierra Leone", "Somalia", "South Africa", "South Sudan", "Sudan", "Tanzania", "Togo",
    "Tunisia", "Uganda", "Zambia", "Zimbabwe"], reverse=True)
CAPITALS = ["Reykjavik", "Helsinki", "Oslo", "Tallinn", "Stockholm", "Riga", "Moscow", "Copenhagen", "Vilnius",
            "Minsk", "Dublin", "Berlin", "Amsterdam", "Warsaw", "London", "Brussels", "Prague", "Luxembourg",
            "Paris", "Vienna", "Bratislava", "Budapest", "Vaduz", "Chisinau", "Bern", "Ljubljana", "Zagreb"]


def _words(rng: random.Random, n: int, pool=WORDS) -> list[str]:
    return [rng.choice(pool) for _ in range(n)]


def _sentence(rng: random.Random, n: int, pool=WORDS) -> str:
    ws = _words(rng, n, pool) if n else []
    end = rng.choice([".", ".", "!", "?", "...", ";", ""])
    return (" ".join(ws).capitalize() + end) if ws else end


def _join(rng: random.Random, sentences: list[str]) -> str:
    sep = rng.choice([" ", " ", "\n", "  ", "\n\n"])
    return sep.join(sentences)


def character_reverse(rng):
    pieces = ["elgae dlab", "Elgae Dlab", "ELGAE DLAB", "elgae  dlab", "dlab elgae", "eagle bald", "elgaedlab",
              ".elgae dlab.", "elgae\ndlab", "selgae dlab", "elgae dlabs", "elg ae dlab"]
    out = []
    for _ in range(30):
        out.append(_join(rng, [_sentence(rng, rng.randint(0, 6)), rng.choice(pieces), _sentence(rng, 3)]))
    return [({}, t) for t in out]


def word_reverse(rng):
    forms = ["eagle bald", "Eagle Bald", "eagle, bald", "eagle. bald", "eagles bald", "eagle—bald", "bald eagle",
             "eagle  bald", "eagle\nbald", "eagle-bald", "eagle bald!", "eaglebald", "Eagle. Bald."]
    out = []
    for _ in range(40):
        before, after = _words(rng, rng.randint(0, 5)), _words(rng, rng.randint(0, 5))
        out.append(" ".join([*before, rng.choice(forms), *after]) + rng.choice(["", ".", "?", "!"]))
    return [({}, t) for t in out]


def sentence_alphabet(rng):
    out = []
    letters = "abcdefghijklmnopqrstuvwxyz"
    for _ in range(30):
        n = rng.choice([26, 26, 26, 25, 27])
        sentences = []
        for i in range(n):
            letter = letters[i % 26]
            if rng.random() < 0.03:
                letter = rng.choice(letters)
            first = letter.upper() + rng.choice(["nd", "ll", "t", "xcellent", "ver", "ntil"])
            if rng.random() < 0.03:
                first = '"' + first
            if rng.random() < 0.03:
                first = "Dr. " + first
            sentences.append(f"{first} {' '.join(_words(rng, rng.randint(1, 6)))}{rng.choice(['.', '!', '?'])}")
        out.append(_join(rng, sentences))
    return [({}, t) for t in out]


def multiples(rng):
    right = ["14", "21", "28", "35", "42", "49"]
    out = []
    for _ in range(40):
        nums = list(right)
        r = rng.random()
        if r < 0.15:
            nums.pop(rng.randrange(len(nums)))
        elif r < 0.25:
            nums.insert(0, "7")
        elif r < 0.3:
            nums[2] = "028"
        elif r < 0.35:
            nums = [n.translate(str.maketrans("0123456789", "०१२३४५६७८९")) for n in nums]
        sep = rng.choice([", ", ",", "\n", " ", "; ", ",\n"])
        text = sep.join(nums)
        if rng.random() < 0.2:
            text = rng.choice(["Multiples of 7 between 10 and 50:\n", "Here you go:\n", "Counting: "]) + text
        if rng.random() < 0.1:
            text += rng.choice([".", "\nThat is all.", " (6 numbers)"])
        out.append(text)
    return [({}, t) for t in out]


def _date(rng) -> str:
    year = rng.choice([rng.randint(1769, 1821), 1768, 1822, rng.randint(1790, 1815)])
    month = rng.choice([rng.randint(1, 12), rng.randint(1, 12), 13, 0])
    day = rng.choice([rng.randint(1, 28), 29, 30, 31, 32, 0])
    return f"{year:04d}-{month:02d}-{day:02d}"


def date_format_list(rng):
    out = []
    for _ in range(60):
        dates = [_date(rng) for _ in range(rng.randint(1, 8))]
        if rng.random() < 0.1:
            dates[0] = dates[0].replace("-", "/")
        text = rng.choice([", ", ",", " , ", ",\n"]).join(dates)
        if rng.random() < 0.1:
            text += rng.choice([",", ".", "\n"])
        out.append(text)
    return [({}, t) for t in out]


def european_capitals_sort(rng):
    out = []
    for _ in range(40):
        names = list(CAPITALS)
        r = rng.random()
        if r < 0.15:
            i = rng.randrange(len(names) - 1)
            names[i], names[i + 1] = names[i + 1], names[i]
        elif r < 0.25:
            names.pop(rng.randrange(len(names)))
        elif r < 0.35:
            names[CAPITALS.index("Chisinau")] = "Chișinău"
        elif r < 0.4:
            names[CAPITALS.index("Reykjavik")] = "Reykjavík"
        sep = rng.choice([", ", ",", ",\n", " ,  "])
        text = sep.join(names)
        if rng.random() < 0.15:
            text = rng.choice(["Capitals: ", "", "\n"]) + text + rng.choice([".", "", ","])
        out.append(text)
    return [({}, t) for t in out]


def reverse_newline(rng):
    out = []
    for _ in range(40):
        names = list(AFRICA)
        r = rng.random()
        if r < 0.15:
            i = rng.randrange(len(names) - 1)
            names[i], names[i + 1] = names[i + 1], names[i]
        elif r < 0.3:
            del names[rng.randrange(1, len(names)): rng.randrange(1, len(names))]
        elif r < 0.35:
            names = names[1:]
        if rng.random() < 0.2:
            names = [f"{i}. {n}" for i, n in enumerate(names, 1)]
        elif rng.random() < 0.2:
            names = [f"- {n}" for n in names]
        text = "\n".join(names)
        if rng.random() < 0.3:
            text = rng.choice(["Here are the countries:\n", "African countries (reverse order):\n\n"]) + text
        if rng.random() < 0.15:
            text += rng.choice(["\n\nNote: 54 countries.", "\n", "."])
        out.append(text)
    return [({}, t) for t in out]


def mcq_count_length(rng):
    out = []
    for _ in range(50):
        n_questions = rng.choice([4, 4, 4, 3, 5])
        base = rng.randint(20, 40)
        lines = []
        for q in range(1, n_questions + 1):
            length = base + q * rng.choice([8, 8, 8, 0, -5])
            text = ("Which movement " + "x" * length)[:length] + "?"
            label = rng.choice([f"Question {q}: ", f"Question {q}. ", f"Question {q}) ", f"Question {q}\n",
                                "Question: ", f"**Question {q}:** "])
            lines.append(label + text)
            for k, letter in enumerate("ABCDE"[: rng.choice([5, 5, 5, 4])]):
                style = rng.choice(["{}. ", "{}) ", "({}) ", "{}: ", "{}.", "{}|"])
                lines.append(style.format(letter if k % 2 or rng.random() < 0.8 else letter.lower()) + "Cubism")
            if rng.random() < 0.1:
                lines.append("Answer: B")
            lines.append("")
        text = "\n".join(lines)
        if rng.random() < 0.1:
            text = "Here are four questions:\n" + text
        out.append(text)
    return [({}, t) for t in out]


def _csv(rng, header, n_rows, delimiter, quote_all):
    def cell(v):
        return f'"{v}"' if quote_all or (rng.random() < 0.1) else v

    rows = [delimiter.join(cell(h) for h in header)]
    for i in range(n_rows):
        values = [str(i + 1), rng.choice(["India", "Peru", "Chad"]), rng.choice(["Pune", "Lima", "N'Djamena"]),
                  str(rng.randint(1990, 2024)), str(rng.randint(1, 999))][: len(header)]
        if rng.random() < 0.05:
            values = values[:-1]
        if rng.random() < 0.1:
            values[1] = rng.choice(['"Smith & Co."', '"Acme, Inc."', '"A+B"', '"plain"', "50%", "", '"!!!!"', '"é"',
                                    '"ক্ষ"', '"x"y!', '"a\nb!"', '"!\nx"', '"_"', '"a" "b"'])
        rows.append(delimiter.join(cell(v) if not v.startswith('"') else v for v in values))
    text = "\n".join(rows)
    r = rng.random()
    if r < 0.1:
        text = "```csv\n" + text + "\n```"
    elif r < 0.15:
        text += "\n"
    elif r < 0.2:
        text = text.replace("\n", "\n\n", 1)
    return text


def csv_city(rng):
    header = ["ID", "Country", "City", "Year", "Count"]
    out = []
    for _ in range(40):
        h = list(header)
        if rng.random() < 0.1:
            h[1] = " Country"
        out.append(_csv(rng, h, rng.choice([7, 7, 7, 6, 8]), rng.choice([",", ",", ", "]), False))
    return [({}, t) for t in out]


def csv_special_character(rng):
    header = ["ProductID", "Category", "Brand", "Price", "Stock"]
    return [({}, _csv(rng, header, rng.choice([14, 14, 14, 13, 15]), rng.choice([",", ", "]), False))
            for _ in range(50)]


def csv_quotes(rng):
    header = ["StudentID", "Subject", "Grade", "Semester", "Score"]
    return [({}, _csv(rng, header, rng.choice([3, 3, 3, 2, 4]), "\t", rng.random() < 0.7)) for _ in range(40)]


def sentence_increment(rng):
    out = []
    for _ in range(40):
        step = rng.randint(1, 5)
        start = rng.randint(1, 6)
        sentences = []
        for i in range(rng.randint(1, 5)):
            n = start + i * step + (rng.choice([0, 0, 0, 0, 1, -1]))
            words = _words(rng, max(n, 0))
            if words and rng.random() < 0.1:
                words[0] = "well-known"
            if words and rng.random() < 0.1:
                words.insert(1, "—")
            sentences.append(" ".join(words).capitalize() + ".")
        out.append(({"small_n": step}, _join(rng, sentences)))
    return out


def alliteration_increment(rng):
    pools = ["big brave blue birds bright bold bears baked brown".split(), "dogs dig deep down".split(),
             "quick quiet queens".split(), "rest run river".split(), "the a of is".split()]
    out = []
    for _ in range(40):
        sentences = []
        for _i in range(rng.randint(1, 4)):
            words: list[str] = []
            for _j in range(rng.randint(1, 4)):
                pool = rng.choice(pools)
                words += [rng.choice(pool) for _ in range(rng.randint(1, 4))]
            if rng.random() < 0.1:
                words.insert(0, '"' + words.pop(0))
            sentences.append(" ".join(words).capitalize() + rng.choice([".", "!", "?"]))
        out.append(({}, _join(rng, sentences)))
    return out


def sentence_keyword(rng):
    out = []
    for _ in range(50):
        word = rng.choice(["eat", "giraffe", "river", "bold", "Bird"])
        sentences = [_sentence(rng, rng.randint(2, 7)) or "Ok." for _ in range(rng.choice([rng.randint(1, 8), 30]))]
        n = rng.choice([rng.randint(1, 8), rng.randint(25, 31)])
        if rng.random() < 0.7 and sentences:
            i = rng.randrange(len(sentences))
            form = rng.choice([word, word.upper(), word + "s", "(" + word + ")", word + ",", "un" + word])
            sentences[i] = form.capitalize() + " " + sentences[i]
        out.append(({"word": word, "N": n}, _join(rng, sentences)))
    return out


GENERATORS: dict[str, Callable[[random.Random], list[tuple[dict, str]]]] = {
    "custom:character_reverse": character_reverse,
    "custom:word_reverse": word_reverse,
    "custom:sentence_alphabet": sentence_alphabet,
    "custom:multiples": multiples,
    "custom:date_format_list": date_format_list,
    "custom:european_capitals_sort": european_capitals_sort,
    "custom:reverse_newline": reverse_newline,
    "custom:mcq_count_length": mcq_count_length,
    "custom:csv_city": csv_city,
    "custom:csv_special_character": csv_special_character,
    "custom:csv_quotes": csv_quotes,
    "sentence:increment": sentence_increment,
    "sentence:alliteration_increment": alliteration_increment,
    "sentence:keyword": sentence_keyword,
}
KWARGS = {"sentence:increment": {"small_n": 2}, "sentence:keyword": {"word": "eat", "N": 2}}


def answers(iid: str, seed: int = 0) -> list[tuple[dict, str]]:
    """The generated answers of one id, then the degenerate ones (with default kwargs)."""
    rng = random.Random(f"{iid}|{seed}")
    return [*GENERATORS[iid](rng), *((KWARGS.get(iid, {}), t) for t in DEGENERATE)]
