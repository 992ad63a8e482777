"""Publishing a release: the hub's parquet layout with a dataset card that says what is in it
(splits, tags, review counts, agreement), what made it (engines, corpus) under which licences,
and a ``provenance/`` folder; optionally pushed to a hub dataset repository in one commit. The
token is read from the environment only when pushing, after every file is written, and goes
nowhere but the hub client."""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from pathlib import Path
from typing import Any

from indicifeval._version import __version__
from indicifeval.builder.release.finalize import COUNTS, RELEASE_INFO, RELEASE_ROWS
from indicifeval.core.errors import InputError, OutputError, first_line
from indicifeval.core.files import StagedFiles
from indicifeval.core.secrets import check_env_name, redact_text
from indicifeval.dataset import Row, load_rows, write_hub_layout
from indicifeval.dataset.hub_layout import configs

HUB_FOLDER, PROVENANCE = "hub", "provenance"
NAME = "IndicIFEval"
DEFAULT_LICENSE = "cc-by-4.0"
# a name part (lower case) -> (licence, warning): the engines and corpora this project builds with
KNOWN_LICENCES: dict[str, tuple[str, str | None]] = {
    "sarvam-translate": ("GPL-3.0", None),
    "indictrans2": ("MIT", None),
    "nllb": ("CC-BY-NC-4.0", "NLLB-200 is licensed for non-commercial use only: rows it translated inherit "
                             "that restriction"),
    "m2m100": ("MIT", None),
    "sangraha": ("CC-BY-4.0", None),
}
UNKNOWN_LICENCE = "see the model card"
_REPO = re.compile(r"^[A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*$")


def licence_of(name: str) -> tuple[str, str | None]:
    """(licence, warning) of an engine, model or corpus, by the names this table knows."""
    low = name.lower()
    for part, known in KNOWN_LICENCES.items():
        if part in low:
            return known
    return UNKNOWN_LICENCE, None


def _licence_cell(what: str, name: str) -> str:
    licence = licence_of(name)[0]
    return "see the dataset card" if licence == UNKNOWN_LICENCE and what == "corpus" else licence


def _engines(info: dict[str, Any]) -> dict[tuple[str, str], list[str]]:
    """(what it was used for, name) -> the languages, of every engine, model and corpus the
    release's stages name."""
    found: dict[tuple[str, str], list[str]] = {}

    def add(what: str, name: str, language: str) -> None:
        langs = found.setdefault((what, name), [])
        if language not in langs:
            langs.append(language)

    for build in info.get("builds") or []:
        lang = str(build.get("language"))
        for stage in (build.get("stages") or {}).values():
            params = stage.get("params") or {}
            for engine in (stage.get("engine"), params.get("engine")):
                if isinstance(engine, dict) and engine.get("engine"):
                    add("translation", f"{engine['engine']} {engine.get('model') or ''}".strip(), lang)
            if params.get("corpus"):
                add("corpus", str(params["corpus"]), lang)
            if params.get("model"):
                add("prompt writing", str(params["model"]), lang)
    return found


def _estimate(value: Any) -> str:
    """``0.930 [0.88, 0.97]`` of an agreement estimate ({value, low, high}), ``—`` where undefined."""
    if not isinstance(value, dict):
        return "—" if value is None else str(value)
    if value.get("value") is None:
        return "—"
    interval = f" [{value['low']:.2f}, {value['high']:.2f}]" if value.get("low") is not None else ""
    return f"{value['value']:.3f}{interval}"


def _agreement(info: dict[str, Any]) -> list[str]:
    """The agreement files of the builds (``review agreement``: one row per language and question)
    as one table; figures of another shape as name/value pairs."""
    rows: list[dict[str, Any]] = []
    for build in info.get("builds") or []:
        data = build.get("agreement")
        if isinstance(data, dict) and isinstance(data.get("rows"), list):
            rows += [r for r in data["rows"] if isinstance(r, dict)]
        elif isinstance(data, dict):
            rows.append({"language": build.get("language"), **{k: v for k, v in data.items() if k != "format_version"}})
    if not rows:
        return []
    names = list(dict.fromkeys(k for r in rows for k in r if k not in ("language", "question")))
    return ["Agreement between annotators (value [bootstrap interval]):", "",
            *_table(["language", "question", *names], [[r.get("language", ""), r.get("question", ""),
                                                        *[_estimate(r.get(n)) for n in names]] for r in rows])]


def _front_matter(written_card: str, languages: list[str], dataset_license: str) -> list[str]:
    """The configs exactly as ``write_hub_layout`` declared them, and what the hub lists."""
    lines = written_card.splitlines()
    end = lines.index("---", 1)
    return (["---", *lines[1:end], f"license: {dataset_license}", "language:", *[f"- {c}" for c in languages],
             "task_categories:", "- text-generation", f"pretty_name: {NAME}", "---"])


def _table(header: list[str], rows: list[list[Any]]) -> list[str]:
    return ["| " + " | ".join(header) + " |", "|" + "---|" * len(header),
            *["| " + " | ".join(str(c) for c in row) + " |" for row in rows], ""]


