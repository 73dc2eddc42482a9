// SPDX-License-Identifier: GPL-2.0
/*
 * Sampling profiles of measured windows.  See profile.h.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>

#include "cli.h"
#include "flamegraph.h"
#include "json.h"
#include "profile.h"
#include "err.h"
#include "esc.h"

#define MAX_CPUS	64
#define MAX_FRAMES	128
#define FOLD_LEN	8192
#define COMM_SLOTS	256

/* Counts by string: open addressing, FNV-1a */
struct smap_ent {
	char *key;
	__u64 n;
};

struct smap {
	struct smap_ent *e;
	size_t cap, len;
};

static __u64 fnv(const char *s)
{
	__u64 h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

static int smap_grow(struct smap *m)
{
	size_t cap = m->cap ? m->cap * 2 : 256, i, k;
	struct smap_ent *e = calloc(cap, sizeof(*e));

	if (!e)
		return -ENOMEM;
	for (i = 0; i < m->cap; i++) {
		if (!m->e[i].key)
			continue;
		for (k = fnv(m->e[i].key) & (cap - 1); e[k].key;
		     k = (k + 1) & (cap - 1))
			;
		e[k] = m->e[i];
	}
	free(m->e);
	m->e = e;
	m->cap = cap;
	return 0;
}

static int smap_add(struct smap *m, const char *key, __u64 n)
{
	size_t k;

	if ((m->len + 1) * 2 > m->cap && smap_grow(m))
		return -ENOMEM;
	for (k = fnv(key) & (m->cap - 1); m->e[k].key;
	     k = (k + 1) & (m->cap - 1)) {
		if (!strcmp(m->e[k].key, key)) {
			m->e[k].n += n;
			return 0;
		}
	}
	m->e[k].key = strdup(key);
	if (!m->e[k].key)
		return -ENOMEM;
	m->e[k].n = n;
	m->len++;
	return 0;
}

static void smap_free(struct smap *m)
{
	size_t i;

	for (i = 0; i < m->cap; i++)
		free(m->e[i].key);
	free(m->e);
	memset(m, 0, sizeof(*m));
}

/* The occupied entries, in an array the caller frees */
static struct smap_ent *smap_list(const struct smap *m)
{
	struct smap_ent *l = calloc(m->len + 1, sizeof(*l));
	size_t i, n = 0;

	if (!l)
		return NULL;
	for (i = 0; i < m->cap; i++)
		if (m->e[i].key)
			l[n++] = m->e[i];
	return l;
}

struct prof_data {
	struct smap stacks;	/* folded stack -> samples */
	struct smap rx_self;	/* leaf symbol -> samples, receive path */
	struct prof_counts c;
	bool whole_cpu;		/* prof_data_new_cpu(): every sample is "rx" */
};

/* /proc/kallsyms' text symbols, by address */
struct ksym {
	__u64 addr;
	const char *name;
};

struct prof {
	int fd[MAX_CPUS];
	void *ring[MAX_CPUS];
	size_t ring_len;	/* data part, bytes; a power of two */
	size_t page;
	int ncpus;
	bool hw;
	unsigned int freq;
	int jit_kallsyms_was;	/* -1: left as it was */
	bool syms_hidden;
	char note[256];
	struct ksym *syms;
	size_t nsyms;
	char *names;		/* the symbols' names, one after another */
	/* task names by pid, for the root frame */
	struct comm_slot {
		__u32 pid;
		char name[64];
	} comm[COMM_SLOTS];
	char *rec;		/* one record, when it wraps */
	__u64 until_ns;		/* samples after it are dropped; 0: none */
};

static int sysctl_read(const char *path)
{
	FILE *f = fopen(path, "re");
	int v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static int sysctl_write(const char *path, int v)
{
	FILE *f = fopen(path, "we");
	int ret = 0;

	if (!f)
		return -errno;
	if (fprintf(f, "%d\n", v) < 0)
		ret = -EIO;
	if (fclose(f))
		ret = -errno;
	return ret;
}

#define JIT_KALLSYMS	"/proc/sys/net/core/bpf_jit_kallsyms"
#define KPTR_RESTRICT	"/proc/sys/kernel/kptr_restrict"

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Read /proc/kallsyms again: BPF programs come and go */
static int ksyms_load(struct prof *p)
{
	size_t cap = 0, ncap = 0, nlen = 0, n = 0, i;
	char line[512], name[256], type;
	unsigned long long addr;
	bool nonzero = false;
	FILE *f;

	free(p->syms);
	free(p->names);
	p->syms = NULL;
	p->names = NULL;
	p->nsyms = 0;
	f = fopen("/proc/kallsyms", "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		size_t l;

		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3)
			continue;
		if (addr)
			nonzero = true;
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		l = strlen(name) + 1;
		if (n == cap) {
			struct ksym *s;

			cap = cap ? cap * 2 : 65536;
			s = realloc(p->syms, cap * sizeof(*s));
			if (!s)
				goto oom;
			p->syms = s;
		}
		if (nlen + l > ncap) {
			char *s;

			ncap = ncap ? ncap * 2 : 1 << 21;
			s = realloc(p->names, ncap);
			if (!s)
				goto oom;
			p->names = s;
		}
		memcpy(p->names + nlen, name, l);
		p->syms[n].addr = addr;
		/* an offset for now: names may move */
		p->syms[n].name = (const char *)(uintptr_t)nlen;
		nlen += l;
		n++;
	}
	fclose(f);
	for (i = 0; i < n; i++)
		p->syms[i].name = p->names + (uintptr_t)p->syms[i].name;
	qsort(p->syms, n, sizeof(*p->syms), ksym_cmp);
	p->nsyms = n;
	p->syms_hidden = !nonzero;
	return 0;
oom:
	fclose(f);
	return -ENOMEM;
}

static const char *ksym_name(const struct prof *p, __u64 ip)
{
	size_t lo = 0, hi = p->nsyms;

	if (p->syms_hidden || !p->nsyms || ip < p->syms[0].addr)
		return "[unknown]";
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->syms[mid].addr <= ip)
			lo = mid;
		else
			hi = mid;
	}
	return p->syms[lo].name;
}

