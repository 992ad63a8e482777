"""``run`` on conversations: each turn asked with the conversation so far (the model's own answers,
reasoning stripped), in rounds, resumable per turn, nothing asked twice."""

import json
import threading

import pytest

from indicifeval.cli import main
from indicifeval.core.errors import InputError
from indicifeval.dataset.multiturn import write_multi_if
from indicifeval.dataset.sample_multiturn import sample_conversations
from indicifeval.records import Conversation, Turn
from indicifeval.runs.backends import BackendError
from indicifeval.runs.backends.mock import MockBackend
from indicifeval.runs.backends.options import MockOptions
from indicifeval.runs.runner import DataOptions, run
from indicifeval.testing.fake_server import FakeOpenAIServer, ServerConfig
from tests.runs.specs import spec

HI_EN = DataOptions(source="sample-multiturn", languages="hi,en")


def _generations(folder):
    return [json.loads(x) for x in (folder / "generations.jsonl").read_text(encoding="utf-8").splitlines() if x]


def _scores(folder):
    return [json.loads(x) for x in (folder / "scores.jsonl").read_text(encoding="utf-8").splitlines() if x]


def test_mock_run_sends_the_history_and_scores_each_turn(tmp_path):
    backend = MockBackend("m", MockOptions(answers="sample"))
    outcome = run(spec("m", "mock", {"answers": "sample"}, system_prompt="Be brief."), tmp_path / "r", HI_EN,
                  backend=backend)
    assert outcome.generated == 12 and outcome.failed == 0
    by_uid = {r.uid: r for r in backend.requests}
    conv = next(c for c in sample_conversations(["hi"]) if c.key == "hi-multiturn-01")
    gens = {g["uid"]: g for g in _generations(tmp_path / "r")}
    third = by_uid["hi/multiturn/hi-multiturn-01#t3"].messages
    assert [m["role"] for m in third] == ["system", "user", "assistant", "user", "assistant", "user"]
    assert [m["content"] for m in third[1::2]] == [t.prompt for t in conv.turns]
    assert third[2]["content"] == gens["hi/multiturn/hi-multiturn-01#t1"]["answer"]
    assert third[4]["content"] == gens["hi/multiturn/hi-multiturn-01#t2"]["answer"]
    answers = [gens[f"hi/multiturn/hi-multiturn-01#t{n}"]["answer"] for n in (1, 2, 3)]
    assert len(set(answers)) == 3  # the mock answers each turn from its own prompt
    assert [g["turn"] for g in gens.values()].count(3) == 4
    scores = _scores(tmp_path / "r")
    assert len(scores) == 12 and sorted({s["turn"] for s in scores}) == [1, 2, 3]
    summary = json.loads((tmp_path / "r" / "summary.json").read_text())
    assert set(summary["per_turn"]) == {"1", "2", "3"} and set(summary["per_language_turn"]) == {"en", "hi"}
    assert json.loads((tmp_path / "r" / "manifest.json").read_text())["status"] == "complete"
    again = MockBackend("m", MockOptions(answers="sample"))
    second = run(spec("m", "mock", {"answers": "sample"}, system_prompt="Be brief."), tmp_path / "r", HI_EN,
                 backend=again)
    assert (second.generated, second.resumed, again.requests) == (0, 12, [])


def _conversation():
    return [_one(k) for k in (1, 2, 3)]


def _one(k):
    turns = (Turn(f"Write short note {k} about rain.", ("punctuation:no_comma",), ({},)),
             Turn("Now make it all lowercase.", ("punctuation:no_comma", "change_case:english_lowercase"), ({}, {})),
             Turn("Now end it with 'Bye.'", ("punctuation:no_comma", "change_case:english_lowercase",
                                             "startend:end_checker"), ({}, {}, {"end_phrase": "Bye."})))
    return Conversation(k, "en", turns)


