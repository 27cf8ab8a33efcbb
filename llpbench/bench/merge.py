"""Merging the run folders of a sharded sweep into one run folder that reads like any other.

Every shard's ``meta.json`` names its plan (hash of the sweep's studies, cells and llpbench
version), the cut into N shards and its own number (:mod:`llpbench.bench.shards`). Merging
checks all of that before writing a byte: shards of different plans, of different cuts, or a
shard given twice are refused with one line; so are two shards that measured the same row,
or a graph whose size differs between shards (different data on different nodes).

Missing or unfinished shards are refused too, unless ``allow_incomplete``: then the merged
folder is written all the same and says so in its ``meta.json`` (``"complete": false``,
``missing_shards``, ``incomplete_shards``; ``status`` ``incomplete``), and every table's title
names the missing shards. The merged folder is built beside its destination and renamed into
place, so it appears whole or not at all; the shards' folders are only read.
"""

from __future__ import annotations

import contextlib
import csv
import io
import os
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from llpbench.bench.layout import META, RUNS, point_latest
from llpbench.bench.schema import CELL_KEY
from llpbench.bench.store import RunStore
from llpbench.errors import LlpbenchError
from llpbench.io import atomic_file, write_json_atomic

#: What must agree between the shards of one merge.
SAME = ("plan_hash", "llpbench", "count", "assignment_hash")


class MergeError(LlpbenchError):
    """Shards that cannot be merged (different plans, a shard twice, a clash of rows)."""


@dataclass
class ShardRun:
    """One shard's run folder, read."""

    run_dir: Path
    meta: dict[str, Any]
    header: list[str]
    rows: list[list[str]]
    cut_line: bool  # a last line cut short by a kill was left out

    @property
    def shard(self) -> dict[str, Any]:
        return self.meta["shard"]

    @property
    def index(self) -> int:
        return int(self.shard["index"])

    @property
    def complete(self) -> bool:
        return self.meta.get("status") == "finished" and len(self.rows) >= int(
            self.shard.get("rows_expected", 0)
        )

    @property
    def seconds(self) -> float:
        """Time spent in the shard's sessions (a resumed shard has several)."""
        return sum(float(s.get("seconds", 0.0)) for s in self.meta.get("sessions", []))

    def summary(self) -> dict[str, Any]:
        return {
            "shard": self.index,
            "run_dir": str(self.run_dir),
            "run_id": self.meta.get("run_id", self.run_dir.name),
            "status": self.meta.get("status"),
            "rows": len(self.rows),
            "rows_expected": self.shard.get("rows_expected"),
            "seconds": round(self.seconds, 3),
            "hostname": (self.meta.get("machine") or {}).get("hostname"),
            "started": self.meta.get("started"),
            "finished": self.meta.get("finished"),
        }


@dataclass
class MergeResult:
    run_dir: Path
    shards: list[ShardRun]
    count: int
    missing: list[int] = field(default_factory=list)
    incomplete: list[int] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return not self.missing and not self.incomplete

    @property
    def rows(self) -> int:
        return sum(len(s.rows) for s in self.shards)

    def gaps(self) -> str:
        return describe_gaps(self.shards, self.count, self.missing, self.incomplete)


def shard_run_dirs(paths: list[Path]) -> list[Path]:
    """The shard run folders named by ``paths``: a run folder itself, or a folder whose
    sub-folders include shard runs (a results folder)."""
    found: list[Path] = []
    for path in paths:
        path = Path(path)
        if (path / RUNS).is_file():
            found.append(path)
        elif path.is_dir():
            inner = sorted(p for p in path.iterdir() if _is_shard_run(p))
            if not inner:
                raise MergeError(f"{path}: neither a run folder nor a folder of shard runs")
            found += inner
        else:
            raise MergeError(f"{path}: no such run folder")
    if not found:
        raise MergeError("nothing to merge: name the shards' run folders")
    return found


def _is_shard_run(path: Path) -> bool:
    return (path / RUNS).is_file() and "shard" in RunStore(path).read_meta()


def read_shard(run_dir: Path) -> ShardRun:
    """A shard's rows and metadata; a last line cut short by a kill is left out."""
    meta = RunStore(run_dir).read_meta()
    if not isinstance(meta.get("shard"), dict):
        raise MergeError(f"{run_dir}: not a shard run (its meta.json has no shard record)")
    data = (run_dir / RUNS).read_text()
    cut = bool(data) and not data.endswith("\n")
    if cut:
        data = data[: data.rfind("\n") + 1]
    table = list(csv.reader(io.StringIO(data)))
    if not table:
        raise MergeError(f"{run_dir / RUNS}: empty (no header line)")
    return ShardRun(run_dir, meta, table[0], table[1:], cut)


def check_shards(shards: list[ShardRun]) -> tuple[int, list[int], list[int]]:
    """``(count, missing, incomplete)`` of shards that may be merged.

    Raises
    ------
    MergeError
        Shards of different plans, llpbench versions or cuts; a shard given twice; different
        columns; a row measured twice; a graph whose size differs between shards.
    """
    first = shards[0]
    for other in shards[1:]:
        for key in SAME:
            if other.shard.get(key) != first.shard.get(key):
                what = {"plan_hash": "plans", "llpbench": "llpbench versions",
                        "count": "numbers of shards", "assignment_hash": "cuts of the plan"}[key]
                raise MergeError(
                    f"shards of different {what}: {first.run_dir} "
                    f"({key} {_short(first.shard.get(key))}) and {other.run_dir} "
                    f"({key} {_short(other.shard.get(key))})"
                )
        if other.header != first.header:
            raise MergeError(f"{first.run_dir} and {other.run_dir} have different columns")
    seen: dict[int, Path] = {}
    for s in shards:
        if s.index in seen:
            raise MergeError(
                f"shard {s.index}/{first.shard['count']} given twice: {seen[s.index]} "
                f"and {s.run_dir}"
            )
        seen[s.index] = s.run_dir
    _check_rows(shards)
    count = int(first.shard["count"])
    missing = [i for i in range(1, count + 1) if i not in seen]
    incomplete = sorted(s.index for s in shards if not s.complete)
    return count, missing, incomplete