def _card(written_card: str, rows: list[Row], info: dict[str, Any], dataset_license: str,
          manifests: list[str]) -> str:
    names = configs()
    languages = sorted({r.language for r in rows})
    lines = _front_matter(written_card, languages, dataset_license)
    lines += [f"# {NAME}", "", f"Instruction-following prompts in {len(languages)} languages, built and reviewed with "
              f"indicifeval {info.get('indicifeval_version', __version__)}: one config per subset, one split per "
              f"language. Tags say what review found: `correct`/`incorrect`; `gold …` where a person confirmed or "
              f"edited the row, `silver …` where machine output was accepted unreviewed; `parallel` on Trans keys "
              f"correct in every Trans language of the release.", "", "## Splits", ""]
    splits = Counter((r.subset, r.language) for r in rows)
    lines += _table(["config", "split", "rows"], [[names[s], lang, splits[s, lang]] for s in names
                                                  for lang in languages if splits[s, lang]])
    lines += ["## Tags", ""]
    for subset in names:
        tags = Counter((t, r.language) for r in rows if r.subset == subset for t in r.tags)
        langs = sorted({r.language for r in rows if r.subset == subset})
        if langs:
            lines += [f"`{names[subset]}`:", ""]
            lines += _table(["tag", *langs], [[f"`{t}`", *[tags[t, lang] for lang in langs]]
                                              for t in sorted({t for t, _ in tags})])
    lines += ["## Human review", "", "Rows per build split: released = correct + incorrect; dropped (incorrect, "
              "left out), disputed (annotators tied, awaiting adjudication), unreviewed (left out).", ""]
    counts = info.get("counts") or {}
    lines += _table(["language", "subset", *COUNTS], [[lang, s, *[c.get(k, 0) for k in COUNTS]]
                                                      for lang, subsets in sorted(counts.items())
                                                      for s, c in subsets.items()])
    lines += _agreement(info)
    lines += ["## Engines and corpus", ""]
    engines = _engines(info)
    warnings = []
    for _, name in engines:
        warning = licence_of(name)[1]
        if warning and warning not in warnings:
            warnings.append(warning)
    lines += _table(["used for", "name", "languages", "licence"],
                    [[what, f"`{name}`", ", ".join(langs), _licence_cell(what, name)]
                     for (what, name), langs in engines.items()])
    lines += [f"> **Warning:** {w}" for w in warnings] + ([""] if warnings else [])
    listed = ", ".join(f"`{PROVENANCE}/{m}`" for m in manifests)
    lines += ["## Provenance", "", f"`{PROVENANCE}/{RELEASE_INFO}`: the release's counts, options and each stage's "
              f"identity; {listed}: the build folders' manifests.", ""]
    return "\n".join(lines)


def _push(folder: Path, repo_id: str, revision: str | None, api: Any, token_env: str, message: str) -> None:
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


def publish(release_dir: Path, *, push: str | None = None, revision: str | None = None, api: Any = None,
            token_env: str = "HF_TOKEN", dataset_license: str = DEFAULT_LICENSE) -> list[Path]:
    """Write ``release_dir/hub``: the parquet layout, a dataset card and ``provenance/``; with
    ``push`` (owner/name), upload it to that dataset repository in one commit on ``revision``
    (a branch, made if missing; default main). Returns the files written."""
    release_dir = Path(release_dir)
    info_path = release_dir / RELEASE_INFO
    if not info_path.is_file():
        raise InputError(f"not a release folder (no {RELEASE_INFO}: run finalize first)", str(release_dir))
    try:
        info = json.loads(info_path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise InputError(f"unreadable ({first_line(exc)})", str(info_path)) from None
    if not isinstance(info, dict) or info.get("tool") != "release":
        raise InputError("not a release.json written by finalize", str(info_path))
    rows = load_rows(release_dir / RELEASE_ROWS)
    hub = release_dir / HUB_FOLDER
    written = write_hub_layout(hub, rows, NAME)
    manifests = {}
    for build in info.get("builds") or []:
        name = f"{build.get('language')}-{'+'.join(build.get('subsets') or [])}.manifest.json"
        manifests[name] = json.dumps(build.get("manifest") or {}, ensure_ascii=False, indent=2) + "\n"
    card = _card((hub / "README.md").read_text(encoding="utf-8"), rows, info, dataset_license, list(manifests))
    with StagedFiles(hub) as files:
        files.write_text("README.md", card)
        files.write_bytes(f"{PROVENANCE}/{RELEASE_INFO}", info_path.read_bytes())
        for name, text in manifests.items():
            files.write_text(f"{PROVENANCE}/{name}", text)
    written += [hub / n for n in files.names if hub / n not in written]
    keep = set(written)
    old = [p for c in configs().values() for p in (hub / c).glob("*.parquet")] + list((hub / PROVENANCE).glob("*"))
    for path in old:  # what an earlier publish wrote and this one did not: gone, so it is not uploaded
        if path.is_file() and path not in keep:
            path.unlink()
    if push:
        splits = sorted({f"{r.language}/{r.subset}" for r in rows})
        message = f"{NAME} release: {len(rows)} rows ({', '.join(splits)}), indicifeval {__version__}"
        _push(hub, push, revision, api, token_env, message)
    return written


__all__ = ["DEFAULT_LICENSE", "KNOWN_LICENCES", "UNKNOWN_LICENCE", "licence_of", "publish"]
