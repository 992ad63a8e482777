"""Two of NLTK's modules (Punkt and the word tokenizer, which IFEval's English scoring runs)
loaded without NLTK's package ``__init__`` and without the modules they import only to train,
load or save a model or to give offsets: see ``nltk_module``."""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import sys
import types
from functools import lru_cache

_PACKAGES = ("nltk", "nltk.tokenize")
# What punkt and the word tokenizer import only to train, load or save a model (file and URL
# sandboxing, pickles, frequency tables, printing) or to give character offsets (the span helpers
# of nltk.tokenize.util, which neither tokenize() nor our span code calls): none of it splits
# sentences or words, and it pulls in http.client, email, ssl and xml (90 ms a process). Stood
# in for while the modules load, as the packages are.
_UNUSED = ("nltk.pathsec", "nltk.picklesec", "nltk.termsec", "nltk.tabdata", "nltk.probability",
           "nltk.tokenize.util")


class _Unused:
    """What a stood-in module gives for any name: refuses to be used."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        raise RuntimeError("indicifeval loads NLTK's Punkt and word tokenizer to split text only, not to train, "
                           "load or save a model or to give offsets")


def _unused(name: str) -> type:
    if name.startswith("__"):
        raise AttributeError(name)
    return _Unused


@lru_cache(maxsize=4)
def nltk_module(name: str) -> types.ModuleType:
    """``nltk.tokenize.punkt`` or ``nltk.tokenize.destructive`` without running the package's
    ``__init__``, which imports NLTK's whole tree (chunkers, taggers, classifiers, scipy and
    scikit-learn where installed: a second of CPU and a hundred MB per process, for two
    modules), nor the modules they import only to train, load or save a model or to give
    offsets (``_UNUSED``; where they cannot load without them, they load with them). The
    packages stand in as bare namespaces while the module loads; afterwards every ``nltk``
    entry it added to ``sys.modules`` is taken away again (the module objects live on here),
    so a later ``import nltk`` anywhere imports the real package afresh, exactly as without
    us. If NLTK is imported already, its modules are used as they are."""
    if "nltk" in sys.modules and not getattr(sys.modules["nltk"], "_indicifeval_stub", False):
        return importlib.import_module(name)
    spec = importlib.util.find_spec("nltk")
    if spec is None or not spec.submodule_search_locations:
        return importlib.import_module(name)  # raises the usual ImportError
    try:
        return _load_beside_stubs(name, spec, _UNUSED)
    except Exception:  # another NLTK, which needs one of them as it loads
        return _load_beside_stubs(name, spec, ())


def _load_beside_stubs(name: str, spec: importlib.machinery.ModuleSpec, unused: tuple[str, ...]) -> types.ModuleType:
    before = {m for m in sys.modules if m == "nltk" or m.startswith("nltk.")}
    location = list(spec.submodule_search_locations or [])[0]
    for package in _PACKAGES + unused:
        if package not in sys.modules:
            stub = types.ModuleType(package)
            if package in _PACKAGES:
                stub.__path__ = [location] if package == "nltk" else [f"{location}/tokenize"]
            else:
                stub.__getattr__ = _unused  # type: ignore[method-assign]
            stub._indicifeval_stub = True  # type: ignore[attr-defined]
            sys.modules[package] = stub
    try:
        return importlib.import_module(name)
    finally:
        for module in [m for m in sys.modules if (m == "nltk" or m.startswith("nltk.")) and m not in before]:
            del sys.modules[module]


__all__ = ["nltk_module"]
