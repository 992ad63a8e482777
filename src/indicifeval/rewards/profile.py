"""Which prompts teach anything: a policy's k answers per prompt, each scored by the reward
(``RewardScorer``), and each prompt put in one class by its k rewards:

- ``zero``: every answer scores 0; ``one``: every answer scores 1;
- ``flat``: every answer scores the same value strictly between 0 and 1 (a fraction reward);
- ``mixed``: the rewards differ.

Only ``mixed`` prompts give a GRPO-style gradient: the advantage is the reward minus the
group's mean, zero for every answer of a group whose rewards are all equal. The profile (per
prompt: language, subset, key, the row's content hash, the rewards, the class) is written as
JSON; ``indicifeval export --keep mixed PROFILE`` reads it back to keep the prompts that do."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from indicifeval._version import __version__
from indicifeval.core.errors import InputError, Source
from indicifeval.core.files import write_text
from indicifeval.core.modes import ScoringMode
from indicifeval.records import Row, RowId
from indicifeval.rewards.answers import AnswerSets, read_samples
from indicifeval.rewards.verdicts import RewardScorer

CLASSES = ("zero", "one", "flat", "mixed")
PROFILE_TOOL = "indicifeval reward-profile"
PROFILE_FORMAT = 1


def class_of(rewards: Sequence[float]) -> str:
    """The class of a prompt's rewards (one answer or more)."""
    if not rewards:
        raise ValueError("a prompt's class needs at least one reward")
    if any(r != rewards[0] for r in rewards):
        return "mixed"
    return "zero" if rewards[0] == 0 else "one" if rewards[0] == 1 else "flat"


@dataclass(frozen=True)
class PromptProfile:
    language: str
    subset: str
    key: Any
    content_hash: str  # of the row profiled: a profile of another version of the row is refused
    rewards: tuple[float, ...]

    @property
    def id(self) -> RowId:
        return RowId.of(self.language, self.subset, self.key)

    @property
    def cls(self) -> str:
        return class_of(self.rewards)

    def to_json(self) -> dict:
        return {"id": str(self.id), "language": self.language, "subset": self.subset, "key": self.key,
                "content_hash": self.content_hash, "rewards": list(self.rewards), "class": self.cls}


@dataclass
class RewardProfile:
    """Every profiled prompt, and how: the reward, the scoring mode, the implicit constraints,
    the data named (``data``) and its rows (``rows``: how many; ``unanswered``: how many had no
    answer and are not in the profile)."""

    prompts: list[PromptProfile]
    reward: str = "all"
    scoring: str = ScoringMode.FIXED.value
    implicit: tuple[str, ...] = ()
    data: str | None = None
    rows: int = 0
    unanswered: int = 0
    failed: int = 0
    version: str = __version__
    _by_id: dict[RowId, PromptProfile] = field(default_factory=dict, repr=False, compare=False)

    def get(self, row_id: RowId) -> PromptProfile | None:
        if not self._by_id:
            self._by_id = {p.id: p for p in self.prompts}
        return self._by_id.get(row_id)

    def summary(self) -> dict[str, dict]:
        """Per language (in the order first profiled), then ``all``: prompts, the fewest and
        most answers per prompt (``k``), and the share of prompts in each class."""
        groups: dict[str, list[PromptProfile]] = {}
        for p in self.prompts:
            groups.setdefault(p.language, []).append(p)
        out = {lang: _shares(members) for lang, members in groups.items()}
        out["all"] = _shares(self.prompts)
        return out

    def to_json(self) -> dict:
        return {"format_version": PROFILE_FORMAT, "tool": PROFILE_TOOL, "version": self.version,
                "reward": self.reward, "scoring": self.scoring, "implicit": list(self.implicit), "data": self.data,
                "rows": self.rows, "unanswered": self.unanswered, "failed": self.failed, "summary": self.summary(),
                "prompts": [p.to_json() for p in self.prompts]}


def _shares(prompts: Sequence[PromptProfile]) -> dict:
    counts = {c: 0 for c in CLASSES}
    for p in prompts:
        counts[p.cls] += 1
    ks = [len(p.rewards) for p in prompts]
    n = len(prompts)
    return {"prompts": n, "k_min": min(ks, default=0), "k_max": max(ks, default=0), "counts": counts,
            "shares": {c: (counts[c] / n if n else None) for c in CLASSES}}


