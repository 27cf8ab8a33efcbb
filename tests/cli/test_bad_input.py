"""Bad input of every kind through the real entry point: graph files, flags and configs.

Each case asserts the user-facing contract of issue 18: a non-zero exit, stderr exactly one
``error:`` line (after ``warning:`` lines only where a case says so), no traceback, no new
folder in the results store, and an earlier run's ``runs.csv`` byte-identical afterwards.
The cases run in-process through :func:`llpbench.cli.main.run` (the console script's own
error handler) for speed; the memory test runs a real child process, whose peak resident
memory it measures.
"""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
from pathlib import Path

import pytest

from llpbench.cli import main
from llpbench.graphs.limits import graph_bytes, human_bytes
from tests.cli.conftest import assert_one_line_error
from tests.conftest import seed_tuned_delta

REPO = Path(__file__).resolve().parents[2]
HUGE = 3_000_000_000
BANNER = "%%MatrixMarket matrix coordinate integer general\n"
PATTERN = "%%MatrixMarket matrix coordinate pattern general\n"

# name -> bytes of the file the case names as {name}
FILES: dict[str, bytes] = {
    "huge.mtx": f"{PATTERN}{HUGE} {HUGE} 1\n1 2\n".encode(),
    "huge.gr": f"p sp {HUGE} 1\na 1 2 3\n".encode(),
    "huge.txt": f"{HUGE} 1\n0 1\n".encode(),
    "huge.wel": f"# llpbench: n={HUGE}\n0 1 2\n".encode(),
    "huge-ids.txt": f"0 {HUGE}\n".encode(),
    "lying-m.mtx": f"{PATTERN}3 3 99999\n1 2\n".encode(),
    "isolated.mtx": f"{PATTERN}30000000 30000000 1\n1 2\n".encode(),
    "empty.txt": b"",
    "blank.gr": b"\n  \n\n",
    "comments.txt": b"# nothing but a comment\n",
    "noise.txt": bytes(range(256)) * 8,
    "noise.mtx": b"%%MatrixMarket\x00\x01\x02" + bytes(range(256)),
    "latin1.txt": b"\xff\xfe\x81 \x82\n",
    "truncated.mtx": (BANNER + "3 3 3\n1 2 3\n2 3 4\n").encode(),
    "truncated.mtx.gz": gzip.compress((BANNER + "3 3 1\n1 2 3\n").encode())[:-9],
    "bad-arc.gr": b"p sp 3 2\na 1 2 3\nx 2 3 4\n",
    "negative.wel": b"0 1 2\n1 2 -5\n",
    "banner.mtx": b"%MatrixMarket matrix coordinate real general\n3 3 1\n1 2 3\n",
    "out-of-range.mtx": (BANNER + "3 3 2\n1 2 3\n2 4 4\n").encode(),
    "out-of-range.gr": b"p sp 3 1\na 1 9 3\n",
    "negative-id.txt": b"1 2\n-3 4\n",
    "nan-weight.mtx": (BANNER.replace("integer", "real") + "3 3 1\n1 2 nan\n").encode(),
    "ok.txt": b"0 1\n1 2\n2 0\n",
}

