#!/bin/bash
# The browser tests' harness in build/browser: Debian's Chromium (and fonts
# for speedscope's icons), the *.mjs scripts, and the npm packages of
# package-lock.json (playwright-core, speedscope), installed once.
set -euo pipefail
cd "$(dirname "$0")/../.."
B=build/browser
scripts/deps.sh chromium fonts-noto-color-emoji jq > /dev/null
mkdir -p $B
cp tests/browser/package.json tests/browser/package-lock.json tests/browser/*.mjs $B/
[ -d $B/node_modules/playwright-core ] && [ -d $B/node_modules/speedscope ] ||
	(cd $B && npm ci --silent --no-audit --no-fund)
