"""The review app measured two ways.

**round**: a simulated two-annotator review through the real app (Starlette's test client):
every item seen by both annotators, the second disagreeing with the first on a share of the
answers, then export and agreement, as `build review export|agreement` do.

**load**: a team at work on a big project, through a real `indicifeval build review serve`
process on loopback: ``--languages`` build folders of ``--items`` items each (the bundled
sample's rows, repeated under new keys), every item given to two of ``--annotators``
annotators, ``--verdicts`` verdicts already stored (most items judged, many judged more than
once, a few disputed), then every annotator at once for ``--seconds``: the next item, its
page, the verdict, and now and then the progress page, while an admin reloads the admin page.
Prints p50/p99 latency per kind of request, requests/s, and the CPU time of the server and of
the load generator beside the wall time (both share this machine's cores; the load average is
printed too), and whether the target holds: page and save p99 under 50 ms with the team
sending at least 500 requests/s. With no pause the clients wait on each other (latency is then
clients / throughput); with a 0.1 s pause they send about 1,000 requests/s, twice the target.

    python benchmarks/review_round.py                        # both, 100,000 verdicts, 32 annotators
    python benchmarks/review_round.py --part load --seconds 30
    python benchmarks/review_round.py --part round --source ENGLISH_ROWS.jsonl   # e.g. the 490 verified rows
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

TARGET_RATE, TARGET_P99 = 500, 50.0  # requests/s the team sends, and the slowest page or save allowed (ms)
CSRF = re.compile(r'name="csrf" value="([^"]+)"')
ITEM = re.compile(r'data-item="([^"]+)"')
QUESTION = re.compile(r'name="(q_[a-z]+)" value="([^"]+)"')


def _answers(page: str, worse: bool = False) -> dict[str, str]:
    values: dict[str, list[str]] = {}
    for q, v in QUESTION.findall(page):
        values.setdefault(q, []).append(v)
    return {q: vs[-1] if worse else vs[0] for q, vs in values.items()}


# -- round --------------------------------------------------------------------------------------
def round_trip(args: argparse.Namespace, tmp: Path) -> None:
    from starlette.testclient import TestClient

    from indicifeval.builder.review.app import create_app
    from indicifeval.builder.review.serve import export_verdicts, open_review, write_agreement
    from indicifeval.builder.trans.pipeline import build_trans
    from indicifeval.runs.backends.spec import ModelSpec

    rng = random.Random(args.seed)
    folder = tmp / "round" / args.lang
    build_trans(folder, args.lang, args.source, ModelSpec.of("mock", "fake", {"answers": "fake:0"}))
    tokens = {"asha": ("asha-token-0123456789", "annotator"), "ravi": ("ravi-token-0123456789", "annotator")}
    review = open_review([folder], tokens, overlap=1.0, seed=args.seed)
    bad_items = {i.id for i in review.stores[0].items() if rng.random() < args.bad}
    timings, n = 0.0, 0
    for name, (token, _) in tokens.items():
        c = TestClient(create_app(review), follow_redirects=False)
        c.post("/login", data={"token": token, "csrf": CSRF.search(c.get("/login").text).group(1)})
        while (location := c.get("/next").headers.get("location")) is not None:
            page = c.get(location).text
            item = ITEM.search(page).group(1)
            good, worse = _answers(page), _answers(page, worse=True)
            data = {"item": item, "csrf": CSRF.search(page).group(1)}
            for q in good:
                answer = worse[q] if item in bad_items and q == "q_meaningful" else good[q]
                if name == "ravi" and rng.random() < args.flip:
                    answer = good[q] if answer == worse[q] else worse[q]
                data[q] = answer
            started = time.perf_counter()
            c.post("/verdict", data=data)
            timings += time.perf_counter() - started
            n += 1
    review.desk.close()
    export_verdicts(folder)
    _, table = write_agreement(folder, bootstrap=1000, seed=args.seed)
    print(f"round: {n} verdicts on {n // 2} items, {timings / max(n, 1) * 1000:.1f} ms per verdict (in-process HTTP)")
    names = ("raw_agreement", "cohen_kappa", "fleiss_kappa", "krippendorff_alpha", "gwet_ac1")
    print(f"{'language':>8} {'question':>12} {'items':>6} " + " ".join(f"{n:>22}" for n in names))
    for row in table:
        cells = []
        for name in names:
            e = row[name]
            cells.append("—" if e["value"] is None else f"{e['value']:.3f} [{e['low']:.2f},{e['high']:.2f}]"
                         if e["low"] is not None else f"{e['value']:.3f}")
        print(f"{row['language']:>8} {row['question']:>12} {row['items_rated_twice']:>6} "
              + " ".join(f"{c:>22}" for c in cells))


# -- load: the project ----------------------------------------------------------------------------
def _project(args: argparse.Namespace, tmp: Path) -> tuple[list[Path], Path, dict[str, str]]:
    """The build folders, the annotators file, and name -> token."""
    from indicifeval.builder.trans.pipeline import build_trans
    from indicifeval.records.layout import TRANS_ROWS, TRANS_SOURCE
    from indicifeval.runs.backends.spec import ModelSpec

    folders = []
    for lang in args.languages.split(","):
        seed = tmp / f"seed-{lang}"
        build_trans(seed, lang, "sample", ModelSpec.of("mock", "fake", {"answers": "fake:0"}))
        rows = [json.loads(x) for x in (seed / TRANS_ROWS).read_text(encoding="utf-8").splitlines()]
        source = {str(r["key"]): r for r in map(json.loads, (seed / TRANS_SOURCE).read_text(encoding="utf-8")
                                                 .splitlines())}
        folder = tmp / lang
        shutil.copytree(seed, folder, ignore=shutil.ignore_patterns("*.jsonl"))
        with (folder / TRANS_ROWS).open("w", encoding="utf-8") as out, \
                (folder / TRANS_SOURCE).open("w", encoding="utf-8") as src:
            for n in range(args.items):
                row = rows[n % len(rows)]
                key = f"{row['key']}-{n // len(rows)}"
                out.write(json.dumps({**row, "key": key}, ensure_ascii=False) + "\n")
                src.write(json.dumps({**source[str(row["key"])], "key": key}, ensure_ascii=False) + "\n")
        folders.append(folder)
    tokens = {f"a{n:02d}": f"a{n:02d}-token-{random.Random(n).getrandbits(64):016x}" for n in range(args.annotators)}
    team = {name: {"token": t, "role": "annotator"} for name, t in tokens.items()}
    tokens["lead"] = "lead-token-0123456789abcdef"
    team["lead"] = {"token": tokens["lead"], "role": "admin"}
    annotators = tmp / "annotators.json"
    annotators.write_text(json.dumps(team), encoding="utf-8")
    return folders, annotators, tokens


def _store_verdicts(args: argparse.Namespace, folders: list[Path], annotators: Path) -> int:
    """``--verdicts`` verdicts in the folders' stores, as a team's history would leave them."""
    from indicifeval.builder.review.items import workflows
    from indicifeval.builder.review.serve import open_review, read_annotators
    from indicifeval.records import HumanVerdict

    rng = random.Random(args.seed)
    review = open_review(folders, read_annotators(annotators), overlap=1.0, seed=args.seed)
    names = [n for n, (_, role) in read_annotators(annotators).items() if role == "annotator"]
    judged = []  # (store, item, name, workflow): every pair but the last share of each queue
    for store in review.stores:
        flows = {i.id: i.workflow for i in store.items()}
        for name in names:
            queue = store.assigned(name)
            judged += [(store, i, name, flows[i]) for i in queue[:int(len(queue) * (1 - args.open))]]
    extra = max(args.verdicts - len(judged), 0)
    history = [rng.choice(judged) for _ in range(extra)]  # judged before, then judged again
    total = 0
    for store in review.stores:
        batch = []
        for mine, item, name, flow in history + judged:  # the history first: the last one stands
            if mine is store:
                questions = workflows()[flow]["questions"]
                worse = rng.random() < args.dispute
                answers = {q["id"]: q["options"][-1 if worse else 0]["value"] for q in questions}
                batch.append(HumanVerdict(item, name, flow, answers, "", None, None,
                                          "incorrect" if worse else "correct"))
        store.save_many(batch)
        total += len(batch)
    review.desk.close()
    return total


# -- load: the team -------------------------------------------------------------------------------
class Client:
    """One annotator's browser, as far as the server can tell: one keep-alive connection, its
    cookies, plain HTTP/1.1 (light, so the load generator leaves the cores to the server)."""

    def __init__(self, port: int):
        self.port, self.cookies = port, {}
        self.last_item: str | None = None  # the last item it judged
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, form: dict[str, str] | None = None) -> tuple[int, dict, str]:
        try:
            return await self._request(method, path, form)
        except (ConnectionError, asyncio.IncompleteReadError):  # an idle keep-alive closed by the server
            self.writer = None
            return await self._request(method, path, form)

    async def _request(self, method: str, path: str, form: dict[str, str] | None) -> tuple[int, dict, str]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        body = urlencode(form).encode() if form is not None else b""
        head = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}", f"Content-Length: {len(body)}"]
        if form is not None:
            head.append("Content-Type: application/x-www-form-urlencoded")
        if self.cookies:
            head.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
        assert self.reader is not None
        status_line, *lines = (await self.reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        headers: dict[str, str] = {}
        for line in lines:
            if ":" in line:
                k, v = line.split(":", 1)
                k, v = k.strip().lower(), v.strip()
                if k == "set-cookie":
                    name, value = v.split(";", 1)[0].split("=", 1)
                    self.cookies[name] = value
                headers[k] = v
        text = (await self.reader.readexactly(int(headers.get("content-length", 0)))).decode("utf-8")
        return int(status_line.split()[1]), headers, text

    async def login(self, token: str) -> None:
        page = (await self.request("GET", "/login"))[2]
        status, headers, _ = await self.request("POST", "/login", {"token": token, "csrf": CSRF.search(page).group(1)})
        if status != 303 or headers.get("location") != "/next":
            raise RuntimeError(f"login refused ({status})")


async def _annotate(client: Client, until: float, times: dict[str, list[float]], rng: random.Random,
                    think: float) -> None:
    def timed(kind: str, started: float) -> None:
        times[kind].append(time.perf_counter() - started)

    saved = 0
    while time.perf_counter() < until:
        started = time.perf_counter()
        status, headers, done = await client.request("GET", "/next")
        timed("next", started)
        if status != 303:  # all done: withdraw the last verdict (`u`) and judge it again
            if client.last_item is None:
                break
            started = time.perf_counter()
            await client.request("POST", "/undo", {"item": client.last_item, "csrf": CSRF.search(done).group(1)})
            timed("undo", started)
            continue
        started = time.perf_counter()
        status, _, page = await client.request("GET", headers["location"])
        timed("page", started)
        item = ITEM.search(page).group(1)
        form = {"item": item, "csrf": CSRF.search(page).group(1), **_answers(page, rng.random() < 0.03)}
        started = time.perf_counter()
        status, headers, _ = await client.request("POST", "/verdict", form)
        timed("save", started)
        if status != 303:
            raise RuntimeError(f"verdict refused ({status})")
        saved, client.last_item = saved + 1, item
        if think:
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))  # reading the next item
        if saved % 20 == 0:
            started = time.perf_counter()
            await client.request("GET", "/progress")
            timed("progress", started)


async def _admin(client: Client, until: float, times: dict[str, list[float]]) -> None:
    while time.perf_counter() < until:
        started = time.perf_counter()
        await client.request("GET", "/admin")
        times["admin"].append(time.perf_counter() - started)
        await asyncio.sleep(5)


async def _team(clients: dict[str, Client], seconds: float, seed: int,
                think: float = 0.0) -> tuple[dict[str, list[float]], float]:
    times: dict[str, list[float]] = {k: [] for k in ("next", "page", "save", "undo", "progress", "admin")}
    started = time.perf_counter()
    until = started + seconds
    await asyncio.gather(*(_annotate(c, until, times, random.Random(f"{seed}{n}"), think) if n != "lead"
                           else _admin(c, until, times) for n, c in clients.items()))
    return times, time.perf_counter() - started


def _cpu_of(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000 if ordered else float("nan")


def load(args: argparse.Namespace, tmp: Path) -> None:
    started = time.perf_counter()
    folders, annotators, tokens = _project(args, tmp)
    stored = _store_verdicts(args, folders, annotators)
    print(f"load: {len(folders)} build folders × {args.items} items, {args.annotators} annotators (each item to two), "
          f"{stored:,} verdicts stored; set up in {time.perf_counter() - started:.0f} s", flush=True)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "indicifeval", "build", "review", "serve", *map(str, folders),
                               "--annotators", str(annotators), "--port", str(port), "--overlap", "1.0",
                               "--seed", str(args.seed)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert server.stdout is not None
        for line in server.stdout:  # the server says "review: ..." once it listens
            if line.startswith("review:"):
                break
        else:
            raise RuntimeError("the server stopped before serving")
        asyncio.run(_phases(args, port, tokens, server.pid))
    finally:
        server.terminate()
        server.wait(30)


async def _phases(args: argparse.Namespace, port: int, tokens: dict[str, str], pid: int) -> None:
    clients = {name: Client(port) for name in tokens}
    for name, client in clients.items():  # logins are not measured (scrypt: ~60 ms each, on purpose)
        await client.login(tokens[name])
    for think in (float(t) for t in args.think.split(",")):
        load_before, cpu_before, own_before = os.getloadavg()[0], _cpu_of(pid), _own_cpu()
        times, wall = await _team(clients, args.seconds, args.seed, think)
        server_cpu, own_cpu = _cpu_of(pid) - cpu_before, _own_cpu() - own_before
        _report(args.annotators, think, times, wall, server_cpu, own_cpu, load_before)


def _report(annotators: int, think: float, times: dict[str, list[float]], wall: float, server_cpu: float,
            own_cpu: float, load_before: float) -> None:
    requests = sum(len(v) for v in times.values())
    said = "no pause between items (as fast as the server answers)" if not think else \
        f"{think:g} s (±50%) between items"
    print(f"\n{annotators} annotators and an admin at work, {said}:")
    print(f"{requests:,} requests in {wall:.1f} s: {requests / wall:.0f} requests/s, {len(times['save']) / wall:.0f} "
          f"verdicts/s; server CPU {server_cpu:.1f} s ({server_cpu / requests * 1000:.2f} ms per request), load "
          f"generator CPU {own_cpu:.1f} s; {os.cpu_count()} cores, load average {load_before:.2f} before, "
          f"{os.getloadavg()[0]:.2f} after")
    print(f"{'request':>10} {'n':>7} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for kind, values in times.items():
        if values:
            print(f"{kind:>10} {len(values):>7} {_pct(values, 0.5):>8.1f} {_pct(values, 0.99):>8.1f} "
                  f"{max(values) * 1000:>8.1f}")
    worst = max(_pct(times["page"], 0.99), _pct(times["save"], 0.99))
    met = requests / wall >= TARGET_RATE and worst < TARGET_P99
    print(f"target (page and save p99 < {TARGET_P99:g} ms at >= {TARGET_RATE} requests/s): "
          f"{'met' if met else 'not met'} (p99 {worst:.1f} ms at {requests / wall:.0f} requests/s)")


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--part", choices=("round", "load", "both"), default="both")
    parser.add_argument("--source", default="sample", help="round: English rows for the Trans build")
    parser.add_argument("--lang", default="hi", help="round: the language")
    parser.add_argument("--flip", type=float, default=0.03, help="round: share of answers the second one flips")
    parser.add_argument("--bad", type=float, default=0.05, help="round: share of items both judge incorrect")
    parser.add_argument("--languages", default="hi,ta,ur,bn,mr", help="load: one build folder per language")
    parser.add_argument("--items", type=int, default=2000, help="load: items per build folder")
    parser.add_argument("--annotators", type=int, default=32, help="load: annotators at work at once")
    parser.add_argument("--verdicts", type=int, default=100_000, help="load: verdicts stored before the team starts")
    parser.add_argument("--open", type=float, default=0.1, help="load: share of each queue not yet judged")
    parser.add_argument("--dispute", type=float, default=0.01, help="load: share of stored verdicts saying incorrect")
    parser.add_argument("--seconds", type=float, default=60, help="load: how long the team works, per pause")
    parser.add_argument("--think", default="0,0.1", help="load: seconds each annotator pauses between items, one "
                        "run each (0: as fast as the server answers; people take 10-60 s)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        if args.part in ("round", "both"):
            round_trip(args, Path(tmp))
        if args.part in ("load", "both"):
            load(args, Path(tmp) / "load")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

