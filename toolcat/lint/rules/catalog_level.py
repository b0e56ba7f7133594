"""TC5xx: the catalog as a whole: tools a model cannot tell apart, oversized servers, and
definitions that cost too many tokens."""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Iterator
from typing import Any

from toolcat.lint.findings import Context, Problem, catalog_rule, tool_rule
from toolcat.lint.text import content_words_of, description_words, name_words
from toolcat.model import Catalog, Tool

# Words become single characters so that rapidfuzz compares word sequences in C++: a
# word-level edit similarity, fast enough for every pair of a 4,000-tool catalog.
_FIRST_CODEPOINT = 0x4E00


@catalog_rule("TC501", "near-duplicate", "warning", options={"near_duplicate_similarity": 90},
              example="""
    tools:
      - name: get_exchange_rate
  -     description: Retrieve the exchange rate between two currencies.
  +     description: Retrieve today's exchange rate between two currencies.
        parameters:
          type: object
          properties:
            pair: {type: string, description: Currency pair such as EUR/USD.}
          required: [pair]
  -   - name: get_currency_exchange_rate
  -     description: Retrieve the exchange rate between two currencies.
  +   - name: get_exchange_rate_history
  +     description: Daily closing rates of a currency pair over a range of past dates, as a table.
        parameters:
          type: object
          properties:
            pair: {type: string, description: Currency pair such as EUR/USD.}
  -       required: [pair]
  +         days: {type: integer, description: How many past days to include.}
  +       required: [pair, days]
    """)
def near_duplicate(catalog: Catalog, ctx: Context) -> Iterator[Problem]:
    """Two tools are so alike that a model or a search cannot tell them apart.

    Two tools are near-duplicates when their descriptions say the same thing word for word
    (ignoring case, plurals and little words), or when their names and descriptions together
    reach `near_duplicate_similarity` percent (default 90) on a word-level edit similarity.
    A model picks between such tools at random, and search ranks them together. Merge them,
    or say in each description how it differs. Tools with the very same name are TC203 or
    TC603, not this rule. A finding names the five nearest of the tool's alike tools and
    counts the others.
    """
    threshold = float(ctx.options["near_duplicate_similarity"])
    tools = catalog.tools
    codes = _Codes()
    encoded: dict[str, str] = {}  # by description: catalogs repeat them

    def encode(words: list[str]) -> str:
        return "".join(map(codes.__getitem__, words))

    descriptions = [encoded[t.description] if t.description in encoded else
                    encoded.setdefault(t.description, encode(description_words(t, ctx)))
                    for t in tools]
    names = content_words_of([name_words(t, ctx) for t in tools])
    texts = [encode(n) + d for n, d in zip(names, descriptions, strict=True)]
    # each tool's nearest earlier alike tools (`_Alike`); the same description is the nearest
    matches: dict[int, _Alike] = {}
    first_with: dict[str, int] = {}
    for i, text in enumerate(descriptions):
        if text and len(text) >= 2:
            j = first_with.setdefault(text, i)
            if j != i and tools[j].name != tools[i].name:
                matches.setdefault(i, _Alike()).add(j, _SAME, "the same description")
    for i, j, score in _similar_pairs(texts, threshold):
        if tools[i].name != tools[j].name:
            matches.setdefault(j, _Alike()).add(i, score, f"{score:.0f}% alike")
    for j in sorted(matches):
        alike = matches[j]
        nearest = sorted(alike.nearest)
        shown = ", ".join(f"'{catalog.ident(tools[i])}' ({why})" for i, why in nearest)
        more = f" and {alike.more:,} more" if alike.more else ""
        related = tuple(origin for origin in (tools[i].origin for i, _ in nearest)
                        if origin is not None)
        yield Problem(f"near-duplicate of {shown}{more}: a model cannot tell them apart",
                      tool=tools[j], related=related)


class _Alike:
    """A tool's alike tools: the NEAREST_SHOWN nearest (highest score, then first in the
    catalog) and how many more, in memory that does not grow with them."""

    def __init__(self) -> None:
        self._heap: list[tuple[float, int, str]] = []  # (score, -index, why): farthest first
        self._same: int | None = None  # the tool with the same description: the nearest
        self.more = 0

    def add(self, index: int, score: float, why: str) -> None:
        if index == self._same:
            return  # alike in words too: said once, as the same description
        if score == _SAME:
            self._same = index
        entry = (score, -index, why)
        if len(self._heap) < NEAREST_SHOWN:
            heapq.heappush(self._heap, entry)
            return
        self.more += 1
        if entry > self._heap[0]:
            heapq.heapreplace(self._heap, entry)

    @property
    def nearest(self) -> list[tuple[int, str]]:
        return [(-minus, why) for _, minus, why in self._heap]


# a finding names this many of its tool's alike tools, the nearest, and counts the others:
# among thousands of alike tools, naming them all makes the report grow with their square
NEAREST_SHOWN = 5
_SAME = 101.0  # the score of the same description: nearer than any ratio


