"""llpbench.baselines."""
