# kind: Kubernetes storage check
# A volume benchmark that also asks fio for CPU idleness per CPU; iosched
# accepts it with a note in the report (no host CPU to measure).
# expect: runs
--name=bw --filename=/dev/sdb --ioengine=libaio --direct=1 --rw=read
--bs=128k --iodepth=16 --size=1G --runtime=1 --time_based
--idle-prof=percpu --output-format=json
