# kind: database disk check
# The same check as a cluster operator's script runs it: JSON out, the
# script reads sync.lat_ns.percentile["99.000000"].
# expect: runs
--rw=write --ioengine=sync --fdatasync=1 --directory=. --size=22m --bs=2300
--name=etcd-perf --output-format=json
