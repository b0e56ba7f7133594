"""Reading catalogs: files, shape detection, positions, `$ref` resolution, merging.

Import from the modules (`toolcat.catalog.load`, ...): this package re-exports nothing, so
that providers can use `toolcat.source.positions` without import cycles.
"""
