"""Opening build folders for review (items loaded, annotators registered, work assigned),
serving the app, and what comes out of it: ``review/verdicts.jsonl`` and the agreement."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from indicifeval.builder.project import BuildFolder
from indicifeval.builder.review.app import Review, create_app
from indicifeval.builder.review.auth import Auth, TokenStore, auth_path
from indicifeval.builder.review.desk import ReviewDesk
from indicifeval.builder.review.items import load_items, plan_assignments
from indicifeval.builder.review.modes import EXPORT_MODE, create_private, restrict_handle, scrub_old_hashes
from indicifeval.builder.review.store import ReviewStore
from indicifeval.core.errors import BusyError, InputError
from indicifeval.core.files import atomic_writer
from indicifeval.core.lock import FolderLock
from indicifeval.core.settings_file import read_settings
from indicifeval.core.sockets import listen
from indicifeval.records.layout import REVIEW_AGREEMENT, REVIEW_DB, REVIEW_VERDICTS

ROLES = ("annotator", "admin")
MIN_TOKEN = 16


def read_annotators(path: str | Path) -> dict[str, tuple[str | None, str]]:
    """name -> (token or None, role) from a JSON or YAML mapping of names to a role
    (``asha: annotator``, ``lead: admin``; nothing: annotator), or, as older files do, to a
    token they chose (``name: token`` or ``name: {token: ..., role: admin}``; at least 16
    characters). Without a token, the app issues a random one and shows it once."""
    where = str(path)
    data = read_settings(path, "annotators file")
    if not isinstance(data, dict) or not data:
        raise InputError("the annotators file maps names to roles (annotator or admin)", where)
    out: dict[str, tuple[str | None, str]] = {}
    for name, value in data.items():
        if isinstance(value, dict):
            token, role = value.get("token"), value.get("role", "annotator")
        elif value is None or value in ROLES:
            token, role = None, value or "annotator"
        else:
            token, role = value, "annotator"
        if token is not None and (not isinstance(token, str) or len(token) < MIN_TOKEN):
            raise InputError(f"the token of {name!r} must be a string of at least {MIN_TOKEN} characters", where,
                             field=str(name))
        if role not in ROLES:
            raise InputError(f"role must be one of {', '.join(ROLES)}", where, field=f"{name}.role")
        out[str(name)] = (token, role)
    tokens = [t for t, _ in out.values() if t is not None]
    if len(set(tokens)) != len(tokens):
        raise InputError("two annotators share a token", where)
    return out


def open_auth(annotators_file: str | Path, annotators: dict[str, tuple[str | None, str]],
              **options: Any) -> Auth:
    """The guard of a team: its secrets in ``auth_path(annotators_file)`` (0600), its roster
    and any tokens the file itself holds; ``options`` as ``Auth`` takes them."""
    return Auth(TokenStore(auth_path(annotators_file)), {n: r for n, (_, r) in annotators.items()},
                {n: t for n, (t, _) in annotators.items() if t is not None}, **options)


def open_review(folders: Sequence[str | Path], annotators: dict[str, tuple[str | None, str]], overlap: float = 0.2,
                seed: int = 0, auth: Auth | None = None, reassign: bool = False, sync: str = "normal") -> Review:
    """The app's state over ``folders``: each folder's items into its store, the items not
    yet assigned shared out with ``overlap``; ``auth`` (default: in memory, the tokens of
    ``annotators``) guards it. Each review database is its owner's alone (0600). A folder
    whose items were shared out with other settings (overlap, seed, the annotators) is
    refused, naming them, unless ``reassign``: then its items are shared out again."""
    if not 0 <= overlap <= 1:
        raise InputError("overlap is a share of the items, from 0 to 1", field="overlap")
    stores: list[ReviewStore] = []
    plans: list[tuple[ReviewStore, list[str]]] = []
    seen: set[str] = set()
    reviewers = [name for name, (_, role) in annotators.items() if role == "annotator"]
    try:
        for folder in folders:
            BuildFolder(folder).manifest()  # a build folder, or a clear error
            scrub_old_hashes(Path(folder) / REVIEW_DB)
            create_private(Path(folder) / REVIEW_DB)
            store = ReviewStore(folder, sync=sync)
            stores.append(store)
            items = load_items(folder)
            clash = seen & {i.id for i in items}
            if clash:
                raise InputError(f"items {', '.join(sorted(clash)[:3])} are in two build folders", str(folder))
            seen |= {i.id for i in items}
            store.put_items(items)
            plans.append((store, [i.id for i in items]))
        _share_out(plans, reviewers, overlap, seed, reassign)
    except BaseException:
        for store in stores:
            store.close()
        raise
    if auth is None:
        auth = Auth(TokenStore(None), {n: r for n, (_, r) in annotators.items()},
                    {n: t for n, (t, _) in annotators.items() if t is not None})
    return Review(ReviewDesk(stores), auth)


def _share_out(plans: list[tuple[ReviewStore, list[str]]], reviewers: list[str], overlap: float, seed: int,
               reassign: bool) -> None:
    """Assign each folder's new items with the settings its items were assigned with; refuse
    other settings (before changing any folder) unless ``reassign``."""
    wanted = {"overlap": overlap, "seed": seed, "annotators": sorted(reviewers)}
    changed = [store for store, ids in plans if _assigned_with(store, ids, reviewers, overlap, seed) != wanted]
    if changed and not reassign:
        raise InputError(_changed(changed[0], wanted), str(changed[0].folder))
    for store, ids in plans:
        if store in changed:
            store.reassign(plan_assignments(ids, reviewers, overlap, seed))
        else:
            taken = store.assignments()
            store.assign(plan_assignments([i for i in ids if i not in taken], reviewers, overlap, seed))
        store.set_setting("assignment", wanted)


def _assigned_with(store: ReviewStore, ids: list[str], reviewers: list[str], overlap: float,
                   seed: int) -> dict[str, Any] | None:
    """The settings the folder's items were shared out with: as recorded; for a database of an
    earlier version, the asked ones if they give exactly its assignment (else unknown: {});
    a folder with nothing assigned yet takes any."""
    asked = {"overlap": overlap, "seed": seed, "annotators": sorted(reviewers)}
    made = store.setting("assignment")
    if made is not None or not store.assignments():
        return made if made is not None else asked
    return asked if store.all_assignments() == set(plan_assignments(ids, reviewers, overlap, seed)) else {}


def _changed(store: ReviewStore, wanted: dict[str, Any]) -> str:
    made = store.setting("assignment")
    pairs = store.all_assignments()
    items = len({i for i, _ in pairs})

    def said(s: dict[str, Any]) -> str:
        return f"--overlap {s['overlap']} --seed {s['seed']} to {', '.join(s['annotators']) or 'nobody'}"

    before = said(made) if made else "settings an earlier version did not record"
    return (f"its {items} items are assigned with {before} ({len(pairs) - items} of them to a second "
            f"annotator); this start asks {said(wanted)}: start with the same settings and annotators, or add "
            "--reassign to share the items out again (verdicts already given are kept)")


@contextmanager
def hold_folders(folders: Sequence[str | Path]) -> Iterator[None]:
    """Hold every build folder's lock while the review runs: a `build` on one of them is refused
    until the server stops, and the server does not start while a build runs (or another
    server serves the folder). The lock is the operating system's: a killed server frees it."""
    with ExitStack() as stack:
        for folder in folders:
            BuildFolder(folder).manifest()  # a build folder, or a clear error
            lock = FolderLock(folder, "build review serve")
            try:
                stack.enter_context(lock)
            except BusyError:
                raise BusyError(_held(folder, lock.path)) from None
        yield


