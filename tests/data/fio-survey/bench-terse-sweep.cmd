# kind: benchmark suite
# An older benchmark harness that parses the terse format (version 3) line
# by field number.
# expect: runs
--minimal --terse-version=3 --name=seq --filename=/dev/sdb --rw=read
--bs=1M --iodepth=8 --ioengine=libaio --direct=1 --runtime=1 --time_based
