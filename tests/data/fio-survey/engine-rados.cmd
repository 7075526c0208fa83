# kind: engine not modelled
# An object-store test through librados: no block device to schedule.
# expect: refused: ioengine 'rados' is not supported
--name=obj --ioengine=rados --clientname=admin --pool=data --rw=write
--bs=4m --size=1G
