// SPDX-License-Identifier: GPL-2.0
/*
 * The sweep's plan: the matrix of points a configuration asks for, and the
 * summary of a point's runs (lib/sweep/sweep.h)
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "esc.h"
#include "profile.h"
#include "sweep.h"

const struct sweep_stack sweep_stacks[SWEEP_NR_STACKS] = {
	[SWEEP_STK_AF_XDP_NATIVE] = { "af_xdp", "native", "AF_XDP",
				      &sweep_be_af_xdp, AFP_AUTO,
				      XSK_MODE_NATIVE },
	[SWEEP_STK_AF_XDP_GENERIC] = { "af_xdp", "generic", "AF_XDP",
				       &sweep_be_af_xdp, AFP_AUTO,
				       XSK_MODE_GENERIC },
	[SWEEP_STK_TPACKET_V3] = { "tpacket_v3", NULL, "TPACKET_V3",
				   &sweep_be_af_packet, AFP_TPACKET_V3, 0 },
	[SWEEP_STK_TPACKET_V2] = { "tpacket_v2", NULL, "TPACKET_V2",
				   &sweep_be_af_packet, AFP_TPACKET_V2, 0 },
	[SWEEP_STK_RECVMMSG] = { "recvmmsg", NULL, "recvmmsg",
				 &sweep_be_af_packet, AFP_RECVMMSG, 0 },
	[SWEEP_STK_AF_XDP_ZC] = { "af_xdp", "native-with-zerocopy", "AF_XDP",
				  &sweep_be_af_xdp, AFP_AUTO,
				  XSK_MODE_NATIVE_ZC },
};

const char *sweep_mode_name(bool skb)
{
	return skb ? "generic" : "native";
}

const char *sweep_point_name(const struct sweep_point *p)
{
	return p->stk ? p->stk->label : xdp_action_name(p->action);
}

const char *sweep_point_mode(const struct sweep_point *p)
{
	return p->stk ? p->stk->mode ?: "-" : sweep_mode_name(p->skb_mode);
}

const char *sweep_run_why(const struct sweep_point *p,
			  const struct sweep_run *r)
{
	if (r->err[0])
		return r->err;
	if (p->err[0])
		return p->err;
	return "not run: the sweep was stopped before it";
}

/* What follows the size in a progress line: the flows, or "rxdrop" */
const char *sweep_point_tag(const struct sweep_point *p, char *buf, size_t len)
{
	if (p->stk)
		snprintf(buf, len, "rxdrop");
	else
		snprintf(buf, len, "%4u fl", p->flows);
	return buf;
}

unsigned int sweep_stack_sizes(const struct sweep_cfg *c)
{
	unsigned int z, n = 0;

	for (z = 0; z < c->sizes.n; z++)
		n += c->sizes.v[z] <= SWEEP_STACK_MAX_SIZE;
	return n;
}

static void plan_xdp(const struct sweep_cfg *c, struct sweep_point *p)
{
	unsigned int a, m, z, fl;

	for (a = 0; a < c->actions.n; a++)
		for (m = 0; m < c->modes.n; m++)
			for (z = 0; z < c->sizes.n; z++)
				for (fl = 0; fl < c->flows.n; fl++, p++) {
					p->be = &sweep_be_xdp;
					p->action = c->actions.v[a];
					p->skb_mode = c->modes.v[m];
					p->size = c->sizes.v[z];
					p->flows = c->flows.v[fl];
				}
}

static void plan_stacks(const struct sweep_cfg *c, struct sweep_point *p)
{
	unsigned int z, k;

	for (z = 0; z < c->sizes.n; z++) {
		if (c->sizes.v[z] > SWEEP_STACK_MAX_SIZE)
			continue;
		for (k = 0; k < c->nstk; k++, p++) {
			p->stk = &sweep_stacks[c->stk[k]];
			p->be = p->stk->be;
			p->size = c->sizes.v[z];
		}
	}
}

/*
 * stacks: the receive stacks' rows as well (side A's); with --profile each
 * XDP point gathers its windows' samples
 */
int sweep_plan(const struct sweep_cfg *c, bool stacks, struct sweep_point **pts,
	       unsigned int *n, unsigned int *nxdp)
{
	unsigned int i;

	*nxdp = c->actions.n * c->modes.n * c->sizes.n * c->flows.n;
	*n = *nxdp + (stacks ? sweep_stack_sizes(c) * c->nstk : 0);
	*pts = calloc(*n + 1, sizeof(**pts));
	if (!*pts)
		return -ENOMEM;
	plan_xdp(c, *pts);
	plan_stacks(c, *pts + *nxdp);
	for (i = 0; i < *n; i++) {
		(*pts)[i].prog_ns = -1;
		if (c->profile && i < *nxdp) {
			(*pts)[i].prof = prof_data_new();
			if (!(*pts)[i].prof)
				return -ENOMEM;
		}
	}
	return 0;
}

