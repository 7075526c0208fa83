# kind: forum one-liner
# A one-liner written with a single dash and a shortened option name, as
# getopt_long_only() lets users type (-ioengin for ioengine).
# expect: runs
-name=quick -rw=randread -bs=4k -size=64m -ioengin=psync -direct=1
-runtime=1 -time_based
