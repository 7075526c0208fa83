/*
 * Description: "did you mean" (core/suggest.c). The distance counts an
 * adjacent transposition as one edit and folds case; a name that starts
 * like the typed word is found at one and a half edits more; only names at
 * the best distance are shown, at most three, and nothing is suggested
 * beyond about a third of the typed length. Then each place a user names
 * something gets the suggestion in its error: scheduler, device profile,
 * scheduler tunable, scoped tunable, job option, ioengine.
 */
#include <string.h>
#include "harness.h"
#include "iosched/device.h"
#include "iosched/ios.h"
#include "iosched/sched.h"
#include "iosched/suggest.h"

#define T_STREQ(got, want) T_ASSERT_MSG(!strcmp((got), (want)), "got \"%s\", want \"%s\"", \
					   (got), (want))

static const char *one(const char *typed, const char *const *names, char *buf, size_t n)
{
	struct ios_suggest s;

	ios_suggest_init(&s, typed);
	for (size_t i = 0; names[i]; i++)
		ios_suggest_add(&s, NULL, names[i]);
	return ios_suggest_str(&s, buf, n);
}

static int test_distance(void)
{
	T_ASSERT_EQ(ios_suggest_distance("cfq", "cfq"), 0u);
	T_ASSERT_EQ(ios_suggest_distance("cfqq", "cfq"), 1u);
	T_ASSERT_EQ(ios_suggest_distance("libaoi", "libaio"), 1u);	/* a transposition */
	T_ASSERT_EQ(ios_suggest_distance("CFQ", "cfq"), 0u);
	T_ASSERT_EQ(ios_suggest_distance("ab", "xyz"), 3u);
	/* a prefix: 0 edits to "hdd", then one and a half, rounded up */
	T_ASSERT_EQ(ios_suggest_distance("hdd", "hdd-2009"), 2u);
	T_ASSERT_EQ(ios_suggest_distance("", "abc"), 2u);
	return T_PASS;
}

static int test_choice(void)
{
	static const char *const opts[] = { "bs", "bssplit", "ss", "size", NULL };
	static const char *const devs[] = { "hdd-2009", "hdd-2004", "ssd", NULL };
	static const char *const four[] = { "aa", "ab", "ac", "ad", NULL };
	char b[256];

	T_STREQ(one("bss", opts, b, sizeof(b)), " (did you mean 'bs' or 'ss'?)");
	T_STREQ(one("hdd", devs, b, sizeof(b)), " (did you mean 'hdd-2009' or 'hdd-2004'?)");
	T_STREQ(one("sdd", devs, b, sizeof(b)), " (did you mean 'ssd'?)");
	/* too far: nothing, not a guess */
	T_STREQ(one("zzzzzzzz", opts, b, sizeof(b)), "");
	/* the typed name itself is no suggestion */
	T_STREQ(one("size", opts, b, sizeof(b)), "");
	/* at most three, in the order offered */
	T_STREQ(one("a", four, b, sizeof(b)), " (did you mean 'aa', 'ab' or 'ac'?)");
	/* a buffer too small gets nothing rather than half a name */
	T_STREQ(one("bss", opts, b, 12), "");
	return T_PASS;
}

static int run_err(const char *job, const char *sched, const char *dev, const char *set,
		   struct ios_err *e)
{
	struct ios_jobfile jf = { 0 };
	struct ios_job_parse_opts po;
	struct ios_settings st = { 0 };
	struct ios_run_config cfg = { 0 };
	struct ios_run_result res = { 0 };
	int ret;

	ios_job_parse_opts_init(&po);
	ret = ios_job_parse_buf("t.fio", job, strlen(job), &po, &jf, e);
	if (ret)
		return ret;
	if (set && ios_settings_add_kv(&st, set, "--set", e)) {
		ios_jobfile_free(&jf);
		return e->code;
	}
	cfg.scheduler = sched;
	cfg.device = dev;
	cfg.settings = &st;
	ret = ios_run(&jf, &cfg, &res, e);
	ios_run_result_free(&res);
	ios_settings_free(&st);
	ios_jobfile_free(&jf);
	return ret;
}

static int test_errors(void)
{
	static const char job[] = "[a]\nrw=read\nsize=64k\nbs=4k\n";
	struct ios_err e = { 0 };

	T_ASSERT(run_err(job, "dedline", NULL, NULL, &e) < 0);
	T_ASSERT_MSG(strstr(e.msg, "did you mean 'deadline'?"), "%s", e.msg);
	ios_err_clear(&e);
	T_ASSERT(run_err(job, NULL, "ssdd", NULL, &e) < 0);
	T_ASSERT_MSG(strstr(e.msg, "did you mean 'ssd'?"), "%s", e.msg);
	ios_err_clear(&e);
	T_ASSERT(run_err(job, "cfq", NULL, "slice_idl=0", &e) < 0);
	T_ASSERT_MSG(strstr(e.msg, "did you mean 'slice_idle'?"), "%s", e.msg);
	ios_err_clear(&e);
	T_ASSERT(run_err(job, NULL, NULL, "queue.nr_request=8", &e) < 0);
	T_ASSERT_MSG(strstr(e.msg, "did you mean 'queue.nr_requests'?"), "%s", e.msg);
	ios_err_clear(&e);
	/* a mistyped prefix finds the name under the right one */
	T_ASSERT(run_err(job, NULL, NULL, "queu.nr_requests=8", &e) < 0);
	T_ASSERT_MSG(strstr(e.msg, "did you mean 'queue.nr_requests'?"), "%s", e.msg);
	ios_err_clear(&e);
	T_ASSERT(run_err("[a]\nrw=read\nsize=64k\nblocksise=4k\n", NULL, NULL, NULL, &e) < 0);
	T_ASSERT_MSG(strstr(e.msg, "t.fio:4: unknown option 'blocksise' (did you mean 'blocksize'?)"),
		     "%s", e.msg);
	ios_err_clear(&e);
	T_ASSERT(run_err("[a]\nrw=read\nsize=64k\nioengine=libaoi\n", NULL, NULL, NULL, &e) < 0);
	T_ASSERT_MSG(strstr(e.msg, "unknown ioengine (did you mean 'libaio'?)"), "%s", e.msg);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_distance, test_choice, test_errors);
}
