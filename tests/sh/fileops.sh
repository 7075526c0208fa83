#!/bin/sh
# Description: fio's file-operation engines (filestat, filecreate,
# filedelete, falloc, ftruncate, e4defrag) cause the disk I/O their system
# calls would (docs/jobfiles.md, docs/filesystems.md): a cold stat reads
# metadata and no data, created files exist for a later job and their
# metadata is dirtied and written back, a deleted file is gone for a later
# job, punched and truncated blocks read as holes (no I/O), fallocate=none
# makes a write allocate while posix preallocates, e4defrag reads and
# rewrites the range; falloc and e4defrag fail with EOPNOTSUPP on ext3, as
# on a real ext3. The counters have the shape the real fio 3.33 gives
# (compared when /usr/bin/fio is fio-3.33). Same input, same output.
BIN=${IOSCHED_BIN:-./iosched}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
# field PATH FILE: a value of the JSON report ("jobs.0.read.total_ios", "vm.meta_reads", "disk.read_ios")
field() {
	# each report is read once (a python3 start is ~0.3 s here, and the
	# checks read 66 values): every leaf as "PATH<tab>VALUE" in FILE.flat
	[ -f "$2.flat" ] || python3 - "$2" >"$2.flat" <<'PY' || return 1
import json, sys
def walk(v, path):
    if isinstance(v, dict):
        for k, x in v.items():
            walk(x, path + [str(k)])
    elif isinstance(v, list):
        for i, x in enumerate(v):
            walk(x, path + [str(i)])
    else:
        print(".".join(path) + "\t" + str(v))
walk(json.load(open(sys.argv[1])), [])
PY
	case $1 in
	vm.*) p=iosched.vm_stats.${1#vm.} ;;
	disk.*) p=disk_util.0.${1#disk.} ;;
	*) p=$1 ;;
	esac
	awk -F'\t' -v p="$p" '$1 == p { print substr($0, length(p) + 2); f = 1; exit } END { exit !f }' "$2.flat"
}
run() { # run NAME ARGS...: NAME.json, NAME.err; the exit status is kept in NAME.rc
	n=$1
	shift
	rm -f "$n.json.flat"
	"$BIN" run "$@" --output-format json >"$n.json" 2>"$n.err"
	echo $? >"$n.rc"
}
want() { # want NAME PATH VALUE
	v=$(field "$2" "$1.json") || fail "$1: no $2"
	[ "$v" = "$3" ] || { cat "$1.err"; fail "$1: $2 is $v, want $3"; }
}
atleast() { # atleast NAME PATH MIN
	v=$(field "$2" "$1.json") || fail "$1: no $2"
	[ "$v" -ge "$3" ] || { cat "$1.err"; fail "$1: $2 is $v, want at least $3"; }
}

# filestat: the files the job laid out have warm metadata: no disk I/O at all;
# each file is one unit of bs bytes, its stat the clat sample, no lat samples
printf '[s]\nioengine=filestat\nnrfiles=40\nfilesize=4k\n' >s.fio
run warm s.fio
want warm jobs.0.error 0
want warm jobs.0.read.total_ios 40
want warm jobs.0.read.io_bytes 163840
want warm jobs.0.read.clat_ns.N 40
want warm jobs.0.read.lat_ns.N 0
want warm disk.read_ios 0
want warm disk.write_ios 0
# files that existed before the run: the stats read the directory and inode
# blocks (40 inodes, 16 a block: at least 3 inode-table blocks), never data
run cold s.fio --set lab.file_size=4k
want cold jobs.0.error 0
atleast cold vm.meta_reads 4
want cold vm.pages_read 0
want cold disk.write_ios 0
atleast cold disk.read_ios 1
# stat_type=lstat and statx read the same blocks
for st in lstat statx; do
	printf '[s]\nioengine=filestat\nstat_type=%s\nnrfiles=40\nfilesize=4k\n' "$st" >st.fio
	run "st_$st" st.fio --set lab.file_size=4k
	want "st_$st" vm.meta_reads "$(field vm.meta_reads cold.json)"
done

