#!/bin/sh
# Install what building and testing iosched needs, on Debian, as root.
# Does nothing when everything is already there; safe to run every time.
# Plain sh on purpose: a fresh Debian has no make or compiler yet, so the
# README's commands start here, not with make.
set -e
have() { command -v "$1" >/dev/null 2>&1; }
pkg_ok() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
install() { # packages...
	if [ "$(id -u)" != 0 ]; then
		echo "install-deps: missing: $* (run as root, or install them)" >&2
		exit 1
	fi
	export DEBIAN_FRONTEND=noninteractive
	[ -n "$updated" ] || apt-get update -qq
	updated=1
	# shellcheck disable=SC2086
	apt-get install -y -qq "$@" >/dev/null
}
updated=""

need=""
have cc || need="$need gcc libc6-dev"
have make || need="$need make"
have clang || need="$need clang"
have fio || need="$need fio"
have blkparse || need="$need blktrace"
have timeout || need="$need coreutils"
# rendering and checking the --plot SVGs in the tests
have rsvg-convert || need="$need librsvg2-bin"
have xmllint || need="$need libxml2-utils"
# io_uring for --real (src/run/host_uring.c)
pkg_ok liburing-dev || need="$need liburing-dev"
have pkg-config || need="$need pkg-config"
# the man page's API section is generated from the headers and checked
# against them (scripts/man-api.py, tests/sh/man_api.sh)
have python3 || need="$need python3"
# GNU parallel, one of the engines `iosched sweep` is tested with (tests/sh/sweep.sh)
have parallel || need="$need parallel"
# a single-node Slurm and its authentication, the other engine (tests/sh/sweep_slurm.sh)
have slurmctld && have slurmd && have sbatch || need="$need slurm-wlm"
have munged || need="$need munge"
# shellcheck disable=SC2086
[ -z "$need" ] || install $need

# libFuzzer and the sanitizer runtimes live in a package named after clang's
# major version (libclang-rt-14-dev on Debian 12, -19- on 13): ask clang
fuzzer=$(clang -print-file-name=libclang_rt.fuzzer-x86_64.a 2>/dev/null || true)
[ -f "$(clang -print-resource-dir 2>/dev/null)/lib/linux/libclang_rt.fuzzer-$(uname -m).a" ] ||
	[ -f "$fuzzer" ] && exit 0
major=$(clang -dumpversion 2>/dev/null | cut -d. -f1)
if [ -n "$major" ] && ! pkg_ok "libclang-rt-$major-dev"; then
	install "libclang-rt-$major-dev" || install libclang-rt-dev
fi
