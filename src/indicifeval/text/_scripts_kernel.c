/* Letters and marks per script at evenly spaced places of a text (text/scripts.py's
 * script_counts), read from a table of one byte per BMP code point: 0 for a character that is
 * not counted (no letter or mark, or in no script's ranges), else its script's number + 1.
 * Optional: scripts.py counts the same in Python where this is not built
 * (INDICIFEVAL_PURE_PYTHON=1 turns it off); tests/text/test_fast_paths.py holds them equal. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

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

static PyMethodDef methods[] = {
    {"counts", counts, METH_VARARGS, "Letters and marks per script at every stride-th character."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_scripts_kernel", NULL, -1, methods};

PyMODINIT_FUNC PyInit__scripts_kernel(void) { return PyModule_Create(&module); }
