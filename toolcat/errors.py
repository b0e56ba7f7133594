"""The one exception tree of toolcat.

Every error a user can cause is a ToolcatError: it carries a one-line message, the place in a
file it is about (when there is one) and the exit code. The CLI maps it to stderr and that code
in one place (toolcat.cli.app); nothing else prints errors or exits.

Exit codes: 0 clean; 1 the command ran and found problems (decided by the CLI from a result,
never raised); 2 the command could not run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from toolcat.model import SourceRef


class ToolcatError(Exception):
    """An error caused by input or options; shown as one line, never as a traceback."""

    exit_code: int = 2

    def __init__(
        self, message: str, *, where: SourceRef | None = None, hint: str | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.where = where
        self.hint = hint

    def __str__(self) -> str:
        text = f"{self.where}: {self.message}" if self.where else self.message
        return f"{text} ({self.hint})" if self.hint else text


class CatalogError(ToolcatError):
    """A catalog file cannot be read: missing, malformed, of no known shape, or inconsistent."""


class DefinitionError(CatalogError):
    """A tool defined in Python breaks the `@tool` contract; raised at its decorator's line."""


class ConfigError(ToolcatError):
    """A configuration, profile or query-set file is invalid."""


class ResponseError(ToolcatError):
    """A model response or completion given to check a tool call is not of the expected shape."""


class UsageError(ToolcatError):
    """An option value is unknown or contradicts another option."""


class ServerError(ToolcatError):
    """An MCP server could not be started, crashed, did not answer in time, or sent garbage."""


class MissingExtraError(ToolcatError):
    """A feature needs an optional extra that is not installed."""

    def __init__(self, feature: str, extra: str) -> None:
        super().__init__(
            f"{feature} needs the '{extra}' extra",
            hint=f"pip install 'toolcat[{extra}]'",
        )
        self.extra = extra
