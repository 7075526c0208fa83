# kind: database disk check
# A shorter etcd-style variant seen in platform docs: 8000 bytes per write,
# written with fdatasync on psync (4 MiB here).
# expect: runs
--name=etcd-small --rw=write --ioengine=psync --fdatasync=1 --size=4m
--bs=8000 --filename=etcd.dat
