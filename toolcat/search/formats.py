"""A file a request names says, by its format, which server reads it.

"what did legal scribble in the margins of nda-draft-v3.docx", "save the deck over
board-update.pptx", "~/contracts/msa-acme.docx swap every 'Licensor' for 'Provider'": the
request hands over a file, and the file's extension names its format as a server's name names a
service. The words around it are the user's ("scribble in the margins", "the deck"); the
extension is the vendor's: the server that reads Word documents says "docx" somewhere in its
tools' texts (".docx files", "path to the .pptx"), and few other servers do. A path's
extension is no BM25F evidence (`toolcat.search.text.without_values` keeps only the
extensions of the standard library's own table, which has no "docx"), and where a file name
keeps it, one tool's text that says it earns it, not the server that works on such files.

So an extension the request's files and paths end in is read as a server's name is
(`toolcat.search.hybrid.ServerNames`): every tool of each server whose tools' texts say the
extension as one (".docx", "*.pptx") gets the idf of a word that as many servers'
tools have, the weight of naming one server when one server says it. An extension more than
half of the servers say (".json", ".md" in a catalog of file tools) says nothing and gives
nothing, and so does one no server says.

Both sides are read narrowly. A request's file is a white-space separated piece that is not a
URL or an e-mail address and is a path ("~/contracts/msa.docx", "./dist/app.tar.gz") or a file
name whose extension one of the catalog's servers says ("board-update.pptx"; "acme.io" is a
domain where no server speaks of ".io" files). A catalog's extensions are read once per
catalog, on the first request that names a file, from its tools' names, descriptions and
parameters' descriptions, their URLs and e-mail addresses left out, at most TEXT characters
of each tool.
"""

from __future__ import annotations

import math
import re
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

from toolcat.model import Tool
from toolcat.search.text import parameter_texts

if TYPE_CHECKING:
    import numpy as np

TEXT = 4000  # characters of a tool's text read for the extensions it says
PIECES = 64  # white-space separated pieces of a request read
_EDGES = "\"'`()[]{}<>,;:!?*"
# a request's piece that is a URL or an e-mail address names no file
_ADDRESS = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://|www\.|@")
_FILE = re.compile(r"[\w~-]+(?:\.[\w~-]+)*")
_EXTENSION = re.compile(r"[A-Za-z][A-Za-z0-9]{1,4}")
# an extension said in a tool's text: ".docx" after a space, a bracket, a quote or "*", not
# after a word ("example.com", "document.title" are names); not a word in capitals ("SQL" is
# the language as often as the file)
_SAID = re.compile(r"(?<![^\s(\[\"'`*])\.([A-Za-z][A-Za-z0-9]{1,4})(?![\w.-])")
_TEXT_ADDRESS = re.compile(r"\S*(?:://|@|www\.)\S*")


def extensions(request: str) -> list[str]:
    """The extensions, lower case, of the files and paths `request` names, in order and once
    each, whether a catalog knows them or not ("./dist/app.tar.gz" -> gz)."""
    found: dict[str, None] = {}
    for piece in request.split()[:PIECES]:
        core = piece.strip(_EDGES).rstrip(".")
        if "." not in core or _ADDRESS.search(core):
            continue
        tail = core.rstrip("/").rsplit("/", 1)[-1]
        stem, _, suffix = tail.rpartition(".")
        if _FILE.fullmatch(stem) and _EXTENSION.fullmatch(suffix):
            found.setdefault(suffix.lower())
    return list(found)


class Formats:
    """The servers whose tools say each file extension, and the evidence a request's files
    give their tools (see the module docstring)."""

    def __init__(self, tools: Sequence[Tool]) -> None:
        self._tools = tools
        self._said: dict[str, frozenset[str]] | None = None  # extension -> servers saying it
        self._members: dict[str, list[int]] = {}
        self._servers = 0
        self._lock = threading.Lock()

    def _catalog(self) -> dict[str, frozenset[str]]:
        with self._lock:
            if self._said is None:
                said: dict[str, set[str]] = {}
                members: dict[str, list[int]] = {}
                for i, tool in enumerate(self._tools):
                    if not tool.server:
                        continue
                    members.setdefault(tool.server, []).append(i)
                    for extension in _said(tool):
                        said.setdefault(extension, set()).add(tool.server)
                self._members = members
                self._servers = len(members)
                self._said = {e: frozenset(s) for e, s in said.items()}
            return self._said

    def named(self, request: str) -> dict[str, frozenset[str]]:
        """Each extension of a file `request` names that the catalog's servers say, with the
        servers that say it (none when more than half of them do, or there is one server)."""
        if "." not in request:
            return {}
        found = extensions(request)
        if not found:
            return {}
        said = self._catalog()
        if self._servers < 2:
            return {}
        named: dict[str, frozenset[str]] = {}
        for extension in found:
            servers = said.get(extension, frozenset())
            if servers and 2 * len(servers) <= self._servers:
                named[extension] = servers
        return named

    def weight(self, servers: int) -> float:
        """The idf of a word that `servers` of the catalog's servers have."""
        return math.log(1 + (self._servers - servers + 0.5) / (servers + 0.5))

    def evidence(self, request: str) -> np.ndarray:
        """For each tool, the weight of the rarest extension its server says among the files
        `request` names; else 0."""
        import numpy as np

        found = np.zeros(len(self._tools))
        for servers in self.named(request).values():
            weight = self.weight(len(servers))
            for server in servers:
                rows = self._members[server]
                found[rows] = np.maximum(found[rows], weight)
        return found

    def explained(self, request: str, index: int) -> tuple[float, str]:
        """The evidence `index` gets for `request`'s files, and what it is for."""
        server = self._tools[index].server
        said = [e for e, servers in self.named(request).items() if server in servers]
        if not said:
            return 0.0, ""
        value = float(self.evidence(request)[index])
        files = ", ".join(f".{e}" for e in said)
        return value, f"the request names a {files} file, a format its server's tools speak of"


def _said(tool: Tool) -> set[str]:
    """The extensions `tool`'s texts say as file extensions (see the module docstring)."""
    parts = [tool.name, tool.description or ""]
    parts += [text for _, text in parameter_texts(tool.parameters)]
    text = _TEXT_ADDRESS.sub(" ", " ".join(parts)[:TEXT])
    return {dotted.lower() for dotted in _SAID.findall(text)}
