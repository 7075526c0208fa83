/*
 * Description: the real blktrace tools read what `iosched run --trace`
 * writes. blkparse -i NAME prints one line per event we wrote, action for
 * action (Q, M, G, S, I, D, C and the "m" lines of CFQ's messages), names
 * every process by its comm (never "(null)"), says "Skips: 0" and counts
 * exactly our events plus messages, and writes nothing to stderr but its
 * "Input file ... added" line. blkparse -d makes the binary dump btt reads;
 * btt then prints its Q2C and D2C tables with one sample per queued bio and
 * its merge table with our Q and D counts. iosched replay reads blkparse's
 * text output and its binary dump back, and queues the same bios again;
 * replay --plot draws the replayed processes (an SVG naming each).
 * Skips (77) only when blkparse or btt is not installed.
 */
#include <string.h>
#include <unistd.h>
#include "harness.h"
#include "iosched/blktrace.h"

static char dir[] = "/tmp/iosched-btt-XXXXXX";

static const char job[] =
	"[global]\nsize=4m\n"
	"[bufwriter]\nrw=write\nbs=4k\nsize=16m\n"
	"[syncwriter]\nrw=write\nbs=4k\nfsync=32\n"
	"[reader]\nrw=read\nbs=4k\n"
	"[aio]\ndirect=1\nioengine=libaio\niodepth=16\nrw=write\nbs=4k\nsize=1m\n";

static bool have(const char *tool)
{
	char cmd[128], *out;
	int st;

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", tool);
	out = t_run_cmd(cmd, &st);
	free(out);
	return out && st == 0;
}

/* What the trace file holds, decoded with our codec. */
struct want {
	uint64_t actions[IOS_BLK_TA_NR];
	uint64_t events, messages;
	uint64_t q_data, d_data;	/* Q and D events that move data (btt skips flushes) */
};

static int decode(const char *path, struct want *w)
{
	size_t len, off = 0;
	char *d = t_read_file(path, &len);

	memset(w, 0, sizeof(*w));
	T_ASSERT(d);
	while (off + IOS_BLK_REC_SIZE <= len) {
		struct ios_blk_rec r;
		unsigned code;

		ios_blk_rec_decode((const uint8_t *)d + off, false, &r);
		code = r.action & IOS_BLK_TA_MASK;
		if (r.action & IOS_BLK_TC_ACT(IOS_BLK_TC_NOTIFY)) {
			if (code == IOS_BLK_TN_MESSAGE)
				w->messages++;
		} else {
			T_ASSERT(code < IOS_BLK_TA_NR);
			w->actions[code]++;
			w->events++;
			if (r.bytes && code == IOS_BLK_TA_QUEUE)
				w->q_data++;
			if (r.bytes && code == IOS_BLK_TA_ISSUE)
				w->d_data++;
		}
		off += IOS_BLK_REC_SIZE + r.pdu_len;
	}
	T_ASSERT_EQ(off, len);
	free(d);
	return T_PASS;
}

/* The N column of btt's row @name ("Q2C", "D2C") in the All Devices table. */
static long btt_n(const char *out, const char *name)
{
	const char *p = out;
	size_t n = strlen(name);

	while ((p = strstr(p, name)) != NULL) {
		if ((p == out || p[-1] == '\n') && p[n] == ' ') {
			const char *eol = strchr(p, '\n'), *q = eol ? eol : p + strlen(p);

			while (q > p && q[-1] == ' ')
				q--;
			while (q > p && q[-1] != ' ')
				q--;
			return strtol(q, NULL, 10);
		}
		p += n;
	}
	return -1;
}