void sweep_plan_free(struct sweep_point *pts, unsigned int n)
{
	unsigned int i;

	for (i = 0; pts && i < n; i++)
		prof_data_free(pts[i].prof);
	free(pts);
}

void sweep_summarize(const struct sweep_cfg *c, const struct sweep_point *p,
		     struct sweep_summary *s)
{
	double ns[SWEEP_MAX_REPEAT], mpps[SWEEP_MAX_REPEAT];
	double app[SWEEP_MAX_REPEAT];
	struct sweep_fig f;
	unsigned int i;

	memset(s, 0, sizeof(*s));
	s->ns_lo = INFINITY;
	s->ns_hi = -INFINITY;
	for (i = 0; i < c->repeat; i++) {
		const struct sweep_run *r = &p->runs[i];

		if (!r->ok)
			continue;
		p->be->fig(c, r, &f);
		ns[s->ok] = f.ns;
		mpps[s->ok] = f.mpps;
		app[s->ok] = f.app_ns;
		s->ns_lo = fmin(s->ns_lo, f.ns);
		s->ns_hi = fmax(s->ns_hi, f.ns);
		s->ok++;
		s->disturbed += f.disturbed;
		s->sent += f.sent;
		s->counted += f.counted;
		s->lost += f.lost;
		s->xmit_errors += f.xmit_errors;
		s->rx_drops += f.rx_drops;
		s->gen_method = f.gen_method;
	}
	if (!s->ok)
		return;
	stats_summarize(ns, s->ok, &s->ns);
	stats_summarize(mpps, s->ok, &s->mpps);
	if (p->be->stack)
		stats_summarize(app, s->ok, &s->app_ns);
}

/* --modes: native, generic (skb) */
int sweep_mode_parse(const char *s, __u32 *v)
{
	if (!strcmp(s, "native"))
		*v = 0;
	else if (!strcmp(s, "generic") || !strcmp(s, "skb"))
		*v = 1;
	else
		return -EINVAL;
	return 0;
}

/* --rxdrop's bind modes: their sweep_stacks[] entry (zc is zerocopy) */
int sweep_rxdrop_parse(const char *s, __u32 *v)
{
	static const struct {
		const char *name;
		enum sweep_stack_id id;
	} modes[] = {
		{ "copy", SWEEP_STK_AF_XDP_NATIVE },
		{ "zerocopy", SWEEP_STK_AF_XDP_ZC },
		{ "zc", SWEEP_STK_AF_XDP_ZC },
		{ "generic", SWEEP_STK_AF_XDP_GENERIC },
	};
	unsigned int i;

	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (!strcmp(s, modes[i].name)) {
			*v = modes[i].id;
			return 0;
		}
	}
	return -EINVAL;
}

/* --devs DUT,PEER (or "DUT PEER"): two interfaces of this namespace */
int sweep_devs_parse(const char *arg, char *buf, size_t len, const char **dev)
{
	char *sep;
	int i;

	snprintf(buf, len, "%s", arg);
	sep = strpbrk(buf, " ,");
	if (!sep || sep == buf || !sep[1] || strpbrk(sep + 1, " ,") ||
	    sep - buf >= IF_NAMESIZE || strlen(sep + 1) >= IF_NAMESIZE) {
		fprintf(stderr, "xdp_sweep: --devs '%s': want two interface names, DUT,PEER\n",
			esc_text(arg).s);
		return -EINVAL;
	}
	*sep = '\0';
	dev[0] = buf;
	dev[1] = sep + 1;
	for (i = 0; i < 2; i++) {
		if (!if_nametoindex(dev[i])) {
			fprintf(stderr, "xdp_sweep: --devs '%s': no interface %s here\n",
				esc_text(arg).s, esc_text(dev[i]).s);
			return -EINVAL;
		}
	}
	if (!strcmp(dev[0], dev[1])) {
		fprintf(stderr, "xdp_sweep: --devs '%s': the dut and the peer must differ\n",
			esc_text(arg).s);
		return -EINVAL;
	}
	return 0;
}

static bool same_list(const struct opts_list *a, const struct opts_list *b)
{
	return a->n == b->n && !memcmp(a->v, b->v, a->n * sizeof(a->v[0]));
}

/* The same matrix, measured as often */
bool sweep_same_plan(const struct sweep_cfg *a, const struct sweep_cfg *b)
{
	return same_list(&a->actions, &b->actions) &&
	       same_list(&a->modes, &b->modes) &&
	       same_list(&a->sizes, &b->sizes) &&
	       same_list(&a->flows, &b->flows) && a->repeat == b->repeat;
}
