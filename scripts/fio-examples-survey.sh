#!/bin/bash
# Survey a folder of fio job files (fio's own examples/, say) under
# `iosched fio`, and sort each file into one of the outcomes issue 14 counts:
#
#   runs                          parsed, and a bounded real run exited 0
#   refused: engine not modelled  the file's ioengine talks to a network,
#                                 GPU, RDMA fabric, remote store, persistent
#                                 memory or a passthrough device, which a
#                                 block-layer simulator cannot model
#   refused: device needed        the engine is modelled but the job needs a
#                                 device iosched does not have (zoned, ...)
#   refused: option not modelled  a fio option iosched refuses (named)
#   error                         any other refusal (message shown)
#   crash                         a signal or a sanitizer report
#   hang                          no end within the wall-clock limit
#
# The engine and device classes come from this script's own table, not
# from iosched's message, because the point of the survey is to see whether
# iosched names the real reason: the REASON column shows what it said.
# "Modellable" files are those whose engines and devices a simulator can
# model (a zoned disk counts: issue 14 asks for one); the summary gives the
# share of those that run.
#
# Each run happens in a fresh empty directory, so a job's relative
# filename= does not exist yet, as on a fresh machine. The real run is
# bounded by simulated time (lab.max_sim_time) and by wall time (timeout).
#
# For modellable files that are refused, the script also finds every
# option that blocks them, by deleting the refused line from a scratch
# copy and parsing again until it parses; the "blocking options" tally at
# the end says which options would make the most files run. The scratch
# copy is then run too (same bounds), only to look for crashes and hangs
# in code the original file cannot reach yet; its result is reported
# separately as "stripped run".
#
# Some examples are written for hardware other than the default disk, and
# say so in their comments (a zoned disk, a drive of 30 x 124 GB), or are
# meant to be run with a command line their comments give (xnvme-*): the
# survey runs those with that device or command line, from its own table
# below (hardware_of), and prints the options it added. The job file itself
# is never changed.
#
# A few examples cannot run unchanged under the real fio 3.33 either, on a
# fresh machine (fio_refuses, checked by hand with Debian's fio 3.33: a
# file to read that does not exist and no size=). They stay in the count; the summary also gives the share of the
# modellable files that fio itself runs unchanged.
#
# Usage: scripts/fio-examples-survey.sh DIR
# Environment: IOSCHED_BIN (default ./iosched), SURVEY_SIM_TIME (simulated
# seconds, default 10), SURVEY_TIMEOUT (wall seconds, default 60),
# SURVEY_ARGS (more iosched options for the real runs, e.g. "--scheduler bfq").
set -u

DIR=${1:?usage: $0 DIR (a folder of .fio job files)}
BIN=${IOSCHED_BIN:-./iosched}
SIM=${SURVEY_SIM_TIME:-10}
WALL=${SURVEY_TIMEOUT:-60}
EXTRA=${SURVEY_ARGS:-}
case $BIN in /*) ;; *) BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN") ;; esac
case $DIR in /*) ;; *) DIR=$(cd "$DIR" && pwd) ;; esac
[ -x "$BIN" ] || { echo "$0: no iosched binary at $BIN (set IOSCHED_BIN)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# engine name -> why a block-layer simulator cannot model it ("" = it can)
engine_class() {
	case $1 in
	sync|psync|vsync|pvsync|pvsync2|libaio|io_uring|posixaio|null|mmap|splice|\
	falloc|ftruncate|filecreate|filedelete|filestat|e4defrag)
		echo "" ;;
	net|netsplice) echo "network" ;;
	rdma|librpma_*) echo "RDMA" ;;
	libcufile) echo "GPU" ;;
	http|rbd|rados|gfapi|gfapi_async|libhdfs|nfs|nbd|libiscsi|dfs|ime_*)
		echo "remote storage" ;;
	dev-dax|libpmem|pmemblk) echo "persistent memory" ;;
	sg|io_uring_cmd|xnvme|libzbc|mtd|spdk) echo "passthrough device" ;;
	cpuio|exec) echo "no I/O (CPU or external program)" ;;
	*) echo "external engine ($1)" ;;
	esac
}

# the engines a file names (fio's default, psync, when none)
engines_of() {
	e=$(sed -n 's/^[[:space:]]*ioengine[[:space:]]*=[[:space:]]*\([^[:space:]]*\).*/\1/p' "$1" | sort -u)
	[ -n "$e" ] && echo "$e" || echo psync
}

# a device the job needs beyond a plain disk or SSD ("" = none)
device_of() {
	if grep -Eq '^[[:space:]]*zonemode[[:space:]]*=[[:space:]]*zbd' "$1"; then
		echo "zoned"
	fi
}

