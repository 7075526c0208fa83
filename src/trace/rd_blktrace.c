/*
 * Reading blktrace binary files: per-CPU files merged by time.
 *
 * Each file is a sequence of 48-byte records plus payloads, in the byte
 * order of the machine that traced (told by the first record's magic, and
 * then required of every record of that file). blkparse merges CPU files by
 * their records' times; so do we, keeping one decoded head record per file
 * and always taking the earliest (ties go to the lower CPU number), which
 * for one file is simply file order. A blkparse -d dump is one file already
 * in that order.
 *
 * A record is refused when its magic is wrong, its version is not 7, it or
 * its payload is cut short by the end of the file, or a queued bio's size
 * is not whole sectors. The message names the file, the record's number in
 * it (from 1) and its byte offset. Payloads are skipped without being read,
 * except a process note's name and the cgroup id that leads a 4.14+ record.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "trace_int.h"

/* Decode the next record of file @k into its head; 0 at the end of the file. */
static int bin_read(struct tr_iter *it, unsigned k, struct ios_err *e)
{
	struct tr_bin *b = &it->bin[k];
	const struct tr_file *f = b->rd.f;
	ssize_t got;
	uint64_t off = tr_rd_tell(&b->rd);
	uint32_t magic;

	b->have = false;
	got = ios_tr_rd_need(&b->rd, IOS_BLK_REC_SIZE, e);
	if (got < 0)
		return (int)got;
	b->recno++;
	if (got == 0) {
		b->done = true;
		return 0;
	}
	if (got < IOS_BLK_REC_SIZE)
		return IOS_ERR(e, -EINVAL, "%s: record %" PRIu64 " (byte %" PRIu64 "): truncated: "
			       "the file ends %zd bytes into its %u-byte header", f->name, b->recno,
			       off, got, IOS_BLK_REC_SIZE);
	ios_blk_rec_decode(b->rd.buf + b->rd.pos, f->be, &b->head);
	magic = b->head.magic;
	if ((magic & IOS_BLK_MAGIC_MASK) != IOS_BLK_MAGIC)
		return IOS_ERR(e, -EINVAL, "%s: record %" PRIu64 " (byte %" PRIu64 "): bad magic "
			       "0x%08" PRIx32 " (expected 0x656174NN, %s-endian like the file's "
			       "first record)", f->name, b->recno, off, magic, f->be ? "big" : "little");
	if ((magic & 0xff) != IOS_BLK_VERSION)
		return IOS_ERR(e, -EINVAL, "%s: record %" PRIu64 " (byte %" PRIu64 "): record "
			       "version %" PRIu32 "; iosched reads version %u (blktrace 1.x)",
			       f->name, b->recno, off, magic & 0xff, IOS_BLK_VERSION);
	if (off + IOS_BLK_REC_SIZE + b->head.pdu_len > f->size)
		return IOS_ERR(e, -EINVAL, "%s: record %" PRIu64 " (byte %" PRIu64 "): truncated: "
			       "its %u-byte payload runs %" PRIu64 " bytes past the end of the file",
			       f->name, b->recno, off, b->head.pdu_len,
			       off + IOS_BLK_REC_SIZE + b->head.pdu_len - f->size);
	b->head_off = off;
	b->have = true;
	return 1;
}

