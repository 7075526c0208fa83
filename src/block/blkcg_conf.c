/*
 * The cgroup v2 I/O control files and their parsers, following Linux 6.12
 * (read 2026-12-06 from the code index, dated in docs/cgroup-v2-plan.md §1
 * and §6):
 *   io.max         tg_set_limit           block/blk-throttle.c
 *   io.weight      ioc_weight_write       block/blk-iocost.c
 *   io.cost.qos    ioc_qos_write          block/blk-iocost.c
 *   io.cost.model  ioc_cost_model_write   block/blk-iocost.c
 *   io.latency     iolatency_set_limit    block/blk-iolatency.c
 *   io.prio.class  ioprio_set_prio_policy block/blk-ioprio.c
 *   io.bfq.weight  bfq_io_set_weight      block/bfq-cgroup.c
 * with the helpers they call: blkg_conf_open_bdev (block/blk-cgroup.c),
 * match_token / match_u64 (lib/parser.c), cgroup_parse_float
 * (kernel/cgroup/cgroup.c), sysfs_match_string (lib/string.c).
 *
 * Each parser accepts what the kernel's accepts and refuses what it
 * refuses, with its errno. Three differences, each refused with a message
 * that says what the kernel would have done (nothing silent):
 *  - where the kernel's sscanf takes the leading digits of a token and
 *    ignores the rest ("rbps=20M" is 20 B/s), or match_u64 reads a leading
 *    0 as octal, we refuse the token;
 *  - where the kernel clamps (io.max iops to 2^32-1, io.cost.qos min/max
 *    to 1..10000 %) or truncates (rlat/wlat to 32 bits, io.latency's
 *    target x 1000 to 64 bits), we refuse;
 *  - io.cost.qos and io.cost.model parameters followed by ctrl=auto are
 *    accepted by the kernel and then thrown away; we refuse the write.
 * MAJ:MIN, which the kernel requires on every per-device file, is
 * optional: there is one simulated device.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "iosched/blkcg.h"
#include "iosched/request.h"

/*
 * Root rules and the owning function of each file: blk-iocost.c's
 * ioc_files (weight NOT_ON_ROOT, cost.qos and cost.model ONLY_ON_ROOT),
 * blk-throttle.c's throtl_files and blk-iolatency.c's iolatency_files
 * (NOT_ON_ROOT), bfq-cgroup.c's bfq_blkg_files (NOT_ON_ROOT), blk-ioprio.c's
 * ioprio_files (no flag: the root has io.prio.class too).
 */
static const struct ios_blkcg_cftype cftypes[IOS_BLKCG_NR_FILES] = {
	[IOS_BLKCG_WEIGHT] = { "io.weight", IOS_CFTYPE_NOT_ON_ROOT | IOS_CFTYPE_PER_DEVICE,
			       "ioc_weight_write", "block/blk-iocost.c",
			       "N, default N, MAJ:MIN N or MAJ:MIN default; N 1..10000",
			       "io.cost (the group's share of the device, once io.cost.qos has "
			       "enable=1); bfq-6.12 reads io.bfq.weight instead; mq-deadline, "
			       "kyber and none read no weight",
			       NULL },
	[IOS_BLKCG_MAX] = { "io.max", IOS_CFTYPE_NOT_ON_ROOT | IOS_CFTYPE_PER_DEVICE,
			    "tg_set_limit", "block/blk-throttle.c",
			    "[MAJ:MIN] rbps=N wbps=N riops=N wiops=N, each N >= 1 or max",
			    "blk-throttle, before the scheduler, under every blk-mq scheduler "
			    "(slices of lab.kernel's release, jiffies of lab.hz)",
			    NULL },
	[IOS_BLKCG_LATENCY] = { "io.latency", IOS_CFTYPE_NOT_ON_ROOT | IOS_CFTYPE_PER_DEVICE,
				"iolatency_set_limit", "block/blk-iolatency.c",
				"[MAJ:MIN] target=USEC or target=max",
				"blk-iolatency (rq_qos: queue depth, then delays, of the sibling "
				"groups), under every blk-mq scheduler", NULL },
	[IOS_BLKCG_PRIO_CLASS] = { "io.prio.class", 0, "ioprio_set_prio_policy",
				   "block/blk-ioprio.c",
				   "no-change, promote-to-rt, restrict-to-be, idle or none-to-rt",
				   "blkcg_set_ioprio sets each bio's class at submit; read by mq-deadline "
				   "and by merging (none across classes); bfq-6.12 (the task's class), "
				   "kyber and none read no bio class",
				   NULL },
	[IOS_BLKCG_BFQ_WEIGHT] = { "io.bfq.weight", IOS_CFTYPE_NOT_ON_ROOT | IOS_CFTYPE_PER_DEVICE,
				   "bfq_io_set_weight", "block/bfq-cgroup.c",
				   "N, default N, MAJ:MIN N or MAJ:MIN default; N 1..1000",
				   "bfq-6.12's group weight (the device's weight over the default); "
				   "the other schedulers ignore it",
				   NULL },
	[IOS_BLKCG_COST_QOS] = { "io.cost.qos", IOS_CFTYPE_ONLY_ON_ROOT | IOS_CFTYPE_PER_DEVICE,
				 "ioc_qos_write", "block/blk-iocost.c",
				 "[MAJ:MIN] enable=0|1 ctrl=auto|user rpct=P rlat=USEC wpct=P "
				 "wlat=USEC min=P max=P",
				 "io.cost (rq_qos, under every blk-mq scheduler): enable=1 installs "
				 "it; rlat/wlat set its period, rpct/wpct its busy test, min/max "
				 "bound vrate", NULL },
	[IOS_BLKCG_COST_MODEL] = { "io.cost.model", IOS_CFTYPE_ONLY_ON_ROOT | IOS_CFTYPE_PER_DEVICE,
				   "ioc_cost_model_write", "block/blk-iocost.c",
				   "[MAJ:MIN] ctrl=auto|user model=linear rbps=N rseqiops=N "
				   "rrandiops=N wbps=N wseqiops=N wrandiops=N",
				   "io.cost's linear cost model (ctrl=auto: the kernel's parameters by "
				   "device class)", NULL },
};

