#!/usr/bin/env python3
"""Turn the kernel's ftrace 'blk' tracer binary output into blktrace files.

With /sys/kernel/tracing/current_tracer set to blk and options/bin on, the
'trace' file holds a text header ("# tracer: blk" and "#" lines), then one
entry per event: ftrace's entry header (pid u32, cpu u32, timestamp u64,
little-endian) followed by the event itself, a struct blk_io_trace (48
bytes, magic 0x656174NN) and its payload of pdu_len bytes. This strips the
headers and writes the records as blktrace(8) would have: one file per CPU,
NAME.blktrace.N for every CPU up to the highest seen (empty where a CPU saw
nothing), with each file's sequence numbers counted from 0 (the tracer
leaves them 0). Nothing else is changed. blkparse -i NAME and
iosched replay NAME read the result.

Process names: the blk tracer does not put them in the trace (the kernel's
__blk_add_trace, kernel/trace/blktrace.c in 6.1, takes the ftrace path
with tracing_record_cmdline(current) and returns before trace_note_tsk,
which is what writes blktrace's BLK_TN_PROCESS notes); ftrace keeps them in
/sys/kernel/tracing/saved_cmdlines ("PID COMM" lines). Given that file
with --comms, each process gets a BLK_TN_PROCESS note with its comm (16
bytes, NUL padded, as trace_note_tsk writes it) before its first record on
each CPU file, so blkparse and iosched replay name it; without it they say
pidN.

Lost events: when the ring buffer overflowed, ftrace's print_trace_line
(kernel/trace/trace.c) writes "CPU:N [LOST M EVENTS]" (or "CPU:N [LOST
EVENTS]") as a text line between the binary entries, and per_cpu/cpuN/stats
counts "overrun: M". Both are read (--stats FILE, once per CPU) and the
losses are said on stderr as blktrace says its dropped events; the files
are written all the same, and the exit status is 3 (0 with --allow-lost).
Capture again with a larger buffer_size_kb.

usage: ftrace-blk-to-blktrace.py [--comms saved_cmdlines] [--stats per_cpu/cpuN/stats]...
                                 [--allow-lost] TRACE NAME
"""
import re
import struct
import sys

ENTRY = struct.Struct('<IIQ')                  # ftrace: pid, cpu, timestamp
REC = struct.Struct('<IIQQIIIIIHH')             # struct blk_io_trace
LOST = re.compile(rb'CPU:(\d+) \[LOST (?:(\d+) )?EVENTS\]\n')
TC_NOTIFY, TC_SHIFT, TN_PROCESS = 1 << 10, 16, 0
COMM_LEN = 16                                   # TASK_COMM_LEN


def note_process(magic, pid, dev, cpu, time, comm):
    """A BLK_TN_PROCESS note, as trace_note_tsk writes one (sequence set later)."""
    pdu = comm.encode('utf-8', 'replace')[:COMM_LEN - 1].ljust(COMM_LEN, b'\0')
    return [magic, 0, time, 0, 0, (TC_NOTIFY << TC_SHIFT) | TN_PROCESS, pid, dev, cpu, 0,
            len(pdu)], pdu


def convert(data, comms=None, lost=None):
    """Per-CPU blktrace bytes; @lost (a dict) gets CPU -> events the tracer lost."""
    comms = comms or {}
    if lost is None:
        lost = {}
    named = set()
    pos = 0
    # the text header: lines starting with '#'
    while data.startswith(b'#', pos):
        nl = data.find(b'\n', pos)
        if nl < 0:
            raise ValueError('header without end')
        pos = nl + 1
    out, seq = {}, {}
    while pos < len(data):
        # a pid never spells "CPU:" (0x3a555043 is far past pid_max)
        m = LOST.match(data, pos) if data.startswith(b'CPU:', pos) else None
        if m:
            c = int(m.group(1))
            lost[c] = lost.get(c, 0) + (int(m.group(2)) if m.group(2) else 0)
            lost.setdefault('unknown', 0)
            if not m.group(2):
                lost['unknown'] += 1
            pos = m.end()
            continue
        if pos + ENTRY.size + REC.size > len(data):
            raise ValueError('byte %d: truncated entry' % pos)
        f = list(REC.unpack_from(data, pos + ENTRY.size))
        if f[0] & 0xffffff00 != 0x65617400:
            raise ValueError('byte %d: bad magic 0x%08x' % (pos + ENTRY.size, f[0]))
        cpu, pdu_len = f[8], f[10]
        end = pos + ENTRY.size + REC.size + pdu_len
        if end > len(data):
            raise ValueError('byte %d: truncated payload' % pos)
        o = out.setdefault(cpu, bytearray())
        if f[6] in comms and (cpu, f[6]) not in named:
            named.add((cpu, f[6]))
            n, pdu = note_process(f[0], f[6], f[7], cpu, f[2], comms[f[6]])
            n[1] = seq.get(cpu, 0)
            seq[cpu] = n[1] + 1
            o += REC.pack(*n)
            o += pdu
        f[1] = seq.get(cpu, 0)
        seq[cpu] = f[1] + 1
        o += REC.pack(*f)
        o += data[pos + ENTRY.size + REC.size:end]
        pos = end
    return out


