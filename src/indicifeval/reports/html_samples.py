"""Every sample of the report for the page's browser: one compact JSON blob (prompts stored
once, instruction ids by index, long reasoning cut) that the page's script renders, filters
and pages, and the form around it."""

from __future__ import annotations

import json

from indicifeval.reports.analyses import column_languages
from indicifeval.reports.html_tables import language_name
from indicifeval.reports.model import Report

MAX_REASONING = 20_000  # characters of reasoning kept per sample (the rest is cut, with a note)


def samples_data(report: Report) -> dict:
    runs = [r.name for r in report.runs]
    run_index = {n: i for i, n in enumerate(runs)}
    ids: dict[str, int] = {}
    prompts: dict[str, int] = {}
    rows = []
    for s in report.samples:
        run = str(s.get("run"))
        if run not in run_index:
            run_index[run] = len(runs)
            runs.append(run)
        prompt = s.get("prompt") or ""
        p = prompts.setdefault(prompt, len(prompts))
        reasoning = s.get("reasoning") or ""
        if len(reasoning) > MAX_REASONING:
            reasoning = reasoning[:MAX_REASONING] + f"\n… [{len(reasoning) - MAX_REASONING:,} more characters cut]"
        iids = [ids.setdefault(i, len(ids)) for i in s.get("instruction_id_list") or []]
        rows.append([
            run_index[run], s.get("language") or "", s.get("subset") or "", str(s.get("key")), p,
            s.get("answer"), reasoning, s.get("finish_reason") or "", iids,
            [1 if v else 0 for v in s.get("strict") or []], [1 if v else 0 for v in s.get("loose") or []],
            list(s.get("explanations") or []), 1 if s.get("prompt_strict") else 0, 1 if s.get("prompt_loose") else 0,
        ])
    order = column_languages()
    langs = sorted({r[1] for r in rows}, key=lambda c: (order.index(c) if c in order else len(order), c))
    return {
        "fields": ["run", "language", "subset", "key", "prompt", "answer", "reasoning", "finish_reason",
                   "instructions", "strict", "loose", "explanations", "prompt_strict", "prompt_loose"],
        "runs": runs, "ids": list(ids), "prompts": list(prompts),
        "languages": {c: language_name(str(c)) for c in langs}, "rows": rows,
    }


def json_for_script(data) -> str:
    """JSON safe inside <script type="application/json">: no '<', '>' or '&' that could end it."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return (text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def samples_blob(report: Report) -> str:
    return f'<script type="application/json" id="samples-data">{json_for_script(samples_data(report))}</script>'


def samples_section(report: Report) -> str:
    return (
        '<section id="samples"><h2>Samples</h2>'
        '<p class="howto-line"><span class="what">Every prompt of every run with its answer and the verdict on each '
        'instruction, to see what a number is made of.</span><br><span class="how">Filter by run, language, '
        'subset and instruction; the verdict filter applies to the chosen instruction, or to the whole prompt '
        'when none is chosen; the search looks in keys, prompts, answers and explanations.</span></p>'
        '<form class="filters" id="filters" role="search">'
        '<label>Run <select id="f-run"><option value="">all runs</option></select></label>'
        '<label>Language <select id="f-lang"><option value="">all languages</option></select></label>'
        '<label>Subset <select id="f-subset"><option value="">both</option><option value="trans">trans</option>'
        '<option value="ground">ground</option></select></label>'
        '<label>Instruction <select id="f-inst"><option value="">any instruction</option></select></label>'
        '<label>Verdict <select id="f-verdict"><option value="">all</option>'
        '<option value="pass-loose">passed (loose)</option><option value="fail-loose">failed (loose)</option>'
        '<option value="pass-strict">passed (strict)</option><option value="fail-strict">failed (strict)</option>'
        '</select></label>'
        '<label class="grow">Search <input type="search" id="f-q" placeholder="words in prompt, answer, key…" '
        'autocomplete="off"></label>'
        '<button type="button" id="f-reset">Reset</button></form>'
        '<div class="pager" id="pager-top"></div>'
        '<noscript><p class="note">The sample browser needs JavaScript; the samples are in the run folders '
        '(generations.jsonl, scores.jsonl).</p></noscript>'
        '<div id="sample-list" aria-live="polite"></div>'
        '<div class="pager" id="pager-bottom"></div></section>'
    )
