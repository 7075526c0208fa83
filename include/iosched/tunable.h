/*
 * Tunables declared by table.
 *
 * Every knob of a scheduler, device, queue, VM or lab model is one row of a
 * const table ending in a row whose name is NULL. One generic engine parses,
 * validates, sets, shows and lists any table; nothing is written per tunable.
 * Values live in the owner's private struct at @offset. Units are converted
 * only here, at the edge: a TIME is stored in nanoseconds and a SIZE in bytes,
 * while users type (and see) the Linux unit given in @unit, e.g. "ms" for
 * deadline's read_expire, "KiB" for max_sectors_kb. A bare number is in that
 * unit; a suffix ("8ms", "64k") overrides it.
 *
 * Out-of-range input is an error naming the tunable and the allowed range.
 * Nothing is ever clamped.
 */
#ifndef IOSCHED_TUNABLE_H
#define IOSCHED_TUNABLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "err.h"

#ifdef __cplusplus
extern "C" {
#endif

enum ios_tun_type {
	IOS_TUN_INT,	/* int */
	IOS_TUN_BOOL,	/* int, 0 or 1 */
	IOS_TUN_U64,	/* uint64_t */
	IOS_TUN_TIME,	/* uint64_t nanoseconds; bare numbers in @unit (ns, us, ms, s) */
	IOS_TUN_SIZE,	/* uint64_t bytes; bare numbers in @unit (B, sectors, KiB, MiB, GiB) */
	IOS_TUN_ENUM,	/* int index into @choices */
};

#define IOS_TUN_RO	(1u << 0)	/* listed, never set by users */
#define IOS_TUN_HIDDEN	(1u << 1)	/* internal state, kept out of lists */
/*
 * The kernel's store for this knob clamps an out-of-range number into the
 * range instead of refusing it (mq-deadline's STORE_FUNCTION). We still
 * refuse, as for every tunable (nothing is ever clamped silently), and the
 * message says what the kernel would have done.
 */
#define IOS_TUN_KCLAMP	(1u << 2)

struct ios_tunable {
	const char *name;	/* Linux name where one exists (sysfs, procfs) */
	enum ios_tun_type type;
	size_t offset;		/* into the owner's struct */
	int64_t min, max;	/* inclusive, in @unit (ENUM/BOOL: ignored) */
	const char *def;	/* default as a user would type it; NULL: set by the owner */
	const char *unit;	/* user unit; "" for plain numbers */
	const char *help;
	unsigned flags;
	const char *const *choices;	/* ENUM: NULL-terminated names */
};

/* Table iteration. */
#define ios_tunable_for_each(t, tab) for ((t) = (tab); (t) && (t)->name; (t)++)

const struct ios_tunable *ios_tunable_find(const struct ios_tunable *tab, const char *name);
struct ios_suggest;
/* Offer @tab's listed names (not IOS_TUN_HIDDEN) to @s, each after @prefix. */
void ios_tunable_suggest(struct ios_suggest *s, const struct ios_tunable *tab, const char *prefix);

/*
 * Is @tab a table the engine can work with, for an owner struct of @size
 * bytes? Every row has a name, unique in the table; a known type; a field
 * (int, or uint64_t for U64/TIME/SIZE) inside the @size bytes; a range that
 * is not empty (and not below 0 for the unsigned types); for TIME and SIZE
 * a unit the parser knows; for ENUM at least one choice; and a default
 * (when not NULL) that parses within the range. 0, or -EINVAL with @e
 * naming @owner and the row. The table must end with a NULL name; a NULL
 * @tab is an empty table.
 */
int ios_tunable_check_table(const struct ios_tunable *tab, size_t size, const char *owner,
			    struct ios_err *e) IOS_MUST_CHECK;

/* Apply every row's default to @base. Rows with def == NULL are left alone. */
int ios_tunable_defaults(const struct ios_tunable *tab, void *base, struct ios_err *e) IOS_MUST_CHECK;

/*
 * Parse @value for row @t and store it into @base. @origin prefixes messages
 * ("--set", "job.fio:12"), @scope is the name prefix users typed ("queue.",
 * "device.", "" for scheduler tunables). Errors: -EINVAL (malformed),
 * -ERANGE (out of range), -EPERM (read-only).
 */
int ios_tunable_set(const struct ios_tunable *t, void *base, const char *value,
		    const char *origin, const char *scope, struct ios_err *e) IOS_MUST_CHECK;

/* Find by name, then set; -ENOENT with a message when the name is unknown. */
int ios_tunable_set_by_name(const struct ios_tunable *tab, void *base, const char *name,
			    const char *value, const char *origin, const char *scope,
			    struct ios_err *e) IOS_MUST_CHECK;

/* Parse without storing: into *out (int64 for INT/BOOL/ENUM, else uint64 bits). */
int ios_tunable_parse(const struct ios_tunable *t, const char *value, uint64_t *out,
		      const char *origin, const char *scope, struct ios_err *e) IOS_MUST_CHECK;

/* Current value in the user unit, e.g. "500" for read_expire. */
int ios_tunable_show(const struct ios_tunable *t, const void *base, char *buf, size_t len);
/* The allowed range as text, e.g. "1..3600000" or "0|1" or "sync|extent|raw". */
void ios_tunable_range(const struct ios_tunable *t, char *buf, size_t len);

/* Raw accessors for generic code (dump, JSON). */
int64_t ios_tunable_get_int(const struct ios_tunable *t, const void *base);
uint64_t ios_tunable_get_u64(const struct ios_tunable *t, const void *base);

/*
 * A setting as a user gave it: NAME=VALUE with where it came from. Lists of
 * these are resolved against the tables of whatever the run selects.
 */
struct ios_setting {
	char *name;
	char *value;
	char *origin;
	bool used;
};

struct ios_settings {
	struct ios_setting *v;
	size_t n, cap;
};

int ios_settings_add(struct ios_settings *s, const char *name, const char *value,
		     const char *origin) IOS_MUST_CHECK;
/* Parse "NAME=VALUE" and add it. */
int ios_settings_add_kv(struct ios_settings *s, const char *kv, const char *origin,
			struct ios_err *e) IOS_MUST_CHECK;
void ios_settings_free(struct ios_settings *s);
int ios_settings_copy(struct ios_settings *dst, const struct ios_settings *src) IOS_MUST_CHECK;

/*
 * Apply every setting whose name starts with @prefix ("queue.", "device.",
 * "" = names without a dot) to @tab/@base, marking it used. Later settings
 * win over earlier ones. Unknown names under a non-empty prefix are errors.
 */
int ios_settings_apply(struct ios_settings *s, const char *prefix,
		       const struct ios_tunable *tab, void *base, struct ios_err *e) IOS_MUST_CHECK;
/*
 * The same for the table of a chosen profile (a scheduler such as "cfq-4.19",
 * a device profile such as "hdd"): range errors and unknown names also say
 * "for @owner", since the same name has other ranges in other profiles.
 */
int ios_settings_apply_for(struct ios_settings *s, const char *prefix,
			   const struct ios_tunable *tab, void *base, const char *owner,
			   struct ios_err *e) IOS_MUST_CHECK;

#ifdef __cplusplus
}
#endif

#endif
