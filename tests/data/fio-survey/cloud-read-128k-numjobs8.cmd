# kind: cloud disk guide
# A VM-disk guide's bandwidth test: 128 KiB sequential reads from eight
# jobs at offsets spread by offset_increment, direct I/O.
# expect: runs
--name=read-128k --filename=/dev/sdb --direct=1 --rw=read --bs=128k
--ioengine=libaio --iodepth=32 --numjobs=8 --offset_increment=10G --size=10G
--runtime=2 --time_based --group_reporting
