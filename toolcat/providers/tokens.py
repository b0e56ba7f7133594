"""Exact OpenAI token counts, offline (o200k_base, cl100k_base via bpe-openai), and the
`TokenRule` each provider declares: whether these counts are exact for its models and what it
adds to a request.

Counts here are exact for the text given. Pricing a request (which encoding, exact or an
estimate, the overhead) is the render room's business, done from the providers' rules and
labeled there.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import sys
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from toolcat.errors import UsageError
from toolcat.model import Tool, compact_json

ENCODINGS = ("o200k_base", "cl100k_base")
DEFAULT_ENCODING = "o200k_base"


@dataclass(frozen=True)
class TokenRule:
    """How tokens are counted for one provider's models.

    `exact`: its models use one of OpenAI's public encodings (ENCODINGS), so counts are exact,
    and `basis` says what they leave out; otherwise a count is an estimate over one of those
    encodings and `basis` says why the provider's own tokenizer cannot be run (empty: not
    known). `models` says whether a model id is one of the provider's, which picks the rule when
    no provider is named; `encoding` is the encoding of one of its models. `overhead` is what
    the provider adds to every request that has tools, and where that figure comes from.
    """

    exact: bool = False
    basis: str = ""
    models: Callable[[str], bool] | None = None
    encoding: Callable[[str], str] | None = None
    overhead: Callable[[str | None], tuple[int, str]] | None = None


@cache
def _tokenizer(name: str) -> Any:
    """The Rust tokenizer of an encoding, loaded once per process."""
    if name not in ENCODINGS:
        raise UsageError(f"unknown encoding '{name}'; known: {', '.join(ENCODINGS)}")
    return _bindings().tokenizer_for_encoding(name)


@cache
def _bindings() -> Any:
    """bpe-openai's Rust extension. Importing the `bpe_openai` package decodes all three of
    its vocabularies in Python (3.5 s) to read their special tokens, which counting never
    uses; the extension module alone loads in a tenth of a second and counts the same."""
    loaded = sys.modules.get("bpe_openai._bindings")
    if loaded is not None:
        return loaded
    package = importlib.util.find_spec("bpe_openai")  # found, not imported
    for folder in (package.submodule_search_locations or []) if package else []:
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = Path(folder) / f"_bindings{suffix}"
            spec = importlib.util.spec_from_file_location("bpe_openai._bindings", path)
            if path.is_file() and spec is not None and spec.loader is not None:
                module = importlib.util.module_from_spec(spec)
                spec.loader.exec_module(module)
                return module
    return importlib.import_module("bpe_openai._bindings")  # an unusual installation


# The tokenizer refuses a text of a million characters or 200,000 tokens (up to 4 per character);
# longer texts are counted in pieces cut before a space, where a new token starts anyway.
PIECE = 40_000


def count_tokens(text: str, encoding: str = DEFAULT_ENCODING) -> int:
    """Exact number of tokens of `text` in an OpenAI encoding (exact below PIECE characters)."""
    tokenizer = _tokenizer(encoding)
    total, start = 0, 0
    while len(text) - start > PIECE:
        cut = text.rfind(" ", start + PIECE // 2, start + PIECE)
        cut = cut if cut > start else start + PIECE
        total += _count(tokenizer, text[start:cut])
        start = cut
    return total + _count(tokenizer, text[start:])


def _count(tokenizer: Any, text: str) -> int:
    try:
        return int(tokenizer.count(text))
    except UnicodeEncodeError:  # lone surrogates count as U+FFFD, as bpe-openai's encode does
        return int(tokenizer.count(
            text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")))


def definition_text(tool: Tool) -> str:
    """The compact JSON of the model-facing definition: what a tool costs in a request."""
    return compact_json(tool.definition())


def definition_tokens(tool: Tool, encoding: str = DEFAULT_ENCODING) -> int:
    return count_tokens(definition_text(tool), encoding)


def definitions_tokens(tools: Sequence[Tool], encoding: str = DEFAULT_ENCODING,
                       schema_keys: Sequence[Hashable] | None = None) -> list[int]:
    """`definition_tokens` of each of `tools`, each distinct parameters schema counted once.

    A definition's text ends with `parameters":` and its schema's JSON; the text before that
    ends with `","`. OpenAI's encodings cut a text into pieces before merging tokens, and no
    piece runs across the quote before `parameters` (a run of punctuation ends at a letter,
    and no piece starts with two characters that are not letters), so the tokens of the whole
    are those of the part before it plus those of the part from it: catalogs repeat their
    schemas tool after tool, and the schema is most of a definition.

    `schema_keys`, one per tool, equal only for equal parameters (lint's `schema_key`): each
    distinct schema is then also written once, and each definition's part before it from its
    name and description alone (the standard library and orjson write strings alike, so
    `compact_json` of the two parts joined is the definition's text)."""
    tokenizer = _tokenizer(encoding)
    tails: dict[str, int] = {}  # the part from `parameters`: its tokens, by its text ...
    keyed: dict[Hashable, tuple[int, int]] = {}  # ... or its length and tokens, by schema key
    counts = []
    for i, tool in enumerate(tools):
        if schema_keys is not None and tool.parameters is not None:
            key = schema_keys[i]
            known = keyed.get(key)
            if known is None:  # (a tail longer than a piece is counted with its head)
                tail = 'parameters":' + compact_json(tool.parameters) + "}"
                known = keyed[key] = (len(tail), _count(tokenizer, tail)
                                      if len(tail) <= PIECE else 0)
            head = compact_json({"name": tool.name, "description": tool.description})
            if len(head) + 1 + known[0] <= PIECE:  # the head's `}` becomes `,"`
                counts.append(_count(tokenizer, head[:-1] + ',"') + known[1])
                continue
        text = definition_text(tool)
        # the key's own `,"`: inside a JSON string a quote follows a backslash, never a comma
        cut = text.find(',"parameters":') + 2
        if tool.parameters is None or len(text) > PIECE or cut < 2:
            counts.append(count_tokens(text, encoding))
            continue
        head, tail = text[:cut], text[cut:]
        if tail not in tails:
            tails[tail] = _count(tokenizer, tail)
        counts.append(_count(tokenizer, head) + tails[tail])
    return counts
