"""The report's samples (prompt, answer, reasoning, verdicts and explanations of every row),
read from each run's folder when they are written, one run at a time: a report over twenty
runs never holds twenty runs' texts. A list of sample dicts (a report made by hand) works too."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path

from indicifeval.core.jsonl import read_jsonl
from indicifeval.records.layout import GENERATIONS
from indicifeval.records.scores import RowScore, read_scores
from indicifeval.runs.store import RunStore


def row_uid(record: dict) -> tuple[str, str, str]:
    """A row's identity, (language, subset, key as text): a ``RowId``'s fields, as a plain tuple."""
    return str(record.get("language")), str(record.get("subset")), str(record.get("key"))


def score_uid(score: RowScore) -> tuple:
    """``row_uid`` of a scores line's row (with the sample's number after it, for sample 1 on; a
    conversation's turn as ``t<n>``)."""
    uid: tuple = (score.language, score.subset, str(score.key))
    uid = uid if not score.sample else (*uid, score.sample)
    return uid if not score.turn else (*uid, f"t{score.turn}")


def read_answers(folder: Path, name: str | None) -> dict[tuple, tuple]:
    """(answer, reasoning, finish reason) per row: the last generation of each (a run folder;
    each sample's after the first under the row's uid and its number), or the response a score
    folder scored."""
    answers: dict[tuple, tuple] = {}
    if name == GENERATIONS:
        for g in RunStore(folder).read_generations():
            uid = row_uid(g) if not g.get("sample") else (*row_uid(g), int(g["sample"]))
            uid = uid if not g.get("turn") else (*uid, f"t{int(g['turn'])}")
            answers[uid] = (g.get("answer"), g.get("reasoning"), g.get("finish_reason"))
    elif name:
        for _, r in read_jsonl(folder / name):
            answers[row_uid(r)] = (r.get("response"), None, None)
    return answers


NO_ANSWER = (None, None, None)


def sample(run: str, s: RowScore, prompt: str | None, answer: tuple) -> dict:
    """One sample of the page: a scores line with its prompt and answer."""
    return {
        "run": run, "language": s.language, "subset": s.subset, "key": s.key,
        "prompt": prompt, "answer": answer[0], "reasoning": answer[1], "finish_reason": answer[2],
        "instruction_id_list": s.instruction_id_list, "strict": s.strict, "loose": s.loose,
        "explanations": s.explanations, "prompt_strict": s.prompt_strict, "prompt_loose": s.prompt_loose,
        **({"sample": s.sample} if s.sample else {}), **({"turn": s.turn} if s.turn else {}),
    }


class RunSamples:
    """One run's samples, streamed from its folder each time they are iterated."""

    def __init__(self, run: str, source: dict, count: int):
        self.run, self.source, self.count = run, source, count

    def __iter__(self) -> Iterator[dict]:
        folder = Path(self.source["folder"])
        prompts = ({row_uid(r): r.get("prompt") for _, r in read_jsonl(folder / self.source["rows"])}
                   if self.source.get("rows") else {})
        answers = read_answers(folder, self.source.get("answers"))
        for s in read_scores(folder / self.source["scores"]):
            uid = score_uid(s)
            yield sample(self.run, s, prompts.get(uid[:3]), answers.get(uid, NO_ANSWER))


class Samples:
    """Every run's samples, by run, in the report's run order."""

    def __init__(self, runs: Iterable[RunSamples | tuple[str, list[dict]]] = ()):
        self.runs: list[tuple[str, Iterable[dict], int]] = []
        for r in runs:
            if isinstance(r, RunSamples):
                self.runs.append((r.run, r, r.count))
            else:
                self.runs.append((r[0], r[1], len(r[1])))

    @classmethod
    def of(cls, samples: Samples | Iterable[dict]) -> Samples:
        """``samples`` as it is, or a list of sample dicts grouped by their run."""
        if isinstance(samples, Samples):
            return samples
        by_run: dict[str, list[dict]] = {}
        for s in samples:
            by_run.setdefault(str(s.get("run")), []).append(s)
        return cls(by_run.items())

    def by_run(self) -> list[tuple[str, Iterable[dict]]]:
        return [(name, rows) for name, rows, _ in self.runs]

    def counts(self) -> Counter[str]:
        counts: Counter[str] = Counter()
        for name, _, n in self.runs:
            counts[name] += n
        return counts

    def __len__(self) -> int:
        return sum(n for _, _, n in self.runs)

    def __iter__(self) -> Iterator[dict]:
        for _, rows, _ in self.runs:
            yield from rows


__all__ = ["NO_ANSWER", "RunSamples", "Samples", "read_answers", "row_uid", "sample", "score_uid"]
