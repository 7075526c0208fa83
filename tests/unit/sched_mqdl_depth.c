/*
 * Description: mq-deadline's dd_limit_depth and async_depth per release.
 * Reads are never limited; every write (sync or not) gets a shallow depth
 * per sbitmap word. 6.12 and 6.6.44+ (39823b47bbd4): async_depth defaults
 * to nr_requests (no reserve) and dd_to_word_depth scales it to the word,
 * ceil(async_depth * 2^shift / nr_requests). 6.6.0-6.6.43 (the 6.6
 * profile's async_depth_rule=6.6.0): the default is 3/4 of nr_requests and
 * the value is the per-word limit itself. Words as sbitmap_calculate_shift
 * sizes them: 64 bits for 256 tags, 8 bits for 62. Fake clock (t_sq).
 */
#include "mqdl_util.h"

static int test_612_default_no_reserve(void)
{
	struct t_sq *s = t_sq_new("mq-deadline", 128, 0, NULL);	/* nr_requests 256 */
	char buf[64];

	T_ASSERT(s);
	T_ASSERT_EQ(s->q.nr_requests, 256);
	T_ASSERT(!strcmp(mq_show(s, "async_depth", buf, sizeof(buf)), "256"));
	T_ASSERT_EQ(mq_limit(s, 0), 0);				/* read */
	T_ASSERT_EQ(mq_limit(s, IOS_REQ_SYNC), 0);		/* sync read */
	T_ASSERT_EQ(mq_limit(s, OPF_WRITE), 64);		/* the whole word */
	T_ASSERT_EQ(mq_limit(s, OPF_WRITE | IOS_REQ_SYNC), 64);	/* sync writes too */
	t_sq_free(s);
	return T_PASS;
}

static int test_612_scaled(void)
{
	struct t_sq *s = t_sq_new("mq-deadline-6.12", 128, 0, "async_depth=32", NULL);
	char buf[64];

	T_ASSERT(s);
	/* the user's value survives depth_updated */
	T_ASSERT(!strcmp(mq_show(s, "async_depth", buf, sizeof(buf)), "32"));
	T_ASSERT_EQ(mq_limit(s, OPF_WRITE), 8);	/* 32 of 256 tags: 8 of each 64-bit word */
	T_ASSERT_EQ(mq_limit(s, 0), 0);
	t_sq_free(s);
	/* HDD (NCQ 31): 62 tags in 8-bit words; ceil(31 * 8 / 62) = 4 */
	s = t_sq_new("mq-deadline-6.12", 31, 1, "async_depth=31", NULL);
	T_ASSERT(s);
	T_ASSERT_EQ(s->q.nr_requests, 62);
	T_ASSERT_EQ(mq_limit(s, OPF_WRITE), 4);
	t_sq_free(s);
	s = t_sq_new("mq-deadline-6.12", 31, 1, "async_depth=1", NULL);
	T_ASSERT(s);
	T_ASSERT_EQ(mq_limit(s, OPF_WRITE), 1);	/* rounded up, never 0 */
	t_sq_free(s);
	return T_PASS;
}

/* 6.6.44+ is the 6.12 rule. */
static int test_66_default_is_6644(void)
{
	struct t_sq *s = t_sq_new("mq-deadline-6.6", 128, 0, "async_depth=32", NULL);

	T_ASSERT(s);
	T_ASSERT_EQ(mq_limit(s, OPF_WRITE), 8);
	t_sq_free(s);
	return T_PASS;
}

/* 6.6.0-6.6.43: default 3/4 of nr_requests, used unscaled per word. */
static int test_660_per_word(void)
{
	struct t_sq *s = t_sq_new("mq-deadline-6.6", 128, 0, "async_depth_rule=6.6.0", NULL);
	char buf[64];

	T_ASSERT(s);
	T_ASSERT(!strcmp(mq_show(s, "async_depth", buf, sizeof(buf)), "192"));
	/* 192 per 64-bit word: the default binds nothing */
	T_ASSERT_EQ(mq_limit(s, OPF_WRITE), 192);
	T_ASSERT_EQ(mq_limit(s, 0), 0);
	t_sq_free(s);
	s = t_sq_new("mq-deadline-6.6", 128, 0, "async_depth_rule=6.6.0", "async_depth=32",
		     NULL);
	T_ASSERT(s);
	/* 32 of each word: half the map, where 6.6.44 would give 8 (an eighth) */
	T_ASSERT_EQ(mq_limit(s, OPF_WRITE), 32);
	t_sq_free(s);
	/* a tiny map: 3 * 1 / 4 = 0, kept at 1 */
	s = t_sq_new("mq-deadline-6.6", 1, 0, "async_depth_rule=6.6.0", NULL);
	T_ASSERT(s);
	T_ASSERT_EQ(s->q.nr_requests, 2);
	T_ASSERT(!strcmp(mq_show(s, "async_depth", buf, sizeof(buf)), "1"));
	t_sq_free(s);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_612_default_no_reserve, test_612_scaled, test_66_default_is_6644,
		     test_660_per_word);
}
