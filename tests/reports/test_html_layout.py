"""Wide tables in report.html, as headless Chromium lays them out with six long run names: each
scrolls inside its own box to its last column, which the sticky first column does not cover;
the page itself never scrolls sideways; sorting and the sticky column still work."""

from __future__ import annotations

import html
import json
import re

import pytest

from indicifeval.reports import api
from tests.reports.demo_runs import make_named_runs
from tests.reports.system import require_indic_fonts
from tests.reports.test_html import _chrome, _console_lines

# local checkpoints make long names with few break opportunities
MODELS = ("org/Llama_3.1_8B_Instruct_indic_sft_lora_r64_alpha128_lr2e5_epochs3_checkpoint12000_merged_fp16_final",
          "org/Qwen2.5_72B_Instruct_GPTQ_Int4_finetuned_on_indic_instruction_data_v2_step_48000_merged",
          "org/Another-Extremely-Verbose-Model-Identifier-13B-Chat-Preview")

PROBE = r"""<script>
window.addEventListener('load', function(){
  var out = {tables: {}}, doc = document.documentElement;
  out.pageOverflow = doc.scrollWidth - doc.clientWidth;
  out.viewport = doc.clientWidth;
  Array.prototype.forEach.call(document.querySelectorAll('table.data'), function(table){
    var box = table.parentNode, ths = table.tHead.rows[0].cells;
    var wide = box.scrollWidth > box.clientWidth;
    box.scrollLeft = box.scrollWidth;
    var b = box.getBoundingClientRect(), last = ths[ths.length - 1].getBoundingClientRect();
    var first = ths[0].getBoundingClientRect();
    out.tables[table.id] = {wide: wide, overflowX: getComputedStyle(box).overflowX, box: [b.left, b.right],
                            last: [last.left, last.right], first: [first.left, first.right]};
  });
  var cmp = document.getElementById('table-comparison'), ths = cmp.tHead.rows[0].cells, p = ths[ths.length - 1];
  p.click(); out.sortLast = p.getAttribute('aria-sort');
  out.pageOverflowAfter = doc.scrollWidth - doc.clientWidth;
  var pre = document.createElement('pre'); pre.id = 'probe'; pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>"""


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    require_indic_fonts()  # widths are those of real glyphs: fallback boxes lay the tables out otherwise
    runs = make_named_runs(tmp_path_factory.mktemp("runs"), list(MODELS))  # six runs, every language
    out = tmp_path_factory.mktemp("report")
    api.report(runs, out, n_boot=50, plots=False)
    probe = out / "probe.html"
    probe.write_text((out / "report.html").read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"),
                     encoding="utf-8")
    return probe


@pytest.mark.parametrize("width", [1400, 800])
def test_wide_tables_scroll_to_their_last_column(page, tmp_path, width):
    done = _chrome(tmp_path, page, "--dump-dom", f"--window-size={width},900", "--virtual-time-budget=3000")
    assert _console_lines(done.stderr) == []
    m = re.search(r'<pre id="probe">(.*?)</pre>', done.stdout, re.DOTALL)
    assert m, "the probe did not run"
    out = json.loads(html.unescape(m.group(1)))
    assert out["pageOverflow"] <= 0 and out["pageOverflowAfter"] <= 0, out  # the page never scrolls sideways
    tables = out["tables"]
    assert "table-comparison" in tables and tables["table-comparison"]["wide"], "the comparison must need scrolling"
    for name, t in tables.items():
        (box_left, box_right), (left, right), (first_left, first_right) = t["box"], t["last"], t["first"]
        assert t["overflowX"] == "auto", name
        assert box_right <= out["viewport"] + 0.5, (name, t)  # the box itself fits the page
        assert box_left - 0.5 <= left and right <= box_right + 0.5, (name, t)  # scrolled to, fully inside
        if t["wide"]:
            assert abs(first_left - box_left) <= 2, (name, t)  # the first column stayed put (sticky)
            assert first_right <= left + 0.5, (name, t)  # and does not cover the last one
    assert out["sortLast"] == "descending"  # sorting still works on the last column
