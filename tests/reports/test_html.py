"""The HTML report: a page and one samples file per run beside it, checked as Chromium renders
it (headless, from file://): a screenshot that is not blank, the rendered DOM (tables, figures,
sample cards drawn by the script), no script errors, sorting and filtering over every run's
samples, and no HTML injection from sample text (loading per run: test_html_samples.py)."""

from __future__ import annotations

import html
import importlib.util
import json
import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

from indicifeval.reports import api
from indicifeval.reports.html import render_html, write_html
from indicifeval.reports.html_figures import inline_svg as _inline_svg
from indicifeval.reports.html_samples import json_for_script as _json_for_script
from indicifeval.reports.model import Column, Estimate, Report, RunInfo, Table, TableRow, run_row
from indicifeval.reports.registry import registered
from tests.reports.demo_runs import make_demo_runs

BROWSERS = ("chromium", "chromium-browser", "google-chrome")
CHROME_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run"]
HOSTILE = '</script><script>document.title="pwned"</script><img src=x onerror="document.title=\'pwned\'"> <!-- &amp;'


def _have_plots() -> bool:
    return (importlib.util.find_spec("indicifeval.reports.plots") is not None
            and importlib.util.find_spec("matplotlib") is not None)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    runs = make_demo_runs(tmp_path_factory.mktemp("runs"))
    out = tmp_path_factory.mktemp("report")
    rep = api.report(runs, out, n_boot=200, plots=_have_plots())
    figures = [Path(f) for f in rep.files if Path(f).suffix in (".png", ".svg")]
    return rep, out / "report.html", figures


def _browser() -> str:
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    pytest.skip("no Chromium or Chrome binary (chromium, chromium-browser, google-chrome) on PATH")


def _chrome(tmp_path: Path, page: Path, *args: str) -> subprocess.CompletedProcess:
    profile = tmp_path / f"profile-{len(list(tmp_path.glob('profile-*')))}"
    cmd = [_browser(), *CHROME_FLAGS, f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0", *args,
           page.resolve().as_uri()]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=180)
    except subprocess.TimeoutExpired:
        pytest.fail("headless Chromium did not finish within 180 s")
    assert done.returncode == 0, done.stderr[-3000:]
    return done


def _console_lines(stderr: str) -> list[str]:
    """The page's console messages and uncaught errors as Chromium logs them to stderr."""
    return [line for line in stderr.splitlines() if ":CONSOLE" in line or "Uncaught" in line]


# -- a tiny PNG decoder (8-bit RGB/RGBA, not interlaced: what Chromium writes) ---------------------
def _png_pixels(path: Path) -> tuple[int, int, int, bytes]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and not interlace, header
    bpp = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(idat), width * bpp
    out, prev = bytearray(), bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - bpp] if i >= bpp else 0
            up, corner = prev[i], prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        out += line
        prev = line
    return width, height, bpp, bytes(out)