/* The task's name, as perf shows it; ';' and ' ' would break the format */
static void task_name(struct prof *p, __u32 pid, char *buf, size_t len)
{
	struct comm_slot *c = &p->comm[pid % COMM_SLOTS];
	char path[64];
	size_t i;
	FILE *f;

	if (!pid) {
		snprintf(buf, len, "swapper");
		return;
	}
	if (c->pid == pid) {
		snprintf(buf, len, "%s", c->name);
		return;
	}
	snprintf(path, sizeof(path), "/proc/%u/comm", pid);
	f = fopen(path, "re");
	if (!f || !fgets(buf, len, f))
		snprintf(buf, len, "pid-%u", pid);
	if (f)
		fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	for (i = 0; buf[i]; i++)
		if (buf[i] == ';' || buf[i] == ' ')
			buf[i] = '_';
	c->pid = pid;
	snprintf(c->name, sizeof(c->name), "%s", buf);
}

static int perf_open(struct perf_event_attr *a, int cpu)
{
	return syscall(__NR_perf_event_open, a, -1, cpu, -1,
		       PERF_FLAG_FD_CLOEXEC);
}

static void attr_init(struct perf_event_attr *a, bool hw, unsigned int freq)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	if (hw) {
		a->type = PERF_TYPE_HARDWARE;
		a->config = PERF_COUNT_HW_CPU_CYCLES;
		a->freq = 1;
		a->sample_freq = freq;
	} else {
		a->type = PERF_TYPE_SOFTWARE;
		a->config = PERF_COUNT_SW_CPU_CLOCK;
		a->sample_period = 1000000000ULL / freq;	/* ns */
	}
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			 PERF_SAMPLE_CALLCHAIN;
	/* the tools' clock (mono_ns()): prof_collect_until() */
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC_RAW;
	a->disabled = 1;
	a->exclude_callchain_user = 1;
	a->exclude_hv = 1;
	a->sample_max_stack = MAX_FRAMES - 1;
}

