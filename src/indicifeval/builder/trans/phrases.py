"""The phrase table (``pretranslations.jsonl``): every lexical kwarg value of the English rows
with its role and its translation, editable by hand between stages.

Phrases of rows answered in the prompt's language are translated one by one by the engine;
phrases of rows answered in another language are kept as they are; letters come from the
target profile's alphabet. A person may change any translation (and should set its status
to ``edited`` or ``verified``); a changed translation is kept on the next run even if its
status was left ``auto``."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path

from indicifeval.builder.trans.beyond import value_words
from indicifeval.checkers.instructions import kwarg_role, lexical_kwargs
from indicifeval.core.errors import InputError
from indicifeval.core.jsonl import read_jsonl, write_jsonl
from indicifeval.languages import LanguageProfile
from indicifeval.records import Row, TranslationItem


def phrase_uid(phrase: str) -> str:
    return "phrase/" + hashlib.sha256(phrase.encode("utf-8")).hexdigest()[:16]


def letter_for(letter: str, profile: LanguageProfile) -> str:
    """The target letter an English letter of letter_frequency becomes: one fixed letter of
    the profile's alphabet per English letter (so one row reads the same in every build)."""
    alphabet = profile.default_letters
    if not alphabet:
        raise InputError(f"the {profile.code} profile has no letters (defaults.letters) to draw from",
                         field="defaults.letters")
    return alphabet[(ord(letter.lower()) - ord("a")) % len(alphabet)]


def collect(rows: Iterable[Row], profile: LanguageProfile) -> dict[tuple[str, str], TranslationItem]:
    """(phrase, role) -> its table entry, with the keys of the rows that use it."""
    table: dict[tuple[str, str], TranslationItem] = {}
    for row in rows:
        keep = (row.resp_lang or "src") != "src"
        for iid, kwargs in zip(row.instruction_id_list, row.kwargs):
            for name in lexical_kwargs(iid):
                value = kwargs.get(name)
                for phrase in value if isinstance(value, list) else [value] if isinstance(value, str) else []:
                    translation: str | None
                    if kwarg_role(iid, name) == "letter":
                        if keep or not phrase.isalpha():
                            continue
                        role, translation = "letter", letter_for(phrase, profile)
                    else:
                        role, translation = ("keep", phrase) if keep else ("translate", None)
                    entry = table.setdefault((phrase, role), TranslationItem(phrase, role, translation,
                                                                             None if role == "translate"
                                                                             else "profile"))
                    if row.key not in entry.rows:
                        entry.rows.append(row.key)
        for start, end in value_words(row):  # unit and lakh/million words (builder.trans.beyond)
            phrase = row.prompt[start:end].lower()
            role, translation = ("keep", phrase) if keep else ("translate", None)
            entry = table.setdefault((phrase, role), TranslationItem(phrase, role, translation,
                                                                     None if role == "translate" else "profile"))
            if row.key not in entry.rows:
                entry.rows.append(row.key)
    return table


def read_table(path: Path) -> dict[tuple[str, str], TranslationItem]:
    if not path.exists():
        return {}
    table = {}
    for source, record in read_jsonl(path):
        try:
            item = TranslationItem.from_json(record)
        except (TypeError, ValueError) as exc:
            raise source.error(str(exc)) from None
        table[(item.phrase, item.role)] = item
    return table


def write_table(path: Path, table: dict[tuple[str, str], TranslationItem]) -> None:
    write_jsonl(path, (table[key].to_json() for key in sorted(table, key=lambda k: (k[1], k[0].casefold(), k[0]))))


def merge(fresh: dict[tuple[str, str], TranslationItem], old: dict[tuple[str, str], TranslationItem],
          machine: dict[str, str], engine: str) -> dict[tuple[str, str], TranslationItem]:
    """The new table: a person's entries (status edited/verified, or a translation that is not
    what the engine said) win; machine translations fill the rest."""
    out = {}
    for key, item in fresh.items():
        before = old.get(key)
        said = machine.get(item.phrase) if item.role == "translate" else None
        if before is not None and before.translation and (
                before.status in ("edited", "verified") or (item.role == "translate" and said is not None
                                                            and before.translation != said)):
            item.translation = before.translation
            item.status = before.status if before.status != "auto" else "edited"
            item.engine = before.engine
        elif item.role == "translate":
            item.translation, item.engine = said, engine if said is not None else None
        out[key] = item
    return out


def lookup(table: dict[tuple[str, str], TranslationItem]) -> dict[tuple[str, str], str]:
    return {key: item.translation for key, item in table.items() if item.translation}


__all__ = ["collect", "letter_for", "lookup", "merge", "phrase_uid", "read_table", "write_table"]
