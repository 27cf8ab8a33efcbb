"""Graphs: the CSR `Graph`, generators, readers and writers, weights, registry and cache."""

from llpbench.graphs.graph import Graph

__all__ = ["Graph"]