int prof_open(struct prof **pp, double window_s, char err[ERR_LEN])
{
	struct perf_event_attr a;
	size_t want, pages = 64;
	struct prof *p;
	int cpu, ret, v;

	*pp = NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return err_set(err, -ENOMEM, "out of memory");
	for (cpu = 0; cpu < MAX_CPUS; cpu++)
		p->fd[cpu] = -1;
	p->jit_kallsyms_was = -1;
	p->freq = PROF_FREQ_HZ;
	p->page = sysconf(_SC_PAGESIZE);
	p->rec = malloc(65536);
	p->ncpus = sysconf(_SC_NPROCESSORS_CONF);
	if (p->ncpus > MAX_CPUS)
		p->ncpus = MAX_CPUS;
	if (!p->rec) {
		ret = err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	/* about 300 bytes a sample; twice that, for the window and more */
	want = (size_t)(window_s * p->freq * 600) + 1;
	while (pages * p->page < want && pages < 16384)
		pages *= 2;
	p->ring_len = pages * p->page;

	/* BPF programs loaded from now on get their kallsyms entry */
	v = sysctl_read(JIT_KALLSYMS);
	if (v == 0) {
		ret = sysctl_write(JIT_KALLSYMS, 1);
		if (ret) {
			ret = err_set(err, ret, "%s is 0 and cannot be set to 1 for the run",
				       JIT_KALLSYMS);
			goto out;
		}
		p->jit_kallsyms_was = 0;
	}

	p->hw = true;
	attr_init(&a, true, p->freq);
	for (cpu = 0; cpu < p->ncpus; cpu++) {
		p->fd[cpu] = perf_open(&a, cpu);
		if (p->fd[cpu] >= 0 || errno == ENODEV || errno == EINVAL)
			continue;	/* offline CPU */
		break;
	}
	if (cpu < p->ncpus || p->fd[0] < 0) {
		/* no PMU (ENOENT, EOPNOTSUPP): the software clock */
		for (cpu = 0; cpu < p->ncpus; cpu++) {
			if (p->fd[cpu] >= 0)
				close(p->fd[cpu]);
			p->fd[cpu] = -1;
		}
		p->hw = false;
		attr_init(&a, false, p->freq);
		for (cpu = 0; cpu < p->ncpus; cpu++) {
			p->fd[cpu] = perf_open(&a, cpu);
			if (p->fd[cpu] < 0 && errno != ENODEV) {
				ret = err_set(err, -errno, "perf_event_open(cpu-clock, CPU %d)",
					       cpu);
				goto out;
			}
		}
	}
	for (cpu = 0; cpu < p->ncpus; cpu++) {
		if (p->fd[cpu] < 0)
			continue;
		p->ring[cpu] = mmap(NULL, p->page + p->ring_len,
				    PROT_READ | PROT_WRITE, MAP_SHARED,
				    p->fd[cpu], 0);
		if (p->ring[cpu] == MAP_FAILED) {
			p->ring[cpu] = NULL;
			ret = err_set(err, -errno, "mmap of the perf ring (CPU %d, %zu KB)",
				       cpu, (p->page + p->ring_len) / 1024);
			goto out;
		}
	}
	ret = ksyms_load(p);
	if (ret) {
		ret = err_set(err, ret, "/proc/kallsyms");
		goto out;
	}
	v = sysctl_read(KPTR_RESTRICT);
	if (p->syms_hidden)
		snprintf(p->note, sizeof(p->note),
			 "kernel symbols are hidden (kernel.kptr_restrict = %d): every frame is [unknown]",
			 v);
	else if (p->jit_kallsyms_was == 0)
		snprintf(p->note, sizeof(p->note),
			 "net.core.bpf_jit_kallsyms was 0: set to 1 for the run, so that BPF programs have names");
	if (!p->hw) {
		size_t l = strlen(p->note);

		snprintf(p->note + l, sizeof(p->note) - l,
			 "%sno hardware PMU: software cpu-clock sampling (hrtimer; samples land where interrupts are enabled)",
			 l ? "; " : "");
	}
	*pp = p;
	return 0;
out:
	prof_close(p);
	return ret;
}

void prof_close(struct prof *p)
{
	int cpu;

	if (!p)
		return;
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		if (p->ring[cpu])
			munmap(p->ring[cpu], p->page + p->ring_len);
		if (p->fd[cpu] >= 0)
			close(p->fd[cpu]);
	}
	if (p->jit_kallsyms_was >= 0)
		sysctl_write(JIT_KALLSYMS, p->jit_kallsyms_was);
	free(p->syms);
	free(p->names);
	free(p->rec);
	free(p);
}

const char *prof_event(const struct prof *p)
{
	return p->hw ? "cycles" : "cpu-clock";
}

unsigned int prof_freq(const struct prof *p)
{
	return p->freq;
}

