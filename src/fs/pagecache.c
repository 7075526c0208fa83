/*
 * The page cache proper: pages of files, found by index, kept within the
 * machine's memory by evicting the least recently used clean page.
 *
 * Every file (and the block device's metadata, as a pseudo-file indexed by
 * device block) has a two-level table of page pointers, so lookups are two
 * array reads and a file's table costs memory only where pages exist. Only
 * clean, idle pages sit on the LRU list (dirty pages, pages under a read
 * and pages under writeback cannot be dropped), so eviction takes the list's
 * head in O(1). Dirty pages also sit in their file's tree ordered by index,
 * which is how writeback finds runs of them to write in file order.
 *
 * Linux keeps two LRU lists (active and inactive); one list is enough for
 * the workloads here, which either stream (use-once) or fit in memory.
 */
#include <stdlib.h>
#include <string.h>
#include "vfs_int.h"

struct ios_inode *ios_pc_inode_new(struct ios_vfs *vfs, struct ios_fs_file *f, bool is_meta)
{
	struct ios_inode *in = calloc(1, sizeof(*in));
	uint64_t npages;

	if (!in)
		return NULL;
	npages = (f->size + IOS_PAGE_SIZE - 1) / IOS_PAGE_SIZE;
	in->vfs = vfs;
	in->f = f;
	in->npages = npages;
	in->chunk_shift = is_meta ? PC_META_CHUNK_SHIFT : PC_CHUNK_SHIFT;
	in->nr_chunks = (npages + pc_chunk(in) - 1) / pc_chunk(in);
	in->chunks = calloc(in->nr_chunks ? in->nr_chunks : 1, sizeof(*in->chunks));
	if (!in->chunks) {
		free(in);
		return NULL;
	}
	in->is_meta = is_meta;
	in->dirty_tree = IOS_RB_ROOT;
	ios_list_init(&in->dirty_link);
	return in;
}

void ios_pc_inode_free(struct ios_inode *in)
{
	for (size_t k = 0; k < in->nr_used; k++) {
		struct pc_page **chunk = in->chunks[in->used[k]];

		for (unsigned i = 0; i < pc_chunk(in); i++)
			free(chunk[i]);
		free(chunk);
	}
	free(in->used);
	free(in->chunks);
	if (in->memo != &in->memo1)
		free(in->memo);
	free(in);
}

struct pc_page *ios_pc_lookup(struct ios_inode *in, uint64_t index)
{
	uint64_t c = index >> in->chunk_shift;

	if (c >= in->nr_chunks || !in->chunks[c])
		return NULL;
	return in->chunks[c][index & (pc_chunk(in) - 1)];
}

static bool pc_idle(const struct pc_page *p)
{
	return !(p->flags & (PG_LOCKED | PG_DIRTY | PG_WRITEBACK)) && !p->waiters;
}

void ios_pc_lru_update(struct ios_vfs *vfs, struct pc_page *p)
{
	bool want = pc_idle(p);

	if (want && !p->on_lru) {
		ios_list_add_tail(&p->lru, &vfs->lru);
		p->on_lru = true;
	} else if (!want && p->on_lru) {
		ios_list_del(&p->lru);
		p->on_lru = false;
	}
}

void ios_pc_touch(struct ios_vfs *vfs, struct pc_page *p)
{
	if (p->on_lru)
		ios_list_move_tail(&p->lru, &vfs->lru);
	(void)vfs;
}

void ios_pc_remove(struct ios_vfs *vfs, struct pc_page *p)
{
	struct ios_inode *in = p->inode;
	uint64_t c = p->index >> in->chunk_shift;

	IOS_BUG_ON(!pc_idle(p));
	if (p->on_lru)
		ios_list_del(&p->lru);
	in->chunks[c][p->index & (pc_chunk(in) - 1)] = NULL;
	in->nrpages--;
	vfs->nr_pages--;
	if (in->is_meta)
		vfs->meta_gen++;	/* every memo of a metadata page is stale */
	/* recycle the struct through the waiters field, which is NULL when idle */
	p->waiters = (struct ios_vfs_op *)vfs->free_pages;
	vfs->free_pages = p;
}

struct pc_page *ios_pc_alloc(struct ios_vfs *vfs, struct ios_inode *in, uint64_t index)
{
	uint64_t c = index >> in->chunk_shift;
	struct pc_page *p;

