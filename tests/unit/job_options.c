/*
 * Description: options with a shape of their own parse as fio 3.33 does:
 * ':'-separated filenames with '\:' escapes and sharing between jobs, rw
 * with its ':N' suffix, rwmixread/rwmixwrite (the later wins), bssplit,
 * ioengine, sync, percentile_list, direct/buffered as inverses, bare flags
 * and write_*_log defaults. The JSON option record uses fio's canonical
 * names in fio's order (kb_base first, filename last) and leaves bare flags
 * out. Several files append, with fresh globals and an implicit stonewall.
 * The option table is complete and its defaults parse.
 */
#include "job_util.h"

static int test_filenames(void)
{
	const struct ios_job *j;

	j = jt_job("[j]\nfilename=/dev/sda:/dev/sdb\n");
	T_ASSERT(j);
	T_ASSERT_EQ(j->nr_filenames, 2);
	T_ASSERT(!strcmp(j->filenames[0], "/dev/sda"));
	T_ASSERT(!strcmp(j->filenames[1], "/dev/sdb"));
	T_ASSERT(!strcmp(j->filename, "/dev/sda:/dev/sdb"));	/* raw, as written */

	/* the HOWTO's escapes: "\:" is a colon, other backslashes stay */
	j = jt_job("[j]\nfilename=/dev/dsk/foo@3,0\\:c:F\\:\\name\n");
	T_ASSERT(j);
	T_ASSERT_EQ(j->nr_filenames, 2);
	T_ASSERT(!strcmp(j->filenames[0], "/dev/dsk/foo@3,0:c"));
	T_ASSERT(!strcmp(j->filenames[1], "F:\\name"));

	/* sharing: jobs naming the same file get the same name; a global one reaches all */
	T_ASSERT_EQ(jt_parse("[global]\nfilename=shared\n[a]\n[b]\n[c]\nfilename=own\n"), 0);
	T_ASSERT(!strcmp(jt_jf.jobs[0].filenames[0], "shared"));
	T_ASSERT(!strcmp(jt_jf.jobs[1].filenames[0], "shared"));
	T_ASSERT(!strcmp(jt_jf.jobs[2].filenames[0], "own"));
	T_ASSERT_EQ(jt_jf.jobs[2].nr_filenames, 1);
	/* without filename= the runner makes fio's name.N.M names */
	j = jt_job("[j]\ndirectory=/mnt\nnrfiles=3\n");
	T_ASSERT(j);
	T_ASSERT(j->filename == NULL && j->filenames == NULL);
	T_ASSERT(!strcmp(j->directory, "/mnt"));
	T_ASSERT_EQ(j->nrfiles, 3);
	T_ASSERT(jt_fails("[j]\nfilename=a:\n", -EINVAL, "empty file name", NULL));
	jt_cleanup();
	return T_PASS;
}

