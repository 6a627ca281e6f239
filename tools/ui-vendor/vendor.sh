#!/usr/bin/env bash
# Copies the pinned graph library (package-lock.json) into the orbitkb-ui package, with its
# licence, so the wheel works offline with no CDN. Run after changing the pinned version; commit
# the copied files.
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund --loglevel=error
out=../../packages/orbitkb-ui/src/orbitkb/ui/static/vendor
mkdir -p "$out"
version=$(node -p "require('./node_modules/cytoscape/package.json').version")
# served as .js: every server maps that suffix to a JavaScript type, which module scripts require
{ echo "/* Cytoscape.js ${version} (MIT, see cytoscape.LICENSE.txt) — vendored by tools/ui-vendor/vendor.sh */"
  cat node_modules/cytoscape/dist/cytoscape.esm.min.mjs; } > "$out/cytoscape.esm.min.js"
cp node_modules/cytoscape/LICENSE "$out/cytoscape.LICENSE.txt"
echo "vendored cytoscape ${version} into ${out}"
