# kind: cloud disk guide
# A local-NVMe instance guide using io_uring with a polling submission
# thread on /dev/nvme0n1 (--device=ssd-nvme, the lab's option, picks the
# simulated NVMe disk); the polling thread is CPU-side, noted.
# expect: runs
--name=nvme --filename=/dev/nvme0n1 --ioengine=io_uring --direct=1
--rw=randread --bs=4k --iodepth=128 --numjobs=2 --sqthread_poll=1
--runtime=2 --time_based --group_reporting --device=ssd-nvme
