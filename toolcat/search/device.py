"""Where the embedding model runs: `auto`, `cpu`, `cuda` or `mps`, and its batch size there.

The device is chosen by the `device` option (`--device`), else `$TOOLCAT_DEVICE`, else the
`device:` key of toolcat.yaml (the CLI passes it as the option), else `auto`: a CUDA GPU when
torch sees one, else Apple's MPS, else the CPU. Asking for a device torch cannot use is an
error, not a silent fall back to the CPU.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from toolcat.config import DEVICES
from toolcat.errors import UsageError

DEVICE_ENV = "TOOLCAT_DEVICE"
# Texts encoded per forward pass: a GPU is only busy with large batches; on a CPU larger
# batches only pad more (texts in a batch are padded to the longest).
BATCH_SIZES = {"cpu": 64, "cuda": 256, "mps": 128}

Progress = Callable[[int, int], None]  # (texts encoded so far, texts to encode)


def requested_device(option: str | None = None) -> str:
    """The device asked for: `option`, else $TOOLCAT_DEVICE, else `auto`.

    Raises:
        UsageError: the name is not one of DEVICES.
    """
    chosen = (option or os.environ.get(DEVICE_ENV) or "auto").strip().lower()
    if chosen.split(":")[0] not in DEVICES:
        source = "--device" if option else f"${DEVICE_ENV}"
        raise UsageError(f"{source}: unknown device '{chosen}'; known: {', '.join(DEVICES)}")
    return chosen


def resolve_device(requested: str) -> str:
    """The torch device for `requested` (`auto` picks the best one torch sees).

    Raises:
        UsageError: the device was asked for by name and torch cannot use it here.
    """
    import torch

    cuda = torch.cuda.is_available()
    mps_backend = getattr(torch.backends, "mps", None)
    mps = bool(mps_backend and mps_backend.is_available())
    if requested == "auto":
        return "cuda" if cuda else "mps" if mps else "cpu"
    kind = requested.split(":")[0]
    if (kind == "cuda" and not cuda) or (kind == "mps" and not mps):
        raise UsageError(f"device '{requested}' was asked for, but torch sees no "
                         f"{'CUDA GPU' if kind == 'cuda' else 'Apple MPS device'} here",
                         hint="use --device auto or cpu")
    return requested


def batch_size(device: str) -> int:
    return BATCH_SIZES.get(device.split(":")[0], BATCH_SIZES["cpu"])
