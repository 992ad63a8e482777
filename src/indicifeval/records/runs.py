"""What a generation run stores: one ``Generation`` per finished item (a ``generations.jsonl``
line) and the run's ``RunManifest`` (``manifest.json``)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any

GENERATION_FORMAT = 1
MANIFEST_FORMAT = 3  # 3: the model's identity in one shape (was: generation + backend_settings)


@dataclass
class Generation:
    """One item's answer as generated and as scored. ``uid`` is the item's identity (a
    RowId's text for benchmark rows; a build stage's own item id otherwise); ``content_hash``
    fingerprints what was asked, so an answer to an item that has since changed is never
    taken for its answer."""

    uid: str
    output: str
    content_hash: str | None = None
    answer: str | None = None
    reasoning: str | None = None
    reasoning_unterminated: bool = False
    finish_reason: str | None = None
    truncated: bool = False
    capped_from_chars: int | None = None
    error: str | None = None  # a failed item: retried on resume
    usage: dict[str, Any] = field(default_factory=dict)
    latency_s: float | None = None
    attempts: int = 1
    key: Any = None  # benchmark rows: the row's own key, language and subset
    language: str | None = None
    subset: str | None = None
    sample: int = 0  # which of a run's repeated samples of the row (its uid then ends "#s<n>")
    seed: int | None = None  # the sampling seed it was asked with, where the run recorded one
    turn: int = 0  # a conversation's turn (its uid then ends "#t<n>"); 0: a single-turn row

    def to_json(self) -> dict:
        out = {"uid": self.uid, "key": self.key, "language": self.language, "subset": self.subset}
        out.update((f.name, getattr(self, f.name)) for f in fields(self) if f.name not in out)
        if not self.sample:  # a run of one sample writes its lines as before
            del out["sample"]
        if self.seed is None:
            del out["seed"]
        if not self.turn:
            del out["turn"]
        out["format_version"] = GENERATION_FORMAT
        return out

    @classmethod
    def from_json(cls, data: dict) -> Generation:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})

    def usable_for(self, content_hash: str) -> bool:
        """Whether this answers an item with ``content_hash`` (older lines carry no hash and
        are taken as they are)."""
        return self.error is None and (self.content_hash is None or self.content_hash == content_hash)


@dataclass
class RunManifest:
    """A run folder's ``manifest.json``. ``model`` (``ModelSpec.identity()``: backend, model,
    output-affecting options, sampling settings, system turn, chat template), ``data`` and
    ``max_answer_chars`` are the run's identity: a folder resumes only with the same ones.
    ``migrations`` records each upgrade of a folder an earlier version made."""

    model: dict[str, Any]
    data: dict[str, Any] = field(default_factory=dict)
    max_answer_chars: int = 1_000_000
    backend_options: dict[str, Any] = field(default_factory=dict)
    backend: dict[str, Any] | None = None  # what the started backend said of itself
    scoring: str = "fixed"  # the mode scores.jsonl holds
    scored: dict[str, dict[str, Any]] = field(default_factory=dict)  # mode -> its files and time
    status: str = "generating"
    items: int = 0
    started_at: str | None = None
    finished_at: str | None = None
    rescored_at: str | None = None
    indicifeval_version: str = ""
    migrations: list[dict[str, Any]] = field(default_factory=list)
    tool: str = "run"
    samples: int = 1  # answers asked per row (``run --samples N``)
    provenance: dict[str, Any] = field(default_factory=dict)  # what made the answers (no secrets, no paths)
    format_version: int = MANIFEST_FORMAT

    IDENTITY = ("model", "data", "max_answer_chars")

    def identity(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.IDENTITY}

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> RunManifest:
        """A manifest of this format (``runs.store`` upgrades older ones before they get here)."""
        known = {f.name for f in fields(cls)}
        values = {k: v for k, v in data.items() if k in known}
        values.setdefault("model", {})
        return cls(**values)


def model_facts(manifest: dict[str, Any]) -> dict[str, Any]:
    """model, backend, thinking and the sampling settings of a run's ``manifest.json`` of any
    format (format 2 kept them under ``generation``), for the tables that show runs."""
    model = manifest.get("model")
    if isinstance(model, dict):
        settings = dict(model.get("settings") or {})
        return {"model": model.get("model"), "backend": model.get("backend"), "thinking": settings.get("thinking"),
                "settings": {"model": model.get("model"), "backend": model.get("backend"),
                             **{k: v for k, v in settings.items() if k != "thinking"},
                             "system_prompt": model.get("system")}}
    generation = manifest.get("generation") or {}
    return {"model": generation.get("model"), "backend": generation.get("backend"),
            "thinking": generation.get("thinking"),
            "settings": {k: v for k, v in generation.items() if k != "thinking"}}