const char *const ios_prio_policy_names[IOS_PRIO_NR_POLICIES + 1] = {
	"no-change", "promote-to-rt", "restrict-to-be", "idle", "none-to-rt", NULL,
};

static const char *const qos_keys[IOS_QOS_NR] = { "rpct", "rlat", "wpct", "wlat", "min", "max" };
static const char *const lcoef_keys[IOS_LCOEF_NR] = {
	"rbps", "rseqiops", "rrandiops", "wbps", "wseqiops", "wrandiops",
};

const struct ios_blkcg_cftype *ios_blkcg_cftype(enum ios_blkcg_file f)
{
	return (unsigned)f < IOS_BLKCG_NR_FILES ? &cftypes[f] : NULL;
}

int ios_blkcg_resolve(const char *rest, size_t *path_len, enum ios_blkcg_file *f)
{
	size_t n = strlen(rest), best = 0;
	int found = -1;

	/* the longest file name the setting ends with, after a dot or alone */
	for (int i = 0; i < IOS_BLKCG_NR_FILES; i++) {
		size_t k = strlen(cftypes[i].name);

		if (k > n || strcmp(rest + n - k, cftypes[i].name))
			continue;
		if (k < n && rest[n - k - 1] != '.')
			continue;
		if (k > best) {
			best = k;
			found = i;
		}
	}
	if (found < 0)
		return -ENOENT;
	*f = (enum ios_blkcg_file)found;
	*path_len = best < n ? n - best - 1 : 0;
	return 0;
}

void ios_blkcg_devt_of(const char *profile, struct ios_blkcg_devt *d)
{
	/*
	 * NVMe namespaces get the dynamic blkext major (259) and minor 0 for
	 * the first; SCSI/SATA disks sd's major 8. Our NVMe-attached profiles
	 * are ssd-nvme, zns and the cloud volumes (docs/devices.md).
	 */
	bool nvme = profile && (strstr(profile, "nvme") || !strcmp(profile, "zns") ||
				!strncmp(profile, "cloud", 5));

	d->major = nvme ? 259 : 8;
	d->minor = 0;
	d->name = nvme ? "nvme0n1" : "sda";
}

void ios_cgroup_v2_init(struct ios_cgroup_v2 *v)
{
	memset(v, 0, sizeof(*v));
	v->weight = IOS_CGROUP_WEIGHT_DFL;
	v->bfq_weight = IOS_BFQ_WEIGHT_DFL;
	v->bps[0] = v->bps[1] = UINT64_MAX;
	v->iops[0] = v->iops[1] = UINT32_MAX;
	v->prio_policy = IOS_PRIO_NO_CHANGE;
	/* every built-in parameter set (blk-iocost.c autop[]) has these two */
	v->qos.qos[IOS_QOS_MIN] = IOS_VRATE_MIN_PPM;
	v->qos.qos[IOS_QOS_MAX] = IOS_VRATE_MAX_PPM;
}

