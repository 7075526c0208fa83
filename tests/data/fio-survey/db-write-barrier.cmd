# kind: database disk check
# A write_barrier check: every 16th write with a barrier, as some database
# setup guides ask for. fio 3.33 marks those writes and no engine of it
# reads the mark; iosched accepts it with a note in the report.
# expect: runs
--name=barrier --filename=barrier.dat --size=4m --bs=4k --rw=write
--write_barrier=16 --ioengine=psync
