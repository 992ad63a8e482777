"""Releasing conversations: ``build multiturn`` from the sample with the fake translator, one
conversation judged incorrect in review (kept, tagged), one correct; ``finalize`` with the Trans
build it was made from (the multi-turn folder's follow-ups are never released as Trans rows),
``publish`` to the hub layout (``indicifeval-multiturn/<lang>-00000-of-00001.parquet``), read
back by the one reader: the same conversations."""

import json
from pathlib import Path

import pytest

from indicifeval.builder.multiturn.pipeline import build_multiturn
from indicifeval.builder.multiturn.stages import read_conversations
from indicifeval.builder.release import finalize, publish
from indicifeval.builder.trans.pipeline import build_trans
from indicifeval.core.errors import InputError
from indicifeval.dataset import load_rows
from indicifeval.dataset.multiturn import is_multiturn_data, load_conversations
from indicifeval.languages import composition
from indicifeval.records import HumanVerdict
from indicifeval.records.layout import MULTITURN_ROWS, REVIEW_VERDICTS
from indicifeval.runs.backends.spec import ModelSpec

FAKE = ModelSpec.of("mock", "fake", {"answers": "fake"})


def _same(conversations):
    return sorted((str(c.key), c.language, c.turns, c.tags) for c in conversations)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("mt")
    trans, multiturn = root / "hi", root / "hi-mt"
    build_trans(trans, "hi", "sample", FAKE)
    build_multiturn(multiturn, "hi", trans, FAKE)
    return trans, multiturn


def test_the_composition_knows_the_conversations_config_apart_from_the_subsets():
    comp = composition()
    assert comp.conversation_config("multiturn") == "indicifeval-multiturn"
    assert "multiturn" not in comp.subsets and "multiturn" not in comp.configs  # rows' subsets only
    assert comp.titles["multiturn"] == "IndicIFEval-MultiTurn"


def test_finalize_and_publish_release_the_conversations(built, tmp_path):
    trans, multiturn = built
    found = read_conversations(multiturn / MULTITURN_ROWS)
    assert len(found) >= 2
    wrong, right = str(found[0][1].id), str(found[1][1].id)
    (multiturn / REVIEW_VERDICTS).parent.mkdir(exist_ok=True)
    (multiturn / REVIEW_VERDICTS).write_text("".join(json.dumps(HumanVerdict(
        ident, "asha", "multiturn", {}, verdict=v, at="2025-01-01T10:00:00+0530").to_json()) + "\n"
        for ident, v in ((wrong, "incorrect"), (right, "correct"))), encoding="utf-8")
    out = tmp_path / "release"
    report = finalize([trans, multiturn], out, accept_unreviewed=True)
    assert report.counts["hi"]["multiturn"]["incorrect"] == 1
    assert report.counts["hi"]["multiturn"]["released"] == \
        sum(1 for c, _ in found if c.status == "auto-ok" or str(c.row.id) in (wrong, right))
    rows = load_rows(out / "rows.jsonl")
    assert {r.subset for r in rows} == {"trans"}  # the follow-ups are not Trans rows
    assert len(rows) == len(load_rows(trans / "trans" / "rows.jsonl", defaults=("hi", "trans")))
    released = load_conversations(out)  # a release folder: its conversations.jsonl
    tags = {str(c.id): c.tags for c in released}
    assert "incorrect" in tags[wrong] and "correct" in tags[right] and "gold translation" in tags[right]
    assert all(("silver translation" in t) for i, t in tags.items() if i not in (wrong, right))
    multi_if = load_conversations(out / "conversations.multi-if.jsonl")  # Multi-IF's format, no tags
    assert sorted((str(c.key), c.turns) for c in multi_if) == sorted((str(c.key), c.turns) for c in released)
    info = json.loads((out / "release.json").read_text(encoding="utf-8"))
    assert info["conversations"] == len(released) and info["rows"] == len(rows)

    written = publish(out)
    hub = out / "hub"
    assert hub / "indicifeval-multiturn" / "hi-00000-of-00001.parquet" in written
    assert _same(load_conversations(hub)) == _same(released)  # the hub layout read back
    assert _same(load_conversations(out / "hub" / "indicifeval-multiturn")) == _same(released)
    card = (hub / "README.md").read_text(encoding="utf-8")
    front = card.split("---", 2)[1]
    assert "config_name: indicifeval-multiturn" in front and "path: indicifeval-multiturn/hi-*.parquet" in front
    assert "config_name: indicifeval-trans" in front and "## Conversations" in card
    assert not is_multiturn_data(hub)  # rows and conversations: rows unless asked for conversations