/* ---- messages ---- */

struct wctx {
	const struct ios_blkcg_cftype *ct;
	const char *where, *value;
	struct ios_err *e;
};

static const char *errno_name(int code)
{
	switch (code) {
	case -EINVAL: return "EINVAL";
	case -ERANGE: return "ERANGE";
	case -ENODEV: return "ENODEV";
	default: return "error";
	}
}

/* "<where>=<value>: <why> (-EINVAL from tg_set_limit, block/blk-throttle.c, Linux 6.12)" */
#define REFUSE(w, code, ...) refuse((w), (code), __LINE__, __VA_ARGS__)

static int refuse(const struct wctx *w, int code, int line, const char *fmt, ...)
	IOS_PRINTF(4, 5);

static int refuse(const struct wctx *w, int code, int line, const char *fmt, ...)
{
	char why[320];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return ios_err_set(w->e, code, __FILE__, line, w->ct->kfunc,
			   "%s=%s: %s (-%s, as %s in %s, Linux 6.12; %s takes %s)", w->where,
			   w->value, why, errno_name(code), w->ct->kfunc, w->ct->kfile, w->ct->name,
			   w->ct->syntax);
}

/* ---- numbers ---- */

enum num_status {
	NUM_OK,
	NUM_NONE,	/* no leading digit */
	NUM_TRAILING,	/* digits, then other text: *v holds the digits' value */
	NUM_OVERFLOW,	/* more than 2^64-1 */
	NUM_RADIX,	/* 0x.. or a leading 0: base 0 parsers read it as hex or octal */
};

/* A decimal u64 in s[0..n) (the whole of it). */
static enum num_status num_u64(const char *s, size_t n, uint64_t *v)
{
	size_t i = 0;

	*v = 0;
	if (!n || !isdigit((unsigned char)s[0]))
		return NUM_NONE;
	for (; i < n && isdigit((unsigned char)s[i]); i++) {
		unsigned d = (unsigned)(s[i] - '0');

		if (*v > (UINT64_MAX - d) / 10)
			return NUM_OVERFLOW;
		*v = *v * 10 + d;
	}
	return i < n ? NUM_TRAILING : NUM_OK;
}

/*
 * The kernel's match_token %u and match_u64 (lib/parser.c) read base 0:
 * "0x10" is 16, "010" is 8. Both must take the whole token.
 */
static enum num_status num_u64_base0(const char *s, size_t n, uint64_t *v)
{
	if (n > 1 && s[0] == '0')
		return NUM_RADIX;
	return num_u64(s, n, v);
}

/*
 * cgroup_parse_float(buf, 2): "W[.F]" in hundredths, more than two
 * decimals rounded to the closest (DIV_ROUND_CLOSEST_ULL). The kernel's
 * sscanf("%lld.%n%lld%n") ignores text after the number; we do not.
 */
static enum num_status num_float2(const char *s, size_t n, int64_t *v)
{
	uint64_t whole, frac = 0, scale = 1;
	size_t dot = 0, fl;

	while (dot < n && s[dot] != '.')
		dot++;
	enum num_status st = num_u64(s, dot, &whole);

	if (st != NUM_OK)
		return st;
	if (whole > (uint64_t)INT64_MAX / 100)
		return NUM_OVERFLOW;
	fl = dot < n ? n - dot - 1 : 0;
	if (fl > 18)
		return NUM_OVERFLOW;
	if (fl) {
		st = num_u64(s + dot + 1, fl, &frac);
		if (st != NUM_OK)
			return st == NUM_NONE ? NUM_TRAILING : st;
	}
	if (fl < 2) {
		frac *= fl ? 10 : 100;
	} else {
		for (size_t i = 2; i < fl; i++)
			scale *= 10;
		frac = (frac + scale / 2) / scale;
	}
	*v = (int64_t)(whole * 100 + frac);
	return NUM_OK;
}

