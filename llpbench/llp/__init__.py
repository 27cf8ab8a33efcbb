"""The LLP framework: atomics, the problem contract, worklists, solvers and threads.

Nothing here knows a problem by name: a solver is a template compiled once per
(problem, worklist) pair (see :mod:`llpbench.llp.compile`).
"""
