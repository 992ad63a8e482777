"""Build folders made by an earlier version, upgraded once to today's shape, so that the same
command resumes them without asking a model again or changing a row.

Format 1 (0.1.0) recorded the model three ways: a Trans stage's ``engine`` (``{"engine": …,
"fake": …, "system_prompt": …}``), Ground's ``params.model`` (a backend identity, a batch
``{"transport": …}``, or the model's bare name), and the model's name in provenance; its caches
key answers by that identity's JSON. Format 2 records ``ModelSpec.identity()`` as each stage's
``model`` and keys every answer by ``ModelSpec.key``. The upgrade

* rewrites each identity in today's shape, exactly as today's version computes it for the same
  command (so the stage's identity is unchanged and nothing runs again);
* records, under ``migrations``, each model's key of today beside the key its answers were
  logged under, so the caches answer by either (``runs.resumable.rehash``): never a re-ask;
* writes into each stage's parameters the value a setting had before it was a setting (units,
  protection, instruction lists, stop words, the context-required draw), and keeps those values
  as the folder's ``defaults``, so a command that does not name them goes on as the folder was
  made;
* marks a stage that waits for a batch file ``pending`` (0.1.0 called it failed).

A shipped plan whose file changed in a way that changes what it selects is ``RETIRED_PLANS``: a
select stage recorded with the old file is given the new file's hash and the setting that makes
the new file select what the old one did (``keyword_choice: spread`` for the paper plan before its
keyword pool), in its parameters and the folder's ``defaults``; this is done in every format.

The upgrade is pure: ``BuildFolder.manifest()`` applies it in memory and the next build command
writes it, once."""

from __future__ import annotations

import hashlib
import json
import time
from importlib import resources
from typing import Any

from indicifeval._version import __version__
from indicifeval.runs.backends.mock_scripts import is_script, named_fake

BUILD_MANIFEST_FORMAT = 2

# what a setting was in a folder made before it was one: (stage, parameter) -> value
LEGACY_PARAMS = {("plan", "units"): "lines", ("plan", "instructions"): "source",
                 ("translate", "protect"): "placeholder", ("assemble", "protect"): "placeholder",
                 ("vocab", "skip_top"): 0, ("vocab", "stop_words"): "off",
                 ("requests", "context_required_share"): "drawn-alone"}
TRANS_STAGES = ("plan", "pretranslate", "translate", "assemble", "validate")
GROUND_MODEL_STAGES = ("generate", "rows")
# a shipped plan's earlier file (sha256) -> (its name, the sha256 of the file that replaced it, the
# settings with which the new file selects exactly what the old one did)
RETIRED_PLANS = {"932cd2ee197afe7610793ff1924f3f953f22d10ee1483ff13479d30c95824c8b":
                 ("paper", "edec31f75dab4c2b1c3e79560fb5f0951036706c7089098962f72b8a4e5c2353",
                  {"keyword_choice": "spread"})}


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")


def trans_identity(old: dict[str, Any]) -> dict[str, Any]:
    """A 0.1.0 Trans engine identity as ``ModelSpec.identity()`` of the same command."""
    options = dict(old.get("options") or {})
    fake = old.get("fake")
    if old.get("engine") == "mock" and isinstance(fake, str) and (fake.startswith("fake") or is_script(fake)):
        options["answers"] = named_fake(fake, "fake-translator")
    return {"backend": old.get("engine"), "model": old.get("model"), "options": options,
            "settings": old.get("settings"), "system": old.get("system_prompt"),
            "chat_template_hash": old.get("chat_template_hash")}


def ground_identity(old: dict[str, Any]) -> dict[str, Any]:
    """A 0.1.0 Ground writer identity (online backend or batch transport) as today's."""
    if "transport" in old:
        return {"backend": old["transport"], "model": old.get("model"), "options": {}, "settings": None,
                "system": None, "chat_template_hash": None}
    options = dict(old.get("options") or {})
    answers = options.get("answers")
    if old.get("backend") == "mock" and isinstance(answers, str):
        options["answers"] = named_fake(answers, "fake-prompt-writer")
    return {"backend": old.get("backend"), "model": old.get("model"), "options": options, "settings": None,
            "system": None, "chat_template_hash": old.get("chat_template_hash")}


def _key(identity: dict[str, Any], ascii_only: bool = False) -> str:
    return json.dumps(identity, sort_keys=True, ensure_ascii=ascii_only)


