"""`python -m llpbench` is the same as the `llpbench` command."""

from llpbench.cli.main import run

run()