const char *prof_note(const struct prof *p)
{
	return p->note[0] ? p->note : NULL;
}

static void ring_drop(struct prof *p, int cpu)
{
	struct perf_event_mmap_page *m = p->ring[cpu];
	__u64 head = __atomic_load_n(&m->data_head, __ATOMIC_ACQUIRE);

	__atomic_store_n(&m->data_tail, head, __ATOMIC_RELEASE);
}

int prof_enable(struct prof *p)
{
	int cpu;

	for (cpu = 0; cpu < p->ncpus; cpu++) {
		if (p->fd[cpu] < 0)
			continue;
		ring_drop(p, cpu);
		if (ioctl(p->fd[cpu], PERF_EVENT_IOC_ENABLE, 0))
			return -errno;
	}
	return 0;
}

int prof_disable(struct prof *p)
{
	int cpu, ret = 0;

	for (cpu = 0; cpu < p->ncpus; cpu++)
		if (p->fd[cpu] >= 0 &&
		    ioctl(p->fd[cpu], PERF_EVENT_IOC_DISABLE, 0))
			ret = -errno;
	return ret;
}

static bool in_rx_path(const char *sym)
{
	return !strcmp(sym, "net_rx_action") ||
	       !strcmp(sym, "napi_threaded_poll") ||
	       !strcmp(sym, "napi_threaded_poll_loop");
}

/* One PERF_RECORD_SAMPLE: ip, pid/tid, time, nr, ips[nr] */
static int take_sample(struct prof *p, const __u64 *rec, size_t words,
		       struct prof_data *d)
{
	const char *frames[MAX_FRAMES];
	char fold[FOLD_LEN], comm[64];
	const __u64 *ips = rec + 4;
	__u64 ip = rec[0], nr = rec[3];
	__u32 pid = rec[1] & 0xffffffff;
	bool rx = false, user = false;
	size_t n = 0, len, i;
	int ret;

	if (words < 4 || nr > words - 4)
		return 0;
	if (p->until_ns && rec[2] > p->until_ns)
		return 0;
	for (i = 0; i < nr && n < MAX_FRAMES - 1; i++) {
		if (ips[i] >= PERF_CONTEXT_MAX) {
			if (ips[i] == PERF_CONTEXT_USER)
				user = true;
			continue;
		}
		if (user)
			break;
		frames[n] = ksym_name(p, ips[i]);
		rx = rx || in_rx_path(frames[n]);
		n++;
	}
	if (!n) {
		/* a user-mode sample: its callchain is not taken */
		frames[n++] = ip >= 0xffff800000000000ULL ? ksym_name(p, ip) :
							     "[user]";
	}
	task_name(p, pid, comm, sizeof(comm));
	len = snprintf(fold, sizeof(fold), "%s", comm);
	for (i = n; i-- > 0 && len < sizeof(fold) - 1;)
		len += snprintf(fold + len, sizeof(fold) - len, ";%s",
				frames[i]);
	ret = smap_add(&d->stacks, fold, 1);
	d->c.samples++;
	if ((rx || d->whole_cpu) && !ret) {
		d->c.rx_samples++;
		ret = smap_add(&d->rx_self, frames[0], 1);
	}
	return ret;
}

/* The CPU's ring into each of ds[0..nd) */
static int drain(struct prof *p, int cpu, struct prof_data **ds, int nd,
		 __u64 *taken)
{
	struct perf_event_mmap_page *m = p->ring[cpu];
	__u64 head = __atomic_load_n(&m->data_head, __ATOMIC_ACQUIRE);
	__u64 tail = m->data_tail;
	const char *data = (const char *)m + p->page;
	size_t mask = p->ring_len - 1;
	int ret = 0, i;

	while (tail < head && !ret) {
		const struct perf_event_header *h;
		size_t off = tail & mask;
		const char *r = data + off;

		/* a record, or its header, may wrap */
		if (off + sizeof(*h) > p->ring_len ||
		    off + ((const struct perf_event_header *)r)->size >
		    p->ring_len) {
			size_t first = p->ring_len - off, sz;

			memcpy(p->rec, r, first < 8 ? first : 8);
			if (first < 8)
				memcpy(p->rec + first, data, 8 - first);
			sz = ((struct perf_event_header *)p->rec)->size;
			if (sz > 65536 || sz < sizeof(*h))
				break;
			memcpy(p->rec, r, first < sz ? first : sz);
			if (first < sz)
				memcpy(p->rec + first, data, sz - first);
			r = p->rec;
		}
		h = (const struct perf_event_header *)r;
		if (h->size < sizeof(*h))
			break;
		for (i = 0; i < nd && !ret; i++) {
			if (h->type == PERF_RECORD_SAMPLE)
				ret = take_sample(p, (const __u64 *)(h + 1),
						  (h->size - sizeof(*h)) / 8,
						  ds[i]);
			else if (h->type == PERF_RECORD_LOST)
				ds[i]->c.lost += ((const __u64 *)(h + 1))[1];
		}
		if (h->type == PERF_RECORD_SAMPLE)
			(*taken)++;
		tail += h->size;
	}
	__atomic_store_n(&m->data_tail, head, __ATOMIC_RELEASE);
	return ret;
}

