# kind: engine not modelled
# An S3-compatible object-store test over HTTP.
# expect: refused: ioengine 'http' is not supported
--name=s3 --ioengine=http --http_mode=s3 --http_host=localhost
--filename=/bucket/obj --rw=write --bs=1m --size=16m