TOML_STUDY = "[[study]]\nproblem = 'sssp'\ngraphs = ['tiny-kron']\n"
# name -> text of the config the case names as {name}
CONFIGS: dict[str, str] = {
    "sweeps-table.toml": "[sweeps]\nreps = 2\n" + TOML_STUDY,
    "extra-table.toml": "[extra]\nx = 1\n" + TOML_STUDY,
    "study-typo.toml": "[[study]]\nproblem = 'sssp'\ngrpahs = ['tiny-kron']\n",
    "sweep-typo.toml": "[sweep]\nrep = 2\n" + TOML_STUDY,
    "reps-zero.toml": TOML_STUDY + "reps = 0\n",
    "seed-negative.toml": "[sweep]\nseed = -1\n" + TOML_STUDY,
    "delta-nan.toml": TOML_STUDY + "delta = nan\n",
    "delta-inf.toml": TOML_STUDY + "delta = inf\n",
    "sources-bool.toml": TOML_STUDY + "sources = true\n",
    "graphs-string.toml": "[[study]]\nproblem = 'sssp'\ngraphs = 'tiny-kron'\n",
    "sweep-array.toml": "[[sweep]]\nreps = 2\n" + TOML_STUDY,
    "study-not-table.toml": "study = 1\n",
    "verify-string.toml": "[sweep]\nverify = 'yes'\n" + TOML_STUDY,
    "broken.toml": "[[study]\n",
    "empty.toml": "",
    "comment-only.toml": "# a sweep still to be written\n",
    "reps-string.toml": TOML_STUDY + "reps = '3'\n",
    "delta-string.toml": TOML_STUDY + "delta = 'big'\n",
    "threads-zero.toml": TOML_STUDY + "threads = [0]\n",
    "threads-letter.toml": TOML_STUDY + "threads = 'a'\n",
    "problem-typo.toml": "[[study]]\nproblem = 'ssp'\ngraphs = ['tiny-kron']\n",
    "solver-typo.toml": TOML_STUDY + "configs = ['cyclc']\n",
    "weights-bogus.toml": TOML_STUDY + "weights = 'bogus'\n",
    "graph-typo.toml": "[[study]]\nproblem = 'sssp'\ngraphs = ['tiny-krn']\n",
    "good.toml": TOML_STUDY,
}

RUN = ["run", "--no-progress", "--no-baseline", "--worklist", "swb"]

