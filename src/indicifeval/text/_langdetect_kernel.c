/* langdetect 1.0.9's estimation (Detector._detect_block's seven trials), compiled, and the
   n-gram lookups of text/langdetect_ngrams.py (line_words, word_grams, gram_entry: see each).

   The pure-Python version is indicifeval.text.langdetect_fast._estimate; this one runs the
   same algorithm, literally as langdetect writes it, over all languages: the same draws from
   random.Random(0), the same floating-point operations in the same order. It is optional:
   without a compiler the package installs without it and the Python version is used.

   Random(0)'s stream of 32-bit outputs is the same for every text, so Python passes it in,
   pre-drawn (Random(0).getrandbits(32 * k) as k little-endian words), and this code consumes
   it as random.Random would: random() takes two words, getrandbits(b) for b <= 32 one word
   shifted right by 32 - b, choice() draws getrandbits(n.bit_length()) until below n, and
   gauss() makes two values from two random() calls and keeps the second for its next call.

   Build with floating-point contraction off (setup.py passes -ffp-contract=off): a fused
   multiply-add would round differently from Python. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#define N_TRIAL 7
#define ITERATION_LIMIT 1000
#define CONV_THRESHOLD 0.99999
#define ALPHA_DEFAULT 0.5
#define ALPHA_WIDTH 0.05
#define BASE_FREQ 10000.0
#define TWOPI (2.0 * 3.141592653589793)

typedef struct {
    const unsigned char *bytes;
    Py_ssize_t n_words;
    Py_ssize_t pos;
    int has_gauss_next;
    double gauss_next;
} Stream;

/* 0 when the pre-drawn words are used up (the caller draws more and asks again). */
static int next_word(Stream *s, uint32_t *out)
{
    const unsigned char *b;
    if (s->pos >= s->n_words)
        return 0;
    b = s->bytes + 4 * s->pos++;
    *out = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    return 1;
}

/* random.Random.random(): 53 bits from two words. */
static int next_random(Stream *s, double *out)
{
    uint32_t a, b;
    if (!next_word(s, &a) || !next_word(s, &b))
        return 0;
    *out = ((double)(a >> 5) * 67108864.0 + (double)(b >> 6)) * (1.0 / 9007199254740992.0);
    return 1;
}

/* random.Random.gauss(0.0, 1.0). */
static int next_gauss(Stream *s, double *out)
{
    volatile double z, scaled;
    double u1, u2, x2pi, g2rad;
    if (s->has_gauss_next) {
        z = s->gauss_next;
        s->has_gauss_next = 0;
    } else {
        if (!next_random(s, &u1))
            return 0;
        x2pi = u1 * TWOPI;
        if (!next_random(s, &u2))
            return 0;
        g2rad = sqrt(-2.0 * log(1.0 - u2));
        z = cos(x2pi) * g2rad;
        s->gauss_next = sin(x2pi) * g2rad;
        s->has_gauss_next = 1;
    }
    scaled = z * 1.0; /* mu + z * sigma, two roundings as in Python */
    *out = 0.0 + scaled;
    return 1;
}

/* random.Random.choice's index: getrandbits(bits) until below count. */
static int next_index(Stream *s, Py_ssize_t count, int shift, Py_ssize_t *out)
{
    uint32_t w;
    Py_ssize_t r;
    do {
        if (!next_word(s, &w))
            return 0;
        r = (Py_ssize_t)(w >> shift);
    } while (r >= count);
    *out = r;
    return 1;
}

/* The n-gram's profile vector as doubles: a ``bytes`` of n native doubles is read where it is
   (langdetect_fast packs each n-gram's vector once), a list of n floats is converted the first
   time it is drawn, into ``rows`` (allocated on the first list met). */
typedef struct {
    PyObject *vectors;   /* a list of the vectors, or NULL: */
    PyObject **flat;     /* the vectors of a tuple of runs (held by it) */
    Py_ssize_t count;
    Py_ssize_t n;
    const double **ptrs; /* per vector: where its doubles are, NULL until drawn */
    PyObject **held;     /* list only: per packed vector drawn, a reference, so that its doubles
                            stay put (a stop hook could take it out of the list; runs are tuples) */
    double *rows;
} Rows;

