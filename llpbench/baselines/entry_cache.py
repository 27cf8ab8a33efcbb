"""A JSON file of named entries under a format number: the on-disk form of the tuned-Δ
caches (:mod:`llpbench.baselines.delta.family`, :mod:`llpbench.baselines.gap_delta`), read
and updated in one place so that both refuse a foreign file the same way.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

from llpbench.errors import FormatError
from llpbench.io import write_json_atomic


def read_entries(path: Path, fmt: int, field: str, what: str) -> dict[str, dict[str, Any]]:
    """The entries under ``field`` of the cache at ``path`` ({} if there is no file).

    Raises
    ------
    FormatError
        If the file is not JSON or not of format ``fmt``; ``what`` names the expected file
        and what to do (e.g. ``"a Δ cache of format 1; delete it to retune"``).
    """
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        return {}
    except json.JSONDecodeError as exc:
        raise FormatError(path, exc.lineno, f"invalid JSON ({exc.msg})") from None
    if not isinstance(data, dict) or data.get("format") != fmt:
        raise FormatError(path, None, what)
    entries = data.get(field, {})
    return entries if isinstance(entries, dict) else {}


def write_entry(
    path: Path, fmt: int, field: str, what: str, name: str, entry: dict[str, Any]
) -> None:
    """Record ``entry`` under ``name``, keeping the other entries (atomic replace; the
    entries sorted by name so that the file diffs well)."""
    entries = read_entries(path, fmt, field, what)
    entries[name] = entry
    path.parent.mkdir(parents=True, exist_ok=True)
    write_json_atomic(path, {"format": fmt, field: dict(sorted(entries.items()))})


class CachedEntry:
    """Mixin for a dataclass stored as one entry: its ``cached`` field says it was read back
    (never written), and ``load`` (the load averages it was measured under) is a tuple.
    A subclass turns its own nested fields back with :meth:`decode`."""

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)  # type: ignore[call-overload]
        d.pop("cached")
        return d

    @classmethod
    def decode(cls, d: dict[str, Any]) -> dict[str, Any]:
        """The subclass's fields from their JSON form (``d`` is a copy it may change)."""
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]):
        d = cls.decode(dict(d))
        d["load"] = tuple(d.get("load", (0.0, 0.0, 0.0)))
        return cls(**d, cached=True)