def _shipped_plan(sha256: Any) -> str | None:
    """The shipped plan whose file has this sha256 (0.1.0 did not record the plan's name)."""
    if sha256 in RETIRED_PLANS:
        return RETIRED_PLANS[sha256][0]
    folder = resources.files("indicifeval.builder.ground").joinpath("plans")
    for entry in folder.iterdir():
        if entry.name.endswith(".json") and hashlib.sha256(entry.read_bytes()).hexdigest() == sha256:
            return entry.name.removesuffix(".json")
    return None


def _upgrade_stage(name: str, record: dict[str, Any], keys: list[dict[str, Any]], defaults: dict[str, Any]) -> None:
    identity = record.setdefault("identity", {})
    params = identity.setdefault("params", {})
    engine = identity.pop("engine", None)
    model = None
    if isinstance(engine, dict):  # a Trans stage that called the translator
        model = trans_identity(engine)
        keys.append({"key": _key(model), "was": _key(engine, ascii_only=True)})
    elif name in TRANS_STAGES and isinstance(params.get("engine"), dict):  # one that read its answers
        old = params.pop("engine")
        model = trans_identity(old)
        defaults.setdefault("trans_provenance", {"engine": old})  # the rows' provenance, as they were made
    elif name in GROUND_MODEL_STAGES and "model" in params:
        old = params.pop("model")
        if isinstance(old, dict):
            model = ground_identity(old)
            keys.append({"key": _key(model), "was": _key(old)})
        else:  # older still: the model's name alone, its replies hashed without it
            model = {"backend": None, "model": old, "options": {}, "settings": None, "system": None,
                     "chat_template_hash": None}
            keys.append({"model": old, "was": None})
    if model is not None or "model" not in identity:
        identity["model"] = model
    for (stage, param), value in LEGACY_PARAMS.items():
        if stage == name and param not in params:
            params[param] = value
            defaults[param] = value
    if name == "select" and "plan" not in params:
        shipped = _shipped_plan(((identity.get("inputs") or {}).get("plan") or {}).get("sha256"))
        if shipped is not None:
            params["plan"] = shipped
    if record.get("status") == "failed" and str(record.get("error") or "").startswith("BatchPending: "):
        record["status"], record["error"] = "pending", str(record["error"]).removeprefix("BatchPending: ")


def _retire_plans(manifest: dict[str, Any]) -> dict[str, Any]:
    """A select stage recorded with a retired plan file, as today's file with the settings that
    select the same contexts (nothing runs again, no answer is asked again); as it is otherwise."""
    record = (manifest.get("stages") or {}).get("select") or {}
    identity = record.get("identity") or {}
    plan = (identity.get("inputs") or {}).get("plan") or {}
    params = identity.get("params") or {}
    retired = RETIRED_PLANS.get(str(plan.get("sha256")))
    if retired is None or params.get("plan") != retired[0]:
        return manifest
    out = json.loads(json.dumps(manifest))  # never the caller's dicts
    identity = out["stages"]["select"]["identity"]
    identity["inputs"]["plan"]["sha256"] = retired[1]
    identity["params"].update(retired[2])
    out["defaults"] = {**retired[2], **(out.get("defaults") or {})}
    out["migrations"] = [*(out.get("migrations") or []),
                         {"plan": retired[0], "was": plan["sha256"], "now": retired[1], "settings": retired[2],
                          "at": _now(), "indicifeval_version": __version__}]
    return out


def upgrade(manifest: dict[str, Any]) -> dict[str, Any]:
    """``manifest`` (a build folder's) in today's format; as it is when it is already."""
    if int(manifest.get("format_version") or 0) >= BUILD_MANIFEST_FORMAT:
        return _retire_plans(manifest)
    out = json.loads(json.dumps(manifest))  # never the caller's dicts
    keys: list[dict[str, Any]] = []
    defaults: dict[str, Any] = dict(out.get("defaults") or {})
    for name, record in (out.get("stages") or {}).items():
        _upgrade_stage(name, record, keys, defaults)
    unique = list({json.dumps(k, sort_keys=True): k for k in keys}.values())
    out["defaults"] = defaults
    out["migrations"] = [*(out.get("migrations") or []),
                         {"from_format": manifest.get("format_version"), "to_format": BUILD_MANIFEST_FORMAT,
                          "at": _now(), "indicifeval_version": __version__, "keys": unique}]
    out["format_version"] = BUILD_MANIFEST_FORMAT
    return _retire_plans(out)


__all__ = ["BUILD_MANIFEST_FORMAT", "LEGACY_PARAMS", "RETIRED_PLANS", "ground_identity", "trans_identity", "upgrade"]
