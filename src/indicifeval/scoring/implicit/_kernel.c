/* The implicit constraints' counting in one pass over an answer: its words (the regular
 * expression of view.py, read from a table of character classes built from the same
 * expression's classes), their 64-bit hashes, the word 4-grams, the lines, and the counts
 * the constraints compare with their thresholds. Optional: measures.py computes the same
 * counts in Python where this is not built (INDICIFEVAL_PURE_PYTHON=1 turns it off), and
 * tests/scoring/test_implicit_kernel.py holds the two to the same numbers. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* character classes: bits of the table's bytes (measures.py builds it) */
#define C_L 1       /* \p{L} */
#define C_M 2       /* \p{M} */
#define C_N 4       /* \p{N} */
#define C_JOIN 8    /* ZWNJ, ZWJ */
#define C_APOS 16   /* ' and the right single quotation mark */
#define C_CF 32     /* \p{Cf} but the joiners */
#define C_BLANK 64  /* blank letters used as padding */
#define C_START (C_L | C_M | C_N)
#define C_WORD (C_START | C_JOIN | C_APOS)

#define TABLE_SIZE 0x110000
#define N_GRAM 4
#define TAIL (N_GRAM - 1)

static inline uint64_t mix64(uint64_t x) {
    x ^= x >> 30; x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27; x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x ? x : 1; /* 0 marks an empty slot */
}

typedef struct {
    Py_UCS4 *u;  /* the code points, copied once (no per-character switch on the string's kind) */
    Py_ssize_t len;
    const unsigned char *cls;
} Text;

static int read_text(PyObject *str, PyObject *table, Text *t) {
    t->u = NULL;
    if (!PyUnicode_Check(str)) { PyErr_SetString(PyExc_TypeError, "text must be str"); return -1; }
    if (!PyBytes_Check(table) || PyBytes_GET_SIZE(table) != TABLE_SIZE) {
        PyErr_SetString(PyExc_ValueError, "the class table must be bytes of length 0x110000");
        return -1;
    }
    t->u = PyUnicode_AsUCS4Copy(str);
    if (!t->u) return -1;
    t->len = PyUnicode_GET_LENGTH(str);
    t->cls = (const unsigned char *)PyBytes_AS_STRING(table);
    return 0;
}

static void text_free(Text *t) { PyMem_Free(t->u); t->u = NULL; }

#define CP(t, i) ((t)->u[(i)])
#define CLS(t, i) ((t)->cls[CP(t, i)])

/* ---- growable arrays and a hash set of 64-bit keys ---- */

typedef struct { uint64_t *v; Py_ssize_t n, cap; } U64s;

static int push(U64s *a, uint64_t x) {
    if (a->n == a->cap) {
        Py_ssize_t cap = a->cap ? a->cap * 2 : 256;
        uint64_t *v = realloc(a->v, (size_t)cap * sizeof(uint64_t));
        if (!v) { PyErr_NoMemory(); return -1; }
        a->v = v; a->cap = cap;
    }
    a->v[a->n++] = x;
    return 0;
}

typedef struct { uint64_t *keys; Py_ssize_t *vals; size_t mask; } Set;

static int set_init(Set *s, Py_ssize_t n, int with_vals) {
    size_t size = 16;
    while (size < (size_t)n * 2 + 1) size <<= 1;
    s->mask = size - 1;
    s->keys = calloc(size, sizeof(uint64_t));
    s->vals = with_vals ? calloc(size, sizeof(Py_ssize_t)) : NULL;
    if (!s->keys || (with_vals && !s->vals)) { free(s->keys); free(s->vals); PyErr_NoMemory(); return -1; }
    return 0;
}

static void set_free(Set *s) { free(s->keys); free(s->vals); s->keys = NULL; s->vals = NULL; }

/* the slot of key: where it is, or the empty one where it goes; *fresh says which */
static size_t set_slot(const Set *s, uint64_t key, int *fresh) {
    size_t i = (size_t)(key * 0x9e3779b97f4a7c15ULL >> 17) & s->mask;
    while (s->keys[i] && s->keys[i] != key) i = (i + 1) & s->mask;
    *fresh = s->keys[i] == 0;
    return i;
}

/* A set handed over from Python: the slots of a Set (table_of makes them), or no bytes for
 * the empty set. Its keys are never 0. */
typedef struct { const uint64_t *keys; size_t mask; int empty; } Frozen;

