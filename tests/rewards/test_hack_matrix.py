"""The hack matrix: answers that game the plain reward (``indicifeval.testing.hacks``), made
from the bundled sample in all 15 languages, each get reward 0 with the implicit constraints,
with a reason naming the constraint, and exactly the plain reward without them; honest answers
keep the plain reward."""

from __future__ import annotations

import pytest

from indicifeval.dataset import load_rows
from indicifeval.languages import list_languages
from indicifeval.rewards import score_batch
from indicifeval.rewards.export import ground_truth
from indicifeval.testing.hacks import HACKS, hack_cases

LANGUAGES = sorted(list_languages())


def _items(cases):
    return [{**ground_truth(row), "response": answer} for _, row, answer in cases]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_hack_gets_zero_with_a_reason_and_the_plain_reward_without(language):
    cases = list(hack_cases(language))
    assert len({hack for hack, _, _ in cases}) >= 12
    guarded = score_batch(_items(cases), reward="fraction")
    plain = score_batch(_items(cases), reward="fraction", implicit=None)
    for (hack, row, answer), g, p in zip(cases, guarded, plain):
        assert g.reward == 0.0 and g.implicit, (hack, row.key, answer[:80])
        assert all(reason.startswith("implicit:") for reason in g.implicit)
        assert p.implicit is None and p.reward == pytest.approx(sum(p.strict) / len(p.strict))
        assert (g.strict, g.loose, g.explanations) == (p.strict, p.loose, p.explanations)  # verdicts untouched


def test_the_matrix_shows_what_the_constraints_buy():
    """Without them, most hack types earn a reward somewhere: the matrix is not of strawmen."""
    cases = [c for language in LANGUAGES for c in hack_cases(language)]
    plain = score_batch(_items(cases), reward="fraction", implicit=None)
    earning = {hack for (hack, _, _), p in zip(cases, plain) if p.reward and p.reward > 0}
    assert len(earning) >= len(HACKS) - 3, sorted(set(HACKS) - earning)


def test_honest_sample_answers_keep_their_reward():
    """The sample's passing answers, every suite, 15 languages: at most 0.5 % blocked."""
    from indicifeval.dataset.responses import load_responses
    from indicifeval.dataset.rows import SAMPLES

    items = []
    for name in SAMPLES:
        answers = load_responses(name)
        items += [{**ground_truth(r), "response": answers.lookup(r)} for r in load_rows(name)
                  if answers.lookup(r) is not None]
    plain = score_batch(items, implicit=None)
    guarded = score_batch(items)
    honest = [(g, p) for g, p in zip(guarded, plain) if p.reward == 1.0]
    blocked = [g for g, _ in honest if g.reward != 1.0]
    assert len(honest) > 1000
    assert len(blocked) <= 0.005 * len(honest), [(b.key, b.implicit) for b in blocked]


@pytest.mark.parametrize("language", ["hi", "ta", "en", "ur"])
def test_the_server_blocks_them_too_and_none_gives_the_plain_reward(language):
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from indicifeval.rewards.server import ServeSettings, create_app

    cases = list(hack_cases(language))
    items = _items(cases)
    with TestClient(create_app(ServeSettings(reward="fraction"))) as guarded, \
            TestClient(create_app(ServeSettings(reward="fraction", implicit="none"))) as plain:
        got = guarded.post("/score", json={"items": items}).json()["results"]
        base = plain.post("/score", json={"items": items}).json()["results"]
        assert all(g["reward"] == 0.0 and g["implicit"] for g in got)
        assert [b["reward"] for b in base] == [v.reward for v in score_batch(items, reward="fraction", implicit=None)]
        for item, (hack, _, _) in zip(items[:20], cases[:20]):  # NeMo Gym's request, the prompt in its input
            body = {"responses_create_params": {"input": [{"role": "user", "content": item["prompt"]}]},
                    "response": {"output": [{"content": [{"type": "output_text", "text": item["response"]}]}]},
                    "instruction_id_list": item["instruction_id_list"], "kwargs": item["kwargs"],
                    "language": item["language"]}
            answer = guarded.post("/verify", json=body).json()
            assert answer["reward"] == 0.0 and answer["implicit"], (hack, answer)
            assert "implicit" not in plain.post("/verify", json=body).json()


def test_the_in_process_adapters_block_them():
    from indicifeval.rewards import trl, verl_compute_score

    cases = list(hack_cases("bn"))
    items = _items(cases)
    reward_fn = trl(reward="fraction")
    columns = {c: [item[c] for item in items] for c in ("language", "instruction_id_list", "kwargs", "prompt")}
    assert reward_fn(completions=[item["response"] for item in items], **columns) == [0.0] * len(items)
    for item in items:
        truth = {k: item[k] for k in ("language", "instruction_id_list", "kwargs", "prompt")}
        assert verl_compute_score("indicifeval", item["response"], truth)["score"] == 0.0
