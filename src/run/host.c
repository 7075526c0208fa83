/*
 * What every host shares (host.h): the allocation with its private area,
 * the event loop each host runs, and the adapter that lets the request
 * queue, which knows only struct ios_queue_host_ops (block.h), talk to the
 * host through its ops.
 */
#include <stdlib.h>
#include "iosched/block.h"
#include "iosched/host.h"

static void host_queue_issue(void *host, struct ios_queue *q, struct ios_request *rq,
			     uint64_t now_ns)
{
	struct ios_host *h = host;

	(void)q;
	h->ops->issue(h, rq, now_ns);
}

static void host_queue_set_timer(void *host, struct ios_queue *q, uint64_t when_ns)
{
	struct ios_host *h = host;

	(void)q;
	h->ops->set_queue_timer(h, when_ns);
}

const struct ios_queue_host_ops ios_host_queue_ops = {
	.issue = host_queue_issue,
	.set_timer = host_queue_set_timer,
};

static void host_ev_qtimer(struct ios_sim *sim, void *arg, uint64_t data)
{
	struct ios_host *h = arg;

	if (!ios_timer_fire(&h->q_timer, data))
		return;
	ios_queue_timer(h->q, sim->now);
}

void ios_host_loop_set_queue_timer(struct ios_host *h, uint64_t when_ns)
{
	if (when_ns == IOS_NO_WAKEUP)
		ios_timer_cancel(&h->q_timer);
	else
		(void)ios_timer_arm(&h->loop, &h->q_timer,
				    when_ns < h->loop.now ? h->loop.now : when_ns, host_ev_qtimer, h);
}

int ios_host_create(const struct ios_host_ops *ops, const struct ios_host_config *cfg,
		    struct ios_host **out, struct ios_err *e)
{
	struct ios_host *h = calloc(1, sizeof(*h));
	int ret;

	*out = NULL;
	if (!h || (ops->priv_size && !(h->priv = calloc(1, ops->priv_size)))) {
		free(h);
		return IOS_ERR(e, -ENOMEM, "out of memory");
	}
	h->ops = ops;
	ios_timer_init(&h->q_timer);
	ret = ios_sim_init(&h->loop);
	if (ret) {
		free(h->priv);
		free(h);
		return IOS_ERR(e, ret, "out of memory");
	}
	ret = ops->init(h, cfg, e);
	if (ret) {
		ios_sim_destroy(&h->loop);
		free(h->priv);
		free(h);
		return ret;
	}
	*out = h;
	return 0;
}

void ios_host_destroy(struct ios_host *h)
{
	if (!h)
		return;
	h->ops->destroy(h);
	ios_sim_destroy(&h->loop);
	free(h->priv);
	free(h);
}
