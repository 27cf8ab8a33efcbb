"""One dummy of each extension point, registered only by ``tests/test_extension_points.py``:
a problem (:mod:`.prefix_max`), a solver template (:mod:`.reverse_scan_solver`) and a
worklist (:mod:`.aliased_bag`). Each is what a newcomer writes; registering it is the one
line the test adds to its table. :mod:`.seed_stamps`, a problem that records the order in
which its indices are worked, serves the seed-policy tests (``tests/llp/test_seed_policy.py``)
and is registered nowhere."""