/* The refusal for a number the parser read differently; 0 when st is NUM_OK. */
static int num_refuse(const struct wctx *w, enum num_status st, const char *tok, size_t n,
		      uint64_t v)
{
	switch (st) {
	case NUM_OK:
		return 0;
	case NUM_NONE:
		return REFUSE(w, -EINVAL, "'%.*s' is not a number", (int)n, tok);
	case NUM_TRAILING:
		if (v == UINT64_MAX)
			return REFUSE(w, -EINVAL, "'%.*s' is not a plain number: the kernel would "
				      "read the number it starts with and ignore the rest", (int)n,
				      tok);
		return REFUSE(w, -EINVAL, "'%.*s' is not a plain number: the kernel would read "
			      "%" PRIu64 " and ignore the rest; write the number alone", (int)n,
			      tok, v);
	case NUM_OVERFLOW:
		return REFUSE(w, -EINVAL, "'%.*s' does not fit in 64 bits", (int)n, tok);
	case NUM_RADIX:
		return REFUSE(w, -EINVAL, "'%.*s': the kernel reads 0x.. as hex and a leading 0 "
			      "as octal (match_u64, base 0); write it in decimal", (int)n, tok);
	}
	return -EINVAL;
}

/* ---- MAJ:MIN ---- */

/*
 * An optional MAJ:MIN at the start of @*body, followed by white space or
 * the end (blkg_conf_open_bdev: sscanf "%u:%u", then isspace). It must be
 * the simulated device's: -ENODEV otherwise, as blkdev_get_no_open finds
 * no such device. Returns 1 when one was there (and moves @*body past it
 * and the spaces after it), 0 when not, or the error.
 */
static int devt_prefix(const struct wctx *w, const struct ios_blkcg_devt *dev, const char **body)
{
	const char *s = *body, *colon;
	uint64_t maj, min;
	size_t k = 0;

	while (isdigit((unsigned char)s[k]))
		k++;
	if (!k || s[k] != ':')
		return 0;
	colon = s + k;
	k = 0;
	while (isdigit((unsigned char)colon[1 + k]))
		k++;
	if (!k || (colon[1 + k] && !isspace((unsigned char)colon[1 + k])))
		return REFUSE(w, -EINVAL, "'%.*s' is not MAJ:MIN followed by a space",
			      (int)(colon + 1 + k - s + (colon[1 + k] != 0)), s);
	if (num_u64(s, (size_t)(colon - s), &maj) != NUM_OK ||
	    num_u64(colon + 1, k, &min) != NUM_OK || maj != dev->major || min != dev->minor)
		return REFUSE(w, -ENODEV, "no device %.*s: the simulated disk is %s, %u:%u "
			      "(MAJ:MIN may also be left out)", (int)(colon + 1 + k - s), s,
			      dev->name, dev->major, dev->minor);
	s = colon + 1 + k;
	while (isspace((unsigned char)*s))
		s++;
	*body = s;
	return 1;
}

/* ---- one token at a time: NUL-free views into the value ---- */

struct tok {
	const char *s;
	size_t n;
};

/* The next token of @*p split at any of @seps; empty tokens too when @keep_empty. */
static bool next_tok(const char **p, const char *seps, bool keep_empty, struct tok *t)
{
	const char *s = *p;

	if (!s)
		return false;
	if (!keep_empty)
		while (*s && strchr(seps, *s))
			s++;
	if (!keep_empty && !*s)
		return false;
	t->s = s;
	t->n = strcspn(s, seps);
	*p = s[t->n] ? s + t->n + 1 : NULL;
	return true;
}

/* ---- io.max: tg_set_limit ---- */

static int write_max(const struct wctx *w, const char *body, struct ios_cgroup_v2 *v)
{
	uint64_t bps[2] = { v->bps[0], v->bps[1] };
	uint32_t iops[2] = { v->iops[0], v->iops[1] };
	struct tok t;

	/* tokens as sscanf("%26s") finds them: split at white space */
	while (next_tok(&body, " \t\n\v\f\r", false, &t)) {
		const char *eq = memchr(t.s, '=', t.n);
		uint64_t val = UINT64_MAX;
		size_t kl, vl;
		int ret;

		if (t.n > 26)
			return REFUSE(w, -EINVAL, "token '%.*s' is longer than 26 characters: the "
				      "kernel reads it in pieces of 26 (sscanf %%26s)", (int)t.n, t.s);
		if (!eq)
			return REFUSE(w, -EINVAL, "token '%.*s' has no '='", (int)t.n, t.s);
		kl = (size_t)(eq - t.s);
		vl = t.n - kl - 1;
		if (!(vl == 3 && !memcmp(eq + 1, "max", 3))) {
			enum num_status st = num_u64(eq + 1, vl, &val);

			ret = num_refuse(w, st, eq + 1, vl, val);
			if (ret)
				return ret;
		}
		/* the kernel tests the value before the key: foo=0 is -ERANGE */
		if (!val)
			return REFUSE(w, -ERANGE, "'%.*s': a limit of 0 is refused; 'max' removes "
				      "the limit", (int)t.n, t.s);
		if (kl == 4 && !memcmp(t.s, "rbps", 4)) {
			bps[0] = val;
		} else if (kl == 4 && !memcmp(t.s, "wbps", 4)) {
			bps[1] = val;
		} else if (kl == 5 && (!memcmp(t.s, "riops", 5) || !memcmp(t.s, "wiops", 5))) {
			if (val != UINT64_MAX && val > UINT32_MAX)
				return REFUSE(w, -ERANGE, "'%.*s': the kernel would clamp it to "
					      "4294967295 (iops limits are 32-bit; write max for "
					      "none)", (int)t.n, t.s);
			iops[t.s[0] == 'w'] = val == UINT64_MAX ? UINT32_MAX : (uint32_t)val;
		} else {
			return REFUSE(w, -EINVAL, "unknown key '%.*s' (rbps, wbps, riops, wiops)",
				      (int)kl, t.s);
		}
	}
	memcpy(v->bps, bps, sizeof(bps));
	memcpy(v->iops, iops, sizeof(iops));
	return 0;
}

