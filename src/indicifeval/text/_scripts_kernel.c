/* Per-character table scans of a text, each table one or more bytes per BMP code point.
 * counts: letters and marks per script at evenly spaced places of a text (text/scripts.py's
 * script_counts), from one byte per code point: 0 for a character that is not counted (no
 * letter or mark, or in no script's ranges), else its script's number + 1.
 * nfc_clear: whether a text is certainly its own NFC (text/nfc_fast.py builds the tables from
 * unicodedata and says which characters they cover).
 * paper_words: the authors' word count of a text (text/words.py).
 * word_runs: the corrected and IFEval's word counts of a text (text/words.py); class_runs: the
 * runs of a class of characters (language identification's voting words, text/langid_words.py).
 * Optional: scripts.py, nfc_fast.py and words.py do the same in Python where this is not built
 * (INDICIFEVAL_PURE_PYTHON=1 turns it off); tests/text/test_fast_paths.py,
 * tests/text/test_nfc_clear.py and tests/text/test_words.py hold them equal. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#define TABLE 0x10000
#define MAX_SCRIPTS 255

/* counts(text, table, stride) -> [(script number, first place, count), ...] in the order of
 * each script's first counted character, reading text[0], text[stride], ... */
static PyObject *counts(PyObject *self, PyObject *args) {
    PyObject *str;
    Py_buffer table;
    Py_ssize_t stride;
    if (!PyArg_ParseTuple(args, "Uy*n", &str, &table, &stride)) return NULL;
    if (table.len != TABLE || stride < 1) {
        PyBuffer_Release(&table);
        PyErr_SetString(PyExc_ValueError, "a table of 65536 bytes and a stride of at least 1");
        return NULL;
    }
    const unsigned char *tab = (const unsigned char *)table.buf;
    int kind = PyUnicode_KIND(str);
    const void *data = PyUnicode_DATA(str);
    Py_ssize_t len = PyUnicode_GET_LENGTH(str), n[MAX_SCRIPTS + 1] = {0}, first[MAX_SCRIPTS + 1];
    unsigned char order[MAX_SCRIPTS];
    int found = 0;
    for (Py_ssize_t i = 0, k = 0; i < len; i += stride, k++) {
        Py_UCS4 cp = PyUnicode_READ(kind, data, i);
        if (cp >= TABLE) continue;
        unsigned char s = tab[cp];
        if (!s) continue;
        if (!n[s]++) { first[s] = k; order[found++] = s; }
    }
    PyBuffer_Release(&table);
    PyObject *out = PyList_New(found);
    if (!out) return NULL;
    for (int j = 0; j < found; j++) {
        PyObject *item = Py_BuildValue("(inn)", order[j] - 1, first[order[j]], n[order[j]]);
        if (!item) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, j, item);
    }
    return out;
}

/* nfc_clear(text, table, pairs) -> True where every character is covered and no neighbour can
 * change it under NFC. table: three planes of 65536 bytes: the canonical combining class of
 * the first and of the last character of each code point's decomposition (ordering), and
 * flags (1: not covered, 2: the second half of a composition, 4: the first half of one).
 * pairs: sorted 32-bit (first << 16 | second) of the compositions whose second half is
 * covered. False: unknown. */
#define NOT_COVERED 1
#define SECOND_HALF 2
#define FIRST_HALF 4

static int has_pair(const uint32_t *pairs, Py_ssize_t n, uint32_t key) {
    Py_ssize_t lo = 0, hi = n;
    while (lo < hi) {
        Py_ssize_t mid = (lo + hi) / 2;
        if (pairs[mid] < key) lo = mid + 1; else hi = mid;
    }
    return lo < n && pairs[lo] == key;
}

#define NFC_SCAN(T, DATA) do {                                                                        \
        const T *chars = (const T *)(DATA);                                                           \
        Py_UCS4 prev = 0;                                                                             \
        unsigned char prev_trail = 0;                                                                 \
        for (Py_ssize_t i = 0; i < len; i++) {                                                        \
            Py_UCS4 cp = chars[i];                                                                    \
            if (cp >= TABLE || (flags[cp] & NOT_COVERED)) { clear = 0; break; }                       \
            unsigned char first = lead[cp];                                                           \
            if (first && prev_trail > first) { clear = 0; break; }  /* out of canonical order */      \
            /* a mark may compose with a starter across other marks: judged only after a starter */   \
            if ((flags[cp] & SECOND_HALF) && ((first && prev_trail) || ((flags[prev] & FIRST_HALF) && \
                    has_pair(pair, n_pairs, ((uint32_t)prev << 16) | cp)))) { clear = 0; break; }     \
            prev = cp;                                                                                \
            prev_trail = trail[cp];                                                                   \
        }                                                                                             \
    } while (0)

