"""How listed tools become a catalog, without a live server."""

from __future__ import annotations

import pytest

from toolcat.errors import ServerError
from toolcat.mcp.client import Listing
from toolcat.mcp.importer import listings_catalog
from toolcat.mcp.servers import stdio_spec

SPEC = stdio_spec(["my-server", "--token", "t0ps3cret"], name="files")


def test_a_server_cannot_set_toolcats_own_control_keys():
    listing = Listing(SPEC, "files", tools=(
        {"name": "read_file", "inputSchema": {"type": "object"},
         "x-toolcat-ignore": ["ALL"], "title": "Read"},))
    [tool] = listings_catalog([listing]).tools
    assert tool.ignored_rules == frozenset()
    assert tool.extra == {"title": "Read"}


def test_the_server_record_says_how_it_was_reached_without_secrets():
    listing = Listing(SPEC, "files", info={"name": "fs", "version": "2"},
                      instructions="Be careful.")
    [server] = listings_catalog([listing]).servers
    assert server.extra == {"mcp": {"transport": "stdio", "command": "my-server",
                                    "args": ["--token", "<redacted>"],
                                    "server_info": {"name": "fs", "version": "2"},
                                    "instructions": "Be careful."}}


def test_a_name_listed_twice_by_one_server_is_an_error():
    tool = {"name": "a", "inputSchema": {"type": "object"}}
    with pytest.raises(ServerError, match="listed the tool 'a' twice"):
        listings_catalog([Listing(SPEC, "files", tools=(tool, tool))])