def _code(number: int) -> str:
    """The character standing for word number `number` (never a surrogate)."""
    code = _FIRST_CODEPOINT + number
    return chr(code + 0x800 if code >= 0xD800 else code)


class _Codes(dict[str, str]):
    """Each word's character (`_code`), numbered in the order the words are first asked for."""

    def __missing__(self, word: str) -> str:
        code = self[word] = _code(len(self))
        return code


def _similar_pairs(texts: list[str], threshold: float) -> Iterator[tuple[int, int, float]]:
    """(i, j, score) with i < j for every pair of texts at or above `threshold`, in no
    particular order.

    Each text is a sequence of word codes; the score is rapidfuzz's `ratio`,
    200 * LCS / (len(a) + len(b)). A prefix filter finds the candidate pairs without
    comparing them all (Chaudhuri, Ganti and Kaushik, "A primitive operator for similarity
    joins in data cleaning", ICDE 2006): a pair that reaches t = threshold / 100 shares at
    least t * len / (2 - t) words with either text (a word repeated n times counting as n
    words), so the rarest len - that + 1 words of each must meet (under any one order of the
    words, here rarest first). Every step runs in numpy over all the texts' words at once:
    the prefixes, then the pairs of texts that share a word of their prefixes (each word's
    texts shortest first), then a length filter (a text shorter than t / (2 - t) of the other
    cannot reach t with it); the pairs left are scored exactly in rapidfuzz's `cpdist`, so no
    pair is missed. At most about PAIRS_AT_ONCE candidates are held at a time.
    """
    import numpy as np
    from rapidfuzz import fuzz, process

    t = threshold / 100
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    codes = np.frombuffer("".join(texts).encode("utf-32-le"), dtype=np.uint32).astype(np.int64)
    owner = np.repeat(np.arange(len(texts), dtype=np.int64), lengths)
    # each word with how many times it came before in its text: repeats count as a multiset
    by_word = np.lexsort((np.arange(len(codes)), codes, owner))
    codes, owner = codes[by_word], owner[by_word]
    starts = _starts(owner * (1 << 32) + codes)
    tokens = codes * (int(lengths.max(initial=0)) + 1) + (np.arange(len(codes)) - starts)
    # rarest first (the order a prefix is taken in), as ranks
    _, token, frequency = np.unique(tokens, return_inverse=True, return_counts=True)
    rank = np.argsort(np.lexsort((np.arange(len(frequency)), frequency)))[token.reshape(-1)]
    by_rank = np.lexsort((rank, owner))
    owner, rank = owner[by_rank], rank[by_rank]
    size = lengths[owner]
    overlap = np.maximum(1, np.ceil(t * size / (2 - t) - 1e-9)) if t < 2 else np.ones(len(size))
    prefix = (np.arange(len(owner)) - _starts(owner)) < np.maximum(1, size - overlap + 1)
    owner, word = owner[prefix], rank[prefix]
    # by prefix word, then shortest first: each text meets the earlier texts of its word
    order = np.lexsort((owner, lengths[owner], word))
    owner, word = owner[order], word[order]
    group = _starts(word)
    earlier = np.arange(len(word)) - group  # how many texts come before each in its list
    ends = np.cumsum(earlier)
    choices = np.array(texts, dtype=object)
    found: list[Any] = []  # the pairs found in earlier parts, which a later part may meet
    at = 0
    while at < len(word):
        end = max(at + 1, int(np.searchsorted(ends, ends[at] + PAIRS_AT_ONCE, "right")))
        counts = earlier[at:end]
        later = np.repeat(np.arange(at, end), counts)
        steps = np.arange(len(later)) - np.repeat(np.cumsum(counts) - counts, counts)
        first, second = owner[group[later] + steps], owner[later]
        if t < 2:
            kept = lengths[first] >= t * lengths[second] / (2 - t) - 1e-9
            first, second = first[kept], second[kept]
        # each pair once (a pair that shares several prefix words meets in each one's list)
        pairs = np.sort(np.minimum(first, second) * len(texts) + np.maximum(first, second))
        pairs = pairs[np.r_[True, pairs[1:] != pairs[:-1]]] if len(pairs) else pairs
        if found:
            pairs = pairs[~np.isin(pairs, np.concatenate(found))]
        first, second = pairs // len(texts), pairs % len(texts)
        scores = process.cpdist(choices[first], choices[second], scorer=fuzz.ratio,
                                score_cutoff=threshold, dtype=np.float64)
        hits = scores >= threshold
        if end < len(word):
            found.append(pairs[hits])
        yield from zip(first[hits].tolist(), second[hits].tolist(), scores[hits].tolist(),
                       strict=True)
        at = end


PAIRS_AT_ONCE = 1 << 20  # candidate pairs built and scored at once: memory stays bounded


