"""One run as the tables read it: per-row outcomes in numpy arrays, never the texts.

A report over many runs holds every run at once, so a run keeps only what a table can ask of
it: each row's key, language and subset (as positions per cell), the prompt-level verdicts,
the counts of followed instructions, the (row, instruction, verdict) triples for tables over
some instructions only, the parallel tag and the answer language. Prompts, answers and
explanations stay in the run folder; the page's samples are read from there again, one run at
a time (``reports.samples``)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from indicifeval.records.scores import RowScore
from indicifeval.reports.model import RunInfo
from indicifeval.scoring.categories import section_of

PARALLEL_TAGS = frozenset({"correct", "parallel"})
KINDS = ("strict", "loose")
KEPT_OUTCOMES = 4  # outcome arrays kept per run (of a metric or an instruction filter)


class Vocabulary:
    """Instruction ids as small integers, shared by the runs of one report."""

    def __init__(self) -> None:
        self.ids: list[str] = []
        self.index: dict[str, int] = {}

    def of(self, iid: str) -> int:
        found = self.index.get(iid)
        if found is None:
            found = self.index[iid] = len(self.ids)
            self.ids.append(iid)
        return found

    def codes(self, wanted) -> np.ndarray:
        return np.array([self.index[i] for i in wanted if i in self.index], dtype=np.int32)


@dataclass(eq=False)
class RunData:
    """The rows of one run's scores file, in file order (see the module's docstring)."""

    info: RunInfo
    vocabulary: Vocabulary
    keys: list = field(default_factory=list)
    language: list[str] = field(default_factory=list)
    cells: dict[tuple[str, str], np.ndarray] = field(default_factory=dict)  # (subset, language) -> positions
    prompt: dict[str, np.ndarray] = field(default_factory=dict)  # kind -> prompt-level pass per row
    followed: dict[str, np.ndarray] = field(default_factory=dict)  # kind -> instructions passed per row
    listed: dict[str, np.ndarray] = field(default_factory=dict)  # kind -> verdicts per row
    verdicts: dict[str, np.ndarray] = field(default_factory=dict)  # kind -> every row's verdicts, one after another
    pairs: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = field(default_factory=dict)  # (row, id, pass)
    parallel: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    resp_lang: list = field(default_factory=list)
    section: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype="<U16"))  # each row's report section
    id_codes: set[int] = field(default_factory=set)  # every instruction id the run's rows list
    has_parallel_trans: bool = False  # some Trans row carries the parallel tags
    sample: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int32))  # each line's sample number
    turn: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int32))  # each line's turn (0: none)
    samples: int = 1  # samples per prompt (``run --samples``): lines of one prompt are pooled in its groups
    source: dict = field(default_factory=dict)  # where the samples are: folder and file names
    _cache: dict = field(default_factory=dict, repr=False)
    _outcomes: dict = field(default_factory=dict, repr=False)

    def __len__(self) -> int:
        return len(self.keys)

    @property
    def subsets(self) -> set[str]:
        return {s for s, _ in self.cells}

    @property
    def sections(self) -> set[str]:
        """The report sections its rows are in (``scoring.categories.section_of``)."""
        found = self._cache.get("sections")
        if found is None:
            found = self._cache["sections"] = set(np.unique(self.section).tolist())
        return found

    def positions(self, subset: str, language: str | None = None) -> np.ndarray:
        """Rows of a subset (one language, or all of them), in file order."""
        if language is not None:
            return self.cells.get((subset, language), np.zeros(0, dtype=np.int64))
        found = self._cache.get(("subset", subset))
        if found is None:
            parts = [p for (s, _), p in self.cells.items() if s == subset]
            found = np.sort(np.concatenate(parts)) if parts else np.zeros(0, dtype=np.int64)
            self._cache[("subset", subset)] = found
        return found

    def outcomes(self, metric: str, wanted: frozenset[str] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(passes, counts) per row, as integers: the metric's, or over the instructions of
        ``wanted`` only (followed and listed among them, at the metric's strict or loose kind).
        The last few are kept (a category's are asked for once per language)."""
        kind = "strict" if metric.endswith("strict") else "loose"
        token = (metric, wanted)
        found = self._outcomes.pop(token, None)
        if found is None:
            if wanted is not None:
                rows, ids, passed = self.pairs[kind]
                mask = np.isin(ids, self.vocabulary.codes(wanted))
                counts = np.bincount(rows[mask], minlength=len(self)).astype(np.int32)
                passes = np.bincount(rows[mask], weights=passed[mask], minlength=len(self)).astype(np.int32)
            elif metric.startswith("prompt"):
                passes, counts = self.prompt[kind].astype(np.int32), np.ones(len(self), dtype=np.int32)
            else:
                passes, counts = self.followed[kind], self.listed[kind]
            found = (passes, counts)
        self._outcomes[token] = found  # the most recent last
        while len(self._outcomes) > KEPT_OUTCOMES:
            del self._outcomes[next(iter(self._outcomes))]
        return found

    def verdicts_of(self, kind: str, rows: np.ndarray) -> np.ndarray:
        """The verdicts of ``rows``, one row's after another's (as their lists would concatenate)."""
        offsets = self._cache.get(("offsets", kind))
        if offsets is None:
            offsets = self._cache[("offsets", kind)] = np.concatenate([[0], np.cumsum(self.listed[kind])])
        lengths = self.listed[kind][rows].astype(np.int64)
        starts = np.repeat(offsets[rows] - (np.cumsum(lengths) - lengths), lengths)
        return self.verdicts[kind][starts + np.arange(int(lengths.sum()))]

    def instruction_ids(self) -> set[str]:
        return {self.vocabulary.ids[i] for i in self.id_codes}


