"""The dataset card of a published release: what is in it (splits, tags, review counts,
agreement), how its relations read, what made it (engines, corpus by name and hash) and under
which licence. Numbers are rounded here, for people; the files beside it keep them whole."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from indicifeval._version import __version__
from indicifeval.builder.licences import SOURCE_LICENCE, UNKNOWN_LICENCE, Decision, licence_lines, licence_of
from indicifeval.builder.release.finalize import COUNTS, RELEASE_INFO
from indicifeval.dataset import Row
from indicifeval.dataset.hub_layout import configs

NAME = "IndicIFEval"
PROVENANCE = "provenance"
STATISTICS = "statistics.json"  # `indicifeval stats --json` of the published rows, in provenance/


def _table(header: list[str], rows: list[list[Any]]) -> list[str]:
    return ["| " + " | ".join(header) + " |", "|" + "---|" * len(header),
            *["| " + " | ".join(str(c) for c in row) + " |" for row in rows], ""]


def _model_name(value: Any) -> str:
    """A model as the card names it: ``backend model`` of an identity, the name itself otherwise."""
    if isinstance(value, dict):
        return " ".join(str(value[k]) for k in ("backend", "engine", "transport", "model") if value.get(k))
    return str(value)


def _engines(info: dict[str, Any]) -> dict[tuple[str, str], list[str]]:
    """(what it was used for, name) -> the languages, of every engine and model the release's
    stages name."""
    found: dict[tuple[str, str], list[str]] = {}

    def add(what: str, name: str, language: str) -> None:
        langs = found.setdefault((what, name), [])
        if language not in langs:
            langs.append(language)

    for build in info.get("builds") or []:
        lang = str(build.get("language"))
        for name, stage in (build.get("stages") or {}).items():
            params = stage.get("params") or {}
            model = stage.get("model")
            if isinstance(model, dict) and model.get("backend"):
                add("prompt writing" if name in ("generate", "rows") else "translation", _model_name(model), lang)
            # a release finalized by 0.1.0: the translator as "engine", the prompt writer as a parameter
            for engine in (stage.get("engine"), params.get("engine")):
                if isinstance(engine, dict) and engine.get("engine"):
                    add("translation", f"{engine['engine']} {engine.get('model') or ''}".strip(), lang)
            if params.get("model"):
                add("prompt writing", _model_name(params["model"]), lang)
    return found


def _corpora(info: dict[str, Any], decision: Decision) -> list[list[str]]:
    """One table row per corpus: its name, what pins it (revision, sha256), languages, licence."""
    decided = {c["language"]: c["license"] for c in decision.corpora}
    rows: dict[tuple[str, str, str], list[str]] = {}
    for build in info.get("builds") or []:
        ref, language = build.get("corpus"), str(build.get("language"))
        if not isinstance(ref, dict):
            continue
        pins = [f"revision `{ref['revision']}`" if ref.get("revision") else "",
                f"sha256 `{ref['sha256']}`" + (f" ({ref['files']} files)" if ref.get("files") else "")
                if ref.get("sha256") else ""]
        known = licence_of(str(ref.get("name")))[0]
        licence = decided.get(language) or ref.get("license") or (known if known != UNKNOWN_LICENCE else "not recorded")
        rows.setdefault((str(ref.get("name")), "; ".join(p for p in pins if p) or "—", licence), []).append(language)
    return [["corpus", f"`{name}`", pins, ", ".join(langs), licence] for (name, pins, licence), langs in rows.items()]


def _estimate(value: Any) -> str:
    """``0.930 [0.88, 0.97]`` of an agreement estimate ({value, low, high}), ``—`` where undefined."""
    if not isinstance(value, dict):
        return "—" if value is None else (f"{value:.3f}" if isinstance(value, float) else str(value))
    if value.get("value") is None:
        return "—"
    interval = f" [{value['low']:.2f}, {value['high']:.2f}]" if value.get("low") is not None else ""
    return f"{value['value']:.3f}{interval}"


def _agreement(info: dict[str, Any]) -> list[str]:
    """The agreement files of the builds (``review agreement``: one row per language and question)
    as one table; figures of another shape as name/value pairs."""
    rows: list[dict[str, Any]] = []
    for build in info.get("builds") or []:  # each build's rows, its "all" (pooled) rows among them
        data = build.get("agreement")
        folder = {"build": build.get("folder") or build.get("language") or ""}
        if isinstance(data, dict) and isinstance(data.get("rows"), list):
            rows += [{**folder, **r} for r in data["rows"] if isinstance(r, dict)]
        elif isinstance(data, dict):
            rows.append({**folder, "language": build.get("language"),
                         **{k: v for k, v in data.items() if k != "format_version"}})
    if not rows:
        return []
    names = list(dict.fromkeys(k for r in rows for k in r if k not in ("build", "language", "question")))
    return ["Agreement between annotators, per build folder (value [bootstrap interval], rounded; language `all` "
            "pools a build's languages; `provenance/release.json` has them whole):", "",
            *_table(["build", "language", "question", *names],
                    [[r["build"], r.get("language", ""), r.get("question", ""), *[_estimate(r.get(n)) for n in names]]
                     for r in rows])]


def _trans_source(info: dict[str, Any]) -> str | None:
    """The licence section's line on the Trans rows' English prompts, from what finalize
    recorded per language (``builder.trans.attribution``); None: not recorded (an older release)."""
    found = info.get("trans_source")
    if not isinstance(found, dict) or not found:
        return None
    ifeval = f"google-research IFEval's prompts (google-research/instruction_following_eval, {SOURCE_LICENCE})"
    parts = []
    groups: dict[str, list[str]] = {}
    for lang, facts in sorted(found.items()):
        if not isinstance(facts, dict):
            groups.setdefault("English prompts whose source the build did not keep", []).append(lang)
            continue
        n, differ, how = facts.get("prompts"), facts.get("differ_from_ifeval"), facts.get("how")
        what = (f"the IndicIFEval authors' {n} localised English prompts (AI4Bharat/IndicIFEval, the hub's `en` "
                f"split, CC BY 4.0), adapted from {ifeval}" if facts.get("authors") else
                f"{n} English prompts that are not the authors' localised set, compared with {ifeval}")
        count = (f"{differ} of the {n} differ from IFEval's prompt of the same key ({how})" if differ is not None
                 else "how many differ from IFEval's prompts was not computed (`build finalize --ifeval`)")
        groups.setdefault(f"{what}: {count}", []).append(lang)
    for text, langs in groups.items():
        parts.append(f"Trans rows in {', '.join(f'`{lang}`' for lang in langs)} translate {text}")
    return "- " + "; ".join(parts) + ". IFEval's licence permits this licence."


def _front_matter(written_card: str, languages: list[str], dataset_license: str, pretty_name: str) -> list[str]:
    """The configs exactly as ``write_hub_layout`` declared them, and what the hub lists."""
    lines = written_card.splitlines()
    end = lines.index("---", 1)
    return (["---", *lines[1:end], f"license: {dataset_license}", "language:", *[f"- {c}" for c in languages],
             "task_categories:", "- text-generation", f"pretty_name: {pretty_name}", "---"])


def card(written_card: str, rows: list[Row], info: dict[str, Any], decision: Decision, manifests: list[str], *,
         relation_lines: Sequence[str], pretty_name: str = NAME, statistics: Sequence[str] = ()) -> str:
    """The card: ``written_card`` is the one ``write_hub_layout`` wrote (its configs are kept);
    ``statistics``: lines of the statistics section (``indicifeval.dataset.stats``), after the tags."""
    names = configs()
    languages = sorted({r.language for r in rows})
    lines = _front_matter(written_card, languages, decision.licence, pretty_name)
    lines += [f"# {pretty_name}", "", f"Instruction-following prompts in {len(languages)} "
              f"language{'' if len(languages) == 1 else 's'}, built and "
              f"reviewed with indicifeval {info.get('indicifeval_version', __version__)}: one config per subset, "
              f"one split per language. Tags say what review found, as in the published IndicIFEval rows: Trans rows "
              f"are tagged `correct` or `incorrect`, Ground rows `incorrect` only where review refused one that was "
              f"kept; `gold …` where a person confirmed or edited the row, `silver …` where machine output was "
              f"accepted unreviewed; `parallel` on Trans keys correct in every Trans language of the release. Ground "
              f"rows also carry their style (e.g. `Poem`).", "", "## Splits", ""]
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
    lines += list(statistics)
    lines += list(relation_lines)
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
    lines += _table(["used for", "name", "reference", "languages", "licence"],
                    [[what, f"`{name}`", "—", ", ".join(langs), licence_of(name)[0]]
                     for (what, name), langs in engines.items()] + _corpora(info, decision))
    lines += [f"> **Warning:** {w}" for w in warnings] + ([""] if warnings else [])
    lines += ["## Licence", ""]
    lines += licence_lines(decision, any(r.subset == "trans" for r in rows), any(r.subset == "ground" for r in rows),
                           _trans_source(info))
    listed = ", ".join(f"`{PROVENANCE}/{m}`" for m in manifests)
    lines += ["## Provenance", "", f"`{PROVENANCE}/{STATISTICS}`: the statistics above in full (`indicifeval "
              f"stats --json`); `{PROVENANCE}/{RELEASE_INFO}`: the release's counts, options and each stage's "
              f"identity; {listed}: the build folders' manifests. Files and folders are named relative to their "
              f"build folder, or by their name and sha256; no path of the building machine is kept.", ""]
    return "\n".join(lines)


__all__ = ["NAME", "PROVENANCE", "STATISTICS", "card"]
