"""List-valued flags, written one way everywhere: ``--worklist ptwb,swb`` means the same as
``--worklist ptwb --worklist swb`` (and as ``--threads 1,2,4`` always did)."""

from __future__ import annotations

from pathlib import Path

from llpbench.errors import SpecError


def split_list(values: list[str] | str | None) -> list[str]:
    """Every item of a repeatable flag, each occurrence split at commas; order kept,
    repeats dropped. A value that names an existing file is kept whole (a path may hold a
    comma).

    >>> split_list(["ptwb,swb", "ptcf", "swb"])
    ['ptwb', 'swb', 'ptcf']
    """
    if values is None:
        return []
    if isinstance(values, str):
        values = [values]
    out: list[str] = []
    for value in values:
        if "," in value and Path(value).exists():
            out.append(value)
            continue
        out += [part.strip() for part in value.split(",") if part.strip()]
    return list(dict.fromkeys(out))


def split_ints(values: list[str] | str | None, flag: str) -> list[int]:
    """:func:`split_list` for integer flags (``--size 64,128``).

    Raises
    ------
    SpecError
        Naming the flag and the item that is not an integer.
    """
    out = []
    for item in split_list(values):
        try:
            out.append(int(item))
        except ValueError:
            raise SpecError(f"{flag}: expected integers (like 1,2,3), got {item!r}") from None
    return out
