# kind: option from a later fio
# A job from fio's development tree using random_sequence_stride.
# expect: refused: random_sequence_stride later than the fio 3.33
--name=stride --filename=/dev/sdb --rw=randread --bs=4k
--random_sequence_stride=8 --size=1G --runtime=1 --time_based
