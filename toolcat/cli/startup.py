"""What the command line does once before any command: put off imports that cost more than
the command they serve.

jsonschema's format checkers import `rfc3987_syntax` (installed with the `format-nongpl`
extra, for the `iri` formats), which compiles 38 Lark grammars when imported: 0.66 s of every
process that imports jsonschema, a third of `toolcat lint` on 4,000 tools, though only
`check-call` on a value declared `format: iri` ever uses them. A stand-in module takes its
place until something of it is used: `is_valid_syntax`, the one name jsonschema takes, loads
the real module on its first call, and so does reading any other attribute (but for the
dunder names that tools look up on every loaded module).
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from typing import Any

SLOW = "rfc3987_syntax"


def defer_slow_imports() -> None:
    """Put a stand-in for `rfc3987_syntax` in `sys.modules` (when it is installed and not
    imported yet)."""
    if SLOW in sys.modules or importlib.util.find_spec(SLOW) is None:
        return
    stand_in = types.ModuleType(SLOW, "stand-in until first use (toolcat.cli.startup)")
    loaded: list[types.ModuleType] = []

    def real() -> types.ModuleType:
        if not loaded:
            if sys.modules.get(SLOW) is stand_in:
                del sys.modules[SLOW]
            loaded.append(importlib.import_module(SLOW))
        return loaded[0]

    def is_valid_syntax(*args: Any, **kwargs: Any) -> Any:
        return real().is_valid_syntax(*args, **kwargs)

    def __getattr__(name: str) -> Any:  # a module's __getattr__ (PEP 562)
        if name.startswith("__"):  # `__file__`, `__path__`: what tools ask of every module
            raise AttributeError(name)
        return getattr(real(), name)

    vars(stand_in).update(is_valid_syntax=is_valid_syntax, __getattr__=__getattr__)
    sys.modules[SLOW] = stand_in
