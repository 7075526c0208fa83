# kind: cloud disk guide
# The write half of the same IOPS check: random 4 KiB writes, queue depth
# 256 over four jobs, reported as one group.
# expect: runs
--name=randwrite-iops --filename=/dev/sdb --direct=1 --rw=randwrite --bs=4k
--ioengine=libaio --iodepth=256 --numjobs=4 --runtime=2 --time_based
--group_reporting
