# kind: cloud disk guide
# The same multi-TB job with the capacity set as the refusal says.
# expect: runs
--set device.capacity=4T
--name=big-volume --filename=/dev/sdb --offset=1500G --size=100G --direct=1
--rw=read --bs=1M --ioengine=libaio --iodepth=64 --runtime=2 --time_based