# iosched options for the hardware an example is written for ("" = the
# default disk); the reason is the example's own comment or filename=
hardware_of() {
	case $(basename "$1") in
	# /dev/sdj, /dev/sdd with 256 MiB zones: a host-managed SMR disk
	zbd-rand-write.fio|zbd-seq-read.fio) echo "--device smr-hm" ;;
	# the first invocation their README gives ("the built-in io_uring engine
	# to get baseline numbers"); xnvme-zoned "on a Zoned Device": a ZNS SSD
	xnvme-compare.fio) echo "--section=default --ioengine=io_uring --sqthread_poll=1 --filename=/dev/nvme0n1" ;;
	xnvme-zoned.fio) echo "--device zns --section=default --ioengine=io_uring --sqthread_poll=1 --filename=/dev/nvme0n1" ;;
	# EXT4_IOC_MOVE_EXT and fallocate(): ext4's, not ext3's (iosched's
	# default layout), which fails both with EOPNOTSUPP as a real ext3 does
	e4defrag.fio|e4defrag2.fio|falloc.fio) echo "--set lab.fs=extent" ;;
	# 30 jobs at offset_increment=124g: "assumes a drive of about 30 * 124 GB"
	cross-stripe-verify.fio) echo "--device ssd-nvme --set device.capacity=4096" ;;
	esac
}

# why the real fio 3.33 does not run an example unchanged on a fresh
# machine either ("" = it does, as far as checked)
fio_refuses() {
	case $(basename "$1") in
	butterfly.fio) echo "reads /tmp/testfile, which does not exist, with no size= (fio: 'you need to specify size=')" ;;
	esac
}

# first iosched: line of a stderr file, without the program name
first_msg() {
	grep -m1 -E '^iosched: (error: )?[^w]|AddressSanitizer|runtime error' "$1" |
		sed -e 's/^iosched: //' -e "s|$DIR/||g" -e "s|$work/||g" | cut -c1-200
}

# option name refused by a message ("" when the message is not about one)
refused_option() {
	sed -n -e "s/.*option '\([A-Za-z0-9_]*\)[=' ].*/\1/p" -e "s/.*unknown option '\([A-Za-z0-9_]*\)'.*/\1/p" <<<"$1" | head -1
}

# the line number a message points at (FILE:N:)
msg_line() {
	sed -n 's/^[^:]*\.fio:\([0-9][0-9]*\):.*/\1/p' <<<"$1" | head -1
}

# run FILE in a fresh directory: sets rc and leaves stderr in $work/err
bounded_run() {
	rm -rf "$work/run" && mkdir "$work/run"
	# shellcheck disable=SC2086 # SURVEY_ARGS is a list of words
	(cd "$work/run" && timeout "$WALL" "$BIN" fio $EXTRA --set lab.max_sim_time="$SIM" \
		--output=/dev/null "$1" $HW 2>"$work/err" >/dev/null)
	rc=$?
}

# outcome of a run's rc and stderr: runs / crash / hang / "" (a refusal)
run_outcome() {
	if [ "$1" -eq 124 ]; then echo hang
	elif [ "$1" -ge 128 ] || grep -Eq 'AddressSanitizer|runtime error:|LeakSanitizer' "$work/err"; then echo crash
	elif [ "$1" -eq 0 ]; then echo runs
	fi
}

