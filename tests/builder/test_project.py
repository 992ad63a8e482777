"""The build layer on a two-stage toy pipeline: a stage that asks a (mock) model one question
per input line into a cache through the shared resumable core, and one that summarises it.
Same identity: resume; other identity or force: the stage runs again, says why, marks the later
stage stale, and asks nothing the cache holds; one process at a time; `build status` shows it."""

import json

import pytest

from indicifeval.builder import BuildFolder, StageCall, StageContext, run_stage, stage
from indicifeval.cli import main
from indicifeval.core.errors import BusyError, InputError
from indicifeval.core.lock import FolderLock
from indicifeval.runs.backends.mock import MockBackend
from indicifeval.runs.requests import GenerationRequest, SamplingSettings
from indicifeval.runs.resumable import Job, cached, execute

PIPELINE = "toy"
CALLS: list[str] = []
FAIL_AFTER: dict[str, int] = {}


@stage("ask", pipeline=PIPELINE, help="one question per input line", uses="model")
def ask(ctx: StageContext) -> dict[str, int]:
    lines = ctx.inputs["questions"].read_text(encoding="utf-8").splitlines()
    settings = SamplingSettings(max_tokens=ctx.params["max_tokens"])
    jobs = [Job(GenerationRequest(f"q{i}", [{"role": "user", "content": line}], settings),
                content_hash=f"{line}|{settings.key()}") for i, line in enumerate(lines)]
    log = ctx.cache("ask/answers.jsonl")
    have = cached(log.read(), {j.uid: j.content_hash for j in jobs})
    todo = [j for j in jobs if j.uid not in have]
    limit = FAIL_AFTER.pop("ask", None)

    def answer(request):
        CALLS.append(request.uid)
        if limit is not None and len(CALLS) > limit:
            raise RuntimeError("engine died")
        return request.messages[-1]["content"].upper()

    execute(MockBackend("toy-model", script=answer), todo, log)
    return {"questions": len(jobs), "asked": len(todo)}


@stage("summarise", pipeline=PIPELINE, after=("ask",))
def summarise(ctx: StageContext) -> dict[str, int]:
    """How many answers there are."""
    answers = list(ctx.read_log("ask/answers.jsonl").read())
    ctx.output("summary.json").write_text(json.dumps({"answers": len(answers)}), encoding="utf-8")
    return {"answers": len(answers)}


@pytest.fixture
def build(tmp_path):
    CALLS.clear()
    FAIL_AFTER.clear()
    (tmp_path / "q.txt").write_text("one\ntwo\nthree\n", encoding="utf-8")
    return BuildFolder(tmp_path / "build").create("hi"), tmp_path / "q.txt"


def test_same_identity_resumes_and_a_complete_stage_does_nothing(build):
    folder, questions = build
    record = run_stage(folder, PIPELINE, "ask", StageCall(inputs={"questions": questions}, params={"max_tokens": 8}))
    assert record.status == "complete" and record.counts == {"questions": 3, "asked": 3} and CALLS == ["q0", "q1", "q2"]
    assert record.identity["inputs"]["questions"]["sha256"] and record.outputs == []  # a cache, owned by no one
    run_stage(folder, PIPELINE, "ask", StageCall(inputs={"questions": questions}, params={"max_tokens": 8}))
    assert CALLS == ["q0", "q1", "q2"]  # nothing asked again


