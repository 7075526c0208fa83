# kind: database disk check
# An InnoDB-like check: 16 KiB random reads and writes, O_DIRECT, queue
# depth 32 with libaio, percentile list as the DBA wants it.
# expect: runs
--name=innodb --filename=ibdata.test --size=512m --direct=1 --rw=randrw
--rwmixread=80 --bs=16k --ioengine=libaio --iodepth=32 --runtime=1
--time_based --percentile_list=50:95:99:99.9 --group_reporting