static const double *row(Rows *rs, Py_ssize_t r)
{
    PyObject *item;
    Py_ssize_t j, n = rs->n;
    double *v;
    if (rs->ptrs[r] != NULL)
        return rs->ptrs[r];
    if (rs->flat != NULL)
        item = rs->flat[r];
    else if (r >= PyList_GET_SIZE(rs->vectors)) { /* the stop hook shortened the list */
        PyErr_SetString(PyExc_ValueError, "the vectors changed during the estimation");
        return NULL;
    } else
        item = PyList_GET_ITEM(rs->vectors, r);
    if (PyBytes_Check(item)) {
        if (PyBytes_GET_SIZE(item) != n * (Py_ssize_t)sizeof(double)) {
            PyErr_SetString(PyExc_ValueError, "a packed vector must hold one double per language");
            return NULL;
        }
        if (rs->held != NULL)
            rs->held[r] = Py_NewRef(item);
        rs->ptrs[r] = (const double *)PyBytes_AS_STRING(item);
        return rs->ptrs[r];
    }
    if (!PyList_Check(item) || PyList_GET_SIZE(item) != n) {
        PyErr_SetString(PyExc_ValueError, "every vector must be a list with one float per language");
        return NULL;
    }
    if (rs->rows == NULL) {
        Py_ssize_t count = rs->count;
        rs->rows = (double *)malloc((size_t)count * (size_t)n * sizeof(double));
        if (rs->rows == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
    }
    v = rs->rows + r * n;
    for (j = 0; j < n; j++) {
        v[j] = PyFloat_AsDouble(PyList_GET_ITEM(item, j));
        if (v[j] == -1.0 && PyErr_Occurred())
            return NULL;
    }
    rs->ptrs[r] = v;
    return v;
}

static PyObject *to_list(const double *values, Py_ssize_t n)
{
    PyObject *list = PyList_New(n);
    Py_ssize_t j;
    if (list == NULL)
        return NULL;
    for (j = 0; j < n; j++) {
        PyObject *f = PyFloat_FromDouble(values[j]);
        if (f == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, j, f);
    }
    return list;
}

/* 1: ran all trials or stop said so, 0: words used up, -1: a Python error is set. */
static int run_trials(Rows *rs, Py_ssize_t n, Stream *s, PyObject *stop, double *langprob, double *prob)
{
    Py_ssize_t count = rs->count, j, r;
    int bits = 0, shift, trial, i;
    double g, weight, sump, maxp, p;
    const double *v;
    volatile double spread;

    while (bits < 32 && ((size_t)count >> bits) != 0)
        bits++;
    shift = 32 - bits;
    for (trial = 1; trial <= N_TRIAL; trial++) {
        for (j = 0; j < n; j++)
            prob[j] = 1.0 / (double)n;
        if (!next_gauss(s, &g))
            return 0;
        spread = g * ALPHA_WIDTH;
        weight = (ALPHA_DEFAULT + spread) / BASE_FREQ;
        for (i = 0;; i++) {
            if (!next_index(s, count, shift, &r))
                return 0;
            v = row(rs, r);
            if (v == NULL)
                return -1;
            for (j = 0; j < n; j++)
                prob[j] *= weight + v[j];
            if (i % 5 == 0) {
                sump = 0.0;
                for (j = 0; j < n; j++)
                    sump += prob[j];
                if (sump == 0.0) {
                    PyErr_SetString(PyExc_ZeroDivisionError, "float division by zero");
                    return -1;
                }
                maxp = 0.0;
                for (j = 0; j < n; j++) {
                    p = prob[j] / sump;
                    if (maxp < p)
                        maxp = p;
                    prob[j] = p;
                }
                if (maxp > CONV_THRESHOLD || i >= ITERATION_LIMIT)
                    break;
            }
        }
        for (j = 0; j < n; j++)
            langprob[j] += prob[j] / N_TRIAL;
        if (stop != Py_None && trial < N_TRIAL) {
            PyObject *list = to_list(langprob, n), *answer;
            int done;
            if (list == NULL)
                return -1;
            answer = PyObject_CallFunction(stop, "Oi", list, trial);
            Py_DECREF(list);
            if (answer == NULL)
                return -1;
            done = PyObject_IsTrue(answer);
            Py_DECREF(answer);
            if (done < 0)
                return -1;
            if (done)
                break;
        }
    }
    return 1;
}

PyDoc_STRVAR(estimate_doc,
"estimate(vectors, n, words, stop) -> list[float] | None\n\n"
"langdetect's averaged probabilities over n languages for a text whose n-grams' profile\n"
"vectors are ``vectors`` (lists of n floats, or bytes of n native doubles, in langdetect's\n"
"order), drawing from ``words``\n"
"(Random(0)'s 32-bit outputs as little-endian bytes). ``stop(langprob, trial)`` (or None) may\n"
"end the trials early. None when ``words`` ran out: call again with more.");

/* The estimation over the vectors ``rs`` names (count of them, n languages). */
static PyObject *run(Rows *rs, Py_ssize_t n, Py_buffer *words, PyObject *stop)
{
    PyObject *result = NULL;
    Py_ssize_t count = rs->count, k;
    Stream s;
    double *langprob = NULL, *prob = NULL;
    int status;

    rs->n = n;
    rs->ptrs = NULL;
    rs->held = NULL;
    rs->rows = NULL;
    if (n <= 0 || count <= 0 || (size_t)count > 0xFFFFFFFFu) {
        PyErr_SetString(PyExc_ValueError, "need at least one language and one vector");
        return NULL;
    }
    if ((size_t)count > PY_SSIZE_T_MAX / sizeof(double) / (size_t)n) {
        PyErr_NoMemory();
        return NULL;
    }
    s.bytes = (const unsigned char *)words->buf;
    s.n_words = words->len / 4;
    s.pos = 0;
    s.has_gauss_next = 0;
    s.gauss_next = 0.0;
    langprob = (double *)calloc((size_t)n, sizeof(double));
    prob = (double *)malloc((size_t)n * sizeof(double));
    rs->ptrs = (const double **)calloc((size_t)count, sizeof(double *));
    if (rs->flat == NULL)
        rs->held = (PyObject **)calloc((size_t)count, sizeof(PyObject *));
    if (langprob == NULL || prob == NULL || rs->ptrs == NULL || (rs->flat == NULL && rs->held == NULL)) {
        PyErr_NoMemory();
        goto done;
    }
    status = run_trials(rs, n, &s, stop, langprob, prob);
    if (status > 0)
        result = to_list(langprob, n);
    else if (status == 0)
        result = Py_NewRef(Py_None);
done:
    if (rs->held != NULL)
        for (k = 0; k < count; k++)
            Py_XDECREF(rs->held[k]);
    free(rs->held);
    free(langprob);
    free(prob);
    free((void *)rs->ptrs);
    free(rs->rows);
    return result;
}

static PyObject *estimate(PyObject *self, PyObject *args)
{
    PyObject *vectors, *stop, *result;
    Py_ssize_t n;
    Py_buffer words;
    Rows rs;

    (void)self;
    if (!PyArg_ParseTuple(args, "O!ny*O", &PyList_Type, &vectors, &n, &words, &stop))
        return NULL;
    rs.vectors = vectors;
    rs.flat = NULL;
    rs.count = PyList_GET_SIZE(vectors);
    Py_INCREF(vectors); /* (the stop hook may drop the caller's reference) */
    result = run(&rs, n, &words, stop);
    Py_DECREF(vectors);
    PyBuffer_Release(&words);
    return result;
}

PyDoc_STRVAR(estimate_runs_doc,
"estimate_runs(runs, n, words, stop) -> list[float] | None\n\n"
"``estimate`` of the vectors of ``runs``, a tuple of tuples of tuples of vectors (a text's\n"
"lines, their words, each word's n-grams), read in order without joining them first.");

static PyObject *estimate_runs(PyObject *self, PyObject *args)
{
    PyObject *runs, *stop, *result = NULL;
    Py_ssize_t n, count = 0, i, j, k, at = 0;
    Py_buffer words;
    Rows rs;

    (void)self;
    if (!PyArg_ParseTuple(args, "O!ny*O", &PyTuple_Type, &runs, &n, &words, &stop))
        return NULL;
    for (i = 0; i < PyTuple_GET_SIZE(runs); i++) {
        PyObject *run_ = PyTuple_GET_ITEM(runs, i);
        if (!PyTuple_Check(run_)) {
            PyErr_SetString(PyExc_TypeError, "every run must be a tuple of tuples of vectors");
            goto done;
        }
        for (j = 0; j < PyTuple_GET_SIZE(run_); j++) {
            PyObject *word = PyTuple_GET_ITEM(run_, j);
            if (!PyTuple_Check(word)) {
                PyErr_SetString(PyExc_TypeError, "every run must be a tuple of tuples of vectors");
                goto done;
            }
            count += PyTuple_GET_SIZE(word);
        }
    }
    rs.vectors = NULL;
    rs.count = count;
    rs.flat = (PyObject **)malloc((size_t)(count > 0 ? count : 1) * sizeof(PyObject *));
    if (rs.flat == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (i = 0; i < PyTuple_GET_SIZE(runs); i++) { /* (borrowed: the tuples hold them, and runs holds those) */
        PyObject *run_ = PyTuple_GET_ITEM(runs, i);
        for (j = 0; j < PyTuple_GET_SIZE(run_); j++) {
            PyObject *word = PyTuple_GET_ITEM(run_, j);
            for (k = 0; k < PyTuple_GET_SIZE(word); k++)
                rs.flat[at++] = PyTuple_GET_ITEM(word, k);
        }
    }
    result = run(&rs, n, &words, stop);
    free(rs.flat);
done:
    PyBuffer_Release(&words);
    return result;
}

/* line_words(words, table, masks) -> (tuple of each word's n-gram vectors, the OR of their
   masks): text/langdetect_ngrams.py's Extractor._line after the split, one dictionary lookup
   of each table a word, no list or set in between. table is a dict subclass whose __missing__
   fills both dictionaries (and keeps a long word in masks only): a word it lacks is asked of
   it through __getitem__. A mask past 64 bits is ORed as a Python int. */
PyDoc_STRVAR(line_words_doc, "line_words(words, table, masks) -> (vectors per word, mask)");

static PyObject *line_words(PyObject *self, PyObject *args) {
    PyObject *words, *table, *masks;
    if (!PyArg_ParseTuple(args, "O!O!O!", &PyList_Type, &words, &PyDict_Type, &table, &PyDict_Type, &masks))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(words);
    PyObject *out = PyTuple_New(n), *wide = NULL;
    if (!out) return NULL;
    unsigned long long mask = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *word = PyList_GET_ITEM(words, i);
        PyObject *grams = PyDict_GetItemWithError(table, word);  /* borrowed */
        if (grams) {
            Py_INCREF(grams);
        } else {
            if (PyErr_Occurred()) goto fail;
            grams = PyObject_GetItem(table, word);  /* __missing__ */
            if (!grams) goto fail;
        }
        PyTuple_SET_ITEM(out, i, grams);
        PyObject *bits = PyDict_GetItemWithError(masks, word);  /* borrowed */
        if (!bits) {
            if (!PyErr_Occurred()) PyErr_SetObject(PyExc_KeyError, word);
            goto fail;
        }
        unsigned long long value = PyLong_AsUnsignedLongLong(bits);
        if (value == (unsigned long long)-1 && PyErr_Occurred()) {
            if (!PyErr_ExceptionMatches(PyExc_OverflowError)) goto fail;
            PyErr_Clear();
            PyObject *joined = PyNumber_Or(wide ? wide : Py_False, bits);
            if (!joined) goto fail;
            Py_XDECREF(wide);
            wide = joined;
        } else {
            mask |= value;
        }
    }
    PyObject *low = PyLong_FromUnsignedLongLong(mask);
    if (!low) goto fail;
    if (wide) {
        PyObject *joined = PyNumber_Or(wide, low);
        Py_DECREF(low);
        Py_DECREF(wide);
        wide = NULL;
        if (!joined) goto fail;
        low = joined;
    }
    return Py_BuildValue("(NN)", out, low);
fail:
    Py_XDECREF(wide);
    Py_DECREF(out);
    return NULL;
}

/* word_grams(word, trailing_space, lookup) -> (tuple of the n-grams' vectors, the OR of their
   masks): text/langdetect_ngrams.py's grams_by_character of ' ' + word (+ ' '), as NGram reads
   it: per character the letter, the bigram and the trigram ending there (no lone space), and
   nothing for an upper-case letter after an upper-case one. lookup is a dict (a GramTable:
   a missing n-gram is asked of it through __getitem__, i.e. its __missing__) or any callable;
   an entry is None or (vector, mask). */
PyDoc_STRVAR(word_grams_doc, "word_grams(word, trailing_space, lookup) -> (vectors, mask)");

static int add_gram(PyObject *gram, PyObject *lookup, PyObject *out, unsigned long long *mask, PyObject **wide) {
    PyObject *entry;
    if (!gram) return -1;
    if (PyDict_Check(lookup)) {
        entry = PyDict_GetItemWithError(lookup, gram); /* borrowed */
        if (entry) {
            Py_INCREF(entry);
        } else {
            if (PyErr_Occurred()) { Py_DECREF(gram); return -1; }
            entry = PyObject_GetItem(lookup, gram); /* __missing__ */
        }
    } else {
        entry = PyObject_CallOneArg(lookup, gram);
    }
    Py_DECREF(gram);
    if (!entry) return -1;
    if (entry == Py_None) { Py_DECREF(entry); return 0; }
    if (!PyTuple_Check(entry) || PyTuple_GET_SIZE(entry) != 2) {
        Py_DECREF(entry);
        PyErr_SetString(PyExc_TypeError, "an n-gram's entry must be None or (vector, mask)");
        return -1;
    }
    if (PyList_Append(out, PyTuple_GET_ITEM(entry, 0)) < 0) { Py_DECREF(entry); return -1; }
    PyObject *bits = PyTuple_GET_ITEM(entry, 1);
    unsigned long long value = PyLong_AsUnsignedLongLong(bits);
    if (value == (unsigned long long)-1 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) { Py_DECREF(entry); return -1; }
        PyErr_Clear();
        PyObject *joined = PyNumber_Or(*wide ? *wide : Py_False, bits);
        Py_DECREF(entry);
        if (!joined) return -1;
        Py_XDECREF(*wide);
        *wide = joined;
        return 0;
    }
    Py_DECREF(entry);
    *mask |= value;
    return 0;
}

