# kind: forum one-liner
# A buffered sequential write with end_fsync, so the page cache is
# flushed before the job ends.
# expect: runs
--name=seqwrite --rw=write --bs=1m --size=256m --ioengine=psync
--end_fsync=1 --filename=seq.dat
