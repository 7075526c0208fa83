/*
 * Tag maps for blk-mq, following Linux 6.12 (lib/sbitmap.c,
 * block/blk-mq-tag.c).
 *
 * A tag map is an sbitmap: depth bits split into words of 2^shift bits,
 * where sbitmap_calculate_shift() starts from 64 bits per word and halves
 * the word while 4 words would not fill the depth (so a map of 256 tags has
 * words of 64, one of 62 tags words of 8). A shallow depth (a scheduler's
 * limit_depth) caps the bits an allocation may use *in each word*, as
 * __sbitmap_get_shallow does up to 6.16: with every word full-sized, a
 * shallow depth s admits s * words tags at most, s / 2^shift of the map.
 *
 * What is approximated (docs/blk-mq.md, "Tags"): the kernel starts each
 * search at a per-CPU hint and moves the hint after each allocation, which
 * spreads tags over the words; here every allocation is first-fit from word
 * 0, bit 0. Which tag number a request gets therefore differs, but how many
 * tags a class of allocations may hold at once (the per-word cap) is the
 * same, and the run stays deterministic.
 */
#include <stdlib.h>
#include "mq_int.h"

unsigned ios_mq_tags_shift(unsigned depth)
{
	unsigned shift = 6;	/* ilog2(BITS_PER_LONG) on a 64-bit kernel */

	if (depth >= 4)
		while ((4u << shift) > depth)
			shift--;
	return shift;
}

int ios_mq_tags_init(struct ios_mq_tags *t, unsigned depth)
{
	ios_mq_tags_free(t);
	t->depth = depth;
	t->shift = ios_mq_tags_shift(depth);
	t->nr_words = depth ? (depth + (1u << t->shift) - 1) >> t->shift : 0;
	t->used = 0;
	t->full_below = 0;
	if (!depth)
		return 0;
	t->words = calloc(t->nr_words, sizeof(*t->words));
	return t->words ? 0 : -ENOMEM;
}

void ios_mq_tags_free(struct ios_mq_tags *t)
{
	free(t->words);
	t->words = NULL;
	t->depth = t->nr_words = t->used = t->full_below = 0;
}

/* Bits in word @w: 2^shift, less in the last word (sbitmap's map[i].depth). */
static unsigned tag_word_depth(const struct ios_mq_tags *t, unsigned w)
{
	unsigned per = 1u << t->shift;

	return w + 1 < t->nr_words ? per : t->depth - w * per;
}

static inline uint64_t word_mask(unsigned d)
{
	return d >= 64 ? ~0ull : (1ull << d) - 1;
}

int ios_mq_tag_get(struct ios_mq_tags *t, unsigned shallow)
{
	for (unsigned w = t->full_below; w < t->nr_words; w++) {
		unsigned d = tag_word_depth(t, w);

		if (shallow && shallow < d)
			d = shallow;
		/* the lowest clear bit below d: first-fit, one instruction */
		uint64_t free = ~t->words[w] & word_mask(d);
		unsigned b;

		if (!free) {
			/* full for every caller only if full to its real depth */
			if (w == t->full_below && !(~t->words[w] & word_mask(tag_word_depth(t, w))))
				t->full_below = w + 1;
			continue;
		}
		b = (unsigned)__builtin_ctzll(free);
		t->words[w] |= 1ull << b;
		t->used++;
		return (int)((w << t->shift) + b);
	}
	return -1;
}

void ios_mq_tag_put(struct ios_mq_tags *t, int tag)
{
	unsigned w = (unsigned)tag >> t->shift, b = (unsigned)tag & ((1u << t->shift) - 1);

	IOS_BUG_ON_MSG(tag < 0 || (unsigned)tag >= t->depth || !(t->words[w] & (1ull << b)),
		       "tag %d freed but not taken (map of %u)", tag, t->depth);
	t->words[w] &= ~(1ull << b);
	t->used--;
	if (w < t->full_below)
		t->full_below = w;
}