static PyObject *word_grams(PyObject *self, PyObject *args) {
    PyObject *word, *lookup, *s = NULL, *out = NULL, *wide = NULL, *result = NULL;
    int trailing;
    (void)self;
    if (!PyArg_ParseTuple(args, "UpO", &word, &trailing, &lookup)) return NULL;
    s = PyUnicode_FromFormat(trailing ? " %U " : " %U", word);
    if (!s) return NULL;
    out = PyList_New(0);
    if (!out) goto done;
    unsigned long long mask = 0;
    Py_ssize_t n = PyUnicode_GET_LENGTH(s);
    int kind = PyUnicode_KIND(s);
    const void *data = PyUnicode_DATA(s);
    int prev_upper = 0; /* s[0] is the space */
    for (Py_ssize_t k = 1; k < n; k++) {
        Py_UCS4 ch = PyUnicode_READ(kind, data, k);
        int upper = Py_UNICODE_ISUPPER(ch) ? 1 : 0;
        if (upper && prev_upper) continue; /* NGram.capitalword: nothing emitted */
        prev_upper = upper;
        if (ch != ' ' && add_gram(PyUnicode_Substring(s, k, k + 1), lookup, out, &mask, &wide) < 0) goto done;
        if (add_gram(PyUnicode_Substring(s, k - 1, k + 1), lookup, out, &mask, &wide) < 0) goto done;
        if (k >= 2 && add_gram(PyUnicode_Substring(s, k - 2, k + 1), lookup, out, &mask, &wide) < 0) goto done;
    }
    PyObject *vectors = PyList_AsTuple(out);
    if (!vectors) goto done;
    PyObject *low = PyLong_FromUnsignedLongLong(mask);
    if (!low) { Py_DECREF(vectors); goto done; }
    if (wide) {
        PyObject *joined = PyNumber_Or(wide, low);
        Py_DECREF(low);
        if (!joined) { Py_DECREF(vectors); goto done; }
        low = joined;
    }
    result = Py_BuildValue("(NN)", vectors, low);
done:
    Py_XDECREF(wide);
    Py_XDECREF(out);
    Py_DECREF(s);
    return result;
}

