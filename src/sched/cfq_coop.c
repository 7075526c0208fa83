/*
 * CFQ's close cooperators and queue merging.
 *
 * Processes that read interleaved parts of one file (a parallel dd, a
 * threaded reader) each look sequential from far but seek from near. When
 * the active queue runs dry and another queue's next request is close to
 * the head, CFQ serves that one at once (cfq_close_cooperator, found on the
 * prio trees by cfqq_close) rather than idling. 2.6.31 stops there;
 * 2.6.33 and 4.19 also merge the two queues (cfq_setup_merge, taking
 * effect at the next request allocation through cfq_merge_cfqqs) and split
 * them again when the merged queue turns seeky (cfq_split_cfqq).
 */
#include "cfq_int.h"

/*
 * @dead is being freed while queues may still point at it: a merge target
 * keeps no reference for a queue whose processes are gone (cfq_exit_cfqq
 * drops them), nor for one that pointed at it with no processes to give
 * (cfq_setup_merge's other direction). Such pointers are only ever held by
 * queues without processes. The kernel leaves them dangling; we end the
 * chain there and say so, for cfq_setup_merge to refuse it.
 */
void ios_cfq_unlink_merge_target(struct cfq_data *cfqd, struct cfq_queue *dead)
{
	struct ios_list_head *pos;

	/*
	 * Most targets outlive the queues merged into them: the walk over
	 * every queue (O(queues) per free, O(n^2) with thousands of
	 * cooperating processes) is for the few that do not.
	 */
	if (!dead->merge_referrers)
		return;
	ios_list_for_each(pos, &cfqd->all_queues) {
		struct cfq_queue *q = ios_list_entry(pos, struct cfq_queue, all);

		if (q->new_cfqq == dead) {
			q->new_cfqq = NULL;
			cfqq_mark(q, CFQ_QF_CHAIN_FREED);
			if (!--dead->merge_referrers)
				break;
		}
	}
}

/* ---- queue merging (2.6.33+) ---- */

void ios_cfq_setup_merge(struct cfq_data *cfqd, struct cfq_queue *cfqq,
			 struct cfq_queue *new_cfqq)
{
	int process_refs, new_process_refs;
	struct cfq_queue *q;

	/*
	 * Only a queue with processes keeps the queues down its chain alive
	 * (their merge references are its processes'; cfq_put_cooperator drops
	 * them at exit). 4.19 (and 2.6.33.7) follow a chain only from such a
	 * queue. 2.6.33.3 follows it from any candidate, which in the kernel
	 * could read a freed queue: here a chain whose next queue was freed
	 * (cfq_unlink_merge_target) is refused, the rest is 2.6.33.3's walk.
	 */
	if (cfqd->prof->merge_needs_process_refs &&
	    new_cfqq->ref - (int)(new_cfqq->allocated[0] + new_cfqq->allocated[1]) <= 0)
		return;
	/* follow the chain; give up on a cycle back to cfqq */
	for (;;) {
		if (cfqq_has(new_cfqq, CFQ_QF_CHAIN_FREED))
			return;
		q = new_cfqq->new_cfqq;
		if (!q)
			break;
		if (q == cfqq)
			return;
		new_cfqq = q;
	}
	process_refs = cfqq->ref - (int)(cfqq->allocated[0] + cfqq->allocated[1]);
	new_process_refs = new_cfqq->ref - (int)(new_cfqq->allocated[0] + new_cfqq->allocated[1]);
	if (process_refs <= 0 || (cfqd->prof->merge_needs_process_refs && new_process_refs <= 0))
		return;
	/* the queue with fewer process references moves to the other */
	if (new_process_refs >= process_refs) {
		cfqq->new_cfqq = new_cfqq;
		new_cfqq->merge_referrers++;
		cfqq_clear(cfqq, CFQ_QF_CHAIN_FREED);
		new_cfqq->ref += process_refs;
		cfqq_mark(new_cfqq, CFQ_QF_MERGE_TARGET);
	} else {
		new_cfqq->new_cfqq = cfqq;
		cfqq->merge_referrers++;
		cfqq->ref += new_process_refs;
		cfqq_mark(cfqq, CFQ_QF_MERGE_TARGET);
	}
	cfqd->st_merges++;
}

/* A context adopts the queue its old one was merged into. */
struct cfq_queue *ios_cfq_merge_cfqqs(struct cfq_data *cfqd, struct cfq_io_cq *cic,
				      struct cfq_queue *cfqq)
{
	struct cfq_queue *nq = cfqq->new_cfqq;

	/*
	 * The references cfq_setup_merge added to nq are the processes' own:
	 * this one takes its share and drops the old queue. new_cfqq stays, for
	 * the other processes that still use the old queue.
	 */
	cic->cfqq[1] = nq;
	cfqq_mark(nq, CFQ_QF_COOP);
	ios_cfq_put_queue(cfqd, cfqq);
	return nq;
}

/* A merged queue that stopped cooperating: this process gets its own again. */
struct cfq_queue *ios_cfq_split_cfqq(struct cfq_data *cfqd, struct cfq_io_cq *cic,
				     struct cfq_queue *cfqq)
{
	int process_refs = cfqq->ref - (int)(cfqq->allocated[0] + cfqq->allocated[1]);

