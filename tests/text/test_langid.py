"""Response-language identification on our own test texts (tests/fixtures/langid)."""

import json
from collections import defaultdict

import pytest
from hypothesis import given
from hypothesis import strategies as st

from indicifeval.languages import list_languages
from indicifeval.text.langid import dominant_script, identify, identify_language
from tests.conftest import FIXTURES


def _texts():
    out = []
    for path in sorted((FIXTURES / "langid").glob("*.jsonl")):
        out += [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return out


TEXTS = _texts()


def test_corpus_covers_all_languages():
    assert set(list_languages()) <= {t["lang"] for t in TEXTS}


def test_accuracy_per_language():
    per = defaultdict(lambda: [0, 0])
    for t in TEXTS:
        per[t["lang"]][1] += 1
        per[t["lang"]][0] += identify_language(t["text"]) == t["lang"]
    total = sum(ok for ok, _ in per.values()) / sum(n for _, n in per.values())
    assert total >= 0.97, dict(per)
    for lang in list_languages():  # every benchmark language, including as, or, sa
        ok, n = per[lang]
        assert ok / n >= 0.9, (lang, ok, n)


def test_deterministic():
    first = [identify_language(t["text"]) for t in TEXTS]
    assert first == [identify_language(t["text"]) for t in TEXTS]


@pytest.mark.parametrize(
    "text,script,lang",
    [
        ("मुझे machine learning में बहुत interest है और मैं रोज़ पढ़ता हूँ।", "Deva", "hi"),
        ("This is English with one हिंदी word in it, mostly English text.", "Latn", "en"),
        ("মোৰ নাম ৰাম।", "Beng", "as"),
        ("আমার নাম রাম। আমি বাংলায় কথা বলি।", "Beng", "bn"),
        ("こんにちは、世界", "Kana", "ja"),
        ("你好，世界，今天天气很好。", "Hani", "zh"),
        ("", None, None),
        ("1234 *** ---", None, None),
        ("\x00\x01 नमस्ते दुनिया, आप कैसे हैं?", "Deva", "hi"),
    ],
)
def test_script_first(text, script, lang):
    assert dominant_script(text) == script
    assert identify(text).language == lang


def test_sanskrit_inflections_tell_it_from_its_devanagari_neighbours():
    from indicifeval.text.langid import identify

    sanskrit = "रामः वनं गच्छति। सः तत्र फलम् खादति। बालकस्य पुस्तकम् अस्ति।"
    found = identify(sanskrit)
    assert found.language == "sa" and found.method in ("endings", "cld2")
    # one visarga in a Hindi sentence (अतः, प्रायः) is not Sanskrit
    assert identify("अतः हम सब लोग कल सुबह जल्दी घर वापस चले गए और खाना खाया।").language == "hi"
    assert identify("प्रायः लोग बाज़ार जाते हैं और सब्ज़ियाँ खरीदते हैं।").language == "hi"


@pytest.mark.parametrize(
    "text,lang",
    [
        # whole sentences of function words that CLD2 alone calls English (names and terms in them)
        ("Descartado el fichero dado que no es un fichero regular.", "es"),
        ("usar la URL de servidor de claves preferido presente en la clave", "es"),
        ("il cluster di database non è compatibile con questa versione", "it"),
        ("aggiungi una riga Signed-off-by al messaggio di commit", "it"),
        ("Apagar ficheiros de arquivo antigos obtidos por download", "pt"),
        ("Retning for at udføre et sekundært klik med musen", "da"),
        ("Eu gosto de Harry Potter e The Lord of the Rings.", "pt"),  # a title's small words do not vote
        ("Ho visto Star Wars: The Last Jedi al cinema.", "it"),
        ("J'ai lu The Catcher in the Rye quand j'étais jeune.", "fr"),
        ("Il Manchester United ha vinto la Premier League.", "it"),
        # English with foreign names stays English
        ("La Casa de Papel is a series that many people watch.", "en"),
        ("I watched El Laberinto del Fauno and La Vita è Bella last weekend.", "en"),
        ("Summarize the plot of Cien años de soledad in two sentences.", "en"),  # words outvote ñ
        ("Compare the Universidad de Buenos Aires with the University of São Paulo.", "en"),
        ("The Tour de France is held in July and lasts three weeks.", "en"),
        ("Write a letter to El Corte Inglés about the delivery of your order.", "en"),
        ("Explain why Los Angeles has so many people who drive to work.", "en"),
    ],
)
def test_function_words_outvote_english_names(text, lang):
    assert identify(text).language == lang


@pytest.mark.parametrize(
    "text,lang",
    [
        ("Common Lisp 源代码", "zh"),  # a Han character weighs as much as a short Latin word
        ("BSD 2-Clause 授權", "zh"),
        ('사용할 수 있는 값: "false", 0, "true", 1, "database".', "ko"),
        ("The word 你好 means hello in Chinese, and people say it every day.", "en"),
    ],
)
def test_han_and_hangul_weigh_against_latin_names(text, lang):
    assert identify(text).language == lang


@pytest.mark.parametrize(
    "text,lang",
    [
        # CLD2 falls back on English for short Latin text with a technical term or two
        ("upload completato in modo corretto sul server remoto", "it"),
        ("download interrotto a causa di un timeout del server", "it"),
        ("upload mislukt door een timeout van de server", "nl"),
        ("impossible de lancer le thread worker en background", "fr"),
        # and English stays English
        ("Unable to download the file because the server timed out", "en"),
        ("The backup of the database runs every night in background mode", "en"),
        ("Please upload the report to the shared folder before Friday", "en"),
    ],
)
def test_english_from_cld2_is_checked_against_ngrams(text, lang):
    assert identify(text).language == lang


@pytest.mark.parametrize(
    "text,lang",
    [
        ("Tjenesten blev stoppet, fordi konfigurationen er ugyldig", "da"),  # blev, -tion
        ("Kunne ikke åbne filen, da stien er ugyldig", "da"),  # åbne
        ("Kunne ikke omdøbe filen til det nye navn", "da"),  # listed omdøbe, though ø is in both
        ("Tjenesten ble stoppet fordi konfigurasjonen er ugyldig", "no"),
        ("Programmet har allerede blitt installert på maskinen", "no"),
        ("Valget er ikke tilgjengelig i denne versjonen", "no"),
        ("Файлът не може да бъде отворен, защото е повреден", "bg"),
        ("Настройката на принтера е неуспешна", "bg"),
        ("Файл не может быть открыт, потому что он повреждён", "ru"),
    ],
)
def test_close_neighbours_are_told_apart_by_markers(text, lang):
    assert identify(text).language == lang


@pytest.mark.parametrize(
    "text,lang",
    [
        ("Pri dodrzeni podminek skladovani je vyrobek pouzitelny", "cs"),  # CLD2: Slovak, read as Czech
        ("Dupa ce am terminat lucrul, am plecat acasa sa ma odihnesc", "ro"),  # not French: si, sa, dupa
        ("Har ni flera olika alternativ att välja mellan?", "sv"),
    ],
)
def test_text_written_without_its_accents_or_with_neighbour_words(text, lang):
    assert identify(text).language == lang


def test_where_cld2_names_no_candidate_langdetect_guesses(monkeypatch):
    from indicifeval.text import langid

    monkeypatch.setattr(langid, "_cld2_ranking", lambda text, candidates: [])
    assert identify("Вчера видях стария си учител").language == "bg"  # not ru, the first candidate
    assert identify("Dneska jsme byli v kine a film byl opravdu hrozny").language == "cs"  # not en
    assert identify("12345 67890").method in ("fallback", "empty", "script")


@pytest.mark.parametrize(
    "text,cld2_says,lang",
    [
        ("सः अत्र एव अस्ति इति मन्ये", "hi", "sa"),  # Sanskrit's function words outvote a wrong CLD2
        ("यह किताब मेरे भाई की है और वह इसे पढ़ना नहीं चाहता", "sa", "hi"),
        ("आज मी बाजारात जाणार आहे आणि फळे आणणार आहे", "hi", "mr"),
        ("म आज बजार जाँदैछु र त्यहाँबाट फलफूल पनि ल्याउनेछु", "hi", "ne"),
    ],
)
def test_devanagari_function_words_outvote_cld2(monkeypatch, text, cld2_says, lang):
    from indicifeval.text import langid

    monkeypatch.setattr(langid, "_cld2_ranking", lambda text, candidates: [cld2_says])
    assert identify(text).language == lang


@pytest.mark.parametrize(
    "text,cld2_says,lang",
    [
        # Nepali case endings written onto foreign names and nouns, with र (and)
        ("जोनको घर लन्डनमा छ र उसका साथीहरू पनि त्यहीँ बस्छन्", "hi", "ne"),
        ("कम्पनीका प्रमुखले सोमबार नयाँ योजनाको घोषणा गरे", "hi", "ne"),
        # a Hindi sentence with names in -को (Monaco, Mexico) and the word को stays Hindi
        ("मोनैको और मैक्सिको के खिलाड़ियों को पुरस्कार दिया गया था", "ne", "hi"),
        ("राम को किताब दी गई और उसने उसे पढ़ा", "ne", "hi"),
        # colloquial Marathi writes the neuter with anusvara (होतं, केलं): not Sanskrit's -ं
        ("मला वाटतं की त्याने ते काम आधीच केलं होतं", "sa", "mr"),
        ("माझं घर इथून फार लांब नाही", "hi", "mr"),
        # Sanskrit accusatives, locatives and genitive plurals
        ("बालकाः उद्याने क्रीडन्ति तेषां मित्राणि अपि तत्र सन्ति", "hi", "sa"),
        ("सा भाषायां पुस्तकं पठति", "ne", "sa"),
    ],
)
def test_distinctive_endings_and_words_decide_inside_devanagari(monkeypatch, text, cld2_says, lang):
    from indicifeval.text import langid

    monkeypatch.setattr(langid, "_cld2_ranking", lambda text, candidates: [cld2_says])
    assert identify(text).language == lang


def test_an_ending_counts_only_on_a_stem_and_not_on_the_listed_exceptions():
    from indicifeval.text.langid_hints import _distinctive_endings

    nepali = _distinctive_endings()["ne"]
    assert nepali.marks("पार्कको") and nepali.marks("घरमा") and nepali.marks("र")
    assert not nepali.marks("को") and not nepali.marks("मा")  # the ending alone is a Hindi word
    assert not nepali.marks("आपको") and not nepali.marks("सीमा")  # Hindi words spelt so


def test_a_joiner_inside_a_word_does_not_split_it():
    # उत्‍साही with a zero-width joiner is one Hindi word, not उत् (Sanskrit's -त्) and साही
    text = "राजेश उत्\u200dसाही प्रस्तुतकर्ता राजेश उत्\u200dसाही ने इसे ब्लॉग पर लिखा है"
    assert identify(text).language == "hi"


@pytest.mark.parametrize(
    "text,cld2_says,lang",
    [
        ("índice de memoria excedido para el bloque base", "pt", "es"),  # el: a marker, too few to vote
        ("índice de memória excedido para um bloco base", "es", "pt"),  # um
    ],
)
def test_spanish_and_portuguese_markers(monkeypatch, text, cld2_says, lang):
    from indicifeval.text import langid

    monkeypatch.setattr(langid, "_cld2_ranking", lambda text, candidates: [cld2_says])
    assert (identify(text).language, identify(text).method) == (lang, "markers")


def test_a_listed_marker_word_outranks_the_spelling_rules():
    from indicifeval.text.langid import _markers, _marks

    table = _markers()
    da, no = table["da"], table["no"]
    assert _marks("omdøbe", da, no) == 1  # listed Danish; ø is a letter both write
    assert _marks("forkert", da, no) == 1  # listed Danish; -ert is a Norwegian ending
    assert _marks("konfigurert", da, no) == -1  # the ending alone
    assert _marks("ikke", da, no) == 0  # listed by both
    assert _marks("filen", da, no) == 0


def test_neighbour_markers_are_well_formed():
    from indicifeval.languages import world_languages

    table = world_languages()
    found = 0
    for code, info in table.items():
        spec = info.get("markers")
        if not spec:
            continue
        found += 1
        assert set(spec) <= {"against", "words", "endings", "contains"}, code
        assert spec["against"] and all(other in table for other in spec["against"]), code
        assert all(table[other]["script"] == info["script"] for other in spec["against"]), code
        assert all(table[other].get("markers") for other in spec["against"]), code
        for field in ("words", "endings", "contains"):
            value = spec.get(field, "")
            assert isinstance(value, str) and value == value.casefold(), (code, field)
    assert found >= 5


# -- the voting words' one-pass path -------------------------------------------------------------
def test_every_letter_python_calls_upper_case_sends_the_voting_words_down_the_full_path():
    import sys

    from indicifeval.text.langid_words import _ANY_UPPER

    missed = [hex(c) for c in range(sys.maxunicode + 1) if chr(c).isupper() and not _ANY_UPPER.match(chr(c))]
    assert missed == []


def _voting_words_full(text: str) -> list[str]:
    """The voting words by the full path, whatever the text (the one-pass and ASCII paths
    switched off)."""
    import regex

    from indicifeval.text import langid_words

    kept = langid_words._ANY_UPPER
    langid_words._ANY_UPPER = regex.compile(r"")  # matches everywhere: never the one-pass path
    try:
        return langid_words._unicode_voting_words(text)
    finally:
        langid_words._ANY_UPPER = kept


@pytest.mark.parametrize("text", [
    "कल मैं बाज़ार गया था और वहाँ बहुत भीड़ थी।", "আমি ভাত খাই", "ہم نے کھانا کھایا", "the lord of the rings",
    "The Lord of the Rings is long. SELECT it ON time", "ǅemal and ϒ are odd letters", "", "123 ... !!",
    "मैं iPhone पर Google खोलता हूँ", "straße ǆ ǉ", "x\u0301y ̃z",
])
def test_the_one_pass_path_gives_the_full_paths_words(text):
    from indicifeval.text.langid import _voting_words

    assert _voting_words(text) == _voting_words_full(text)


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=80))
def test_the_one_pass_path_gives_the_full_paths_words_on_any_text(text):
    from indicifeval.text.langid import _voting_words

    assert _voting_words(text) == _voting_words_full(text)


def test_no_letter_casefolds_to_a_space_so_the_words_casefold_together():
    import sys

    assert [hex(c) for c in range(sys.maxunicode + 1) if c != 0x20 and " " in chr(c).casefold()] == []


@given(st.lists(st.text(alphabet=st.characters(categories=("L", "M")), min_size=1, max_size=8), max_size=20))
def test_the_tokens_are_the_voting_words_casefolded_one_by_one(words):
    from collections import Counter

    from indicifeval.text import langid

    text = " ".join(words) + " "  # a new object each time: no cached tokens
    assert langid._tokens(text) == Counter(w.casefold() for w in langid._voting_words(text[:langid._MAX_CHARS]))



def test_a_broken_sample_line_is_named_by_its_line_in_the_file(tmp_path):
    """Blank lines count: the error names the line an editor shows, with its column."""
    from indicifeval.core.errors import InputError
    from indicifeval.text.langid_check import sample_texts

    path = tmp_path / "sample.jsonl"
    path.write_text('{"text": "एक"}\n\n\n{"text": \n', encoding="utf-8")
    with pytest.raises(InputError) as err:
        sample_texts(path)
    assert err.value.line == 4 and "column 10)" in err.value.message, str(err.value)
