# kind: cloud disk guide
# Polled completions (hipri) on io_uring. On blk-mq they need the driver's
# poll queues, which iosched does not model: refused by name. (fio 3.33
# itself fails each I/O with "Operation not supported" on a disk without
# poll queues, as on a virtio disk.)
# expect: refused: hipri not modelled
--name=nvme --filename=/dev/nvme0n1 --ioengine=io_uring --direct=1
--rw=randread --bs=4k --iodepth=32 --hipri --runtime=2 --time_based
--device=ssd-nvme
