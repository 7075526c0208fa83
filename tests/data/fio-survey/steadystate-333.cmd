# kind: option from a later fio
# The fio 3.33 form of a steady-state run (no check interval): runs.
# expect: runs
--name=ss --filename=/dev/sdb --rw=randwrite --bs=4k --direct=1
--ioengine=libaio --iodepth=32 --steadystate=iops_slope:0.3%
--steadystate_duration=1s --runtime=3 --time_based
