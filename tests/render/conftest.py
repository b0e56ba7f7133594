"""The demo scenario every render test uses: the bundled catalog, three built-ins, five tools
that cover enums, $defs, oneOf, nested arrays and type lists, and three deferred tools."""

from __future__ import annotations

import pytest

from tests.conftest import CATALOGS
from toolcat.catalog.load import load_catalog
from toolcat.model import Catalog
from toolcat.render import RenderInput

BUILTINS = ("python_execution", "search_tools", "add_tool")
VISIBLE = ("get_weather", "weather_forecast", "create_event", "update_range", "run_query")
DEFERRED = ("send_email", "create_issue", "read_file")
CATEGORIES = ("email (send, search and organize mail)", "github (repositories, issues and "
              "pull requests)", "filesystem (files and folders)")
BASE_PROMPT = "You are a helpful assistant for a small team. Answer briefly."
QUERY = "Book a meeting with Ana on Friday at 3pm if it will not rain in Lisbon"


@pytest.fixture(scope="session")
def demo() -> Catalog:
    return load_catalog(CATALOGS)


@pytest.fixture(scope="session")
def builtins() -> Catalog:
    return load_catalog(CATALOGS / "builtins" / "builtins.yaml", default_source="builtin")


@pytest.fixture(scope="session")
def scenario(demo: Catalog, builtins: Catalog) -> RenderInput:
    return RenderInput(
        query=QUERY,
        base_prompt=BASE_PROMPT,
        builtins=tuple(builtins.get(n) for n in BUILTINS),
        tools=tuple(demo.get(n) for n in VISIBLE),
        deferred=tuple(demo.get(n) for n in DEFERRED),
        tool_search=True,
        categories=CATEGORIES,
        documents=demo.documents,
    )
