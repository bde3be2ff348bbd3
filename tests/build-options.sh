#!/bin/bash
# build/bin/perf has BPF skeletons and at least the features Debian's perf has.
set -euo pipefail
opts=$($PERF version --build-options)
echo "$opts"
for f in bpf_skeletons dwarf libelf libdw-dwarf-unwind zlib zstd lzma \
	 libtraceevent libpython; do
	echo "$opts" | grep -E -q "^ *$f: \[ on  \]" || { echo "missing: $f"; exit 1; }
done
