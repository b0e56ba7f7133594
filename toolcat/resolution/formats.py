"""The format selection: the preferred format if available, else the first enabled one
that is.

native needs a model with native tool calling; code needs the python_execution built-in to be
shown; the text formats (hermes, mistral, pythonic, json) are always available when enabled.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolcat.resolution.decisions import Decision, FormatChoice
from toolcat.resolution.profile import FORMATS

if TYPE_CHECKING:
    from toolcat.resolution.profile import Profile


def availability(profile: Profile) -> dict[str, tuple[bool, str]]:
    """For every format: (available, why)."""
    enabled = profile.formats.enabled
    out: dict[str, tuple[bool, str]] = {}
    for name in FORMATS:
        if name not in enabled:
            out[name] = (False, "not in formats.enabled")
        elif name == "native":
            out[name] = ((True, "the model calls tools natively") if profile.model.tool_calling
                         else (False, "the model has no native tool calling"))
        elif name == "code":
            shown = ("python_execution" in profile.builtins
                     and profile.filters.builtin_allowed("python_execution"))
            out[name] = ((True, "python_execution is enabled") if shown
                         else (False, "python_execution is not an enabled, allowed built-in"))
        else:
            out[name] = (True, "text formats are always available when enabled")
    return out


def choose_format(profile: Profile) -> tuple[FormatChoice, Decision]:
    """The format of the prompt, and the decision explaining it."""
    status = availability(profile)
    primary = profile.formats.primary
    available = tuple(f for f in profile.formats.enabled if status[f][0])
    unavailable = {f: why for f, (ok, why) in status.items()
                   if not ok and (f in profile.formats.enabled or f == primary)}
    if status[primary][0]:
        name, rule = primary, "format-primary"
        reason = f"the preferred format {primary} is available: {status[primary][1]}"
    else:
        # a profile without any available format is refused when it is loaded
        name, rule = available[0], "format-fallback"
        reason = (f"the preferred format {primary} is unavailable ({status[primary][1]}); "
                  f"{name} is the first enabled format that is available")
    children = tuple(
        Decision(f, "available" if ok else "unavailable",
                 "format-available" if ok else "format-unavailable", why)
        for f, (ok, why) in status.items() if f in profile.formats.enabled or f == primary)
    choice = FormatChoice(name=name, primary=primary, fallback=name != primary, reason=reason,
                          available=available, unavailable=unavailable)
    return choice, Decision("format", name, rule, reason, children)