# filecreate, then a later job stats the same files: they exist. The creates
# dirty the directory, bitmap, descriptor and inode blocks, which the flusher
# writes back once they are 30 s old (the stat job starts 40 s later).
cat >c.fio <<'JOB'
[global]
filename=f1:f2:f3:f4:f5:f6:f7:f8
filesize=4k
[create]
ioengine=filecreate
create_on_open=1
[stat]
stonewall
startdelay=40
ioengine=filestat
JOB
run create c.fio
want create jobs.0.error 0
want create jobs.0.read.total_ios 8
want create jobs.0.read.clat_ns.N 8
want create jobs.1.error 0
want create vm.pages_read 0
atleast create vm.max_dirty_pages 3
atleast create disk.write_ios 1
atleast create vm.meta_reads 2

# filedelete, then a later stat of the same files fails (ENOENT, err 2), as
# in fio (which lays every job's files out before the first job runs); a
# later reader fails alike, a later writer makes the file anew unless it may
# not create files (allow_file_create=0)
cat >del.fio <<'JOB'
[global]
filename=g1:g2:g3
filesize=4k
[del]
ioengine=filedelete
[stat]
stonewall
ioengine=filestat
JOB
run del del.fio
want del jobs.0.error 0
want del jobs.0.read.total_ios 3
want del jobs.1.error 2
sed 's/ioengine=filestat/rw=read/' del.fio >del2.fio
run del2 del2.fio
want del2 jobs.1.error 2
sed 's/ioengine=filestat/rw=write/' del.fio >del3.fio
run del3 del3.fio
want del3 jobs.1.error 0
sed 's/ioengine=filestat/rw=write\nallow_file_create=0/' del.fio >del4.fio
run del4 del4.fio
want del4 jobs.1.error 2
# unlink=1 removes the job's files as it ends: a later reader fails with
# ENOENT, as fio 3.33 does with this job file
printf '[global]\nfilename=u1\nsize=1m\n[w]\nrw=write\nunlink=1\n[r]\nstonewall\nrw=read\n' >u.fio
run unl u.fio
want unl jobs.0.error 0
want unl jobs.1.error 2
sed 's/unlink=1/unlink=0/' u.fio >u0.fio
run unl0 u0.fio
want unl0 jobs.1.error 0
# allow_file_create=0 on a file nobody made is refused before the run
printf '[r]\nrw=read\nsize=1m\nallow_file_create=0\n' >afc.fio
"$BIN" run afc.fio >/dev/null 2>afc.err && fail "allow_file_create=0 on a missing file ran"
grep -q "allow_file_create=0: file 'r.0.0' does not exist" afc.err || { cat afc.err; fail "afc message"; }
"$BIN" run afc.fio --set lab.file_size=1m >/dev/null 2>&1 || fail "allow_file_create=0 on an existing file failed"

# falloc: on ext3 (no fallocate()) the first call fails with EOPNOTSUPP (err 95)
printf '[p]\nioengine=falloc\nrw=trim\nbs=64k\nsize=1m\n' >p.fio
run p3 p.fio
want p3 jobs.0.error 95
# on the extent layout a punched file reads as holes: a direct read sends nothing
cat >pr.fio <<'JOB'
[global]
filename=pf
size=1m
bs=64k
[punch]
ioengine=falloc
rw=trim
[read]
stonewall
rw=read
direct=1
JOB
run pr pr.fio --set lab.fs=extent
want pr jobs.0.error 0
want pr jobs.0.trim.total_ios 16
want pr jobs.1.read.io_bytes 1048576
want pr vm.pages_read 0
# fallocate (rw=write) gives the blocks back unwritten: still zeros, no
# I/O; once a writer has written them, the read reads them
sed 's/^\[read\]/[alloc]\nstonewall\nioengine=falloc\nrw=write\n[read]/' pr.fio >pa.fio
run pa pa.fio --set lab.fs=extent
want pa jobs.1.error 0
want pa vm.pages_read 0
sed 's/^\[read\]/[write]\nstonewall\nrw=write\ndirect=1\n[read]/' pa.fio >pw.fio
run pw pw.fio --set lab.fs=extent
want pw jobs.2.error 0
want pw vm.pages_read 256

# ftruncate: truncating to 0 (the first write's offset) frees the file
cat >t.fio <<'JOB'
[global]
filename=tf
size=1m
bs=64k
[trunc]
ioengine=ftruncate
rw=write
[read]
stonewall
rw=read
direct=1
JOB
run t t.fio
want t jobs.0.error 0
want t jobs.0.write.total_ios 16
want t vm.pages_read 0
printf '[t]\nioengine=ftruncate\nrw=read\nsize=1m\n' >tr.fio
run tr tr.fio
want tr jobs.0.error 22