class _Model:
    """A server-side model that answers turn n with reasoning and "answer n", and checks that the
    history it is sent holds the user's turns and its own earlier answers, reasoning stripped."""

    def __init__(self):
        self.lock = threading.Lock()
        self.asked: list[tuple[str, int]] = []
        self.errors: list[str] = []

    def __call__(self, body):
        messages = body["messages"]
        turn = (len(messages) + 1) // 2
        users = [m["content"] for m in messages if m["role"] == "user"]
        mine = [m["content"] for m in messages if m["role"] == "assistant"]
        expected = [t.prompt for t in _one(int(users[0].split()[3])).turns[:turn]]
        if users != expected or mine != [f"answer {n} no comma here bye." for n in range(1, turn)]:
            self.errors.append(json.dumps(messages))
        with self.lock:
            self.asked.append((users[0], turn))
        return f"<think>turn {turn}, thinking, with commas</think>answer {turn} no comma here bye."


def test_loopback_server_multiturn_with_a_kill_and_resume(tmp_path):
    data_file = write_multi_if(_conversation(), tmp_path / "conv.csv")
    data = DataOptions(source=str(data_file))
    model = _Model()
    with FakeOpenAIServer(ServerConfig(answer_fn=model)) as server:
        the_spec = spec("M", "openai", {"base_url": server.url, "concurrency": 1})

        class Dying:  # the real backend, killed after 4 answers (turn 1 of all three, turn 2 of one)
            def __init__(self):
                self.inner, self.seen = the_spec.open(), 0

            def describe(self):
                return self.inner.describe()

            def generate(self, requests, on_result):
                def counted(result):
                    if self.seen == 4:
                        raise BackendError("killed")
                    self.seen += 1
                    on_result(result)
                self.inner.generate(requests, counted)

        with pytest.raises(BackendError):
            run(the_spec, tmp_path / "r", data, backend=Dying())
        before = server.requests
        assert len(_generations(tmp_path / "r")) == 4
        outcome = run(the_spec, tmp_path / "r", data)
        assert outcome.failed == 0
        again = run(the_spec, tmp_path / "r", data)
        assert again.generated == 0
        assert outcome.generated == server.requests - before == 5  # only the turns the log lacked
    assert not model.errors
    assert len(set(model.asked)) == 9
    assert len(model.asked) - 9 <= 2  # answered by the server but killed before the log had them
    uids = [g["uid"] for g in _generations(tmp_path / "r")]
    assert len(uids) == len(set(uids)) == 9  # every turn logged once, over the kill
    gens = _generations(tmp_path / "r")
    assert all(g["reasoning"].startswith("turn ") for g in gens)
    scores = _scores(tmp_path / "r")
    assert [s["turn"] for s in scores] == [1, 2, 3] * 3
    assert all(s["prompt_strict"] for s in scores)  # the answers follow every turn's instructions


def test_a_changed_earlier_answer_asks_the_later_turns_again(tmp_path):
    data = tmp_path / "conv.jsonl"
    data.write_text("".join(json.dumps(c.to_json()) + "\n" for c in _conversation()[:1]), encoding="utf-8")
    first = MockBackend("m")
    run(spec("m", "mock"), tmp_path / "r", DataOptions(source=str(data)), backend=first)
    gens = _generations(tmp_path / "r")
    edited = {**gens[0], "answer": "another answer", "output": "another answer"}
    with (tmp_path / "r" / "generations.jsonl").open("a", encoding="utf-8") as fh:
        fh.write(json.dumps(edited) + "\n")
    again = MockBackend("m")
    outcome = run(spec("m", "mock"), tmp_path / "r", DataOptions(source=str(data)), backend=again)
    assert [r.uid.rsplit("#", 1)[1] for r in again.requests] == ["t2", "t3"]
    assert again.requests[0].messages[1]["content"] == "another answer"
    assert outcome.resumed == 1


def test_samples_with_conversations_are_refused(tmp_path):
    with pytest.raises(InputError, match="--samples 2 with conversations"):
        run(spec("m", "mock", temperature=0.7), tmp_path / "r", HI_EN, samples=2)


def test_cli_run_on_sample_multiturn(tmp_path, capsys):
    out = tmp_path / "r"
    assert main(["run", "--backend", "mock", "--model", "m", "--mock-answers", "sample", "--data",
                 "sample-multiturn", "--languages", "hi", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "hi/3" in printed and "2 generated" not in printed
    assert len(_scores(out)) == 6
