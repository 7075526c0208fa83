# kind: forum one-liner
# The classic "how fast is my disk" answer: random 75/25 read/write on a
# 4 GiB test file, gtod_reduce, queue depth 64.
# expect: runs
--randrepeat=1 --ioengine=libaio --direct=1 --gtod_reduce=1 --name=test
--filename=test --bs=4k --iodepth=64 --size=4G --readwrite=randrw
--rwmixread=75 --runtime=1 --time_based
