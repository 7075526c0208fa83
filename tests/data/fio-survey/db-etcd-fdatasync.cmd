# kind: database disk check
# The etcd disk check: small sequential writes with fdatasync after each,
# as the WAL writes them; its users judge the 99th percentile of the
# fdatasync latency (the sync section).
# expect: runs
--rw=write --ioengine=sync --fdatasync=1 --directory=. --size=22m --bs=2300
--name=etcd-wal
