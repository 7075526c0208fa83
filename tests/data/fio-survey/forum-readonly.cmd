# kind: forum one-liner
# A cautious check on a disk in use: --readonly so nothing is written.
# expect: runs
--readonly --name=ro --filename=/dev/sda --rw=randread --bs=4k --direct=1
--ioengine=libaio --iodepth=16 --runtime=1 --time_based