n=0; n_mod=0; n_mod_run=0; n_fio_ok=0; n_fio_ok_run=0; n_eng_named=0; n_eng_other=0
declare -A count blockers
printf '%-32s %-34s %s\n' FILE RESULT REASON
for f in "$DIR"/*.fio; do
	[ -f "$f" ] || continue
	name=$(basename "$f")
	n=$((n + 1))
	why_engine=""
	for e in $(engines_of "$f"); do
		c=$(engine_class "$e")
		[ -n "$c" ] && why_engine="$c: $e"
	done
	dev=$(device_of "$f")
	HW=$(hardware_of "$f")
	fio_no=$(fio_refuses "$f")

	(cd "$work" && timeout "$WALL" "$BIN" fio --parse-only "$f" $HW >/dev/null 2>"$work/err")
	rc=$?
	out=$(run_outcome $rc)
	msg=$(first_msg "$work/err")
	if [ "$out" = runs ]; then
		bounded_run "$f"
		out=$(run_outcome $rc)
		msg=$(first_msg "$work/err")
		[ "$out" = runs ] && msg=""
	fi

	if [ "$out" = runs ] || [ "$out" = crash ] || [ "$out" = hang ]; then
		result=$out
		[ "$out" = hang ] && msg="no end within ${WALL} s of wall time"
	elif grep -q "option 'ioengine=" <<<"$msg"; then
		result="refused: engine not modelled"
		[ -n "$why_engine" ] && msg="($why_engine) iosched: $msg"
		[ -n "$why_engine" ] && n_eng_named=$((n_eng_named + 1))
	elif [ -n "$why_engine" ]; then
		result="refused: engine not modelled"
		msg="($why_engine) iosched: $msg"
	elif [ -n "$dev" ]; then
		result="refused: device needed"
		msg="($dev) iosched: $msg"
	elif grep -q "not supported by iosched\|is not modelled by iosched" <<<"$msg"; then
		result="refused: option not modelled"
	else
		result="error"
	fi
	count[$result]=$(( ${count[$result]:-0} + 1 ))

	modellable=0
	[ -z "$why_engine" ] && modellable=1 && n_mod=$((n_mod + 1))
	[ $modellable = 1 ] && [ "$result" = runs ] && n_mod_run=$((n_mod_run + 1))
	[ $modellable = 1 ] && count["modellable: $result"]=$(( ${count["modellable: $result"]:-0} + 1 ))
	[ $modellable = 0 ] && [ "$result" != runs ] && n_eng_other=$((n_eng_other + 1))
	if [ $modellable = 1 ] && [ -z "$fio_no" ]; then
		n_fio_ok=$((n_fio_ok + 1))
		[ "$result" = runs ] && n_fio_ok_run=$((n_fio_ok_run + 1))
	fi
	printf '%-32s %-34s %s\n' "$name" "$result" "$msg"
	[ -n "$HW" ] && printf '%-32s   run with: %s\n' "" "$HW"
	[ -n "$fio_no" ] && printf '%-32s   fio 3.33 refuses it too: %s\n' "" "$fio_no"

	# every option that blocks a modellable file, and a run without them
	if [ $modellable = 1 ] && [ "$result" != runs ] && [ "$result" != crash ] && [ "$result" != hang ]; then
		cp "$f" "$work/stripped.fio"
		list=""
		for _ in $(seq 1 30); do
			(cd "$work" && timeout "$WALL" "$BIN" fio --parse-only "$work/stripped.fio" $HW \
				>/dev/null 2>"$work/err")
			prc=$?
			[ $prc -eq 0 ] && break
			m=$(first_msg "$work/err")
			l=$(msg_line "$m")
			o=$(refused_option "$m")
			[ -n "$l" ] || break
			# a value refused (rw=read:-8k, ioengine=falloc, an empty
			# ${VAR}) is tallied with its value, an option refused by name
			# by its name
			if [ "$o" = ioengine ] || ! grep -q "not supported by iosched\|is not modelled by iosched\|unknown option" <<<"$m"; then
				v=$(sed -n "s/.*option '\([A-Za-z0-9_]*=[^']*\)'.*/\1/p" <<<"$m" | head -1)
				[ -n "$v" ] && o=$v
			fi
			[ -n "$o" ] || o="(line $l)"
			case $o in *=) o="${o}(empty)" ;; esac
			grep -qw -- "$o" <<<"$list" || list="$list $o"
			sed -i "${l}s/^/# survey: /" "$work/stripped.fio"
		done
		for o in $(tr ' ' '\n' <<<"$list" | grep -v '^(' | grep .); do
			blockers[$o]=$(( ${blockers[$o]:-0} + 1 ))
		done
		srun="does not parse"
		if [ $prc -eq 0 ]; then
			bounded_run "$work/stripped.fio"
			srun=$(run_outcome $rc)
			[ -n "$srun" ] || srun="error: $(first_msg "$work/err")"
		fi
		printf '%-32s   blocking options:%s; stripped run: %s\n' "" "${list:- none}" "$srun"
	fi
done

echo
echo "summary: $n files"
for r in runs "refused: engine not modelled" "refused: device needed" \
	"refused: option not modelled" error crash hang; do
	printf '  %-30s %d\n' "$r" "${count[$r]:-0}"
done
echo "of them modellable:"
for r in runs "refused: engine not modelled" "refused: device needed" \
	"refused: option not modelled" error crash hang; do
	printf '  %-30s %d\n' "$r" "${count["modellable: $r"]:-0}"
done
echo "not modellable and refused: $n_eng_other; iosched's message names the engine in $n_eng_named of them"
pct=0
[ $n_mod -gt 0 ] && pct=$((100 * n_mod_run / n_mod))
echo "modellable (engine and device a simulator can model): $n_mod; of them run: $n_mod_run ($pct %)"
pct=0
[ $n_fio_ok -gt 0 ] && pct=$((100 * n_fio_ok_run / n_fio_ok))
echo "modellable and run unchanged by fio 3.33 itself: $n_fio_ok; of them run: $n_fio_ok_run ($pct %)"
echo "blocking options of modellable files (files each would unblock, alone or with others):"
for o in "${!blockers[@]}"; do
	printf '  %-24s %d\n' "$o" "${blockers[$o]}"
done | sort -k2,2nr -k1,1
