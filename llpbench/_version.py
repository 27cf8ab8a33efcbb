"""The package version, on the ground floor: the run metadata, shard plans and the Δ cache
key record it, and none of them may import the top package (which lazily imports ``api``;
see ``ARCHITECTURE.md``, the floors). ``pyproject.toml`` states the same number."""

__version__ = "0.1.0"
