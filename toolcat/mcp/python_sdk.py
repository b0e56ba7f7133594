"""Whether a Python MCP server that ended before listing its tools was written for another
version of the MCP Python SDK than the one installed beside it, for the error message. The SDK's
2.0 changed its API: a server written for 1.x dies at start with `AttributeError: 'Server'
object has no attribute 'list_tools'` when pip resolved `mcp` to 2.x, which names a method, not
the cause. The installed version is read from the `mcp-*.dist-info` of the environment the
command lives in (a virtual environment's `bin/`), when there is one.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from toolcat.mcp.servers import ServerSpec

# what Python says when code written against one SDK meets another
_MISFIT = re.compile(
    r"AttributeError: '(?:Server|FastMCP|MCPServer|ServerSession|ClientSession|Context|"
    r"RequestContext)' object has no attribute '\w{1,100}'"
    r"|AttributeError: module 'mcp(?:\.\w{1,100}){0,6}' has no attribute '\w{1,100}'"
    r"|ImportError: cannot import name '\w{1,100}' from 'mcp(?:\.\w{1,100}){0,6}'"
    r"|ModuleNotFoundError: No module named 'mcp\.\w{1,100}(?:\.\w{1,100}){0,5}'")
_PINNED = re.compile(r"mcp\s*<\s*2")  # the SDK's own message that already says how to pin it
MAX_TEXT = 1 << 18  # characters of stderr looked at
_DIST = re.compile(r"mcp-(\d{1,9}\.\d{1,9}[\w.+-]{0,40})\.dist-info")


def sdk_hint(spec: ServerSpec, stderr: str) -> str:
    """`; ...` naming the SDK mismatch and how to pin the SDK, or "" when stderr does not show
    one (or already says how)."""
    text = stderr[:MAX_TEXT]
    if spec.transport != "stdio" or "Traceback" not in text or _PINNED.search(text):
        return ""
    found = _MISFIT.search(text)
    if found is None:
        return ""
    version = installed_version(spec.command)
    if version is None:
        return ("; it looks written for another version of the MCP Python SDK than the one "
                "installed beside it (the SDK's 2.0 changed its API): install the server with "
                "the `mcp` its code expects, e.g. `pip install 'mcp<2'` in its environment")
    major = int(version.split(".")[0])
    if major >= 2:
        return (f"; it looks written for the MCP Python SDK 1.x, and mcp {version} is installed "
                "beside it (the SDK's 2.0 changed its API): pin it with `pip install 'mcp<2'` "
                "in the server's environment, or `uvx --with 'mcp<2' ...`")
    return (f"; it looks written for a newer MCP Python SDK than mcp {version}, installed beside "
            "it: upgrade it with `pip install -U mcp` in the server's environment")


def installed_version(command: str) -> str | None:
    """The version of `mcp` installed in the environment whose `bin/` holds `command` (looked up
    on PATH, not resolved: a virtual environment's python is a link to the system's), or
    None."""
    found = command if Path(command).is_absolute() else shutil.which(command)
    if found is None:
        return None
    where = Path(found)
    if where.parent.name not in ("bin", "Scripts"):
        return None
    root = where.parent.parent
    for site in (*root.glob("lib/python3*/site-packages"), root / "Lib" / "site-packages"):
        for dist in sorted(site.glob("mcp-*.dist-info")):
            match = _DIST.fullmatch(dist.name)
            if match:
                return match.group(1)
    return None
