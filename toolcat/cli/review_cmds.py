"""`toolcat review`: what models will see for every request, written as a folder a reviewer
reads and CI diffs; compared with a baseline; checked against a committed folder."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from toolcat.cli.options import AllowUnsafeOpt, CatalogOpt, JsonOpt, ShapeOpt
from toolcat.providers import PROVIDERS
from toolcat.wording import plural

if TYPE_CHECKING:
    from collections.abc import Callable

    from toolcat.cli.encoding import EncodingBar
    from toolcat.config import Config
    from toolcat.model import Catalog
    from toolcat.review.compare import RequestChange
    from toolcat.review.export import Checked, Written
    from toolcat.review.record import Record
    from toolcat.review.run import Baseline, Setup

# Command modules import the core inside each command, so `toolcat --help` stays fast.

REQUEST_PROVIDERS = [name for name, p in PROVIDERS.items() if p.request]
SHOWN = 20  # changed requests listed on the terminal; changes.md and the page list all


def review(
    catalog: CatalogOpt = None,
    shape: ShapeOpt = None,
    queries: Annotated[Path | None, typer.Option(
        "-q", "--queries", help="The requests: any query file bench reads (.jsonl, .yaml, "
        ".json; TREC qrels with --topics). Default: the example_requests of the tools.",
        show_default=False)] = None,
    topics: Annotated[Path | None, typer.Option(
        "--topics", help="Query texts for a TREC qrels file.", show_default=False)] = None,
    profile: Annotated[list[str] | None, typer.Option(
        "--profile", "-p", help="Agent profile (repeatable: each request under each). "
        "Default: profile: of toolcat.yaml, else a large model with native tool calling.",
        show_default=False)] = None,
    provider: Annotated[list[str] | None, typer.Option(
        "--provider", help="Also write this provider's request payload (repeatable): "
        f"{', '.join(REQUEST_PROVIDERS)}.", show_default=False)] = None,
    output: Annotated[Path | None, typer.Option(
        "-o", "--output", help="The review folder to write: new, empty, or an earlier "
        "review's (marked by toolcat-review.yaml).", show_default=False)] = None,
    baseline: Annotated[str | None, typer.Option(
        "--baseline", help="Compare with this: another catalog, a toolcat.lock, or an "
        "earlier review folder.", show_default=False)] = None,
    check: Annotated[Path | None, typer.Option(
        "--check", help="Render again with the inputs the committed review folder names "
        "and exit 1 when any file differs (snapshot test for prompts).",
        show_default=False)] = None,
    allow_unsafe: AllowUnsafeOpt = False,
    json_: JsonOpt = False,
) -> None:
    """Write, for every request, the system prompt, the provider payloads, the token costs and
    the decision trace (one folder per request) and one self-contained HTML page; with
    --baseline, what changed; with --check, whether a committed review is still true."""
    from dataclasses import replace

    from toolcat.errors import UsageError
    from toolcat.review.folder import read_manifest, relative_input

    if (output is None) == (check is None):
        raise UsageError("give -o DIR to write a review, or --check DIR to check one")
    given: dict[str, Any] = {
        "catalogs": catalog, "shape": shape,
        "queries": str(queries) if queries is not None else None,
        "topics": str(topics) if topics is not None else None,
        "profiles": profile, "providers": provider, "baseline": baseline,
        "allow_unsafe": allow_unsafe or None}
    named_by: set[str] = set()  # inputs the manifest gave, not the command line
    if check is not None:
        from toolcat.resolution.profile_reader import bundled_profiles
        from toolcat.review.folder import manifest_inputs

        manifest = read_manifest(check)
        typed = {k for k, v in given.items() if v is not None}  # these replace the manifest's
        manifest = replace(manifest, inputs={k: v for k, v in manifest.inputs.items()
                                             if k not in typed})
        inputs = manifest_inputs(check, manifest, bundled_profiles())
        named_by = set(inputs)
        inputs.update({k: v for k, v in given.items() if v is not None})
        root = check
    else:
        assert output is not None
        inputs = given
        root = output
        if baseline is not None and Path(baseline).exists() and \
                Path(baseline).resolve() == output.resolve():
            raise UsageError("--baseline is the folder being written; compare with a copy "
                             "(or commit it and use --check)")
    setup, requests, base, bar = _prepare(inputs, root, manifest="profiles" in named_by,
                                          shown=not json_)
    stored = {key: _to_manifest(key, value, root, relative_input)
              for key, value in inputs.items()}
    stored["allow_unsafe"] = bool(inputs.get("allow_unsafe"))
    if check is not None:
        from toolcat.review.export import check_review

        with bar:
            checked = check_review(check, setup, requests, base, stored)
        _print_check(checked, check, json_)
        if not checked.ok:
            raise typer.Exit(1)
        return
    from toolcat.review.export import write_review

    with bar:
        written = write_review(root, setup, requests, base, stored)
    _print_written(written, root, base, json_)


def _to_manifest(key: str, value: Any, root: Path,
                 relative: Callable[[str, Path], str]) -> Any:
    if key in ("catalogs", "profiles") and isinstance(value, list):
        return [relative(str(v), root) for v in value]
    if key in ("queries", "topics", "baseline") and isinstance(value, str):
        return relative(value, root)
    return value


def _prepare(inputs: dict[str, Any], root: Path, *, manifest: bool = False,
             shown: bool = True) -> tuple[Setup, Any, Baseline | None, EncodingBar]:
    """What to review, and the status on stderr (`shown`: unless --json) while the
    profiles' scorers load the embedding model and encode the catalogs, which the setup
    reports to; `manifest`: the profiles come from a review folder's manifest, not from the
    command line, and may not send requests unless trusted (config.trust)."""
    from toolcat.cli import build
    from toolcat.cli.render_cmds import _prefix
    from toolcat.render.renderer import request_provider
    from toolcat.review.folder import relative_input
    from toolcat.review.requests import from_examples, from_query_file
    from toolcat.review.run import Setup

    providers = tuple(dict.fromkeys(inputs.get("providers") or []))
    for name in providers:
        request_provider(name)  # an unknown provider fails before any work
    cfg = build.config()
    allow_unsafe = bool(inputs.get("allow_unsafe"))
    chosen = [_profile(p, cfg, allow_unsafe, root) for p in (inputs.get("profiles") or [None])]
    if manifest:
        from toolcat.config.trust import require_network_trust
        from toolcat.review.folder import MANIFEST

        for spec, made in zip(inputs.get("profiles") or [], chosen, strict=False):
            if made.gateway is not None and made.gateway.api.endpoint:
                require_network_trust(made.gateway.api.endpoint, str(spec),
                                      str(root / MANIFEST))
    shape = inputs.get("shape")
    cat = build.load(inputs.get("catalogs"), shape, cfg=cfg)
    queries = inputs.get("queries")
    topics = inputs.get("topics")
    requests = (from_query_file(Path(queries), Path(topics) if topics else None)
                if queries else from_examples(cat))
    prefix = _prefix()
    bar = build.ranking_bar(chosen, cat, shown=shown)
    setup = Setup(cat, _tuned(chosen, cfg, cat), providers, prefix, progress=bar)
    value = inputs.get("baseline")
    label = relative_input(value, root) if value else None  # the same from any folder
    base = _baseline(value, label, setup, cfg, shape)
    return setup, requests, base, bar


def _profile(option: str | None, cfg: Config, allow_unsafe: bool, root: Path) -> Any:
    """The profile, its source named relative to the review folder: the trace names it, and
    must read the same whichever folder the review was written or checked from."""
    from dataclasses import replace

    from toolcat.cli import build
    from toolcat.review.folder import relative_input

    chosen = build.profile(option, cfg, allow_unsafe=allow_unsafe)
    if chosen.source is None:
        return chosen
    if option is not None and not Path(option).exists():  # a bundled profile, by its name
        return replace(chosen, source=option)
    return replace(chosen, source=relative_input(chosen.source, root))


def _tuned(profiles: list[Any], cfg: Config, cat: Catalog) -> tuple[Any, ...]:
    from toolcat.cli import build

    return tuple((p, build.resolver_tuning(None, cfg, cat, p)) for p in profiles)


def _baseline(value: str | None, label: str | None, setup: Setup, cfg: Config,
              shape: str | None) -> Baseline | None:
    """A review folder (it has a manifest), a lock file (toolcat.lock, *.lock), else a
    catalog; `label` names it in what review writes."""
    if value is None or label is None:
        return None
    from dataclasses import replace

    from toolcat.cli import build
    from toolcat.review.folder import MANIFEST

    path = Path(value)
    if path.is_dir() and (path / MANIFEST).is_file():
        from toolcat.review.export import folder_baseline

        return folder_baseline(path, label)
    if path.is_file() and path.suffix == ".lock":
        from toolcat.pin.lock import read_lock
        from toolcat.review.run import LockBaseline

        return LockBaseline(read_lock(path).pins, label)
    from toolcat.review.run import CatalogBaseline

    old = build.load([value], shape, cfg=cfg)
    profiles = _tuned([p for p, _ in setup.profiles], cfg, old)
    return CatalogBaseline(replace(setup, catalog=old, profiles=profiles), label)


# ---- output -----------------------------------------------------------------------------------


def _print_written(written: Written, root: Path, base: Baseline | None, json_: bool) -> None:
    from toolcat.cli.output import print_json, say_written
    from toolcat.review.summary import short_line

    changed = sorted(((r, c) for r, c in written.entries if c is not None and c.kind != "same"),
                     key=lambda e: tuple(-x for x in e[1].affected))
    if json_:
        print_json({"folder": str(root), "records": len(written.entries),
                    "baseline": base.label if base else None,
                    "changed": [_change_json(r, c) for r, c in changed],
                    "files": len(written.files), "removed": list(written.removed)})
        return
    records = len(written.entries)
    say_written(f"wrote the review of {plural(records, 'request')} to {root} "
                f"(open {root / 'index.html'})")
    if written.removed:
        say_written(f"  removed {plural(len(written.removed), 'file')} of requests no longer "
                    "in the review")
    if base is None:
        return
    say_written(f"  {len(changed):,} of {records:,} changed against {base.label}"
                + (" (changes.md lists them)" if changed else ""))
    for record, change in changed[:SHOWN]:
        say_written("  " + short_line(record, change))
    if len(changed) > SHOWN:
        say_written(f"  … and {len(changed) - SHOWN:,} more")


def _change_json(record: Record, change: RequestChange) -> dict[str, Any]:
    from toolcat.review.summary import redefined_lines

    return {"id": record.request.id, "profile": record.profile, "folder": record.folder,
            "kind": change.kind,
            "joined": [m.tool for m in change.joined], "left": [m.tool for m in change.left],
            "redefined": [{"tool": r.tool, "changes": redefined_lines(r)}
                          for r in change.redefined],
            "tokens": [{"target": d.target, "old": d.old, "new": d.new} for d in change.tokens],
            "prompt": change.prompt, "payloads": list(change.payloads)}


def _print_check(checked: Checked, root: Path, json_: bool) -> None:
    from toolcat.cli.output import console, print_json
    from toolcat.review.summary import short_line

    if json_:
        print_json({"folder": str(root), "ok": checked.ok, "records": checked.records,
                    "stale": [{"folder": s.folder, "files": list(s.files),
                               "summary": short_line(s.record, s.change)
                               if s.record and s.change else None} for s in checked.stale],
                    "files": list(checked.files), "gone": list(checked.gone)})
        return
    if checked.ok:
        console.print(f"{root}: up to date ({plural(checked.records, 'request')})",
                      markup=False, soft_wrap=True)
        return
    console.print(f"{root}: {len(checked.stale):,} of {plural(checked.records, 'request')} "
                  "differ from the committed review", markup=False, soft_wrap=True)
    for stale in checked.stale:
        line = short_line(stale.record, stale.change) if stale.record and stale.change \
            else stale.folder
        console.print(f"  {line} [{', '.join(stale.files)}]", markup=False, soft_wrap=True)
    for folder in checked.gone:
        console.print(f"  {folder}: no longer made (its request or profile is gone)",
                      markup=False, soft_wrap=True)
    if checked.files:
        console.print(f"  also differ: {', '.join(checked.files)}", markup=False,
                      soft_wrap=True)
    console.print(f"to accept the change: toolcat review -o {root} with the same inputs, "
                  "then commit the folder", markup=False, soft_wrap=True)
