/*
 * The names of fio 3.33's options, so that an option iosched does not model
 * is told apart from a typo.
 *
 * A job file written for fio uses options from two places: fio's own table
 * (options.c, 227 names and 21 aliases in fio 3.33) and the table of the job's
 * ioengine (engines/NAME.c: port= belongs to the net engine, hipri= to io_uring,
 * pvsync2, sg and xnvme). A name found in neither is a typo and stays
 * "unknown option"; a name found here that the option table of
 * job/options.c does not have is "not modelled by iosched", and an engine
 * option names the engines that own it, so a user of an unmodelled engine
 * sees the engine as the reason.
 *
 * The lists were taken from the fio-3.33 tag's option tables (names only).
 */
#include <string.h>
#include "job/opt.h"

/* fio 3.33 options.c: every .name and .alias, sorted */
static const char *const fio_general[] = {
	"allow_file_create", "allow_mounted_write", "allrandrepeat", "atomic", "ba",
	"block_error_percentiles", "blockalign", "blocksize", "blocksize_range",
	"blocksize_unaligned", "bs", "bs_is_seq_rand", "bs_unaligned", "bsrange", "bssplit",
	"buffer_compress_chunk", "buffer_compress_percentage", "buffer_pattern", "buffered",
	"bwavgtime", "cgroup", "cgroup_nodelete", "cgroup_weight", "clat_percentiles",
	"clocksource", "continue_on_error", "cpumask", "cpus_allowed", "cpus_allowed_policy",
	"create_fsync", "create_on_open", "create_only", "create_serialize", "dedupe_global",
	"dedupe_mode", "dedupe_percentage", "dedupe_working_set_percentage", "description",
	"direct", "directory", "disable_bw", "disable_bw_measurement", "disable_clat",
	"disable_lat", "disable_slat", "disk_util", "do_verify", "end_fsync", "error_dump",
	"exec_postrun", "exec_prerun", "exit_what", "exitall", "exitall_on_error",
	"experimental_verify", "fadvise_hint", "fallocate", "fdatasync", "file_append",
	"file_service_type", "filename", "filename_format", "fileoffset", "filesize",
	"fill_device", "fill_fs", "flow", "flow_id", "flow_sleep", "flow_watermark", "fsync",
	"fsync_on_close", "gid", "gpu_dev_id", "group_reporting", "gtod_cpu", "gtod_reduce",
	"hugepage-size", "ignore_error", "ignore_zone_limits", "invalidate", "io_limit",
	"io_size", "io_submit_mode", "iodepth", "iodepth_batch", "iodepth_batch_complete",
	"iodepth_batch_complete_max", "iodepth_batch_complete_min", "iodepth_batch_submit",
	"iodepth_low", "ioengine", "iomem", "iomem_align", "iopsavgtime", "ioscheduler",
	"job_max_open_zones", "kb_base", "lat_percentiles", "latency_percentile",
	"latency_run", "latency_target", "latency_window", "lockfile", "lockmem",
	"log_alternate_epoch", "log_alternate_epoch_clock_id", "log_avg_msec",
	"log_compression", "log_compression_cpus", "log_entries", "log_hist_coarseness",
	"log_hist_msec", "log_max_value", "log_offset", "log_prio", "log_store_compressed",
	"log_unix_epoch", "loops", "max_latency", "max_open_zones", "mem", "mem_align",
	"merge_blktrace_file", "merge_blktrace_iters", "merge_blktrace_scalars", "name",
	"new_group", "nice", "norandommap", "nr_files", "nrfiles", "numa_cpu_nodes",
	"numa_mem_policy", "number_ios", "numjobs", "offset", "offset_align",
	"offset_increment", "opendir", "openfiles", "overwrite", "per_job_logs",
	"percentage_random", "percentage_sequential", "percentile_list", "pre_read", "prio",
	"prioclass", "profile", "ramp_time", "random_distribution", "random_generator",
	"randrepeat", "randseed", "rate", "rate_cycle", "rate_ignore_thinktime", "rate_iops",
	"rate_iops_min", "rate_min", "rate_process", "ratecycle", "ratemin", "read_beyond_wp",
	"read_iolog", "read_iolog_chunked", "readwrite", "refill_buffers", "replay_align",
	"replay_no_stall", "replay_redirect", "replay_scale", "replay_skip",
	"replay_time_scale", "runtime", "rw", "rw_sequencer", "rwmixcycle", "rwmixread",
	"rwmixwrite", "scramble_buffers", "serialize_overlap", "significant_figures", "size",
	"slat_percentiles", "softrandommap", "ss", "ss_dur", "ss_ramp", "startdelay", "stats",
	"steadystate", "steadystate_duration", "steadystate_ramp_time", "stonewall", "sync",
	"sync_file_range", "thinktime", "thinktime_blocks", "thinktime_blocks_type",
	"thinktime_iotime", "thinktime_spin", "thread", "time_based", "timeout",
	"trim_backlog", "trim_backlog_batch", "trim_percentage", "trim_verify_zero", "uid",
	"unified_rw_reporting", "unique_filename", "unit_base", "unlink", "unlink_each_loop",
	"verify", "verify_async", "verify_async_cpus", "verify_backlog",
	"verify_backlog_batch", "verify_dump", "verify_fatal", "verify_interval",
	"verify_offset", "verify_only", "verify_pattern", "verify_state_load",
	"verify_state_save", "verifysort", "verifysort_nr", "wait_for", "wait_for_previous",
	"write_barrier", "write_bw_log", "write_hint", "write_hist_log", "write_iolog",
	"write_iops_log", "write_lat_log", "zero_buffers", "zone_reset_frequency",
	"zone_reset_threshold", "zonecapacity", "zonemode", "zonerange", "zonesize",
	"zoneskip",
	NULL,
};

