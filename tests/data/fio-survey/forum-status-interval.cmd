# kind: forum one-liner
# A monitoring script's one-liner: a JSON report every second of the run.
# expect: runs
--name=watch --filename=/dev/sdb --rw=randread --bs=4k --iodepth=8
--ioengine=libaio --direct=1 --runtime=3 --time_based --status-interval=1
--output-format=json
