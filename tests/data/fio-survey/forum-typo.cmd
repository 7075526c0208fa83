# kind: forum one-liner
# A mistyped option: refused with fio's words and the nearest name.
# expect: refused: unrecognized option --iodpth did you mean --iodepth
--name=t --rw=read --size=16m --iodpth=4
