"""Which rules run, at which severity, with which options and targets; read from the `lint:`
section of toolcat.yaml (or `[tool.toolcat.lint]` of pyproject.toml) and from options.

    lint:
      select: [ALL]              # rule ids, id prefixes (TC3) or rule names; default ALL
      ignore: [TC302]            # same forms; wins over select
      severity: {TC204: error}   # error | warning | info, by id, prefix or name
      targets: [openai, gemini]  # provider rules for these targets (or: all)
      options: {max_server_tools: 60}
      baseline: toolcat-baseline.yaml   # findings accepted on review (see lint/baseline.py)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from toolcat.config import Config
from toolcat.config.trust import SECURITY_RULES, check_owned
from toolcat.errors import ConfigError, UsageError
from toolcat.lint.findings import SEVERITIES, Rule, Severity
from toolcat.lint.rules import RULES
from toolcat.lint.targets import get_targets
from toolcat.model import SourceRef
from toolcat.providers.names import PrefixPolicy, prefix_setting
from toolcat.source.fields import FieldReader

KEYS = ("select", "ignore", "severity", "targets", "options", "baseline")
FILE_OPTIONS = frozenset({"lockfile"})  # options that name a file


def rule_matches(pattern: str, rule: Rule) -> bool:
    """Whether `pattern` names `rule`: ALL, its id, a prefix of its id (TC3), or its name."""
    pattern = pattern.strip()
    return (pattern.upper() == "ALL" or rule.name == pattern
            or (rule.id.startswith(pattern.upper()) and len(pattern) >= 3))


def default_options() -> dict[str, Any]:
    """Every rule option with its default value."""
    return {name: value for rule in RULES.values() for name, value in rule.options.items()}


@dataclass(frozen=True)
class LintSettings:
    """Validated lint settings. Build with `from_mapping` (config) and `with_overrides` (CLI)."""

    select: tuple[str, ...] = ("ALL",)
    ignore: tuple[str, ...] = ()
    severity: Mapping[str, Severity] = field(default_factory=dict)
    targets: tuple[str, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    baseline: str | None = None  # a baseline file (toolcat.lint.baseline)
    # toolcat.yaml's `names: {prefix: ...}`: which names render sends with their server
    # (what TC202 says a rejected name is sent as)
    prefix: PrefixPolicy = "collisions"

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], read: FieldReader | None = None,
                     at: str = "/lint") -> LintSettings:
        """Settings from a `lint:` config mapping; a wrong key or value is a ConfigError, at
        the setting's own place in the file `read` reads (`at` is the mapping's pointer)."""
        def fail(message: str, pointer: str = "", *, key: bool = False) -> ConfigError:
            if read is None:
                return ConfigError(f"lint: {message}")
            return read.error(at + pointer, f"lint: {message}", key=key)

        unknown = sorted(set(data) - set(KEYS))
        if unknown:
            raise fail(f"unknown setting {', '.join(map(repr, unknown))}; known: "
                       f"{', '.join(KEYS)}", f"/{unknown[0]}", key=True)
        names: dict[str, tuple[str, ...]] = {}
        for key in ("select", "ignore", "targets"):
            if key in data:
                value = data[key]
                if isinstance(value, str):
                    value = [value]
                if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                    raise fail(f"'{key}' must be a list of names", f"/{key}")
                names[key] = tuple(value)
        severity = data.get("severity", {})
        if not isinstance(severity, dict):
            raise fail("'severity' must map rule ids to error, warning or info", "/severity")
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise fail("'options' must be a mapping of option names to values", "/options")
        baseline = data.get("baseline")
        if baseline is not None and not (isinstance(baseline, str) and baseline):
            raise fail("'baseline' must be the path of a baseline file", "/baseline")
        # each name and value checked alone first, so an error names its own line
        alone: list[tuple[str, dict[str, Any]]] = [
            *((f"/{key}/{i}" if isinstance(data[key], list) else f"/{key}",
               {key: (name,)}) for key, listed in names.items()
              for i, name in enumerate(listed)),
            *((f"/severity/{rule}", {"severity": {rule: level}})
              for rule, level in severity.items()),
            *((f"/options/{name}", {"options": {name: value}})
              for name, value in options.items()),
        ]
        for pointer, field_value in alone:
            try:
                replace(cls(), **field_value).validate()
            except UsageError as exc:
                raise fail(exc.message, pointer) from None
        settings = cls()
        settings = replace(settings, select=names.get("select", settings.select),
                           ignore=names.get("ignore", settings.ignore),
                           targets=names.get("targets", settings.targets),
                           severity=dict(severity), options=dict(options), baseline=baseline)
        try:
            settings.validate()
        except UsageError as exc:
            raise fail(exc.message) from None
        return settings

    def with_overrides(self, *, select: Iterable[str] = (), ignore: Iterable[str] = (),
                       targets: Iterable[str] = (), baseline: str | None = None
                       ) -> LintSettings:
        """Command-line choices: `select`, `targets` and `baseline` replace, `ignore` adds."""
        select, ignore, targets = _split(select), _split(ignore), _split(targets)
        updated = replace(
            self,
            select=select or self.select,
            ignore=self.ignore + ignore,
            targets=targets or self.targets,
            baseline=baseline or self.baseline,
        )
        updated.validate()
        return updated

    def with_lock(self, path: Path) -> LintSettings:
        """These settings comparing the catalog with the lock file at `path` too (TC604).

        Raises:
            UsageError: the settings ignore TC604, which `--locked` asks for.
        """
        rule = RULES["TC604"]
        if any(rule_matches(pattern, rule) for pattern in self.ignore):
            raise UsageError(f"--locked, but the lint settings ignore {rule.id} ({rule.name})")
        select = self.select if rule in self.active_rules() else (*self.select, rule.id)
        return replace(self, select=select, options={**self.options, "lockfile": str(path)})

    def validate(self) -> None:
        """Raise a UsageError naming the first unknown rule, severity, target or option."""
        for pattern in (*self.select, *self.ignore, *self.severity):
            if not any(rule_matches(pattern, rule) for rule in RULES.values()):
                raise UsageError(f"unknown rule '{pattern}'; known: ALL, "
                                 f"{', '.join(RULES)} (or their names, or a prefix like TC3)")
        for pattern, level in self.severity.items():
            if level not in SEVERITIES:
                raise UsageError(f"severity of {pattern} must be one of "
                                 f"{', '.join(SEVERITIES)}, not {level!r}")
        get_targets(self.targets)  # a UsageError naming an unknown target
        defaults = default_options()
        for name, value in self.options.items():
            if name not in defaults:
                raise UsageError(f"unknown option '{name}'; known: "
                                 f"{', '.join(sorted(defaults))}")
            expected = defaults[name]
            if isinstance(expected, bool) or isinstance(value, bool):
                ok = isinstance(value, bool) and isinstance(expected, bool)
            elif isinstance(expected, (int, float)):
                ok = isinstance(value, (int, float)) and value > 0 and (
                    isinstance(value, int) or isinstance(expected, float))
            else:
                ok = isinstance(value, type(expected))
            if not ok:
                kind = "a positive whole number" if isinstance(expected, int) else (
                    "a positive number" if isinstance(expected, float) else
                    type(expected).__name__)
                raise UsageError(f"option '{name}' must be {kind}, not {value!r}")

    def active_rules(self) -> list[Rule]:
        """The rules that run, in id order."""
        return [rule for rule in RULES.values()
                if any(rule_matches(p, rule) for p in self.select)
                and not any(rule_matches(p, rule) for p in self.ignore)]

    def severity_of(self, rule: Rule) -> Severity:
        """The severity in force: the most specific override (an id or name over a prefix)."""
        matching = [(p, level) for p, level in self.severity.items() if rule_matches(p, rule)]
        if not matching:
            return rule.severity
        exact = [level for p, level in matching if p in (rule.id, rule.name)]
        if exact:
            return exact[-1]
        return max(matching, key=lambda item: len(item[0]))[1]

    def all_options(self) -> dict[str, Any]:
        return {**default_options(), **self.options}


def _split(values: Iterable[str]) -> tuple[str, ...]:
    """`--select TC1,TC2 --select TC3` as ("TC1", "TC2", "TC3")."""
    return tuple(part.strip() for value in values for part in value.split(",") if part.strip())


def settings_from_config(config: Config) -> LintSettings:
    """The `lint:` section of a configuration file as LintSettings (defaults without one).
    A relative path in a file option is relative to the configuration file's folder. The
    security rules run whatever the file selects (config.trust).

    Raises:
        ConfigError: a setting is invalid, would silence a security rule, or names a file
            that is not the user's (config.trust.check_owned).
    """
    where = SourceRef(str(config.path)) if config.path else None
    read = config.reader() if config.path else None
    settings = replace(LintSettings.from_mapping(config.section("lint"), read),
                       prefix=prefix_setting(config.section("names"), read))
    if config.path is None:
        return settings
    settings = _security_kept(settings, where)
    options = {name: str(config.path.parent / value)
               if name in FILE_OPTIONS and value and not Path(value).is_absolute() else value
               for name, value in settings.options.items()}
    for name in FILE_OPTIONS & set(options):
        if options[name]:
            check_owned(Path(options[name]), f"the lint option {name}", where)
    baseline = settings.baseline
    if baseline and not Path(baseline).is_absolute():
        baseline = str(config.path.parent / baseline)
    if baseline:
        check_owned(Path(baseline), "the lint baseline", where)
    return replace(settings, options=options, baseline=baseline)


def _security_kept(settings: LintSettings, where: SourceRef | None) -> LintSettings:
    """A configuration file's settings with every security rule selected; ignoring one, or
    lowering its severity, is a ConfigError: a repository's file must not hide what its own
    catalog does to the user (reviewed findings go in a baseline, one by one)."""
    security = [rule for rule in RULES.values() if rule.id.startswith(SECURITY_RULES)]
    advice = ("a configuration file cannot silence security rules; accept reviewed findings "
              "in a baseline (toolcat lint --write-baseline) or pass --ignore on the command "
              "line")
    for pattern in settings.ignore:
        hit = next((rule for rule in security if rule_matches(pattern, rule)), None)
        if hit:
            raise ConfigError(f"lint: ignore: '{pattern}' would turn off {hit.id} ({hit.name}); "
                              f"{advice}", where=where)
    rank = {level: i for i, level in enumerate(SEVERITIES)}
    for pattern, level in settings.severity.items():
        hit = next((rule for rule in security if rule_matches(pattern, rule)
                    and rank[level] > rank[rule.severity]), None)
        if hit:
            raise ConfigError(f"lint: severity: '{pattern}: {level}' would lower {hit.id} "
                              f"({hit.name}) below {hit.severity}; {advice}", where=where)
    missing = tuple(rule.id for rule in security
                    if not any(rule_matches(p, rule) for p in settings.select))
    return replace(settings, select=settings.select + missing) if missing else settings