/* ---- io.weight: ioc_weight_write ---- */

static int weight_number(const struct wctx *w, const char *s, unsigned *out)
{
	uint64_t x;
	size_t n = strlen(s);
	enum num_status st = num_u64(s, n, &x);

	if (st == NUM_OVERFLOW || (st == NUM_OK && (x < IOS_CGROUP_WEIGHT_MIN ||
						    x > IOS_CGROUP_WEIGHT_MAX)))
		return REFUSE(w, -EINVAL, "weight %s outside %u..%u (CGROUP_WEIGHT_MIN..MAX)", s,
			      IOS_CGROUP_WEIGHT_MIN, IOS_CGROUP_WEIGHT_MAX);
	if (st != NUM_OK)
		return num_refuse(w, st, s, n, x);
	*out = (unsigned)x;
	return 0;
}

static int write_weight(const struct wctx *w, const struct ios_blkcg_devt *dev, const char *value,
			struct ios_cgroup_v2 *v)
{
	const char *body = value;
	unsigned x;
	int ret;

	if (!strchr(value, ':')) {
		/*
		 * sscanf "default %u", then "%u": the cgroup's default weight
		 * (a space in a scanf format matches any run of white space,
		 * none included)
		 */
		if (!strncmp(body, "default", 7))
			for (body += 7; isspace((unsigned char)*body); body++)
				;
		ret = weight_number(w, body, &x);
		if (!ret)
			v->weight = x;
		return ret;
	}
	ret = devt_prefix(w, dev, &body);
	if (ret < 0)
		return ret;
	if (!ret)
		return REFUSE(w, -EINVAL, "a value with ':' must start with MAJ:MIN");
	/* strncmp(body, "default", 7): the device's weight back to the default */
	if (!strncmp(body, "default", 7)) {
		if (body[7])
			return REFUSE(w, -EINVAL, "'%s': the kernel reads only 'default' and "
				      "ignores the rest", body);
		v->weight_dev = 0;
		return 0;
	}
	ret = weight_number(w, body, &x);
	if (!ret)
		v->weight_dev = x;
	return ret;
}

/* ---- io.bfq.weight: bfq_io_set_weight ---- */

static int bfq_range(const struct wctx *w, uint64_t x, const char *what)
{
	if (x < IOS_BFQ_WEIGHT_MIN || x > IOS_BFQ_WEIGHT_MAX)
		return REFUSE(w, -ERANGE, "%s %" PRIu64 " outside %u..%u (BFQ_MIN_WEIGHT.."
			      "BFQ_MAX_WEIGHT)", what, x, IOS_BFQ_WEIGHT_MIN, IOS_BFQ_WEIGHT_MAX);
	return 0;
}

