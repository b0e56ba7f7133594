"""URLs read from what a user, a catalog or a client supplies."""

from __future__ import annotations

from urllib.parse import SplitResult, urlsplit


def split_url(text: str) -> SplitResult | None:
    """`urlsplit(text)`, or None where Python refuses the text: a bracketed host that is no IP
    address (a defanged 'hxxp://example[.]com', 'http://[x]/') or an unclosed bracket."""
    try:
        return urlsplit(text)
    except ValueError:
        return None