def test_a_conversations_only_release(built, tmp_path):
    _, multiturn = built
    out = tmp_path / "release"
    finalize([multiturn], out, accept_unreviewed=True)
    assert not (out / "rows.jsonl").exists()
    publish(out)
    assert is_multiturn_data(out) and is_multiturn_data(out / "hub")
    assert _same(load_conversations(out / "hub")) == _same(load_conversations(out))


def test_unreviewed_conversations_wait(built, tmp_path):
    _, multiturn = built
    verdicts = multiturn / REVIEW_VERDICTS
    saved = verdicts.read_bytes() if verdicts.is_file() else None
    try:
        if saved is not None:
            verdicts.unlink()
        with pytest.raises(InputError, match="nothing to release"):
            finalize([multiturn], tmp_path / "release")
    finally:
        if saved is not None:
            verdicts.write_bytes(saved)


def test_the_review_app_shows_conversations_and_its_verdicts_reach_the_release(built, tmp_path):
    pytest.importorskip("starlette")
    import re
    import shutil

    from starlette.testclient import TestClient

    from indicifeval.builder.review.app import create_app
    from indicifeval.builder.review.serve import open_review, read_annotators
    from tests.builder.review_fixtures import annotators_file, token

    folder = tmp_path / "hi-mt"
    shutil.copytree(built[1], folder)
    (folder / REVIEW_VERDICTS).unlink(missing_ok=True)
    conversations = {str(c.id): c for _, c in read_conversations(folder / MULTITURN_ROWS)}
    review = open_review([folder], read_annotators(annotators_file(tmp_path)), overlap=0.0, seed=1)
    assert sorted(i.id for i in review.desk.items()) == sorted(conversations)  # one item per conversation
    c = TestClient(create_app(review), follow_redirects=False)
    form = re.search(r'name="csrf" value="([^"]+)"', c.get("/login").text).group(1)
    assert c.post("/login", data={"token": token("asha"), "csrf": form}).status_code == 303
    judged: dict[str, str] = {}
    while (location := c.get("/next").headers.get("location")) is not None:
        page = c.get(location).text
        item = re.search(r'data-item="([^"]+)"', page).group(1)
        talk = conversations[item]
        for n, turn in enumerate(talk.turns, start=1):  # every turn: its prompt and instruction list
            assert f'id="turn-{n}"' in page and f'id="prompt-{n}"' in page
            assert all(f"<code>{iid}</code>" in page for iid in turn.instruction_id_list)
        assert 'id="source-2"' in page and "Now rewrite your answer" in page  # a follow-up's English source
        data = {"item": item, "csrf": re.search(r'name="csrf" value="([^"]+)"', page).group(1)}
        no = not judged  # the first conversation: not meaningful
        for q in dict.fromkeys(re.findall(r'name="(q_[a-z]+)"', page)):
            values = re.findall(rf'name="{q}" value="([^"]+)"', page)
            data[q] = values[-1] if no and q == "q_meaningful" else values[0]
        if not no and "This row fails validation" in page:
            data["approve_despite_validation"] = "yes"
        assert c.post("/verdict", data=data).status_code == 303
        judged[item] = "incorrect" if no else "correct"
    for store in review.stores:
        store.close()
    assert judged and set(judged) <= set(conversations)
    out = tmp_path / "release"
    report = finalize([folder], out)  # the review database's verdicts
    assert report.counts["hi"]["multiturn"]["released"] == len(judged)
    tags = {str(c.id): c.tags for c in load_conversations(out)}
    assert {i: ("incorrect" if "incorrect" in t else "correct") for i, t in tags.items()} == judged
