"""Opening build folders for review (items loaded, annotators registered, work assigned),
serving the app, and what comes out of it: ``review/verdicts.jsonl`` and the agreement."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from indicifeval.builder.project import BuildFolder
from indicifeval.builder.review.app import Review, create_app
from indicifeval.builder.review.auth import (
    EXPORT_MODE,
    Auth,
    TokenStore,
    auth_path,
    create_private,
    restrict_handle,
    scrub_old_hashes,
)
from indicifeval.builder.review.desk import ReviewDesk
from indicifeval.builder.review.items import load_items, plan_assignments
from indicifeval.builder.review.store import ReviewStore
from indicifeval.core.errors import InputError
from indicifeval.core.files import atomic_writer
from indicifeval.core.lock import FolderLock
from indicifeval.core.settings_file import read_settings
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
                seed: int = 0, auth: Auth | None = None) -> Review:
    """The app's state over ``folders``: each folder's items into its store, the items not
    yet assigned shared out with ``overlap``; ``auth`` (default: in memory, the tokens of
    ``annotators``) guards it. Each review database is its owner's alone (0600)."""
    if not 0 <= overlap <= 1:
        raise InputError("overlap is a share of the items, from 0 to 1", field="overlap")
    stores: list[ReviewStore] = []
    seen: set[str] = set()
    reviewers = [name for name, (_, role) in annotators.items() if role == "annotator"]
    for folder in folders:
        BuildFolder(folder).manifest()  # a build folder, or a clear error
        scrub_old_hashes(Path(folder) / REVIEW_DB)
        create_private(Path(folder) / REVIEW_DB)
        store = ReviewStore(folder)
        items = load_items(folder)
        clash = seen & {i.id for i in items}
        if clash:
            raise InputError(f"items {', '.join(sorted(clash)[:3])} are in two build folders", str(folder))
        seen |= {i.id for i in items}
        store.put_items(items)
        taken = store.assignments()
        store.assign(plan_assignments([i.id for i in items if i.id not in taken], reviewers, overlap, seed))
        stores.append(store)
    if auth is None:
        auth = Auth(TokenStore(None), {n: r for n, (_, r) in annotators.items()},
                    {n: t for n, (t, _) in annotators.items() if t is not None})
    return Review(ReviewDesk(stores), auth)


@contextmanager
def hold_folders(folders: Sequence[str | Path]) -> Iterator[None]:
    """Hold every build folder's lock while the review runs: a `build` on one of them is refused
    until the server stops, and the server does not start while a build runs (or another
    server serves the folder). The lock is the operating system's: a killed server frees it."""
    with ExitStack() as stack:
        for folder in folders:
            BuildFolder(folder).manifest()  # a build folder, or a clear error
            stack.enter_context(FolderLock(folder, "build review serve"))
        yield


def serve(review: Review, host: str = "127.0.0.1", port: int = 8765) -> None:
    import uvicorn

    # proxy_headers off: the app itself decides whom to believe about addresses (--trusted-proxy)
    uvicorn.run(create_app(review), host=host, port=port, log_level="warning", proxy_headers=False)


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


__all__ = ["export_verdicts", "hold_folders", "open_auth", "open_review", "read_annotators", "serve", "write_agreement"]
