// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <strings.h>
#include <linux/bpf.h>

#include "xdp_action_name.h"

static const char * const action_names[] = {
	[XDP_ABORTED] = "XDP_ABORTED", [XDP_DROP] = "XDP_DROP",
	[XDP_PASS] = "XDP_PASS", [XDP_TX] = "XDP_TX",
	[XDP_REDIRECT] = "XDP_REDIRECT",
};

const char *xdp_action_name(__u32 action)
{
	return action <= XDP_REDIRECT ? action_names[action] : "XDP_?";
}

int xdp_action_parse(const char *name, __u32 *action)
{
	__u32 i;

	for (i = 0; i <= XDP_REDIRECT; i++) {
		if (!strcasecmp(name, action_names[i]) ||
		    !strcasecmp(name, action_names[i] + 4)) {
			*action = i;
			return 0;
		}
	}
	return -EINVAL;
}