int ios_tr_bin_init(struct tr_iter *it, struct ios_err *e)
{
	struct ios_replay *r = it->r;
	int ret;

	it->bin = calloc(r->nr_files, sizeof(*it->bin));
	if (!it->bin)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	it->nr_bin = r->nr_files;
	for (unsigned k = 0; k < r->nr_files; k++) {
		struct tr_file *f = &r->files[k];

		ret = ios_tr_rd_init(&it->bin[k].rd, r, f, TR_BUF_BIN, e);
		if (ret)
			return ret;
		if (it->check) {
			/* the file's byte order, from its first record's magic */
			ssize_t got = ios_tr_rd_need(&it->bin[k].rd, 4, e);

			if (got < 0)
				return (int)got;
			if (got == 4) {
				int be = ios_blk_magic_order(it->bin[k].rd.buf);

				if (be < 0) {
					const uint8_t *h = it->bin[k].rd.buf;

					return IOS_ERR(e, -EINVAL, "%s: record 1 (byte 0): bad magic "
						       "0x%02x%02x%02x%02x (a blktrace record starts "
						       "with 0x656174NN in either byte order)", f->name,
						       h[3], h[2], h[1], h[0]);
				}
				f->be = be;
			}
		}
		ret = bin_read(it, k, e);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static uint32_t bin_flags(uint32_t cat)
{
	uint32_t fl = 0;

	if (cat & IOS_BLK_TC_SYNC)
		fl |= IOS_REQ_SYNC;
	if (cat & IOS_BLK_TC_META)
		fl |= IOS_REQ_META;
	if (cat & IOS_BLK_TC_FUA)
		fl |= IOS_REQ_FUA;
	if (cat & IOS_BLK_TC_FLUSH)
		fl |= IOS_REQ_PREFLUSH;
	if (cat & IOS_BLK_TC_AHEAD)
		fl |= IOS_REQ_AHEAD;
	return fl;
}

/* Turn head @b into @item. */
static int bin_item(struct tr_iter *it, struct tr_bin *b, unsigned k, struct tr_item *item,
		    struct ios_err *e)
{
	const struct ios_blk_rec *h = &b->head;
	const struct tr_file *f = b->rd.f;
	uint32_t cat = h->action >> IOS_BLK_TC_SHIFT, code = h->action & IOS_BLK_TA_MASK;

	memset(item, 0, sizeof(*item));
	item->pid = h->pid;
	item->time = h->time;
	item->device = h->device;
	item->file = k;
	item->rec.where = b->recno;
	item->kind = TR_OTHER;
	if (cat & IOS_BLK_TC_NOTIFY) {
		/* notes are not events: they do not start the trace's clock */
		item->time = UINT64_MAX;
		item->device = 0;
		if (code == IOS_BLK_TN_PROCESS) {
			size_t n = h->pdu_len < sizeof(it->comm) - 1 ? h->pdu_len : sizeof(it->comm) - 1;
			ssize_t got = ios_tr_rd_need(&b->rd, IOS_BLK_REC_SIZE + n, e);

			if (got < 0)
				return (int)got;
			memcpy(it->comm, b->rd.buf + b->rd.pos + IOS_BLK_REC_SIZE, n);
			it->comm[n] = '\0';
			/* a name is printable or not a name */
			for (char *c = it->comm; *c; c++)
				if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f)
					*c = '?';
			if (it->comm[0]) {
				item->kind = TR_COMM;
				item->comm = it->comm;
			}
		}
		return 0;
	}
	/* 4.14+: an 8-byte cgroup id leads the payload; nothing we use */
	code &= ~IOS_BLK_TA_CGROUP;
	if (code != IOS_BLK_TA_QUEUE)
		return 0;
	if (cat & IOS_BLK_TC_PC) {
		item->skip = 2;
		return 0;
	}
	if (cat & IOS_BLK_TC_DISCARD) {
		item->skip = 1;
		return 0;
	}
	if (h->bytes % IOS_SECTOR_SIZE)
		return IOS_ERR(e, -EINVAL, "%s: record %" PRIu64 " (byte %" PRIu64 "): a queued bio "
			       "of %" PRIu32 " bytes, not a whole number of 512-byte sectors",
			       f->name, b->recno, b->head_off, h->bytes);
	if (!h->bytes && !(cat & IOS_BLK_TC_FLUSH)) {
		item->skip = 3;
		return 0;
	}
	if (h->sector > UINT64_MAX - (h->bytes >> IOS_SECTOR_SHIFT))
		return IOS_ERR(e, -EINVAL, "%s: record %" PRIu64 " (byte %" PRIu64 "): sector %"
			       PRIu64 " + %" PRIu32 " is past any disk", f->name, b->recno,
			       b->head_off, h->sector, h->bytes >> IOS_SECTOR_SHIFT);
	item->kind = TR_IO;
	item->rec.sector = h->bytes ? h->sector : 0;
	item->rec.nr_sectors = h->bytes >> IOS_SECTOR_SHIFT;
	/* a pure flush is a write to the drive (REQ_OP_FLUSH, a barrier before) */
	item->rec.dir = (cat & IOS_BLK_TC_WRITE) || !h->bytes ? IOS_WRITE : IOS_READ;
	item->rec.flags = bin_flags(cat);
	if (!h->bytes)
		item->rec.flags |= IOS_REQ_SYNC;
	return 0;
}

int ios_tr_bin_next(struct tr_iter *it, struct tr_item *item, struct ios_err *e)
{
	struct ios_replay *r = it->r;
	struct tr_bin *b = NULL;
	unsigned k = 0;
	int ret;

	for (unsigned i = 0; i < it->nr_bin; i++) {
		if (!it->bin[i].have)
			continue;
		if (!b || it->bin[i].head.time < b->head.time) {
			b = &it->bin[i];
			k = i;
		}
	}
	if (!b)
		return 0;
	if (it->check)
		r->info.nr_records++;
	ret = bin_item(it, b, k, item, e);
	if (ret)
		return ret;
	/* past this record and its payload (ios_tr_rd_need refills from there) */
	b->rd.pos += IOS_BLK_REC_SIZE + b->head.pdu_len;
	ret = bin_read(it, k, e);
	return ret < 0 ? ret : 1;
}
