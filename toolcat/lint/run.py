"""One lint run of a project, as `toolcat lint` does it: the settings from toolcat.yaml and the
command line, the lint, and what to tell the user beside the report.

The CLI calls `settings_for` once, then `run_lint` (or `accept_all` to write a baseline), and
prints what the returned values hold.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from toolcat.config import Config
from toolcat.lint.baseline import dump_baseline
from toolcat.lint.collector import paused
from toolcat.lint.engine import lint_catalog
from toolcat.lint.findings import LintReport
from toolcat.lint.report import REPORTERS
from toolcat.lint.settings import LintSettings, settings_from_config
from toolcat.model import Catalog
from toolcat.pin.lock import default_lock_path
from toolcat.wording import plural


@dataclass(frozen=True)
class LintRequest:
    """What the command line asks of a lint run, over the configuration's `lint:` section."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    targets: tuple[str, ...] = ()
    baseline: str | None = None
    locked: bool = False  # compare with the project's lock file (TC604)
    lockfile: Path | None = None  # ... or with this one


@dataclass(frozen=True)
class LintRun:
    """A lint's report and the notes that go beside it."""

    report: LintReport
    notes: tuple[str, ...] = ()

    def text(self, fmt: str, *, strict: bool = False) -> str:
        """The report in the reporter format `fmt` (lint.report.REPORTERS), written with the
        cyclic collector paused as the lint was (`collector`): the findings of 43,000 tools
        are hundreds of thousands of containers, none in a cycle."""
        with paused():
            return REPORTERS[fmt](self.report, strict=strict)


def _tuple(values: Iterable[str] | None) -> tuple[str, ...]:
    return tuple(values or ())


def lint_request(*, select: Iterable[str] | None = None, ignore: Iterable[str] | None = None,
                 targets: Iterable[str] | None = None, baseline: str | Path | None = None,
                 locked: bool = False, lockfile: Path | None = None) -> LintRequest:
    """A LintRequest from the command line's options (None: not given)."""
    return LintRequest(_tuple(select), _tuple(ignore), _tuple(targets),
                       str(baseline) if baseline else None, locked, lockfile)


def settings_for(config: Config, request: LintRequest, cwd: Path) -> LintSettings:
    """The configuration's lint settings with the request's choices on top; with `locked`
    (or a `lockfile`), comparing with the lock file too (default: the project's, found from
    `cwd` when there is no configuration file).

    Raises:
        ConfigError: the configuration's `lint:` section is invalid.
        UsageError: a choice names an unknown rule or target, or contradicts the settings.
    """
    settings = settings_from_config(config).with_overrides(
        select=request.select, ignore=request.ignore, targets=request.targets,
        baseline=request.baseline)
    if request.locked or request.lockfile:
        settings = settings.with_lock(request.lockfile or default_lock_path(config.path, cwd))
    return settings


def run_lint(catalog: Catalog, settings: LintSettings) -> LintRun:
    """Lint `catalog` (loaded leniently) with `settings`, noting baseline entries that
    matched nothing."""
    report = lint_catalog(catalog, settings)
    notes: tuple[str, ...] = ()
    if report.stale:
        notes = (f"{plural(report.stale, 'baseline entry', 'baseline entries')} in "
                 f"{report.baseline} matched nothing (the text changed or the tool is gone); "
                 f"--write-baseline rewrites the file",)
    return LintRun(report, notes)


def accept_all(catalog: Catalog, settings: LintSettings, path: Path) -> tuple[str, str]:
    """(the text of a baseline accepting every finding of a lint without a baseline, the note
    that says so) for the baseline file `path`."""
    report = lint_catalog(catalog, replace(settings, baseline=None))
    note = (f"accepted {plural(len(report.findings), 'finding')} in {path}; lint with "
            f"--baseline {path} (or `lint: baseline:` in toolcat.yaml) to leave them out")
    return dump_baseline(report), note
