"""The scorer contract: a plain function `(query, tool) -> score` used as a scorer.

The function gets the query as text (the input is normalized before scoring: an object
is stringified as JSON, `query_text`) and one Tool, and returns either a number in 0..1 or
the `{score, reason?, details?}` mapping; an `async def` function works too, its calls
for one query awaited together. A negative score counts as 0 (no evidence: a cosine
similarity can be negative); a score above 1, NaN or anything that is not a number is an
error naming the tool. Each query is scored once: `explain` reuses the last query's answers,
so an expensive (LLM) scorer is not called twice.
"""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
import json
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from toolcat.errors import UsageError
from toolcat.model import Tool
from toolcat.search.ranking import Scorer

ScorerFunction = Callable[[str, Tool], Any]
_ROUNDING = 1e-9  # a cosine of 1.0000000002 is still 1


def as_scorer(scorer: Scorer | ScorerFunction, tools: Sequence[Tool]) -> Scorer:
    """`scorer` itself when it is a Scorer (it has `scores`), else the function as one."""
    if hasattr(scorer, "scores"):
        return cast(Scorer, scorer)
    return FunctionScorer(scorer, tools)


def query_text(query: Any) -> str:
    """The query as searchable text: a string as is, anything else as compact JSON (the design's
    "convert input to a searchable string (stringify if object)").

    Raises:
        UsageError: the query holds a value JSON cannot represent.
    """
    if isinstance(query, str):
        return query
    try:
        return json.dumps(query, ensure_ascii=False, separators=(",", ":"), default=_plain)
    except (TypeError, ValueError) as exc:
        raise UsageError(f"a query must be text or JSON-like data (mappings, lists, numbers, "
                         f"text, dataclasses): {exc}") from None


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=str)
    raise TypeError(f"a {type(value).__name__} is not JSON-like")


@dataclasses.dataclass(frozen=True)
class _Outcome:
    score: float
    reason: str
    details: Mapping[str, Any]


class FunctionScorer:
    """A Scorer over `tools` that asks `function(query, tool)` for each tool's score."""

    def __init__(self, function: ScorerFunction, tools: Sequence[Tool]) -> None:
        self.function = function
        self.tools: Sequence[Tool] = tuple(tools)
        self.name = getattr(function, "__name__", type(function).__name__)
        self._last: tuple[str, list[_Outcome]] | None = None

    def scores(self, query: str) -> list[float]:
        return [o.score for o in self._outcomes(query)]

    def explain(self, query: str, index: int) -> tuple[str, Mapping[str, Any]]:
        outcome = self._outcomes(query)[index]
        return outcome.reason or f"scored by {self.name}", outcome.details

    def _outcomes(self, query: str) -> list[_Outcome]:
        if self._last is None or self._last[0] != query:
            answers = [self.function(query, tool) for tool in self.tools]
            if any(inspect.isawaitable(a) for a in answers):
                answers = _await_all(answers, self.name)
            self._last = (query, [self._outcome(a, tool)
                                  for a, tool in zip(answers, self.tools, strict=True)])
        return self._last[1]

    def _outcome(self, answer: Any, tool: Tool) -> _Outcome:
        reason: str = ""
        details: Any = {}
        value = answer
        if isinstance(answer, Mapping):
            if "score" not in answer:
                raise self._bad(answer, tool)
            value = answer["score"]
            reason = str(answer.get("reason") or "")
            details = answer.get("details") or {}
            if not isinstance(details, Mapping):
                details = {"details": details}
        if isinstance(value, bool) or not isinstance(value, (int, float)) \
                or math.isnan(value) or value > 1 + _ROUNDING:
            raise self._bad(answer, tool)
        return _Outcome(min(max(float(value), 0.0), 1.0), reason, dict(details))

    def _bad(self, answer: Any, tool: Tool) -> UsageError:
        shown = repr(answer)
        shown = shown if len(shown) <= 80 else shown[:79] + "…"
        return UsageError(f"the scorer {self.name} returned {shown} for {tool.qualified_name}; "
                          "a scorer returns a number in 0..1 or {'score': ..., 'reason': ..., "
                          "'details': ...}")


def _await_all(answers: list[Any], name: str) -> list[Any]:
    """The answers with every awaitable one awaited, all concurrently."""

    async def gather() -> list[Any]:
        pending = [a for a in answers if inspect.isawaitable(a)]
        done = iter(await asyncio.gather(*pending))
        return [next(done) if inspect.isawaitable(a) else a for a in answers]

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(gather())
    for answer in answers:
        if inspect.iscoroutine(answer):
            answer.close()  # never awaited: say so once, not as a RuntimeWarning per tool
    raise UsageError(f"the async scorer {name} cannot run inside a running event loop; call "
                     "pick in a thread (await asyncio.to_thread(toolcat.pick, ...))")