def _pixel_stats(path: Path) -> tuple[tuple[int, int], int, float]:
    """(size, distinct colours in a sample, standard deviation of grey levels)."""
    try:
        from PIL import Image
    except ImportError:
        width, height, bpp, pixels = _png_pixels(path)
        grey = [sum(pixels[i:i + 3]) // 3 for i in range(0, len(pixels), bpp * 7)]
        colours = {pixels[i:i + 3] for i in range(0, len(pixels), bpp * 7)}
    else:
        with Image.open(path) as im:
            width, height = im.size
            pixels = im.convert("RGB").tobytes()
        grey = [sum(pixels[i:i + 3]) // 3 for i in range(0, len(pixels), 3 * 7)]
        colours = {pixels[i:i + 3] for i in range(0, len(pixels), 3 * 7)}
    mean = sum(grey) / len(grey)
    std = (sum((g - mean) ** 2 for g in grey) / len(grey)) ** 0.5
    return (width, height), len(colours), std


# -- without a browser -------------------------------------------------------------------------------
def test_script_json_cannot_close_the_script_element():
    text = _json_for_script({"a": HOSTILE, "b": "\u2028"})
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text) == {"a": HOSTILE, "b": "\u2028"}


def test_inline_svg_is_stripped_and_ids_prefixed():
    svg = ('<?xml version="1.0"?>\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x">\n<!-- made -->\n'
           '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100pt" '
           'height="50pt" viewBox="0 0 100 50"><metadata>m</metadata><defs><path id="g1" d="M0 0"/>'
           '<clipPath id="c1"><rect width="1" height="1"/></clipPath></defs><script>alert(1)</script>'
           '<use xlink:href="#g1" clip-path="url(#c1)" onload="alert(2)"/><a href="#elsewhere">x</a></svg>')
    out = _inline_svg(svg, "f3-")
    assert out.startswith("<svg") and "<?xml" not in out and "DOCTYPE" not in out and "<!--" not in out
    assert "script" not in out and "onload" not in out and "metadata" not in out
    assert 'id="f3-g1"' in out and 'xlink:href="#f3-g1"' in out and "url(#f3-c1)" in out
    assert 'href="#elsewhere"' in out  # not one of the figure's ids: left alone


def _tiny_report(samples: list[dict]) -> Report:
    run = RunInfo("run <b>", "/tmp/x", "org/model", "Fam", 1.0, None, "fixed")
    table = Table("trans_languages", "T", [Column("run", "label"), Column("hi", "language"),
                                           Column("en", "language"), Column("Avg", "avg")],
                  [run_row("run <b>", [Estimate(0.5, 0.4, 0.6, 10), Estimate(None), Estimate(0.5)]),
                   TableRow(["paper: org/model", Estimate(0.7), Estimate(0.9), Estimate(0.7)], "paper", "org/model")])
    delta = Table("delta_language", "D", [Column("run", "label"), Column("hi", "language", "gap"),
                                          Column("Avg", "avg", "gap")],
                  [run_row("run <b>", [Estimate(0.1, 0.05, 0.2, 10), Estimate(-0.02, -0.1, 0.05, 10)])])
    return Report("prompt_loose", [run], {"trans_languages": table, "delta_language": delta}, samples, 0, 10,
                  notes=["a note & more"])


def test_page_is_self_contained_and_escaped(tmp_path):
    sample = {"run": "run <b>", "language": "ur", "subset": "trans", "key": "k1", "prompt": HOSTILE,
              "answer": "جواب", "reasoning": None, "instruction_id_list": ["punctuation:no_comma"],
              "strict": [False], "loose": [True], "explanations": ["1 comma <i>"], "prompt_strict": False,
              "prompt_loose": True}
    png = tmp_path / "bars.png"
    png.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\x0dIHDR" + struct.pack(">II", 300, 200)
                    + b"\x08\x02\x00\x00\x00"
                    + b"\x00" * 4)
    svg = tmp_path / "delta_language.svg"
    svg.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="72pt" height="36pt" viewBox="0 0 72 36">'
                   '<path d="M0 0L72 36"/></svg>', encoding="utf-8")
    path = write_html(_tiny_report([sample]), tmp_path / "out" / "r.html", [png, svg, tmp_path / "missing.svg"])
    page = path.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "https://" not in page and "src=\"http" not in page and "@import" not in page
    assert HOSTILE not in page and "<b>" not in page  # run names and samples are escaped
    assert "run &lt;b&gt;" in page
    assert page.count("<script") == 3  # the error trap, the samples' index, the app
    assert "script-src 'unsafe-inline' 'self'" in page  # the samples files: scripts of the page's own origin
    index = json.loads(re.search(r'<script type="application/json" id="samples-index">(.*?)</script>', page,
                                 re.S).group(1))
    assert index["runs"] == ["run <b>"] and index["files"] == ["samples/run-0.js"] and index["counts"] == [1]
    assert index["ids"] == ["punctuation:no_comma"] and list(index["languages"]) == ["ur"]
    data = _samples_file(path.parent / index["files"][0], 0)
    assert data["prompts"] == [HOSTILE] and data["rows"][0][index["fields"].index("answer")] == "جواب"
    assert not [p for p in path.parent.rglob("*") if p.name.startswith(".")]  # written atomically: no temporaries
    assert 'data:image/png;base64,' in page and '<svg role="img"' in page
    assert page.index('id="fig-delta_language"') < page.index('id="fig-bars"')  # the report's order
    assert 'class="paper"' in page and "paper-badge" in page
    assert 'class="num est sig"' in page  # the Δ whose interval excludes 0
    assert "rgba(220,38,38" in page  # positive Δ: English ahead, red
    for name in ("trans_languages", "delta_language"):
        assert registered()[name].what in page.replace("&#x27;", "'")


