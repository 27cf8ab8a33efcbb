"""List flags: commas and repetition mean the same, everywhere."""

from __future__ import annotations

import pytest

from llpbench.cli.lists import split_ints, split_list
from llpbench.errors import SpecError


def test_commas_and_repeats_give_the_same_items_in_order_without_duplicates():
    assert split_list(["ptwb,swb"]) == split_list(["ptwb", "swb"]) == ["ptwb", "swb"]
    assert split_list(["ptwb,swb", "ptcf", "swb"]) == ["ptwb", "swb", "ptcf"]
    assert split_list([" a , b ,"]) == ["a", "b"]
    assert split_list(None) == [] and split_list([]) == []


def test_an_existing_file_whose_name_has_a_comma_is_kept_whole(tmp_path):
    path = tmp_path / "g,1.mtx"
    path.write_text("")
    assert split_list([str(path), "tiny-kron,tiny-mesh"]) == [str(path), "tiny-kron",
                                                               "tiny-mesh"]


def test_integer_lists_parse_and_name_the_flag_on_error():
    assert split_ints(["64,128", "256"], "--size") == [64, 128, 256]
    with pytest.raises(SpecError, match=r"--size: expected integers .* got 'x'"):
        split_ints(["64,x"], "--size")


def test_llpbench_list_shows_every_entry_of_each_extension_table_with_its_line():
    from typer.testing import CliRunner

    from llpbench.cli.main import app
    from llpbench.llp.solvers import SOLVERS
    from llpbench.llp.worklists import WORKLISTS
    from llpbench.problems import PROBLEMS, problem_summary
    from llpbench.report.all import TABLES

    result = CliRunner().invoke(app, ["list"], env={"COLUMNS": "250", "NO_COLOR": "1"})
    assert result.exit_code == 0, result.output
    rows = result.output.splitlines()
    expected = [*((n, s.description) for n, s in SOLVERS.items()),
                *((n, w.description) for n, w in WORKLISTS.items()),
                *((n, problem_summary(n)) for n in PROBLEMS),
                *((n, t.title) for n, t in TABLES.items())]
    missing = [n for n, line in expected
               if not any(f" {n} " in row and line in row for row in rows)]
    assert missing == []
    assert "[one thread; worklist, default swb]" in result.output  # a note, not rich markup


def test_llpbench_list_of_an_unknown_kind_is_a_one_line_error():
    import subprocess
    import sys

    from tests.cli.conftest import assert_one_line_error

    proc = subprocess.run([sys.executable, "-m", "llpbench", "list", "solver"],
                          capture_output=True, text=True, timeout=120)
    assert_one_line_error(proc, "unknown list 'solver'", "did you mean solvers")
