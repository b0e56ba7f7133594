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
domain where no server speaks of ".io" files). The tools read for an extension are those
BM25F indexes its word for (at most POSTINGS: a word more tools have is nobody's format), in
their names, descriptions and parameters' descriptions, their URLs and e-mail addresses left
out, at most TEXT characters of each; the servers found are kept for the process, so a request
costs a pass over its own words, and the first that names an extension a pass over the tools
that have its word.
"""

from __future__ import annotations

import math
import re
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

from toolcat.model import Tool
from toolcat.search.text import parameter_texts, stem

if TYPE_CHECKING:
    import numpy as np

    from toolcat.search.bm25 import BM25Scorer

TEXT = 4000  # characters of a tool's text read for the extensions it says
POSTINGS = 2000  # tools that have the extension's word, at most, read for it
KEPT = 10_000  # extensions whose servers are kept in a process
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
        base, _, suffix = tail.rpartition(".")
        if _FILE.fullmatch(base) and _EXTENSION.fullmatch(suffix):
            found.setdefault(suffix.lower())
    return list(found)


class Formats:
    """The servers whose tools say each file extension, and the evidence a request's files
    give their tools (see the module docstring)."""

    def __init__(self, tools: Sequence[Tool], lexical: BM25Scorer) -> None:
        self._tools = tools
        self._lexical = lexical
        self._servers: np.ndarray | None = None  # each tool's server
        self._count = 0  # distinct servers
        self._said: dict[str, frozenset[str]] = {}  # extension -> the servers saying it
        self._lock = threading.Lock()

    def _saying(self, extension: str) -> frozenset[str]:
        """The servers whose tools write `extension` as one: among the tools BM25F indexes
        the word for, at most POSTINGS of them (a word more tools have is no format of a few
        servers)."""
        known = self._said.get(extension)
        if known is not None:
            return known
        found: set[str] = set()
        term = self._lexical.term_id(stem(extension))
        if term is not None:
            index = self._lexical.index
            holders = index.indices[index.indptr[term]:index.indptr[term + 1]]
            if len(holders) <= POSTINGS:
                found = {self._tools[i].server for i in holders.tolist()
                         if self._tools[i].server and extension in _said(self._tools[i])}
        with self._lock:
            if len(self._said) >= KEPT:  # bounded: requests may come from strangers
                self._said.clear()
            self._said[extension] = frozenset(found)
        return frozenset(found)

    def _members(self) -> np.ndarray:
        import numpy as np

        with self._lock:
            if self._servers is None:
                servers = np.array([t.server or "" for t in self._tools], dtype=object)
                self._count = len(set(servers.tolist()) - {""})
                self._servers = servers
            return self._servers

    def named(self, request: str) -> dict[str, frozenset[str]]:
        """Each extension of a file `request` names that the catalog's servers say, with the
        servers that say it (none when more than half of them do, or there is one server)."""
        if "." not in request:
            return {}
        found = extensions(request)
        if not found:
            return {}
        self._members()
        if self._count < 2:
            return {}
        named: dict[str, frozenset[str]] = {}
        for extension in found:
            servers = self._saying(extension)
            if servers and 2 * len(servers) <= self._count:
                named[extension] = servers
        return named

    def weight(self, servers: int) -> float:
        """The idf of a word that `servers` of the catalog's servers have."""
        return math.log(1 + (self._count - servers + 0.5) / (servers + 0.5))

    def evidence(self, request: str) -> np.ndarray:
        """For each tool, the weight of the rarest extension its server says among the files
        `request` names; else 0."""
        import numpy as np

        found = np.zeros(len(self._tools))
        named = self.named(request)
        if named:
            members = self._members()
            for servers in named.values():
                rows = np.isin(members, list(servers))
                found[rows] = np.maximum(found[rows], self.weight(len(servers)))
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
