"""Flags declared once and handed to a command as one value: :class:`FlagGroup`.

Several commands take the same flags for the same thing: every command that reads a graph
file the five of :data:`llpbench.cli.reading.READING`, the sweep commands those of
:class:`llpbench.bench.options.RunOptions`. Declared in each command's signature, they were
written four times and taken apart into loose arguments before being built again. A group
is declared once, with the function that builds its value; a command names one parameter
for the whole value (``reading: ReadOptions``) and :func:`takes` puts the group's flags in
its place for typer, builds the value from them on each call and passes it on. A new flag
is then one line in its group, and every command that takes the group gets it.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["Flag", "FlagGroup", "takes"]


@dataclass(frozen=True)
class Flag:
    """One flag of a group: the keyword its builder takes, its type and its typer Option."""

    name: str
    annotation: Any
    option: Any


@dataclass(frozen=True)
class FlagGroup:
    """Flags declared once (``flags``) and the function that makes one value of them
    (``build``, called with every flag's value by name)."""

    flags: tuple[Flag, ...]
    build: Callable[..., Any]

    def subset(self, *names: str) -> FlagGroup:
        """The same group with only the flags ``names`` (the builder's defaults fill in the
        others): for a command that takes part of it."""
        unknown = set(names) - {f.name for f in self.flags}
        if unknown:
            raise ValueError(f"no such flags in the group: {sorted(unknown)}")
        return FlagGroup(tuple(f for f in self.flags if f.name in names), self.build)

    def parameters(self) -> list[inspect.Parameter]:
        return [inspect.Parameter(f.name, inspect.Parameter.KEYWORD_ONLY, default=f.option,
                                  annotation=f.annotation) for f in self.flags]


def takes(**groups: FlagGroup) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorate a command whose parameter NAME is the value of ``groups[NAME]``: typer sees
    the group's flags in that parameter's place, the command gets the built value."""

    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        signature = inspect.signature(command, eval_str=True)
        params: list[inspect.Parameter] = []
        for param in signature.parameters.values():
            if param.name in groups:
                params += groups[param.name].parameters()
            else:
                params.append(param.replace(kind=inspect.Parameter.KEYWORD_ONLY))
        names = [p.name for p in params]
        wrong = {n for n in names if names.count(n) > 1} | (set(groups) - set(signature.parameters))
        if wrong:
            raise TypeError(f"{command.__name__}: a flag group names no parameter, or its "
                            f"flags clash with the command's: {sorted(wrong)}")

        @functools.wraps(command)
        def run(**values: Any) -> Any:
            for name, group in groups.items():
                values[name] = group.build(**{f.name: values.pop(f.name) for f in group.flags})
            return command(**values)

        run.__signature__ = signature.replace(parameters=params)  # type: ignore[attr-defined]
        run.__annotations__ = {p.name: p.annotation for p in params}
        run.__annotations__["return"] = signature.return_annotation
        return run

    return decorate
