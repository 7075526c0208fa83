# kind: forum one-liner
# The null engine, used to measure fio's own overhead: it is modelled
# (no I/O reaches the disk), so it runs.
# expect: runs
--name=overhead --ioengine=null --rw=randread --bs=4k --size=1G
--iodepth=32 --runtime=1 --time_based
