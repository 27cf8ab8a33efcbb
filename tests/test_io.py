"""llpbench.io: atomic writes leave the old file or the new one, never a part, and no temp."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from llpbench.io import (
    FILE_MODE,
    atomic_file,
    atomic_path,
    atomic_symlink,
    file_sha256,
    sha256_hex,
    write_bytes_atomic,
    write_json_atomic,
    write_text_atomic,
)


def test_writes_replace_the_file_and_leave_no_temporary(tmp_path):
    path = tmp_path / "a.json"
    write_text_atomic(path, "old\n")
    write_json_atomic(path, {"b": 1, "a": [1, 2]})
    assert json.loads(path.read_text()) == {"a": [1, 2], "b": 1}
    assert path.read_text().endswith("\n")
    write_bytes_atomic(path, b"\x00\x01")
    assert path.read_bytes() == b"\x00\x01"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json"]
    assert path.stat().st_mode & 0o777 == FILE_MODE


def test_a_failed_write_keeps_the_old_file_and_removes_the_temporary(tmp_path):
    path = tmp_path / "t.txt"
    write_text_atomic(path, "kept")
    with pytest.raises(RuntimeError, match="disk gone"), atomic_file(path, "w") as fh:
        fh.write("half")
        raise RuntimeError("disk gone")
    with pytest.raises(RuntimeError, match="converter died"), atomic_path(path) as tmp:
        tmp.write_text("half")
        raise RuntimeError("converter died")
    assert path.read_text() == "kept"
    assert [p.name for p in tmp_path.iterdir()] == ["t.txt"]


def test_atomic_file_refuses_a_mode_that_is_not_a_new_write(tmp_path):
    with pytest.raises(ValueError, match="mode"), atomic_file(tmp_path / "x", "a"):
        pass


def test_atomic_symlink_replaces_the_link(tmp_path):
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    atomic_symlink("one", tmp_path / "latest")
    atomic_symlink("two", tmp_path / "latest")
    assert (tmp_path / "latest").resolve() == (tmp_path / "two").resolve()


def test_digests_agree_with_hashlib(tmp_path):
    path = tmp_path / "blob"
    path.write_bytes(b"x" * (3 << 20))
    assert file_sha256(path) == hashlib.sha256(b"x" * (3 << 20)).hexdigest()
    assert sha256_hex("ab", b"c") == hashlib.sha256(b"abc").hexdigest()


def test_parents_makes_the_folder_and_without_it_a_missing_folder_is_refused(tmp_path):
    target = tmp_path / "run" / "tables" / "t.md"
    with pytest.raises(FileNotFoundError, match="No such file"):
        write_text_atomic(target, "x")
    assert list(tmp_path.iterdir()) == []
    assert write_text_atomic(target, "x", parents=True).read_text() == "x"
    write_bytes_atomic(tmp_path / "new" / "b", b"y", parents=True)
    assert (tmp_path / "new" / "b").read_bytes() == b"y"
    assert sorted(p.name for p in target.parent.iterdir()) == ["t.md"]


def test_a_streamed_write_shows_nothing_at_the_target_until_it_ends(tmp_path):
    path = tmp_path / "big.bin"
    with atomic_file(path, "wb") as fh:
        fh.write(b"part one")
        assert not path.exists()
        fh.write(b", part two")
    assert path.read_bytes() == b"part one, part two"


#: Where the package opens a file for writing other than through llpbench.io, and why that is
#: fine: the file it writes is a temporary path llpbench.io handed its caller.
DIRECT_WRITES = {
    "llpbench/graphs/download.py": "the extracted member goes into atomic_path's temporary",
}
WRITE = re.compile(r"""\bopen\([^)]*["'](?:w|wb|a|ab|x|xb|w\+)["']|\.write_(?:text|bytes)\(""")


def test_every_file_the_package_writes_goes_through_llpbench_io():
    package = Path(__file__).resolve().parents[1] / "llpbench"
    found = sorted(
        f"{path.relative_to(package.parent)}:{no}: {line.strip()}"
        for path in package.rglob("*.py")
        if path.name != "io.py" or path.parent != package
        for no, line in enumerate(path.read_text().splitlines(), 1)
        if WRITE.search(line) and str(path.relative_to(package.parent)) not in DIRECT_WRITES
    )
    assert found == []
    assert WRITE.search('with open(tmp / RUNS, "w", newline="") as fh:')
    assert not WRITE.search('with open(self.meta_path, "r+b") as fh:')
