#!/usr/bin/env bash
# Idempotent set-up: installs only what is missing, so `npm start` and `npm test`
# work on a fresh machine that reaches only the package registries.
# Usage: scripts/setup.sh [--browser]   (--browser also installs Debian's chromium)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

say() { echo "[setup] $*" >&2; }

# 1. Rust target for WebAssembly (rustup auto-install is off on these machines).
if ! rustup target list --installed | grep -q '^wasm32-unknown-unknown$'; then
  say "adding rust target wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

# 2. wasm-pack (its own download of wasm-bindgen from GitHub fails here, see 3).
if ! command -v wasm-pack >/dev/null 2>&1; then
  say "installing wasm-pack"
  cargo install wasm-pack --locked
fi

# 3. wasm-bindgen-cli at exactly the version locked for the crate.
want=$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/version = |"/,""); print; exit}' wasm-core/Cargo.lock 2>/dev/null || true)
want=${want:-0.2.130}
have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have" != "$want" ]; then
  say "installing wasm-bindgen-cli $want (had: ${have:-none})"
  cargo install wasm-bindgen-cli --version "$want" --locked --force \
    || cargo install wasm-bindgen-cli --version "$want" --force
fi

# 4. Node modules, when missing or older than the lock file. npm's own record of an install
# (node_modules/.package-lock.json) is the mark: an empty or half-made node_modules folder is not one.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "npm ci"
  npm ci --no-audit --no-fund
  touch node_modules/.package-lock.json
fi

# 5. Chromium for the browser tests (Debian's; never a downloaded browser build).
if [ "${1:-}" = "--browser" ] && [ ! -x /usr/bin/chromium ]; then
  say "installing chromium (apt)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium >/dev/null
fi
# A CJK font, so that screenshots of the Chinese interface show characters, not boxes
# (WenQuanYi Micro Hei: 1.6 MB, against 56 MB for Noto CJK).
if [ "${1:-}" = "--browser" ] && ! fc-list :lang=zh 2>/dev/null | grep -q .; then
  say "installing a CJK font (apt)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq fonts-wqy-microhei >/dev/null
fi

# 6. The Python package's tools (python/): a virtual environment .venv with maturin (its build backend), pytest,
# and pandas and pyarrow (its dependencies). Made once; pip is asked again only when one of them is missing.
if ! { [ -x .venv/bin/maturin ] && .venv/bin/python -c 'import pytest, pandas, pyarrow' >/dev/null 2>&1; }; then
  say "python venv .venv: maturin, pytest, pandas, pyarrow"
  [ -x .venv/bin/python ] || python3 -m venv .venv
  .venv/bin/python -m pip install -q --disable-pip-version-check 'maturin>=1.5,<2' pytest pandas pyarrow
fi

# 7. Dask's distributed scheduler, for the package's sweeps on a cluster (`schedlab.sweep(..., client=...)`), their
# tests on a LocalCluster and `npm run bench:sweep`. An optional extra of the package (`pip install ./python[dask]`),
# not one of its dependencies; here in the venv so that those tests run.
if ! .venv/bin/python -c 'import dask.distributed' >/dev/null 2>&1; then
  say "python venv .venv: dask[distributed]"
  .venv/bin/python -m pip install -q --disable-pip-version-check 'dask[distributed]>=2023.1'
fi

# 8. What runs the notebooks (docs/notebooks/*.ipynb) in `npm test`: nbclient and nbformat execute them on an ipykernel,
# and they draw with matplotlib (the test sets a non-interactive backend).
if ! .venv/bin/python -c 'import nbclient, nbformat, ipykernel, matplotlib' >/dev/null 2>&1; then
  say "python venv .venv: nbclient, nbformat, ipykernel, matplotlib"
  .venv/bin/python -m pip install -q --disable-pip-version-check nbclient nbformat ipykernel matplotlib
fi
