# Split a REPRODUCTION.md (iosched repro's report) into the pieces it is
# assembled from, one file each in the directory DIR (awk -v dir=DIR):
#   pre      the top of the file down to the summary table's |---| line
#   row.N    the summary table's Nth row (an experiment's)
#   mid      what follows the rows, down to the first section (blank lines
#            before a section's heading are that section's: the last
#            section of a report and one in the middle then read alike)
#   sec.N    the Nth section: its "## " line down to the next one's
# and prints the number of rows and of sections. Concatenated in that order,
# the pieces are the file again, byte for byte.
BEGIN { state = "pre"; rows = 0; secs = 0; blank = 0; out = dir "/pre"; printf "" > (dir "/mid") }
function flush() { for (; blank > 0; blank--) print "" > out }
state == "pre" {
	print > out
	if ($0 ~ /^\|---/ && seen_summary) { state = "rows"; out = dir "/mid" }
	if ($0 == "## Summary")
		seen_summary = 1
	next
}
state == "rows" && /^\| / { rows++; print > (dir "/row." rows); next }
{ state = "body" }
$0 == "" { blank++; next }
/^## / { secs++; out = dir "/sec." secs }
{ flush(); print > out }
END { flush(); print rows, secs }