def _held(folder: str | Path, note: Path) -> str:
    """Who holds a build folder, in one line: a review server or a build."""
    try:
        holder = note.read_text(encoding="utf-8").strip()
    except OSError:
        holder = ""
    pid = holder.split(",", 1)[0] if holder.startswith("pid ") else "another process"
    if "review serve" in holder:
        return (f"{folder}: already served by another review server ({pid}); one server per build folder: "
                "stop that one first, or use the app it serves")
    what = holder.split(", ", 1)[1] if ", " in holder else "another indicifeval process"
    return f"{folder}: in use by {what} ({pid}); serve it for review once that has finished"


def serve(review: Review, host: str = "127.0.0.1", port: int = 8765, sock: socket.socket | None = None) -> None:
    """Serve until stopped, on ``sock`` (from ``listen``) or on a socket bound here."""
    import uvicorn

    # proxy_headers off: the app itself decides whom to believe about addresses (--trusted-proxy)
    config = uvicorn.Config(create_app(review), log_level="warning", access_log=False, proxy_headers=False)
    uvicorn.Server(config).run(sockets=[sock or listen(host, port)])


def export_verdicts(folder: str | Path) -> tuple[Path, int]:
    """Every standing verdict of the folder's store as ``review/verdicts.jsonl`` (0640: the
    owner's and their group's)."""
    create_private(Path(folder) / REVIEW_DB)
    store = ReviewStore(folder)
    verdicts = sorted(store.latest().values(), key=lambda v: (v.item_id, v.adjudication, v.annotator))
    path = Path(folder) / REVIEW_VERDICTS
    with atomic_writer(path) as fh:
        restrict_handle(fh, EXPORT_MODE)
        for verdict in verdicts:
            fh.write(json.dumps(verdict.to_json(), ensure_ascii=False) + "\n")
    store.close()
    return path, len(verdicts)


def write_agreement(folder: str | Path, bootstrap: int = 1000, seed: int = 0) -> tuple[Path, list[dict[str, Any]]]:
    """Agreement per question and language from the exported verdicts, as ``review/agreement.json``."""
    from indicifeval.builder.review.agreement import agreement_table
    from indicifeval.core.jsonl import read_jsonl

    source = Path(folder) / REVIEW_VERDICTS
    if not source.is_file():
        export_verdicts(folder)
    records = [r for _, r in read_jsonl(source)]
    table = agreement_table(records, bootstrap=bootstrap, seed=seed)
    path = Path(folder) / REVIEW_AGREEMENT
    with atomic_writer(path) as fh:
        restrict_handle(fh, EXPORT_MODE)
        fh.write(json.dumps({"format_version": 1, "bootstrap": bootstrap, "seed": seed, "rows": table},
                            ensure_ascii=False, indent=1) + "\n")
    return path, table


__all__ = ["export_verdicts", "hold_folders", "listen", "open_auth", "open_review", "read_annotators", "serve",
           "write_agreement"]
