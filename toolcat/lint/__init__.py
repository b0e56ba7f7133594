"""Lint: rules that find broken, unportable, confusing and poisoned tool definitions.

`lint_catalog(catalog, settings)` (toolcat.lint.engine) runs the rules of `RULES`
(toolcat.lint.rules) and returns a LintReport; `toolcat.lint.report` turns it into JSON,
SARIF or GitHub annotations. Import from the modules: this package re-exports nothing.

Imports only rooms below it (search, catalog, pin, providers, config, source, languages); see
docs/architecture.md.
"""
