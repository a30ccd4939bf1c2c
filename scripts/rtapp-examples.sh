#!/usr/bin/env bash
# How many of rt-app's own doc/examples import (and why each other one does
# not): the test tests/it/rtapp_examples.rs over an rt-app checkout you
# already have. Nothing is downloaded: with no checkout the test skips.
#
#   scripts/rtapp-examples.sh PATH   PATH: an rt-app work tree, or its git
#                                    directory (a bare clone or mirror)
set -euo pipefail
cd "$(dirname "$0")/.."
src=${1:-}
if [ -z "$src" ] || [ ! -e "$src" ]; then
  echo "skipped: give the path of an rt-app checkout (work tree or git directory)"
  exit 0
fi
tree=$src
if [ ! -d "$src/doc/examples" ]; then
  # A git directory: its doc/examples as of HEAD, in a directory of our own.
  tree=$(mktemp -d)
  trap 'rm -rf "$tree"' EXIT
  git --git-dir="$src" archive HEAD doc/examples | tar -x -C "$tree"
fi
cd wasm-core
RTAPP_DIR=$(cd "$tree" && pwd) nice cargo test --profile ci --test it -- rtapp_examples --nocapture 2>&1 |
  sed -n '/doc\/examples import/,/^test /p' | grep -v '^test '
