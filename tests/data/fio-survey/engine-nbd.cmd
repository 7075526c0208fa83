# kind: engine not modelled
# A network block device test through libnbd.
# expect: refused: ioengine 'nbd' is not supported
--name=nbd --ioengine=nbd --uri=nbd://localhost --rw=randread --bs=4k
--size=64m