# (argv with {file} placeholders, needles of the error line, warning lines allowed)
CASES = [
    # graph files: sizes claimed before anything is allocated
    (["solve", "-g", "{huge.mtx}"], ["huge.mtx:2", "3,000,000,000 vertices", "--max-memory"]),
    ([*RUN, "-g", "{huge.gr}"], ["huge.gr:1", "problem line claims 3,000,000,000"]),
    (["solve", "-g", "{huge.txt}"], ["huge.txt:1", "count header claims"]),
    (["datasets", "info", "{huge.wel}"], ["huge.wel", "llpbench comment claims"]),
    (["solve", "-g", "{huge-ids.txt}"], ["ids up to 3,000,000,000"]),
    (["solve", "-g", "{lying-m.mtx}"], ["lying-m.mtx:2", "99,999 data lines", "hold at most"]),
    (["solve", "-g", "{isolated.mtx}"], ["isolated.mtx:2", "misread header"]),
    (["tune-delta", "-g", "{huge.mtx}", "--no-save"], ["huge.mtx:2", "would need"]),
    (["solve", "-g", "{isolated.mtx}", "--max-memory", "1K"], ["bound", "--max-memory"]),
    # graph files: empty, binary, malformed
    (["solve", "-g", "{empty.txt}"], ["empty.txt:1", "empty file (0 bytes)"]),
    ([*RUN, "-g", "{empty.txt}"], ["empty file"]),
    (["tune-delta", "-g", "{blank.gr}", "--no-save"], ["blank.gr:1", "only blank lines"]),
    ([*RUN, "-g", "{comments.txt}"], ["comments.txt: the graph has no vertices"], True),
    (["solve", "-g", "{noise.txt}"], ["noise.txt", "binary data"]),
    ([*RUN, "-g", "{noise.mtx}"], ["noise.mtx", "binary data"]),
    (["solve", "-g", "{latin1.txt}"], ["latin1.txt:1", "found binary data"]),
    ([*RUN, "-g", "{truncated.mtx}"], ["truncated.mtx:4", "3 data lines as declared on line 2"]),
    (["solve", "-g", "{truncated.mtx.gz}"], ["not a valid gzip file"]),
    (["solve", "-g", "{bad-arc.gr}"], ["bad-arc.gr:3", "arc line"]),
    ([*RUN, "-g", "{negative.wel}"], ["negative.wel:2", "negative weight -5", "--weights unit"],
     True),
    (["solve", "-g", "{banner.mtx}"], ["banner.mtx:1", "%%MatrixMarket"]),
    (["solve", "-g", "{out-of-range.mtx}"], ["out-of-range.mtx:4", "1..3, found 4"]),
    ([*RUN, "-g", "{out-of-range.gr}"], ["out-of-range.gr:2", "1..3, found 9"]),
    (["solve", "-g", "{negative-id.txt}"], ["negative-id.txt:2", "found -3"]),
    (["solve", "-g", "{nan-weight.mtx}"], ["nan-weight.mtx:3", "finite number"]),
    ([*RUN, "-g", "{missing.mtx}"], ["missing.mtx: no such graph file"]),
    (["solve", "-g", "{ok.txt}", "--index-base", "2"], ["--index-base '2'"]),
    # flags: the same wording on run and solve
    ([*RUN, "-g", "tiny-kron", "--delta", "nan"], ["--delta must be a positive finite number"]),
    ([*RUN, "-g", "tiny-kron", "--delta", "inf"], ["--delta must be a positive finite", "inf"]),
    ([*RUN, "-g", "tiny-kron", "--delta", "0"], ["--delta must be a positive finite number"]),
    ([*RUN, "-g", "tiny-kron", "--delta", "-1"], ["--delta must be a positive finite number"]),
    ([*RUN, "-g", "tiny-kron", "--seed", "-1"], ["--seed must be an integer >= 0, got -1"]),
    ([*RUN, "-g", "tiny-kron", "--reps", "0"], ["--reps must be an integer >= 1, got 0"]),
    ([*RUN, "-g", "tiny-kron", "--reps", "-2"], ["--reps must be an integer >= 1, got -2"]),
    ([*RUN, "-g", "tiny-kron", "--sources", "0"], ["--sources must be an integer >= 1, got 0"]),
    ([*RUN, "-g", "tiny-mesh", "--sources", "1000"], ["sources must be at most", "got 1000"]),
    ([*RUN, "-g", "{ok.txt}", "--sources", "4"], ["sources must be at most 3", "got 4"], True),
    ([*RUN, "-g", "tiny-kron", "--threads", "0"], ["bad thread spec '0'"]),
    ([*RUN, "-g", "tiny-kron", "--threads", ","], ["bad thread spec"]),
    ([*RUN, "-g", "tiny-kron", "--threads", "1..100000"], ["bad thread spec", "<="]),
    ([*RUN, "-g", "tiny-kron", "--threads", "4-2"], ["bad thread spec"]),
    ([*RUN, "-g", "tiny-kron", "--threads", "3..1"], ["bad thread spec '3..1'", "A <= B"]),
    ([*RUN, "-g", "tiny-kron", "--threads", "a"], ["bad thread spec 'a'", "is not N"]),
    ([*RUN, "-g", "tiny-kron", "--threads", "1.."], ["bad thread spec '1..'", "is not N"]),
    ([*RUN, "-g", "tiny-kron", "--threads", "1,,2"], ["bad thread spec '1,,2'"]),
    ([*RUN, "-g", "tiny-krn"], ["unknown graph 'tiny-krn'; did you mean tiny-kron"]),
    (["solve", "-g", "no-such-graph"], ["unknown graph 'no-such-graph'"]),
    ([*RUN, "-g", "tiny-kron", "--solver", "cyclc"], ["unknown solver 'cyclc'; did you mean"]),
    (["solve", "-g", "tiny-kron", "--solver", "nope"], ["unknown solver 'nope'; known:"]),
    ([*RUN[:-2], "-g", "tiny-kron", "--worklist", "xx"], ["unknown worklist 'xx'; known:"]),
    ([*RUN, "-p", "sssq", "-g", "tiny-kron"], ["unknown problem 'sssq'; did you mean sssp"]),
    ([*RUN, "-p", "knapsack", "--size", "-3"], ["sizes must be an integer >= 1, got -3"]),
    (["solve", "-p", "knapsack", "--size", "8", "--seed", "-1"], ["--seed must be an integer"]),
    (["solve", "-g", "tiny-kron", "--threads", "0"], ["threads must be between 1"]),
    ([*RUN, "-g", "{ok.txt}", "--max-memory", "1X"], ["--max-memory: expected a size", "1X"]),
    (["solve", "-g", "{ok.txt}", "--max-memory", "0"], ["--max-memory: expected a size"]),
    # configs: the same wording, unknown tables and keys with a close match
    ([*RUN, "--config", "{sweeps-table.toml}"], ["unknown table 'sweeps'; did you mean sweep"]),
    ([*RUN, "--config", "{extra-table.toml}"], ["unknown table 'extra'; known:"]),
    ([*RUN, "--config", "{study-typo.toml}"], ["unknown key 'grpahs'; did you mean graphs"]),
    ([*RUN, "--config", "{sweep-typo.toml}"], ["[sweep]: unknown key 'rep'; did you mean reps"]),
    ([*RUN, "--config", "{reps-zero.toml}"], ["study 1: reps must be an integer >= 1, got 0"]),
    ([*RUN, "--config", "{seed-negative.toml}"], ["seed must be an integer >= 0, got -1"]),
    ([*RUN, "--config", "{delta-nan.toml}"], ["delta must be a positive finite number, got nan"]),
    ([*RUN, "--config", "{delta-inf.toml}"], ["delta must be a positive finite number, got inf"]),
    ([*RUN, "--config", "{sources-bool.toml}"], ["sources must be an integer >= 1, got True"]),
    ([*RUN, "--config", "{graphs-string.toml}"], ["graphs must be a list of names"]),
    ([*RUN, "--config", "{sweep-array.toml}"], ["[sweep] must be one table"]),
    ([*RUN, "--config", "{study-not-table.toml}"], ["at least one [[study]] table"]),
    ([*RUN, "--config", "{verify-string.toml}"], ["verify must be true or false"]),
    ([*RUN, "--config", "{broken.toml}"], ["not valid TOML"]),
    ([*RUN, "--config", "{empty.toml}"], ["empty.toml: expected at least one [[study]]"]),
    ([*RUN, "--config", "{comment-only.toml}"], ["at least one [[study]] table"]),
    ([*RUN, "--config", "{reps-string.toml}"], ["reps must be an integer >= 1, got '3'"]),
    ([*RUN, "--config", "{delta-string.toml}"], ["delta must be a positive finite", "'big'"]),
    ([*RUN, "--config", "{threads-zero.toml}"], ["threads-zero.toml: study 1: bad thread"]),
    ([*RUN, "--config", "{threads-letter.toml}"], ["study 1: bad thread spec 'a'"]),
    ([*RUN, "--config", "{problem-typo.toml}"], ["problem-typo.toml: study 1: unknown problem"]),
    ([*RUN, "--config", "{solver-typo.toml}"], ["study 1: unknown solver 'cyclc'"]),
    ([*RUN, "--config", "{weights-bogus.toml}"], ["study 1: bad weight rule 'bogus'"]),
    ([*RUN, "--config", "{graph-typo.toml}"], ["unknown graph 'tiny-krn'; did you mean"]),
    ([*RUN, "--config", "{good.toml}", "--reps", "0"], ["--reps must be an integer >= 1"]),
    ([*RUN, "--config", "{good.toml}", "--delta", "nan"], ["--delta must be a positive finite"]),
]


