"""Where the bundled catalogs live: inside the wheel, or beside the package in a checkout.
(The cache is toolcat.source.cache.)"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent  # toolcat/, beside catalogs/ in a checkout


def bundled(*parts: str) -> Path:
    """A path under the shipped `catalogs/` folder."""
    for root in (_PACKAGE / "_catalogs", _PACKAGE.parent / "catalogs"):
        if root.is_dir():
            return root.joinpath(*parts)
    raise FileNotFoundError("the bundled catalogs/ folder is missing from this installation")


def demo_catalog() -> Path:
    return bundled()


def builtins_catalog() -> Path:
    return bundled("builtins", "builtins.yaml")