static int write_bfq_weight(const struct wctx *w, const struct ios_blkcg_devt *dev,
			    const char *value, struct ios_cgroup_v2 *v)
{
	char buf[128];
	const char *body;
	size_t n;
	uint64_t x;
	enum num_status st;
	int ret;

	/* strim(): the kernel drops white space at both ends */
	while (isspace((unsigned char)*value))
		value++;
	n = strlen(value);
	while (n && isspace((unsigned char)value[n - 1]))
		n--;
	if (n >= sizeof(buf))
		return REFUSE(w, -EINVAL, "longer than %zu characters", sizeof(buf) - 1);
	memcpy(buf, value, n);
	buf[n] = '\0';
	/* a number alone (simple_strtoull, base 0), or "default N": the default weight */
	if (!n)
		return REFUSE(w, -ERANGE, "empty: the kernel reads 0, outside %u..%u",
			      IOS_BFQ_WEIGHT_MIN, IOS_BFQ_WEIGHT_MAX);
	body = !strncmp(buf, "default ", 8) ? buf + 8 : buf;
	if (isdigit((unsigned char)body[0]) && (body != buf || !strchr(buf, ':'))) {
		st = body == buf ? num_u64_base0(body, strlen(body), &x)
				 : num_u64(body, strlen(body), &x);
		if (st != NUM_OK)
			return num_refuse(w, st, body, strlen(body), x);
		ret = bfq_range(w, x, "weight");
		if (!ret)
			v->bfq_weight = (unsigned)x;
		return ret;
	}
	/* otherwise bfq_io_set_device_weight: MAJ:MIN, then N or "default" */
	body = buf;
	ret = devt_prefix(w, dev, &body);
	if (ret < 0)
		return ret;
	if (!ret)
		return REFUSE(w, -EINVAL, "neither a weight, 'default N' nor MAJ:MIN followed "
			      "by a weight or 'default'");
	if (!strcmp(body, "default")) {
		v->bfq_weight_dev = 0;
		return 0;
	}
	st = num_u64(body, strlen(body), &x);
	if (st == NUM_NONE)
		return REFUSE(w, -EINVAL, "'%s' is neither a weight nor 'default'", body);
	if (st == NUM_OK && !x)
		return REFUSE(w, -ERANGE, "a device weight of 0 is refused; 'default' resets it");
	if (st != NUM_OK)
		return num_refuse(w, st, body, strlen(body), x);
	ret = bfq_range(w, x, "device weight");
	if (!ret)
		v->bfq_weight_dev = (unsigned)x;
	return ret;
}

/* ---- io.latency: iolatency_set_limit ---- */

static int write_latency(const struct wctx *w, const char *body, struct ios_cgroup_v2 *v)
{
	uint64_t lat = v->lat_target_ns;
	struct tok t;

	/* strsep(" "): every single space splits, so two spaces make an empty token */
	while (next_tok(&body, " ", true, &t)) {
		const char *eq = memchr(t.s, '=', t.n);
		size_t kl, vl;
		uint64_t x;
		enum num_status st;

		if (!t.n)
			return REFUSE(w, -EINVAL, "an empty token (the kernel splits at every "
				      "single space: no doubled, leading or trailing spaces)");
		if (!eq || eq == t.s)
			return REFUSE(w, -EINVAL, "'%.*s' is not KEY=VALUE", (int)t.n, t.s);
		kl = (size_t)(eq - t.s);
		vl = t.n - kl - 1;
		/* sscanf "%15[^=]=%20s" */
		if (kl > 15 || !vl)
			return REFUSE(w, -EINVAL, "'%.*s' is not KEY=VALUE (a key of at most 15 "
				      "characters)", (int)t.n, t.s);
		if (vl > 20)
			return REFUSE(w, -EINVAL, "'%.*s': the kernel reads only the first 20 "
				      "characters of a value", (int)t.n, t.s);
		if (kl != 6 || memcmp(t.s, "target", 6))
			return REFUSE(w, -EINVAL, "unknown key '%.*s' (target)", (int)kl, t.s);
		if (vl == 3 && !memcmp(eq + 1, "max", 3)) {
			lat = 0;
			continue;
		}
		st = num_u64(eq + 1, vl, &x);
		if (st != NUM_OK)
			return num_refuse(w, st, eq + 1, vl, x);
		if (x > UINT64_MAX / 1000)
			return REFUSE(w, -ERANGE, "target=%" PRIu64 " µs overflows the kernel's "
				      "nanoseconds (x 1000, 64 bits)", x);
		lat = x * 1000;
	}
	v->lat_target_ns = lat;
	return 0;
}

/* ---- io.prio.class: ioprio_set_prio_policy ---- */

static int write_prio_class(const struct wctx *w, const char *value, struct ios_cgroup_v2 *v)
{
	/* sysfs_match_string: the whole value, one trailing newline allowed */
	size_t n = strlen(value);

	if (n && value[n - 1] == '\n')
		n--;
	for (int i = 0; i < IOS_PRIO_NR_POLICIES; i++)
		if (strlen(ios_prio_policy_names[i]) == n && !memcmp(value, ios_prio_policy_names[i], n)) {
			v->prio_policy = i;
			return 0;
		}
	return REFUSE(w, -EINVAL, "not a policy name");
}

