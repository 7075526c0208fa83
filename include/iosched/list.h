/*
 * Intrusive doubly linked lists.
 *
 * A list head is embedded in the object that sits on the list, so putting an
 * object on a list never allocates. The head of a list is a sentinel node that
 * points to itself when the list is empty. This is the shape every scheduler
 * uses for FIFOs and dispatch lists; schedulers recover the containing object
 * with ios_container_of().
 */
#ifndef IOSCHED_LIST_H
#define IOSCHED_LIST_H

#include <stddef.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ios_container_of(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))

struct ios_list_head {
	struct ios_list_head *next, *prev;
};

#define IOS_LIST_HEAD_INIT(name) { &(name), &(name) }

static inline void ios_list_init(struct ios_list_head *h)
{
	h->next = h;
	h->prev = h;
}

static inline bool ios_list_empty(const struct ios_list_head *h)
{
	return h->next == h;
}

static inline void ios_list__link(struct ios_list_head *n,
				  struct ios_list_head *prev,
				  struct ios_list_head *next)
{
	next->prev = n;
	n->next = next;
	n->prev = prev;
	prev->next = n;
}

/* Insert @n right after @h (at the front when @h is the list head). */
static inline void ios_list_add(struct ios_list_head *n, struct ios_list_head *h)
{
	ios_list__link(n, h, h->next);
}

/* Insert @n right before @h (at the tail when @h is the list head). */
static inline void ios_list_add_tail(struct ios_list_head *n, struct ios_list_head *h)
{
	ios_list__link(n, h->prev, h);
}

/* Unlink @n and leave it self-linked, so a second del or empty() is safe. */
static inline void ios_list_del(struct ios_list_head *n)
{
	n->next->prev = n->prev;
	n->prev->next = n->next;
	ios_list_init(n);
}

static inline void ios_list_move_tail(struct ios_list_head *n, struct ios_list_head *h)
{
	ios_list_del(n);
	ios_list_add_tail(n, h);
}

/* True when @n is not on any list (it was initialised or deleted). */
static inline bool ios_list_unlinked(const struct ios_list_head *n)
{
	return n->next == n;
}

#define ios_list_entry(ptr, type, member) ios_container_of(ptr, type, member)
#define ios_list_first_entry(h, type, member) ios_list_entry((h)->next, type, member)
#define ios_list_last_entry(h, type, member) ios_list_entry((h)->prev, type, member)

#define ios_list_for_each(pos, h) \
	for ((pos) = (h)->next; (pos) != (h); (pos) = (pos)->next)
#define ios_list_for_each_safe(pos, tmp, h) \
	for ((pos) = (h)->next, (tmp) = (pos)->next; (pos) != (h); \
	     (pos) = (tmp), (tmp) = (pos)->next)

#ifdef __cplusplus
}
#endif

#endif
