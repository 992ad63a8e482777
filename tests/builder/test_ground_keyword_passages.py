"""The pool's mechanism on documents written here: first-word contexts from a later sentence of a
document (``first_word_from: sentence``, the pool's default), and the keyword kinds sharing their
words (a count context takes a word the first-word contexts used, a word's last chance first)."""

from __future__ import annotations

from indicifeval.builder.ground.keyword_pool import fill_order
from indicifeval.builder.ground.mining import features_of, text_hash
from indicifeval.builder.ground.plan import KeywordChoice, SelectionPlan, keyword_choice
from indicifeval.builder.ground.select import select_contexts

FILLER = "यो वाक्य केवल भरिएको पाठ हो र यसमा कुनै विशेष शब्द छैन।"
A, B, C, D = "कमलपुर", "नदीतट", "पहाडी", "बगैंचा"


def _records(texts: dict[str, str], keywords: list[str]) -> list[dict]:
    return [{"doc_id": doc, "shard": "00000", "hash": text_hash(text),
             **features_of(text, "ne", frozenset(keywords)), "text": text} for doc, text in texts.items()]


def _plan(seed: int = 42, first_word: int = 0, frequency: dict[int, int] | None = None, **choice) -> SelectionPlan:
    return SelectionPlan(seed=seed, min_chars=20, keyword_frequency=frequency or {}, forbidden_word=0,
                         number_sentences={}, number_paragraphs={}, first_word=first_word,
                         keywords=KeywordChoice(choice="pool", **choice))


def _words(contexts, kind: str) -> set[str]:
    key = "first_word" if kind == "first_word" else "keyword"
    return {c.kwargs[key] for c in contexts if c.features["kind"] == kind}


def test_a_first_word_context_may_begin_at_a_later_sentence_of_a_document():
    text = f"{FILLER} {A} गाउँमा धेरै मानिसहरू बस्छन् र खेती गर्छन्। {FILLER}"
    records = _records({"doc-1": text}, [A])
    fill: dict = {}
    [context] = select_contexts(records, _plan(first_word=1, pool_size=1), "ne", [A], fill=fill)
    start = text.index(A)
    assert context.text == text[start:] and context.doc_id == "doc-1" and context.kwargs["first_word"] == A
    assert context.features["start"] == start and context.features["first_word"] == A
    assert context.features["sentences"] == 2  # the passage's own features, not the document's
    # only a document's own start: none here, and the shortfall is reported
    fill = {}
    assert select_contexts(records, _plan(first_word=1, pool_size=1, first_word_from="document"), "ne", [A],
                           fill=fill) == []
    assert fill["shortfall"] == {"first_word": 1}


def test_a_documents_own_start_comes_before_a_passage_of_another():
    texts = {"doc-1": f"{A} गाउँमा धेरै मानिसहरू बस्छन्। {FILLER}", "doc-2": f"{FILLER} {A} गाउँ सानो छ। {FILLER}"}
    for seed in range(6):
        [context] = select_contexts(_records(texts, [A]), _plan(seed, first_word=1, pool_size=1), "ne", [A])
        assert context.doc_id == "doc-1" and "start" not in context.features


def test_count_contexts_take_the_words_the_first_word_contexts_used():
    """A and B open documents; A, B, C and D each occur once in other documents; C and D are in
    the pool too. Whatever the seed, the count contexts take A and B."""
    texts = {"open-a": f"{A} गाउँमा धेरै मानिसहरू बस्छन्। {FILLER}", "open-b": f"{B} किनारमा हावा चल्छ। {FILLER}"}
    texts |= {f"has-{i}": f"{FILLER} आज {w} को बारेमा कुरा भयो। {FILLER}" for i, w in enumerate((A, B, C, D))}
    keywords = [A, B, C, D]
    for seed in range(8):
        contexts = select_contexts(_records(texts, keywords), _plan(seed, 2, {1: 2}, pool_size=4), "ne", keywords)
        assert _words(contexts, "first_word") == {A, B} and _words(contexts, "keyword_frequency") == {A, B}, seed


def test_a_word_without_a_later_count_gets_its_last_chance_first():
    """The rarest count first: N = 2 only A can fill; at N = 1 B (no other count) comes before A
    (a count context already), so both first-word words are count words too."""
    texts = {"open-a": f"{A} गाउँमा धेरै मानिसहरू बस्छन्। {FILLER}", "open-b": f"{B} किनारमा हावा चल्छ। {FILLER}",
             "a-twice": f"{FILLER} {A} र {A} दुवै नाम हुन्। {FILLER}", "a-once": f"{FILLER} आज {A} मा मेला छ। {FILLER}",
             "b-once": f"{FILLER} आज {B} मा मेला छ। {FILLER}"}
    assert sorted([("keyword_frequency", 1), ("first_word", 0), ("forbidden_word", 0), ("keyword_frequency", 2)],
                  key=fill_order) == [("first_word", 0), ("keyword_frequency", 2), ("keyword_frequency", 1),
                                      ("forbidden_word", 0)]
    for seed in range(8):
        contexts = select_contexts(_records(texts, [A, B]), _plan(seed, 2, {1: 1, 2: 1}, pool_size=2), "ne", [A, B])
        by_n = {c.kwargs["frequency"]: c.kwargs["keyword"] for c in contexts
                if c.features["kind"] == "keyword_frequency"}
        assert by_n == {2: A, 1: B}, seed


def test_the_setting_is_checked():
    assert keyword_choice({"choice": "pool", "first_word_from": "document"}, "p").first_word_from == "document"
    assert KeywordChoice().to_json()["first_word_from"] == "sentence"
    try:
        keyword_choice({"choice": "pool", "first_word_from": "paragraph"}, "p")
    except Exception as error:  # InputError
        assert "first_word_from" in str(error)
    else:
        raise AssertionError("a bad first_word_from was taken")