int prof_collect_cpus(struct prof *p, int n, const int *cpus,
		      struct prof_data **ds)
{
	struct prof_data *mine[PROF_MAX_COLLECT];
	__u64 taken = 0;
	int c, i, k, ret;

	if (n < 1 || n > PROF_MAX_COLLECT)
		return -EINVAL;
	ret = ksyms_load(p);
	for (c = 0; c < p->ncpus; c++) {
		if (p->fd[c] < 0)
			continue;
		for (i = 0, k = 0; i < n; i++)
			if (cpus[i] == c)
				mine[k++] = ds[i];
		if (k && !ret)
			ret = drain(p, c, mine, k, &taken);
		else
			ring_drop(p, c);
	}
	for (i = 0; i < n; i++) {
		ds[i]->c.windows++;
		ds[i]->c.cpu = cpus[i];
	}
	return ret ? ret : (int)taken;
}

int prof_collect(struct prof *p, int cpu, struct prof_data *d)
{
	return prof_collect_cpus(p, 1, &cpu, &d);
}

void prof_collect_until(struct prof *p, __u64 mono_ns)
{
	p->until_ns = mono_ns;
}

struct prof_data *prof_data_new(void)
{
	struct prof_data *d = calloc(1, sizeof(*d));

	if (d)
		d->c.cpu = -1;
	return d;
}

struct prof_data *prof_data_new_cpu(void)
{
	struct prof_data *d = prof_data_new();

	if (d)
		d->whole_cpu = true;
	return d;
}

void prof_data_free(struct prof_data *d)
{
	if (!d)
		return;
	smap_free(&d->stacks);
	smap_free(&d->rx_self);
	free(d);
}

void prof_data_counts(const struct prof_data *d, struct prof_counts *c)
{
	*c = d->c;
}

static int by_count(const void *a, const void *b)
{
	const struct smap_ent *x = a, *y = b;

	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return strcmp(x->key, y->key);
}

int prof_data_top(const struct prof_data *d, struct prof_sym *top, int max)
{
	struct smap_ent *l = smap_list(&d->rx_self);
	int i, n;

	if (!l)
		return 0;
	qsort(l, d->rx_self.len, sizeof(*l), by_count);
	n = d->rx_self.len < (size_t)max ? (int)d->rx_self.len : max;
	for (i = 0; i < n; i++) {
		top[i].name = l[i].key;
		top[i].samples = l[i].n;
		top[i].share = d->c.rx_samples ?
			       (double)l[i].n / d->c.rx_samples : 0;
	}
	free(l);
	return n;
}

static int by_key(const void *a, const void *b)
{
	return strcmp(((const struct smap_ent *)a)->key,
		      ((const struct smap_ent *)b)->key);
}

int prof_data_write_folded(const struct prof_data *d, const char *path)
{
	struct smap_ent *l = smap_list(&d->stacks);
	int ret = 0;
	size_t i;
	FILE *f;

	if (!l)
		return -ENOMEM;
	qsort(l, d->stacks.len, sizeof(*l), by_key);
	f = cli_open_out(path);
	if (!f) {
		free(l);
		return -errno;
	}
	for (i = 0; i < d->stacks.len; i++)
		fprintf(f, "%s %llu\n", l[i].key, (unsigned long long)l[i].n);
	ret = cli_file_close(f);
	free(l);
	/* a file cut short is no profile: ours, removed */
	if (ret)
		unlink(path);
	return ret;
}

