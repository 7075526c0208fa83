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

usage: ftrace-blk-to-blktrace.py TRACE NAME
"""
import struct
import sys

ENTRY = struct.Struct('<IIQ')                  # ftrace: pid, cpu, timestamp
REC = struct.Struct('<IIQQIIIIIHH')             # struct blk_io_trace


def convert(data):
    pos = 0
    # the text header: lines starting with '#'
    while data.startswith(b'#', pos):
        nl = data.find(b'\n', pos)
        if nl < 0:
            raise ValueError('header without end')
        pos = nl + 1
    out, seq = {}, {}
    while pos < len(data):
        if pos + ENTRY.size + REC.size > len(data):
            raise ValueError('byte %d: truncated entry' % pos)
        f = list(REC.unpack_from(data, pos + ENTRY.size))
        if f[0] & 0xffffff00 != 0x65617400:
            raise ValueError('byte %d: bad magic 0x%08x' % (pos + ENTRY.size, f[0]))
        cpu, pdu_len = f[8], f[10]
        end = pos + ENTRY.size + REC.size + pdu_len
        if end > len(data):
            raise ValueError('byte %d: truncated payload' % pos)
        f[1] = seq.get(cpu, 0)
        seq[cpu] = f[1] + 1
        o = out.setdefault(cpu, bytearray())
        o += REC.pack(*f)
        o += data[pos + ENTRY.size + REC.size:end]
        pos = end
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[-1])
    with open(sys.argv[1], 'rb') as fh:
        out = convert(fh.read())
    if not out:
        sys.exit('%s: no blk records' % sys.argv[1])
    for cpu in range(max(out) + 1):
        with open('%s.blktrace.%d' % (sys.argv[2], cpu), 'wb') as fh:
            fh.write(out.get(cpu, b''))
    print('%d records on %d CPUs' % (sum(seq_len(o) for o in out.values()), len(out)),
          file=sys.stderr)


def seq_len(buf):
    n, pos = 0, 0
    while pos < len(buf):
        pos += REC.size + REC.unpack_from(buf, pos)[10]
        n += 1
    return n


if __name__ == '__main__':
    main()
