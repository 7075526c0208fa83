# kind: option from a later fio
# An SSD preconditioning recipe written for a recent fio: sprandom lays
# out random writes with a chosen spare area. Refused naming the release.
# expect: refused: sprandom comes from fio-3.41
--name=precond --filename=/dev/nvme0n1 --rw=randwrite --bs=4k --direct=1
--sprandom=1 --spr_op=0.15 --size=10G
