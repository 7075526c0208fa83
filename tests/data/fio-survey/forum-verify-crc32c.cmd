# kind: forum one-liner
# A data-integrity one-liner: write with crc32c checksums, then read back
# and verify.
# expect: runs
--name=verify --filename=verify.dat --size=16m --rw=write --bs=4k
--verify=crc32c --do_verify=1 --ioengine=libaio --iodepth=8 --direct=1
