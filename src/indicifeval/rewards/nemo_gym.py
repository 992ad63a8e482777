"""NeMo Gym's instruction-following verify request, answered as its resource server answers it
(resources_servers/instruction_following/app.py): the verifier fields (``instruction_id_list``,
``kwargs``, ``prompt``, ``grading_mode``, and our ``language``) are read from
``verifier_metadata``, or from the top level where the metadata lacks them (its older rows);
the answer is the first content part of the response's last output item; ``grading_mode``
``binary`` (the default) rewards all-or-nothing, ``fraction`` the share followed. An
instruction id no checker knows makes the request malformed (a 422 naming it), unless the server
runs with ``--unknown-ids zero``: then it is not followed, with the reason, as NeMo Gym marks an
instruction that raises. The response is the request with ``verifier_metadata`` filled in,
``reward``, ``follow_all_instructions`` and ``follow_instruction_list``, plus our
``explanations`` and ``follow_instruction_list_loose``."""

from __future__ import annotations

from typing import Any

from indicifeval.checkers import REGISTRY
from indicifeval.core.errors import InputError, Source
from indicifeval.core.modes import ScoringMode
from indicifeval.dataset.rows import check_key
from indicifeval.rewards.verdicts import RewardScorer, answer_text, reward_of

FIELDS = ("instruction_id_list", "prompt", "kwargs", "grading_mode", "language")
GRADING = {"binary": "all", "fraction": "fraction"}


def metadata(body: dict, where: Source) -> dict[str, Any]:
    """The verifier fields, ``verifier_metadata`` first, then the top level."""
    meta = body.get("verifier_metadata")
    if meta is not None and not isinstance(meta, dict):
        raise where.error("verifier_metadata must be an object", "verifier_metadata")
    merged = dict(meta or {})
    for name in FIELDS:
        if name not in merged and name in body:
            merged[name] = body[name]
    for name in ("instruction_id_list", "kwargs"):
        if name not in merged:
            raise where.error(f"the request has no {name} (in verifier_metadata or at the top level)", name)
    return merged


def response_text(response: Any, where: Source) -> str:
    """As NeMo Gym reads it: the text of the first content part of the last output item ("" when
    there is none)."""
    if response is None:
        return ""
    if not isinstance(response, dict):
        raise where.error(f"response must be an OpenAI Responses object, got {type(response).__name__}", "response")
    output = response.get("output")
    if output is not None and not isinstance(output, list):
        raise where.error("response.output must be a list of output items", "response.output")
    if not output or not isinstance(output[-1], dict):
        return ""
    content = output[-1].get("content")
    if isinstance(content, list) and content and isinstance(content[0], dict):
        text = content[0].get("text")
        return text if isinstance(text, str) else ""
    return ""


def prompt_text(body: dict) -> str:
    """The user's last message in the request the policy answered (``responses_create_params.
    input``: a string, or messages whose content is a string or text parts); "" when none."""
    params = body.get("responses_create_params")
    given = params.get("input") if isinstance(params, dict) else None
    if isinstance(given, str):
        return given
    if isinstance(given, list):
        users = [m for m in given if isinstance(m, dict) and m.get("role", "user") == "user"]
        if users:
            return answer_text({"content": users[-1].get("content")}) or ""
    return ""


def verify(scorer: RewardScorer, body: dict, where: Source) -> dict[str, Any]:
    meta = metadata(body, where)
    ids, kwargs = meta["instruction_id_list"], meta["kwargs"]
    if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
        raise where.error("instruction_id_list must be a list of instruction ids", "instruction_id_list")
    if not isinstance(kwargs, list) or len(kwargs) != len(ids):
        raise where.error(f"kwargs must be a list as long as instruction_id_list ({len(ids)})", "kwargs")
    grading = meta.get("grading_mode")
    if grading is not None and (not isinstance(grading, str) or grading not in GRADING):
        raise where.error(f"grading_mode must be one of {', '.join(GRADING)}, got {grading!r:.60}", "grading_mode")
    for name in ("prompt", "language"):
        if meta.get(name) is not None and not isinstance(meta[name], str):
            raise where.error(f"{name} must be a string, got {type(meta[name]).__name__}", name)
    kind = GRADING[grading] if grading is not None else scorer.reward
    text = response_text(body.get("response"), where)
    unknown = [iid for iid in ids if iid not in REGISTRY]
    if unknown and scorer.unknown_ids == "error":
        raise where.error(f"no checker for the instruction id {unknown[0]!r}" + (
            f" (nor {len(unknown) - 1} more)" if len(unknown) > 1 else "") + "; a server started with --unknown-ids "
            "zero rewards such an instruction as not followed, as NeMo Gym does", "instruction_id_list")
    # An instruction beyond the paper, in paper mode: not followed, said so, the rest scored
    beyond = {n for n, iid in enumerate(ids) if scorer.mode is ScoringMode.PAPER and iid in REGISTRY and
              REGISTRY[iid].fixed_only}
    asked = [n for n in range(len(ids)) if n not in beyond]
    prompt = meta.get("prompt") if isinstance(meta.get("prompt"), str) else prompt_text(body)
    item = {"key": _key(body.get("id")), "language": meta.get("language") or "en", "prompt": prompt,
            "instruction_id_list": [ids[n] for n in asked] or [_ANY_ID],
            "kwargs": [kwargs[n] for n in asked] or [{}]}  # its nulls (and a null for none) dropped as NeMo Gym does
    verdict = scorer.verdict(scorer.row(item, where), text, where)
    strict, loose, why = [False] * len(ids), [False] * len(ids), [_BEYOND.format(iid) for iid in ids]
    for n, s, lo, w in zip(asked, verdict.strict, verdict.loose, verdict.explanations):
        strict[n], loose[n], why[n] = s, lo, w
    reward = 0.0 if verdict.implicit else reward_of(strict, loose, kind)
    implicit = {"implicit": verdict.implicit} if verdict.implicit is not None else {}
    return {**body, "verifier_metadata": meta, "reward": reward, **implicit,
            "follow_all_instructions": all(strict), "follow_instruction_list": strict,
            "mask_sample": False, "failure_kind": None, "failure_reason": None,  # nemo-gym 0.7's response fields
            "follow_instruction_list_loose": loose, "explanations": why}


_ANY_ID = "punctuation:no_comma"  # asked for nothing else: the rest of the request still checked
_BEYOND = "{} is beyond the paper's instructions, which this server scores (serve --scoring paper): not followed"


def _key(value: Any) -> int | str:
    """The request's ``id`` as the verdict's key where it is one (NeMo Gym's ids are its own)."""
    try:
        return check_key(value, Source("id", None)) if value is not None else 0
    except InputError:
        return 0


__all__ = ["FIELDS", "GRADING", "metadata", "prompt_text", "response_text", "verify"]