/* engine options of fio 3.33 (engines/NAME.c) and the engines that take them */
static const struct ios_fio_option fio_engine_opts[] = {
	{ "arguments", "exec" },
	{ "brick", "gfapi, gfapi_async" },
	{ "busy_poll", "rados, rbd" },
	{ "busy_wait_polling", "librpma_apm_client, librpma_gpspm_client" },
	{ "chunk_size", "dfs, libhdfs" },
	{ "clientname", "rados, rbd" },
	{ "clustername", "rados, rbd" },
	{ "cmd_type", "io_uring_cmd" },
	{ "cmdprio", "io_uring, libaio" },
	{ "cmdprio_bssplit", "io_uring, libaio" },
	{ "cmdprio_class", "io_uring, libaio" },
	{ "cmdprio_percentage", "io_uring, libaio" },
	{ "conf", "rados" },
	{ "cont", "dfs" },
	{ "cpuchunks", "cpuio" },
	{ "cpuload", "cpuio" },
	{ "cpumode", "cpuio" },
	{ "cuda_io", "libcufile" },
	{ "direct_write_to_pmem", "librpma_apm_client, librpma_gpspm_client" },
	{ "donorname", "e4defrag" },
	{ "dummy", "skeleton_external" },
	{ "exit_on_io_done", "cpuio" },
	{ "fixedbufs", "io_uring" },
	{ "force_async", "io_uring" },
	{ "gpu_dev_ids", "libcufile" },
	{ "grace_time", "exec" },
	{ "hdfs_use_direct", "libhdfs" },
	{ "hdfsdirectory", "libhdfs" },
	{ "hipri", "io_uring, pvsync2, sg, xnvme" },
	{ "hipri_percentage", "pvsync2" },
	{ "hostname", "net, netsplice, rdma, libhdfs" },
	{ "http_host", "http" },
	{ "http_mode", "http" },
	{ "http_pass", "http" },
	{ "http_s3_key", "http" },
	{ "http_s3_keyid", "http" },
	{ "http_s3_region", "http" },
	{ "http_s3_sse_customer_algorithm", "http" },
	{ "http_s3_sse_customer_key", "http" },
	{ "http_s3_storage_class", "http" },
	{ "http_swift_auth_token", "http" },
	{ "http_user", "http" },
	{ "http_verbose", "http" },
	{ "https", "http" },
	{ "initiator", "libiscsi" },
	{ "inplace", "e4defrag" },
	{ "interface", "net, netsplice" },
	{ "listen", "net, netsplice" },
	{ "mss", "net, netsplice" },
	{ "namenode", "libhdfs" },
	{ "nfs_url", "nfs" },
	{ "no_completion_thread", "windowsaio" },
	{ "nodelay", "net, netsplice" },
	{ "nonvectored", "io_uring" },
	{ "nowait", "io_uring, libaio, pvsync2" },
	{ "object_class", "dfs" },
	{ "pingpong", "net, netsplice" },
	{ "pool", "dfs, rados, rbd" },
	{ "port", "net, netsplice, rdma, libhdfs, librpma_*" },
	{ "program", "exec" },
	{ "protocol", "net, netsplice" },
	{ "rbdname", "rbd" },
	{ "readfua", "sg" },
	{ "registerfiles", "io_uring" },
	{ "serverip", "librpma_*" },
	{ "sg_write_mode", "sg" },
	{ "single-instance", "gfapi, gfapi_async" },
	{ "single_instance", "libhdfs" },
	{ "skip_bad", "mtd" },
	{ "sqthread_poll", "io_uring, xnvme" },
	{ "sqthread_poll_cpu", "io_uring" },
	{ "stat_type", "filestat, dirstat" },
	{ "std_redirect", "exec" },
	{ "stream_id", "sg" },
	{ "svcl", "dfs" },
	{ "thp", "mmap" },
	{ "touch_objects", "rados" },
	{ "ttl", "net, netsplice" },
	{ "uncached", "io_uring, pvsync2" },
	{ "uri", "nbd" },
	{ "userspace_reap", "libaio" },
	{ "verb", "rdma" },
	{ "volume", "gfapi, gfapi_async" },
	{ "window_size", "net, netsplice" },
	{ "writefua", "sg" },
	{ "xnvme_admin", "xnvme" },
	{ "xnvme_async", "xnvme" },
	{ "xnvme_be", "xnvme" },
	{ "xnvme_dev_nsid", "xnvme" },
	{ "xnvme_iovec", "xnvme" },
	{ "xnvme_sync", "xnvme" },
	{ NULL, NULL },
};