static PyObject *nfc_clear(PyObject *self, PyObject *args) {
    PyObject *str;
    Py_buffer table, pairs;
    if (!PyArg_ParseTuple(args, "Uy*y*", &str, &table, &pairs)) return NULL;
    if (table.len != 3 * TABLE || pairs.len % 4) {
        PyBuffer_Release(&table);
        PyBuffer_Release(&pairs);
        PyErr_SetString(PyExc_ValueError, "a table of 3 x 65536 bytes and pairs of 4 bytes each");
        return NULL;
    }
    const unsigned char *lead = (const unsigned char *)table.buf, *trail = lead + TABLE, *flags = lead + 2 * TABLE;
    const uint32_t *pair = (const uint32_t *)pairs.buf;
    Py_ssize_t n_pairs = pairs.len / 4;
    Py_ssize_t len = PyUnicode_GET_LENGTH(str);
    int clear = 1;
    switch (PyUnicode_KIND(str)) {  /* one loop per width: no per-character switch */
        case PyUnicode_1BYTE_KIND: NFC_SCAN(Py_UCS1, PyUnicode_1BYTE_DATA(str)); break;
        case PyUnicode_2BYTE_KIND: NFC_SCAN(Py_UCS2, PyUnicode_2BYTE_DATA(str)); break;
        default: NFC_SCAN(Py_UCS4, PyUnicode_4BYTE_DATA(str)); break;
    }
    PyBuffer_Release(&table);
    PyBuffer_Release(&pairs);
    return PyBool_FromLong(clear);
}

/* paper_words(text, punct, numbers) -> indic-nlp's trivial tokens of text (punctuation padded
 * with spaces, tabs made spaces, split at single spaces) less the one-character tokens that are
 * not word characters (stdlib re's [^\w\s]), or 1 where there is no token at all. punct: a byte
 * per BMP code point, 1 for a punctuation character the tokenizer pads, 3 for one that is also a
 * word character (kept as a token). numbers: whether "1 , 000" sequences join into one token, as
 * the authors' ([0-9]+ [,.:/] )+[0-9]+ on the tokens joined by spaces does (not at the very
 * start): a token ending in a digit, then a mark and a token starting with one, as long as the
 * tokens between are digits; each join takes one kept token per mark away. */
enum { IDLE, AFTER_START, AFTER_MARK, AFTER_DIGITS };

typedef struct {
    int state, skip;
    Py_ssize_t confirmed, joined;  /* marks in the chain up to its last digits; marks joined in all */
} Chain;

/* A token that is not part of a chain may start one: it ends in a digit. */
static void chain_restart(Chain *c, int run, int ends_digit, int all_digits, int first) {
    if (run && ends_digit) {
        c->state = AFTER_START;
        c->confirmed = 0;
        c->skip = first && all_digits;  /* the sequence would begin the joined text: not joined */
    } else {
        c->state = IDLE;
    }
}

static void chain_commit(Chain *c) {
    if (c->confirmed && !c->skip) c->joined += c->confirmed;
}

static void chain_feed(Chain *c, int run, int mark, int starts_digit, int ends_digit, int all_digits, int first) {
    switch (c->state) {
        case AFTER_START:
        case AFTER_DIGITS:
            if (mark) { c->state = AFTER_MARK; return; }
            chain_commit(c);
            chain_restart(c, run, ends_digit, all_digits, first);
            return;
        case AFTER_MARK:
            if (run && starts_digit) {
                c->confirmed++;
                if (all_digits) { c->state = AFTER_DIGITS; return; }
                chain_commit(c);  /* the match ends in this token; one may start past its digits */
                chain_restart(c, run, ends_digit, 0, 0);
                return;
            }
            chain_commit(c);  /* the mark is not followed by a number: the chain ends before it */
            chain_restart(c, run, ends_digit, all_digits, first);
            return;
        default:
            chain_restart(c, run, ends_digit, all_digits, first);
    }
}