def _samples_file(path: Path, run: int) -> dict:
    """The data a samples file hands the page: ``window.__indicifevalSamples(run, {...});``."""
    text = path.read_text(encoding="utf-8")
    head = f"window.__indicifevalSamples&&window.__indicifevalSamples({run},"
    assert text.startswith(head) and text.endswith(");\n"), text[:200]
    assert "<" not in text and ">" not in text.replace("&&", "")  # no markup, whatever the samples hold
    return json.loads(text[len(head):-3])


def test_without_figures_or_samples():
    page = render_html(_tiny_report([]), [])
    assert 'id="figures"' not in page and 'id="samples-index"' in page


def _natural(text: str) -> list:
    return [(0, int(t), "") if t.isdigit() else (1, 0, t.casefold()) for t in re.split(r"(\d+)", text) if t]


# -- in Chromium -------------------------------------------------------------------------------------
def test_screenshot_is_not_blank(built, tmp_path):
    _, page, _ = built
    shot = tmp_path / "report.png"
    _chrome(tmp_path, page, f"--screenshot={shot}", "--window-size=1400,2000", "--hide-scrollbars")
    assert shot.exists() and shot.stat().st_size > 10_000
    size, colours, std = _pixel_stats(shot)
    assert size == (1400, 2000)
    assert colours > 40 and std > 8, (colours, std)


def test_rendered_dom_and_no_script_errors(built, tmp_path):
    rep, page, figures = built
    done = _chrome(tmp_path, page, "--dump-dom")
    dom = done.stdout
    assert _console_lines(done.stderr) == []
    assert re.search(r'<span id="js-errors">0</span>', dom), "the page script did not finish without errors"
    # every table, sortable, with run names and language columns
    assert dom.count('<table class="sortable data"') == len(rep.tables)
    for name in rep.tables:
        assert f'id="table-{name}"' in dom
    assert "Qwen3-8B (thinking)" in dom and "gemma-3-27b-it" in dom
    assert '<button type="button">hi</button>' in dom and '<button type="button">ur</button>' in dom
    assert 'class="paper"' in dom
    # the figures, inline
    stems = {f.stem for f in figures}
    if stems:
        assert dom.count("<figure ") == len(stems)
        assert dom.count('<svg role="img"') + dom.count('<img src="data:image/png') == len(stems)
    # the sample browser, drawn by the script
    assert dom.count('<article class="sample"') == min(25, len(rep.samples))
    assert "matching samples" in dom and 'lang="as"' in dom