class RunBuilder:
    """Collects one run's rows, line by line, into a :class:`RunData`."""

    def __init__(self, info: RunInfo, vocabulary: Vocabulary):
        self.data = RunData(info, vocabulary)
        self.cells: dict[tuple[str, str], list[int]] = {}
        self.prompt: dict[str, list[bool]] = {k: [] for k in KINDS}
        self.followed: dict[str, list[int]] = {k: [] for k in KINDS}
        self.listed: dict[str, list[int]] = {k: [] for k in KINDS}
        self.pairs: dict[str, tuple[list[int], list[int], list[bool]]] = {k: ([], [], []) for k in KINDS}
        self.verdicts: dict[str, list[bool]] = {k: [] for k in KINDS}
        self.parallel: list[bool] = []
        self.names: dict[str, str] = {}  # one string object per language, not one per line
        self.sections: list[str] = []
        self.sample: list[int] = []
        self.turn: list[int] = []
        self.section_of: dict[tuple, str] = {}  # the rows' id lists repeat: each looked up once

    def add(self, score: RowScore, row: tuple[bool, str | None] | None) -> None:
        """One scores line, with (parallel-tagged, resp_lang) of its row where rows.jsonl has it."""
        data, i = self.data, len(self.data.keys)
        data.keys.append(score.key)
        language = self.names.setdefault(score.language, score.language)
        data.language.append(language)
        cell = (score.subset, language)
        positions = self.cells.get(cell)
        if positions is None:
            positions = self.cells[cell] = []
        positions.append(i)
        vocabulary = data.vocabulary
        known = vocabulary.index
        ids = [known[iid] if iid in known else vocabulary.of(iid) for iid in score.instruction_id_list]
        data.id_codes.update(ids)
        id_list = tuple(score.instruction_id_list)
        section = self.section_of.get(id_list)
        if section is None:
            section = self.section_of[id_list] = section_of(id_list)
        self.sections.append(section)
        for kind, listed, prompt in (("strict", score.strict, score.prompt_strict),
                                     ("loose", score.loose, score.prompt_loose)):
            verdicts = list(map(bool, listed))
            self.prompt[kind].append(bool(prompt))
            self.followed[kind].append(sum(verdicts))
            self.listed[kind].append(len(verdicts))
            self.verdicts[kind] += verdicts
            m = min(len(ids), len(verdicts))  # as zip pairs them
            rows, codes, passed = self.pairs[kind]
            rows += [i] * m
            codes += ids[:m]
            passed += verdicts[:m]
        parallel, resp_lang = row or (False, None)
        self.sample.append(score.sample)
        self.turn.append(score.turn)
        self.parallel.append(parallel)
        data.resp_lang.append(resp_lang)
        if parallel and cell[0] == "trans":
            data.has_parallel_trans = True

    def finish(self) -> RunData:
        data = self.data
        data.cells = {c: np.asarray(p, dtype=np.int64) for c, p in self.cells.items()}
        for kind in KINDS:
            data.prompt[kind] = np.asarray(self.prompt[kind], dtype=bool)
            data.followed[kind] = np.asarray(self.followed[kind], dtype=np.int32)
            data.listed[kind] = np.asarray(self.listed[kind], dtype=np.int32)
            data.verdicts[kind] = np.asarray(self.verdicts[kind], dtype=bool)
            rows, codes, passed = self.pairs[kind]
            data.pairs[kind] = (np.asarray(rows, dtype=np.int32), np.asarray(codes, dtype=np.int32),
                                np.asarray(passed, dtype=bool))
        data.parallel = np.asarray(self.parallel, dtype=bool)
        data.section = np.asarray(self.sections, dtype="<U16")
        data.sample = np.asarray(self.sample, dtype=np.int32)
        data.turn = np.asarray(self.turn, dtype=np.int32)
        data.samples = int(data.sample.max()) + 1 if len(data.sample) else 1
        return data


__all__ = ["PARALLEL_TAGS", "RunBuilder", "RunData", "Vocabulary"]