def _short(value: Any) -> str:
    text = str(value)
    return text[:12] if len(text) == 64 else text


def _check_rows(shards: list[ShardRun]) -> None:
    header = shards[0].header
    key_at = [header.index(c) for c in (*CELL_KEY, "rep")]
    graph_at, n_at, m_at = header.index("graph"), header.index("n"), header.index("m")
    owner: dict[tuple[str, ...], int] = {}
    sizes: dict[str, tuple[tuple[str, str], Path]] = {}
    for s in shards:
        for row in s.rows:
            key = tuple(row[i] for i in key_at)
            if owner.get(key, s.index) != s.index:
                raise MergeError(
                    f"shards {owner[key]} and {s.index} both measured "
                    f"{'/'.join(key)}: not cut from one plan"
                )
            owner[key] = s.index
            size = (row[n_at], row[m_at])
            known = sizes.setdefault(row[graph_at], (size, s.run_dir))
            if known[0] != size:
                raise MergeError(
                    f"graph {row[graph_at]} differs between shards: n,m {','.join(known[0])} "
                    f"in {known[1]} but {','.join(size)} in {s.run_dir}"
                )


def merge_runs(
    run_dirs: list[Path], out: Path, *, allow_incomplete: bool = False, latest: bool = True
) -> MergeResult:
    """Merge shard run folders into the new run folder ``out`` (see the module).

    Raises
    ------
    MergeError
        When the shards cannot be merged, or shards are missing or unfinished and
        ``allow_incomplete`` is false, or ``out`` exists. Nothing is written then.
    """
    out = Path(out)
    dirs = shard_run_dirs(run_dirs)
    resolved = [d.resolve() for d in dirs]
    for i, d in enumerate(resolved):
        if d in resolved[:i]:
            raise MergeError(f"{dirs[i]} given twice")
    shards = sorted((read_shard(d) for d in dirs), key=lambda s: s.index)
    count, missing, incomplete = check_shards(shards)
    if (missing or incomplete) and not allow_incomplete:
        raise MergeError(
            f"{describe_gaps(shards, count, missing, incomplete)}: resume or rerun them "
            "(llpbench run ... --shard I/N --resume), or merge with --allow-incomplete"
        )
    if out.exists() or out.is_symlink():
        raise MergeError(f"{out} exists: merge into a new folder")
    result = MergeResult(out, shards, count, missing, incomplete)
    _write(result, _merged_meta(result))
    if latest:
        point_latest(out.parent, out)
    return result


def describe_gaps(shards: list[ShardRun], count: int, missing: list[int], bad: list[int]) -> str:
    """One phrase naming the missing shards and the unfinished ones (with their rows)."""
    parts = []
    if missing:
        parts.append(f"shard(s) {', '.join(f'{i}/{count}' for i in missing)} missing")
    for s in shards:
        if s.index in bad:
            parts.append(
                f"shard {s.index}/{count} unfinished ({s.meta.get('status')}, "
                f"{len(s.rows)} of {s.shard.get('rows_expected')} rows)"
            )
    return "; ".join(parts)


def _merged_meta(result: MergeResult) -> dict[str, Any]:
    shards = result.shards
    first = shards[0]
    deltas: dict[str, Any] = {}
    for s in shards:
        deltas.update(s.meta.get("deltas") or {})
    return {
        "run_id": result.run_dir.name,
        "command": " ".join(sys.argv),
        "merged": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "status": "finished" if result.complete else "incomplete",
        "complete": result.complete,
        "missing_shards": result.missing,
        "incomplete_shards": result.incomplete,
        "plan": {k: first.shard.get(k) for k in SAME},
        "sweep": first.meta.get("sweep"),
        "seeds": first.meta.get("seeds"),
        "schema": first.meta.get("schema", 1),  # the shards' header, kept as it is
        "deltas": deltas,
        "started": min((s.meta.get("started") or "" for s in shards), default=""),
        "finished": max((s.meta.get("finished") or "" for s in shards), default=""),
        # Readers of a single run find one machine here; every shard's is in `machines`.
        "machine": first.meta.get("machine"),
        "machines": {str(s.index): s.meta.get("machine") for s in shards},
        "merged_from": [s.summary() for s in shards],
    }


def _write(result: MergeResult, meta: dict[str, Any]) -> None:
    """runs.csv and meta.json into a hidden folder beside ``out``, then one rename."""
    out = result.run_dir
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.parent / f".{out.name}.merging-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    try:
        with atomic_file(tmp / RUNS, "w", newline="") as fh:
            writer = csv.writer(fh)
            writer.writerow(result.shards[0].header)
            for s in result.shards:
                writer.writerows(s.rows)
        write_json_atomic(tmp / META, meta)
        os.rename(tmp, out)
    except BaseException:
        with contextlib.suppress(OSError):
            shutil.rmtree(tmp)
        raise
