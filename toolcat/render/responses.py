"""Reading a model's reply in the shape it was rendered for: the tool calls of a provider
response, or of a text completion in one of the prompt formats, checked against the catalog
with the names render gave the tools mapped back."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace
from pathlib import Path

from toolcat.calls.check import CallChecker, CallReport
from toolcat.errors import ResponseError, UsageError
from toolcat.model import Catalog, SourceRef, ToolCall
from toolcat.providers import PROVIDERS
from toolcat.providers.names import ANY_NAME, NameMap, PrefixPolicy, name_map
from toolcat.render.formats import FORMATS, TEXT_PARSERS
from toolcat.source.files import parse_file, read_text
from toolcat.source.limits import MAX_DEPTH


def read_calls(path: Path, *, provider: str | None = None,
               fmt: str | None = None) -> list[ToolCall]:
    """The calls in a provider response file (`provider`) or a text completion (`fmt`), with
    the line and column where each starts.

    Raises:
        UsageError: neither or both of provider and fmt, or an unknown one.
        CatalogError: the file cannot be read or is not valid JSON/YAML.
        ResponseError: the response is not of the provider's shape.
    """
    if (provider is None) == (fmt is None):
        raise UsageError("say how to read the response: --provider for a provider response, "
                         "or --format for a text completion")
    if fmt is not None:
        parse = FORMATS[fmt].parse if fmt in FORMATS else None
        if parse is None:
            raise UsageError(f"format '{fmt}' has no completion parser; known: "
                             f"{', '.join(TEXT_PARSERS)}")
        try:
            return parse(read_text(path))
        except RecursionError:  # a JSON value in the text nested past what the decoder follows
            raise ResponseError(f"a tool call in the completion is nested deeper than "
                                f"{MAX_DEPTH} levels", where=SourceRef(str(path))) from None
    target = PROVIDERS.get(str(provider))
    if target is None or target.parse_calls is None:
        known = ", ".join(n for n, p in PROVIDERS.items() if p.parse_calls)
        raise UsageError(f"unknown provider '{provider}'; known: {known}")
    parsed = parse_file(path)
    try:
        calls = target.parse_calls(parsed.data)
    except ResponseError as exc:
        raise ResponseError(exc.message, where=SourceRef(str(path))) from None
    located = []
    for call in calls:
        line, column = parsed.index.locate(call.pointer)
        located.append(replace(call, line=line, column=column))
    return located


def wire_names(catalog: Catalog, provider: str | None,
               prefix: PrefixPolicy = "collisions") -> NameMap:
    """The names render gives the catalog's tools for `provider` (or for a text prompt)."""
    known = PROVIDERS.get(provider) if provider else None
    return name_map(catalog.tools, known.limits.names if known else ANY_NAME, prefix)


def check_response(catalog: Catalog, path: Path, *, provider: str | None = None,
                   fmt: str | None = None, checker: CallChecker | None = None,
                   prefix: PrefixPolicy = "collisions", offered: Collection[str] | None = None,
                   offered_from: str = "") -> CallReport:
    """Read the calls of a response or completion file and check each against `catalog`,
    mapping the names render changed back to their tools; with `offered` (qualified names),
    a call to a tool outside it is refused (see CallChecker)."""
    calls = read_calls(path, provider=provider, fmt=fmt)
    checker = checker or CallChecker(catalog, names=wire_names(catalog, provider, prefix),
                                     offered=offered, offered_from=offered_from)
    checked = checker.check_all(calls)
    return CallReport(checked, str(path), provider, fmt)
