# kind: cloud disk guide
# A provider's "measure your volume's IOPS" page: random 4 KiB reads on the
# raw block device, four workers with a deep queue, direct I/O, a fixed
# time. The guides run it for 60 s; 2 s here.
# expect: runs
--name=randread-iops --filename=/dev/sdb --direct=1 --rw=randread --bs=4k
--ioengine=libaio --iodepth=256 --numjobs=4 --runtime=2 --time_based
--group_reporting --eta-newline=1
