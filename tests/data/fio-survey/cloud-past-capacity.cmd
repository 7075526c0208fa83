# kind: cloud disk guide
# A guide written for a volume several TB large: it reads at an offset past
# the end of the default simulated disk. Refused with the way to set the
# capacity (--set device.capacity=SIZE).
# expect: refused: reaches past the end device.capacity
--name=big-volume --filename=/dev/sdb --offset=1500G --size=100G --direct=1
--rw=read --bs=1M --ioengine=libaio --iodepth=64 --runtime=2 --time_based
