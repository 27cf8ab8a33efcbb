"""How to read a graph file where the file itself does not settle it: :class:`ReadOptions`.

One value, made once from the command line's graph-file flags (:mod:`llpbench.cli.reading`)
or a sweep's ``[read]`` settings, and handed whole to the registry, the sweep's studies and
the format's reader; each reads the part it needs from its properties, so that no layer
takes it apart into loose arguments and builds it again.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ReadOptions:
    """How to read a graph *file* where the file itself does not settle it (CLI flags).

    ``directed`` None lets the file decide; ``index_base`` is ``auto``, ``0`` or ``1``;
    ``weights`` is a weight rule (``file`` keeps the file's), None for the default: the file's
    weights, or ``uniform-int:1:255`` (seed 0) with a warning when it has none.
    """

    directed: bool | None = None
    index_base: str = "auto"
    weights: str | None = None
    compact: bool = False  # renumber the ids that occur to 0..k-1
    # negative file weights set aside (recorded; the graph's weights 0) instead of refusing
    # the file: the CLI's reading, where BFS ignores weights, `datasets info` reports them
    # and SSSP refuses naming --weights unit (llpbench.problems.check_input)
    negative: bool = False

    @property
    def given(self) -> list[str]:
        """The flags that say these options, as a user writes them (empty: the defaults)."""
        out = []
        if self.directed is not None:
            out.append("--directed" if self.directed else "--undirected")
        if self.index_base != "auto":
            out.append(f"--index-base {self.index_base}")
        if self.weights is not None:
            out.append(f"--weights {self.weights}")
        if self.compact:
            out.append("--compact-ids")
        return out

    @property
    def weights_column(self) -> bool:
        """``--weights file``: an edge list's third column is a weight even where a KONECT
        header says the file is unweighted."""
        return self.weights == "file"

    @property
    def replaces_weights(self) -> bool:
        """A rule replaces the file's weights, so a negative one is a placeholder, read."""
        return self.weights not in (None, "file")

    @property
    def negative_aside(self) -> bool:
        """Negative file weights are set aside (the graph's weights 0) instead of refused."""
        return self.negative and not self.replaces_weights

    def stored(self) -> dict[str, object]:
        """The options a sweep records (``meta.json``, a config's keys): those given."""
        out: dict[str, object] = {}
        if self.directed is not None:
            out["directed"] = self.directed
        if self.index_base != "auto":
            out["index_base"] = self.index_base
        if self.weights is not None:
            out["weights"] = self.weights
        if self.compact:
            out["compact"] = True
        return out
