"""One `toolcat serve` run's start: the catalog read, its gate made and screened by the
security verdict, and the Serving a transport runs (toolcat.serve.serve calls these steps,
over stdio on a thread once the handshake is answered).

Imports the MCP SDK (through toolcat.serve.server): imported when a server runs.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from toolcat.model import Catalog, Tool
from toolcat.serve.discovery import discovery_names
from toolcat.serve.gate import Gate, Loading
from toolcat.serve.launch import Secrets
from toolcat.serve.openapi_calls import HttpApis
from toolcat.serve.proxy import ModeLog
from toolcat.serve.server import Serving
from toolcat.serve.stages import Stages
from toolcat.serve.trust import live_changes, withheld
from toolcat.serve.upstream import Upstreams
from toolcat.serve.virtual import with_virtual_tools

if TYPE_CHECKING:
    from toolcat.mcp.servers import ServerSpec
    from toolcat.pin.lock import Lock
    from toolcat.resolution.profile import Profile
    from toolcat.search.tuning import Tuning


@dataclass(frozen=True)
class Settings:
    """What serve was asked for, as the start's steps read it (toolcat.serve.serve says what
    each means)."""

    catalog: Catalog | Callable[[], Catalog]
    profile: Profile
    mode: str
    http: tuple[str, int] | None
    allow_unsafe: bool
    call_timeout: float
    overrides: Mapping[str, ServerSpec]
    tuning: Tuning | Callable[[Catalog], Tuning | None] | None
    token: str | None
    allow_tools: Collection[str]
    lock: Lock | None
    discovery: Mapping[str, str]
    answers: str
    base_urls: Mapping[str, str] | None
    progress: Callable[[str], None] | None
    stages: Stages
    loading: Loading | None = None


@dataclass
class Start:
    """The steps of one run's start and what they learn on the way: the tools withheld, the
    catalog's tools by server (what an upstream's live list is checked against), whether the
    security rules ran, and whether a Serving was made (a start that failed has none).
    `make_gate` makes the gate of a catalog read (toolcat.serve._gate_for)."""

    settings: Settings
    log: ModeLog
    secrets: Secrets
    renamed: Mapping[str, str]
    make_gate: Callable[[Catalog, Settings, Tuning | None], Gate]
    held: dict[str, str] = field(default_factory=dict)
    by_server: dict[str, list[Tool]] = field(default_factory=dict)
    scanned: bool = False
    made: bool = False

    def __post_init__(self) -> None:
        timeout = self.settings.call_timeout
        self.upstreams = Upstreams(timeout=timeout, secrets=self.secrets, verify=self.verify)
        self.apis = HttpApis(timeout=timeout, secrets=self.secrets,
                             base_urls=self.settings.base_urls)

    def opening(self) -> Gate:
        """The catalog (when it is still to be read) and its gate, not yet screened."""
        ask = self.settings
        # get_prompt and get_resource where the catalog's servers have prompts, resources
        served = with_virtual_tools(ask.catalog if isinstance(ask.catalog, Catalog)
                                    else ask.catalog())
        discovery_names(ask.discovery, served)  # no catalog tool has a name given them
        learned = ask.tuning(served) if callable(ask.tuning) else ask.tuning
        for tool in served.tools:
            self.by_server.setdefault(tool.server, []).append(tool)
        began = time.perf_counter()
        gate = self.make_gate(served, ask, learned)
        ask.stages.done(f"made the gate: {len(gate.resolution.catalog_tools):,} catalog "
                        "tools visible", began)
        return gate

    def screening(self, gate: Gate) -> Gate:
        """The gate screened by the catalog's security verdict, its indexes warming."""
        ask = self.settings
        began = time.perf_counter()
        self.held.update(withheld(gate.catalog, allowed=ask.allow_tools, lock=ask.lock,
                                  scanning=lambda: self._scanning(gate.catalog)))
        gate.screen(self.held)
        kept = "" if self.scanned else " (kept from an earlier start)"
        ask.stages.done(f"security verdict: {len(self.held):,} of {len(gate.catalog.tools):,} "
                        f"tools withheld{kept}; {len(gate.pool):,} searchable", began)
        gate.stages = ask.stages
        if ask.loading is not None:
            gate.loading = ask.loading
        gate.warm()
        return gate

    def _scanning(self, served: Catalog) -> None:
        """Said when the security rules run (no verdict kept from an earlier start)."""
        ask = self.settings
        self.scanned = True
        ask.stages.begins(f"running the security rules over {len(served.tools):,} tools")
        # over HTTP the first line on stderr is the address, which scripts read
        if ask.progress is not None and ask.http is None:
            ask.progress(f"toolcat serve: reading {len(served.tools):,} tools for security "
                         "findings before serving them (a catalog not served before; the "
                         "verdict is kept for later starts)")

    def verify(self, server: str, live: Catalog) -> dict[str, str]:
        """The tools of `server` whose live definition changed, written to the log."""
        changes = live_changes(self.by_server.get(server, []), live, self.settings.lock)
        if changes:
            self.log.write("changed", server=server, tools=sorted(changes),
                           reasons=[changes[name] for name in sorted(changes)])
        return changes

    def make(self, gate: Gate, bus: Any = None) -> Serving:
        """The Serving of the gate, its start written (on the event loop)."""
        ask = self.settings
        serving = Serving(gate, self.upstreams, self.log, overrides=dict(ask.overrides),
                          secrets=self.secrets, discovery=self.renamed, answers=ask.answers,
                          apis=self.apis, **({"bus": bus} if bus is not None else {}))
        self.made = True
        self.log.write("start", transport="http" if ask.http else "stdio",
                       tools=len(gate.catalog.tools), searchable=len(gate.pool),
                       visible=[n for n, _ in gate.visible()], profile=ask.profile.name,
                       # what search_tools ranks words with; the resolver's own scorer
                       # only decides visibility
                       scorer=gate.choice.name,
                       tuning=None if gate.tuning is None else gate.tuning.label,
                       allow_unsafe=gate.approval == "allow", approval=gate.approval,
                       call_timeout=ask.call_timeout,
                       withheld=sorted(self.held), token=ask.token is not None,
                       **({"warnings": [str(w) for w in gate.resolver.warnings]}
                          if gate.resolver.warnings else {}))
        return serving