/* ---- io.cost.qos: ioc_qos_write ---- */

/* KEY=VALUE of a match_token pattern: the value after "key=", NULL when @t is not one */
static const char *tok_val(const struct tok *t, const char *key, size_t *vl)
{
	size_t kl = strlen(key);

	if (t->n <= kl || memcmp(t->s, key, kl) || t->s[kl] != '=')
		return NULL;
	*vl = t->n - kl - 1;
	return t->s + kl + 1;
}

/* ctrl=auto|user; -1 when @t is not a ctrl token */
static int tok_ctrl(const struct wctx *w, const struct tok *t, bool *user)
{
	size_t vl;
	const char *val = tok_val(t, "ctrl", &vl);

	if (!val)
		return -1;
	if (vl == 4 && !memcmp(val, "auto", 4))
		*user = false;
	else if (vl == 4 && !memcmp(val, "user", 4))
		*user = true;
	else
		return REFUSE(w, -EINVAL, "'%.*s': ctrl is auto or user", (int)t->n, t->s);
	return 0;
}

/*
 * A percentage of io.cost.qos: match_strlcpy into 32 bytes, then
 * cgroup_parse_float(buf, 2); @f in hundredths. 0 or the refusal.
 */
static int tok_float2(const struct wctx *w, const struct tok *t, const char *val, size_t vl,
		      int64_t *f)
{
	enum num_status st;

	if (vl >= 32)
		return REFUSE(w, -EINVAL, "'%.*s' is too long", (int)t->n, t->s);
	st = num_float2(val, vl, f);
	return st == NUM_OK ? 0 : num_refuse(w, st, val, vl, UINT64_MAX);
}

static int write_qos(const struct wctx *w, const char *body, struct ios_cgroup_v2 *v)
{
	struct ios_iocost_qos q = v->qos;
	unsigned given = 0;
	struct tok t;
	bool auto_after = false;

	while (next_tok(&body, " \t\n", false, &t)) {
		const char *val;
		size_t vl;
		uint64_t x;
		int64_t f;
		int k, ret;
		enum num_status st;

		if ((val = tok_val(&t, "enable", &vl))) {
			st = num_u64_base0(val, vl, &x);
			if (st != NUM_OK)
				return num_refuse(w, st, val, vl, x);
			q.enable = x != 0;
			continue;
		}
		ret = tok_ctrl(w, &t, &q.user);
		if (ret >= 0) {
			if (ret)
				return ret;
			auto_after = given && !q.user;
			continue;
		}
		for (k = 0; k < IOS_QOS_NR; k++)
			if ((val = tok_val(&t, qos_keys[k], &vl)))
				break;
		if (k == IOS_QOS_NR)
			return REFUSE(w, -EINVAL, "unknown token '%.*s'", (int)t.n, t.s);
		switch (k) {
		case IOS_QOS_RPPM:
		case IOS_QOS_WPPM:
			ret = tok_float2(w, &t, val, vl, &f);
			if (ret)
				return ret;
			if (f > 10000)
				return REFUSE(w, -EINVAL, "'%.*s': a percentile above 100",
					      (int)t.n, t.s);
			q.qos[k] = (uint32_t)f * 100;
			break;
		case IOS_QOS_RLAT:
		case IOS_QOS_WLAT:
			st = num_u64_base0(val, vl, &x);
			if (st != NUM_OK)
				return num_refuse(w, st, val, vl, x);
			if (x > UINT32_MAX)
				return REFUSE(w, -ERANGE, "'%.*s': the kernel keeps only the low 32 "
					      "bits (%" PRIu32 " µs)", (int)t.n, t.s, (uint32_t)x);
			q.qos[k] = (uint32_t)x;
			break;
		default:	/* min, max: percent, clamped to VRATE_MIN_PPM..VRATE_MAX_PPM */
			ret = tok_float2(w, &t, val, vl, &f);
			if (ret)
				return ret;
			if ((uint64_t)f * 100 < IOS_VRATE_MIN_PPM || (uint64_t)f * 100 > IOS_VRATE_MAX_PPM)
				return REFUSE(w, -ERANGE, "'%.*s': the kernel would clamp it into "
					      "1.00..10000.00 %% (VRATE_MIN_PPM..VRATE_MAX_PPM)",
					      (int)t.n, t.s);
			q.qos[k] = (uint32_t)((uint64_t)f * 100);
			break;
		}
		/* any parameter makes the parameters the user's */
		q.user = true;
		given |= 1u << k;
		auto_after = false;
	}
	if (auto_after)
		return REFUSE(w, -EINVAL, "ctrl=auto after a parameter: the kernel accepts the "
			      "write and throws the parameters away; put ctrl=auto first (the "
			      "parameters then make it user) or leave the parameters out");
	if (q.qos[IOS_QOS_MIN] > q.qos[IOS_QOS_MAX])
		return REFUSE(w, -EINVAL, "min %u.%02u %% is above max %u.%02u %%",
			      q.qos[IOS_QOS_MIN] / 10000, q.qos[IOS_QOS_MIN] % 10000 / 100,
			      q.qos[IOS_QOS_MAX] / 10000, q.qos[IOS_QOS_MAX] % 10000 / 100);
	if (!q.user)
		given = 0;	/* ctrl=auto: the built-in set's numbers (step 4a) */
	q.given = q.user ? q.given | given : 0;
	v->qos = q;
	return 0;
}

