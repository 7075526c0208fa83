/*
 * The simulator's event queue: a binary min-heap of events keyed by
 * (time, sequence number). The sequence number is a global insertion
 * counter, so events at the same nanosecond run in the order they were
 * scheduled and no two keys are ever equal: the order is total and a run is
 * reproducible bit for bit. Push and pop are O(log n); the heap is an array
 * of events by value, so it allocates only when it grows.
 */
#include <stdlib.h>
#include <string.h>
#include "iosched/sim.h"

static inline bool evq_before(const struct ios_event *a, const struct ios_event *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

int ios_evq_init(struct ios_evq *q, size_t cap)
{
	memset(q, 0, sizeof(*q));
	if (cap < 16)
		cap = 16;
	q->heap = malloc(cap * sizeof(*q->heap));
	if (!q->heap)
		return -ENOMEM;
	q->cap = cap;
	return 0;
}

void ios_evq_destroy(struct ios_evq *q)
{
	free(q->heap);
	memset(q, 0, sizeof(*q));
}

int ios_evq_push(struct ios_evq *q, uint64_t time, ios_event_fn fn, void *arg, uint64_t data)
{
	struct ios_event ev = { time, q->seq++, fn, arg, data };
	size_t i;

	if (q->n == q->cap) {
		size_t cap = q->cap * 2;
		struct ios_event *h = realloc(q->heap, cap * sizeof(*h));

		if (!h)
			return -ENOMEM;
		q->heap = h;
		q->cap = cap;
	}
	/* sift up: move parents down until ev fits */
	i = q->n++;
	while (i > 0) {
		size_t p = (i - 1) / 2;

		if (!evq_before(&ev, &q->heap[p]))
			break;
		q->heap[i] = q->heap[p];
		i = p;
	}
	q->heap[i] = ev;
	return 0;
}

bool ios_evq_pop(struct ios_evq *q, struct ios_event *out)
{
	struct ios_event last;
	size_t i = 0, n;

	if (!q->n)
		return false;
	*out = q->heap[0];
	n = --q->n;
	if (!n)
		return true;
	last = q->heap[n];
	/* sift down the former last element from the root */
	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && evq_before(&q->heap[c + 1], &q->heap[c]))
			c++;
		if (!evq_before(&q->heap[c], &last))
			break;
		q->heap[i] = q->heap[c];
		i = c;
	}
	q->heap[i] = last;
	return true;
}