	IOS_BUG_ON(c >= in->nr_chunks);
	/*
	 * NULL means either "the cache is full of pages nobody can evict yet"
	 * (wait for writeback or a read to finish) or "this process is out of
	 * memory" (nothing will ever wake the waiter): alloc_failed tells which.
	 */
	vfs->alloc_failed = false;
	if (vfs->nr_pages >= vfs->capacity) {
		if (ios_list_empty(&vfs->lru))
			return NULL;
		ios_pc_remove(vfs, ios_list_first_entry(&vfs->lru, struct pc_page, lru));
		vfs->st.evictions++;
	}
	if (!in->chunks[c]) {
		if (in->nr_used == in->used_cap) {
			size_t cap = in->used_cap ? 2 * in->used_cap : 4;
			uint64_t *u = realloc(in->used, cap * sizeof(*u));

			if (!u) {
				vfs->alloc_failed = true;
				return NULL;
			}
			in->used = u;
			in->used_cap = cap;
		}
		in->chunks[c] = calloc(pc_chunk(in), sizeof(**in->chunks));
		if (!in->chunks[c]) {
			vfs->alloc_failed = true;
			return NULL;
		}
		in->used[in->nr_used++] = c;
	}
	if (vfs->free_pages) {
		p = vfs->free_pages;
		vfs->free_pages = (struct pc_page *)p->waiters;
	} else {
		p = malloc(sizeof(*p));
		if (!p) {
			vfs->alloc_failed = true;
			return NULL;
		}
	}
	memset(p, 0, sizeof(*p));
	p->index = index;
	p->inode = in;
	p->memcg = vfs_cur_cg(vfs);
	ios_list_init(&p->lru);
	ios_rb_clear(&p->dirty_node);
	in->chunks[c][index & (pc_chunk(in) - 1)] = p;
	in->nrpages++;
	vfs->nr_pages++;
	return p;
}

static bool dirty_less(const struct ios_rb_node *a, const struct ios_rb_node *b)
{
	return ios_rb_entry(a, struct pc_page, dirty_node)->index <
	       ios_rb_entry(b, struct pc_page, dirty_node)->index;
}

void ios_pc_set_dirty(struct ios_vfs *vfs, struct pc_page *p, uint64_t now)
{
	struct ios_inode *in = p->inode;

	if (p->flags & PG_DIRTY)
		return;
	p->flags |= PG_DIRTY;
	ios_rb_add(&p->dirty_node, &in->dirty_tree, dirty_less);
	if (ios_list_unlinked(&in->dirty_link)) {
		/* clean -> dirty: the file's age for kupdate starts now */
		in->dirtied_when = now;
		if (vfs->cgwb) {
			ios_cgwb_inode_dirtied(vfs, in, p, now);
		} else {
			ios_list_add_tail(&in->dirty_link, &vfs->dirty_inodes);
			ios_wb_inode_dirtied(vfs, now);
		}
	}
	in->nr_dirty++;
	vfs->nr_dirty++;
	if (vfs->bdp)
		ios_bdp_page_dirtied(vfs, in);	/* folio_account_dirtied: WB_RECLAIMABLE, WB_DIRTIED */
	if (vfs->nr_dirty + vfs->nr_writeback > vfs->st.max_dirty_pages)
		vfs->st.max_dirty_pages = vfs->nr_dirty + vfs->nr_writeback;
	ios_pc_lru_update(vfs, p);
}

void ios_pc_clear_dirty(struct ios_vfs *vfs, struct pc_page *p)
{
	struct ios_inode *in = p->inode;

	if (!(p->flags & PG_DIRTY))
		return;
	p->flags &= ~PG_DIRTY;
	ios_rb_erase(&p->dirty_node, &in->dirty_tree);
	in->nr_dirty--;
	vfs->nr_dirty--;
	if (vfs->bdp)
		ios_bdp_page_cleaned(vfs, in);
	if (!in->nr_dirty && !ios_list_unlinked(&in->dirty_link))
		ios_list_del(&in->dirty_link);
	ios_pc_lru_update(vfs, p);
}

struct pc_page *ios_pc_first_dirty_from(struct ios_inode *in, uint64_t index)
{
	struct ios_rb_node *n = in->dirty_tree.node, *best = NULL;

	while (n) {
		struct pc_page *p = ios_rb_entry(n, struct pc_page, dirty_node);

		if (p->index >= index) {
			best = n;
			n = n->left;
		} else {
			n = n->right;
		}
	}
	return best ? ios_rb_entry(best, struct pc_page, dirty_node) : NULL;
}

struct pc_page *ios_pc_next_dirty(struct pc_page *p)
{
	struct ios_rb_node *n = ios_rb_next(&p->dirty_node);

	return n ? ios_rb_entry(n, struct pc_page, dirty_node) : NULL;
}

/* ---- wait lists: singly linked through op->wait_next ---- */

void ios_pc_wait(struct ios_vfs_op **list, struct ios_vfs_op *op)
{
	IOS_BUG_ON(op->waiting);
	op->waiting = true;
	op->wait_next = *list;
	*list = op;
}

void ios_pc_wake_all(struct ios_vfs_op **list, uint64_t now)
{
	struct ios_vfs_op *op = *list, *rev = NULL;

	*list = NULL;
	/* wake in the order they started waiting */
	while (op) {
		struct ios_vfs_op *n = op->wait_next;

		op->wait_next = rev;
		rev = op;
		op = n;
	}
	while (rev) {
		struct ios_vfs_op *n = rev->wait_next;

		rev->wait_next = NULL;
		rev->waiting = false;
		rev->wake(rev, now);
		rev = n;
	}
}
