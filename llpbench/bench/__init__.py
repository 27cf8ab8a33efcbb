"""llpbench.bench."""
