#!/usr/bin/env bash
# Installs the two USI engines the evaluation tests and `kifudex analyse` examples use, from
# Debian's packages: fairy-stockfish (speaks USI; shogi is its default variant) and gpsshogi
# (its USI program is `gpsusi`). Debian installs both in /usr/games, which root's PATH often
# lacks: the tests look there too. Idempotent: does nothing when both programs are there, and
# installs only the missing package otherwise. Needs root (CI runs as root).
set -euo pipefail

# Whether the program is on the PATH or in /usr/games.
have() {
    command -v "$1" >/dev/null 2>&1 || [ -x "/usr/games/$1" ]
}

missing=()
have fairy-stockfish || missing+=(fairy-stockfish)
have gpsusi || missing+=(gpsshogi)

if [ ${#missing[@]} -eq 0 ]; then
    echo "install_engines: fairy-stockfish and gpsusi are installed"
    exit 0
fi

echo "install_engines: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}"

for program in fairy-stockfish gpsusi; do
    have "$program" || {
        echo "install_engines: $program is still missing after the install" >&2
        exit 1
    }
done
echo "install_engines: done"
