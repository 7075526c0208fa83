/*
 * Description: on-demand readahead follows Linux 2.6.31. A reader doing
 * 512-byte reads from the start of a file with read_ahead_kb=128 gets the
 * documented window sequence 4, 8, 16, 32, 32 pages with marks at 1, 4, 12,
 * 28, 60; a random read is read as is without touching the window; a marked
 * page found with someone else's window state rebuilds it from the cached
 * pages ahead; a miss right after cached history (an interleaved stream)
 * starts a context window; an oversize read starts a maximum window; with
 * readahead off only the requested pages are read.
 */
#include <string.h>
#include "harness.h"

#define NP 4096

struct fake {
	bool cached[NP];
	bool mark[NP];
};

static uint64_t f_hole(void *priv, uint64_t from, uint64_t max)
{
	struct fake *f = priv;

	for (uint64_t i = from; i < from + max; i++)
		if (i >= NP || !f->cached[i])
			return i;
	return from + max;
}

static uint64_t f_hist(void *priv, uint64_t index, uint64_t max)
{
	struct fake *f = priv;
	uint64_t n = 0;

	while (n < max && n < index && f->cached[index - 1 - n])
		n++;
	return n;
}

/* what vfs.c does with a window: cache the missing pages, mark a new one */
static void apply(struct fake *f, const struct ios_ra_window *w)
{
	uint64_t mark = w->async_size ? w->start + w->size - w->async_size : UINT64_MAX;

	for (uint64_t i = w->start; i < w->start + w->size && i < NP; i++) {
		if (f->cached[i])
			continue;
		f->cached[i] = true;
		if (i == mark)
			f->mark[i] = true;
	}
}

static int test_sequential_512(void)
{
	static struct fake f;
	struct ios_ra_state ra = { .ra_pages = 32, .prev_pos = UINT64_MAX };
	struct ios_ra_cache_ops c = { f_hole, f_hist, &f };
	static const uint64_t want_start[] = { 0, 4, 12, 28, 60, 92, 124 };
	static const uint64_t want_size[] = { 4, 8, 16, 32, 32, 32, 32 };
	static const uint64_t want_mark[] = { 1, 4, 12, 28, 60, 92, 124 };
	unsigned nwin = 0;

	memset(&f, 0, sizeof(f));
	for (uint64_t pos = 0; pos < 150 * 4096 && nwin < 7; pos += 512) {
		uint64_t idx = pos / 4096;
		struct ios_ra_window w;

		if (!f.cached[idx]) {
			w = ios_ra_ondemand(&ra, &c, false, idx, 1);
		} else if (f.mark[idx]) {
			f.mark[idx] = false;
			w = ios_ra_ondemand(&ra, &c, true, idx, 1);
		} else {
			ra.prev_pos = pos + 512;
			continue;
		}
		T_ASSERT(w.read);
		T_ASSERT_MSG(w.start == want_start[nwin] && w.size == want_size[nwin] &&
			     w.start + w.size - w.async_size == want_mark[nwin],
			     "window %u: start %llu size %llu mark %llu", nwin,
			     (unsigned long long)w.start, (unsigned long long)w.size,
			     (unsigned long long)(w.start + w.size - w.async_size));
		apply(&f, &w);
		nwin++;
		ra.prev_pos = pos + 512;
	}
	T_ASSERT_EQ(nwin, 7);
	return T_PASS;
}

static int test_random_and_oversize(void)
{
	static struct fake f;
	struct ios_ra_state ra = { .ra_pages = 32, .prev_pos = UINT64_MAX };
	struct ios_ra_cache_ops c = { f_hole, f_hist, &f };
	struct ios_ra_window w;

	memset(&f, 0, sizeof(f));
	ra.start = 100;
	ra.size = 8;
	ra.async_size = 8;
	ra.prev_pos = 50 * 4096;
	/* a miss far from the last read with no cached history: read as is */
	w = ios_ra_ondemand(&ra, &c, false, 2000, 2);
	T_ASSERT(w.read);
	T_ASSERT_EQ(w.start, 2000);
	T_ASSERT_EQ(w.size, 2);
	T_ASSERT_EQ(w.async_size, 0);
	T_ASSERT_EQ(ra.start, 100); /* state untouched */
	T_ASSERT_EQ(ra.size, 8);
	/*
	 * a read bigger than the maximum: a maximum window, all of it async,
	 * which the read itself would hit at once, so the next window is
	 * merged in: 64 pages marked at 32 (as 2.6.31's readit: path does)
	 */
	w = ios_ra_ondemand(&ra, &c, false, 3000, 40);
	T_ASSERT_EQ(w.start, 3000);
	T_ASSERT_EQ(w.size, 64);
	T_ASSERT_EQ(w.async_size, 32);
	/* the sequential miss rule: the page right after the previous read */
	ra.prev_pos = 3100 * 4096 + 100;
	w = ios_ra_ondemand(&ra, &c, false, 3101, 1);
	T_ASSERT_EQ(w.start, 3101);
	T_ASSERT_EQ(w.size, 4);
	T_ASSERT_EQ(w.async_size, 3);
	return T_PASS;
}

static int test_marker_and_context(void)
{
	static struct fake f;
	struct ios_ra_state ra = { .ra_pages = 32, .prev_pos = UINT64_MAX };
	struct ios_ra_cache_ops c = { f_hole, f_hist, &f };
	struct ios_ra_window w;

	memset(&f, 0, sizeof(f));
	/* another reader cached [200, 216); our state is elsewhere */
	for (int i = 200; i < 216; i++)
		f.cached[i] = true;
	ra.start = 10;
	ra.size = 4;
	ra.async_size = 2;
	ra.prev_pos = 10 * 4096;
	w = ios_ra_ondemand(&ra, &c, true, 208, 1);
	T_ASSERT(w.read);
	T_ASSERT_EQ(w.start, 216);	/* from the first hole */
	/* size = next(8 + 1 = 9 pages) = 18 (x2 since 9 >= 32/16) */
	T_ASSERT_EQ(w.size, 18);
	T_ASSERT_EQ(w.async_size, 18);
	/* context readahead: a miss right after 16 cached pages, state elsewhere */
	memset(&f, 0, sizeof(f));
	for (int i = 500; i < 516; i++)
		f.cached[i] = true;
	ra.start = 0;
	ra.size = 4;
	ra.async_size = 3;
	ra.prev_pos = 7 * 4096;
	w = ios_ra_ondemand(&ra, &c, false, 516, 1);
	T_ASSERT(w.read);
	T_ASSERT_EQ(w.start, 516);
	/* init size of 16 + 1 = 17: 32 (the maximum), all async, so merged: 64 */
	T_ASSERT_EQ(w.size, 64);
	T_ASSERT_EQ(w.async_size, 32);
	return T_PASS;
}

static int test_readahead_off(void)
{
	static struct fake f;
	struct ios_ra_state ra = { .ra_pages = 0, .prev_pos = UINT64_MAX };
	struct ios_ra_cache_ops c = { f_hole, f_hist, &f };
	struct ios_ra_window w;

	memset(&f, 0, sizeof(f));
	w = ios_ra_ondemand(&ra, &c, false, 0, 1);
	T_ASSERT(w.read);
	T_ASSERT_EQ(w.size, 1);
	T_ASSERT_EQ(w.async_size, 0);
	w = ios_ra_ondemand(&ra, &c, true, 5, 1);
	T_ASSERT(!w.read);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_sequential_512, test_random_and_oversize, test_marker_and_context,
		     test_readahead_off);
}
