"""From the LLM's replies to Ground rows: each reply parsed and checked before any human sees
it, then written in the hub's Ground schema with its kwargs stated explicitly, its tags and
its provenance. A reply that fails a check is rejected with the reason (and the rows stage
counts the reasons), never repaired by guesswork.

Checks: the reply is the JSON object asked for and not marked unsafe; the constraint's word is
in the prompt verbatim (the scorer's whole-word matcher); the number is stated (digits of any
script or the profile's number words); an instruction beyond the paper is stated (its row is
tagged ``beyond``, as the sample's are, so ``--tags not:beyond`` leaves it out); the context
slot is there exactly when the style needs the context (and is then replaced by it); no
meta-language; the prompt is in the target language (the project's language identification);
and the validator finds no error."""

from __future__ import annotations

from collections import Counter
from typing import Any

import regex

from indicifeval.builder.ground.answers import parse_json_answer
from indicifeval.builder.ground.beyond import TAG as BEYOND_TAG
from indicifeval.builder.ground.requests import templates
from indicifeval.builder.ground.select import instructions_of
from indicifeval.checkers.registry import REGISTRY
from indicifeval.dataset.validation import validate_rows
from indicifeval.languages import get_profile, language_name
from indicifeval.records import AUTO_OK, Candidate, Generation, GenerationTask, MinedContext, Row
from indicifeval.text.keywords import has_keyword
from indicifeval.text.langid import identify_language
from indicifeval.text.normalize import match_key

WRONG_LANGUAGE = "wrong language"
# a build stops when this share of the replies that reached the language check, and at least
# this many, were identified as another language: the profile cannot be told from that language
STOP_SHARE, STOP_MIN = 0.9, 10
_NUMBER_OF = {"keywords:frequency": "frequency", "length_constraints:number_sentences": "num_sentences",
              "length_constraints:number_paragraphs": "num_paragraphs"}


def _word_of(task: GenerationTask) -> str | None:
    kw = task.kwargs
    return kw.get("keyword") or (kw.get("forbidden_words") or [None])[0] or kw.get("first_word")


def _banned(prompt: str) -> str | None:
    for word in templates()["banned_words"]:
        if regex.search(r"(?<![\p{L}\p{N}])" + regex.escape(word) + r"(?![\p{L}\p{N}])", prompt, regex.IGNORECASE):
            return word
    return None


def build_row(task: GenerationTask, context: MinedContext, generation: Generation | None, key: int,
              provenance: dict[str, Any]) -> tuple[Candidate | None, tuple[str, str] | None]:
    """(the row with its status, warnings and provenance, None), or (None, (kind, detail))
    saying why the reply was rejected."""
    if generation is None:
        return None, ("not generated", "")
    if generation.error:
        return None, ("generation failed", generation.error)
    if generation.truncated:
        return None, ("cut at the length limit", "")
    answer, why = parse_json_answer(generation.answer if generation.answer is not None else generation.output)
    if answer is None:
        return None, ("not the JSON asked for", why or "")
    if answer.get("unsafe"):
        return None, ("marked unsafe", "")
    prompt = str(answer["instruction"]).strip()
    slot = templates()["context_slot"]
    if task.context_required != (slot in prompt):
        return None, ("context slot missing", "") if task.context_required else \
            ("context slot not wanted", "the style does not use the context")
    banned = _banned(prompt)
    if banned:
        return None, ("meta-language", banned)
    word = _word_of(task)
    if word is not None and not has_keyword(match_key(prompt), word):
        return None, ("word not in the prompt", word)
    detected = identify_language(prompt)
    if detected != context.language:
        return None, (WRONG_LANGUAGE, f"{detected or 'unknown'}, not {context.language}")
    if task.context_required:
        prompt = prompt.replace(slot, context.text)
    parts = instructions_of(task.instruction_id, task.kwargs)  # two for "S sentences in P paragraphs"
    ids = tuple(i for i, _ in parts)
    tags = ((task.style,) if task.style else ()) + ((BEYOND_TAG,) if any(REGISTRY[i].fixed_only for i in ids) else ())
    row = Row(key, prompt, ids, tuple(k for _, k in parts), context.language, "ground", tags, "src")
    findings = validate_rows([row])
    numbered = any(i in _NUMBER_OF for i, _ in parts)
    for f in findings:  # a constraint the prompt does not state is no constraint a model was given
        if f.is_error or (f.check == "number_stated" and numbered) or f.check == "beyond_stated":
            return None, (f"validate {f.check}", f.message)
    return Candidate(row, AUTO_OK, (), tuple(f"validate {f.check}: {f.message}" for f in findings),
                     {**provenance, "context_id": context.id, "doc_id": context.doc_id, "shard": context.shard,
                      "style": task.style, "context_required": task.context_required}), None


def taken_for_another(rejected: list[dict], accepted: int, language: str) -> str | None:
    """Why to stop, in one line, when (nearly) every reply that reached the language check was
    identified as another language; None otherwise. Replies rejected before it do not count."""
    wrong = [str(r.get("detail", "")).split(",")[0] for r in rejected if r.get("kind") == WRONG_LANGUAGE]
    checked = accepted + len(wrong) + sum(1 for r in rejected if str(r.get("kind", "")).startswith("validate "))
    if len(wrong) < STOP_MIN or len(wrong) < STOP_SHARE * checked:
        return None
    other, _ = Counter(wrong).most_common(1)[0]
    taken = "no language" if other == "unknown" else f"{language_name(other)} ({other})"
    head = (f"{len(wrong)} of the {checked} prompts were identified as {taken}, not {language_name(language)} "
            f"({language}), so none can be kept: ")
    if not _same_script(other, language):  # the writer answered in another language, not a profile gap
        return head + ("the model wrote them in another language or script; check the model, its system prompt "
                       "and backend options, then run the build again")
    return head + (f"the {language} profile cannot be told from {other}; give it function_words and stop_words of "
                   f"its own and the codes CLD2 gives its text (\"cld2\": [...]), then run the build again "
                   f"(`indicifeval languages --check {language}` says what is missing)")


def _same_script(other: str, language: str) -> bool:
    """Whether ``other`` may be written in ``language``'s script: False only when both have
    profiles and their scripts differ (then the writer, not the profile, is the reason)."""
    try:
        return get_profile(other).script == get_profile(language).script
    except Exception:  # a world language without a profile, or "unknown": the profile advice stands
        return True


__all__ = ["STOP_MIN", "STOP_SHARE", "WRONG_LANGUAGE", "build_row", "taken_for_another"]
