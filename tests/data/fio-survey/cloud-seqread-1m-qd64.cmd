# kind: cloud disk guide
# Throughput check from a block-volume guide: sequential 1 MiB reads, queue
# depth 64, one job, direct, timed.
# expect: runs
--name=seqread-throughput --filename=/dev/sdb --direct=1 --rw=read --bs=1M
--ioengine=libaio --iodepth=64 --numjobs=1 --runtime=2 --time_based
--group_reporting