static int test_rw(void)
{
	static const struct { const char *v; enum ios_rw rw; unsigned n; } cases[] = {
		{ "read", IOS_RW_READ, 0 }, { "write", IOS_RW_WRITE, 0 },
		{ "randread", IOS_RW_RANDREAD, 0 }, { "randwrite", IOS_RW_RANDWRITE, 0 },
		{ "rw", IOS_RW_RW, 0 }, { "readwrite", IOS_RW_RW, 0 }, { "randrw", IOS_RW_RANDRW, 0 },
		{ "randread:8", IOS_RW_RANDREAD, 8 },	/* 8 I/Os per random offset */
		{ "write:4k", IOS_RW_WRITE, 4096 },	/* a 4k hole after each write */
		{ "rw:0", IOS_RW_RW, 0 },
	};
	char buf[64];
	size_t i;

	for (i = 0; i < IOS_ARRAY_SIZE(cases); i++) {
		const struct ios_job *j;

		snprintf(buf, sizeof(buf), "[j]\nrw=%s\n", cases[i].v);
		j = jt_job(buf);
		T_ASSERT_MSG(j && j->rw == cases[i].rw && j->rw_seq_nr == cases[i].n, "rw=%s",
			     cases[i].v);
	}
	/* readwrite= is the same option; a later rw without :N drops the suffix */
	T_ASSERT_EQ(jt_parse("[global]\nreadwrite=randread:4\n[a]\n[b]\nrw=randread\n"), 0);
	T_ASSERT_EQ(jt_jf.jobs[0].rw_seq_nr, 4);
	T_ASSERT_EQ(jt_jf.jobs[1].rw_seq_nr, 0);
	/* sequential: a signed step (fio's ddir_seq_add); backward seeks keep no hole */
	T_ASSERT_EQ(jt_parse("[a]\nrw=read:-8k\n[b]\nrw=write:4k\n[c]\nrw=randread:4\n"
			     "rw_sequencer=identical\n[d]\nzonemode=strided\nzonesize=64k\n"), 0);
	T_ASSERT_EQ(jt_jf.jobs[0].rw_seq_add, -8192);
	T_ASSERT_EQ(jt_jf.jobs[0].rw_seq_nr, 0);
	T_ASSERT_EQ(jt_jf.jobs[1].rw_seq_add, 4096);
	T_ASSERT_EQ(jt_jf.jobs[2].rw_seq_add, 0);
	T_ASSERT_EQ(jt_jf.jobs[2].rw_seq_ident, 1);
	T_ASSERT_EQ(jt_jf.jobs[3].zone_mode, IOS_ZONE_STRIDED);
	T_ASSERT_EQ(jt_jf.jobs[3].zone_range, 65536);	/* zonerange defaults to zonesize */
	jt_cleanup();
	/* a blank size percentage gets what is left (fio's examples/rand-zones.fio) */
	T_ASSERT_EQ(jt_parse("[a]\nrandom_distribution=zoned:50/5:30/15:20/\n"
			     "[b]\nrandom_distribution=zipf:0.8:0.25\n"), 0);
	T_ASSERT_EQ(jt_jf.jobs[0].rand_dist, IOS_RAND_ZONED);
	T_ASSERT_EQ(jt_jf.jobs[0].nr_rand_zones, 3);
	T_ASSERT_EQ(jt_jf.jobs[0].rand_zones[2].access_perc, 20);
	T_ASSERT_EQ(jt_jf.jobs[0].rand_zones[2].size_perc, 80);
	T_ASSERT_EQ(jt_jf.jobs[1].rand_dist, IOS_RAND_ZIPF);
	T_ASSERT(jt_jf.jobs[1].rand_dist_val == 0.8 && jt_jf.jobs[1].rand_center == 0.25);
	jt_cleanup();
	T_ASSERT(!strcmp(ios_rw_name(IOS_RW_RANDRW), "randrw"));
	jt_cleanup();
	return T_PASS;
}

static int test_rwmix(void)
{
	const struct ios_job *j;

	j = jt_job("[j]\nrw=randrw\nrwmixread=70\n");
	T_ASSERT(j && j->rwmixread == 70);
	j = jt_job("[j]\nrwmixwrite=30\n");
	T_ASSERT(j && j->rwmixread == 70);
	/* both given, not summing to 100: the later one wins */
	j = jt_job("[j]\nrwmixread=30\nrwmixwrite=20\n");
	T_ASSERT(j && j->rwmixread == 80);
	j = jt_job("[j]\nrwmixwrite=20\nrwmixread=30\n");
	T_ASSERT(j && j->rwmixread == 30);
	/* a job's rwmixwrite overrides a global rwmixread */
	T_ASSERT_EQ(jt_parse("[global]\nrwmixread=10\n[j]\nrwmixwrite=10\n"), 0);
	T_ASSERT_EQ(jt_jf.jobs[0].rwmixread, 90);
	jt_cleanup();
	return T_PASS;
}

static int test_bssplit(void)
{
	const struct ios_job *j;

	j = jt_job("[j]\nbssplit=4k/10:64k/50:32k/40\n");
	T_ASSERT(j);
	T_ASSERT_EQ(j->nr_bssplit[0], 3);
	T_ASSERT_EQ(j->nr_bssplit[1], 3);
	T_ASSERT_U64_EQ(j->bssplit[0][1].bs, 65536);
	T_ASSERT_EQ(j->bssplit[0][1].perc, 50);
	T_ASSERT_EQ(j->bssplit[1][2].perc, 40);
	/* blanks share the rest (0 = share); per direction */
	j = jt_job("[j]\nbssplit=4k/50:1k/:32k/,8k\n");
	T_ASSERT(j);
	T_ASSERT_EQ(j->nr_bssplit[0], 3);
	T_ASSERT_EQ(j->bssplit[0][1].perc, 0);
	T_ASSERT_EQ(j->bssplit[0][2].perc, 0);
	T_ASSERT_EQ(j->nr_bssplit[1], 1);
	T_ASSERT_U64_EQ(j->bssplit[1][0].bs, 8192);
	/* one entry without a percentage takes everything */
	j = jt_job("[j]\nbssplit=16k\n");
	T_ASSERT(j && j->nr_bssplit[0] == 1 && j->bssplit[0][0].perc == 0);
	jt_cleanup();
	return T_PASS;
}

