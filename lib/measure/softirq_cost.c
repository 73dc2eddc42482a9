// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "softirq_cost.h"
#include "softirq_cost_common.h"
#include "measure.h"
#include "softirq_cost.skel.h"
#include "err.h"

struct sirq {
	struct softirq_cost_bpf *skel;
	int ncpus;		/* possible CPUs */
	struct sirq_cpu *buf;
	struct sirq_state *state;	/* per CPU: start 0, its ksoftirqd */
	__u32 ids[2];
};

static __u32 prog_id(struct bpf_program *p)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(bpf_program__fd(p), &info, &len))
		return 0;
	return info.id;
}

/*
 * Each CPU's ksoftirqd tid, found once, into the programs' per-CPU state,
 * for the exit program's "another process's traffic" test
 */
static int ksoftirqd_find(struct sirq *s, char err[ERR_LEN])
{
	pid_t tids[PROC_MAX_CPUS];
	int i, n = s->ncpus < PROC_MAX_CPUS ? s->ncpus : PROC_MAX_CPUS;

	s->state = calloc(s->ncpus, sizeof(*s->state));
	if (!s->state)
		return err_set(err, -ENOMEM, "out of memory");
	if (!ksoftirqd_tids(tids, n))
		return err_set(err, -ENOENT, "no ksoftirqd thread in /proc");
	for (i = 0; i < n; i++)
		s->state[i].ksoftirqd = tids[i];
	return 0;
}

/* The programs' per-CPU state: no start time, and each CPU's ksoftirqd */
static int state_write(struct sirq *s, char err[ERR_LEN])
{
	__u32 key = 0;

	if (bpf_map__update_elem(s->skel->maps.state, &key, sizeof(key),
				 s->state, s->ncpus * sizeof(*s->state), 0))
		return err_set(err, -errno, "writing the softirq programs' state");
	return 0;
}

int sirq_open(struct sirq **sp, char err[ERR_LEN])
{
	struct sirq *s;
	int ret;

	*sp = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return err_set(err, -ENOMEM, "out of memory");
	s->ncpus = libbpf_num_possible_cpus();
	if (s->ncpus <= 0) {
		ret = s->ncpus ? s->ncpus : -EINVAL;
		free(s);
		return err_set(err, ret, "cannot count the possible CPUs");
	}
	s->buf = calloc(s->ncpus, sizeof(*s->buf));
	s->skel = softirq_cost_bpf__open();
	if (!s->buf || !s->skel) {
		ret = s->buf ? -errno : -ENOMEM;
		sirq_close(s);
		return err_set(err, ret, "opening the softirq programs");
	}
	s->skel->rodata->own_tgid = getpid();
	ret = softirq_cost_bpf__load(s->skel);
	if (ret) {
		sirq_close(s);
		return err_set(err, ret,
				"loading the softirq programs failed: root and CONFIG_BPF_EVENTS are needed");
	}
	ret = ksoftirqd_find(s, err);
	if (!ret)
		ret = state_write(s, err);
	if (ret) {
		sirq_close(s);
		return ret;
	}
	ret = softirq_cost_bpf__attach(s->skel);
	if (ret) {
		sirq_close(s);
		return err_set(err, ret,
				"attaching to the irq:softirq_entry/exit raw tracepoints");
	}
	s->ids[0] = prog_id(s->skel->progs.sirq_entry);
	s->ids[1] = prog_id(s->skel->progs.sirq_exit);
	*sp = s;
	return 0;
}

int sirq_read(struct sirq *s, struct sirq_cpu *cpus, int ncpus)
{
	__u32 key = 0;
	int i;

	if (bpf_map__lookup_elem(s->skel->maps.acc, &key, sizeof(key), s->buf,
				 s->ncpus * sizeof(*s->buf), 0))
		return -errno;
	for (i = 0; i < ncpus; i++) {
		if (i < s->ncpus)
			cpus[i] = s->buf[i];
		else
			memset(&cpus[i], 0, sizeof(cpus[i]));
	}
	return s->ncpus;
}

int sirq_attach(struct sirq *s, bool on, char err[ERR_LEN])
{
	int ret;

	softirq_cost_bpf__detach(s->skel);
	if (!on)
		return 0;
	/* a start left by a softirq the detach cut in two is not counted */
	ret = state_write(s, err);
	if (ret)
		return ret;
	ret = softirq_cost_bpf__attach(s->skel);
	if (ret)
		return err_set(err, ret,
			       "attaching to the irq:softirq_entry/exit raw tracepoints");
	return 0;
}

void sirq_prog_ids(const struct sirq *s, __u32 ids[2])
{
	ids[0] = s->ids[0];
	ids[1] = s->ids[1];
}

void sirq_close(struct sirq *s)
{
	if (!s)
		return;
	softirq_cost_bpf__destroy(s->skel);
	free(s->state);
	free(s->buf);
	free(s);
}

void sirq_watch(struct sirq *s, pid_t tid)
{
	s->skel->bss->watch_tid = tid;
}

static struct sirq *shared_sirq;
static unsigned int shared_sirq_refs;

int sirq_get(struct sirq **s, char err[ERR_LEN])
{
	if (!shared_sirq) {
		int ret = sirq_open(&shared_sirq, err);

		if (ret)
			return ret;
	}
	shared_sirq_refs++;
	*s = shared_sirq;
	return 0;
}

void sirq_put(struct sirq *s)
{
	if (!s || --shared_sirq_refs)
		return;
	sirq_close(shared_sirq);
	shared_sirq = NULL;
}
