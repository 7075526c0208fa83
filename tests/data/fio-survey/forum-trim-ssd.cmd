# kind: forum one-liner
# An SSD trim check on the raw device: random trims of 128 KiB (on the
# simulated SSD with TRIM, --device=ssd-ftl-2009, 16 GiB).
# expect: runs
--name=trim --filename=/dev/sdb --rw=randtrim --bs=128k --size=1G
--ioengine=libaio --iodepth=16 --direct=1 --runtime=1 --time_based
--device=ssd-ftl-2009
