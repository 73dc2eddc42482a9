// SPDX-License-Identifier: GPL-2.0
/*
 * Window marks for the QEMU plugin (icount_window.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "icount_window.h"

static __u32 windows;
static volatile __u64 open_window;	/* 0: none */

__u64 icount_window_start(void)
{
	__u64 id = (__u64)getpid() << 32 | ++windows;

#if defined(__x86_64__)
	/* xchg %rcx,%rcx */
	asm volatile(".byte 0x48, 0x87, 0xc9" : : "a"(id) : "memory");
#endif
	open_window = id;
	return id;
}

static FILE *syms_file(__u64 id)
{
	const char *dir = getenv("XDP_COST_WINDOW_DIR");
	char path[4096];

	if (!dir || !*dir || !id)
		return NULL;
	snprintf(path, sizeof(path), "%s/bpf-%llu.syms", dir,
		 (unsigned long long)id);
	return fopen(path, "a");
}

void icount_window_note_prog(int prog_fd)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info), i;
	__u64 addr = 0;
	FILE *f;

	f = syms_file(open_window);
	if (!f)
		return;
	info.nr_jited_ksyms = 1;
	info.jited_ksyms = (__u64)(unsigned long)&addr;
	if (!bpf_obj_get_info_by_fd(prog_fd, &info, &len) && addr) {
		fprintf(f, "%016llx t bpf_prog_", (unsigned long long)addr);
		for (i = 0; i < BPF_TAG_SIZE; i++)
			fprintf(f, "%02x", info.tag[i]);
		fprintf(f, "_%s\t[bpf]\n", info.name);
	}
	fclose(f);
}

/* The lines of /proc/kallsyms whose module is [bpf], onto DIR/bpf-ID.syms */
static void write_bpf_syms(__u64 id)
{
	char line[512];
	FILE *in, *out;

	out = syms_file(id);
	if (!out)
		return;
	in = fopen("/proc/kallsyms", "r");
	if (!in) {
		fclose(out);
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
#if defined(__x86_64__)
	/* xchg %rdx,%rdx */
	asm volatile(".byte 0x48, 0x87, 0xd2" : : "a"(id) : "memory");
#endif
	open_window = 0;
	write_bpf_syms(id);
}
