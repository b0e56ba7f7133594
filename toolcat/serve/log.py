"""The session log of `toolcat serve --log FILE`: JSON Lines, one object per event, appended
and flushed line by line so that a crash loses nothing already written.

Every object has `ts` (UTC, ISO 8601) and `event`: start, search, add, approval, call,
refused, stop.
Secret values handed to upstream servers are scrubbed from every line; tool call arguments
are not logged (only their names), since they may carry personal data.
"""

from __future__ import annotations

import json
import threading
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import IO, Any

from toolcat.errors import UsageError
from toolcat.serve.launch import Secrets


def ms_since(began: float) -> float:
    """Milliseconds since `began` (a `time.perf_counter()`), as the log's `ms` fields hold them."""
    return round((time.perf_counter() - began) * 1000, 1)


class SessionLog:
    """Appends events to `path`; with no path, writes nothing."""

    def __init__(self, path: Path | None, secrets: Secrets | None = None) -> None:
        self.secrets = secrets or Secrets()
        self._lock = threading.Lock()
        self._file: IO[str] | None = None
        if path is not None:
            if path.is_dir():
                raise UsageError(f"--log {path} is a folder; give a file to append to")
            try:
                self._file = path.open("a", encoding="utf-8", buffering=1)
            except OSError as exc:
                raise UsageError(f"cannot open the log {path}: {exc.strerror or exc}") from None

    def write(self, event: str, **fields: Any) -> None:
        if self._file is None:
            return
        record = {"ts": datetime.now(timezone.utc).isoformat(timespec="milliseconds"),
                  "event": event, **fields}
        line = self.secrets.scrub(json.dumps(record, ensure_ascii=False, default=str))
        with self._lock:
            self._file.write(line + "\n")
            self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
