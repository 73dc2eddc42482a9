// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>

#include "cpustat.h"
#include "measure.h"

int cpustat_read(struct cpu_times *t, int ncpus)
{
	unsigned long long v[8];
	char line[512];
	long hz = sysconf(_SC_CLK_TCK);
	int cpu, n, max = 0, i;
	__u64 tick_ns;
	FILE *f;

	if (hz <= 0)
		return -EINVAL;
	tick_ns = 1000000000ULL / hz;
	memset(t, 0, ncpus * sizeof(*t));
	f = fopen("/proc/stat", "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "cpu", 3) || line[3] < '0' || line[3] > '9')
			continue;
		memset(v, 0, sizeof(v));
		n = sscanf(line + 3, "%d %llu %llu %llu %llu %llu %llu %llu %llu",
			   &cpu, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
			   &v[6], &v[7]);
		if (n < 5 || cpu < 0 || cpu >= ncpus)
			continue;
		for (i = 0; i < 8; i++)
			v[i] *= tick_ns;
		t[cpu] = (struct cpu_times){
			.user = v[0], .nice = v[1], .system = v[2],
			.idle = v[3], .iowait = v[4], .irq = v[5],
			.softirq = v[6], .steal = v[7],
		};
		if (cpu + 1 > max)
			max = cpu + 1;
	}
	fclose(f);
	return max ? max : -ENOENT;
}

__u64 cpu_times_busy(const struct cpu_times *t)
{
	return t->user + t->nice + t->system + t->irq + t->softirq;
}

int load_snap_take(struct load_snap *s, struct sirq *sq,
		   const struct load_thread *th, int nth)
{
	int i, ret;

	if (nth < 0 || nth > LOAD_MAX_THREADS)
		return -EINVAL;
	memset(s, 0, sizeof(*s));
	s->t_ns = mono_ns();
	ret = cpustat_read(s->cpu, CPUSTAT_MAX_CPUS);
	if (ret < 0)
		return ret;
	s->ncpus = ret;
	if (sq) {
		ret = sirq_read(sq, s->sirq, s->ncpus);
		if (ret < 0)
			return ret;
	}
	for (i = 0; i < nth; i++) {
		uint64_t ns;

		ret = thread_cpu_ns(th[i].tid, &ns);
		if (ret)
			return ret;
		s->thread_ns[i] = ns;
	}
	s->nthreads = nth;
	return 0;
}

int load_snap_children(struct load_snap *s)
{
	struct rusage ru;

	if (getrusage(RUSAGE_CHILDREN, &ru))
		return -errno;
	s->children_ns = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000ULL +
			 (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ULL;
	s->children = true;
	return 0;
}

bool load_check(const struct load_snap *a, const struct load_snap *b,
		const struct load_thread *th, int nth, double max_frac,
		struct load_report *r)
{
	bool all_pinned = true;
	double sum = 0, f;
	int c, i, deciding;

	memset(r, 0, sizeof(*r));
	r->ncpus = a->ncpus < b->ncpus ? a->ncpus : b->ncpus;
	r->window_ns = (double)(b->t_ns - a->t_ns);
	r->worst_cpu = -1;
	if (nth > a->nthreads || nth > b->nthreads)
		nth = a->nthreads < b->nthreads ? a->nthreads : b->nthreads;
	for (c = 0; c < r->ncpus; c++) {
		struct load_cpu *lc = &r->cpu[c];
		const struct sirq_cpu *sa = &a->sirq[c], *sb = &b->sirq[c];

		lc->busy_ns = (double)cpu_times_busy(&b->cpu[c]) -
			      (double)cpu_times_busy(&a->cpu[c]);
		lc->steal_ns = (double)b->cpu[c].steal - (double)a->cpu[c].steal;
		lc->softirq_ns = (double)(sb->all_ns - sb->own_ns) -
				 (double)(sa->all_ns - sa->own_ns);
	}
	for (i = 0; i < nth; i++) {
		double d = (double)(b->thread_ns[i] - a->thread_ns[i]);

		if (th[i].cpu >= 0 && th[i].cpu < r->ncpus) {
			r->cpu[th[i].cpu].threads_ns += d;
		} else {
			r->unpinned_ns += d;
			all_pinned = false;
		}
	}
	if (a->children && b->children) {
		r->unpinned_ns += (double)(b->children_ns - a->children_ns);
		all_pinned = false;
	}
	for (c = 0; c < r->ncpus; c++) {
		struct load_cpu *lc = &r->cpu[c];

		lc->unexplained_ns = lc->busy_ns - lc->threads_ns -
				     lc->softirq_ns;
		sum += lc->unexplained_ns;
		if (all_pinned && r->window_ns > 0) {
			f = lc->unexplained_ns / r->window_ns;
			if (r->worst_cpu < 0 || f > r->worst_frac) {
				r->worst_frac = f;
				r->worst_cpu = c;
			}
		}
	}
	r->unexplained_ns = sum - r->unpinned_ns;
	if (!all_pinned && r->window_ns > 0)
		r->worst_frac = r->unexplained_ns / r->window_ns;
	deciding = all_pinned ? 1 : r->ncpus;
	r->worst_frac = fmin(fmax(r->worst_frac, 0), deciding);
	r->resolution = r->window_ns > 0 ?
			deciding * 1e9 / sysconf(_SC_CLK_TCK) / r->window_ns :
			INFINITY;
	r->disturbed = r->worst_frac > max_frac;
	return r->disturbed;
}
