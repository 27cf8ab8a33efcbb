"""How to run a sweep, as opposed to what the sweep is: one frozen object built once.

The command line parses its flags into one :class:`RunOptions` and hands it whole to the
session (:func:`llpbench.bench.session.run_sweep`), to each shard job and to the executor
(:mod:`llpbench.bench.cluster`), as pyperf forwards its parsed options. Options no longer
travel as loose keyword arguments through seven signatures, where one path could drop them
(``--order`` and ``--pin`` were once lost on the executor path). A new option is one field
here and its one consumer. The object pickles, so submitit can ship it to a job.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from llpbench.errors import SpecError

#: ``interleaved``: repetitions alternate across a group's configurations (A B A B), so a
#: slow drift of the machine lands on all alike; ``grouped``: each one's back to back.
ORDERS = ("interleaved", "grouped")


@dataclass(frozen=True)
class RunOptions:
    """Where a sweep's rows go and how its solves are run and submitted.

    Parameters
    ----------
    out : Path or None
        The results folder (None: :func:`llpbench.paths.results_dir`'s default).
    resume : bool
        Continue the latest run (or a shard's own folder) instead of starting a new one.
    cache_dir : Path or None
        The datasets cache (None: the default).
    progress : bool
        Draw a progress bar.
    order : str
        One of :data:`ORDERS`.
    pin : bool
        Pin each worker thread to one CPU (:mod:`llpbench.llp.placement`).
    shard : str or None
        ``"I/N"``: run only shard I of N here.
    executor, shards, only_shards, partition, time_min, array_parallelism
        Submit the shards as jobs (``local`` or ``slurm``); None: the config's ``[cluster]``
        table or the default.
    config : Path or None
        The sweep's config file, whose ``[cluster]`` table the executor reads.

    Raises
    ------
    SpecError
        For an unknown ``order``, before anything is written.
    """

    out: Path | None = None
    resume: bool = False
    cache_dir: Path | None = None
    progress: bool = True
    order: str = "interleaved"
    pin: bool = False
    shard: str | None = None
    executor: str | None = None
    shards: int | None = None
    only_shards: str | None = None
    partition: str | None = None
    time_min: int | None = None
    array_parallelism: int | None = None
    config: Path | None = None

    def __post_init__(self) -> None:
        if self.order not in ORDERS:
            raise SpecError(f"unknown order {self.order!r}; expected one of {', '.join(ORDERS)}")

    @property
    def submits_jobs(self) -> bool:
        """Whether the shards go to an executor (any executor flag was given)."""
        return bool(self.executor or self.shards is not None or self.only_shards)

    @property
    def sharded(self) -> bool:
        """Whether the sweep is cut into shards (one here, or all as jobs)."""
        return bool(self.shard) or self.submits_jobs

    def for_shard_job(self) -> RunOptions:
        """What one job of the executor runs with: its shard's folder, continued if it was
        started before, no progress bar (a job has no terminal); order and pin kept."""
        return replace(self, resume=True, progress=False, shard=None, executor=None,
                       shards=None, only_shards=None)