def test_a_failed_stage_resumes_where_it_stopped(build):
    folder, questions = build
    FAIL_AFTER["ask"] = 2
    with pytest.raises(RuntimeError, match="engine died"):
        run_stage(folder, PIPELINE, "ask", StageCall(inputs={"questions": questions}, params={"max_tokens": 8}))
    assert folder.stages()["ask"].status == "failed" and "engine died" in folder.stages()["ask"].error
    CALLS.clear()
    record = run_stage(folder, PIPELINE, "ask", StageCall(inputs={"questions": questions}, params={"max_tokens": 8}))
    assert CALLS == ["q2"] and record.counts["asked"] == 1 and record.status == "complete"
    answers = (folder.folder / "ask" / "answers.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(answers) == 3  # the two made before the failure, and the one made now


def test_another_identity_or_force_reruns_saying_why_and_asks_only_what_is_new(build):
    folder, questions = build
    run_stage(folder, PIPELINE, "ask", StageCall(inputs={"questions": questions}, params={"max_tokens": 8}))
    run_stage(folder, PIPELINE, "summarise")
    CALLS.clear()
    record = run_stage(folder, PIPELINE, "ask", StageCall(inputs={"questions": questions}, params={"max_tokens": 16}))
    assert record.reran_because == "changed: params.max_tokens" and CALLS == ["q0", "q1", "q2"]  # new settings
    assert folder.stages()["summarise"].status == "stale"
    run_stage(folder, PIPELINE, "summarise")
    questions.write_text("one\ntwo\nfour\n", encoding="utf-8")
    CALLS.clear()
    record = run_stage(folder, PIPELINE, "ask", StageCall(inputs={"questions": questions}, params={"max_tokens": 16}))
    assert record.reran_because == "changed: inputs.questions" and CALLS == ["q2"]  # only the changed line
    CALLS.clear()
    record = run_stage(folder, PIPELINE, "ask", StageCall(inputs={"questions": questions}, params={"max_tokens": 16}),
                       force=True)
    assert record.reran_because == "--force" and CALLS == []  # forced: recomputed from the cache
    stages = folder.stages()
    assert stages["summarise"].status == "stale" and "ask was run again" in stages["summarise"].stale_because
    with pytest.raises(InputError, match="needs 'ask' first"):
        run_stage(BuildFolder(folder.folder.parent / "other").create("hi"), PIPELINE, "summarise")
    run_stage(folder, PIPELINE, "summarise")  # a stale stage runs again without --force
    assert folder.stages()["summarise"].status == "complete"
    assert json.loads((folder.folder / "summary.json").read_text())["answers"] == 7  # every answer kept


def test_identity_is_by_content_not_by_path(build, tmp_path, monkeypatch):
    folder, questions = build
    run_stage(folder, PIPELINE, "ask", StageCall(inputs={"questions": questions}, params={"max_tokens": 8}))
    moved = tmp_path / "elsewhere"
    folder.folder.rename(moved)
    (tmp_path / "sub").mkdir()
    questions.rename(tmp_path / "sub" / "q.txt")
    monkeypatch.chdir(tmp_path / "sub")
    CALLS.clear()
    record = run_stage(BuildFolder(moved), PIPELINE, "ask", StageCall(inputs={"questions": "q.txt"},
                                                                      params={"max_tokens": 8}))
    assert record.status == "complete" and record.reran_because is None and CALLS == []


def test_a_stage_cannot_claim_another_stages_file(build):
    folder, questions = build
    run_stage(folder, PIPELINE, "ask", StageCall(inputs={"questions": questions}, params={"max_tokens": 8}))
    run_stage(folder, PIPELINE, "summarise")
    with pytest.raises(RuntimeError, match="which stage 'summarise' owns"):
        run_stage(folder, PIPELINE, "thief")


@stage("thief", pipeline=PIPELINE, after=("ask",))
def thief(ctx: StageContext) -> dict[str, int]:
    ctx.output("summary.json")
    return {}


def test_one_process_at_a_time(build):
    folder, questions = build
    with FolderLock(folder.folder, "someone else"):
        with pytest.raises(BusyError):
            run_stage(folder, PIPELINE, "ask", StageCall(inputs={"questions": questions}, params={"max_tokens": 8}))


def test_a_folder_is_for_one_language_and_other_folders_are_not_builds(build, tmp_path):
    folder, _ = build
    with pytest.raises(InputError, match="for 'hi', not 'ta'"):
        BuildFolder(folder.folder).create("ta")
    with pytest.raises(InputError, match="not a build folder"):
        BuildFolder(tmp_path).stages()
    with pytest.raises(InputError, match="no stage 'nope'"):
        run_stage(folder, PIPELINE, "nope")


def test_build_status_prints_the_stage_table(build, capsys):
    folder, questions = build
    run_stage(folder, PIPELINE, "ask", StageCall(inputs={"questions": questions}, params={"max_tokens": 8}))
    assert main(["build", "status", str(folder.folder)]) == 0
    out = capsys.readouterr().out
    assert "ask" in out and "complete" in out and "questions 3" in out and "max_tokens=8" in out
    assert main(["build", "status", str(folder.folder), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["language"] == "hi" and data["stages"][0]["stage"] == "ask"
    assert main(["build", "status", str(folder.folder.parent)]) == 1
    assert "not a build folder" in capsys.readouterr().err


def _plant_temporaries(folder):
    """What a killed writer leaves (core.files' own names), and a user's own *.tmp files."""
    stale = [".summary.json.k3x_9a0q.tmp", "ask/.answers.jsonl.a1b2c3d4.tmp", ".staging.zz9_yy8x.tmp/part.json"]
    for name in stale:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text("half", encoding="utf-8")
    mine = ["notes.tmp", "ask/draft.tmp", ".mine.tmp", "review/.verdicts.jsonl.q1w2e3r4.tmp"]
    for name in mine:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text("mine", encoding="utf-8")
    return [n.split("/")[0] if n.startswith(".staging") else n for n in stale], mine


def test_a_rerun_clears_what_a_killed_build_left_and_nothing_else(build):
    b, questions = build
    run_stage(b, PIPELINE, "ask", StageCall(inputs={"questions": questions}, params={"max_tokens": 10}))
    stale, mine = _plant_temporaries(b.folder)
    # the lock, then this
    run_stage(b, PIPELINE, "ask", StageCall(inputs={"questions": questions}, params={"max_tokens": 10}))
    assert not any((b.folder / name).exists() for name in stale)
    assert all((b.folder / name).read_text(encoding="utf-8") == "mine" for name in mine)  # review/: no lock there
