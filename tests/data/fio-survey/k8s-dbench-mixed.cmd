# kind: Kubernetes storage check
# The mixed step: 75/25 random read/write at queue depth 64.
# expect: runs
--randrepeat=0 --verify=0 --ioengine=libaio --direct=1 --gtod_reduce=1
--name=rw_mix --filename=fiotest --bs=4k --iodepth=64 --size=512M
--readwrite=randrw --rwmixread=75 --time_based --ramp_time=500ms
--runtime=1s --output-format=json
