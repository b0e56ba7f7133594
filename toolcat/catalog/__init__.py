"""Catalogs: shape detection, canonical tools from every shape (`load`), merging several
files, `convert` to another shape, and the catalog a command works on (`project`).

Import from the modules (`toolcat.catalog.load`, ...): this package re-exports nothing.

Imports only rooms below it (define, providers, config, source); see docs/architecture.md.
"""
