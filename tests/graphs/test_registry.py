"""The dataset registry: name resolution, rule names, file paths, and the spec-keyed cache."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from llpbench import paths
from llpbench.errors import LlpbenchError, SpecError, UnknownNameError
from llpbench.graphs import registry
from llpbench.graphs.registry import GraphNotFoundError, is_cached, list_specs, load_graph, resolve

REPO = Path(__file__).resolve().parents[2]
LUXEMBOURG = REPO / "datasets" / "luxembourg_osm.mtx.xz"  # embedded in the repository

TINY_TOML = """
[graphs.tiny-one]
family = "mesh"
description = "a 4 x 5 grid"
generator = "mesh"
rows = 4
cols = 5
weights = "uniform-int:1:255"
weight_seed = {seed}

[graphs.sparse-ids]
family = "citation"
source = "file"
path = "data/ids.txt"
directed = true
compact = true
weights = "unit"

[graphs.on-disk]
family = "road"
source = "file"
path = "data/g.wel"
weights = "file"
"""


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch, tmp_path):
    """Every test gets its own cache and the repository's configs, whatever the caller set."""
    monkeypatch.delenv(paths.CONFIG_DIR_ENV, raising=False)
    monkeypatch.setenv(paths.DATA_DIR_ENV, str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def tiny_config(monkeypatch, tmp_path):
    """A private registry in tmp_path/configs; returns a function that rewrites it."""
    conf = tmp_path / "proj" / "configs"
    conf.mkdir(parents=True)
    monkeypatch.setenv(paths.CONFIG_DIR_ENV, str(conf))

    def write(text: str = TINY_TOML, seed: int = 1) -> Path:
        target = conf / "datasets.toml"
        target.write_text(text.replace("{seed}", str(seed)))
        st = target.stat()  # keep mtimes distinct so the parsed-config cache notices the edit
        os.utime(target, ns=(st.st_atime_ns, st.st_mtime_ns + seed * 1_000_000))
        return target

    write()
    return write


# --------------------------------------------------------------------------- the real registry


def test_registry_holds_every_graph_of_the_evaluation():
    names = {s.name for s in list_specs()}
    expected = {
        "kron-2e14",
        "kron-2e15",
        "kron-2e16",
        "rmat8-2e14",
        "graph500-s18-ef16",
        "asia_rand",
        "coAuthorsDBLP",
        "luxembourg-road",
        "delaunay-n16",
        "cit-hepph",
        "dag-2e14",
        "mesh-256",
        "uniform-2e14",
        "uniform-2e16",
        "grid-hw-450",
        "rgg-2e16",
        "tiny-kron",
        "tiny-rmat",
        "tiny-mesh",
        "tiny-dag",
        "tiny-uniform",
    }
    assert expected <= names


def test_every_registry_entry_has_a_valid_weight_rule_and_a_known_source():
    from llpbench.graphs.weights import parse_weight_rule

    for spec in list_specs():
        parse_weight_rule(spec.weights)
        assert spec.source in registry.SOURCES
        assert spec.family and spec.description
        if spec.source == "generator" and spec.generator != "highway_grid":
            assert spec.weights == "uniform-int:1:255"
        elif spec.generator == "highway_grid":  # issue 32's road-like graph: 100..2000
            assert spec.weights == "uniform-int:100:2000"


def test_every_generated_entry_names_a_generator_and_its_parameters():
    import importlib
    import inspect

    from llpbench.graphs.dataset_specs import generator_module

    for spec in list_specs():
        if spec.source == "generator":
            module = importlib.import_module(generator_module(spec.generator))
            assert spec.generator in module.__all__
            fn = getattr(module, spec.generator)
            inspect.signature(fn).bind(**spec.params, name=spec.name)


def test_suitesparse_entries_name_group_and_matrix():
    asia = resolve("asia_rand")
    assert (asia.source, asia.params["group"], asia.params["matrix"]) == (
        "suitesparse",
        "DIMACS10",
        "asia_osm",
    )
    assert resolve("coAuthorsDBLP").family == "collaboration"


def test_bundled_file_paths_resolve_into_the_repository_datasets_folder():
    assert resolve("luxembourg-road").params["path"] == "bundled:luxembourg_osm.mtx.xz"
    assert resolve("luxembourg-road").path == LUXEMBOURG
    assert resolve("cit-hepph").params["directed"] is True


def test_rule_name_inherits_the_like_entry_and_overrides_pattern_fields():
    spec = resolve("kron-2e17")
    base = resolve("kron-2e16")
    assert spec.origin == "rule" and base.origin == "registry"
    assert spec.generator == "kronecker"
    assert spec.params == {**base.params, "scale": 17}
    assert (spec.weights, spec.weight_seed) == (base.weights, base.weight_seed)
    assert "17" in spec.description


def test_graph500_and_rmat_rule_names_capture_scale_and_edge_factor():
    g5 = resolve("graph500-s20-ef32")
    assert (g5.params["scale"], g5.params["edge_factor"], g5.params["a"]) == (20, 32, 0.57)
    rm = resolve("rmat16-2e12")
    assert (rm.generator, rm.params["scale"], rm.params["edge_factor"]) == ("rmat", 12, 16)


def test_registered_name_wins_over_a_matching_rule():
    assert resolve("graph500-s18-ef16").origin == "registry"


def test_rule_field_above_its_limit_is_a_spec_error():
    with pytest.raises(SpecError, match="scale 40 is above the limit 30"):
        resolve("kron-2e40")


def test_rule_fields_with_leading_zeros_do_not_match():
    with pytest.raises(UnknownNameError, match="unknown graph 'kron-2e017'; did you mean"):
        resolve("kron-2e017")


def test_unknown_name_suggests_the_closest_registered_names():
    with pytest.raises(UnknownNameError, match="did you mean tiny-kron"):
        resolve("tiny-kronn")


def test_missing_path_and_directory_are_graph_not_found(tmp_path):
    with pytest.raises(GraphNotFoundError, match="no such graph file"):
        resolve(str(tmp_path / "nope.mtx"))
    with pytest.raises(GraphNotFoundError, match="directory"):
        resolve(str(tmp_path))


def test_existing_file_resolves_to_an_uncached_file_spec():
    spec = resolve(str(LUXEMBOURG))
    assert (spec.name, spec.family, spec.source, spec.origin) == (
        "luxembourg_osm",
        "file",
        "file",
        "path",
    )
    assert spec.weights == "file" and not spec.cacheable


def test_pattern_only_file_gets_default_random_weights_and_is_not_cached(tmp_path):
    g = load_graph(str(LUXEMBOURG))
    assert (g.n, g.m, g.directed) == (114_599, 239_332, False)
    assert g.integer_weights and 1 <= g.weights.min() and g.weights.max() <= 255
    assert g.weights.min() < g.weights.max()
    assert not (tmp_path / "cache").exists() or not any((tmp_path / "cache").iterdir())


# --------------------------------------------------------------------------- the cache


def test_load_graph_builds_weights_and_caches_then_reloads(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    spec = resolve("tiny-mesh")
    assert not is_cached(spec)
    g = load_graph("tiny-mesh")
    assert (g.n, g.m, g.name, g.family) == (256, 960, "tiny-mesh", "mesh")
    assert 1 <= g.weights.min() and g.weights.max() <= 255
    assert g.provenance["spec_key"] == spec.key()
    assert (cache / "tiny-mesh.graph" / "indices.npy").is_file() and is_cached(spec)

    def no_build(*args, **kwargs):
        raise AssertionError("rebuilt although cached")

    monkeypatch.setattr(registry, "build_graph", no_build)
    again = load_graph("tiny-mesh")
    for a, b in zip(
        (g.indptr, g.indices, g.weights), (again.indptr, again.indices, again.weights), strict=True
    ):
        np.testing.assert_array_equal(a, b)
    assert (again.name, again.family, again.directed) == ("tiny-mesh", "mesh", False)


def test_cache_dir_argument_overrides_the_environment(tmp_path):
    other = tmp_path / "elsewhere"
    load_graph("tiny-mesh", cache_dir=other)
    assert is_cached("tiny-mesh", other) and not is_cached("tiny-mesh")


def test_changed_spec_rebuilds_the_cached_graph(tiny_config, tmp_path):
    first = load_graph("tiny-one")
    assert is_cached("tiny-one")
    tiny_config(seed=2)
    assert not is_cached("tiny-one")
    second = load_graph("tiny-one")
    assert is_cached("tiny-one")
    np.testing.assert_array_equal(first.indices, second.indices)
    assert not np.array_equal(first.weights, second.weights)
    assert second.provenance["spec_key"] == resolve("tiny-one").key()


def test_changed_description_keeps_the_cache(tiny_config):
    load_graph("tiny-one")
    tiny_config(TINY_TOML.replace("a 4 x 5 grid", "a small grid"), seed=1)
    assert resolve("tiny-one").description == "a small grid"
    assert is_cached("tiny-one")


def test_unreadable_cache_entry_is_rebuilt(tmp_path):
    load_graph("tiny-mesh")
    (tmp_path / "cache" / "tiny-mesh.graph" / "meta.json").write_bytes(b"not json")
    g = load_graph("tiny-mesh")
    assert g.m == 960 and is_cached("tiny-mesh")


def test_changed_source_file_rebuilds(tiny_config, tmp_path):
    data = tmp_path / "proj" / "data"
    data.mkdir()
    (data / "g.wel").write_text("0 1 5\n1 2 7\n")
    g = load_graph("on-disk")
    assert (g.n, g.m, sorted(g.weights.tolist())) == (3, 2, [5, 7])
    (data / "g.wel").write_text("0 1 5\n1 2 7\n2 3 9\n")
    assert not is_cached("on-disk")
    assert load_graph("on-disk").m == 3


def test_compact_file_entry_renumbers_the_ids_that_occur_in_order(tiny_config, tmp_path):
    data = tmp_path / "proj" / "data"
    data.mkdir()
    (data / "ids.txt").write_text("# from to\r\n900\t5\r\n5\t70\r\n")
    g = load_graph("sparse-ids")
    assert (g.n, g.m, g.directed) == (3, 2, True)
    src, dst, _ = g.edges()
    assert sorted(zip(src.tolist(), dst.tolist(), strict=True)) == [(0, 1), (2, 0)]
    assert g.provenance["compacted_from_n"] == 901


def test_cit_hepph_is_directed_and_counts_only_the_papers_it_names():
    g = load_graph("cit-hepph")
    assert (g.n, g.m, g.directed, g.family) == (21_550, 201_275, True, "citation")
    used = (g.out_degrees() > 0) | (np.bincount(g.indices, minlength=g.n) > 0)
    assert used.all()


def test_specs_handed_out_are_copies(tmp_path):
    spec = resolve("tiny-mesh")
    spec.params["rows"] = 3
    assert resolve("tiny-mesh").params["rows"] == 16


# --------------------------------------------------------------------------- malformed registries


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[graphs.x\nfamily = 1", "not valid TOML"),
        ('[graphs.x]\ngenerator = "mesh"\nrows = 2\ncols = 2\n', "needs a string `family`"),
        ('[graphs.x]\nfamily = "m"\ngenerator = "mesh"\nsource = "file"\n', "exactly one of"),
        ('[graphs.x]\nfamily = "m"\nsource = "ftp"\n', "source 'ftp' is not one of"),
        ('[graphs.x]\nfamily = "m"\nsource = "suitesparse"\ngroup = "G"\n', "needs matrix"),
        ('[graphs.x]\nfamily = "m"\nsource = "file"\npath = "a"\nsha265 = "0"\n', "no key sha265"),
        (
            '[graphs.x]\nfamily = "m"\ngenerator = "mesh"\nrows = 2\ncols = 2\nweight_seed = "1"\n',
            "weight_seed",
        ),
        ('[rules.r]\npattern = "x{n}"\nlike = "missing"\n', "is like 'missing'"),
    ],
)
def test_malformed_registry_is_a_spec_error_naming_the_file(tiny_config, text, message):
    path = tiny_config(text)
    with pytest.raises(SpecError, match=message) as info:
        list_specs()
    assert str(path) in str(info.value)


def test_unknown_generator_parameter_is_a_spec_error(tiny_config):
    tiny_config('[graphs.x]\nfamily = "m"\ngenerator = "mesh"\nrows = 2\ncols = 2\nsize = 3\n')
    with pytest.raises(SpecError, match="takes no parameter size"):
        load_graph("x")


def test_unknown_generator_is_a_spec_error(tiny_config):
    tiny_config('[graphs.x]\nfamily = "m"\ngenerator = "_key"\n')
    with pytest.raises(SpecError, match="no generator named '_key'"):
        load_graph("x")


def test_missing_registry_is_a_spec_error(monkeypatch, tmp_path):
    monkeypatch.setenv(paths.CONFIG_DIR_ENV, str(tmp_path / "void"))
    with pytest.raises(LlpbenchError, match="dataset registry not found"):
        list_specs()


# --------------------------------------------------------------------------- paths


def test_config_dir_prefers_env_then_cwd_configs_then_the_repository(monkeypatch, tmp_path):
    assert paths.config_dir() == REPO / "configs"
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "datasets.toml").write_text("")
    assert paths.config_dir() == (tmp_path / "configs").resolve()
    monkeypatch.setenv(paths.CONFIG_DIR_ENV, str(tmp_path / "x"))
    assert paths.config_dir() == (tmp_path / "x").resolve()