static int test_engines_and_flags(void)
{
	static const char *const engines[] = {
		"sync", "psync", "vsync", "pvsync", "pvsync2", "libaio", "io_uring", "posixaio", "null",
	};
	const struct ios_job *j;
	char buf[64];
	size_t i;

	for (i = 0; i < IOS_ARRAY_SIZE(engines); i++) {
		snprintf(buf, sizeof(buf), "[j]\nioengine=%s\n", engines[i]);
		j = jt_job(buf);
		T_ASSERT_MSG(j && j->ioengine == (enum ios_ioengine)i, "ioengine=%s", engines[i]);
		T_ASSERT(!strcmp(ios_ioengine_name(j->ioengine), engines[i]));
	}
	j = jt_job("[j]\ndirect=1\nsync=dsync\n");
	T_ASSERT(j && j->direct == 1 && j->buffered == 0 && j->sync == 2);
	j = jt_job("[j]\nbuffered=0\nsync=1\n");
	T_ASSERT(j && j->direct == 1 && j->sync == 1);
	j = jt_job("[j]\nstonewall\nnew_group\ngroup_reporting\nexitall\ntime_based\n"
		   "norandommap\nzero_buffers\nbs_unaligned\nthread\nwait_for_previous=0\n");
	T_ASSERT(j);
	T_ASSERT(j->new_group && j->group_reporting && j->exitall && j->time_based &&
		 j->norandommap && j->zero_buffers && j->bs_unaligned && j->thread);
	T_ASSERT_EQ(j->stonewall, 0);	/* wait_for_previous=0 came later */
	/* bare write_*_log: the job's name is the prefix */
	T_ASSERT_EQ(jt_parse("[global]\nwrite_bw_log\n[j1]\nwrite_lat_log=lat\n[j2]\n"), 0);
	T_ASSERT(!strcmp(jt_jf.jobs[0].write_bw_log, "j1"));
	T_ASSERT(!strcmp(jt_jf.jobs[0].write_lat_log, "lat"));
	T_ASSERT(!strcmp(jt_jf.jobs[1].write_bw_log, "j2"));
	T_ASSERT(jt_jf.jobs[1].write_iops_log == NULL);
	/* resolved defaults */
	j = jt_job("[j]\niodepth=16\niodepth_batch=0\niodepth_batch_complete_min=2\n");
	T_ASSERT(j);
	T_ASSERT_EQ(j->iodepth_low, 16);
	T_ASSERT_EQ(j->iodepth_batch_submit, 16);
	T_ASSERT_EQ(j->iodepth_batch_complete_max, 2);
	j = jt_job("[j]\nprio=3\nprioclass=1\nrandseed=42\ncgroup=grp\ncgroup_weight=500\n");
	T_ASSERT(j && j->prio == 3 && j->prioclass == 1 && j->randseed == 42 && j->randseed_set);
	T_ASSERT(!strcmp(j->cgroup, "grp") && j->cgroup_weight == 500);
	j = jt_job("[j]\npercentile_list=99.5:99.9:50\n");
	T_ASSERT(j && j->nr_percentiles == 3);
	T_ASSERT_NEAR(j->percentile_list[0], 99.5, 1e-12);
	T_ASSERT_NEAR(j->percentile_list[1], 99.9, 1e-12);
	T_ASSERT_NEAR(j->percentile_list[2], 50.0, 1e-12);
	jt_cleanup();
	return T_PASS;
}

static int test_option_record(void)
{
	const struct ios_job *j;

	/* canonical names, fio's order (kb_base first, filename last), no bare flags */
	j = jt_job("[j]\nfilename=f\nblocksize=8k\ntime_based\nstonewall=1\ntimeout=1s\n"
		   "kb_base=1000\nreadwrite=randread ; comment\nbs=4k\n");
	T_ASSERT(j);
	T_ASSERT_EQ(j->nr_opts, 7);
	T_ASSERT(!strcmp(j->opts[0].key, "kb_base"));
	T_ASSERT(!strcmp(j->opts[1].key, "bs") && !strcmp(j->opts[1].value, "8k"));
	T_ASSERT(!strcmp(j->opts[2].key, "stonewall") && !strcmp(j->opts[2].value, "1"));
	T_ASSERT(!strcmp(j->opts[3].key, "runtime") && !strcmp(j->opts[3].value, "1s"));
	T_ASSERT(!strcmp(j->opts[4].key, "rw") && !strcmp(j->opts[4].value, "randread"));
	T_ASSERT(!strcmp(j->opts[5].key, "bs") && !strcmp(j->opts[5].value, "4k"));
	T_ASSERT(!strcmp(j->opts[6].key, "filename"));
	T_ASSERT_U64_EQ(j->bs[0], 4000);	/* the later bs, read with kb_base=1000 */
	jt_cleanup();
	return T_PASS;
}

