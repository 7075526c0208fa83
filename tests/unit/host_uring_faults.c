/*
 * Description: the io_uring host's attach() when the file system refuses
 * O_DIRECT. No file system on the test machines refuses it (tmpfs takes it
 * since 6.6), so a test-only open (struct host_uring's open_fn) answers
 * EINVAL to O_DIRECT as such a file system does: a file a direct=1 job
 * uses is refused with its name and err=22; one only buffered jobs use is
 * opened without O_DIRECT and the host's note says so. Skipped without
 * liburing or io_uring.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "harness.h"
#include "iosched/host.h"
#include "run/host_uring_int.h"

static unsigned nr_direct_refused;

static int open_no_direct(const char *path, int flags, mode_t mode)
{
	if (flags & O_DIRECT) {
		nr_direct_refused++;
		errno = EINVAL;
		return -1;
	}
	return open(path, flags, mode);
}

static struct ios_host *new_host(char *dir)
{
	struct ios_host_config hc = { .device = dir };
	struct ios_host *h = NULL;
	struct ios_err e = { 0 };

	if (ios_host_create(&ios_host_uring_ops, &hc, &h, &e))
		return NULL;
	((struct host_uring *)h->priv)->open_fn = open_no_direct;
	return h;
}

static int test_direct_refused(void)
{
	char dir[] = "/tmp/hu_faults.XXXXXX", path[64];
	struct ios_host_file f = { .path = path, .size = 65536 };
	struct ios_err e = { 0 };
	struct ios_host *h;
	int ret;

	T_ASSERT(mkdtemp(dir));
	h = new_host(dir);
	if (!h) {
		rmdir(dir);
		return T_SKIP;
	}
	snprintf(path, sizeof(path), "%s/d", dir);
	f.flags = IOS_HOST_FILE_CREATE | IOS_HOST_FILE_DIRECT;
	ret = h->ops->attach(h, &f, &e);
	T_ASSERT_EQ(ret, -EINVAL);
	T_ASSERT_MSG(strstr(e.msg, path) && strstr(e.msg, "O_DIRECT") && strstr(e.msg, "err=22"),
		     "%s", e.msg);
	T_ASSERT_EQ(nr_direct_refused, 1u);

	/* buffered only: opened anyway, the note names the file */
	snprintf(path, sizeof(path), "%s/b", dir);
	f.flags = IOS_HOST_FILE_CREATE;
	ret = h->ops->attach(h, &f, &e);
	T_ASSERT_EQ(ret, 0);
	T_ASSERT_EQ(nr_direct_refused, 2u);
	T_ASSERT_MSG(strstr(h->note, path) && strstr(h->note, "refuses O_DIRECT"), "%s", h->note);
	T_ASSERT_EQ(access(path, F_OK), 0);
	ios_host_destroy(h);
	unlink(path);
	snprintf(path, sizeof(path), "%s/d", dir);
	unlink(path);
	T_ASSERT_EQ(rmdir(dir), 0);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_direct_refused);
}