/* gram_entry(gram, having, n_langs, packed) -> (vector, mask) | None | NotImplemented:
   text/langdetect_ngrams.py's GramTable entry of an n-gram it has not seen, from the profiles
   that have n-grams with its first letter (having: tuples (index, counts, n-grams per length)).
   The same doubles as Python's 1.0 * count / n_words[len - 1]; NotImplemented where a count or
   an index is not an int Python would treat the same way (the Python version then decides). */
PyDoc_STRVAR(gram_entry_doc, "gram_entry(gram, having, n_langs, packed) -> entry, None or NotImplemented");

static PyObject *gram_entry(PyObject *self, PyObject *args) {
    PyObject *gram, *having, *result = NULL;
    Py_ssize_t n_langs;
    int packed;
    double *vector = NULL;
    unsigned long long mask = 0;
    (void)self;
    if (!PyArg_ParseTuple(args, "UO!np", &gram, &PyTuple_Type, &having, &n_langs, &packed)) return NULL;
    if (n_langs < 0 || n_langs > 62) Py_RETURN_NOTIMPLEMENTED;
    Py_ssize_t length = PyUnicode_GET_LENGTH(gram);
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(having); i++) {
        PyObject *item = PyTuple_GET_ITEM(having, i);
        if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 3 || !PyDict_Check(PyTuple_GET_ITEM(item, 1)) ||
                !PyList_Check(PyTuple_GET_ITEM(item, 2)))
            goto not_implemented;
        PyObject *count = PyDict_GetItemWithError(PyTuple_GET_ITEM(item, 1), gram); /* borrowed */
        if (!count) {
            if (PyErr_Occurred()) goto done;
            continue;
        }
        PyObject *index_obj = PyTuple_GET_ITEM(item, 0), *n_words = PyTuple_GET_ITEM(item, 2);
        if (!PyLong_CheckExact(count) || !PyLong_CheckExact(index_obj) || length < 1 ||
                length > PyList_GET_SIZE(n_words) || !PyLong_CheckExact(PyList_GET_ITEM(n_words, length - 1)))
            goto not_implemented;
        Py_ssize_t index = PyLong_AsSsize_t(index_obj);
        if (index == -1 && PyErr_Occurred()) goto done;
        if (index < 0 || index >= n_langs) goto not_implemented;
        double numerator = PyLong_AsDouble(count);
        if (numerator == -1.0 && PyErr_Occurred()) goto done;
        double denominator = PyLong_AsDouble(PyList_GET_ITEM(n_words, length - 1));
        if (denominator == -1.0 && PyErr_Occurred()) goto done;
        if (denominator == 0.0) {
            PyErr_SetString(PyExc_ZeroDivisionError, "float division by zero");
            goto done;
        }
        if (!vector) {
            vector = (double *)calloc((size_t)(n_langs > 0 ? n_langs : 1), sizeof(double));
            if (!vector) { PyErr_NoMemory(); goto done; }
        }
        double value = 1.0 * numerator / denominator;
        vector[index] = value;
        if (value != 0.0) mask |= 1ULL << index;
    }
    if (!vector) Py_RETURN_NONE;
    PyObject *packed_vector;
    if (packed) {
        packed_vector = PyBytes_FromStringAndSize((const char *)vector, (Py_ssize_t)(n_langs * sizeof(double)));
    } else {
        packed_vector = PyList_New(n_langs);
        for (Py_ssize_t j = 0; packed_vector && j < n_langs; j++) {
            PyObject *f = PyFloat_FromDouble(vector[j]);
            if (!f) { Py_CLEAR(packed_vector); break; }
            PyList_SET_ITEM(packed_vector, j, f);
        }
    }
    if (!packed_vector) goto done;
    result = Py_BuildValue("(NK)", packed_vector, mask ? mask : 1ULL << n_langs);
    goto done;
not_implemented:
    result = Py_NewRef(Py_NotImplemented);
done:
    free(vector);
    return result;
}

static PyMethodDef methods[] = {
    {"gram_entry", gram_entry, METH_VARARGS, gram_entry_doc},
    {"word_grams", word_grams, METH_VARARGS, word_grams_doc},
    {"line_words", line_words, METH_VARARGS, line_words_doc},
    {"estimate", estimate, METH_VARARGS, estimate_doc},
    {"estimate_runs", estimate_runs, METH_VARARGS, estimate_runs_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_langdetect_kernel",
    "langdetect's estimation and n-gram lookups, compiled; see indicifeval.text.langdetect_fast and langdetect_ngrams.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__langdetect_kernel(void)
{
    return PyModule_Create(&module);
}
