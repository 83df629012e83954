#!/usr/bin/env bash
# The explorer page in Debian's chromium (headless), driven by playwright-core from npm.
# Installs what is missing (the browser with apt-get, playwright-core with npm ci: nothing
# downloads a browser of its own), then runs explorer.mjs with the binary `cargo test` built.
set -euo pipefail
cd "$(dirname "$0")"
root=../..
# The browser, and a Japanese font for the screenshots (the pieces are kanji).
if ! command -v chromium >/dev/null || [ ! -d /usr/share/fonts/opentype/ipafont-gothic ]; then
  echo "browser test: installing Debian's chromium and fonts-ipafont-gothic"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-ipafont-gothic >/dev/null
fi
if [ ! -d node_modules/playwright-core ]; then
  npm ci --no-audit --no-fund --silent
fi
bin=${KIFUDEX_BIN:-$root/target/debug/kifudex}
[ -x "$bin" ] || (cd "$root" && cargo build -q)
node explorer.mjs "$bin" "$root/sample_db" "$root/target/screenshots"
