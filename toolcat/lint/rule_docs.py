"""docs/lint-rules.md, generated from the rule registry, so the page cannot drift from the rules.

    python -m toolcat.lint.rule_docs > docs/lint-rules.md     # write the page
    python -m toolcat.lint.rule_docs --check docs/lint-rules.md   # exit 1 when it differs

Everything on the page comes from each `Rule`: id, name, severity, family, scope, the docstring
(summary and explanation), options, the settings its examples are linted with, and the bad and
good example catalogs that the test suite lints.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

import yaml

from toolcat.lint.findings import FAMILIES, Rule

COMMAND = "python -m toolcat.lint.rule_docs > docs/lint-rules.md"


def anchor(rule: Rule) -> str:
    """The GitHub anchor of the rule's heading `## TC101 `invalid-schema``."""
    return f"{rule.id.lower()}-{rule.name}"


def rule_docs(rules: Iterable[Rule] | None = None) -> str:
    """The Markdown of docs/lint-rules.md for `rules` (default: every registered rule)."""
    if rules is None:
        from toolcat.lint.rules import RULES

        rules = RULES.values()
    chosen = list(rules)
    lines = [
        "# Lint rules",
        "",
        f"<!-- Generated from toolcat/lint/rules by `{COMMAND}`; do not edit by hand. -->",
        "",
        "Every rule `toolcat lint` runs, generated from the rule registry. How to select,",
        "ignore, re-grade and silence rules, targets, output formats and CI: [lint.md](lint.md).",
        "`toolcat rules ID` prints one of these entries in the terminal.",
        "",
        "Families: " + ", ".join(f"{prefix}xx {name}" for prefix, name in FAMILIES.items())
        + ". Rules marked *target* run only with `--target`.",
        "",
        "| id | name | severity | summary |",
        "|---|---|---|---|",
    ]
    for rule in chosen:
        target = " *target*" if rule.needs_target else ""
        lines.append(f"| [{rule.id}](#{anchor(rule)}) | `{rule.name}` | {rule.severity}"
                     f"{target} | {_cell(rule.summary)} |")
    for rule in chosen:
        lines += ["", *_entry(rule)]
    return "\n".join(lines) + "\n"


def _entry(rule: Rule) -> list[str]:
    checks = "each tool" if rule.scope == "tool" else "the whole catalog"
    facts = f"Severity **{rule.severity}** by default · {rule.family} · checks {checks}"
    if rule.needs_target:
        facts += " · runs only with `--target`"
    lines = [f"## {rule.id} `{rule.name}`", "", facts + ".", "", f"**{rule.summary}**"]
    for paragraph in rule.explanation.split("\n\n"):
        if paragraph:
            lines += ["", paragraph]
    if rule.options:
        lines += ["", "Options (`lint: options:` in toolcat.yaml), with their defaults:", ""]
        lines += [f"- `{name}`: `{default}`" if default != "" else f"- `{name}`: not set"
                  for name, default in rule.options.items()]
    if rule.example_settings:
        settings = yaml.safe_dump({"lint": dict(rule.example_settings)},
                                  default_flow_style=None, sort_keys=False).strip()
        lines += ["", "The examples are linted with these settings:", "", "```yaml",
                  settings, "```"]
    for title, example in (("Bad", rule.bad), ("Good", rule.good)):
        lines += ["", f"{title}:", "", "```yaml", example.rstrip("\n"), "```"]
    return lines


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    text = rule_docs()
    if not args:
        sys.stdout.write(text)
        return 0
    if len(args) == 2 and args[0] == "--check":
        path = Path(args[1])
        if path.is_file() and path.read_text(encoding="utf-8") == text:
            return 0
        sys.stderr.write(f"{path} is not what the rule registry generates; run: {COMMAND}\n")
        return 1
    sys.stderr.write("usage: python -m toolcat.lint.rule_docs [--check FILE]\n")
    return 2


if __name__ == "__main__":
    sys.exit(main())
