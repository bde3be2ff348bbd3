#!/bin/bash
# patches/ is in sync with build/src, and re-exporting changes nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/export.sh --check
