# kind: cloud disk guide
# The same guide's tuned variant: registered buffers and files (fixedbufs,
# registerfiles). Both save CPU in the kernel, not disk time: accepted,
# noted in the report.
# expect: runs
--name=nvme --filename=/dev/nvme0n1 --ioengine=io_uring --direct=1
--rw=randread --bs=4k --iodepth=128 --fixedbufs --registerfiles
--runtime=2 --time_based --device=ssd-nvme
