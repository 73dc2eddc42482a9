/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XDP actions by name, as every tool and result says them: "XDP_DROP";
 * parsed with or without the "XDP_" prefix, in any case.
 */
#ifndef XDP_ACTION_NAME_H
#define XDP_ACTION_NAME_H

#include <linux/types.h>

/* "XDP_ABORTED" .. "XDP_REDIRECT"; "XDP_?" for another number */
const char *xdp_action_name(__u32 action);
/* 0 and *action, or -EINVAL */
int xdp_action_parse(const char *name, __u32 *action);

#endif /* XDP_ACTION_NAME_H */
