"""Δ-stepping, the SSSP baseline of the LLP-FW evaluation, and how its Δ is chosen.

- :mod:`~llpbench.baselines.delta.stepping`: the kernel (Meyer and Sanders' Δ-stepping,
  lock-free, any thread count), its distance types and its default Δ.
- :mod:`~llpbench.baselines.delta.family`: Δ as a property of the graph family, chosen by
  the fixed rule of ``configs/delta.toml`` on the family's reference graph, and cached.
- :mod:`~llpbench.baselines.delta.chooser`: the Δ a run uses for a graph (a given Δ, else
  the family's), looked up once per graph and recorded; shards tune a family once.

SSSP's bucketed worklist takes the same Δ as its bucket width (as Galois tunes its OBIM
shift), so both sides of the comparison get the same tuning.
"""
