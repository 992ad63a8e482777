"""Which licence a release is published under. Trans rows translate IFEval's English prompts
(Apache-2.0), which any licence may carry, so a Trans-only release has the dataset's own default,
CC BY 4.0. Ground rows are written from corpus text, so the corpus licence's conditions carry
over: a CC BY-SA corpus (FLORES, Wikipedia) gives a CC BY-SA dataset, a non-commercial one a
non-commercial dataset. A licence given by hand may add conditions but not drop one of those; a
Ground release whose corpus licence is unknown needs one given."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import regex

from indicifeval.core.errors import InputError

DEFAULT_LICENSE = "cc-by-4.0"
SOURCE_LICENCE = "Apache-2.0"  # IFEval's prompts (google-research/instruction_following_eval)
# a name part (lower case) -> (licence, warning): the engines and corpora this project builds with
KNOWN_LICENCES: dict[str, tuple[str, str | None]] = {
    "sarvam-translate": ("GPL-3.0", None),
    "indictrans2": ("MIT", None),
    "nllb": ("CC-BY-NC-4.0", "NLLB-200 is licensed for non-commercial use only: rows it translated inherit "
                             "that restriction"),
    "m2m100": ("MIT", None),
    "sangraha": ("CC-BY-4.0", None),
}
UNKNOWN_LICENCE = "see the model card"
_ID = regex.compile(r"[A-Za-z0-9][A-Za-z0-9.+-]{0,63}")
_CC = regex.compile(r"cc-by((?:-nc)?(?:-sa|-nd)?)-(\d\.\d)(?:-[a-z]+)?")  # cc-by-sa-4.0, cc-by-nc-sa-3.0-igo
# licences that ask no more than attribution: their text may go under any CC BY licence
_PERMISSIVE = {"cc0-1.0", "pddl", "odc-by", "mit", "apache-2.0", "bsd-2-clause", "bsd-3-clause", "unlicense",
               "cdla-permissive-1.0", "cdla-permissive-2.0", "odc-pddl", "public-domain"}
_NAMES = {"sa": "share-alike", "nc": "non-commercial", "nd": "no-derivatives"}


def licence_of(name: str) -> tuple[str, str | None]:
    """(licence, warning) of an engine, model or corpus, by the names this table knows."""
    low = name.lower()
    for part, known in KNOWN_LICENCES.items():
        if part in low:
            return known
    return UNKNOWN_LICENCE, None


def check_licence_id(value: str, what: str = "license") -> str:
    """An SPDX-style licence id (CC-BY-SA-4.0, cc-by-4.0, MIT), stripped; InputError otherwise."""
    text = str(value).strip()
    if not _ID.fullmatch(text):
        raise InputError(f"{text[:80]!r} is not a licence id (an SPDX id such as CC-BY-SA-4.0 or cc-by-4.0)",
                         field=what)
    return text


def hub_id(licence: str) -> str:
    """The hub's spelling of a licence id: lower case (CC-BY-SA-4.0 -> cc-by-sa-4.0)."""
    return licence.strip().lower()


def terms(licence: str) -> frozenset[str] | None:
    """The conditions of a licence that a derived work keeps (``sa``, ``nc``, ``nd``): none for
    CC BY and the permissive licences; None for a licence this table cannot read."""
    low = hub_id(licence)
    match = _CC.fullmatch(low)
    if match:
        return frozenset(part for part in match.group(1).split("-") if part)
    return frozenset() if low in _PERMISSIVE else None


@dataclass
class Decision:
    """The release's licence, and why: the lines the card's licence section says."""

    licence: str
    how: str  # given | derived | default
    corpora: list[dict] = field(default_factory=list)  # {language, name, license, source}


def _cc_from(conditions: set[str]) -> str:
    return "cc-by" + "".join(f"-{c}" for c in ("nc", "sa", "nd") if c in conditions) + "-4.0"


