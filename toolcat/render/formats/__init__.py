"""Prompt formats, one module each. FORMATS maps the name a user types to its PromptFormat."""

from __future__ import annotations

from toolcat.errors import UsageError
from toolcat.render.formats import code, hermes, json_calls, mistral, native, pythonic
from toolcat.render.formats.contract import PromptFormat

FORMATS: dict[str, PromptFormat] = {
    module.FORMAT.name: module.FORMAT
    for module in (native, hermes, mistral, pythonic, json_calls, code)
}
TEXT_PARSERS: tuple[str, ...] = tuple(name for name, f in FORMATS.items() if f.parse)


def get_format(name: str) -> PromptFormat:
    try:
        return FORMATS[name]
    except KeyError:
        raise UsageError(f"unknown format '{name}'; known: {', '.join(FORMATS)}") from None
