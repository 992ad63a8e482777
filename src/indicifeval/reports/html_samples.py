"""The page's sample browser: each run's samples in a file of their own beside the page
(``samples/run-<i>.js``), loaded when the reader opens that run, so twenty runs make a page
that opens in seconds. A page opened from disk (file://) may not fetch() a file, but it may
load a ``<script src>``: each file calls ``window.__indicifevalSamples(i, data)``, and the
page's Content-Security-Policy allows scripts of its own origin ('self') for them.

Each file is written while its run's samples are read from the run folder (rows streamed out
one by one; the prompts, stored once, come last), atomically; the page holds a small index
(run names, files, counts, instruction ids, languages) that the script fills the filters from.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from indicifeval.core.files import atomic_writer
from indicifeval.reports.analyses import column_languages
from indicifeval.reports.html_tables import language_name
from indicifeval.reports.model import Report
from indicifeval.reports.samples import Samples

MAX_REASONING = 20_000  # characters of reasoning kept per sample (the rest is cut, with a note)
FOLDER = "samples"  # beside the page
FIELDS = ["run", "language", "subset", "key", "prompt", "answer", "reasoning", "finish_reason", "instructions",
          "strict", "loose", "explanations", "prompt_strict", "prompt_loose"]


def json_for_script(data) -> str:
    """JSON safe inside <script type="application/json"> and as a script's text: no '<', '>'
    or '&' that could end it, no line separators older engines take for line ends."""
    import json

    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return (text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def _row(s: dict, run: int, ids: dict[str, int], prompts: dict[str, int]) -> list:
    reasoning = s.get("reasoning") or ""
    if len(reasoning) > MAX_REASONING:
        reasoning = reasoning[:MAX_REASONING] + f"\n… [{len(reasoning) - MAX_REASONING:,} more characters cut]"
    return [
        run, s.get("language") or "", s.get("subset") or "", str(s.get("key")),
        prompts.setdefault(s.get("prompt") or "", len(prompts)), s.get("answer"), reasoning,
        s.get("finish_reason") or "", [ids.setdefault(i, len(ids)) for i in s.get("instruction_id_list") or []],
        [1 if v else 0 for v in s.get("strict") or []], [1 if v else 0 for v in s.get("loose") or []],
        list(s.get("explanations") or []), 1 if s.get("prompt_strict") else 0, 1 if s.get("prompt_loose") else 0,
    ]


class SampleFiles:
    """The sample files of one page: ``run(i)`` writes run i's, ``index()`` describes them all.
    ``folder`` None writes nothing (the index of a page rendered in memory)."""

    CHUNK = 256  # rows per json.dumps call

    def __init__(self, folder: str | Path | None, runs: list[str]):
        self.folder = None if folder is None else Path(folder)
        self.runs = list(runs)
        self.ids: dict[str, int] = {}
        self.languages: set[str] = set()
        self.counts: dict[int, int] = {}

    def index_of(self, name: str) -> int:
        if name not in self.runs:
            self.runs.append(name)
        return self.runs.index(name)

    @contextmanager
    def run(self, i: int) -> Iterator[Callable[[dict], None]]:
        """``add(sample)`` for run i's rows, streamed into ``samples/run-<i>.js`` (atomically):
        ``window.__indicifevalSamples(i, {rows, prompts})``, the prompts stored once, last."""
        prompts: dict[str, int] = {}
        chunk: list[list] = []
        count = 0
        with ExitStack() as stack:
            fh = (stack.enter_context(atomic_writer(self.folder / FOLDER / f"run-{i}.js"))
                  if self.folder is not None else None)
            if fh is not None:
                fh.write(f'window.__indicifevalSamples&&window.__indicifevalSamples({i},{{"rows":[')

            def flush() -> None:
                if fh is not None and chunk:
                    fh.write(("," if count > len(chunk) else "") + json_for_script(chunk)[1:-1])
                chunk.clear()

            def add(sample: dict) -> None:
                nonlocal count
                row = _row(sample, i, self.ids, prompts)
                self.languages.add(row[1])
                chunk.append(row)
                count += 1
                if len(chunk) >= self.CHUNK:
                    flush()

            yield add
            flush()
            if fh is not None:
                fh.write(f'],"prompts":{json_for_script(list(prompts))}}});\n')
        self.counts[i] = self.counts.get(i, 0) + count

    def index(self) -> dict:
        order = column_languages()
        langs = sorted(self.languages, key=lambda c: (order.index(c) if c in order else len(order), c))
        n = len(self.runs)
        return {"fields": FIELDS, "runs": self.runs, "files": [f"{FOLDER}/run-{i}.js" for i in range(n)],
                "counts": [self.counts.get(i, 0) for i in range(n)], "ids": list(self.ids),
                "languages": {c: language_name(str(c)) for c in langs}}


def write_samples(report: Report, folder: str | Path | None) -> dict:
    """Write each run's samples file under ``folder`` (None: write nothing) from the report's
    samples, one run at a time, and return the page's index of them."""
    files = SampleFiles(folder, [r.name for r in report.runs])
    for name, samples in Samples.of(report.samples).by_run():
        with files.run(files.index_of(name)) as add:
            for sample in samples:
                add(sample)
    return files.index()


def samples_index(index: dict) -> str:
    return f'<script type="application/json" id="samples-index">{json_for_script(index)}</script>'


def samples_section(report: Report) -> str:
    return (
        '<section id="samples" data-state="idle"><h2>Samples</h2>'
        '<p class="howto-line"><span class="what">Every prompt of every run with its answer and the verdict on each '
        'instruction, to see what a number is made of.</span><br><span class="how">Choose a run (its samples load '
        'from the samples folder beside this page), then filter by language, subset and instruction; the verdict '
        'filter applies to the chosen instruction, or to the whole prompt when none is chosen; the search looks in '
        'keys, prompts, answers and explanations.</span></p>'
        '<form class="filters" id="filters" role="search">'
        '<label>Run <select id="f-run"></select></label>'
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
        '<p class="note" id="sample-status" role="status"></p>'
        '<div class="pager" id="pager-top"></div>'
        '<noscript><p class="note">The sample browser needs JavaScript; the samples are in the run folders '
        '(generations.jsonl, scores.jsonl).</p></noscript>'
        '<div id="sample-list" aria-live="polite"></div>'
        '<div class="pager" id="pager-bottom"></div></section>'
    )


__all__ = ["FIELDS", "FOLDER", "MAX_REASONING", "SampleFiles", "json_for_script", "samples_index", "samples_section",
           "write_samples"]
