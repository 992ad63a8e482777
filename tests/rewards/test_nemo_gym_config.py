"""docs/nemo-gym/indicifeval.yaml: NeMo Gym's config layout (a resources server and the simple
agent naming it), pointing at `indicifeval serve`'s defaults and /verify route, its dataset what
`export --format nemo-gym` writes."""

from __future__ import annotations

from pathlib import Path

import pytest

from indicifeval.cli import main
from indicifeval.cli.serve_cmd import DEFAULT_PORT

yaml = pytest.importorskip("yaml")
CONFIG = Path(__file__).resolve().parents[2] / "docs" / "nemo-gym" / "indicifeval.yaml"


def test_config_names_our_server_and_route(tmp_path, capsys):
    config = yaml.safe_load(CONFIG.read_text(encoding="utf-8"))
    server = config["indicifeval"]["resources_servers"]["indicifeval"]
    assert server["host"] == "127.0.0.1" and server["port"] == DEFAULT_PORT
    assert server["domain"] == "instruction_following"
    agent = config["indicifeval_simple_agent"]["responses_api_agents"]["simple_agent"]
    assert agent["resources_server"] == {"type": "resources_servers", "name": "indicifeval"}
    assert agent["model_server"]["type"] == "responses_api_models"
    (train,) = agent["datasets"]
    assert train["type"] == "train" and train["jsonl_fpath"] == "data/indicifeval/train.jsonl"
    text = CONFIG.read_text(encoding="utf-8")
    assert "resources server's /verify" in text and f"--port {DEFAULT_PORT}" in text
    assert "--format nemo-gym --out data/indicifeval" in text
    out = tmp_path / "data" / "indicifeval"
    assert main(["export", "sample", "--format", "nemo-gym", "--out", str(out), "--languages", "hi"]) == 0
    assert (tmp_path / train["jsonl_fpath"]).is_file()
