# kind: benchmark suite
# A fio-plot style sweep step (bench-fio): one point of an iodepth x
# numjobs matrix, JSON+ written to a file that the plotting tool reads.
# expect: runs
--output-format=json+ --output=randread-iodepth-8-numjobs-2.json
--name=sweep --filename=/dev/sdb --rw=randread --bs=4k --iodepth=8
--numjobs=2 --direct=1 --ioengine=libaio --size=1G --runtime=1
--time_based --group_reporting
