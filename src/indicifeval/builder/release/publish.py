"""Publishing a release: the hub's parquet layout with a dataset card that says what is in it
(splits, tags, review counts, agreement), how its relations read, what made it (engines, the
corpus by name and hash) under which licence, and a ``provenance/`` folder without the building
machine's paths; optionally pushed to a hub dataset repository in one commit. The token is read
from the environment only when pushing, after every file is written, and goes nowhere but the
hub client. ``relation_compat="authors"`` writes a lossy export in the authors' relation
convention beside it (``hub-authors/``)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from indicifeval._version import __version__
from indicifeval.builder.licences import (
    DEFAULT_LICENSE,
    KNOWN_LICENCES,
    UNKNOWN_LICENCE,
    decide,
    ground_corpora,
    licence_of,
)
from indicifeval.builder.release import conversations as conv
from indicifeval.builder.release.card import NAME, PROVENANCE, STATISTICS, card
from indicifeval.builder.release.compat import (
    AUTHORS,
    CONVENTIONS,
    HUB_FOLDERS,
    convention_lines,
    exact_relations,
    to_authors,
)
from indicifeval.builder.release.portable import corpus_reference, portable
from indicifeval.core.errors import InputError, OutputError, first_line
from indicifeval.core.files import StagedFiles
from indicifeval.core.secrets import check_env_name, redact_text
from indicifeval.dataset import load_rows, write_hub_layout
from indicifeval.dataset.hub_layout import configs, conversation_config
from indicifeval.dataset.multiturn import load_conversations, write_conversations_hub
from indicifeval.dataset.stats import PAPER_RECORDS, PaperRecords, dataset_stats, markdown, stats_tables
from indicifeval.records.layout import RELEASE_CONVERSATIONS, RELEASE_INFO, RELEASE_ROWS

_REPO = re.compile(r"^[A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*$")


def push_folder(folder: Path, repo_id: str, revision: str | None, api: Any, token_env: str, message: str) -> None:
    """Upload ``folder`` (its hidden files left out) to the hub dataset ``repo_id`` in one commit
    on ``revision`` (a branch, made if missing); the token is read from ``token_env`` only here
    and goes nowhere but the hub client. ``build publish`` and ``results push`` both push so."""
    if not _REPO.match(repo_id):
        raise InputError(f"push takes a hub repository as owner/name, got {repo_id!r:.80}", field="push")
    token = os.environ.get(check_env_name(token_env, "token_env"))
    if not token:
        raise InputError(f"pushing needs a hub token with write access in the environment variable {token_env}",
                         field="token_env")
    if api is None:
        try:
            from huggingface_hub import HfApi
        except ImportError:
            raise InputError("pushing needs huggingface_hub: pip install 'indicifeval[build]'") from None
        api = HfApi()
    try:
        api.create_repo(repo_id, repo_type="dataset", exist_ok=True, token=token)
        if revision and revision != "main" and not revision.startswith("refs/"):
            api.create_branch(repo_id, branch=revision, repo_type="dataset", exist_ok=True, token=token)
        api.upload_folder(folder_path=str(folder), repo_id=repo_id, repo_type="dataset", revision=revision,
                          commit_message=message, token=token, ignore_patterns=[".*", "**/.*"])
    except Exception as exc:  # the hub client's errors are many; each becomes one line, the token masked
        raise OutputError(f"pushing to {repo_id}: {redact_text(first_line(exc), [token])}") from None


def _read_info(release_dir: Path) -> dict[str, Any]:
    """release.json, its paths made names (a release finalized by an older version kept them),
    each Ground build's corpus named (name, revision, sha256, licence)."""
    info_path = release_dir / RELEASE_INFO
    if not info_path.is_file():
        raise InputError(f"not a release folder (no {RELEASE_INFO}: run finalize first)", str(release_dir))
    try:
        info = json.loads(info_path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise InputError(f"unreadable ({first_line(exc)})", str(info_path)) from None
    if not isinstance(info, dict) or info.get("tool") != "release":
        raise InputError("not a release.json written by finalize", str(info_path))
    info = portable(info)
    for build in info.get("builds") or []:
        if isinstance(build, dict) and "corpus" not in build:
            build["corpus"] = corpus_reference((build.get("manifest") or {}).get("stages") or {})
    return info


def publish(release_dir: Path, *, push: str | None = None, revision: str | None = None, api: Any = None,
            token_env: str = "HF_TOKEN", dataset_license: str | None = None,
            relation_compat: str = "ours") -> list[Path]:
    """Write ``release_dir/hub`` (``hub-authors`` with ``relation_compat="authors"``): the
    parquet layout, a dataset card and ``provenance/``; with ``push`` (owner/name), upload it to
    that dataset repository in one commit on ``revision`` (a branch, made if missing; default
    main). The licence is ``dataset_license``, else derived from the Ground corpora's licences,
    else (Trans only) cc-by-4.0; a Ground release whose corpus licence is unknown is refused
    before anything is written. Returns the files written."""
    if relation_compat not in CONVENTIONS:
        raise InputError(f"unknown relation convention {relation_compat!r}; choose from {', '.join(CONVENTIONS)}",
                         field="relation_compat")
    release_dir = Path(release_dir)
    info = _read_info(release_dir)
    rows = load_rows(release_dir / RELEASE_ROWS) if (release_dir / RELEASE_ROWS).is_file() else []
    talks = load_conversations(release_dir / RELEASE_CONVERSATIONS) \
        if (release_dir / RELEASE_CONVERSATIONS).is_file() else []
    if not rows and not talks:
        raise InputError(f"the release has no rows ({RELEASE_ROWS}) and no conversations", str(release_dir))
    ground = {r.language for r in rows if r.subset == "ground"}
    decision = decide(ground_corpora(info.get("builds") or [], ground), dataset_license)
    changed = exact_relations(rows)
    if relation_compat == AUTHORS:
        rows = to_authors(rows)
    hub = release_dir / HUB_FOLDERS[relation_compat]
    written = write_hub_layout(hub, rows, NAME)
    written += write_conversations_hub(hub, talks)  # indicifeval-multiturn/<lang>-00000-of-00001.parquet
    front = (hub / "README.md").read_text(encoding="utf-8").splitlines()
    front[front.index("---", 1):front.index("---", 1)] = conv.hub_config_lines(talks)
    manifests = {}
    for build in info.get("builds") or []:
        name = f"{build.get('language')}-{'+'.join(build.get('subsets') or [])}.manifest.json"
        manifests[name] = json.dumps(build.get("manifest") or {}, ensure_ascii=False, indent=2) + "\n"
    pretty = NAME + (" (the authors' relation convention, lossy)" if relation_compat == AUTHORS else "")
    # the paper's dataset tables, of what is published (Tables 6 and 7 from what finalize recorded)
    stats = dataset_stats(rows, name=pretty, kind="release", records=PaperRecords.from_json(info.get(PAPER_RECORDS)))
    text = card("\n".join(front), rows, info, decision, list(manifests),
                relation_lines=convention_lines(rows, relation_compat, changed), pretty_name=pretty,
                statistics=[*conv.card_lines(talks), *(markdown(stats_tables(stats), f"Dataset statistics: "
                                                                 f"{stats.name}", 2).splitlines() if rows else []), ""])
    with StagedFiles(hub) as files:
        files.write_text("README.md", text)
        files.write_text(f"{PROVENANCE}/{RELEASE_INFO}", json.dumps(info, ensure_ascii=False, indent=2) + "\n")
        files.write_text(f"{PROVENANCE}/{STATISTICS}", json.dumps(stats.to_json(), ensure_ascii=False, indent=2) + "\n")
        for name, manifest in manifests.items():
            files.write_text(f"{PROVENANCE}/{name}", manifest)
    written += [hub / n for n in files.names if hub / n not in written]
    keep = set(written)
    old = [p for c in [*configs().values(), conversation_config()] for p in (hub / c).glob("*.parquet")] \
        + list((hub / PROVENANCE).glob("*"))
    for path in old:  # what an earlier publish wrote and this one did not: gone, so it is not uploaded
        if path.is_file() and path not in keep:
            path.unlink()
    if push:
        splits = sorted({f"{r.language}/{r.subset}" for r in rows} | {f"{c.language}/{c.subset}" for c in talks})
        message = (f"{pretty} release: {len(rows)} rows, {len(talks)} conversations ({', '.join(splits)}), "
                   f"indicifeval {__version__}")
        push_folder(hub, push, revision, api, token_env, message)
    return written


__all__ = ["DEFAULT_LICENSE", "KNOWN_LICENCES", "UNKNOWN_LICENCE", "licence_of", "publish", "push_folder"]
