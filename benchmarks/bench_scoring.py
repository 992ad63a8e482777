"""Scoring speed and memory on a full-size synthetic workload.

15 languages x 800 rows (60% Trans, 40% Ground for the Indic languages), 1-4 instructions per
row with the instruction ids and counts in the proportions of the real data, 150-600-word
responses that follow about 75% of their instructions, strict + loose.
Each configuration runs in a fresh process so its peak RSS is its own; then the whole
`indicifeval score` command (files in, files out) beside the floor, a process that only reads the
same files, splits each answer once and writes a line per row, each pinned to one core:

    python benchmarks/bench_scoring.py                 # fixed and paper, 1 worker and all cores
    python benchmarks/bench_scoring.py --mix real --whole   # real text (../shared/data); see scoring_mixes.py
    python benchmarks/bench_scoring.py --mix langid --profile paper   # cProfile of in-process scoring
    python benchmarks/bench_authors.py --authors /tmp/authors --authors-python /tmp/authors-venv/bin/python
        # the authors' scorer and ours on this workload, whole processes on one core
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from process_measure import _ENV, FLOOR, _least, measure

FOLLOW_RATE = 0.75  # share of instructions the synthetic "model" follows, as a decent model does
TARGET_RATIO = 1.5  # whole `indicifeval score` process against the floor, CPU time


def _sentences(rng, vocab, end, n_words):
    out, left = [], n_words
    while left > 0:
        k = min(left, rng.randint(6, 16))
        left -= k
        out.append(" ".join(rng.choice(vocab) for _ in range(k)) + end)
    return out


def _response(rng, lang, profile, vocab, ids):
    """A 150-600-word response and kwargs for ``ids``; each instruction is followed with
    probability FOLLOW_RATE (the response is shaped accordingly), so the loose variants are
    exercised about as often as with real model output."""
    end = profile.sentence_terminators[0]
    follow = {i: rng.random() < FOLLOW_RATE for i in ids}
    n_words = rng.randint(150, 600)
    sentences = _sentences(rng, vocab, end, n_words)
    n_par = rng.randint(1, 5)
    cut = sorted(rng.sample(range(1, len(sentences)), min(n_par - 1, len(sentences) - 1))) if len(sentences) > 1 else []
    paragraphs = [" ".join(sentences[a:b]) for a, b in zip([0] + cut, cut + [len(sentences)])]
    n_bullets = rng.randint(0, 4)
    if n_bullets:
        paragraphs.insert(1, "\n".join(f"* {rng.choice(vocab)} {rng.choice(vocab)}" for _ in range(n_bullets)))
    if rng.random() < 0.3:
        paragraphs[0] = f"**{paragraphs[0][:40]}**\n" + paragraphs[0]
    words_used = {w for p in paragraphs for w in p.split()}
    unused = [w for w in vocab if w not in words_used] or ["zzz"]
    used = sorted(w for w in vocab if w in words_used) or vocab
    other = "hi" if lang != "hi" else "bn"
    kwargs, prefix, suffix, sep = [], "", "", "\n\n"
    for i in ids:
        f = follow[i]
        if i == "keywords:existence":
            kw = {"keywords": rng.sample(used, min(2, len(used))) if f else [rng.choice(unused)]}
        elif i == "keywords:frequency":
            kw = {"keyword": rng.choice(used), "frequency": 1 if f else 999, "relation": "at least"}
        elif i == "keywords:forbidden_words":
            kw = {"forbidden_words": [rng.choice(unused)] if f else [rng.choice(used)]}
        elif i == "keywords:letter_frequency":
            kw = {"letter": rng.choice(used)[0], "let_frequency": 1 if f else 999, "let_relation": "at least"}
        elif i == "language:response_language":
            kw = {"language": profile.code if f else other}
        elif i == "length_constraints:number_sentences":
            kw = {"num_sentences": 2 if f else 999, "relation": "at least"}
        elif i == "length_constraints:number_words":
            kw = {"num_words": n_words + (200 if f else -100), "relation": "less than"}
        elif i == "length_constraints:number_paragraphs":
            sep = "\n\n***\n\n" if f else sep
            kw = {"num_paragraphs": len(paragraphs)}
        elif i == "length_constraints:nth_paragraph_first_word":
            kw = {"first_word": paragraphs[0].split()[0].strip("*") if f else rng.choice(unused), "nth_paragraph": 1}
        elif i == "detectable_content:number_placeholders":
            prefix += "[name] [address]\n" if f else ""
            kw = {"num_placeholders": 2}
        elif i == "detectable_content:postscript":
            suffix += "\n\nP.S. " + " ".join(rng.sample(vocab, 3)) if f else ""
            kw = {"postscript_marker": "P.S."}
        elif i == "detectable_format:number_bullet_lists":
            kw = {"num_bullets": n_bullets if f else n_bullets + 2}
        elif i == "detectable_format:constrained_response":
            suffix += "\n" + profile.constrained_responses[0] if f else ""
            kw = {}
        elif i == "detectable_format:number_highlighted_sections":
            prefix += "*" + rng.choice(vocab) + "*\n" if f else ""
            kw = {"num_highlights": 1}
        elif i == "detectable_format:multiple_sections":
            prefix += "SECTION 1\n" if f else ""
            kw = {"section_spliter": "SECTION", "num_sections": 1}
        elif i == "combination:repeat_prompt":
            phrase = " ".join(rng.sample(vocab, 3))
            prefix = (phrase + "\n" + prefix) if f else prefix
            kw = {"prompt_to_repeat": phrase}
        elif i == "startend:end_checker":
            phrase = " ".join(rng.sample(vocab, 2))
            suffix += "\n" + phrase if f else ""
            kw = {"end_phrase": phrase}
        elif i == "punctuation:no_comma":
            kw = {}
            if not f:
                paragraphs[-1] += ","
        else:  # formats that shape the whole response, and English case
            kw = {}
        kwargs.append(kw)
    response = prefix + sep.join(paragraphs) + suffix
    if "detectable_format:title" in ids and follow["detectable_format:title"]:
        response = "<<" + rng.choice(vocab) + ">>\n" + response
    if "combination:two_responses" in ids and follow["combination:two_responses"]:
        response = response + "\n******\n" + " ".join(_sentences(rng, vocab, end, 40))
    if "change_case:english_lowercase" in ids:
        response = response.lower() if follow["change_case:english_lowercase"] else response
    if "change_case:english_capital" in ids:
        response = response.upper() if follow["change_case:english_capital"] else response
    if "detectable_format:json_format" in ids and follow["detectable_format:json_format"]:
        response = json.dumps({"answer": response}, ensure_ascii=False)
    if "startend:quotation" in ids and follow["startend:quotation"]:
        response = '"' + response + '"'
    return response, kwargs


# How often each id occurs in the real data (IFEval-derived Trans prompts; Ground rows of one
# language), so the workload exercises the checkers in realistic proportions.
TRANS_WEIGHTS = {
    "language:response_language": 73, "punctuation:no_comma": 64, "length_constraints:number_words": 50,
    "detectable_format:number_highlighted_sections": 47, "length_constraints:number_sentences": 46,
    "keywords:forbidden_words": 45, "combination:repeat_prompt": 40, "startend:quotation": 38,
    "detectable_format:title": 36, "keywords:frequency": 35, "keywords:existence": 34,
    "keywords:letter_frequency": 32, "detectable_content:number_placeholders": 27,
    "detectable_format:number_bullet_lists": 27, "startend:end_checker": 26, "detectable_content:postscript": 25,
    "combination:two_responses": 24, "change_case:english_lowercase": 23, "length_constraints:number_paragraphs": 23,
    "detectable_format:json_format": 17, "change_case:english_capital": 16, "detectable_format:multiple_sections": 13,
    "length_constraints:nth_paragraph_first_word": 11, "detectable_format:constrained_response": 10,
}
TRANS_COUNTS = {1: 270, 2: 155, 3: 58, 4: 7}  # instructions per prompt
GROUND_WEIGHTS = {
    "length_constraints:nth_paragraph_first_word": 162, "keywords:frequency": 127, "keywords:forbidden_words": 25,
    "length_constraints:number_sentences": 24, "length_constraints:number_paragraphs": 3,
}


def _pick(rng, weights: dict, k: int) -> list[str]:
    chosen: list[str] = []
    while len(chosen) < k:
        iid = rng.choices(list(weights), weights=list(weights.values()))[0]
        if iid not in chosen:
            chosen.append(iid)
    return chosen


def build_workload(rows_per_language: int, seed: int = 0) -> tuple[list[dict], list[dict]]:
    from indicifeval.languages import get_profile, list_languages

    rng = random.Random(seed)
    rows, responses = [], []
    english = get_profile("en")
    english_vocab = sorted(set(english.default_keywords))
    for lang in list_languages():
        p = get_profile(lang)
        vocab = sorted({w for w in list(p.default_keywords) + list(p.language_names.values()) if " " not in w})
        for i in range(rows_per_language):
            subset = "trans" if lang == "en" or rng.random() < 0.6 else "ground"
            if subset == "trans":
                k = rng.choices(list(TRANS_COUNTS), weights=list(TRANS_COUNTS.values()))[0]
                chosen = _pick(rng, TRANS_WEIGHTS, k)
            else:
                chosen = _pick(rng, GROUND_WEIGHTS, 1)
            # Trans prompts with a change_case instruction ask for an English answer.
            english_answer = any(c.startswith("change_case") for c in chosen)
            response, kwargs = _response(rng, lang, english if english_answer else p,
                                         english_vocab if english_answer else vocab, chosen)
            key = f"{lang}-{i}"
            rows.append({"key": key, "language": lang, "subset": subset, "prompt": f"prompt {key}",
                         "instruction_id_list": chosen, "kwargs": kwargs})
            responses.append({"key": key, "language": lang, "subset": subset, "response": response})
    return rows, responses


def workload(mix: str, rows_per_language: int) -> tuple[list[dict], list[dict]]:
    """Rows and responses of a mix: the synthetic one above, or one of scoring_mixes' real-text mixes."""
    if mix == "synthetic":
        return build_workload(rows_per_language)
    from scoring_mixes import build_mix  # noqa: I001
    return build_mix(mix, rows_per_language)


