"""`report` where matplotlib is not installed: everything but the plots, and one line saying so
(the README's first-hour block runs after a plain `pip install .`)."""

import builtins
import importlib.util

from indicifeval.cli import main


def test_report_without_matplotlib_writes_all_but_the_plots(tmp_path, monkeypatch, capsys):
    assert main(["score", "--data", "sample", "--languages", "hi,en", "--out", str(tmp_path / "s"), "--quiet"]) == 0
    real_find, real_import = importlib.util.find_spec, builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name.split(".")[0] == "matplotlib":
            raise ImportError("No module named 'matplotlib'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a, **k: None if name.split(".")[0] == "matplotlib" else real_find(name, *a, **k))
    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    capsys.readouterr()
    assert main(["report", str(tmp_path / "s"), "--out", str(tmp_path / "r"), "--bootstrap", "0"]) == 0
    out = capsys.readouterr()
    assert "plots left out" in out.out + out.err and "indicifeval[report]" in out.out + out.err
    assert (tmp_path / "r" / "report.md").is_file() and (tmp_path / "r" / "report.html").is_file()
    assert not (tmp_path / "r" / "plots").exists()