void prof_print(FILE *f, const struct prof *p, const struct prof_data *d,
		double ns_per_pkt, const char *indent)
{
	struct prof_sym top[PROF_TOP];
	const struct prof_counts *c = &d->c;
	int i, n = prof_data_top(d, top, PROF_TOP);

	if (d->whole_cpu)
		fprintf(f, "%s at %u Hz on CPU %d, %llu window%s: %llu samples, all of the CPU's counted\n",
			prof_event(p), p->freq, c->cpu,
			(unsigned long long)c->windows,
			c->windows == 1 ? "" : "s",
			(unsigned long long)c->samples);
	else
		fprintf(f, "%s at %u Hz on CPU %d, %llu window%s: %llu samples, %llu (%.1f%%) in the receive path\n",
			prof_event(p), p->freq, c->cpu,
			(unsigned long long)c->windows,
			c->windows == 1 ? "" : "s",
			(unsigned long long)c->samples,
			(unsigned long long)c->rx_samples,
			c->samples ? 100.0 * c->rx_samples / c->samples : 0);
	if (c->lost)
		fprintf(f, "%sWARNING: %llu samples lost (the ring was full)\n",
			indent, (unsigned long long)c->lost);
	if (prof_note(p))
		fprintf(f, "%snote: %s\n", indent, prof_note(p));
	fprintf(f, "%s%7s %9s  %s\n", indent, "share", "ns/pkt",
		d->whole_cpu ? "symbol (self, all samples)" :
		"symbol (self, in the receive path)");
	for (i = 0; i < n; i++) {
		fprintf(f, "%s%6.1f%% ", indent, 100 * top[i].share);
		if (ns_per_pkt == ns_per_pkt)	/* not NAN */
			fprintf(f, "%9.1f", top[i].share * ns_per_pkt);
		else
			fprintf(f, "%9s", "-");
		fprintf(f, "  %s\n", top[i].name);
	}
	if (!n)
		fprintf(f, "%s(no samples%s)\n", indent,
			d->whole_cpu ? "" : " in the receive path");
}

void prof_json(struct json *j, const struct prof *p,
	       const struct prof_data *d, double ns_per_pkt,
	       const char *folded, const char *svg)
{
	prof_json_key(j, "profile", p, d, ns_per_pkt, folded, svg);
}

void prof_json_key(struct json *j, const char *key, const struct prof *p,
		   const struct prof_data *d, double ns_per_pkt,
		   const char *folded, const char *svg)
{
	struct prof_sym top[PROF_TOP];
	int i, n = prof_data_top(d, top, PROF_TOP);

	json_key(j, key);
	json_begin_object(j);
	if (d->whole_cpu)
		json_kv_string(j, "scope", "cpu");
	json_kv_string(j, "event", prof_event(p));
	json_kv_u64(j, "frequency_hz", p->freq);
	json_kv_s64(j, "cpu", d->c.cpu);
	json_kv_u64(j, "windows", d->c.windows);
	json_kv_u64(j, "samples", d->c.samples);
	json_kv_u64(j, "rx_samples", d->c.rx_samples);
	json_kv_u64(j, "lost", d->c.lost);
	json_kv_string(j, "note", prof_note(p));
	json_key(j, "top");
	json_begin_array(j);
	for (i = 0; i < n; i++) {
		json_begin_object(j);
		json_kv_string(j, "symbol", top[i].name);
		json_kv_u64(j, "samples", top[i].samples);
		json_kv_double(j, "share", top[i].share);
		json_kv_double(j, "ns_per_pkt", top[i].share * ns_per_pkt);
		json_end_object(j);
	}
	json_end_array(j);
	json_kv_string(j, "folded", folded);
	json_kv_string(j, "svg", svg);
	json_end_object(j);
}

int prof_write_files(const struct prof_data *d, const char *prefix,
		     const char *title, char *folded, char *svg, size_t len,
		     char err[ERR_LEN])
{
	int ret;

	if (snprintf(folded, len, "%s.folded", prefix) >= (int)len ||
	    snprintf(svg, len, "%s.svg", prefix) >= (int)len)
		return err_set(err, -ENAMETOOLONG, "the files of prefix %s: more than %zu bytes",
				esc_path(prefix).s, len - 1);
	ret = prof_data_write_folded(d, folded);
	if (ret)
		return err_set(err, ret, "%s", esc_path(folded).s);
	return flamegraph_svg(folded, svg, title, err);
}
