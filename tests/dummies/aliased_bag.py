"""A dummy worklist for the extension-point test: the shared bag's functions under a module
of its own, which is all a worklist is to the solvers (``create``, ``push``, ``pop``,
``pop_batch``, ``FUSE``, ``fuses``)."""

from llpbench.llp.worklists.shared_bag import (  # noqa: F401 (the worklist interface)
    FUSE,
    create,
    fuses,
    pop,
    pop_batch,
    push,
)