static int test_blkparse_btt(void)
{
	char cmd[2048], path[600], name[512];
	char *out, *err, *line, *save;
	struct want w;
	uint64_t seen[IOS_BLK_TA_NR] = { 0 }, mlines = 0, lines = 0;
	int st;

	snprintf(path, sizeof(path), "%s/mix.fio", dir);
	{
		FILE *f = fopen(path, "w");

		T_ASSERT(f);
		fputs(job, f);
		fclose(f);
	}
	snprintf(name, sizeof(name), "%s/mix", dir);
	snprintf(cmd, sizeof(cmd),
		 "%s run %s --trace %s --scheduler cfq --device hdd-2004 --set queue.nr_requests=4 "
		 "--set vm.memory=32 --set vm.dirty_background_ratio=5 >/dev/null 2>&1",
		 t_iosched_bin(), path, name);
	out = t_run_cmd(cmd, &st);
	T_ASSERT_MSG(out && st == 0, "%s: exit %d", cmd, st);
	free(out);
	snprintf(path, sizeof(path), "%s.blktrace.0", name);
	T_ASSERT_EQ(decode(path, &w), T_PASS);
	T_ASSERT(w.actions[IOS_BLK_TA_BACKMERGE] && w.actions[IOS_BLK_TA_SLEEPRQ] && w.messages);

	/* blkparse, from the trace's directory like a user would */
	snprintf(cmd, sizeof(cmd), "cd %s && blkparse -i mix 2>blkparse.err", dir);
	out = t_run_cmd(cmd, &st);
	T_ASSERT_MSG(out && st == 0, "blkparse exit %d", st);
	snprintf(path, sizeof(path), "%s/blkparse.err", dir);
	err = t_read_file(path, NULL);
	T_ASSERT(err);
	for (line = strtok_r(err, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		T_ASSERT_MSG(!strncmp(line, "Input file ", 11) && strstr(line, " added"),
			     "blkparse complained: %s", line);
	free(err);
	T_ASSERT_MSG(!strstr(out, "(null)"), "a process without a name");
	T_ASSERT(!strstr(out, "skipped") && !strstr(out, "dropped"));
	T_ASSERT_MSG(strstr(out, "Skips: 0 forward"), "no 'Skips: 0' in blkparse's summary");
	{
		char needle[64];

		snprintf(needle, sizeof(needle), "Events (mix): %llu entries",
			 (unsigned long long)(w.events + w.messages));
		T_ASSERT_MSG(strstr(out, needle), "blkparse lacks '%s'", needle);
	}
	/* "  8,0    0       12     0.001004000  1234  M  RS 100016 + 8 [fio]" */
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char dev[16], act[8], rwbs[8];
		unsigned cpu, seq, pid;
		double t;

		if (sscanf(line, "%15s %u %u %lf %u %7s %7s", dev, &cpu, &seq, &t, &pid, act,
			   rwbs) != 7 || strcmp(dev, "8,0"))
			continue;
		lines++;
		if (!strcmp(act, "m")) {
			mlines++;
			continue;
		}
		for (unsigned a = 1; a < IOS_BLK_TA_NR; a++)
			if (!strcmp(act, ios_blk_action_name(a)))
				seen[a]++;
		if (!strcmp(act, "Q"))
			T_ASSERT_MSG(strstr(line, "[bufwriter]") || strstr(line, "[syncwriter]") ||
				     strstr(line, "[reader]") || strstr(line, "[aio]") ||
				     strstr(line, "[flush-8:0]"), "Q line: %s", line);
	}
	free(out);
	T_ASSERT_U64_EQ(lines, w.events + w.messages);
	T_ASSERT_U64_EQ(mlines, w.messages);
	for (unsigned a = 1; a < IOS_BLK_TA_NR; a++)
		T_ASSERT_MSG(seen[a] == w.actions[a], "action %s: blkparse %llu, written %llu",
			     ios_blk_action_name(a), (unsigned long long)seen[a],
			     (unsigned long long)w.actions[a]);

	/* btt reads blkparse's binary dump */
	snprintf(cmd, sizeof(cmd), "cd %s && blkparse -i mix -d mix.bin -O -q >/dev/null 2>&1 && "
		 "btt -i mix.bin 2>btt.err", dir);
	out = t_run_cmd(cmd, &st);
	T_ASSERT_MSG(out && st == 0, "blkparse -d / btt exit %d", st);
	snprintf(path, sizeof(path), "%s/btt.err", dir);
	err = t_read_file(path, NULL);
	T_ASSERT_MSG(err && !err[0], "btt stderr: %s", err ? err : "?");
	free(err);
	T_ASSERT(strstr(out, "==================== All Devices ===================="));
	T_ASSERT(strstr(out, "Device Merge Information"));
	/*
	 * btt follows each bio from Q to C, merged or not; it leaves out
	 * zero-byte I/O (the cache flushes of fsync)
	 */
	T_ASSERT(w.q_data < w.actions[IOS_BLK_TA_QUEUE]);
	T_ASSERT_EQ(btt_n(out, "Q2C"), (long)w.q_data);
	T_ASSERT_EQ(btt_n(out, "D2C"), (long)w.q_data);
	T_ASSERT_EQ(btt_n(out, "Q2M"), (long)w.actions[IOS_BLK_TA_BACKMERGE]);
	{
		char needle[128];

		snprintf(needle, sizeof(needle), " (  8,  0) | %8llu %8llu ",
			 (unsigned long long)w.q_data, (unsigned long long)w.d_data);
		T_ASSERT_MSG(strstr(out, needle), "btt merge table lacks '%s'", needle);
	}
	free(out);
	return T_PASS;
}

/* The Q lines of blkparse's output for trace @name, as sorted "pid rwbs sector + n". */
static char *q_lines(const char *name)
{
	char cmd[1024];
	int st;

	snprintf(cmd, sizeof(cmd), "cd %s && blkparse -i %s 2>/dev/null | "
		 "awk '$1 == \"8,0\" && $6 == \"Q\" { print $5, $7, $8, $9, $10 }' | sort", dir,
		 name);
	return t_run_cmd(cmd, &st);
}

/*
 * Replay what the real tools made of our trace: blkparse's text output and
 * its binary dump (-d, what fio's read_iolog takes). Under the same
 * scheduler, device and settings, the replays queue the same bios.
 */
static int test_replay_tool_output(void)
{
	static const char *const inputs[] = { "mix.txt", "mix.bin" };
	char cmd[2048], *want, *got, *out;
	int st;

	snprintf(cmd, sizeof(cmd), "cd %s && blkparse -i mix >mix.txt 2>/dev/null", dir);
	out = t_run_cmd(cmd, &st);
	T_ASSERT(out && st == 0);
	free(out);
	want = q_lines("mix");
	T_ASSERT(want && strlen(want) > 1000);
	for (size_t i = 0; i < IOS_ARRAY_SIZE(inputs); i++) {
		snprintf(cmd, sizeof(cmd),
			 "cd %s && %s replay %s --trace re%zu --scheduler cfq --device hdd-2004 "
			 "--set queue.nr_requests=4 --plot re%zu.svg >/dev/null 2>replay.err", dir,
			 t_iosched_bin(), inputs[i], i, i);
		out = t_run_cmd(cmd, &st);
		T_ASSERT_MSG(out && st == 0, "%s: exit %d", cmd, st);
		free(out);
		{
			char nm[16];

			snprintf(nm, sizeof(nm), "re%zu", i);
			got = q_lines(nm);
		}
		T_ASSERT(got);
		T_ASSERT_MSG(!strcmp(want, got), "replaying %s queued other bios", inputs[i]);
		free(got);
		{
			char svg[600], *text;

			snprintf(svg, sizeof(svg), "%s/re%zu.svg", dir, i);
			text = t_read_file(svg, NULL);
			T_ASSERT_MSG(text, "no %s", svg);
			T_ASSERT(!strncmp(text, "<?xml", 5) || !strncmp(text, "<svg", 4));
			T_ASSERT_MSG(strstr(text, "</svg>") && strstr(text, inputs[i]),
				     "%s: not a plot of %s", svg, inputs[i]);
			free(text);
		}
	}
	free(want);
	return T_PASS;
}

int main(void)
{
	char cmd[300];
	int ret;

	if (!have("blkparse") || !have("btt")) {
		printf("blkparse or btt not installed (Debian package blktrace): skipped\n");
		return T_SKIP;
	}
	if (!mkdtemp(dir))
		return T_FAIL;
	ret = T_RUN(test_blkparse_btt, test_replay_tool_output);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", dir);
	return ret;
}