def _starts(keys: Any) -> Any:
    """For each item of the sorted array `keys`, the index of the first item equal to it."""
    import numpy as np

    if not len(keys):
        return keys
    firsts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    return np.repeat(firsts, np.diff(np.r_[firsts, len(keys)]))


@catalog_rule("TC502", "server-too-large", "warning", options={"max_server_tools": 40},
              example_settings={"options": {"max_server_tools": 2}}, example="""
    servers:
      - name: notes
    tools:
      - name: create_note
        description: Create a note with a title and a Markdown body.
        parameters: {type: object, properties: {title: {type: string, description: Title.}}}
  -   - name: delete_note
  -     description: Delete a note by its id; it cannot be recovered.
  -     safe: false
  -     parameters: {type: object, properties: {id: {type: string, description: Note id.}}}
  -   - name: search_notes
  -     description: Search the text of every note and return the best matches.
  -     parameters: {type: object, properties: {query: {type: string, description: Words.}}}
    """)
def server_too_large(catalog: Catalog, ctx: Context) -> Iterator[Problem]:
    """A server exposes more tools than `max_server_tools` (default 40).

    Tool selection gets less accurate as the number of tools a model sees grows; Anthropic
    reports a drop beyond 30 to 50 tools. A server this large is worth splitting, or loading
    lazily through tool search (`defer_loading`).
    """
    limit = ctx.options["max_server_tools"]
    counts = Counter(t.server for t in catalog.tools if t.server)
    for name, count in counts.items():
        if count <= limit:
            continue
        server = catalog.server(name)
        where = server.origin if server and server.origin else next(
            t.origin for t in catalog.tools if t.server == name)
        yield Problem(f"server '{name}' exposes {count} tools, more than {limit}",
                      where=where, server=name)


@tool_rule("TC503", "tool-token-budget", "warning", options={
    "max_tool_tokens": 1000, "token_encoding": "o200k_base"},
    example_settings={"options": {"max_tool_tokens": 60}}, example="""
    tools:
      - name: configure_pipeline
  -     description: >-
  -       Configure every stage of a data pipeline: where it reads from (databases, queues,
  -       buckets), how it transforms the records, where it writes them, how often it runs,
  -       who is told when it fails, and how long its logs are kept.
  +     description: Configure the stages, sources, sinks and schedule of a data pipeline.
        parameters:
          type: object
          properties:
            pipeline: {type: string, description: Pipeline id.}
          required: [pipeline]
    """)
def tool_token_budget(tool: Tool, ctx: Context) -> Iterator[Problem]:
    """A tool's definition costs more tokens than `max_tool_tokens` (default 1,000).

    Every tool a model is shown is paid for in every request, and a very long definition
    crowds out the conversation. Counted exactly with the OpenAI encoding `token_encoding`
    (o200k_base by default) over the compact JSON of name, description and parameters;
    other providers' tokenizers differ by a few percent.
    """
    limit = ctx.options["max_tool_tokens"]
    # a token is at least one byte: the size spares counting, unless every count is known
    if not ctx.counted() and ctx.memo("size", tool, tool.size) <= limit:
        return
    tokens = ctx.tokens(tool)
    if tokens > limit:
        yield Problem(f"the definition is {tokens:,} tokens ({ctx.options['token_encoding']}), "
                      f"over the {limit:,}-token budget")


@catalog_rule("TC504", "catalog-token-budget", "warning", options={
    "max_catalog_tokens": 20000}, example_settings={"options": {"max_catalog_tokens": 60}},
    example="""
    tools:
      - name: list_invoices
        description: List the invoices of a customer, newest first, with amount and status.
        parameters:
          type: object
          properties: {customer: {type: string, description: Customer id.}}
  -   - name: refund_invoice
  -     description: Refund a paid invoice in full and email the customer a credit note.
  -     parameters:
  -       type: object
  -       properties: {invoice: {type: string, description: Invoice id.}}
    """)
def catalog_token_budget(catalog: Catalog, ctx: Context) -> Iterator[Problem]:
    """All definitions together cost more tokens than `max_catalog_tokens` (default 20,000).

    Sending the whole catalog with every request costs this many tokens each time, before a
    single word of conversation. Pick the tools per request (`toolcat pick`), or use tool
    search; the finding points at the tool where the budget runs out.
    """
    limit = ctx.options["max_catalog_tokens"]
    encoding = ctx.options["token_encoding"]
    if not ctx.counted() and sum(ctx.memo("size", t, t.size) for t in catalog.tools) <= limit:
        return  # a token is at least one byte
    counts = [ctx.tokens(tool) for tool in catalog.tools]
    total = sum(counts)
    if total <= limit:
        return
    running = 0
    for tool, tokens in zip(catalog.tools, counts, strict=True):
        running += tokens
        if running > limit:
            yield Problem(f"the {len(counts):,} definitions total {total:,} tokens "
                          f"({encoding}), over the {limit:,}-token budget, which runs out at "
                          f"'{catalog.ident(tool)}'", where=tool.origin)
            return