/* 0 where table is TABLE bytes long, else -1 with the buffer released and ValueError set. */
static int table_ok(Py_buffer *table, const char *who) {
    if (table->len == TABLE) return 0;
    PyBuffer_Release(table);
    PyErr_Format(PyExc_ValueError, "%s: a table of 65536 bytes", who);
    return -1;
}

/* Whether text has a character past the BMP (a table has no byte for it). */
static int past_bmp(PyObject *text) {
    if (PyUnicode_KIND(text) != PyUnicode_4BYTE_KIND) return 0;
    const Py_UCS4 *data = PyUnicode_4BYTE_DATA(text);
    for (Py_ssize_t j = 0; j < PyUnicode_GET_LENGTH(text); j++)
        if (data[j] >= TABLE) return 1;
    return 0;
}

#define IS_DIGIT(ch) ((ch) >= '0' && (ch) <= '9')
#define IS_MARK(ch) ((ch) == ',' || (ch) == '.' || (ch) == ':' || (ch) == '/')

static PyObject *paper_words(PyObject *self, PyObject *args) {
    PyObject *str;
    Py_buffer table;
    int numbers;
    if (!PyArg_ParseTuple(args, "Uy*p", &str, &table, &numbers) || table_ok(&table, "paper_words") < 0) return NULL;
    const unsigned char *punct = (const unsigned char *)table.buf;
    int kind = PyUnicode_KIND(str);
    const void *data = PyUnicode_DATA(str);
    Py_ssize_t len = PyUnicode_GET_LENGTH(str), tokens = 0, kept = 0, run = 0;
    Py_UCS4 first = 0, last = 0;
    int all_digits = 1;
    Chain chain = {IDLE, 0, 0, 0};
    for (Py_ssize_t i = 0; i <= len; i++) {
        Py_UCS4 cp = i < len ? PyUnicode_READ(kind, data, i) : ' ';
        unsigned char p = cp < TABLE ? punct[cp] : 0;
        if (cp == ' ' || cp == '\t' || p) {
            if (run) {  /* a run of other characters ends: one token */
                if (run > 1 || Py_UNICODE_ISALNUM(first) || first == '_' || Py_UNICODE_ISSPACE(first)) kept++;
                if (numbers) chain_feed(&chain, 1, 0, IS_DIGIT(first), IS_DIGIT(last), all_digits, tokens == 0);
                tokens++;
                run = 0;
            }
            if (p) {  /* a punctuation character is a token of its own */
                if (p & 2) kept++;
                if (numbers) chain_feed(&chain, 0, IS_MARK(cp), 0, 0, 0, tokens == 0);
                tokens++;
            }
        } else {
            if (!run++) { first = cp; all_digits = 1; }
            last = cp;
            all_digits &= IS_DIGIT(cp);
        }
    }
    if (chain.state == AFTER_DIGITS || chain.state == AFTER_MARK) chain_commit(&chain);
    PyBuffer_Release(&table);
    return PyLong_FromSsize_t(tokens ? kept - chain.joined : 1);
}

/* word_runs(text, table, kind) -> the number of matches findall finds of one of text/words.py's
 * word patterns, or -1 where the text has a character past the BMP (the pattern counts it then).
 * table: a byte per BMP code point, its bits the character classes the patterns name (below).
 * kind 0: _WORD, \p{N}+(?:[.,:/]\p{N}+)+ | [LMN][LMNJ]*(?:['’][LMNJ]+)*, the first alternative
 * first; kind 1: \w+; kind 2: [^\W\u200c\u200d]\w*. Each part of the patterns is a greedy run
 * that the next part cannot begin with, so matching left to right without backtracking finds
 * what the regex engine finds. */
#define C_N 1    /* \p{N} */
#define C_LMN 2  /* [\p{L}\p{M}\p{N}] */
#define C_J 4    /* U+200C U+200D */
#define C_A 8    /* ' or ’ */
#define C_S 16   /* [.,:/] */
#define C_W 32   /* the regex engine's \w */