	if (process_refs == 1) {
		cfqq->pid = cic->ioc->pid;
		cfqq_clear(cfqq, CFQ_QF_COOP);
		cfqq_clear(cfqq, CFQ_QF_SPLIT_COOP);
		return cfqq;
	}
	cic->cfqq[1] = NULL;
	/*
	 * 4.19 (from 2.6.33.7) also gives up this process's share of a merge
	 * the queue has pending; 2.6.33.3's split_cfqq keeps it.
	 */
	if (cfqd->prof->split_puts_cooperator)
		ios_cfq_put_cooperator(cfqd, cfqq);
	ios_cfq_put_queue(cfqd, cfqq);
	cfqd->st_splits++;
	return NULL;
}

/* ---- close cooperators ---- */

static uint64_t cfq_dist_from_last(const struct cfq_data *cfqd, const struct ios_request *rq)
{
	return rq->sector >= cfqd->last_position ? rq->sector - cfqd->last_position
						 : cfqd->last_position - rq->sector;
}

/*
 * The radius around the head within which a request is close: a seek
 * mean (the context's or the queue's; 4 MiB without valid samples), which
 * 2.6.33 caps at 4 MiB except when judging a preemption, or a constant.
 */
static uint64_t cfq_close_radius(const struct cfq_data *cfqd, const struct cfq_queue *cur,
				 bool for_preempt)
{
	const struct cfq_io_cq *cic = cfqd->active_cic;
	enum cfq_close_radius how = cfqd->prof->close;
	uint64_t samples, mean;

	if (how == CFQ_CLOSE_FIXED)
		return CFQQ_CLOSE_THR;
	if (cfqd->prof->seek == CFQ_SEEK_CIC_MEAN) {
		if (!cic)
			return 8 * 1024;
		samples = cic->seek_samples;
		mean = cic->seek_mean;
	} else {
		samples = cur->seek_samples;
		mean = cur->seek_mean;
	}
	if (!sample_valid(samples))
		return 8 * 1024;
	if (how == CFQ_CLOSE_MEAN_CAPPED && !for_preempt && mean > 8 * 1024)
		return 8 * 1024;
	return mean;
}

bool ios_cfq_rq_close(const struct cfq_data *cfqd, const struct cfq_queue *cur,
		      const struct ios_request *rq, bool for_preempt)
{
	return cfq_dist_from_last(cfqd, rq) <= cfq_close_radius(cfqd, cur, for_preempt);
}

/*
 * The queue whose next request is close to the head, as cfqq_close finds
 * it: the node a descent for the head's sector meets exactly; else the
 * node it ended on, if close; else that node's in-order neighbour on the
 * head's side, if close.
 */
static struct cfq_queue *cfqq_close(struct cfq_data *cfqd, struct cfq_queue *cur)
{
	struct ios_rb_root *root = &cfqd->prio_trees[cur->org_ioprio];
	uint64_t sector = cfqd->last_position;
	struct ios_rb_node *parent, *n;
	struct cfq_queue *q;

	if (ios_rb_empty(root))
		return NULL;
	q = ios_cfq_prio_tree_lookup(root, sector, &parent, NULL);
	if (q)
		return q;
	q = ios_rb_entry(parent, struct cfq_queue, p_node);
	if (ios_cfq_rq_close(cfqd, cur, q->next_rq, false))
		return q;
	n = q->next_rq->sector < sector ? ios_rb_next(&q->p_node) : ios_rb_prev(&q->p_node);
	if (!n)
		return NULL;
	q = ios_rb_entry(n, struct cfq_queue, p_node);
	return ios_cfq_rq_close(cfqd, cur, q->next_rq, false) ? q : NULL;
}

struct cfq_queue *ios_cfq_close_cooperator(struct cfq_data *cfqd, struct cfq_queue *cur,
					   bool probe)
{
	struct cfq_queue *q;

	if (!cfqd->prof->queue_merging) {
		if (!cfqd->active_cic)
			return NULL;
		q = cfqq_close(cfqd, cur);
		if (!q || q == cur || cfqq_has(q, CFQ_QF_COOP))
			return NULL;
		if (!probe)
			cfqq_mark(q, CFQ_QF_COOP);
		return q;
	}
	if (!cfqq_sync(cur) || ios_cfqq_seeky(cfqd, cur, NULL))
		return NULL;
	if (cfqd->prof->no_coop_for_idle_class && cfq_class_idle(cur))
		return NULL;
	if (cur->cfqg->nr_cfqq == 1)
		return NULL;
	q = cfqq_close(cfqd, cur);
	if (!q || q == cur)
		return NULL;
	if (q->cfqg != cur->cfqg || !cfqq_sync(q) || ios_cfqq_seeky(cfqd, q, NULL) ||
	    cfq_class_rt(q) != cfq_class_rt(cur))
		return NULL;
	return q;
}

/* ---- a process leaves its merges ---- */

/*
 * Drop the merge targets' references this process's queue took for it
 * (cfq_setup_merge gave them its process references): cfq_put_cooperator.
 */
void ios_cfq_put_cooperator(struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	struct cfq_queue *q = cfqq->new_cfqq, *next;

	while (q && q != cfqq) {
		next = q->new_cfqq;
		ios_cfq_put_queue(cfqd, q);
		q = next;
	}
}