static int test_several_files(void)
{
	struct ios_job_parse_opts po;
	static const char a[] = "[global]\nbs=8k\n[a1]\n[a2]\n", b[] = "[b1]\n[b2]\n";

	ios_jobfile_free(&jt_jf);
	ios_err_clear(&jt_e);
	jt_opts(&po, IOS_JOB_COMPAT_FIO3);
	T_ASSERT_EQ(ios_job_parse_buf("a.fio", a, strlen(a), &po, &jt_jf, &jt_e), 0);
	T_ASSERT_EQ(ios_job_parse_buf("b.fio", b, strlen(b), &po, &jt_jf, &jt_e), 0);
	T_ASSERT_EQ(jt_jf.nr_jobs, 4);
	T_ASSERT_EQ(jt_jf.nr_paths, 2);
	/* a file's [global] stops at its end, as with `fio a.fio b.fio` */
	T_ASSERT_U64_EQ(jt_jf.jobs[1].bs[0], 8192);
	T_ASSERT_U64_EQ(jt_jf.jobs[2].bs[0], 4096);
	/* the first job of a later file waits for the earlier ones */
	T_ASSERT_EQ(jt_jf.jobs[0].stonewall, 0);
	T_ASSERT_EQ(jt_jf.jobs[2].stonewall, 1);
	T_ASSERT_EQ(jt_jf.jobs[3].stonewall, 0);
	T_ASSERT_EQ(jt_jf.jobs[3].index, 3);
	T_ASSERT(!strcmp(jt_jf.jobs[3].file, "b.fio"));
	jt_cleanup();
	return T_PASS;
}

static int test_option_table(void)
{
	static const char *const required[] = {
		"name", "description", "filename", "directory", "nrfiles", "size", "filesize",
		"offset", "offset_increment", "io_size", "io_limit", "rw", "readwrite", "rwmixread",
		"rwmixwrite", "bs", "blocksize", "bsrange", "blocksize_range", "bssplit",
		"bs_unaligned", "blockalign", "direct", "buffered", "sync", "ioengine", "iodepth",
		"iodepth_batch_submit", "iodepth_batch", "iodepth_batch_complete_min",
		"iodepth_batch_complete_max", "iodepth_low", "numjobs", "runtime", "timeout",
		"time_based", "startdelay", "ramp_time", "thinktime", "thinktime_spin",
		"thinktime_blocks", "thinktime_blocks_type", "rate", "rate_min", "rate_iops",
		"rate_iops_min", "rate_cycle", "rate_process", "prio", "prioclass", "nice",
		"stonewall", "wait_for_previous", "new_group", "group_reporting", "loops",
		"randrepeat", "rand_repeatable", "randseed", "norandommap", "fsync", "fdatasync",
		"end_fsync", "fsync_on_close", "create_on_open", "invalidate", "unlink", "overwrite",
		"cgroup", "cgroup_weight", "cgroup_nodelete", "exitall", "bwavgtime", "iopsavgtime",
		"percentile_list", "clat_percentiles", "lat_percentiles", "slat_percentiles",
		"write_bw_log", "write_lat_log", "write_iops_log", "log_avg_msec", "log_offset",
		"log_prio", "per_job_logs", "read_iolog", "write_iolog", "ioscheduler", "kb_base",
		"zero_buffers", "thread",
	};
	const struct ios_job_option_info *info;
	size_t i, n = 0;

	for (i = 0; (info = ios_job_option_at(i)); i++) {
		T_ASSERT_MSG(info->name && info->help && info->help[0] && info->type,
			     "row %zu lacks a name, help or type", i);
		n++;
	}
	T_ASSERT(n >= 80);
	T_ASSERT(ios_job_option_at(n) == NULL);
	/* every required name (or alias) is accepted: a file naming them all parses */
	for (i = 0; i < IOS_ARRAY_SIZE(required); i++) {
		size_t k;
		int found = 0;

		for (k = 0; (info = ios_job_option_at(k)) && !found; k++) {
			const char *a = info->alias;
			size_t len = strlen(required[i]);

			found = !strcmp(info->name, required[i]);
			while (!found && a && *a) {
				found = !strncmp(a, required[i], len) && (a[len] == ',' || !a[len]);
				a = strchr(a, ',');
				a = a ? a + 1 : NULL;
			}
		}
		T_ASSERT_MSG(found, "option '%s' missing from the table", required[i]);
	}
	jt_cleanup();
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_filenames, test_rw, test_rwmix, test_bssplit, test_engines_and_flags,
		     test_option_record, test_several_files, test_option_table);
}