static PyObject *word_runs(PyObject *self, PyObject *args) {
    PyObject *text;
    Py_buffer table;
    int kind;
    (void)self;
    if (!PyArg_ParseTuple(args, "Uy*i", &text, &table, &kind) || table_ok(&table, "word_runs") < 0) return NULL;
    if (kind < 0 || kind > 2) {
        PyBuffer_Release(&table);
        PyErr_SetString(PyExc_ValueError, "word_runs: a kind of 0, 1 or 2");
        return NULL;
    }
    const unsigned char *t = (const unsigned char *)table.buf;
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), i = 0, j, count = 0;
    int ukind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    if (past_bmp(text)) {
        PyBuffer_Release(&table);
        return PyLong_FromLong(-1);
    }
#define CLS(k) (t[PyUnicode_READ(ukind, data, (k))])
    while (i < n) {
        unsigned char c = CLS(i);
        if (kind != 0) { /* \w+, or [^\W\u200c\u200d]\w*: a run of \w from its first non-joiner */
            if ((c & C_W) && !(kind == 2 && (c & C_J))) {
                for (j = i + 1; j < n && (CLS(j) & C_W); j++) {}
                count++;
                i = j;
            } else i++;
            continue;
        }
        if (c & C_N) { /* \p{N}+(?:[.,:/]\p{N}+)+ */
            int groups = 0;
            for (j = i + 1; j < n && (CLS(j) & C_N); j++) {}
            while (j + 1 < n && (CLS(j) & C_S) && (CLS(j + 1) & C_N)) {
                for (j += 2; j < n && (CLS(j) & C_N); j++) {}
                groups++;
            }
            if (groups) {
                count++;
                i = j;
                continue;
            }
        }
        if (c & C_LMN) { /* [LMN][LMNJ]*(?:['’][LMNJ]+)* */
            for (j = i + 1; j < n && (CLS(j) & (C_LMN | C_J)); j++) {}
            while (j + 1 < n && (CLS(j) & C_A) && (CLS(j + 1) & (C_LMN | C_J)))
                for (j += 2; j < n && (CLS(j) & (C_LMN | C_J)); j++) {}
            count++;
            i = j;
            continue;
        }
        i++;
    }
#undef CLS
    PyBuffer_Release(&table);
    return PyLong_FromSsize_t(count);
}

/* class_runs(text, table, mask) -> the maximal runs of characters whose table byte has a bit of
 * mask, as strings in order (findall of [class]+), or None where the text has a character past
 * the BMP (the pattern finds them then). table: word_runs' table. */
static PyObject *class_runs(PyObject *self, PyObject *args) {
    PyObject *text, *out;
    Py_buffer table;
    int mask;
    (void)self;
    if (!PyArg_ParseTuple(args, "Uy*i", &text, &table, &mask) || table_ok(&table, "class_runs") < 0) return NULL;
    const unsigned char *t = (const unsigned char *)table.buf;
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), i = 0, j;
    int ukind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    if (past_bmp(text)) {
        PyBuffer_Release(&table);
        Py_RETURN_NONE;
    }
    out = PyList_New(0);
    while (out && i < n) {
        if (!(t[PyUnicode_READ(ukind, data, i)] & mask)) {
            i++;
            continue;
        }
        for (j = i + 1; j < n && (t[PyUnicode_READ(ukind, data, j)] & mask); j++) {}
        PyObject *run = PyUnicode_Substring(text, i, j);
        if (!run || PyList_Append(out, run) < 0) {
            Py_XDECREF(run);
            Py_CLEAR(out);
            break;
        }
        Py_DECREF(run);
        i = j;
    }
    PyBuffer_Release(&table);
    return out;
}

static PyMethodDef methods[] = {
    {"class_runs", class_runs, METH_VARARGS, "The runs of a class of characters in a text."},
    {"word_runs", word_runs, METH_VARARGS, "How many words of text/words.py's patterns a text has."},
    {"paper_words", paper_words, METH_VARARGS, "The authors' word count of a text."},
    {"counts", counts, METH_VARARGS, "Letters and marks per script at every stride-th character."},
    {"nfc_clear", nfc_clear, METH_VARARGS, "Whether a text is certainly its own NFC."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_scripts_kernel", NULL, -1, methods};

PyMODINIT_FUNC PyInit__scripts_kernel(void) { return PyModule_Create(&module); }
