# kind: Kubernetes storage check
# The latency step of such a benchmark: queue depth 4, latency read from
# the JSON (gtod_reduce off so latencies are kept).
# expect: runs
--randrepeat=0 --verify=0 --ioengine=libaio --direct=1 --name=read_latency
--filename=fiotest --bs=4K --iodepth=4 --size=512M --readwrite=randread
--time_based --ramp_time=500ms --runtime=1s --output-format=json
