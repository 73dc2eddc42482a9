/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Measurement: CPU time of threads, TSC frequency, placement.
 *
 * Cycles on a machine without a PMU are TSC cycles: ns x TSC GHz, with the
 * TSC frequency measured against CLOCK_MONOTONIC_RAW.  Every output that
 * shows cycles says so.
 */
#ifndef MEASURE_H
#define MEASURE_H

#include <stdint.h>
#include <sys/types.h>

/* CLOCK_MONOTONIC_RAW in ns */
uint64_t mono_ns(void);

/*
 * CLOCK_MONOTONIC in ns: the clock of bpf_ktime_get_ns(), so a stamp a BPF
 * program wrote and this read compare on any CPU
 */
uint64_t ktime_ns(void);

/*
 * The TSC, unserialized (rdtsc: some 20-40 cycles, no syscall, not trapped
 * here); 0 where there is none
 */
static inline uint64_t tsc_read(void)
{
#if defined(__x86_64__) || defined(__i386__)
	uint32_t lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
#else
	return 0;
#endif
}

/* A spin-wait's pause: the CPU's hint that this is one (the kernel's) */
static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__asm__ __volatile__("pause" ::: "memory");
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#endif
}

/* TSC frequency in GHz, measured over ms milliseconds; 0 when no TSC */
double tsc_ghz_measure(unsigned int ms);

/* Time a task (ours or not) spent on a CPU, from /proc/TID/schedstat (ns) */
int thread_cpu_ns(pid_t tid, uint64_t *ns);

/* The CPU a task last ran on, from /proc/TID/stat; -1 if unknown */
int thread_last_cpu(pid_t tid);

/* Pin the calling thread to one CPU */
int pin_self(int cpu);

/* Threads by name, from /proc: whose CPU time a measurement names */
#define PROC_COMM_LEN	16
#define PROC_MAX_CPUS	64	/* ksoftirqd threads looked for */

/*
 * The processes whose name (/proc/PID/comm) starts with prefix, kernel
 * threads included: at most max of their pids into pids[], and their
 * names into comms[] unless NULL.  Returns how many.
 */
int proc_threads(const char *prefix, pid_t *pids, char (*comms)[PROC_COMM_LEN],
		 int max);

/*
 * Each CPU's ksoftirqd thread: tids[cpu] for cpu 0..ncpus-1 (0 where none
 * was found).  Returns how many were found.
 */
int ksoftirqd_tids(pid_t *tids, int ncpus);

#endif /* MEASURE_H */
