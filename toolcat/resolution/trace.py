"""Every rule a resolution can name, keyed by the id shown in the trace and in `--json`.

Each entry says what the rule decides (docs/origins.md says which design document it comes
from). Every decision in a
trace names one of these ids, so a reader can look up why a tool ended where it did.
"""

from __future__ import annotations

TRACE_RULES: dict[str, str] = {
    "profile-warning": "a setting of the profile this catalog makes void (a tool or server it "
                       "lacks, contradictory gateway sizes); resolving goes on without it",
    # ---- the model, the cap and the format --------------------------------------
    "model-size": "the model's size class: small < 7B, medium 7-30B, large > 30B",
    "model-size-unknown": "no size given, so the default cap (2) applies",
    "cap-by-size": "at most this many catalog tools in the prompt for the model size",
    "cap-profile": "the profile sets the number of catalog tools in the prompt itself",
    "cap-none": "the profile lifts the cap (`max_in_prompt: all`)",
    "cap-normal-mode": "normal mode (`mcp.defer: false`) shows every tool; the "
    "caps by size bound its automatic search, and only `mcp.max_in_prompt` caps normal "
    "mode",
    "format-primary": "the preferred format (`formats.primary`) is available",
    "format-fallback": "the preferred format is unavailable; the first enabled "
    "format that is available is used",
    "format-available": "this format is enabled and available",
    "format-unavailable": "this format is disabled or not available for the model",
    "provider-search": "the profile's `provider_search`: how a provider request lets the model "
    "reach the deferred tools (the provider's own tool search, toolcat's search, or native with "
    "a local fallback) and how a session's discoveries keep the request's prefix cached",
    "scorer": "the scorer that orders catalog tools by relevance: the profile's `scorer`, else "
    "toolcat's default (the most accurate one installed)",
    # ---- built-in tools -----------------------------------------------
    "builtin-enabled": "in `builtins` (enabled_builtins), allowed by the built-in "
    "filter, and its own check passed",
    "builtin-not-enabled": "not in `builtins` (enabled_builtins)",
    "builtin-filtered": "refused by `filters.builtins` (filter.builtin_allowed)",
    "builtin-needs-code-format": "python_execution needs `code` in `formats.enabled`",
    "builtin-no-deferred-tools": "tool_search is only shown when catalog tools are "
    "deferred",
    "builtin-no-database": "search_schemas and execute_sql need an enabled database "
    "source (`database_sources`)",
    "builtin-needs-tool-search-mode": "the discovery tools exist only in tool search "
    "mode",
    "tool-search-mode-discovery": "in tool search mode the discovery tools are always "
    "immediately available",
    "tool-search-mode-offloading": "in tool search mode the context offloading tools "
    "are always immediately available",
    "special-category": "in tool search mode, tools of category structured_output or "
    "human are always immediately available and bypass the filters",
    # ---- which catalog tools may be used at all (the filtering table) ------
    "server-disabled": "the tool's server is not enabled (server.enabled)",
    "server-denied": "the server is in `filters.servers.deny`",
    "tool-denied": "the tool matches `filters.tools.deny`",
    "not-selected": "servers or tools are selected and this tool is neither on a "
    "selected server nor a selected tool",
    "server-selected": "the tool's server is in `filters.servers.allow` "
    "(selectedServers)",
    "tool-selected": "the tool matches `filters.tools.allow` (selectedTools, "
    "`server:*` included)",
    "no-filter": "no servers or tools are selected, so every tool is discoverable",
    "unsafe": "the tool is marked `safe: false` and the profile does not allow "
    "unsafe tools (`allow_unsafe`, `--allow-unsafe`)",
    # ---- three-level selection --------------------------------------------------
    "level-core": "level 1: a core tool (level 1, or in `levels.core_tools`) is "
    "always included",
    "level-capability": "level 2: a tag matches the required capabilities (after "
    "skill-group expansion)",
    "level-no-capability": "level 2: not a core tool and no tag matches the required "
    "capabilities",
    "level-whitelist": "level 3: not in `levels.allowed_tools` "
    "(allowed_tools ∩ (core ∪ matched))",
    "simple-task-pruned": "a simple task keeps only `levels.simple_task_tools`",
    # ---- tools shown without a search --------------------------------------------------------
    "pre-discovered": "listed in `tool_search_mode.pre_discovered`, so available "
    "without searching",
    "discovered": "the model added it (add_tool) or loaded it (tool_search) "
    "earlier in the session",
    # ---- deferral, the automatic search and the cap --------------------
    "auto-search-match": "the automatic tool_search with the query found it and it "
    "fits under the cap, so it is materialized",
    "auto-search-no-match": "the automatic tool_search with the query did not find "
    "it (score 0)",
    "below-min-score": "the automatic tool_search scored it under the relevance "
    "floor `mcp.min_score` (0.05 unless the profile says otherwise, as `pick` uses)",
    "past-fit": "the automatic tool_search found it over the floor, but its fit is far "
    "under the best tool's (odds under a fifth of the best's): where the fit ends, the "
    "search stops (docs/search.md, the cut)",
    "auto-search-turned-away": "an abstention turned the query away, as `pick` does: the "
    "tuning's (nearer to requests no tool fits than to any tool, docs/tune.md), else the "
    "zero-shot one shipped with the embedding model (docs/search.md), so the automatic "
    "tool_search shows none; the reason is pick's",
    "priority": "higher priority is preferred when tools match equally: it breaks "
    "ties in relevance score, and orders the tools the levels matched by capability",
    "auto-search-off": "catalog tools are deferred and no automatic search ran "
    "(tool_search not enabled, or `mcp.auto_search: false`)",
    "over-cap": "the cap of catalog tools in the prompt is reached; deferred when a "
    "search tool can still reveal it, else excluded",
    "normal-mode": "normal mode (`mcp.defer: false`): the tool is shown directly",
    "tool-search-mode-deferred": "in tool search mode the tool must be found with "
    "search_tools and added with add_tool",
    "undiscoverable": "deferred, but no search tool the model can reach would ever show it "
    "(a tool the cap cut keeps the rule `over-cap`)",
    "advice-tool-search": "the model is shown 30 catalog tools or more at once; "
    "tool search mode, or picking per request, is advised (advice, not a fate)",
    # ---- gateway tool discovery ---------------------------------------------------
    "gateway-disabled": "the gateway's tool discovery is off (`gateway.enabled: false`)",
    "gateway-passthrough": "passthrough returns the request unchanged",
    "gateway-no-tools": "the request has no tools, so nothing is filtered",
    "gateway-search-fallback": "enable_search_fallback is forced false for relevance "
    "and true for tool-search and api",
    "gateway-skip-min-tools": "relevance skips filtering when total_tools <= min_tools",
    "gateway-skip-keep-all": "relevance skips filtering when the keep count >= "
    "total_tools",
    "gateway-keep-count": "keep = max(min(int(total * target_ratio), max_tools), "
    "min_tools)",
    "gateway-kept": "among the top `keep` tools by relevance score",
    "gateway-force-kept": "kept past the keep count as an always_keep or expanded tool",
    "gateway-past-fit": "within the keep count, but its fit by the relevance scorer is far "
    "under the best tool's (odds under a fifth of the best's): where the fit ends, the "
    "gateway stops (docs/search.md, the cut); dropped as below the keep count",
    "gateway-dropped": "below the keep count; stored as deferred for the session but "
    "not discoverable (relevance injects no search tool)",
    "gateway-deferred": "tool-search and api defer every tool behind the phantom "
    "search tool",
    "gateway-phantom": "the phantom search tool injected and consumed by the gateway",
    "gateway-expanded": "found by an earlier gateway search and reinjected",
    "gateway-api-endpoint": "the api strategy's selector endpoint",
    # ---- a scripted session (toolcat resolve --steps) ----------------------------------------
    "call-unavailable": "the model called a tool it does not see at this step: refused",
    "call-invalid": "the arguments do not match the tool's parameters: refused",
    "search-regex": "search_tools matched the regular expression; the best 5 are "
    "returned",
    "search-fuzzy-fallback": "the regex matched nothing; fuzzy search returned the "
    "best 5",
    "search-invalid-regex": "search_tools was given an invalid regular expression",
    "add-tool": "add_tool moves deferred tools into the model's tools",
    "show-all-tools": "show_all_tools lists the names of every available tool",
    "tool-search-call": "tool_search finds deferred tools by relevance and "
    "materializes them",
    "gateway-search-regex": "the gateway matched (?i) + the query over names, "
    "descriptions and parameters",
    "gateway-search-keyword": "the query is not a valid regex; keyword matching was "
    "used",
    "gateway-api-selected": "the api selector chose the tools to reinject",
    "gateway-fail-open": "the api search failed (no endpoint, HTTP error, timeout or "
    "a meaningless answer), so all deferred tools were restored",
    "phantom-loop-limit": "the phantom loop stops after 5 searches in a row; the "
    "call is dropped from the response",
    "user-turn": "a new user message: the next request is resolved for its text",
    "tool-call": "a catalog tool was called; toolcat does not run it, it is recorded as "
    "recently used",
}