# fallocate=none: a write-only job's new file is sparse, so each direct
# write allocates (the block bitmap, descriptor and inode get dirty);
# fallocate=posix preallocates it: nothing to allocate, nothing dirty
for m in none posix; do
	printf '[w]\nrw=write\nbs=64k\nsize=1m\ndirect=1\nfallocate=%s\n' "$m" >fa.fio
	run "fa_$m" fa.fio
	want "fa_$m" jobs.0.error 0
done
atleast fa_none vm.max_dirty_pages 2
want fa_posix vm.max_dirty_pages 0
# native falls back to none on ext3; on extent it preallocates unwritten
# blocks, so writes only convert them (the inode block gets dirty, no bitmap)
printf '[w]\nrw=write\nbs=64k\nsize=1m\ndirect=1\nfallocate=native\n' >fn.fio
run fn3 fn.fio
atleast fn3 vm.max_dirty_pages 2
run fnx fn.fio --set lab.fs=extent
want fnx vm.max_dirty_pages 1
sed 's/native/none/' fn.fio >fnn.fio
run fnn fnn.fio --set lab.fs=extent
want fnn vm.max_dirty_pages 2
printf '[w]\nrw=write\nsize=1m\nfallocate=keep\n' >fk.fio
"$BIN" run fk.fio >/dev/null 2>fk.err && fail "fallocate=keep on ext3 ran"
grep -q "fallocate=keep: ext3 has no fallocate()" fk.err || { cat fk.err; fail "keep message"; }

# e4defrag on extent: the range is read (256 pages of 1 MiB, none cached)
# and written out again; on ext3 EOPNOTSUPP; no donorname is an error
printf '[e]\nioengine=e4defrag\nrw=write\nbs=32k\nsize=1m\ndonorname=don\ninplace=%s\n' 0 >e.fio
run e e.fio --set lab.fs=extent
want e jobs.0.error 0
want e jobs.0.write.total_ios 32
want e vm.pages_read 256
atleast e vm.pages_written 256
sed 's/inplace=0/inplace=1/' e.fio >e1.fio
run e1 e1.fio --set lab.fs=extent
want e1 jobs.0.error 0
want e1 vm.pages_read 256
run e3 e.fio
want e3 jobs.0.error 95
printf '[e]\nioengine=e4defrag\nrw=write\nsize=1m\n' >en.fio
"$BIN" run en.fio >/dev/null 2>en.err && fail "e4defrag without donorname ran"
grep -q "needs donorname=" en.err || { cat en.err; fail "donorname message"; }

# openfiles below nrfiles: only the engines whose I/O is the open take it
printf '[o]\nrw=read\nnrfiles=4\nsize=1m\nopenfiles=1\n' >o.fio
"$BIN" run o.fio >/dev/null 2>o.err && fail "openfiles=1 with 4 files ran"
grep -q "openfiles=1 with 4 files" o.err || { cat o.err; fail "openfiles message"; }
printf '[o]\nioengine=filecreate\nnrfiles=4\nfilesize=4k\nopenfiles=1\n' >oc.fio
run oc oc.fio
want oc jobs.0.error 0

# determinism: the same job twice, byte for byte
run d1 c.fio
run d2 c.fio
cmp -s d1.json d2.json || fail "two runs of c.fio differ"

# the real fio 3.33: the same counters move for filestat and filecreate
if command -v fio >/dev/null 2>&1 && [ "$(fio --version 2>/dev/null)" = "fio-3.33" ]; then
	for eng in filestat filecreate; do
		mkdir "real_$eng"
		fio --name=x --ioengine=$eng --nrfiles=5 --filesize=4k --directory="$d/real_$eng" \
			--output-format=json >"real_$eng.json" 2>/dev/null || fail "fio $eng"
		printf '[x]\nioengine=%s\nnrfiles=5\nfilesize=4k\n' "$eng" >"sim_$eng.fio"
		run "sim_$eng" "sim_$eng.fio"
		for p in jobs.0.read.total_ios jobs.0.read.io_bytes jobs.0.read.clat_ns.N \
			jobs.0.read.lat_ns.N jobs.0.write.total_ios; do
			[ "$(field $p "real_$eng.json")" = "$(field $p "sim_$eng.json")" ] ||
				fail "$eng: $p: fio $(field $p "real_$eng.json"), iosched $(field $p "sim_$eng.json")"
		done
	done
fi
echo PASS
