# kind: database disk check
# A check that opens the file O_SYNC/O_DSYNC instead of calling fdatasync.
# expect: runs
--name=dsync --filename=dsync.dat --size=4m --bs=4k --rw=write --sync=dsync
--ioengine=pvsync
