# kind: cloud disk guide
# A mixed database-like load from a managed-disk guide: 70 % reads, 30 %
# writes, 8 KiB blocks, on a test file in the current directory.
# expect: runs
--name=mixed --filename=testfile --size=1G --direct=1 --rw=randrw
--rwmixread=70 --bs=8k --ioengine=libaio --iodepth=32 --numjobs=2
--runtime=2 --time_based --group_reporting
