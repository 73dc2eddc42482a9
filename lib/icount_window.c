// SPDX-License-Identifier: GPL-2.0
/*
 * Window marks for the QEMU plugin (icount_window.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "icount_window.h"

static __u32 windows;

__u64 icount_window_start(void)
{
	__u64 id = (__u64)getpid() << 32 | ++windows;

#if defined(__x86_64__)
	/* xchg %rcx,%rcx */
	asm volatile(".byte 0x48, 0x87, 0xc9" : : "a"(id) : "memory");
#endif
	return id;
}

/* The lines of /proc/kallsyms whose module is [bpf], into DIR/bpf-ID.syms */
static void write_bpf_syms(const char *dir, __u64 id)
{
	char path[4096], line[512];
	FILE *in, *out;

	snprintf(path, sizeof(path), "%s/bpf-%llu.syms", dir,
		 (unsigned long long)id);
	in = fopen("/proc/kallsyms", "r");
	if (!in)
		return;
	out = fopen(path, "w");
	if (!out) {
		fclose(in);
		return;
	}
	while (fgets(line, sizeof(line), in))
		if (strstr(line, "\t[bpf]"))
			fputs(line, out);
	fclose(out);
	fclose(in);
}

void icount_window_stop(__u64 id)
{
	const char *dir = getenv("XDP_COST_WINDOW_DIR");

#if defined(__x86_64__)
	/* xchg %rdx,%rdx */
	asm volatile(".byte 0x48, 0x87, 0xd2" : : "a"(id) : "memory");
#endif
	if (dir && *dir)
		write_bpf_syms(dir, id);
}