PROBE = r"""<script>
window.addEventListener('load', function(){
  var out = {};
  function firstColumn(id){ return Array.prototype.map.call(document.querySelectorAll('#' + id + ' tbody tr'),
    function(r){ return r.cells[0].getAttribute('data-v'); }); }
  function count(){ return document.querySelectorAll('#sample-list article.sample').length; }
  function pager(){ return document.querySelector('#pager-top .count').textContent; }
  var th = Array.prototype.filter.call(document.querySelectorAll('#table-trans_languages th'),
    function(h){ return h.textContent.trim() === 'Avg'; })[0];
  var avg = Array.prototype.indexOf.call(th.parentNode.children, th);
  function column(){ return Array.prototype.map.call(document.querySelectorAll('#table-trans_languages tbody tr'),
    function(r){ return r.cells[avg].getAttribute('data-v'); }); }
  th.click(); out.desc = column(); out.sortDesc = th.getAttribute('aria-sort');
  th.click(); out.asc = column(); out.sortAsc = th.getAttribute('aria-sort');
  var run = document.querySelector('#table-trans_languages th');
  run.click(); out.names = firstColumn('table-trans_languages');
  function set(id, v){ var e = document.getElementById(id); e.value = v; e.dispatchEvent(new Event('change')); }
  out.firstRun = pager();
  set('f-run', '');  // every run: their files load one after another
  ready(function(){
  out.all = pager();
  set('f-lang', 'ur'); out.ur = pager(); out.urLang = document.querySelector('#sample-list .text').getAttribute('lang');
  out.urDir = document.querySelector('#sample-list .text').getAttribute('dir');
  set('f-verdict', 'fail-loose'); out.urFail = pager();
  out.failBadges = document.querySelectorAll('#sample-list article.sample .verdict.no').length;
  out.cards = count();
  document.getElementById('f-reset').click(); out.reset = pager();
  var q = document.getElementById('f-q'); q.value = 'pwned'; q.dispatchEvent(new Event('input'));
  setTimeout(function(){
    out.search = pager();
    out.hostileText = document.querySelector('#sample-list .text').textContent;
    var cell = document.querySelector('#table-trans_languages td[data-drill][data-lang="hi"]');
    cell.click(); out.drill = [document.getElementById('f-run').selectedOptions[0].textContent,
                               document.getElementById('f-lang').value, document.getElementById('f-subset').value];
    out.title = document.title;
    var pre = document.createElement('pre'); pre.id = 'probe'; pre.textContent = JSON.stringify(out);
    document.body.appendChild(pre);
  }, 600);
  });
});
</script>"""
READY = r"""<script>
function ready(then){  // once the chosen runs' samples are loaded (or failed to)
  var state = document.getElementById('samples').getAttribute('data-state');
  if (state === 'ready' || state === 'error') then(); else setTimeout(function(){ ready(then); }, 20);
}
</script>"""


def test_sorting_filtering_and_no_injection(built, tmp_path):
    rep, _, figures = built
    samples = list(rep.samples)
    hostile = dict(samples[0], prompt=HOSTILE, key="hostile-1", answer=HOSTILE, reasoning="<script>x</script>")
    page = tmp_path / "probe.html"
    copy = Report(rep.metric, rep.runs, rep.tables, [hostile, *samples], rep.seed, rep.n_boot, rep.notes)
    write_html(copy, page, figures)
    page.write_text(page.read_text(encoding="utf-8").replace("</body>", READY + PROBE + "</body>"), encoding="utf-8")
    done = _chrome(tmp_path, page, "--dump-dom", "--virtual-time-budget=5000")
    assert _console_lines(done.stderr) == []
    m = re.search(r'<pre id="probe">(.*?)</pre>', done.stdout, re.S)
    assert m, "the probe did not run"
    out = json.loads(html.unescape(m.group(1)))
    assert re.search(r'<span id="js-errors">0</span>', done.stdout)
    assert out["title"] != "pwned"
    # sorting: a number column sorts descending on the first click, ascending on the second
    assert out["sortDesc"] == "descending" and out["sortAsc"] == "ascending"
    desc, asc = [float(v) for v in out["desc"] if v], [float(v) for v in out["asc"] if v]
    assert desc == sorted(desc, reverse=True) and asc == sorted(asc) and len(asc) > 3
    assert out["names"] == sorted(out["names"], key=_natural)  # a text column: alphabetical, numbers by value
    # filters: the first run's samples at first, every run's when asked for
    first = sum(s["run"] == rep.runs[0].name for s in copy.samples)
    assert f"of {first:,} matching" in out["firstRun"]
    total = len(copy.samples)
    assert f"of {total:,} matching" in out["all"]
    n_ur = sum(s["language"] == "ur" for s in copy.samples)
    n_ur_fail = sum(s["language"] == "ur" and not s["prompt_loose"] for s in copy.samples)
    assert f"of {n_ur:,} matching" in out["ur"] and out["urLang"] == "ur" and out["urDir"] == "auto"
    assert (f"of {n_ur_fail:,} matching" in out["urFail"]) if n_ur_fail else "no sample" in out["urFail"]
    assert out["failBadges"] >= min(out["cards"], 25)
    assert f"of {total:,} matching" in out["reset"]
    # the hostile text is shown as text, not run
    assert "of 1 matching" in out["search"] and out["hostileText"] == HOSTILE
    assert out["drill"] == [out["names"][0], "hi", "trans"]  # the first row after sorting by name

