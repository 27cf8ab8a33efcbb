#!/usr/bin/env bash
# Strong scaling with GAP side by side (issue 21), prepared for a 16-core machine, about 8 minutes:
# SSSP on kron-2e16, graph500-s18-ef16, luxembourg-road, delaunay-n16 and the families nothing was
# tuned on (grid-hw-450, rgg-2e16, rmat8-2e16, uniform-2e16) at 1,2,4,8,12,16 threads,
# every LLP worklist (obim included), our Δ-stepping (family Δ) and GAP at its own fastest Δ per
# thread count. Δ (Δ-stepping's, and the level worklists' width) is tuned per family and thread
# count by the rule of configs/delta.toml with a lighter measurement (2 sources, 3 rounds instead
# of 4 and 7: the full rule at 6 thread counts, twice, would take most of the 8 minutes); the
# lighter rule is written into the doc.
#   scripts/scaling_vs_gap.sh [--gap-bin DIR] [--threads LIST] [--graphs L] [--peer-graphs L]
#                             [--quick] [--out DIR] [--doc FILE]
# With GAP, scripts/bench_peer.py then runs issue 32's fixed comparison on --peer-graphs at the
# same thread counts (about 1 minute per graph and thread count; its table, Δ scans and
# targets land in OUT/peer*.csv and are printed).
# --gap-bin: a GAP build (git clone https://github.com/sbeamer/gapbs && make -C gapbs sssp converter),
#   else $LLPBENCH_GAP_BIN; without one, GAP is skipped with a note (no network is assumed).
# --quick: one source and one repetition (a check that the whole path runs, not a measurement).
# The run is kept under results/reference/ (default results/reference/scaling-vs-gap) and its
# table written to docs/ (default docs/scaling-vs-gap-<date>.md: link it from the README's
# measurement reports, tests/test_readme.py wants every docs page linked). Needs llpbench importable.
set -euo pipefail
cd "$(dirname "$0")/.."
gap_bin="${LLPBENCH_GAP_BIN:-}"
threads="1,2,4,8,12,16"
graphs="kron-2e16,graph500-s18-ef16,luxembourg-road,delaunay-n16,grid-hw-450,rgg-2e16,rmat8-2e16,uniform-2e16"
# issue 32's fixed comparison (scripts/bench_peer.py: each side's Δ scanned afresh per thread
# count, the paired statistic, the targets) runs after the sweep on these, when GAP is built
peer_graphs="grid-hw-450,rgg-2e16,rmat8-2e16,uniform-2e16,luxembourg-road,delaunay-n16,cit-hepph,kron-2e16,graph500-s18-ef16"
sources=2 reps=3
out="results/reference/scaling-vs-gap"
doc="docs/scaling-vs-gap-$(date -u +%Y-%m-%d).md"
while [ $# -gt 0 ]; do
  case "$1" in
    --gap-bin) gap_bin="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    --graphs) graphs="$2"; shift 2 ;;
    --peer-graphs) peer_graphs="$2"; shift 2 ;;
    --quick) sources=1 reps=1; shift ;;
    --out) out="$2"; shift 2 ;;
    --doc) doc="$2"; shift 2 ;;
    *) echo "error: unknown argument $1 (see the comment at the top of $0)" >&2; exit 2 ;;
  esac
done
py="${PYTHON:-python3}"
echo "cores: $(nproc); threads: $threads; graphs: $graphs; sources $sources, reps $reps"
$py -c 'import numba, numpy, scipy; print("numba", numba.__version__, "numpy", numpy.__version__, "scipy", scipy.__version__)'
baselines="delta-stepping"
gap_args=()
if [ -n "$gap_bin" ] && [ -x "$gap_bin/sssp" ] && [ -x "$gap_bin/converter" ]; then
  baselines="gap,delta-stepping"
  gap_args=(--gap-bin "$gap_bin")
  echo "GAP build: $gap_bin"
else
  echo "note: no GAP build (${gap_bin:-none given}): GAP skipped; give --gap-bin DIR built with" \
       "'make -C gapbs sssp converter' to run it side by side"
fi
# the lighter tuning rule: a copy of configs/ whose delta.toml measures 2 sources x 3 rounds
grep -q '^sources = 4 ' configs/delta.toml && grep -q '^rounds = 7 ' configs/delta.toml || {
  echo "error: configs/delta.toml's [rule] sources/rounds lines changed; update $0" >&2; exit 2; }
configs=$(mktemp -d)
trap 'rm -rf "$configs"' EXIT
cp -r configs/. "$configs/"
sed -i -e 's/^sources = 4 /sources = 2 /' -e 's/^rounds = 7 /rounds = 3 /' "$configs/delta.toml"
echo "Δ rule: configs/delta.toml with sources = 2, rounds = 3 (tuned per family and thread count)"
start=$(date +%s)
LLPBENCH_CONFIG_DIR="$configs" $py -m llpbench run --graph "$graphs" --threads "$threads" \
  --baseline "$baselines" --worklist swb,ptwb,ptcf,bucketed,obim \
  --sources "$sources" --reps "$reps" --out "$out" --no-progress ${gap_args[@]+"${gap_args[@]}"}
echo "sweep: $(( $(date +%s) - start )) s"
run="$out/latest"
$py -m llpbench table speedup --results "$run"
if [ "$baselines" != "delta-stepping" ]; then
  $py -m llpbench table speedup --results "$run" --against gap
fi
$py scripts/scaling_table.py "$run" "$doc" \
  --rule "the rule of configs/delta.toml measured lighter (2 sources, 3 rounds)"
if [ "$baselines" != "delta-stepping" ]; then
  peer_rounds=5
  [ "$reps" = 1 ] && peer_rounds=1
  $py scripts/bench_peer.py --gap-bin "$gap_bin" --threads "$threads" --graphs "$peer_graphs" \
    --sources "$sources" --rounds "$peer_rounds" --csv "$out/peer.csv"
fi
