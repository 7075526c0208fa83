/*
 * Weight raising (low_latency): BFQ's low-latency heuristics, as Linux 4.19
 * block/bfq-iosched.c has them.
 *
 * A sync queue whose process comes back after wr_min_idle_time (2 s)
 * without I/O is taken for an interactive application starting: its weight
 * is raised wr_coeff (30) times for bfq_wr_duration(), the time the
 * reference device would need to load an application, scaled by how much
 * faster or slower the measured peak rate is (3..25 s), or until the queue
 * received 120000 sectors of raised service. A queue whose process issues
 * I/O isochronously, at under wr_max_softrt_rate sectors/s and waiting for
 * its completions before issuing more, is taken for a soft real-time
 * application (audio, video): raised 30 x 100 times for 300 ms, renewed as
 * long as it keeps the pattern, falling back to what is left of an
 * interactive raising when it stops. Queues created in a large burst
 * (many processes started together, such as a make -j) are not raised: they
 * are throughput-bound, not latency-bound.
 *
 * Whether and how a queue is raised is decided when it becomes busy
 * (bfq.c:bfq_bfqq_handle_idle_busy_switch); raising is checked for its end
 * after every dispatch from the queue; the next time a soft real-time
 * candidate may issue I/O is computed when it empties. Raised weights
 * reach the scheduler through __bfq_entity_update_weight_prio (bfq_wf2q.c).
 */
#include "bfq_int.h"

#define BFQ_MAX_SERVICE_FROM_WR	120000
/* "a few jiffies" in the soft real-time filter: 4 jiffies at HZ=250 */
#define BFQ_SOFTRT_SLACK_NS	(16 * IOS_NSEC_PER_MSEC)

/* Interactive raising lasts (reference rate / peak rate) x reference duration, 3..25 s. */
int64_t ios_bfq_wr_duration(const struct bfq_data *bfqd)
{
	uint64_t dur = bfqd->rate_dur_prod / (bfqd->peak_rate ? bfqd->peak_rate : 1);

	if (dur < 3000 * IOS_NSEC_PER_MSEC)
		dur = 3000 * IOS_NSEC_PER_MSEC;
	if (dur > 25000 * IOS_NSEC_PER_MSEC)
		dur = 25000 * IOS_NSEC_PER_MSEC;
	return (int64_t)dur;
}

void ios_bfq_update_bfqq_wr_on_rq_arrival(struct bfq_data *bfqd, struct bfq_queue *bfqq,
					     unsigned old_wr_coeff, bool wr_or_deserves_wr,
					     bool interactive, bool in_burst, bool soft_rt)
{
	if (old_wr_coeff == 1 && wr_or_deserves_wr) {
		if (interactive) {
			bfqq->service_from_wr = 0;
			bfqq->wr_coeff = bfqd->wr_coeff;
			bfqq->wr_cur_max_time_ns = ios_bfq_wr_duration(bfqd);
		} else {
			/* no interactive raising to fall back to after this one */
			bfqq->wr_start_at_switch_to_srt_ns = BFQ_T_NEVER;
			bfqq->wr_coeff = bfqd->wr_coeff * BFQ_SOFTRT_WEIGHT_FACTOR;
			bfqq->wr_cur_max_time_ns = bfqd->wr_rt_max_time_ns;
		}
		bfqd->wr_starts++;
		/* small budgets keep a raised queue's latency low */
		if (bfqq->entity.budget > 2 * bfq_min_budget(bfqd))
			bfqq->entity.budget = 2 * bfq_min_budget(bfqd);
	} else if (old_wr_coeff > 1) {
		if (interactive) {
			bfqq->wr_coeff = bfqd->wr_coeff;
			bfqq->wr_cur_max_time_ns = ios_bfq_wr_duration(bfqd);
		} else if (in_burst) {
			bfqq->wr_coeff = 1;
		} else if (soft_rt) {
			/* still soft real-time: recharge the raising now */
			if (bfqq->wr_cur_max_time_ns != bfqd->wr_rt_max_time_ns) {
				bfqq->wr_start_at_switch_to_srt_ns = bfqq->last_wr_start_finish_ns;
				bfqq->wr_cur_max_time_ns = bfqd->wr_rt_max_time_ns;
				bfqq->wr_coeff = bfqd->wr_coeff * BFQ_SOFTRT_WEIGHT_FACTOR;
			}
			bfqq->last_wr_start_finish_ns = bfqd->now_ns;
		}
	}
}