def profile_rewards(rows: Sequence[Row], answers: Sequence[str | Path] | AnswerSets, *, reward: str = "all",
                    scoring: ScoringMode | str = ScoringMode.FIXED, implicit: str | Sequence[str] | None = "all",
                    strip_reasoning: bool = True, data: str | None = None,
                    on_total: Callable[[int], None] | None = None,
                    on_progress: Callable[[int], None] | None = None) -> RewardProfile:
    """Score every answer in ``answers`` (paths as ``rewards.answers.read_samples`` reads them,
    or what it read) to its row of ``rows`` with the reward's defaults, and class each prompt."""
    samples = answers if isinstance(answers, AnswerSets) else read_samples(answers, rows)
    if not samples.answers:
        raise InputError("no answers to profile: every run folder item failed" if samples.failed else
                         "no answers to profile", field="answers")
    scorer = RewardScorer(scoring, reward, strip_reasoning, data=rows, implicit=implicit)
    if on_total is not None:
        on_total(len(samples))
    prompts = []
    for row in rows:
        found = samples.answers.get(row.id)
        if not found:
            continue
        prepared = scorer.row({"key": row.key, "language": row.language, "subset": row.subset},
                              found[0][0])
        rewards = tuple(float(scorer.verdict(prepared, text, source).reward or 0.0) for source, text in found)
        prompts.append(PromptProfile(row.language, row.subset, row.key, row.content_hash, rewards))
        if on_progress is not None:
            on_progress(len(found))
    return RewardProfile(prompts, scorer.reward, scorer.mode.value, scorer.implicit, data, len(rows),
                         len(rows) - len(prompts), samples.failed)


def write_profile(profile: RewardProfile, path: str | Path) -> Path:
    """The profile as JSON, atomically (a kill leaves the old file whole): the settings and the
    summary indented, then one line per prompt."""
    data = profile.to_json()
    prompts = data.pop("prompts")
    head = json.dumps(data, ensure_ascii=False, indent=1)[:-2]  # without its closing "\n}"
    lines = ",\n".join("  " + json.dumps(p, ensure_ascii=False) for p in prompts)
    return write_text(path, f'{head},\n "prompts": [\n{lines}\n ]\n}}\n')


def read_profile(path: str | Path) -> RewardProfile:
    """A profile written by ``write_profile``; what is not one is an error naming the field."""
    name = str(path)
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError("file not found", name) from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise InputError(f"not a reward profile: unreadable JSON ({str(exc)[:120]})", name) from None
    if not isinstance(data, dict) or data.get("tool") != PROFILE_TOOL:
        raise InputError(f"not a reward profile (write one with `{PROFILE_TOOL} DATA --answers FILE --out "
                         f"PROFILE.json`)", name, field="tool")
    if data.get("format_version") != PROFILE_FORMAT:
        raise InputError(f"profile format {data.get('format_version')!r}, this indicifeval reads "
                         f"{PROFILE_FORMAT}", name, field="format_version")
    entries = data.get("prompts")
    if not isinstance(entries, list):
        raise InputError("prompts must be a list", name, field="prompts")
    prompts = [_prompt(entry, Source(name, n)) for n, entry in enumerate(entries, start=1)]
    return RewardProfile(prompts, str(data.get("reward")), str(data.get("scoring")), tuple(data.get("implicit") or ()),
                         data.get("data"), int(data.get("rows") or 0), int(data.get("unanswered") or 0),
                         int(data.get("failed") or 0), str(data.get("version")))


def _prompt(entry: Any, where: Source) -> PromptProfile:
    """One entry of ``prompts`` (``where.line``: its place in the list)."""
    if not isinstance(entry, dict):
        raise where.error(f"prompt {where.line} must be an object", "prompts")
    for name in ("language", "subset", "content_hash"):
        if not isinstance(entry.get(name), str):
            raise where.error(f"prompt {where.line}: {name} must be a string", name)
    if isinstance(entry.get("key"), bool) or not isinstance(entry.get("key"), (int, str)):
        raise where.error(f"prompt {where.line}: key must be an integer or a string", "key")
    rewards = entry.get("rewards")
    if not isinstance(rewards, list) or not rewards or not all(
            isinstance(r, (int, float)) and not isinstance(r, bool) for r in rewards):
        raise where.error(f"prompt {where.line}: rewards must be a non-empty list of numbers", "rewards")
    return PromptProfile(entry["language"], entry["subset"], entry["key"], entry["content_hash"],
                         tuple(float(r) for r in rewards))


def profile_of(path: str | Path, rows: Iterable[Row]) -> RewardProfile:
    """The profile in ``path``, refused unless it was made on these rows: at least one of them is
    in it, and every one that is asks what it asked when profiled."""
    profile = read_profile(path)
    rows = list(rows)
    held = [(row, p) for row in rows if (p := profile.get(row.id)) is not None]
    made_on = f"made on {profile.data!r}" if profile.data else "made on other data"
    if not held:
        raise InputError(f"none of the {len(rows)} rows is in this profile of {len(profile.prompts)} prompts "
                         f"({made_on}): a profile of another dataset", str(path))
    changed = [row for row, p in held if p.content_hash != row.content_hash]
    if changed:
        raise InputError(f"{len(changed)} of the rows ask something other than when they were profiled (first: "
                         f"{changed[0].id}; {made_on}): profile this dataset again", str(path), field="content_hash")
    return profile


__all__ = ["CLASSES", "PROFILE_TOOL", "PromptProfile", "RewardProfile", "class_of", "profile_of", "profile_rewards",
           "read_profile", "write_profile"]
