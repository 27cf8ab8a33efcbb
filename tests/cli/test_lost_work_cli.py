"""A sweep whose worklist loses work: the cell is recorded as failed with the watchdog's
message, every other row is kept, and the command ends with a clear line and a non-zero exit
(never a hang). Runs the real entry point in this process: a fresh one proves nothing here."""

from __future__ import annotations

import sys

import pandas as pd
import pytest

from llpbench.cli import main
from llpbench.llp.faults import DROP_PUSH_ENV
from llpbench.llp.watchdog import LOST_WORK_ENV

pytestmark = pytest.mark.timeout(240)


def test_a_cell_that_loses_work_is_recorded_as_failed_and_the_sweep_goes_on(
    tmp_path, monkeypatch, capsys
):
    monkeypatch.setenv(DROP_PUSH_ENV, "swb:1")  # SWB loses its every push, the seed included
    monkeypatch.setenv(LOST_WORK_ENV, "0.3")
    monkeypatch.setenv("LLPBENCH_DATA_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("COLUMNS", "200")
    out = tmp_path / "results"
    args = ["llpbench", "run", "--graph", "tiny-kron", "--worklist", "ptwb,swb", "--threads",
            "1,2", "--sources", "1", "--reps", "2", "--delta", "8", "--no-progress",
            "--out", str(out)]
    monkeypatch.setattr(sys, "argv", args)
    with pytest.raises(SystemExit) as ended:
        main.run()
    assert ended.value.code == 3
    printed = capsys.readouterr()
    errors = printed.err.strip().splitlines()
    assert errors[-1] == "error: 4 solve(s) failed verification or did not finish"
    assert "did not finish: sssp tiny-kron" in printed.out
    flat = " ".join(printed.out.split())
    assert "worklist/swb x2 rep 1: sssp worklist/swb x2: work lost: 1 items pending" in flat
    runs = pd.read_csv(next(out.glob("*/runs.csv")), keep_default_na=False)
    swb = runs[runs["worklist"] == "swb"]
    rest = runs[runs["worklist"] != "swb"]
    assert len(swb) == 4 and len(rest) == 2 * 2 * 2 + 2  # ptwb and the baseline, the floor
    assert swb["error"].str.contains("work lost: 1 items pending").all()
    assert (swb["seconds"] == "").all() and (swb["verified"].astype(str) == "False").all()
    solved = rest[rest["kind"] != "floor"]  # the floor solves nothing: never verified
    assert (rest["error"] == "").all() and (solved["verified"].astype(str) == "True").all()
    assert len(solved) == 8 and (rest[rest["kind"] == "floor"]["seconds"] != "").all()
