"""llpbench.report."""
