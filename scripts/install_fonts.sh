#!/usr/bin/env bash
# Installs the Japanese font `kifudex show --png` and its tests draw with, from Debian's
# packages: IPA Mincho (fonts-ipafont-mincho), the Mincho face the picture prefers, at the
# path tests/it/picture_png.rs names. Idempotent: does nothing when the font is there. Needs
# root (CI runs as root).
set -euo pipefail

font=/usr/share/fonts/opentype/ipafont-mincho/ipam.ttf
if [ -f "$font" ]; then
    echo "install_fonts: $font is installed"
    exit 0
fi

echo "install_fonts: installing fonts-ipafont-mincho"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends fonts-ipafont-mincho

[ -f "$font" ] || {
    echo "install_fonts: $font is still missing after the install" >&2
    exit 1
}
echo "install_fonts: done"