/* ---- io.cost.model: ioc_cost_model_write ---- */

static int write_model(const struct wctx *w, const char *body, struct ios_cgroup_v2 *v)
{
	struct ios_iocost_model m = v->model;
	unsigned given = 0;
	struct tok t;
	bool auto_after = false;

	while (next_tok(&body, " \t\n", false, &t)) {
		const char *val;
		size_t vl;
		uint64_t x;
		int k, ret;
		enum num_status st;

		ret = tok_ctrl(w, &t, &m.user);
		if (ret >= 0) {
			if (ret)
				return ret;
			auto_after = given && !m.user;
			continue;
		}
		if ((val = tok_val(&t, "model", &vl))) {
			if (vl != 6 || memcmp(val, "linear", 6))
				return REFUSE(w, -EINVAL, "'%.*s': the only model is linear",
					      (int)t.n, t.s);
			continue;
		}
		for (k = 0; k < IOS_LCOEF_NR; k++)
			if ((val = tok_val(&t, lcoef_keys[k], &vl)))
				break;
		if (k == IOS_LCOEF_NR)
			return REFUSE(w, -EINVAL, "unknown token '%.*s'", (int)t.n, t.s);
		st = num_u64_base0(val, vl, &x);
		if (st != NUM_OK)
			return num_refuse(w, st, val, vl, x);
		m.lcoef[k] = x;
		m.user = true;
		given |= 1u << k;
		auto_after = false;
	}
	if (auto_after)
		return REFUSE(w, -EINVAL, "ctrl=auto after a coefficient: the kernel accepts the "
			      "write and throws the coefficients away; put ctrl=auto first or "
			      "leave the coefficients out");
	m.given = m.user ? m.given | given : 0;
	v->model = m;
	return 0;
}

int ios_blkcg_conf_write(enum ios_blkcg_file f, const char *value,
			 const struct ios_blkcg_devt *dev, struct ios_cgroup_v2 *v,
			 const char *where, struct ios_err *e)
{
	struct wctx w = { ios_blkcg_cftype(f), where, value, e };
	const char *body = value;
	int ret = 0;

	if (!w.ct)
		return IOS_ERR(e, -EINVAL, "%s: no such cgroup file", where);
	if (f == IOS_BLKCG_MAX || f == IOS_BLKCG_LATENCY || f == IOS_BLKCG_COST_QOS ||
	    f == IOS_BLKCG_COST_MODEL) {
		ret = devt_prefix(&w, dev, &body);
		if (ret < 0)
			return ret;
	}
	switch (f) {
	case IOS_BLKCG_MAX:
		ret = write_max(&w, body, v);
		break;
	case IOS_BLKCG_WEIGHT:
		ret = write_weight(&w, dev, value, v);
		break;
	case IOS_BLKCG_BFQ_WEIGHT:
		ret = write_bfq_weight(&w, dev, value, v);
		break;
	case IOS_BLKCG_LATENCY:
		ret = write_latency(&w, body, v);
		break;
	case IOS_BLKCG_PRIO_CLASS:
		ret = write_prio_class(&w, value, v);
		break;
	case IOS_BLKCG_COST_QOS:
		ret = write_qos(&w, body, v);
		break;
	case IOS_BLKCG_COST_MODEL:
		ret = write_model(&w, body, v);
		break;
	default:
		ret = -EINVAL;
	}
	if (!ret)
		v->written |= 1u << f;
	return ret;
}
