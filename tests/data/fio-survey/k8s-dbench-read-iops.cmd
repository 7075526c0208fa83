# kind: Kubernetes storage check
# A pod-level disk benchmark's first step as a one-liner: random-read IOPS
# on a file in the mounted volume, JSON out for the script that parses it.
# expect: runs
--randrepeat=0 --verify=0 --ioengine=libaio --direct=1 --gtod_reduce=1
--name=read_iops --filename=fiotest --bs=4K --iodepth=64 --size=512M
--readwrite=randread --time_based --ramp_time=500ms --runtime=1s
--output-format=json
