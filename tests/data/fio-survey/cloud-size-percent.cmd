# kind: cloud disk guide
# A guide that sizes the test as a share of the device instead of in bytes.
# expect: runs
--name=share --filename=/dev/sdb --size=10% --direct=1 --rw=randread --bs=4k
--ioengine=libaio --iodepth=16 --runtime=2 --time_based
