"""Exact OpenAI token counts, offline (o200k_base, cl100k_base via bpe-openai).

Counts here are exact for the text given. What a provider adds around tool definitions (its
own formatting and hidden prompts) is the render room's business, and labeled there.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from toolcat.errors import UsageError
from toolcat.model import Tool, compact_json

ENCODINGS = ("o200k_base", "cl100k_base")
DEFAULT_ENCODING = "o200k_base"


@cache
def _encoding(name: str) -> Any:
    if name not in ENCODINGS:
        raise UsageError(f"unknown encoding '{name}'; known: {', '.join(ENCODINGS)}")
    import bpe_openai

    return bpe_openai.get_encoding(name)


# The tokenizer refuses a text of a million characters or 200,000 tokens (up to 4 per character);
# longer texts are counted in pieces cut before a space, where a new token starts anyway.
PIECE = 40_000


def count_tokens(text: str, encoding: str = DEFAULT_ENCODING) -> int:
    """Number of tokens of `text` in an OpenAI encoding (exact below PIECE characters)."""
    encode = _encoding(encoding).encode_ordinary
    total, start = 0, 0
    while len(text) - start > PIECE:
        cut = text.rfind(" ", start + PIECE // 2, start + PIECE)
        cut = cut if cut > start else start + PIECE
        total += len(encode(text[start:cut]))
        start = cut
    return total + len(encode(text[start:]))


def definition_text(tool: Tool) -> str:
    """The compact JSON of the model-facing definition: what a tool costs in a request."""
    return compact_json(tool.definition())


def definition_tokens(tool: Tool, encoding: str = DEFAULT_ENCODING) -> int:
    return count_tokens(definition_text(tool), encoding)