def read_comms(path):
    """saved_cmdlines: "PID COMM" a line (COMM may hold spaces)."""
    comms = {}
    with open(path, encoding='utf-8', errors='replace') as fh:
        for n, line in enumerate(fh, 1):
            parts = line.rstrip('\n').split(' ', 1)
            if len(parts) != 2 or not parts[0].isdigit() or not parts[1]:
                raise ValueError('%s: line %d: %r: expected "PID COMM" (the tracer\'s '
                                 'saved_cmdlines)' % (path, n, line.rstrip('\n')))
            if parts[1] != '<...>':
                comms[int(parts[0])] = parts[1]
    return comms


def read_overrun(path):
    """per_cpu/cpuN/stats: its "overrun: M" line."""
    with open(path, encoding='utf-8', errors='replace') as fh:
        for line in fh:
            if line.startswith('overrun:'):
                v = line.split(':', 1)[1].strip()
                if not v.isdigit():
                    raise ValueError('%s: "%s": not a count' % (path, line.strip()))
                return int(v)
    raise ValueError('%s: no "overrun:" line (is it per_cpu/cpuN/stats?)' % path)


def usage():
    doc = __doc__.strip().splitlines()
    sys.exit('\n'.join(doc[doc.index(next(l for l in doc if l.startswith('usage:'))):]))


def main():
    args, comms, stats, allow = sys.argv[1:], {}, [], False
    pos = []
    try:
        while args:
            a = args.pop(0)
            if a in ('--comms', '--stats'):
                if not args:
                    sys.exit('%s: needs a file' % a)
                if a == '--comms':
                    comms.update(read_comms(args.pop(0)))
                else:
                    f = args.pop(0)
                    stats.append((f, read_overrun(f)))
            elif a == '--allow-lost':
                allow = True
            elif a.startswith('-') and a != '-':
                sys.exit('unknown option %s' % a)
            else:
                pos.append(a)
        if len(pos) != 2:
            usage()
        lost = {}
        with open(pos[0], 'rb') as fh:
            out = convert(fh.read(), comms, lost)
    except (OSError, ValueError) as err:
        sys.exit(str(err))
    if not out:
        sys.exit('%s: no blk records' % pos[0])
    for cpu in range(max(out) + 1):
        with open('%s.blktrace.%d' % (pos[1], cpu), 'wb') as fh:
            fh.write(out.get(cpu, b''))
    print('%d records on %d CPUs' % (sum(seq_len(o) for o in out.values()), len(out)),
          file=sys.stderr)
    unknown = lost.pop('unknown', 0)
    in_trace = sum(lost.values())
    overrun = sum(n for _, n in stats)
    if not (in_trace or unknown or overrun):
        return 0
    parts = []
    if in_trace or unknown:
        parts.append('the trace says %d events lost%s (%s)' % (
            in_trace, ' and %d uncounted losses' % unknown if unknown else '',
            ', '.join('CPU %d: %d' % (c, n) for c, n in sorted(lost.items()) if n)
            or 'count not given'))
    if overrun:
        parts.append('the tracer\'s stats count %d overrun (%s)' % (
            overrun, ', '.join('%s: %d' % (f, n) for f, n in stats if n)))
    print('warning: you have %d dropped events: %s; the ring buffer overflowed, and %s.blktrace.* '
          'lack them (a replay misses that I/O). Capture again with a larger '
          'buffer_size_kb%s' % (max(in_trace, overrun), '; '.join(parts), pos[1],
                                '' if allow else ' (exit status 3; --allow-lost for 0)'),
          file=sys.stderr)
    return 0 if allow else 3


def seq_len(buf):
    n, pos = 0, 0
    while pos < len(buf):
        pos += REC.size + REC.unpack_from(buf, pos)[10]
        n += 1
    return n


if __name__ == '__main__':
    sys.exit(main())