def decide(corpora: Mapping[str, Mapping | None], given: str | None) -> Decision:
    """The licence of a release from its Ground languages' corpora ({language: corpus reference
    with its ``license`` or None}) and a licence given by hand (Trans rows allow any).
    Raises InputError (one line) where no licence can be decided or the given one drops a
    corpus's condition."""
    found = []
    for language, ref in sorted(corpora.items()):
        ref = ref or {}
        name = str(ref.get("name") or "the corpus")
        licence, source = ref.get("license"), "build ground --corpus-license"
        if not licence and licence_of(name)[0] != UNKNOWN_LICENCE:
            licence, source = licence_of(name)[0], "this tool's table of known corpora"
        found.append({"language": language, "name": name, "license": licence, "source": source if licence else None})
    if given is not None:
        given = hub_id(check_licence_id(given))
        kept = terms(given)
        for corpus in found:
            corpus_terms = terms(corpus["license"]) if corpus["license"] else None
            dropped = sorted((corpus_terms or frozenset()) - (kept or frozenset())) if kept is not None else []
            if dropped:
                raise InputError(f"--license {given} drops the {' and '.join(_NAMES[d] for d in dropped)} term of "
                                 f"the {corpus['language']} corpus {corpus['name']} ({corpus['license']}): Ground "
                                 f"rows are made from its text; give a licence that keeps it")
        return Decision(given, "given", found)
    if not found:
        return Decision(DEFAULT_LICENSE, "default")
    conditions: set[str] = set()
    for corpus in found:
        if not corpus["license"]:
            raise InputError(f"the licence of the {corpus['language']} corpus {corpus['name']} is not known, and a "
                             f"release with Ground rows takes its licence from it: record it with `build ground "
                             f"--corpus-license SPDX` or pass `build publish --license`; nothing was written")
        corpus_terms = terms(corpus["license"])
        if corpus_terms is None or "nd" in corpus_terms:
            why = "forbids derived works" if corpus_terms else "is not one this tool can combine"
            raise InputError(f"the {corpus['language']} corpus licence {corpus['license']} {why}: pass `build publish "
                             f"--license` with the licence to publish under; nothing was written")
        conditions |= corpus_terms
    plain_sa = [c for c in found if terms(str(c["license"])) == frozenset({"sa"})]
    if "nc" in conditions and plain_sa:  # CC BY-SA text cannot be put under a non-commercial licence
        raise InputError(f"the corpus licences {', '.join(sorted({str(c['license']) for c in found}))} cannot be "
                         f"combined "
                         f"in one licence (share-alike and non-commercial): publish those languages separately or "
                         f"pass `build publish --license`; nothing was written")
    return Decision(_cc_from(conditions), "derived", found)


def licence_lines(decision: Decision, has_trans: bool, has_ground: bool, trans_source: str | None = None) -> list[str]:
    """The card's licence section: the licence, where it comes from, what each part is under;
    ``trans_source``: the line on where the Trans rows' English prompts come from (else IFEval's)."""
    how = {"given": "as given to `build publish --license`",
           "derived": "derived from the corpus licences below (their conditions carry over to rows written "
                      "from their text)",
           "default": "the dataset's default"}[decision.how]
    lines = [f"This dataset is published under `{decision.licence}`, {how}.", ""]
    if has_trans:
        lines.append(trans_source or f"- Trans rows translate IFEval's English prompts "
                     f"(google-research/instruction_following_eval, {SOURCE_LICENCE}), which permits this licence.")
    if has_ground:
        for corpus in decision.corpora:
            licence = corpus["license"] or "not recorded"
            source = f" ({corpus['source']})" if corpus.get("source") else ""
            lines.append(f"- Ground rows in `{corpus['language']}` are written from the corpus `{corpus['name']}`, "
                         f"licensed {licence}{source}.")
    lines += [""] if has_trans or has_ground else []
    lines += ["The licences of the engines and models that translated or wrote the rows are in the table above.", ""]
    return lines


def ground_corpora(builds: Sequence[Mapping], languages: set[str]) -> dict[str, Mapping | None]:
    """{language: corpus reference} of the release's builds with Ground rows in ``languages``."""
    return {str(b.get("language")): b.get("corpus") for b in builds
            if "ground" in (b.get("subsets") or []) and str(b.get("language")) in languages}


__all__ = ["DEFAULT_LICENSE", "KNOWN_LICENCES", "UNKNOWN_LICENCE", "Decision", "check_licence_id", "decide",
           "ground_corpora", "hub_id", "licence_lines", "licence_of", "terms"]
