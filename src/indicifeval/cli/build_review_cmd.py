"""``indicifeval build review serve|export|agreement``, ``build finalize`` and ``build publish``:
the human step and the release."""

from __future__ import annotations

import argparse
from pathlib import Path

from indicifeval.cli.common import HelpFormatter
from indicifeval.records.layout import REVIEW_GUIDELINES


def _debug(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                        help="show the full traceback of an error")


def register(verbs: argparse._SubParsersAction) -> None:
    review = verbs.add_parser("review", formatter_class=HelpFormatter, help="human review of built rows",
                              description="Native speakers judge the built rows in a browser; verdicts are "
                              "exported and their agreement measured.")
    steps = review.add_subparsers(dest="review_command", required=True, metavar="STEP")
    s = steps.add_parser("serve", formatter_class=HelpFormatter, help="the review app",
                         description="Serve the review app over build folders (SQLite in each folder's review/). "
                         "Binds to 127.0.0.1 unless told otherwise; every page needs an annotator's token. "
                         f"Guidelines: each folder's {REVIEW_GUIDELINES}, if there is one, is shown beside its "
                         "items (plain text: paragraphs, '- ' or '1. ' lists, '# ' headings; never HTML), else "
                         "default guidelines. An admin lands on the disagreements to adjudicate.")
    s.add_argument("folders", nargs="+", metavar="BUILD_DIR")
    s.add_argument("--annotators", required=True, help="JSON or YAML: name: annotator or name: admin; each new "
                   "name gets a random token, printed once (scrypt hashes in NAME.auth.sqlite beside the file)")
    s.add_argument("--host", default="127.0.0.1", help="the address to listen on")
    s.add_argument("--port", type=int, default=8765, help="the port")
    s.add_argument("--overlap", type=float, default=0.2, help="share of items seen by two annotators")
    s.add_argument("--seed", type=int, default=0, help="seeds the order and the overlap")
    s.add_argument("--reassign", action="store_true", help="share the items out again when --overlap, --seed or "
                   "the annotators differ from those they were assigned with (default: refused); verdicts stay")
    s.add_argument("--sync", choices=("normal", "full"), default="normal",
                   help="normal: a saved verdict survives a killed server, a power cut may lose the last seconds; "
                   "full: each save waits for the disk")
    s.add_argument("--session-hours", type=float, default=12.0, help="a login lasts this long")
    s.add_argument("--behind-https", action="store_true",
                   help="the app is reached over HTTPS (a TLS proxy in front): cookies are Secure")
    s.add_argument("--trusted-proxy", action="append", type=_address, metavar="ADDRESS",
                   help="a proxy in front of the app: its X-Forwarded-For names the client (for the login "
                   "limit) and X-Forwarded-Proto: https makes cookies Secure; repeat for several")
    _debug(s)
    s.set_defaults(handler=serve)
    for name, help_text in (("issue", "new random tokens, each printed once"),
                            ("revoke", "end an annotator's sessions and void their token")):
        t = steps.add_parser(name, formatter_class=HelpFormatter, help=help_text, description=help_text + (
            ": for the names given (replacing their old token and ending their sessions), else for everyone in "
            "the annotators file who has none." if name == "issue" else "; works while the server runs."))
        t.add_argument("names", nargs="*" if name == "issue" else "+", metavar="NAME")
        t.add_argument("--annotators", required=True, help="the annotators file the server is started with")
        if name == "revoke":
            t.add_argument("--sessions-only", action="store_true", help="log them out everywhere, keep the token")
        _debug(t)
        t.set_defaults(handler=issue if name == "issue" else revoke)
    for name, help_text in (("export", "write review/verdicts.jsonl from the app's database"),
                            ("agreement", "agreement per question and language, with bootstrap intervals")):
        e = steps.add_parser(name, formatter_class=HelpFormatter, help=help_text, description=help_text + ".")
        e.add_argument("folders", nargs="+", metavar="BUILD_DIR")
        if name == "agreement":
            e.add_argument("--bootstrap", type=int, default=1000, help="bootstrap replicates")
            e.add_argument("--seed", type=int, default=0, help="seeds the bootstrap")
        _debug(e)
        e.set_defaults(handler=export if name == "export" else agreement)

    f = verbs.add_parser("finalize", formatter_class=HelpFormatter, help="reviewed rows to release rows",
                         description="Final rows from the human verdicts: correct/incorrect, gold/silver, the "
                         "parallel tag across the Trans languages given; validated before anything is written.")
    f.add_argument("folders", nargs="+", metavar="BUILD_DIR")
    f.add_argument("--out", required=True, help="the release folder")
    f.add_argument("--drop-incorrect", action="store_true", help="leave incorrect rows out (default: keep, tagged)")
    f.add_argument("--accept-unreviewed", action="store_true",
                   help="release auto-ok rows nobody reviewed, as silver (default: leave them out)")
    f.add_argument("--ifeval", metavar="INPUT_DATA", help="google-research IFEval's input_data.jsonl: count the Trans "
                   "source's prompts that differ from it, for the dataset card (default: the count recorded for the "
                   "authors' localised prompts, when the source is theirs)")
    _debug(f)
    f.set_defaults(handler=finalize)

    p = verbs.add_parser("publish", formatter_class=HelpFormatter, help="a release in the hub's layout, or pushed",
                         description="Write the release in the hub's layout with a dataset card and provenance "
                         "(RELEASE_DIR/hub), and with --push upload it in one commit.")
    p.add_argument("release", metavar="RELEASE_DIR")
    p.add_argument("--push", metavar="REPO_ID", help="the hub dataset to upload to")
    p.add_argument("--revision", help="the branch to upload to (made if missing)")
    p.add_argument("--token-env", default="HF_TOKEN", help="environment variable holding the hub token")
    p.add_argument("--license", metavar="ID", help="the dataset's licence (e.g. cc-by-sa-4.0); default: from the "
                   "Ground corpora's licences (build ground --corpus-license; a share-alike corpus gives "
                   "cc-by-sa-4.0), cc-by-4.0 for Trans only. Refused where it drops a corpus licence's term")
    p.add_argument("--relation-compat", choices=("ours", "authors"), default="ours",
                   help="authors: a lossy export in the authors' harness convention (RELEASE_DIR/hub-authors): "
                   "relation \"exactly\", which their checkers reject, left null as in the released rows")
    _debug(p)
    p.set_defaults(handler=publish)

    r = verbs.add_parser("report", formatter_class=HelpFormatter, help="an HTML page on build folders",
                         description="Per build folder: the counts of every stage, the validator's findings, the "
                         "review's progress and agreement, as one self-contained HTML page.")
    r.add_argument("folders", nargs="+", metavar="BUILD_DIR")
    r.add_argument("--out", default="build-report.html", help="the HTML file")
    _debug(r)
    r.set_defaults(handler=report)