/*
 * fio 3.33's tiobench profile (profiles/tiobench.c) registers its options
 * into fio's global table at start (profile.c, add_profile_options), so
 * every job file may set them; they go into the profile's own data, read
 * only with --profile=tiobench. (Its "size" is the general one's name.)
 */
static const char *const fio_profile_tiobench[] = { "block", "dir", "numruns", "threads", NULL };

const char *ios_job_fio_profile(const char *name)
{
	for (const char *const *p = fio_profile_tiobench; *p; p++)
		if (!strcmp(*p, name))
			return "tiobench";
	return NULL;
}

static struct ios_fio_option fio_general_row;

/*
 * fio 3.33's options, general ones first (engines NULL), then engine
 * options; NULL past the end. The general row is returned in a static
 * buffer, so read it before the next call.
 */
const struct ios_fio_option *ios_job_fio_option_at(size_t i)
{
	size_t n = IOS_ARRAY_SIZE(fio_general) - 1;

	if (i < n) {
		fio_general_row.name = fio_general[i];
		fio_general_row.engines = NULL;
		return &fio_general_row;
	}
	i -= n;
	if (i < IOS_ARRAY_SIZE(fio_engine_opts) - 1)
		return &fio_engine_opts[i];
	return NULL;
}

bool ios_opt_is_fio_only(const char *name)
{
	return ios_opt_fio_engines(name) != NULL || ios_opt_fio_general(name);
}

bool ios_opt_fio_general(const char *name)
{
	const char *const *p;

	for (p = fio_general; *p; p++)
		if (!strcmp(*p, name))
			return true;
	return false;
}

const char *ios_opt_fio_engines(const char *name)
{
	const struct ios_fio_option *p;

	for (p = fio_engine_opts; p->name; p++)
		if (!strcmp(p->name, name))
			return p->engines;
	return NULL;
}

/*
 * Options of fio releases after 3.33, with the first release whose
 * options.c has them (the tags of github.com/axboe/fio, read with git
 * log -S on options.c). A job written for a later fio is refused naming
 * the release, not as a typo. random_sequence_stride was in no tag up
 * to fio-3.42; spr_op and spr_num_regions, sprandom's children, came in
 * its commit (811162f6).
 */
static const struct { const char *name, *release; } fio_later[] = {
	{ "fdp", "fio-3.34" },
	{ "fdp_pli", "fio-3.34" },
	{ "fdp_pli_select", "fio-3.36" },
	{ "random_sequence_stride", "fio's development tree after fio-3.42" },
	{ "spr_num_regions", "fio-3.41" },
	{ "spr_op", "fio-3.41" },
	{ "sprandom", "fio-3.41" },
	{ "steadystate_check_interval", "fio-3.35" },
};

const char *ios_opt_fio_later(const char *name)
{
	for (size_t i = 0; i < IOS_ARRAY_SIZE(fio_later); i++)
		if (!strcmp(fio_later[i].name, name))
			return fio_later[i].release;
	return NULL;
}
