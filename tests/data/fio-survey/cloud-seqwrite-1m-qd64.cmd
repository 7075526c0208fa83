# kind: cloud disk guide
# Throughput check, write side: sequential 1 MiB writes at queue depth 64
# with a size limit as well as a time limit.
# expect: runs
--name=seqwrite-throughput --filename=/dev/sdb --direct=1 --rw=write --bs=1M
--ioengine=libaio --iodepth=64 --size=10G --runtime=2 --time_based
--group_reporting