/*
 * When a soft real-time candidate may next issue I/O and still be under
 * wr_max_softrt_rate: not before its service so far at that rate, and not
 * before slice_idle plus a little from now (a greedy process comes back
 * at once).
 */
int64_t ios_bfq_bfqq_softrt_next_start(struct bfq_data *bfqd, struct bfq_queue *bfqq)
{
	int64_t a = bfqq->soft_rt_next_start_ns;
	int64_t b = bfqq->last_idle_bklogged_ns +
		    (int64_t)(IOS_NSEC_PER_SEC * bfqq->service_from_backlogged /
			      bfqd->wr_max_softrt_rate);
	int64_t c = bfqd->now_ns + (int64_t)bfqd->slice_idle_ns + (int64_t)BFQ_SOFTRT_SLACK_NS;

	if (b > a)
		a = b;
	return c > a ? c : a;
}

void ios_bfq_bfqq_end_wr(struct bfq_queue *bfqq)
{
	if (bfqq->wr_coeff > 1 && bfqq_flag(bfqq, BFQQF_busy))
		bfqq->bfqd->wr_busy_queues--;
	bfqq->wr_coeff = 1;
	bfqq->wr_cur_max_time_ns = 0;
	bfqq->last_wr_start_finish_ns = bfqq->bfqd->now_ns;
	bfqq->entity.prio_changed = true;
}

void ios_bfq_switch_back_to_interactive_wr(struct bfq_data *bfqd, struct bfq_queue *bfqq)
{
	bfqq->wr_coeff = bfqd->wr_coeff;
	bfqq->wr_cur_max_time_ns = ios_bfq_wr_duration(bfqd);
	bfqq->last_wr_start_finish_ns = bfqq->wr_start_at_switch_to_srt_ns;
}

/* End raising that ran its time or its service; apply weight changes at once. */
void ios_bfq_update_wr_data(struct bfq_data *bfqd, struct bfq_queue *bfqq)
{
	struct bfq_entity *entity = &bfqq->entity;

	if (bfqq->wr_coeff > 1) {
		if (bfqq_flag(bfqq, BFQQF_in_large_burst)) {
			ios_bfq_bfqq_end_wr(bfqq);
		} else if (bfqq->last_wr_start_finish_ns + bfqq->wr_cur_max_time_ns < bfqd->now_ns) {
			if (bfqq->wr_cur_max_time_ns != bfqd->wr_rt_max_time_ns ||
			    bfqq->wr_start_at_switch_to_srt_ns + ios_bfq_wr_duration(bfqd) <
			    bfqd->now_ns) {
				ios_bfq_bfqq_end_wr(bfqq);
			} else {
				ios_bfq_switch_back_to_interactive_wr(bfqd, bfqq);
				entity->prio_changed = true;
			}
		}
		if (bfqq->wr_coeff > 1 && bfqq->wr_cur_max_time_ns != bfqd->wr_rt_max_time_ns &&
		    bfqq->service_from_wr > BFQ_MAX_SERVICE_FROM_WR)
			ios_bfq_bfqq_end_wr(bfqq);	/* a copy, not an application start */
	}
	if ((entity->weight > entity->orig_weight) != (bfqq->wr_coeff > 1))
		__ios_bfq_entity_update_weight_prio(ios_bfq_entity_service_tree(entity), entity,
						    false);
}