static int read_frozen(PyObject *b, Frozen *f) {
    Py_ssize_t n = PyBytes_GET_SIZE(b) / 8;
    if (PyBytes_GET_SIZE(b) % 8 || (n & (n - 1))) {
        PyErr_SetString(PyExc_ValueError, "a set must be the bytes table_of made");
        return -1;
    }
    f->keys = (const uint64_t *)PyBytes_AS_STRING(b);
    f->mask = n ? (size_t)n - 1 : 0;
    f->empty = n == 0;
    return 0;
}

/* the slot holding key, or -1 */
static Py_ssize_t frozen_slot(const Frozen *f, uint64_t key) {
    if (f->empty) return -1;
    size_t i = (size_t)(key * 0x9e3779b97f4a7c15ULL >> 17) & f->mask;
    while (f->keys[i]) {
        if (f->keys[i] == key) return (Py_ssize_t)i;
        i = (i + 1) & f->mask;
    }
    return -1;
}

/* ---- words ---- */

typedef struct { U64s hash, start, end; } Words;

static void words_free(Words *w) { free(w->hash.v); free(w->start.v); free(w->end.v); }

/* [\p{L}\p{M}\p{N}][\p{L}\p{M}\p{N}\u200c\u200d'’]* , each word hashed (FNV-1a, then mixed) */
static int split_words(const Text *t, Words *w, Py_ssize_t limit) {
    Py_ssize_t i = 0;
    memset(w, 0, sizeof(*w));
    while (i < t->len && (limit < 0 || w->hash.n < limit)) {
        if (!(CLS(t, i) & C_START)) { i++; continue; }
        Py_ssize_t s = i;
        uint64_t h = 0xcbf29ce484222325ULL;
        while (i < t->len && (CLS(t, i) & C_WORD)) {
            h = (h ^ CP(t, i)) * 0x100000001b3ULL;
            i++;
        }
        if (push(&w->hash, mix64(h)) < 0 || push(&w->start, (uint64_t)s) < 0 || push(&w->end, (uint64_t)i) < 0) {
            words_free(w);
            return -1;
        }
    }
    return 0;
}