def test_data_dir_prefers_argument_then_env_then_the_repository(monkeypatch, tmp_path):
    assert paths.data_dir("/a/b") == Path("/a/b")
    assert paths.data_dir() == tmp_path / "cache"
    monkeypatch.delenv(paths.DATA_DIR_ENV)
    assert paths.data_dir() == REPO / "datasets"


@pytest.mark.parametrize("suffix", [".mtx", ".gr", ".wel"])
def test_negative_file_weights_are_refused_unless_a_rule_replaces_them(tmp_path, suffix):
    from llpbench.errors import NegativeWeightError
    from llpbench.graphs.registry import ReadOptions

    text = {  # one negative weight among positive ones (LFAT5.mtx has such values)
        ".mtx": "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 2 2.5\n2 3 -4.5\n3 1 1\n",
        ".gr": "p sp 3 3\na 1 2 2\na 2 3 -4\na 3 1 1\n",
        ".wel": "0 1 2\n1 2 -4\n2 0 1\n",
    }[suffix]
    path = tmp_path / f"neg{suffix}"
    path.write_text(text)
    with pytest.raises(NegativeWeightError, match="negative weight"):
        load_graph(str(path), cache_dir=tmp_path / "c1", options=ReadOptions(directed=True))
    unit = load_graph(str(path), cache_dir=tmp_path / "c2",
                      options=ReadOptions(directed=True, weights="unit"))
    assert unit.m == 3 and set(np.asarray(unit.weights).tolist()) == {1}