@pytest.fixture(scope="module")
def store(tmp_path_factory, tuned_delta_cache) -> dict[str, Path]:
    """Input files, a datasets cache, and a results store holding one finished run."""
    root = tmp_path_factory.mktemp("bad-input")
    seed_tuned_delta(root / "cache", tuned_delta_cache)
    inputs = root / "inputs"
    inputs.mkdir()
    for name, data in FILES.items():
        (inputs / name).write_bytes(data)
    for name, text in CONFIGS.items():
        (inputs / name).write_text(text)
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLPBENCH_")}
    env.update(LLPBENCH_DATA_DIR=str(root / "cache"), LLPBENCH_RESULTS_DIR=str(root / "results"))
    proc = subprocess.run(
        [sys.executable, "-m", "llpbench", *RUN, "-g", "tiny-kron", "--reps", "1"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    runs = (root / "results" / "latest" / "runs.csv").resolve()
    assert runs.stat().st_size > 0
    return {"inputs": inputs, "cache": root / "cache", "results": root / "results", "runs": runs}


def invoke(args: list[str], monkeypatch, capsys) -> subprocess.CompletedProcess[str]:
    """Run the console script's entry point in this process; its exit as a CompletedProcess."""
    monkeypatch.setattr(sys, "argv", ["llpbench", *args])
    monkeypatch.setenv("COLUMNS", "200")
    with pytest.raises(SystemExit, match=r"^[1-9][0-9]*$") as ended:  # a code, not a message
        main.run()
    out, err = capsys.readouterr()
    return subprocess.CompletedProcess(args, ended.value.code, out, err)


def _listing(folder: Path) -> list[tuple[str, str]]:
    return sorted((p.name, os.readlink(p) if p.is_symlink() else "") for p in folder.iterdir())


@pytest.mark.parametrize(
    ("args", "needles", "warns"),
    [(c[0], c[1], c[2] if len(c) > 2 else False) for c in CASES],
    ids=[" ".join(c[0][len(RUN) if c[0][: len(RUN)] == RUN else 0 :]) for c in CASES],
)
def test_bad_input_is_one_error_line_and_leaves_the_store_as_it_was(
    store, monkeypatch, capsys, args, needles, warns
):
    monkeypatch.setenv("LLPBENCH_DATA_DIR", str(store["cache"]))
    monkeypatch.setenv("LLPBENCH_RESULTS_DIR", str(store["results"]))
    monkeypatch.setenv("LLPBENCH_MAX_MEMORY", "")  # unset, and restored after --max-memory
    argv = [str(store["inputs"] / a[1:-1]) if a.startswith("{") else a for a in args]
    before, rows = _listing(store["results"]), store["runs"].read_bytes()
    proc = invoke(argv, monkeypatch, capsys)
    line = assert_one_line_error(proc, *needles, warnings=warns)
    assert len(line) < 400 and line.isprintable()  # no raw bytes echoed
    assert _listing(store["results"]) == before  # no new run folder, `latest` unchanged
    assert store["runs"].read_bytes() == rows


def test_suite_holds_forty_cases_across_files_flags_and_configs():
    files = [c for c in CASES if any("{" in a and "toml" not in a for a in c[0])]
    configs = [c for c in CASES if any(".toml}" in a for a in c[0])]
    flags = [c for c in CASES if c not in files and c not in configs]
    assert len({tuple(c[0]) for c in CASES}) == len(CASES)  # distinct command lines
    assert len(CASES) >= 40 and len(files) >= 15 and len(configs) >= 10 and len(flags) >= 10


@pytest.mark.parametrize(
    ("name", "header"),
    [("huge.mtx", "huge.mtx:2"), ("huge.gr", "huge.gr:1"), ("huge.txt", "huge.txt:1")],
)
def test_huge_header_is_refused_without_allocating_it(tmp_path, name, header):
    """A two-line file claiming 3e9 vertices (each format): refused by its reader at the header
    line, in one line naming the bytes, and the child's peak resident memory stays far below
    what the claim would allocate."""
    path = tmp_path / name
    path.write_bytes(FILES[name])
    probe = (
        "import resource, subprocess, sys\n"
        "p = subprocess.run([sys.executable, '-m', 'llpbench', 'solve', '-g', sys.argv[1]],"
        " capture_output=True, text=True)\n"
        "sys.stderr.write(p.stderr)\n"
        "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLPBENCH_")}
    env["LLPBENCH_DATA_DIR"] = str(tmp_path / "cache")
    proc = subprocess.run([sys.executable, "-c", probe, str(path)], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300)
    code, peak_kib = (int(x) for x in proc.stdout.split())
    assert code == 2
    need = human_bytes(graph_bytes(HUGE, 1))
    child = subprocess.CompletedProcess(proc.args, code, "", proc.stderr)
    assert_one_line_error(child, str(tmp_path / header), "3,000,000,000 vertices", need)
    assert peak_kib * 1024 < graph_bytes(HUGE, 1) / 50  # the interpreter, not the arrays
    assert peak_kib * 1024 < 1 << 30