def write_workload(folder: Path, rows_per_language: int, mix: str = "synthetic") -> tuple[Path, Path, int]:
    """The workload as the files `indicifeval score` reads: rows and responses (JSONL)."""
    data, responses = workload(mix, rows_per_language)
    rows_file, responses_file = folder / "rows.jsonl", folder / "responses.jsonl"
    with rows_file.open("w", encoding="utf-8") as fh:
        for r in data:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    with responses_file.open("w", encoding="utf-8") as fh:
        for r in responses:
            fh.write(json.dumps({k: r[k] for k in ("key", "language", "subset", "response")}, ensure_ascii=False)
                     + "\n")
    return rows_file, responses_file, len(data)


def whole_process(rows_per_language: int, mix: str = "synthetic", repeat: int = 3) -> None:
    """`indicifeval score` as a user runs it (start-up, reading, scoring, the summary, the four
    files and the manifest) beside the floor, each a whole process on one core, ``repeat``
    times in turn (floor, fixed, paper, floor, ...), each kept at its least CPU."""
    with tempfile.TemporaryDirectory() as tmp:
        rows_file, responses_file, n = write_workload(Path(tmp), rows_per_language, mix)
        floor = Path(tmp) / "floor.py"
        floor.write_text(FLOOR, encoding="utf-8")
        warm_up = [sys.executable, "-m", "indicifeval", "score", "--data", "sample", "--out", str(Path(tmp) / "warm"),
                   "--quiet"]
        subprocess.run(warm_up, env=_ENV, check=True, stdout=subprocess.DEVNULL)  # compiles the byte code
        commands = {"floor": [sys.executable, str(floor), str(rows_file), str(responses_file),
                              str(Path(tmp) / "floor.jsonl")]}
        for mode in ("fixed", "paper"):
            commands[mode] = [sys.executable, "-m", "indicifeval", "score", "--data", str(rows_file), "--responses",
                              str(responses_file), "--scoring", mode, "--quiet", "--out"]
        runs: dict[str, list[dict]] = {name: [] for name in commands}
        for k in range(repeat):
            for name, argv in commands.items():  # (each score run into a folder of its own)
                runs[name].append(measure(argv + ([str(Path(tmp) / f"out-{name}-{k}")] if name != "floor" else [])))
        results = {name: _least(found) for name, found in runs.items()}
        bare = _least([measure([sys.executable, "-c", "pass"]) for _ in range(repeat)])
        start = {name: _least([measure([sys.executable, "-m", "indicifeval", *argv]) for _ in range(repeat)])
                 for name, argv in (("--version", ["--version"]), ("score --help", ["score", "--help"]))}
    print(f"\nwhole process, one core, mix {mix}: {n} rows from files, strict + loose, the four output files and "
          f"the manifest (target: CPU <= {TARGET_RATIO:g}x the floor in both modes; byte code compiled beforehand, "
          f"as an installed package has it; each the least CPU of {repeat} runs in turn)")
    print(f"{'process':28} {'CPU s':>7} {'wall s':>7} {'peak MB':>8} {'CPU vs floor':>13}")
    for name, r in results.items():
        label = "floor (I/O only)" if name == "floor" else f"indicifeval score, {name}"
        print(f"{label:28} {r['cpu_s']:>7.2f} {r['wall_s']:>7.2f} {r['peak_mb']:>8.0f} "
              f"{r['cpu_s'] / results['floor']['cpu_s']:>12.2f}x")
    print("floor: read both files, one \\w+ split per answer, one JSON line per row: what any pure-Python scorer "
          "must at least do")
    said = ", ".join(f"indicifeval {k} {r['cpu_s']:.3f} ({r['cpu_s'] / bare['cpu_s']:.1f}x)" for k, r in start.items())
    print(f"start-up (CPU s; target <= 3x a bare interpreter): bare interpreter {bare['cpu_s']:.3f}, {said}")


