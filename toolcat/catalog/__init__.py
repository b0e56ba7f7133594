"""Reading catalogs: files, shape detection, positions, `$ref` resolution, merging."""

from toolcat.catalog.convert import Converted, convert, to_text
from toolcat.catalog.load import expand_sources, load_catalog

__all__ = ["Converted", "convert", "expand_sources", "load_catalog", "to_text"]
