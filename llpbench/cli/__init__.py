"""Typer commands: each parses its flags and delegates to one package function."""
