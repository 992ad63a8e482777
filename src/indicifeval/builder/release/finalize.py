"""From reviewed build folders to one release: each row gets its final human verdict (an
adjudication, else the annotators' majority; a tie waits for an adjudicator), its release tags
(correct/incorrect, gold/silver, parallel) and is validated with all the others before
anything is written, so a release is whole or not made. ``release.json`` says what was left
out and why, and what the rows were made from (each stage's engine, model and corpus: by name,
revision and sha256, never by where it was on this machine)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from indicifeval._version import __version__
from indicifeval.builder.candidates import read_candidates
from indicifeval.builder.project import BuildFolder, now_iso
from indicifeval.builder.release import conversations as conv
from indicifeval.builder.release.portable import build_roots, corpus_reference, files_sha256, portable
from indicifeval.builder.release.records import build_records, merged, trans_source
from indicifeval.builder.review.items import OVERRIDE
from indicifeval.builder.review.store import ReviewStore
from indicifeval.checkers import SUBSETS
from indicifeval.core.errors import InputError, OutputError, Source, first_line
from indicifeval.core.files import StagedFiles
from indicifeval.core.folders import read_manifest, tool_of
from indicifeval.core.jsonl import read_jsonl
from indicifeval.dataset import hub_record, parse_row
from indicifeval.dataset.rows import check_unique
from indicifeval.dataset.stats import PAPER_RECORDS
from indicifeval.dataset.validation import validate_rows
from indicifeval.records import AUTO_OK, MULTITURN, Conversation, HumanVerdict, Row
from indicifeval.records.layout import (
    GROUND_ROWS,
    MULTITURN_ROWS,
    RELEASE_INFO,
    RELEASE_ROWS,
    REVIEW_AGREEMENT,
    REVIEW_DB,
    REVIEW_VERDICTS,
    TRANS_ROWS,
)

RELEASE_FORMAT = 1
ROW_FILES = {"trans": TRANS_ROWS, "ground": GROUND_ROWS}
CORRECT, INCORRECT, DISPUTED = "correct", "incorrect", "disputed"
# released + dropped + disputed + unreviewed = the rows of the split; released = correct + incorrect
COUNTS = ("released", "correct", "incorrect", "dropped", "disputed", "unreviewed")
TIERED = {"trans": ("translation", "prompt"), "ground": ("prompt",),  # what gold/silver qualify
          MULTITURN: ("translation", "prompt")}
VERDICT_TAGGED = ("trans", MULTITURN)  # subsets whose correct rows say so in a tag (released Ground rows do not)
_RELEASE_TAGS = {CORRECT, INCORRECT, "parallel"}


@dataclass
class FinalizeReport:
    """What ``finalize`` released and left out, per language and subset."""

    out: Path
    counts: dict[str, dict[str, dict[str, int]]]  # language -> subset -> COUNTS name -> rows
    disputed: list[str] = field(default_factory=list)  # item ids an adjudicator has to settle
    unmatched: list[str] = field(default_factory=list)  # verdicts about items no rows file holds
    incorrect_with_errors: list[str] = field(default_factory=list)  # released as incorrect, validator errors
    approved_despite_validation: list[str] = field(default_factory=list)  # correct by a reviewer's override
    accepted_unreviewed: int = 0  # of the correct: machine output released unseen (--accept-unreviewed; silver)

    def __str__(self) -> str:
        parts = ", ".join(f"{self.total(k)} {k}" + (f" ({self.accepted_unreviewed} of them accepted unreviewed)"
                                                     if k == CORRECT and self.accepted_unreviewed else "")
                          for k in COUNTS)
        overridden = self.approved_despite_validation
        return f"{self.out}: {parts}" + (f"; to adjudicate: {', '.join(self.disputed)}" if self.disputed else "") \
            + (f"; approved despite the validator by a reviewer: {', '.join(overridden)}" if overridden else "")

    def total(self, name: str) -> int:
        return sum(c[name] for subsets in self.counts.values() for c in subsets.values())

    released = property(lambda self: self.total("released"))
    correct = property(lambda self: self.total("correct"))
    incorrect = property(lambda self: self.total("incorrect"))
    dropped = property(lambda self: self.total("dropped"))
    unreviewed = property(lambda self: self.total("unreviewed"))


@dataclass
class _Item:
    """The verdicts about one item: each annotator's latest, the adjudicator's latest."""

    votes: dict[str, str] = field(default_factory=dict)
    adjudication: str | None = None
    edited: bool = False
    overrides: dict[str, bool] = field(default_factory=dict)  # annotator -> said correct despite the validator
    adjudication_override: bool = False

    def approved_despite_validation(self) -> bool:
        """Whether the people whose verdict stands said correct knowing the validator refuses
        the row (the review app's explicit override): then it is released as they decided."""
        if self.adjudication is not None:
            return self.adjudication == CORRECT and self.adjudication_override
        return final_verdict(self) == CORRECT and any(self.overrides.get(a) for a, v in self.votes.items()
                                                      if v == CORRECT)


def final_verdict(item: _Item | None) -> str | None:
    """correct | incorrect | disputed (a tie) | None (nobody gave a verdict)."""
    if item is None:
        return None
    if item.adjudication is not None:
        return item.adjudication
    tally = Counter(item.votes.values())
    if not tally:
        return None
    if tally[CORRECT] == tally[INCORRECT]:
        return DISPUTED
    return CORRECT if tally[CORRECT] > tally[INCORRECT] else INCORRECT


def _read_review(folder: Path) -> tuple[dict[str, _Item], int, dict[str, list[dict]]]:
    """The review's verdicts and edits: from the review database when there is one (read-only,
    as it stands now: an adjudication made after the last export counts), else from an exported
    ``review/verdicts.jsonl``."""
    if (folder / REVIEW_DB).is_file():
        store = ReviewStore(folder, read_only=True)
        try:
            standing = list(store.latest().values())
            edits: dict[str, list[dict]] = {}
            for edit in store.edits():
                edits.setdefault(str(edit["item_id"]), []).append(edit)
        finally:
            store.close()
        return _tally(standing), len(standing), edits
    items, n = _read_verdicts(folder / REVIEW_VERDICTS)
    return items, n, {}


def _read_verdicts(path: Path) -> tuple[dict[str, _Item], int]:
    """item id -> its verdicts from an exported file."""
    if not path.is_file():
        return {}, 0
    found: list[HumanVerdict] = []
    for source, record in read_jsonl(path):
        try:
            found.append(HumanVerdict.from_json(record))
        except (TypeError, ValueError) as exc:
            raise source.error(f"not a verdict record ({first_line(exc)})") from None
        if found[-1].adjudication and found[-1].verdict is None:
            raise source.error("an adjudication needs a verdict (correct or incorrect)", "verdict")
    return _tally(found), len(found)


def _tally(found: list[HumanVerdict]) -> dict[str, _Item]:
    """item id -> its verdicts, taken in time (``at``, then given order): an annotator's later
    record replaces theirs, the latest adjudication is the one that stands."""
    items: dict[str, _Item] = {}
    for verdict in sorted(found, key=lambda v: str(v.at or "")):  # stable: given order within one time
        item = items.setdefault(str(verdict.item_id), _Item())
        item.edited |= bool(verdict.edit)
        if verdict.verdict is None:
            continue
        override = verdict.answers.get(OVERRIDE) == "yes"
        if verdict.adjudication:
            item.adjudication, item.adjudication_override = verdict.verdict, override
        else:
            item.votes.pop(verdict.annotator, None)
            item.votes[verdict.annotator] = verdict.verdict
            item.overrides[verdict.annotator] = override
    return items


@dataclass
class _Build:
    folder: Path
    language: str
    manifest: dict[str, Any]
    rows: dict[str, list[tuple[Row, str]]]  # subset -> (row, status)
    verdicts: dict[str, _Item]
    verdict_records: int
    agreement: Any
    conversations: dict[str, Conversation] = field(default_factory=dict)  # id -> conversation (multi-turn)


def _read_build(folder: Path) -> _Build:
    build = BuildFolder(folder)
    manifest, language = build.manifest(), build.language
    for stage in build.stages().values():
        stale = set(stage.outputs) & {*ROW_FILES.values(), MULTITURN_ROWS}
        if stale and stage.status != "complete":
            raise InputError(f"{', '.join(sorted(stale))} is {stage.status} (stage {stage.name!r}): run the build "
                             f"again before releasing it", str(folder))
    rows: dict[str, list[tuple[Row, str]]] = {}
    conversations: dict[str, Conversation] = {}
    if conv.is_multiturn_build(folder):  # its trans/rows.jsonl: the follow-ups, parts of its conversations
        rows[MULTITURN], conversations = conv.read_build(folder, language)
    for subset, name in ROW_FILES.items():
        if conversations or not (folder / name).is_file():
            continue
        rows[subset] = [(c.row, c.status) for c in read_candidates(folder / name, language, subset)]
    if not rows:
        raise InputError(f"the build folder has no rows ({' or '.join([*ROW_FILES.values(), MULTITURN_ROWS])})",
                         str(folder))
    verdicts, n, edits = _read_review(folder)
    for found in (rows[s] for s in rows if s in ROW_FILES):  # a conversation has no edit
        found[:] = [_edited(row, status, edits.get(str(row.id)), verdicts) for row, status in found]
    agreement = None
    if (folder / REVIEW_AGREEMENT).is_file():
        try:
            agreement = json.loads((folder / REVIEW_AGREEMENT).read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError) as exc:
            raise InputError(f"unreadable agreement file ({first_line(exc)})", str(folder / REVIEW_AGREEMENT)) from None
    return _Build(folder, language, manifest, rows, verdicts, n, agreement, conversations)


def _edited(row: Row, status: str, edits: list[dict] | None, verdicts: dict[str, _Item]) -> tuple[Row, str]:
    """The row as review left it: with its edits, when they were made on this very row (a row
    rebuilt since the edit is not the one the reviewers judged: its verdicts are set aside and
    it waits for review again)."""
    if not edits:
        return row, status
    base = parse_row(edits[0]["before"], Source("review database", None), row.language, row.subset)
    if base.content_hash != row.content_hash:
        verdicts.pop(str(row.id), None)
        return row, status
    after = parse_row(edits[-1]["after"], Source("review database", None), row.language, row.subset)
    item = verdicts.setdefault(str(row.id), _Item())
    item.edited = True
    return replace(after, source=row.source), status


def _tags(row: Row, verdict: str, tier: str | None, parallel: bool) -> tuple[str, ...]:
    """The row's own (topic, style) tags, then the release's: earlier release tags replaced. As
    in the published dataset, a correct Ground row is not tagged ``correct`` (its tags are the
    style and gold/silver prompt); an incorrect one kept is tagged ``incorrect``."""
    own = [t for t in row.tags if t not in _RELEASE_TAGS and t.split(" ", 1)[0] not in ("gold", "silver")]
    shown = verdict != CORRECT or row.subset in VERDICT_TAGGED
    new = [verdict] * shown + ([f"{tier} {what}" for what in TIERED[row.subset]] if tier else [])
    return tuple(dict.fromkeys(own + new + (["parallel"] if parallel else [])))


def _stage_summary(manifest: dict[str, Any]) -> dict[str, Any]:
    """Each stage's model, parameters (corpus, plan...) and input hashes, without local paths."""
    out = {}
    for name, record in (manifest.get("stages") or {}).items():
        identity = record.get("identity") or {}
        inputs = {k: v.get("sha256") or files_sha256(v.get("files") or {})
                  for k, v in (identity.get("inputs") or {}).items() if isinstance(v, dict)}
        out[name] = {"status": record.get("status"), "model": identity.get("model"),
                     "params": identity.get("params") or {}, "inputs": inputs}
    return out


def _check_out(out: Path, folders: list[Path]) -> None:
    if any(out.resolve() == f.resolve() for f in folders):
        raise OutputError(f"{out}: is one of the build folders; write the release elsewhere")
    made_by = tool_of(read_manifest(out)) if out.is_dir() else None
    if made_by is not None:
        raise OutputError(f"{out}: holds the output of `indicifeval {made_by}`; write the release elsewhere")


def _validate(released: list[tuple[Row, str]], overridden: set[str]) -> tuple[list[str], list[str]]:
    """Refuses a release with a validator error on a row it calls correct (or a repeated key),
    unless its reviewers approved it despite the validator (``overridden``); returns the ids of
    incorrect rows with errors, released as what they are, and of the rows approved so."""
    check_unique([row for row, _ in released])
    verdicts = {str(row.id): verdict for row, verdict in released}
    known: list[str] = []
    approved: list[str] = []
    for finding in validate_rows([row for row, _ in released]):
        if not finding.is_error:
            continue
        ident = str(finding.row) if finding.row else ""
        if verdicts.get(ident) == INCORRECT:
            known.append(ident)
            continue
        if ident in overridden:
            approved.append(ident)
            continue
        where = finding.where
        raise InputError(f"{ident}: the release would hold a row the validator refuses ({finding.check}: "
                         f"{finding.message}); fix the row or mark it incorrect in review, nothing was written",
                         where.file if where else None, where.line if where else None)
    return list(dict.fromkeys(known)), list(dict.fromkeys(approved))


def finalize(build_dirs: Sequence[Path], out: Path, *, drop_incorrect: bool = False,
             accept_unreviewed: bool = False, ifeval: Path | None = None) -> FinalizeReport:
    """Release the reviewed rows of ``build_dirs`` into ``out`` (``rows.jsonl``, ``release.json``).

    A row's verdict is the adjudication if there is one, else the annotators' majority; a tie
    is disputed and left out. Unreviewed rows are left out unless ``accept_unreviewed``: then
    the auto-ok ones are released as correct and silver. Incorrect rows are released tagged
    ``incorrect`` unless ``drop_incorrect``. ``ifeval``: IFEval's input_data.jsonl, to count the
    Trans source's prompts that differ from it (else the recorded count for the authors' source).
    Raises InputError (nothing written) on a bad input or a row the validator refuses."""
    folders = [Path(f) for f in build_dirs]
    if not folders:
        raise InputError("no build folders given")
    out = Path(out)
    _check_out(out, folders)
    builds = [_read_build(f) for f in folders]
    seen: dict[tuple[str, str], Path] = {}
    for b in builds:
        for subset in b.rows:
            if (b.language, subset) in seen:
                raise InputError(f"{b.language}/{subset} comes from two build folders ({seen[b.language, subset]} "
                                 f"and {b.folder}); release each split from one", str(b.folder))
            seen[b.language, subset] = b.folder
    counts: dict[str, dict[str, dict[str, int]]] = {}
    disputed: list[str] = []
    unmatched: list[str] = []
    chosen: list[tuple[Row, str, str | None]] = []
    for b in builds:
        ids = set()
        for subset, rows in b.rows.items():
            tally = counts.setdefault(b.language, {}).setdefault(subset, dict.fromkeys(COUNTS, 0))
            for row, status in rows:
                ident = str(row.id)
                ids.add(ident)
                item = b.verdicts.get(ident)
                verdict, edited = final_verdict(item), bool(item and item.edited)
                if verdict == DISPUTED:
                    tally["disputed"] += 1
                    disputed.append(ident)
                    continue
                if verdict is None and not (accept_unreviewed and status == AUTO_OK):
                    tally["unreviewed"] += 1
                    continue
                # gold: a person edited it or confirmed it; silver: machine output accepted unseen
                tier = "gold" if edited or verdict == CORRECT else "silver" if verdict is None else None
                final = verdict or CORRECT
                if final == INCORRECT and drop_incorrect:
                    tally["dropped"] += 1
                    continue
                tally["released"] += 1
                tally[final] += 1
                chosen.append((row, final, tier))
        unmatched += sorted(set(b.verdicts) - ids)
    trans_languages = {b.language for b in builds if "trans" in b.rows}
    correct_in: dict[str, set[str]] = {}
    for row, verdict, _ in chosen:
        if row.subset == "trans" and verdict == CORRECT:
            correct_in.setdefault(str(row.key), set()).add(row.language)
    parallel = {key for key, langs in correct_in.items() if langs >= trans_languages}
    released = [(replace(row, tags=_tags(row, verdict, tier, row.subset == "trans" and str(row.key) in parallel)),
                 verdict) for row, verdict, tier in chosen]
    by_id = {ident: c for b in builds for ident, c in b.conversations.items()}
    talks = [(replace(by_id[str(row.id)], tags=row.tags), verdict) for row, verdict in released
             if row.subset == MULTITURN]
    released = [(row, verdict) for row, verdict in released if row.subset != MULTITURN]
    released.sort(key=lambda rv: (SUBSETS.index(rv[0].subset), rv[0].language))
    if not released and not talks:
        left = ", ".join(f"{sum(c[k] for s in counts.values() for c in s.values())} {k}" for k in COUNTS[3:])
        raise InputError(f"nothing to release ({left}; {len(unmatched)} verdicts match no row)", str(folders[0]))
    overridden = {ident for b in builds for ident, item in b.verdicts.items() if item.approved_despite_validation()}
    known_errors, approved = _validate(released, overridden) if released else ([], [])
    talk_errors, talks_approved = conv.validate(talks, overridden)
    known_errors, approved = known_errors + talk_errors, approved + talks_approved
    info = {"format_version": RELEASE_FORMAT, "tool": "release", "indicifeval_version": __version__,
            "created_at": now_iso(), "options": {"drop_incorrect": drop_incorrect,
                                                 "accept_unreviewed": accept_unreviewed},
            "rows": len(released), "conversations": len(talks), "counts": counts,
            "parallel_languages": sorted(trans_languages),
            "parallel_keys": len(parallel), PAPER_RECORDS: merged(build_records(b.folder) for b in builds).to_json(),
            "trans_source": {b.language: trans_source(b.folder, ifeval) for b in builds if "trans" in b.rows},
            "disputed": disputed, "unmatched_verdicts": unmatched,
            "incorrect_with_errors": known_errors, "approved_despite_validation": approved,
            "builds": [{"folder": b.folder.name, "language": b.language, "subsets": list(b.rows),
                        "rows": {s: len(r) for s, r in b.rows.items()}, "verdict_records": b.verdict_records,
                        "corpus": corpus_reference(b.manifest.get("stages") or {}),
                        "agreement": b.agreement, "stages": _stage_summary(b.manifest), "manifest": b.manifest}
                       for b in builds]}
    info = portable(info, build_roots(folders))  # no path of this machine in what is published
    with StagedFiles(out) as files:
        if released:
            with files.open(RELEASE_ROWS) as fh:
                for row, _ in released:
                    record = {"key": row.key, "language": row.language, "subset": row.subset, **hub_record(row)}
                    fh.write(json.dumps(record, ensure_ascii=False) + "\n")
        for name, text in conv.release_files([c for c, _ in talks]).items():
            files.write_text(name, text)
        files.write_text(RELEASE_INFO, json.dumps(info, ensure_ascii=False, indent=2) + "\n")
    return FinalizeReport(out, counts, disputed, unmatched, known_errors, approved,
                          sum(1 for _, _, tier in chosen if tier == "silver"))


__all__ = ["COUNTS", "RELEASE_FORMAT", "RELEASE_INFO", "RELEASE_ROWS", "FinalizeReport", "final_verdict", "finalize"]