REVIEW_MODULES = ("jinja2", "starlette", "uvicorn", "multipart")  # the [review] extra


def serve(args: argparse.Namespace) -> int:
    from indicifeval.cli.common import require_extra

    require_extra("indicifeval build review serve", REVIEW_MODULES)  # before anything is opened
    from indicifeval.builder.review.serve import hold_folders, listen, open_auth, open_review, read_annotators
    from indicifeval.builder.review.serve import serve as run
    from indicifeval.cli.output import console, err_console

    with hold_folders(args.folders):  # no rebuild while people review (and no second server)
        sock = listen(args.host, args.port)  # a busy port: one line, before anything is opened or said
        annotators = read_annotators(args.annotators)
        auth = open_auth(args.annotators, annotators, session_hours=args.session_hours,
                         behind_https=args.behind_https, trusted_proxies=args.trusted_proxy or ())
        review = open_review(args.folders, annotators, args.overlap, args.seed, auth=auth, reassign=args.reassign,
                             sync=args.sync)
        if auth.clear:
            err_console.print(f"note: {args.annotators} holds {len(auth.clear)} token(s) in clear; anyone who reads "
                              "it can log in as them: delete them there and the next start issues random ones",
                              soft_wrap=True, markup=False)
        if args.host not in ("127.0.0.1", "localhost", "::1") and not args.behind_https:
            err_console.print("note: without --behind-https (HTTPS in front of the app) tokens and session cookies "
                              "cross the network in clear", soft_wrap=True)
        _show_tokens(auth.issue(), console)  # for whoever has no token yet
        with sock:
            return _serve(args, review, lambda r, host, port: run(r, host, port, sock), console, err_console,
                          sock.getsockname()[1])


def _address(value: str) -> str:
    import ipaddress

    try:
        return str(ipaddress.ip_address(value))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an IP address: {value!r}") from None


def _show_tokens(tokens: dict[str, str], console) -> None:
    if tokens:
        console.print("new tokens, shown only now (only their scrypt hashes are kept); give each person theirs:",
                      soft_wrap=True)
    for name, token in tokens.items():
        console.print(f"  {name}: {token}", soft_wrap=True, markup=False)


def _auth(args: argparse.Namespace):
    from indicifeval.builder.review.serve import open_auth, read_annotators

    return open_auth(args.annotators, read_annotators(args.annotators))


def issue(args: argparse.Namespace) -> int:
    from indicifeval.cli.output import console

    auth = _auth(args)
    tokens = auth.issue(args.names or None)
    if not tokens:
        console.print(f"everyone in {args.annotators} has a token; name someone to give them a new one",
                      soft_wrap=True, markup=False)
    _show_tokens(tokens, console)
    return 0


