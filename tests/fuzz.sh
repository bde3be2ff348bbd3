#!/bin/bash
# The payload-to-sample conversion, fuzzed for a bounded time (make fuzz
# runs it longer): no crash, no read past the payload.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/fuzz.sh "${FUZZ_SECONDS:-20}"
