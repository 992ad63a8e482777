"""``results push`` (by ``build publish``'s push, tested offline against a local hub layout)
and the optional experiment-tracker logging (a stand-in writer always; the real TensorBoard or
W&B where installed, skipped otherwise)."""

from __future__ import annotations

import shutil
import sys
import types
from pathlib import Path

import pytest

from indicifeval.cli import main
from indicifeval.core.errors import InputError, OutputError
from indicifeval.results.share import log_metrics, push, record_metrics

TOKEN = "hf_results_push_TOKEN_not_real_123"


class LocalHub:
    """A hub client that keeps each dataset repository as a folder: upload_folder copies the
    files the hub would receive (hidden ones left out, as the ignore patterns ask)."""

    def __init__(self, root: Path, fail: bool = False):
        self.root, self.fail, self.calls = root, fail, []

    def create_repo(self, repo_id, **kwargs):
        self.calls.append(("create_repo", repo_id, kwargs))
        if self.fail:
            raise RuntimeError(f"401 Unauthorized for token {kwargs.get('token')}")
        (self.root / repo_id).mkdir(parents=True, exist_ok=True)

    def create_branch(self, repo_id, **kwargs):
        self.calls.append(("create_branch", repo_id, kwargs))

    def upload_folder(self, *, folder_path, repo_id, ignore_patterns, **kwargs):
        self.calls.append(("upload_folder", repo_id, kwargs))
        assert ".*" in ignore_patterns
        source = Path(folder_path)
        for path in source.rglob("*"):
            relative = path.relative_to(source)
            if path.is_file() and not any(p.startswith(".") for p in relative.parts):
                target = self.root / repo_id / relative
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, target)


@pytest.fixture(scope="module")
def export(runs, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("export")
    for name in ("echo", "sample"):
        assert main(["results", "export", str(runs[name]), "--format", "every-eval-ever", "--out", str(out)]) == 0
    assert main(["results", "export", str(runs["echo"]), "--format", "hf-eval-results", "--out", str(out)]) == 0
    return out


def test_push_uploads_the_export_in_one_commit(export, tmp_path, monkeypatch):
    monkeypatch.setenv("RESULTS_TOKEN", TOKEN)
    hub = LocalHub(tmp_path / "hub")
    names = push(export, "me/indicifeval-results", revision="v1", api=hub, token_env="RESULTS_TOKEN")
    assert [c[0] for c in hub.calls] == ["create_repo", "create_branch", "upload_folder"]
    upload = hub.calls[-1][2]
    assert upload["repo_type"] == "dataset" and upload["revision"] == "v1" and upload["token"] == TOKEN
    assert "mock-echo" in upload["commit_message"] and "org/mock-sample" in upload["commit_message"]
    pushed = sorted(str(p.relative_to(hub.root / "me/indicifeval-results"))
                    for p in (hub.root / "me/indicifeval-results").rglob("*") if p.is_file())
    assert pushed == names and len(names) == 4 and all(n.startswith("data/indicifeval/") for n in names)
    assert main(["results", "verify", str(hub.root / "me/indicifeval-results")]) == 0  # what arrived verifies
    for path in tmp_path.rglob("*"):
        assert not path.is_file() or TOKEN.encode() not in path.read_bytes()
    with pytest.raises(OutputError) as caught:
        push(export, "me/indicifeval-results", api=LocalHub(tmp_path / "x", fail=True), token_env="RESULTS_TOKEN")
    assert "401" in str(caught.value) and TOKEN not in str(caught.value)
    monkeypatch.delenv("RESULTS_TOKEN")
    unused = LocalHub(tmp_path / "y")
    with pytest.raises(InputError, match="RESULTS_TOKEN"):
        push(export, "me/indicifeval-results", api=unused, token_env="RESULTS_TOKEN")
    assert unused.calls == []


def test_push_refuses_a_folder_of_yaml_alone(runs, tmp_path, monkeypatch):
    monkeypatch.setenv("RESULTS_TOKEN", TOKEN)
    out = tmp_path / "yaml-only"
    assert main(["results", "export", str(runs["echo"]), "--format", "hf-eval-results", "--out", str(out)]) == 0
    with pytest.raises(InputError, match="model's own repository"):
        push(out, "me/r", api=LocalHub(tmp_path / "hub"), token_env="RESULTS_TOKEN")


class _Writer:
    logged: list[tuple[str, object, int]] = []

    def __init__(self, log_dir: str):
        self.log_dir = log_dir
        Path(log_dir).mkdir(parents=True, exist_ok=True)

    def add_scalar(self, tag, value, step):
        self.logged.append((tag, value, step))

    def add_text(self, tag, text, step):
        self.logged.append((tag, text, step))

    def close(self):
        self.logged.append(("closed", self.log_dir, 0))


def test_tracker_logs_every_metric_through_a_summary_writer(runs, export, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "torch.utils.tensorboard", None)  # as if tensorboard were not installed
    monkeypatch.setitem(sys.modules, "tensorboardX", types.SimpleNamespace(SummaryWriter=_Writer))
    _Writer.logged = []
    assert main(["results", "export", str(runs["two-samples"]), "--format", "every-eval-ever", "--out",
                 str(tmp_path / "eee"), "--tracker", "tensorboard", "--tracker-dir", str(tmp_path / "tb")]) == 0
    [(model, scores, settings)] = record_metrics(tmp_path / "eee")
    scalars = {tag: value for tag, value, _ in _Writer.logged if isinstance(value, float)}
    assert scalars == scores and "hi/trans/prompt_level_strict_acc" in scalars
    assert settings["samples_per_prompt"] == "2" and _Writer.logged[-1][0] == "closed"
    _Writer.logged = []
    monkeypatch.setenv("RESULTS_TOKEN", TOKEN)
    from indicifeval.results import share

    monkeypatch.setattr(share, "push_folder", lambda *a, **k: None)
    assert main(["results", "push", str(export), "--repo", "me/r", "--token-env", "RESULTS_TOKEN", "--tracker",
                 "tensorboard", "--tracker-dir", str(tmp_path / "tb2")]) == 0
    assert sum(tag == "closed" for tag, _, _ in _Writer.logged) == 2  # one per record: two models
    monkeypatch.setitem(sys.modules, "tensorboardX", None)
    with pytest.raises(InputError, match="needs tensorboard"):
        log_metrics({"a": 1.0}, tracker="tensorboard", name="m", logdir=tmp_path / "tb3")


def test_tensorboard_for_real(tmp_path):
    try:
        import torch.utils.tensorboard  # noqa: F401
    except ImportError:
        pytest.importorskip("tensorboardX", reason="neither tensorboard nor tensorboardX is installed")
    where = log_metrics({"hi/trans/prompt_level_strict_acc": 0.5}, tracker="tensorboard", name="org/m",
                        logdir=tmp_path)
    assert any(p.name.startswith("events.out.tfevents") for p in where.rglob("*"))


def test_wandb_offline_for_real(tmp_path, monkeypatch):
    pytest.importorskip("wandb", reason="wandb is not installed")
    monkeypatch.setenv("WANDB_SILENT", "true")
    where = log_metrics({"hi/trans/prompt_level_strict_acc": 0.5}, tracker="wandb", name="org/m", logdir=tmp_path)
    assert any(p.name.startswith("offline-run") for p in (where / "wandb").iterdir())
