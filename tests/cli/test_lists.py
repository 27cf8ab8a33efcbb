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
