# kind: option from a later fio
# A steady-state run whose check interval option came after fio 3.33.
# expect: refused: steadystate_check_interval comes from fio-3.35
--name=ss --filename=/dev/sdb --rw=randwrite --bs=4k --direct=1
--ioengine=libaio --iodepth=32 --steadystate=iops_slope:0.3%
--steadystate_duration=10s --steadystate_check_interval=2s --runtime=60
