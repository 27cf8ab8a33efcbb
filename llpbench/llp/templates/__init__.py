"""Solver templates: each is written once and compiled per (problem, worklist).

A template refers to the problem and the worklist only through the module names
``PROBLEM`` and ``WORKLIST`` imported from :mod:`llpbench.llp.templates.bind`.
:mod:`llpbench.llp.compile` binds them by generating a copy of the template whose import
line names the real modules, so that numba inlines problem and worklist code into the
solver loop and caches the result on disk like any other module.
"""