def _cpu() -> float:
    """User + system CPU seconds of this process and its finished children (the workers)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def run_one(mode: str, workers: int, rows_per_language: int, mix: str = "synthetic", profile: bool = False) -> dict:
    from indicifeval.dataset import load_rows
    from indicifeval.dataset.responses import Responses
    from indicifeval.scoring.api import pair_responses, score_rows

    data, resp = workload(mix, rows_per_language)
    rows = load_rows(data)
    responses = Responses()
    for r in resp:
        responses.by_uid[(r["language"], r["subset"], r["key"])] = r["response"]
    pairs, _ = pair_responses(rows, responses, allow_missing=False)
    before = _cpu()
    start = time.perf_counter()
    if profile:
        import cProfile
        import pstats
        with cProfile.Profile() as prof:
            scores = score_rows(pairs, mode, workers=workers)
        pstats.Stats(prof, stream=sys.stderr).sort_stats("tottime").print_stats(35)
    else:
        scores = score_rows(pairs, mode, workers=workers)
    elapsed = time.perf_counter() - start
    cpu = _cpu() - before
    peak_self = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    peak_children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    n_instr = sum(len(s.strict) for s in scores)
    passed = sum(sum(s.strict) for s in scores) / n_instr
    return {"mode": mode, "workers": workers, "rows": len(scores), "instructions": n_instr,
            "seconds": round(elapsed, 2), "cpu_s": round(cpu, 2),
            "inst_strict": round(passed, 3),
            "rows_per_s": round(len(scores) / elapsed), "peak_rss_mb": round(peak_self),
            "peak_worker_rss_mb": round(peak_children)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=800, help="rows per language (default 800)")
    parser.add_argument("--workers", default=None,
                        help="comma-separated worker counts (default: 1 and every core, e.g. 1,2)")
    parser.add_argument("--mix", default="synthetic", choices=("synthetic", "real", "langid", "long"),
                        help="workload: synthetic (default), or real text from ../shared/data: real (Nepali rows, "
                             "English IFEval), langid (response_language and English rows), long (long Indic answers)")
    parser.add_argument("--whole", action="store_true", help="only the whole-process table")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs of each whole process, the least CPU kept (default 3)")
    parser.add_argument("--profile", metavar="MODE", help="cProfile the in-process scoring (1 worker) of MODE")
    parser.add_argument("--child", nargs=2, metavar=("MODE", "WORKERS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.mix != "synthetic":
        from scoring_mixes import available
        if (why := available()) is not None:
            print(f"--mix {args.mix} is not available here: {why}")
            return
    if args.child or args.profile:
        child = args.child or (args.profile, "1")
        print(json.dumps(run_one(child[0], int(child[1]), args.rows, args.mix, profile=bool(args.profile))))
        return
    if args.whole:
        whole_process(args.rows, args.mix, args.repeat)
        return
    cores = os.cpu_count() or 1
    counts = [int(w) for w in args.workers.split(",")] if args.workers else sorted({1, cores})
    configs = [(mode, w) for mode in ("fixed", "paper") for w in counts]
    print(f"workload ({args.mix}): about {15 * args.rows} rows (15 languages x {args.rows}; see --help), "
          f"{cores} cores; scoring only (inputs already in memory)")
    from indicifeval.text.langdetect_fast import compiled

    print(f"langdetect's estimation: {'compiled' if compiled() else 'pure Python (kernel not built, or turned off)'}")
    print("pass = share of instructions followed (strict, fixed mode differs from paper mode); "
          "CPU = user + system of the process and its workers")
    print(f"{'mode':6} {'workers':>7} {'rows':>6} {'instr':>6} {'pass':>5} {'wall s':>7} {'CPU s':>6} "
          f"{'speed-up':>8} {'rows/s':>7} {'peak MB':>8} {'worker MB':>9}")
    single: dict[str, float] = {}
    for mode, workers in configs:
        out = subprocess.run([sys.executable, __file__, "--rows", str(args.rows), "--mix", args.mix, "--child", mode,
                              str(workers)],
                             capture_output=True, text=True, check=True)
        r = json.loads(out.stdout.strip().splitlines()[-1])
        if workers == 1:
            single[mode] = r["seconds"]
        speed = f"{single[mode] / r['seconds']:.2f}x" if mode in single else ""
        print(f"{r['mode']:6} {r['workers']:>7} {r['rows']:>6} {r['instructions']:>6} {r['inst_strict']:>5} "
              f"{r['seconds']:>7} {r['cpu_s']:>6} {speed:>8} "
              f"{r['rows_per_s']:>7} {r['peak_rss_mb']:>8} {r['peak_worker_rss_mb']:>9}")
    whole_process(args.rows, args.mix, args.repeat)


if __name__ == "__main__":
    main()
