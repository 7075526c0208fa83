/*
 * The simulator's event queue: a 4-ary min-heap of events keyed by
 * (time, sequence number). The sequence number is a global insertion
 * counter, so events at the same nanosecond run in the order they were
 * scheduled and no two keys are ever equal: the order is total and a run is
 * reproducible bit for bit. Push and pop are O(log n); the heap is an array
 * of events by value, so it allocates only when it grows. Four children per
 * slot rather than two halve the levels a pop moves an entry through (with
 * 10,000 processes' timers queued, sifting was a third of the run), and the
 * four sit side by side; since no two keys are equal, what pops first is the
 * same whatever the shape of the heap.
 *
 * A timer's event knows its timer and the timer knows its slot, so a timer
 * re-armed or cancelled moves or leaves its one entry in place: the heap
 * holds no stale entries to pop and drop. Re-arming takes a new sequence
 * number, exactly as a fresh push would, so the order of what runs is the
 * same as if the old entry had stayed behind and been skipped.
 */
#include <stdlib.h>
#include <string.h>
#include "iosched/sim.h"

#define EVQ_D 4
#define evq_parent(i) (((i) - 1) / EVQ_D)

static inline bool evq_before(const struct ios_event *a, const struct ios_event *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

/* Put @ev in slot @i; a timer's event tells its timer where it is. */
static inline void evq_place(struct ios_evq *q, size_t i, const struct ios_event *ev)
{
	q->heap[i] = *ev;
	if (ev->timer)
		ev->timer->pos = i + 1;
}

/* Move parents down from slot @i until @ev fits, and put it there. */
static void evq_sift_up(struct ios_evq *q, size_t i, const struct ios_event *ev)
{
	while (i > 0) {
		size_t p = evq_parent(i);

		if (!evq_before(ev, &q->heap[p]))
			break;
		evq_place(q, i, &q->heap[p]);
		i = p;
	}
	evq_place(q, i, ev);
}

/* Move children up from slot @i (of n entries) until @ev fits. */
static void evq_sift_down(struct ios_evq *q, size_t i, const struct ios_event *ev)
{
	size_t n = q->n;

	for (;;) {
		size_t first = EVQ_D * i + 1, end = first + EVQ_D, c = first;

		if (first >= n)
			break;
		if (end > n)
			end = n;
		for (size_t k = first + 1; k < end; k++)
			if (evq_before(&q->heap[k], &q->heap[c]))
				c = k;
		if (!evq_before(&q->heap[c], ev))
			break;
		evq_place(q, i, &q->heap[c]);
		i = c;
	}
	evq_place(q, i, ev);
}

/* Slot @i of the heap holds @ev, whose key changed: restore heap order. */
static void evq_fix(struct ios_evq *q, size_t i, const struct ios_event *ev)
{
	if (i > 0 && evq_before(ev, &q->heap[evq_parent(i)]))
		evq_sift_up(q, i, ev);
	else
		evq_sift_down(q, i, ev);
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

static int evq_grow(struct ios_evq *q)
{
	size_t cap = q->cap * 2;
	struct ios_event *h;

	if (q->n < q->cap)
		return 0;
	h = realloc(q->heap, cap * sizeof(*h));
	if (!h)
		return -ENOMEM;
	q->heap = h;
	q->cap = cap;
	return 0;
}

int ios_evq_push(struct ios_evq *q, uint64_t time, ios_event_fn fn, void *arg, uint64_t data)
{
	struct ios_event ev = { time, q->seq++, fn, arg, data, NULL };

	if (evq_grow(q))
		return -ENOMEM;
	evq_sift_up(q, q->n++, &ev);
	return 0;
}

int ios_evq_push_timer(struct ios_evq *q, struct ios_timer *t, uint64_t time, ios_event_fn fn,
		       void *arg, uint64_t data)
{
	struct ios_event ev = { time, q->seq++, fn, arg, data, t };

	if (t->pos) {
		/* already queued (in this queue): re-key its entry where it is */
		evq_fix(q, t->pos - 1, &ev);
		return 0;
	}
	if (evq_grow(q))
		return -ENOMEM;
	t->q = q;
	evq_sift_up(q, q->n++, &ev);
	return 0;
}

void ios_evq_remove(struct ios_evq *q, size_t i)
{
	struct ios_event last;

	if (q->heap[i].timer)
		q->heap[i].timer->pos = 0;
	last = q->heap[--q->n];
	if (i == q->n)
		return;
	evq_fix(q, i, &last);
}

bool ios_evq_pop(struct ios_evq *q, struct ios_event *out)
{
	struct ios_event last;

	if (!q->n)
		return false;
	*out = q->heap[0];
	if (out->timer)
		out->timer->pos = 0;
	last = q->heap[--q->n];
	if (q->n)
		evq_sift_down(q, 0, &last);
	return true;
}
