// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>

#include "line_rtt.h"
#include "measure.h"

struct rtt_line {
	unsigned int v __attribute__((aligned(64)));
	int stop __attribute__((aligned(64)));
	int err;	/* B's, set before it gives up */
};

struct rtt_echo {
	struct rtt_line *l;
	unsigned long total;	/* rounds to answer */
	int cpu;
};

static int pin(pthread_t t, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return -pthread_setaffinity_np(t, sizeof(set), &set);
}

/* B: answer each odd value with the next even one */
static void *echo(void *p)
{
	struct rtt_echo *e = p;
	unsigned long i;

	int err = pin(pthread_self(), e->cpu);

	if (err) {
		__atomic_store_n(&e->l->err, err, __ATOMIC_RELEASE);
		return NULL;
	}
	for (i = 0; i < e->total; i++) {
		unsigned int want = 2 * i + 1;

		while (__atomic_load_n(&e->l->v, __ATOMIC_ACQUIRE) != want)
			if (__atomic_load_n(&e->l->stop, __ATOMIC_RELAXED))
				return NULL;
		__atomic_store_n(&e->l->v, want + 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

/* A: one round trip; -ETIMEDOUT, or B's error when it could not pin */
static int ping(struct rtt_line *l, unsigned int odd)
{
	unsigned long spins = 0;
	__u64 t0 = 0;
	int err;

	__atomic_store_n(&l->v, odd, __ATOMIC_RELEASE);
	while (__atomic_load_n(&l->v, __ATOMIC_ACQUIRE) != odd + 1) {
		err = __atomic_load_n(&l->err, __ATOMIC_ACQUIRE);
		if (err)
			return err;
		if (++spins % 4096)
			continue;
		if (!t0)
			t0 = mono_ns();
		else if (mono_ns() - t0 > LINE_RTT_TIMEOUT_MS * 1000000ull)
			return -ETIMEDOUT;
	}
	return 0;
}

static bool in_mask(const cpu_set_t *mask, int cpu)
{
	return cpu >= 0 && cpu < CPU_SETSIZE && CPU_ISSET(cpu, mask);
}

bool line_rtt_cpu_ok(int cpu)
{
	cpu_set_t mask;

	return !sched_getaffinity(0, sizeof(mask), &mask) &&
	       in_mask(&mask, cpu);
}

int line_rtt_cpu_pair(const char *tool, const char *opt, const char *form,
		      const __u32 *cpus, unsigned int n, bool say_unusable)
{
	unsigned int i;

	if (n != 2) {
		fprintf(stderr, "%s: --%s takes two CPUs (%s), not %u\n", tool,
			opt, form, n);
		return -EINVAL;
	}
	for (i = 0; i < 2; i++)
		if (!line_rtt_cpu_ok(cpus[i])) {
			if (say_unusable)
				fprintf(stderr, "%s: --%s: CPU %u is not online or not one this process may run on\n",
					tool, opt, cpus[i]);
			return -ENODEV;
		}
	return 0;
}

int line_rtt(int a, int b, unsigned int rounds, double *ns)
{
	struct rtt_echo e = { .cpu = b };
	double block[LINE_RTT_BLOCKS];
	unsigned int k, i, seq = 1;
	struct rtt_line *l;
	cpu_set_t saved;
	pthread_t t;
	int ret;

	if (!rounds || rounds > LINE_RTT_MAX_ROUNDS)
		return -EINVAL;
	if (sched_getaffinity(0, sizeof(saved), &saved))
		return -errno;
	if (a == b || !in_mask(&saved, a) || !in_mask(&saved, b))
		return -EINVAL;
	l = aligned_alloc(64, sizeof(*l));
	if (!l)
		return -ENOMEM;
	l->v = 0;
	l->stop = 0;
	l->err = 0;
	e.l = l;
	/* a block of warm-up, then the timed ones */
	e.total = (unsigned long)rounds * (LINE_RTT_BLOCKS + 1);
	ret = pin(pthread_self(), a);
	if (ret)
		goto out_restore;
	ret = -pthread_create(&t, NULL, echo, &e);
	if (ret)
		goto out_restore;
	for (k = 0; k <= LINE_RTT_BLOCKS && !ret; k++) {
		__u64 t0 = mono_ns();

		for (i = 0; i < rounds && !ret; i++, seq += 2)
			ret = ping(l, seq);
		if (k)
			block[k - 1] = (double)(mono_ns() - t0) / rounds;
	}
	__atomic_store_n(&l->stop, 1, __ATOMIC_RELAXED);
	pthread_join(t, NULL);
	if (l->err)	/* B could not pin: whatever A saw */
		ret = l->err;
	if (!ret)	/* what interrupts a block only lengthens it */
		for (*ns = block[0], k = 1; k < LINE_RTT_BLOCKS; k++)
			*ns = fmin(*ns, block[k]);
out_restore:
	if (sched_setaffinity(0, sizeof(saved), &saved) && !ret)
		ret = -errno;
	free(l);
	return ret;
}

double line_rtt_take(int a, int b, const char *tool, const char *when)
{
	double ns;
	int ret = line_rtt(a, b, LINE_RTT_ROUNDS, &ns);

	if (!ret)
		return ns;
	if (tool)
		fprintf(stderr, "%s: line round trip CPU %d-%d %s: %s\n", tool,
			a, b, when, strerror(-ret));
	return NAN;
}

bool line_rtt_moved(double before, double after, double max_change)
{
	double lo = fmin(before, after), hi = fmax(before, after);

	if (isnan(before) || isnan(after) || lo <= 0)
		return false;
	return hi / lo - 1 > max_change;
}
