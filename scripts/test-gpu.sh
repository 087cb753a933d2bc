#!/bin/bash
# Runs the GPU test binaries that `make gpu-tests` builds (bin/gputest/*.test),
# each in its package's folder, on a machine with an NVIDIA GPU and driver
# (Go is not needed). Prints one line per package and a last line
# "test-gpu: N passed, M failed"; exits 1 when any failed. Extra arguments go
# to every binary (e.g. -test.short, -test.run Forbidden).
#
#   scripts/test-gpu.sh [DIR] [go test binary flags...]
set -u
dir=${1:-bin/gputest}; shift || true
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$(cd "$dir" && pwd) || { echo "test-gpu: no folder $1" >&2; exit 2; }
if ! { command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; }; then
	echo "test-gpu: no NVIDIA GPU or driver here (nvidia-smi -L failed): the GPU tests would skip and prove nothing" >&2
	exit 1
fi
log=${TEST_GPU_LOG:-/dev/null}
pass=0 fail=0
for bin in "$dir"/*.test; do
	name=$(basename "$bin" .test)
	pkg=${name//_//}
	[ -d "$root/$pkg" ] || { echo "test-gpu: $name: no folder $pkg" >&2; fail=$((fail+1)); continue; }
	start=$(date +%s)
	if (cd "$root/$pkg" && "$bin" -test.v "$@" >>"$log" 2>&1); then
		echo "ok   $pkg $(( $(date +%s) - start ))s"; pass=$((pass+1))
	else
		echo "FAIL $pkg $(( $(date +%s) - start ))s"; fail=$((fail+1))
	fi
done
echo "test-gpu: $pass passed, $fail failed$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | sed 's/^/ on /')"
[ "$fail" -eq 0 ]
