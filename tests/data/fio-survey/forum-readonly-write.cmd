# kind: forum one-liner
# The same with a write job: the safety switch refuses it, as fio does.
# expect: refused: writes or trims read-only
--readonly --name=rw --filename=/dev/sda --rw=randwrite --bs=4k --direct=1
--runtime=1 --time_based
