/*
 * rusage_run CMD ARGS...: run CMD, pass its stdout through, and print to
 * stderr "RUSAGE user_s sys_s" of the child (and its children) from wait4.
 * bench/real_uring.sh measures fio and iosched the same way with it, rather
 * than trusting each tool's own usr_cpu/sys_cpu figures, which are computed
 * differently. A second line, "MAXRSS kb", gives the child's peak resident
 * set (ru_maxrss; bench/scale.sh reads it). Run with no arguments (as bench/run-bench.sh runs every
 * benchmark) it prints a usage line and exits 0.
 */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct rusage ru;
	pid_t pid;
	int status;

	if (argc < 2) {
		printf("rusage_run CMD ARGS...: a helper for bench/real_uring.sh\n");
		return 0;
	}
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 127;
	}
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		perror(argv[1]);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0) {
		perror("wait4");
		return 127;
	}
	fprintf(stderr, "RUSAGE %ld.%06ld %ld.%06ld\n", (long)ru.ru_utime.tv_sec,
		(long)ru.ru_utime.tv_usec, (long)ru.ru_stime.tv_sec, (long)ru.ru_stime.tv_usec);
	fprintf(stderr, "MAXRSS %ld\n", ru.ru_maxrss);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}
