"""What a profile settles alone, before any tool is looked at: the model's size class and
the cap of catalog tools in the prompt, whether catalog tools are shown directly (normal
mode), and what `provider_search` makes of a provider request. Stage 1 of the resolver."""

from __future__ import annotations

from toolcat.resolution.decisions import Cap, Decision
from toolcat.resolution.profile import Profile, ProviderSearch


def provider_search_decision(search: ProviderSearch) -> Decision:
    """The trace node saying what the profile's provider_search makes of a provider request."""
    namespaces = ", grouped in one namespace per server" if search.namespaces else ""
    runs = "run by the client with toolcat's search" if search.openai == "client" \
        else "hosted"
    native = (f"the provider's own tool search: Anthropic's tool_search_tool_{search.anthropic}, "
              f"OpenAI Responses' tool_search ({runs}); deferred tools marked "
              f"defer_loading{namespaces}")
    keep = ("found tools are loaded by tool_reference (Anthropic) or allowed by tool_choice "
            "allowed_tools (OpenAI), so the tools array stays as it was"
            if search.discovery == "keep-cache"
            else "found tools are written into a new tools array on the next request")
    reasons = {
        "auto": "deferred tools go out with defer_loading where the provider has deferred "
                "loading, next to its own search when the request brings none",
        "native": native + "; render refuses a provider without one",
        "local": f"toolcat's own search tools, sent as ordinary tools; {keep}",
        "native-or-local": native + f"; elsewhere toolcat's own search tools ({keep})",
    }
    return Decision("provider search", search.mode, "provider-search", reasons[search.mode])


def is_normal_mode(profile: Profile) -> bool:
    """Normal mode: catalog tools shown directly (`mcp.defer: false`)."""
    return not profile.tool_search_mode.enabled and not profile.mcp.defer


def choose_cap(profile: Profile) -> tuple[Cap, Decision]:
    """The cap of catalog tools in the prompt, by model size or as the profile says.

    The cap bounds the tools the automatic search materializes; normal mode shows
    every tool. So the caps by size apply to deferred catalog tools, and normal mode is capped
    only by an explicit `mcp.max_in_prompt`.
    """
    model = profile.model
    size = model.size_class
    size_text = f"{model.size_b:g}B" if model.size_b is not None else "size not given"
    model_decision = Decision(
        "model", size, "model-size" if size != "unknown" else "model-size-unknown",
        f"{model.name}, {size_text}, "
        + ("native tool calling" if model.tool_calling else "no native tool calling"))
    limit = profile.mcp.max_in_prompt
    if limit == "all":
        cap = Cap(None, size, "cap-none", "mcp.max_in_prompt is all: no cap")
    elif isinstance(limit, int):
        cap = Cap(limit, size, "cap-profile", f"mcp.max_in_prompt is {limit}")
    elif is_normal_mode(profile):
        cap = Cap(None, size, "cap-normal-mode", "normal mode (mcp.defer: false) shows every "
                  "tool; the caps by size bound the automatic search; "
                  "mcp.max_in_prompt caps normal mode")
    else:
        n = getattr(profile.mcp.caps, size)
        why = (f"{size} model ({size_text})" if size != "unknown"
               else "the model size is not given; the default cap")
        cap = Cap(n, size, "cap-by-size" if size != "unknown" else "model-size-unknown",
                  f"{n} catalog tools for a {why}" if size != "unknown" else f"{n}: {why}")
    cap_decision = Decision("cap", "none" if cap.limit is None else str(cap.limit), cap.rule,
                            cap.reason)
    return cap, Decision("model", size, model_decision.rule, model_decision.reason,
                         (cap_decision,))
