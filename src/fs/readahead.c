/*
 * On-demand readahead, as Linux 2.6.31 does it (mm/readahead.c).
 *
 * Each open file keeps a window: start, size and async_size pages. A read
 * that misses the cache ("sync readahead") or touches the page carrying the
 * readahead mark ("async readahead", the mark sits async_size pages before
 * the end of the window) asks for the next window:
 *
 *  - at the start of the file, after a sequential miss (the previous read
 *    ended on the page before), or for a read larger than the maximum:
 *    a fresh window of get_init_ra_size(request) pages, its mark placed so
 *    that the pages beyond the request are the async part;
 *  - when the read arrives where the window said it would (at the mark or
 *    at its end): the window moves forward and grows, x4 while small
 *    (below max/16), then x2, up to max = read_ahead_kb / 4 pages;
 *  - on a marked page without matching state (another reader moved the
 *    window): the window is rebuilt from the cached pages ahead;
 *  - on other misses: "context readahead" looks at how many pages just
 *    before are cached (a stream interleaved with another reader leaves
 *    that trace) and starts a window from it; with no history the read
 *    is a standalone random read: only the requested pages are read and
 *    the window is left alone.
 *  - if the read would itself hit the mark of the window just made, the
 *    next window is merged into this one at once.
 *
 * For a reader doing 512-byte reads from the start of a file with
 * read_ahead_kb = 128 (32 pages) this gives windows of 4, 8, 16, 32, 32,
 * ... pages: [0,4) marked at 1, then [4,12) marked at 4, [12,28) at 12,
 * [28,60) at 28, [60,92) at 60, and so on (tests/unit/fs_readahead.c).
 */
#include "iosched/vfs.h"

static uint64_t ra_roundup_pow2(uint64_t v)
{
	uint64_t p = 1;

	while (p < v)
		p <<= 1;
	return p;
}

static uint64_t ra_init_size(uint64_t size, uint64_t max)
{
	uint64_t n = ra_roundup_pow2(size);

	if (n <= max / 32)
		n *= 4;
	else if (n <= max / 4)
		n *= 2;
	else
		n = max;
	return n;
}

static uint64_t ra_next_size(uint64_t cur, uint64_t max)
{
	uint64_t n = cur < max / 16 ? 4 * cur : 2 * cur;

	return n < max ? n : max;
}

struct ios_ra_window ios_ra_ondemand(struct ios_ra_state *ra, const struct ios_ra_cache_ops *c,
				     bool hit_marker, uint64_t offset, uint64_t req_pages)
{
	struct ios_ra_window w = { 0, 0, 0, false };
	uint64_t max = ra->ra_pages;

	if (!max) {
		/* readahead off: read just what was asked, on a miss */
		if (hit_marker)
			return w;
		w.start = offset;
		w.size = req_pages;
		w.read = true;
		return w;
	}
	if (!offset)
		goto initial;
	/* the expected callback: a sequential stream, push the window forward */
	if (offset == ra->start + ra->size - ra->async_size || offset == ra->start + ra->size) {
		ra->start += ra->size;
		ra->size = ra_next_size(ra->size, max);
		ra->async_size = ra->size;
		goto readit;
	}
	if (hit_marker) {
		/* marked page but our state is elsewhere: interleaved readers */
		uint64_t start = c->next_hole(c->priv, offset + 1, max);

		if (start - offset > max)
			return w;
		ra->start = start;
		ra->size = start - offset + req_pages;
		ra->size = ra_next_size(ra->size, max);
		ra->async_size = ra->size;
		goto readit;
	}
	if (req_pages > max)
		goto initial;
	/* sequential cache miss */
	if (offset - (ra->prev_pos >> IOS_PAGE_SHIFT) <= 1 &&
	    offset >= (ra->prev_pos >> IOS_PAGE_SHIFT))
		goto initial;
	/* context readahead: the cached history just before the read */
	{
		uint64_t size = c->history(c->priv, offset, max);

		if (size) {
			if (size >= offset)
				size *= 2; /* from the file's start: a long-run stream */
			ra->start = offset;
			ra->size = ra_init_size(size + req_pages, max);
			ra->async_size = ra->size;
			goto readit;
		}
	}
	/* a standalone small random read: read it as is, leave the state alone */
	w.start = offset;
	w.size = req_pages;
	w.async_size = 0;
	w.read = true;
	return w;

initial:
	ra->start = offset;
	ra->size = ra_init_size(req_pages, max);
	ra->async_size = ra->size > req_pages ? ra->size - req_pages : ra->size;
readit:
	/* would this read hit the mark just made? then take the next window now */
	if (offset == ra->start && ra->size == ra->async_size) {
		ra->async_size = ra_next_size(ra->size, max);
		ra->size += ra->async_size;
	}
	w.start = ra->start;
	w.size = ra->size;
	w.async_size = ra->async_size;
	w.read = true;
	return w;
}