def revoke(args: argparse.Namespace) -> int:
    from indicifeval.cli.output import console

    auth = _auth(args)
    for name in dict.fromkeys(args.names):
        voided, ended = auth.store.revoke(name, args.sessions_only)
        said = (["token voided"] if voided else []) + [f"{ended} session(s) ended"]
        if name in auth.clear and not args.sessions_only:
            said.append(f"but the token written in {args.annotators} still works: delete it there")
        console.print(f"{name}: {'; '.join(said)}", soft_wrap=True, markup=False)
    return 0


def _serve(args: argparse.Namespace, review, run, console, err_console, port: int | None = None) -> int:
    items = sum(store.item_count() for store in review.stores)
    port = args.port if port is None else port
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        err_console.print(f"note: listening on {args.host}: anyone who can reach it and has a token can annotate",
                          soft_wrap=True)
    host = f"[{args.host}]" if ":" in args.host else args.host
    console.print(f"review: {items} items in {len(review.stores)} build folder(s); http://{host}:{port}/",
                  soft_wrap=True)
    run(review, args.host, port)
    return 0


def export(args: argparse.Namespace) -> int:
    from indicifeval.builder.review.serve import export_verdicts
    from indicifeval.cli.output import console

    for folder in args.folders:
        path, n = export_verdicts(folder)
        console.print(f"{folder}: {n} verdicts; wrote {path}", soft_wrap=True)
    from indicifeval.cli.next_steps import command

    console.print(f"next: {command('build', 'review', 'agreement', *args.folders)}", soft_wrap=True)
    return 0


def agreement(args: argparse.Namespace) -> int:
    from rich.table import Table

    from indicifeval.builder.review.serve import write_agreement
    from indicifeval.cli.output import console

    names = ("raw_agreement", "cohen_kappa", "fleiss_kappa", "krippendorff_alpha", "gwet_ac1")
    for folder in args.folders:
        path, rows = write_agreement(folder, args.bootstrap, args.seed)
        table = Table(title=f"Agreement in {folder}")
        for column in ("language", "question", "items ×2", *names):
            table.add_column(column, justify="left" if column in ("language", "question") else "right")
        for row in rows:
            cells = []
            for name in names:
                e = row[name]
                cells.append("—" if e["value"] is None else f"{e['value']:.3f}" + (
                    f" [{e['low']:.2f}, {e['high']:.2f}]" if e["low"] is not None else ""))
            table.add_row(row["language"], row["question"], str(row["items_rated_twice"]), *cells)
        console.print(table)
        console.print(f"wrote {path}", soft_wrap=True)
    from indicifeval.cli.next_steps import command

    console.print(f"next: {command('build', 'finalize', *args.folders, '--out', 'release')}", soft_wrap=True)
    return 0


def finalize(args: argparse.Namespace) -> int:
    from indicifeval.builder.release.finalize import finalize as run
    from indicifeval.cli.next_steps import after_finalize, finalize_error
    from indicifeval.cli.output import console
    from indicifeval.core.errors import InputError

    try:
        report = run([Path(f) for f in args.folders], Path(args.out), drop_incorrect=args.drop_incorrect,
                     accept_unreviewed=args.accept_unreviewed, ifeval=Path(args.ifeval) if args.ifeval else None)
    except InputError as exc:  # nothing to release: say how to get something
        raise finalize_error(exc, args.folders, args.accept_unreviewed) from None
    console.print(f"{report}; {after_finalize(report, args.folders, args.out, args.accept_unreviewed)}",
                  soft_wrap=True)
    return 0


def publish(args: argparse.Namespace) -> int:
    from indicifeval.builder.release.compat import HUB_FOLDERS
    from indicifeval.builder.release.publish import publish as run
    from indicifeval.cli.output import console

    files = run(Path(args.release), push=args.push, revision=args.revision, token_env=args.token_env,
                dataset_license=args.license, relation_compat=args.relation_compat)
    where = f"; pushed to {args.push}" + (f"@{args.revision}" if args.revision else "") if args.push else ""
    folder = Path(args.release) / HUB_FOLDERS[args.relation_compat]
    from indicifeval.cli.next_steps import after_publish

    console.print(f"wrote {len(files)} files in {folder}{where}{after_publish(folder, bool(args.push))}",
                  soft_wrap=True)
    return 0


def report(args: argparse.Namespace) -> int:
    from indicifeval.cli.output import console
    from indicifeval.reports.build_report import write_build_report

    console.print(f"wrote {write_build_report(args.folders, args.out)}; open it in a browser", soft_wrap=True)
    return 0
