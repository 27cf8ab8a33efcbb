#!/usr/bin/env bash
# Strong-scaling run (configs/scaling.toml, 1..16 threads by default) and its report: Table 2
# (speedup), the one-thread overhead table and Figure 5 (scaling), all from the same run.
#   scripts/strong_scaling.sh [RESULTS_DIR] [THREADS]      e.g. scripts/strong_scaling.sh results 1..32
# Needs llpbench installed (or PYTHONPATH at the repository root); its real graphs are the
# ones embedded in datasets/. Prints the machine's core count first: points above it oversubscribe.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-results}"
threads="${2:-1..16}"
py="${PYTHON:-python3}"
echo "cores: $(nproc); threads: $threads; python: $($py -c 'import sys; print(sys.version.split()[0])')"
$py -c 'import numba, numpy, scipy; print("numba", numba.__version__, "numpy", numpy.__version__, "scipy", scipy.__version__)'
$py -m llpbench run --config scaling --threads "$threads" --out "$out" --no-progress
$py -m llpbench table speedup --results "$out/latest"
$py -m llpbench table overhead --results "$out/latest"
$py -m llpbench plot scaling --results "$out/latest"
