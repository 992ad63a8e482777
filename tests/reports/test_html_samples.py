"""The samples of report.html, one file per run beside the page: each holds every row of its
run once, and Chromium, opening the page from disk (file://, where fetch() of a local file is
refused), adds a run's file as a script when that run is shown."""

from __future__ import annotations

import html
import json
import re
import shutil

import pytest

from indicifeval.reports import api
from tests.reports.test_html import READY, _chrome, _console_lines, _samples_file
from tests.reports.test_streaming import _runs


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    runs = _runs(tmp_path_factory.mktemp("runs"), 3)
    out = tmp_path_factory.mktemp("report")
    rep = api.report(runs, out, n_boot=20, plots=False)
    return rep, out / "report.html", []


def test_samples_files_hold_every_row_once(built):
    rep, page, _ = built
    index = json.loads(re.search(r'id="samples-index">(.*?)</script>', page.read_text(encoding="utf-8"),
                                 re.S).group(1))
    assert index["runs"] == [r.name for r in rep.runs] and len(index["files"]) == len(rep.runs)
    samples = list(rep.samples)
    for i, (name, file) in enumerate(zip(index["runs"], index["files"])):
        data = _samples_file(page.parent / file, i)
        mine = [s for s in samples if s["run"] == name]
        assert len(data["rows"]) == index["counts"][i] == len(mine)
        f = index["fields"]
        key, prompt, answer = f.index("key"), f.index("prompt"), f.index("answer")
        assert [(r[key], data["prompts"][r[prompt]], r[answer]) for r in data["rows"]] \
            == [(str(s["key"]), s["prompt"], s["answer"]) for s in mine]
        assert {r[f.index("run")] for r in data["rows"]} == {i}


ON_DEMAND = r"""<script>
window.addEventListener('load', function(){
  var out = {}, index = JSON.parse(document.getElementById('samples-index').textContent);
  function scripts(){ return Array.prototype.map.call(document.querySelectorAll('script[src]'),
    function(s){ return s.getAttribute('src'); }); }
  function runsShown(){ var names = {}; Array.prototype.forEach.call(document.querySelectorAll(
    '#sample-list article.sample header strong'), function(e){ names[e.textContent] = 1; });
    return Object.keys(names); }
  out.atLoad = scripts(); out.stateAtLoad = document.getElementById('samples').getAttribute('data-state');
  out.shownAtLoad = runsShown();
  var cell = Array.prototype.filter.call(document.querySelectorAll('#table-trans_languages td[data-drill]'),
    function(td){ return td.getAttribute('data-run') === index.runs[2]; })[0];
  cell.click();  // a cell of the third run: its samples file is added now
  ready(function(){
    out.afterDrill = scripts(); out.shownAfterDrill = runsShown(); out.run = document.getElementById('f-run').value;
    out.pager = document.querySelector('#pager-top .count').textContent;
    var select = document.getElementById('f-run'); select.value = '1'; select.dispatchEvent(new Event('change'));
    ready(function(){  // the second run's file was removed: the page says so
      out.missingState = document.getElementById('samples').getAttribute('data-state');
      out.status = document.getElementById('sample-status').textContent;
      var pre = document.createElement('pre'); pre.id = 'probe'; pre.textContent = JSON.stringify(out);
      document.body.appendChild(pre);
    });
  });
});
</script>"""


def test_a_runs_samples_load_when_it_is_shown_from_disk(built, tmp_path):
    """Opened from file:// (where fetch() of a local file is refused), the page adds one run's
    samples file as a script when that run is shown: the first run's at load, another's on a
    click into its cells; a missing file is said, not an error of the script."""
    rep, page, _ = built
    folder = tmp_path / "report"
    shutil.copytree(page.parent, folder)
    (folder / "samples" / "run-1.js").unlink()
    probe = folder / "probe.html"
    probe.write_text(page.read_text(encoding="utf-8").replace("</body>", READY + ON_DEMAND + "</body>"),
                     encoding="utf-8")
    done = _chrome(tmp_path, probe, "--dump-dom", "--virtual-time-budget=5000")
    m = re.search(r'<pre id="probe">(.*?)</pre>', done.stdout, re.S)
    assert m, "the probe did not run"
    out = json.loads(html.unescape(m.group(1)))
    assert re.search(r'<span id="js-errors">0</span>', done.stdout)
    names = [r.name for r in rep.runs]
    assert out["atLoad"] == ["samples/run-0.js"] and out["stateAtLoad"] == "ready" and out["shownAtLoad"] == names[:1]
    assert out["afterDrill"] == ["samples/run-0.js", "samples/run-2.js"] and out["run"] == "2"
    assert out["shownAfterDrill"] == [names[2]] and "matching samples" in out["pager"]
    assert out["missingState"] == "error" and "samples/run-1.js" in out["status"]
    # the console shows the refused file only (a 404 of a file:// script), no script error
    assert not [line for line in _console_lines(done.stderr) if "Uncaught" in line]
