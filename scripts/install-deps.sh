#!/bin/sh
# Install what building and testing iosched needs, on Debian, as root.
# Does nothing when everything is already there; safe to run every time.
set -e
need=""
have() { command -v "$1" >/dev/null 2>&1; }
pkg_ok() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

have cc || need="$need gcc libc6-dev"
have make || need="$need make"
have clang || need="$need clang"
have fio || need="$need fio"
have blkparse || need="$need blktrace"
have timeout || need="$need coreutils"
# rendering and checking the --plot SVGs in the tests
have rsvg-convert || need="$need librsvg2-bin"
have xmllint || need="$need libxml2-utils"
# libFuzzer and the sanitizer runtimes for clang
if have dpkg-query; then
	pkg_ok libclang-rt-14-dev || pkg_ok libclang-rt-dev || need="$need libclang-rt-14-dev"
fi
[ -n "$need" ] || exit 0
if [ "$(id -u)" != 0 ]; then
	echo "install-deps: missing:$need (run as root, or install them)" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq $need >/dev/null
