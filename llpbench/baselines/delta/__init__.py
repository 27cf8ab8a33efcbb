"""Δ-stepping, the SSSP baseline of the LLP-FW evaluation, and how its Δ is chosen.

- :mod:`~llpbench.baselines.delta.stepping`: the entry point (Meyer and Sanders' Δ-stepping,
  lock-free, any thread count), its distance types and its default Δ; its kernels are
  :mod:`~llpbench.baselines.delta.serial` (one thread) and
  :mod:`~llpbench.baselines.delta.parallel` (T threads), over the buckets and bins of
  :mod:`~llpbench.baselines.delta.bins`.
- :mod:`~llpbench.baselines.delta.family`: Δ as a property of the graph family, chosen by
  the fixed rule of ``configs/delta.toml`` on the family's reference graph, and cached.
- :mod:`~llpbench.baselines.delta.chooser`: the Δ a run uses for a graph (a given Δ, else
  the family's), looked up once per graph and recorded; shards tune a family once.

Units: ``delta`` is always in weight units. SSSP's level worklists take a width tuned by the
same rule (``level_delta``, weight units) and use it as ``bucket_width`` in priority units
(weight x 2**20 for float weights); ``runs.csv`` keeps the two in their own columns.
"""
