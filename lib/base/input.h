/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An input file, read without waiting for ever (xdp_compare's results
 * through lib/base/json_read.c, xdp_peers' records): the one reader of both.
 *
 * The file is opened without blocking (a FIFO with no writer would block
 * open() until one comes).  A regular file is read as usual; anything else
 * (a pipe, a FIFO, process substitution's /dev/fd/N, a terminal) as its
 * data comes, and a wait for more data that lasts wait_s seconds ends the
 * reading: "no data within N s".  A FIFO with no writer reads as empty.
 * At most max bytes are read: a regular file that is larger is refused
 * before a byte is read, another source once one byte more has come.  A
 * directory is refused at the open.
 *
 * Errors go to the caller's buffer (ERR_LEN, lib/base/err.h) as "PATH: what",
 * the path escaped and shortened in the middle (lib/base/esc.h), so that what
 * was wrong always shows:
 *
 *   PATH: No such file or directory
 *   PATH: is a directory, not a file
 *   PATH: no data within 10 s
 *   PATH: larger than the input limit of 1024 bytes
 */
#ifndef INPUT_H
#define INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "err.h"
#include "esc.h"

#define INPUT_WAIT_S	10	/* the tools' longest wait for a pipe's data */

struct input {
	FILE *f;		/* what the caller reads */
	/* input.c's */
	int fd;
	unsigned int wait_s;
	size_t max;
	size_t len;		/* bytes read */
	int err;		/* what ended the reading early; 0: the end */
	char path[ESC_PATH];	/* escaped, for the messages */
};

/* 0, or -errno said in err; in must stay where it is until input_close() */
int input_open(struct input *in, const char *path, size_t max,
	       unsigned int wait_s, char err[ERR_LEN]);

/*
 * Close it: 0, or what ended the reading before the end, said in err
 * (-ETIMEDOUT: no data within wait_s; -EFBIG: over max; -errno)
 */
int input_close(struct input *in, char err[ERR_LEN]);

#endif /* INPUT_H */
