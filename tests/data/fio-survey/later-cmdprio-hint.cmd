# kind: option from a later fio
# A priority split with a fifth (hint) field per entry, which fio 3.36
# added; fio 3.33 reads four fields.
# expect: refused: cmdprio_bssplit fifth field
--name=prio --filename=/dev/sdb --rw=randread --ioengine=io_uring --direct=1
--iodepth=16 --bssplit=4k/50:64k/50 --cmdprio_bssplit=4k/50/1/0/1:64k/10/3/7/0
--runtime=1 --time_based
