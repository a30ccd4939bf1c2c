#!/usr/bin/env bash
# Builds the wasm package, wasm-core/pkg (wasm-pack, then wasm-opt: about 20 s even when cargo has nothing to do),
# and beside it the policy guest, wasm-core/pkg/schedlab_guest.wasm (wasm-core/guest: boa and the CLI's policy host,
# loaded by the page only for runs with a sched_ext policy; a plain cargo build, then wasm-opt: about 40 s more).
# Usage: scripts/build-wasm.sh [--if-stale]
#   --if-stale  builds only when the package is missing or was built from other inputs than the ones here now,
#               so `npm start` and `npm run build` do not spend those 20 s on every start. `npm run build:wasm`
#               always builds.
# "Other inputs" is decided by content, not by file times: a package copied from another checkout (cp -a keeps
# its times) or a source file reverted to an older one would fool a newer-than test, and a deleted file would not
# be seen by one at all.
set -euo pipefail
cd "$(dirname "$0")/.."
# wasm-opt is the npm package binaryen's, in node_modules/.bin (npm scripts have it on PATH; a direct call would not).
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"

# Everything the wasm build reads: the three crates' sources (all in wasm-core/src, the JavaScript runtime of
# sched_ext policies included), the presets api/presets.rs embeds, the crates' manifests and lock file, and this
# script (its wasm-pack command).
inputs=(wasm-core/src wasm-core/presets wasm-core/Cargo.toml wasm-core/Cargo.lock
  wasm-core/engine/Cargo.toml wasm-core/edges/Cargo.toml wasm-core/guest scripts/build-wasm.sh)
# Written into the package after a build that succeeded: what it was built from.
stamp=wasm-core/pkg/.built-from

# A digest of every input file's path and content, and the tools' versions (a new compiler makes another wasm).
fingerprint() {
  find "${inputs[@]}" -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum
  rustc --version
  wasm-pack --version
  wasm-bindgen --version
}

if [ "${1:-}" = "--if-stale" ] && [ -f wasm-core/pkg/schedlab_core_bg.wasm ] && [ -f wasm-core/pkg/schedlab_core.js ] \
  && [ -f wasm-core/pkg/schedlab_guest.wasm ] \
  && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$(fingerprint)" ]; then
  echo "[build-wasm] wasm-core/pkg is up to date with its sources (npm run build:wasm rebuilds it anyway)" >&2
  exit 0
fi

# Taken before the build: a file edited while it runs leaves a stamp that no longer matches, so the next start
# builds again. Removed first, so a build that fails or is interrupted leaves no stamp claiming its package.
before=$(fingerprint)
rm -f "$stamp"
wasm-pack build wasm-core --target web --out-dir pkg --profile wasm
# The guest has no bindings (numbers over its memory, src/engine/guest.ts), so no wasm-bindgen pass: boa's date code
# declares a few imports it never calls under the guest's hooks, and the page answers each with a function that throws.
(cd wasm-core && cargo build -p schedlab-guest --target wasm32-unknown-unknown --profile wasm)
wasm-opt -O3 --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals \
  --enable-reference-types --enable-multivalue wasm-core/target/wasm32-unknown-unknown/wasm/schedlab_guest.wasm \
  -o wasm-core/pkg/schedlab_guest.wasm
printf '%s\n' "$before" >"$stamp"
