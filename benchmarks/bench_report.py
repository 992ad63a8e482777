"""`indicifeval report` over many runs: CPU, wall time, peak memory and report.html size.

Makes N synthetic run folders of --rows rows each from the bundled sample's rows recombined:
Trans keys shared by every language (so Δ is paired; 4 in 5 tagged correct+parallel), Ground
keys per Indic language, each row answered with its template's passing or failing answer at a
per-run rate (weaker in the Indic languages; runs come in thinking/no-thinking pairs). The
sample's Trans prompts are not translations of one another, so a key's instructions differ
between languages and Δ by category pairs fewer prompts than on the real data: more index
matrices to draw, a heavier case for the bootstrap than a real run. Each
distinct (row, answer) is scored once by the project's scorer, and the folders are written
with the project's own writers (rows, generations, scores, summary, manifest), so `report`
reads real files. Then `indicifeval report` on the first 1, 5, 20 runs, each a fresh process
pinned to one core, beside the floor: a process that reads the same run files (one json.loads
per line) and writes one small file. The per-run increment is the slope between the smallest
and the largest case; the fixed start-up cost is what is left at one run.

    python benchmarks/bench_report.py                          # 10k rows, 1/5/20 runs, with and without plots
    python benchmarks/bench_report.py --runs 1,2 --rows 2000   # quick
    python benchmarks/bench_report.py --plots off --keep /tmp/bench-runs
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from process_measure import measure  # noqa: E402  one launcher: fresh process, pinned, wait4 usage

TARGET_CPU_S, TARGET_MB = 1.0, 30.0  # per extra 10k-row run
TRANS_SHARE = 0.6  # of a run's rows; the rest is Ground

# What any reader of the runs must at least do: one json.loads per line of every file the
# report reads, and one small file written.
FLOOR = r'''
import json, sys
out, folders = sys.argv[1], sys.argv[2:]
lines = 0
for folder in folders:
    for name in ("manifest.json",):
        json.loads(open(f"{folder}/{name}", encoding="utf-8").read())
    for name in ("scores.jsonl", "rows.jsonl", "generations.jsonl"):
        with open(f"{folder}/{name}", encoding="utf-8") as fh:
            for line in fh:
                json.loads(line)
                lines += 1
with open(out, "w", encoding="utf-8") as fh:
    json.dump({"lines": lines}, fh)
'''


def _templates():
    """(language, subset) -> [(template row, passing answer, failing answer)] from the sample."""
    from indicifeval.dataset import load_responses, load_rows

    responses = load_responses("sample")
    by_prompt: dict[tuple, dict] = {}
    for row in load_rows("sample"):
        entry = by_prompt.setdefault((row.language, row.subset, row.prompt), {"row": row})
        entry["pass" if str(row.key).endswith("-pass") else "fail"] = responses.lookup(row) or ""
    out: dict[tuple, list] = {}
    for (lang, subset, _), e in by_prompt.items():
        out.setdefault((lang, subset), []).append((e["row"], e.get("pass", ""), e.get("fail", e.get("pass", ""))))
    return out


def _scored_templates(templates, mode: str):
    """Each template scored once with each of its answers: (lang, subset, i, passed) -> RowScore."""
    from indicifeval.scoring.api import score_rows

    pairs, keys = [], []
    for (lang, subset), items in templates.items():
        for i, (row, good, bad) in enumerate(items):
            for passed, answer in ((True, good), (False, bad)):
                pairs.append((row, answer))
                keys.append((lang, subset, i, passed))
    return dict(zip(keys, score_rows(pairs, mode)))


def _layout(rows: int, templates) -> list[tuple[str, str, int]]:
    """(language, subset, key) of a run's ``rows`` rows: Trans keys 0..T-1 in every Trans
    language (English included), the rest Ground keys per Indic language."""
    trans = sorted(lang for lang, s in templates if s == "trans")
    ground = sorted(lang for lang, s in templates if s == "ground")
    n_trans = max(1, round(rows * TRANS_SHARE / len(trans)))
    left = max(0, rows - n_trans * len(trans))
    per, extra = divmod(left, max(1, len(ground)))
    return ([(lang, "trans", k) for lang in trans for k in range(n_trans)]
            + [(lang, "ground", k) for i, lang in enumerate(ground) for k in range(per + (i < extra))])


def _draw(*parts) -> float:
    return int(hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()[:8], 16) / 0xFFFFFFFF


def write_runs(root: Path, n_runs: int, rows: int, mode: str = "fixed") -> list[Path]:
    """``n_runs`` run folders under ``root``, written by the project's writers."""
    from indicifeval.core.jsonl import write_jsonl
    from indicifeval.dataset import write_rows_jsonl
    from indicifeval.records import RunManifest
    from indicifeval.records.layout import GENERATIONS
    from indicifeval.records.rows import Row
    from indicifeval.records.runs import Generation
    from indicifeval.records.scores import RowScore
    from indicifeval.runs.store import RunStore
    from indicifeval.scoring.api import ScoreResult
    from indicifeval.scoring.summary import summarize

    templates = _templates()
    scored = _scored_templates(templates, mode)
    layout = _layout(rows, templates)
    base_rows = []
    for lang, subset, key in layout:
        items = templates[(lang, subset)]
        i = key % len(items)
        t = items[i][0]
        tags = ("correct", "parallel") if subset == "trans" and key % 5 else (("correct",) if subset == "trans"
                                                                           else ("gold prompt",))
        resp_lang = next((k.get("language") for iid, k in zip(t.instruction_id_list, t.kwargs)
                          if iid == "language:response_language"), None)
        row = Row(key, t.prompt, t.instruction_id_list, t.kwargs, lang, subset, tags,
                  "en" if resp_lang == "en" and lang != "en" else None)
        base_rows.append((row, i, row.content_hash, str(row.id)))
    folders = []
    for r in range(n_runs):
        model, thinking = f"synth/Model{r // 2}-{1 + r // 2}B-Instruct", bool(r % 2)
        en_fail, indic_fail = 0.1 + 0.02 * (r // 2), 0.3 + 0.03 * (r // 2)
        folder = root / f"run{r:02d}"
        store = RunStore(folder)
        folder.mkdir(parents=True, exist_ok=True)
        generations, scores = [], []
        for row, i, content_hash, uid in base_rows:
            rate = (en_fail if row.language == "en" else indic_fail) / (2 if thinking else 1)
            passed = _draw(r // 2, thinking, row.language, row.subset, row.key) >= rate
            _, good, bad = templates[(row.language, row.subset)][i]
            answer = good if passed else bad
            generations.append(Generation(uid, answer, content_hash, answer, "thinking…" if thinking else None,
                                          finish_reason="stop", usage={"completion_tokens": len(answer.split())},
                                          key=row.key, language=row.language, subset=row.subset).to_json())
            s = scored[(row.language, row.subset, i, passed)]
            scores.append(RowScore(row.key, row.language, row.subset, s.instruction_id_list, s.strict, s.loose,
                                   s.prompt_strict, s.prompt_loose, s.explanations, False, s.scoring, s.version))
        write_rows_jsonl(folder / "rows.jsonl", [row for row, *_ in base_rows])
        write_jsonl(folder / GENERATIONS, generations)
        manifest = RunManifest(generation={"model": model, "backend": "mock", "max_tokens": 1280, "temperature": 0.0,
                                           "top_p": 1.0, "seed": 0, "thinking": thinking, "system_prompt": None},
                               data={"source": "synthetic"}, scoring=mode, status="complete", items=len(base_rows))
        summary = summarize(scores, mode)
        store.write_scores(ScoreResult(scores, summary, mode), manifest)
        store.write_manifest(manifest)
        folders.append(folder)
    return folders


def _size_mb(path: Path) -> float:
    return path.stat().st_size / 1e6 if path.is_file() else 0.0


def _html_mb(out: Path) -> tuple[float, float]:
    """(report.html, everything else the page loads: its per-run sample files), in MB."""
    page = _size_mb(out / "report.html")
    extra = sum(_size_mb(p) for p in out.glob("samples/*.js"))
    return page, extra


def _report(args, folders: list[Path], out: Path, plots: bool) -> dict:
    argv = [sys.executable, "-m", "indicifeval", "report", *map(str, folders), "--out", str(out),
            "--bootstrap", str(args.bootstrap), "--quiet", "--overwrite", *([] if plots else ["--no-plots"])]
    result = measure(argv)
    result["html_mb"], result["samples_mb"] = _html_mb(out)
    return result


def _summary(label: str, counts: list[int], results: dict, floors: dict, rows: int) -> None:
    print(f"\n{label}")
    print(f"{'runs':>4} {'CPU s':>7} {'wall s':>7} {'peak MB':>8} {'html MB':>8} {'samples MB':>10} "
          f"{'floor CPU s':>11} {'floor MB':>8} {'CPU/floor':>9}")
    for n in counts:
        r, f = results[n], floors[n]
        print(f"{n:>4} {r['cpu_s']:>7.2f} {r['wall_s']:>7.2f} {r['peak_mb']:>8.0f} {r['html_mb']:>8.2f} "
              f"{r['samples_mb']:>10.2f} {f['cpu_s']:>11.2f} {f['peak_mb']:>8.0f} {r['cpu_s'] / f['cpu_s']:>8.1f}x")
    if len(counts) < 2:
        print("per-run increments need two run counts (--runs 1,5)")
        return
    for n0, n1 in zip(counts, counts[1:]):  # each step: linear when they agree
        a, b, fa, fb = results[n0], results[n1], floors[n0], floors[n1]
        d = n1 - n0
        floor_cpu = (fb["cpu_s"] - fa["cpu_s"]) / d
        print(f"per extra run, {n0} -> {n1} runs: CPU {(b['cpu_s'] - a['cpu_s']) / d:.2f} s, wall "
              f"{(b['wall_s'] - a['wall_s']) / d:.2f} s, peak {(b['peak_mb'] - a['peak_mb']) / d:.1f} MB, report.html "
              f"{(b['html_mb'] - a['html_mb']) / d:.2f} MB, samples {(b['samples_mb'] - a['samples_mb']) / d:.2f} MB; "
              f"floor CPU {floor_cpu:.2f} s")
    n0, n1 = counts[0], counts[-1]
    a, b = results[n0], results[n1]
    per = {k: (b[k] - a[k]) / (n1 - n0) for k in ("cpu_s", "wall_s", "peak_mb")}
    floor_cpu = (floors[n1]["cpu_s"] - floors[n0]["cpu_s"]) / (n1 - n0)
    print(f"fixed start-up cost (one run less its increment): CPU {a['cpu_s'] - n0 * per['cpu_s']:.2f} s, wall "
          f"{a['wall_s'] - n0 * per['wall_s']:.2f} s, peak {a['peak_mb'] - n0 * per['peak_mb']:.0f} MB; "
          f"increment {per['cpu_s'] / floor_cpu if floor_cpu > 0 else float('inf'):.1f}x the floor's")
    met = per["cpu_s"] <= TARGET_CPU_S and per["peak_mb"] <= TARGET_MB
    note = "" if rows == 10_000 else f" (measured with {rows:,}-row runs; the target is for 10k rows)"
    print(f"per run: CPU {per['cpu_s']:.2f} s (target <= {TARGET_CPU_S:g}), memory {per['peak_mb']:.1f} MB "
          f"(target <= {TARGET_MB:g}): target {'met' if met else 'not met'}{note}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=10_000, help="rows per run (default: %(default)s)")
    parser.add_argument("--runs", default="1,5,20", help="run counts to report on (default: %(default)s)")
    parser.add_argument("--bootstrap", type=int, default=1000, help="bootstrap resamples (default: %(default)s)")
    parser.add_argument("--plots", choices=["both", "on", "off"], default="both",
                        help="report with figures, without (--no-plots), or both (default: %(default)s)")
    parser.add_argument("--keep", help="write the runs and reports here and keep them (default: a temporary folder)")
    args = parser.parse_args(argv)
    counts = sorted({int(c) for c in args.runs.split(",")})
    modes = {"both": [True, False], "on": [True], "off": [False]}[args.plots]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(args.keep or tmp)
        started = time.perf_counter()
        folders = write_runs(root / "runs", max(counts), args.rows)
        n_rows = sum(1 for _ in (folders[0] / "scores.jsonl").open(encoding="utf-8"))
        run_mb = sum(_size_mb(p) for p in folders[0].iterdir())
        print(f"{len(folders)} synthetic runs of {n_rows:,} rows ({run_mb:.1f} MB of files each, made in "
              f"{time.perf_counter() - started:.0f} s); report --bootstrap {args.bootstrap}; each process pinned to "
              f"one core; floor: one json.loads per line of the same files, one small file written")
        floor_py = root / "floor.py"
        floor_py.write_text(FLOOR, encoding="utf-8")
        floors = {n: measure([sys.executable, str(floor_py), str(root / f"floor-{n}.json"), *map(str, folders[:n])])
                  for n in counts}
        for plots in modes:
            results = {n: _report(args, folders[:n], root / f"report-{n}{'' if plots else '-no-plots'}", plots)
                       for n in counts}
            _summary("with plots (the default)" if plots else "--no-plots", counts, results, floors, n_rows)


if __name__ == "__main__":
    main()
