// SPDX-License-Identifier: GPL-2.0
/*
 * An input file, a pipe's data waited for with a bound (input.h): a stdio
 * stream over the descriptor (fopencookie()) whose reads poll() when there
 * is nothing to read yet
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "cli.h"
#include "err.h"
#include "input.h"

static ssize_t failed(struct input *in, int err)
{
	in->err = err;
	errno = -err;
	return -1;
}

/* Up to len bytes, and one past the limit to see that it is passed */
static ssize_t input_read(void *cookie, char *buf, size_t len)
{
	struct input *in = cookie;
	struct pollfd pfd = { .fd = in->fd, .events = POLLIN };
	ssize_t n;
	int ret;

	if (in->err)
		return failed(in, in->err);
	if (len > in->max - in->len + 1)
		len = in->max - in->len + 1;
	for (;;) {
		n = read(in->fd, buf, len);
		if (n >= 0)
			break;
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN)
			return failed(in, -errno);
		ret = poll(&pfd, 1, in->wait_s * 1000);
		if (ret < 0 && errno != EINTR)
			return failed(in, -errno);
		if (!ret)
			return failed(in, -ETIMEDOUT);
	}
	in->len += n;
	return in->len > in->max ? failed(in, -EFBIG) : n;
}

/* What ended the reading, or the open, as "PATH: what" */
static int said(const struct input *in, int ret, char err[ERR_LEN])
{
	if (ret == -EISDIR)
		return err_wrap(err, ret, "%s: is a directory, not a file",
				in->path);
	if (ret == -ETIMEDOUT)
		return err_wrap(err, ret, "%s: no data within %u s", in->path,
				in->wait_s);
	if (ret == -EFBIG)
		return err_wrap(err, ret, "%s: larger than the input limit of %zu bytes",
				in->path, in->max);
	/* the errno's text, said here where it was seen */
	return err_wrap(err, ret, "%s: %s", in->path, strerror(-ret));
}

int input_open(struct input *in, const char *path, size_t max,
	       unsigned int wait_s, char err[ERR_LEN])
{
	static const cookie_io_functions_t io = { .read = input_read };
	struct stat st;
	int ret = 0;

	memset(in, 0, sizeof(*in));
	esc_into(in->path, sizeof(in->path), path);
	in->max = max;
	in->wait_s = wait_s;
	/* a standard stream closed at start is closed by any name */
	if (cli_names_closed_std(path)) {
		in->fd = -1;
		return said(in, -EBADF, err);
	}
	in->fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (in->fd < 0)
		return said(in, -errno, err);
	if (fstat(in->fd, &st))
		ret = -errno;
	else if (S_ISDIR(st.st_mode))
		ret = -EISDIR;
	else if (S_ISREG(st.st_mode) && (size_t)st.st_size > max)
		ret = -EFBIG;
	else if (!(in->f = fopencookie(in, "r", io)))
		ret = -errno;
	if (!ret)
		return 0;
	close(in->fd);
	return said(in, ret, err);
}

int input_close(struct input *in, char err[ERR_LEN])
{
	fclose(in->f);
	close(in->fd);
	return in->err ? said(in, in->err, err) : 0;
}
