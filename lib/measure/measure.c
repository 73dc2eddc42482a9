// SPDX-License-Identifier: GPL-2.0
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "measure.h"

uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

uint64_t ktime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

#if defined(__x86_64__) || defined(__i386__)
double tsc_ghz_measure(unsigned int ms)
{
	uint64_t t0, c0, t1, c1;

	t0 = mono_ns();
	c0 = tsc_read();
	usleep(ms * 1000);
	t1 = mono_ns();
	c1 = tsc_read();
	return (double)(c1 - c0) / (double)(t1 - t0);
}
#else
double tsc_ghz_measure(unsigned int ms)
{
	(void)ms;
	return 0;
}
#endif

static int read_task_file(pid_t tid, const char *name, char *buf, size_t len)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/%s", tid, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

int thread_cpu_ns(pid_t tid, uint64_t *ns)
{
	char buf[128];
	int ret = read_task_file(tid, "schedstat", buf, sizeof(buf));

	if (ret)
		return ret;
	return sscanf(buf, "%" SCNu64, ns) == 1 ? 0 : -EINVAL;
}

int thread_last_cpu(pid_t tid)
{
	char buf[1024], *p;
	int field, cpu = -1;

	if (read_task_file(tid, "stat", buf, sizeof(buf)))
		return -1;
	/* Field 39 is "processor"; counting starts after the comm's ')' */
	p = strrchr(buf, ')');
	for (field = 2; p && field < 39; field++)
		p = strchr(p + 1, ' ');
	if (p)
		sscanf(p + 1, "%d", &cpu);
	return cpu;
}

int pin_self(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}

int proc_threads(const char *prefix, pid_t *pids, char (*comms)[PROC_COMM_LEN],
		 int max)
{
	char path[64], comm[64];
	struct dirent *de;
	int n = 0;
	DIR *dir;

	dir = opendir("/proc");
	while (dir && n < max && (de = readdir(dir))) {
		FILE *f;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%.32s/comm", de->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) &&
		    !strncmp(comm, prefix, strlen(prefix))) {
			if (comms) {
				comm[strcspn(comm, "\n")] = '\0';
				snprintf(comms[n], PROC_COMM_LEN, "%.15s", comm);
			}
			pids[n++] = atoi(de->d_name);
		}
		fclose(f);
	}
	if (dir)
		closedir(dir);
	return n;
}

int ksoftirqd_tids(pid_t *tids, int ncpus)
{
	char comms[PROC_MAX_CPUS][PROC_COMM_LEN];
	pid_t pids[PROC_MAX_CPUS];
	int n, i, cpu, found = 0;

	memset(tids, 0, ncpus * sizeof(*tids));
	n = proc_threads("ksoftirqd/", pids, comms, PROC_MAX_CPUS);
	for (i = 0; i < n; i++)
		if (sscanf(comms[i], "ksoftirqd/%d", &cpu) == 1 && cpu >= 0 &&
		    cpu < ncpus && !tids[cpu]) {
			tids[cpu] = pids[i];
			found++;
		}
	return found;
}