static inline uint64_t gram_at(const uint64_t *h, Py_ssize_t i) {  /* the words' hashes are mixed already */
    return mix64(h[i] + h[i + 1] * 0x9e3779b97f4a7c15ULL + h[i + 2] * 0xc2b2ae3d27d4eb4fULL +
                 h[i + 3] * 0x165667b19e3779f9ULL);
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static PyObject *sorted_unique(U64s *a) {
    Py_ssize_t k = 0;
    if (a->n) {
        qsort(a->v, (size_t)a->n, sizeof(uint64_t), cmp_u64);
        for (Py_ssize_t i = 0; i < a->n; i++)
            if (!k || a->v[i] != a->v[k - 1]) a->v[k++] = a->v[i];
    }
    return PyBytes_FromStringAndSize((const char *)a->v, k * 8);
}

/* word_hashes(lowered, table) -> bytes: the words' hashes, sorted, once each */
static PyObject *word_hashes(PyObject *self, PyObject *args) {
    PyObject *str, *table;
    Text t;
    Words w;
    if (!PyArg_ParseTuple(args, "UO!", &str, &PyBytes_Type, &table) || read_text(str, table, &t) < 0) return NULL;
    int failed = split_words(&t, &w, -1) < 0;
    text_free(&t);
    if (failed) return NULL;
    PyObject *out = sorted_unique(&w.hash);
    words_free(&w);
    return out;
}

/* gram_hashes(lowered, table) -> bytes: the word 4-grams' hashes, sorted, once each */
static PyObject *gram_hashes(PyObject *self, PyObject *args) {
    PyObject *str, *table;
    Text t;
    Words w;
    U64s grams = {0};
    if (!PyArg_ParseTuple(args, "UO!", &str, &PyBytes_Type, &table) || read_text(str, table, &t) < 0) return NULL;
    int failed = split_words(&t, &w, -1) < 0;
    text_free(&t);
    if (failed) return NULL;
    for (Py_ssize_t i = 0; i + N_GRAM <= w.hash.n; i++)
        if (push(&grams, gram_at(w.hash.v, i)) < 0) { words_free(&w); free(grams.v); return NULL; }
    PyObject *out = sorted_unique(&grams);
    words_free(&w);
    free(grams.v);
    return out;
}

/* table_of(keys) -> bytes: 64-bit keys (none 0) as the slots of a hash set, for the lookups
 * below; no keys, no bytes */
static PyObject *table_of(PyObject *self, PyObject *args) {
    Py_buffer keys;
    if (!PyArg_ParseTuple(args, "y*", &keys)) return NULL;
    Py_ssize_t n = keys.len / 8;
    if (keys.len % 8) { PyBuffer_Release(&keys); PyErr_SetString(PyExc_ValueError, "64-bit keys"); return NULL; }
    if (!n) { PyBuffer_Release(&keys); return PyBytes_FromStringAndSize(NULL, 0); }
    Set set;
    if (set_init(&set, n, 0) < 0) { PyBuffer_Release(&keys); return NULL; }
    const uint64_t *k = (const uint64_t *)keys.buf;
    for (Py_ssize_t i = 0; i < n; i++) {
        int fresh;
        uint64_t key = k[i] ? k[i] : 1;
        size_t slot = set_slot(&set, key, &fresh);
        set.keys[slot] = key;
    }
    PyBuffer_Release(&keys);
    PyObject *out = PyBytes_FromStringAndSize((const char *)set.keys, (Py_ssize_t)(set.mask + 1) * 8);
    set_free(&set);
    return out;
}

/* the words inside a found gram (view.py's _covered): a run of found grams covers its words
 * and the next N-1, or fewer where the next run starts sooner */
static Py_ssize_t covered(const unsigned char *hit, Py_ssize_t n) {
    Py_ssize_t total = 0, i = 0;
    while (i < n) {
        if (!hit[i]) { i++; continue; }
        Py_ssize_t j = i;
        while (j < n && hit[j]) j++;
        Py_ssize_t k = j;
        while (k < n && !hit[k]) k++;
        Py_ssize_t tail = k < n ? k - j : TAIL;
        total += (j - i) + (tail < TAIL ? tail : TAIL);
        i = k;
    }
    return total;
}

/* the lines with a letter or digit, stripped (str.strip's whitespace), and how many differ */
static int count_lines(const Text *t, Py_ssize_t *n_lines, Py_ssize_t *distinct) {
    Py_ssize_t lines = 1;
    for (Py_ssize_t i = 0; i < t->len; i++) lines += CP(t, i) == '\n';
    Set seen;
    if (set_init(&seen, lines, 0) < 0) return -1;
    *n_lines = *distinct = 0;
    Py_ssize_t start = 0;
    while (start <= t->len) {
        Py_ssize_t end = start;
        while (end < t->len && CP(t, end) != '\n') end++;
        Py_ssize_t a = start, b = end;
        while (a < b && Py_UNICODE_ISSPACE(CP(t, a))) a++;
        while (b > a && Py_UNICODE_ISSPACE(CP(t, b - 1))) b--;
        int letter = 0;
        uint64_t h = 0xcbf29ce484222325ULL;
        for (Py_ssize_t i = a; i < b; i++) {
            letter |= (CLS(t, i) & (C_L | C_N)) != 0;
            h = (h ^ CP(t, i)) * 0x100000001b3ULL;
        }
        if (letter) {
            int fresh;
            uint64_t key = mix64(h ^ (uint64_t)(b - a));
            size_t slot = set_slot(&seen, key, &fresh);
            if (fresh) { seen.keys[slot] = key; (*distinct)++; }
            (*n_lines)++;
        }
        start = end + 1;
    }
    set_free(&seen);
    return 0;
}

/* measure(lowered, table, own, stated, whole, given, keywords) -> (words, letters, top_count,
 * top_start, top_end, grams, distinct_grams, own_covered, stated_covered, whole_found,
 * only_given, keyword_words, lines, distinct_lines); the five sets made by table_of */
static PyObject *measure(PyObject *self, PyObject *args) {
    PyObject *str, *table, *b_own, *b_stated, *b_whole, *b_given, *b_keywords;
    Frozen own, stated, whole, given, keywords;
    Text t;
    Words w;
    if (!PyArg_ParseTuple(args, "UO!O!O!O!O!O!", &str, &PyBytes_Type, &table, &PyBytes_Type, &b_own, &PyBytes_Type,
                          &b_stated, &PyBytes_Type, &b_whole, &PyBytes_Type, &b_given, &PyBytes_Type, &b_keywords))
        return NULL;
    if (read_frozen(b_own, &own) < 0 || read_frozen(b_stated, &stated) < 0 || read_frozen(b_whole, &whole) < 0 ||
        read_frozen(b_given, &given) < 0 || read_frozen(b_keywords, &keywords) < 0 || read_text(str, table, &t) < 0)
        return NULL;
    if (split_words(&t, &w, -1) < 0) { text_free(&t); return NULL; }
    Py_ssize_t n = w.hash.n, letters = 0, top_count = 0, top_first = -1, keyword_words = 0;
    int only_given = 1;
    Set counts = {0}, grams_seen = {0};
    unsigned char *hit_own = NULL, *hit_stated = NULL, *whole_seen = NULL;
    Py_ssize_t n_grams = n >= N_GRAM ? n - N_GRAM + 1 : 0, distinct = 0, whole_found = 0;
    Py_ssize_t n_lines = 0, distinct_lines = 0;
    PyObject *out = NULL;
    if (set_init(&counts, n, 1) < 0 || set_init(&grams_seen, n_grams, 0) < 0) goto done;
    hit_own = calloc((size_t)n_grams + 1, 1);
    hit_stated = calloc((size_t)n_grams + 1, 1);
    whole_seen = calloc(whole.empty ? 1 : whole.mask + 1, 1);
    if (!hit_own || !hit_stated || !whole_seen) { PyErr_NoMemory(); goto done; }
    for (Py_ssize_t i = 0; i < n; i++) {
        uint64_t h = w.hash.v[i];
        int fresh;
        letters += (Py_ssize_t)(w.end.v[i] - w.start.v[i]);
        size_t slot = set_slot(&counts, h, &fresh);
        if (fresh) { counts.keys[slot] = h; counts.vals[slot] = 0; }
        if (++counts.vals[slot] > top_count) top_count = counts.vals[slot];
        if (only_given && frozen_slot(&given, h) < 0) only_given = 0;
        keyword_words += frozen_slot(&keywords, h) >= 0;
    }
    for (Py_ssize_t i = 0; i < n && top_first < 0; i++) {  /* Counter.most_common: the first seen of the most */
        int fresh;
        if (counts.vals[set_slot(&counts, w.hash.v[i], &fresh)] == top_count) top_first = i;
    }
    for (Py_ssize_t i = 0; i < n_grams; i++) {
        uint64_t g = gram_at(w.hash.v, i);
        int fresh;
        size_t slot = set_slot(&grams_seen, g, &fresh);
        if (fresh) { grams_seen.keys[slot] = g; distinct++; }
        hit_own[i] = frozen_slot(&own, g) >= 0;
        hit_stated[i] = hit_own[i] || frozen_slot(&stated, g) >= 0;
        Py_ssize_t at = frozen_slot(&whole, g);
        if (at >= 0 && !whole_seen[at]) { whole_seen[at] = 1; whole_found++; }
    }
    if (count_lines(&t, &n_lines, &distinct_lines) < 0) goto done;
    out = Py_BuildValue("(nnnnnnnnnnOnnn)", n, letters, top_count,
                        top_first >= 0 ? (Py_ssize_t)w.start.v[top_first] : (Py_ssize_t)0,
                        top_first >= 0 ? (Py_ssize_t)w.end.v[top_first] : (Py_ssize_t)0,
                        n_grams, distinct, covered(hit_own, n_grams), covered(hit_stated, n_grams), whole_found,
                        only_given ? Py_True : Py_False, keyword_words, n_lines, distinct_lines);
done:
    set_free(&counts);
    set_free(&grams_seen);
    free(hit_own);
    free(hit_stated);
    free(whole_seen);
    words_free(&w);
    text_free(&t);
    return out;
}

/* trigram_share(lowered, table, max_words, ranges, known) -> (trigrams, known_trigrams): the
 * character trigrams of " word " for the first max_words words whose first letter lies in
 * ranges (bytes of (lo, hi) uint32 pairs), and how many are in known (table_of of trigram
 * codes: three code points of 21 bits each) */
static PyObject *trigram_share(PyObject *self, PyObject *args) {
    PyObject *str, *table, *b_ranges, *b_known;
    Py_ssize_t max_words;
    Frozen known;
    Text t;
    Words w;
    if (!PyArg_ParseTuple(args, "UO!nO!O!", &str, &PyBytes_Type, &table, &max_words, &PyBytes_Type, &b_ranges,
                          &PyBytes_Type, &b_known))
        return NULL;
    if (PyBytes_GET_SIZE(b_ranges) % 8) { PyErr_SetString(PyExc_ValueError, "ranges: uint32 pairs"); return NULL; }
    if (read_frozen(b_known, &known) < 0 || read_text(str, table, &t) < 0) return NULL;
    const uint32_t *ranges = (const uint32_t *)PyBytes_AS_STRING(b_ranges);
    Py_ssize_t n_ranges = PyBytes_GET_SIZE(b_ranges) / 8;
    if (split_words(&t, &w, max_words) < 0) { text_free(&t); return NULL; }
    Py_ssize_t total = 0, found = 0;
    for (Py_ssize_t k = 0; k < w.hash.n; k++) {
        Py_ssize_t s = (Py_ssize_t)w.start.v[k], e = (Py_ssize_t)w.end.v[k];
        Py_UCS4 first = CP(&t, s);
        int inside = 0;
        for (Py_ssize_t r = 0; r < n_ranges && !inside; r++) inside = ranges[2 * r] <= first && first <= ranges[2 * r + 1];
        if (!inside) continue;
        /* " w o r d ": positions s-1 and e are spaces */
        for (Py_ssize_t i = s - 1; i + 2 <= e; i++) {
            uint64_t code = 0;
            for (Py_ssize_t j = i; j < i + 3; j++) code = code << 21 | (uint64_t)((j < s || j >= e) ? ' ' : CP(&t, j));
            total++;
            found += frozen_slot(&known, code) >= 0;
        }
    }
    words_free(&w);
    text_free(&t);
    return Py_BuildValue("(nn)", total, found);
}

/* invisible(text, table) -> (matches, text without them): view.py's _INVISIBLE, whose matches
 * are a run of three or more joiners; a run of one or two touching no letter, mark or joiner on
 * either side; any other format character or blank letter (one match each) */
static PyObject *invisible(PyObject *self, PyObject *args) {
    PyObject *str, *table;
    Text t;
    if (!PyArg_ParseTuple(args, "UO!", &str, &PyBytes_Type, &table) || read_text(str, table, &t) < 0) return NULL;
    Py_ssize_t matches = 0, kept = 0;
    Py_UCS4 *out = PyMem_Malloc((size_t)(t.len + 1) * sizeof(Py_UCS4));
    if (!out) { text_free(&t); return PyErr_NoMemory(); }
    Py_ssize_t i = 0;
    while (i < t.len) {
        unsigned char c = CLS(&t, i);
        if (c & C_JOIN) {
            Py_ssize_t j = i;
            while (j < t.len && (CLS(&t, j) & C_JOIN)) j++;
            int gone = j - i >= 3;
            if (!gone) {
                int before = i > 0 && (CLS(&t, i - 1) & (C_L | C_M | C_JOIN));
                int after = j < t.len && (CLS(&t, j) & (C_L | C_M));
                gone = !before && !after;
            }
            if (gone) matches++;
            else for (Py_ssize_t k = i; k < j; k++) out[kept++] = CP(&t, k);
            i = j;
        } else if (c & (C_CF | C_BLANK)) {
            matches++;
            i++;
        } else {
            out[kept++] = CP(&t, i);
            i++;
        }
    }
    PyObject *text;
    if (!matches) { Py_INCREF(str); text = str; }
    else text = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, out, kept);
    PyMem_Free(out);
    text_free(&t);
    if (!text) return NULL;
    PyObject *result = Py_BuildValue("(nN)", matches, text);
    return result;
}

static PyMethodDef methods[] = {
    {"word_hashes", word_hashes, METH_VARARGS, "The words' hashes, sorted, once each."},
    {"gram_hashes", gram_hashes, METH_VARARGS, "The word 4-grams' hashes, sorted, once each."},
    {"table_of", table_of, METH_VARARGS, "64-bit keys as the slots of a hash set."},
    {"measure", measure, METH_VARARGS, "The implicit constraints' counts for one lower-cased answer."},
    {"trigram_share", trigram_share, METH_VARARGS, "Letter trigrams of the first words, and how many are known."},
    {"invisible", invisible, METH_VARARGS, "Invisible characters outside words: how many, and the text without."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_kernel", NULL, -1, methods};

PyMODINIT_FUNC PyInit__kernel(void) { return PyModule_Create(&module); }
