// SPDX-License-Identifier: GPL-2.0
/*
 * lib/bench/ring_model.h: the model's ring is a ring.  Whatever the variant,
 * the consumer takes exactly the descriptors the producer published, in
 * order, each as written (addr of the chunk in turn, len, no options;
 * also after the writing consumer's own stores into the lines);
 * the consumer that reads none checks none; the settings out of range
 * are refused before a thread starts, and the caller's CPU mask comes
 * back.  No figure of speed is asserted (benchmarks stay out of make
 * check).
 */
#include <errno.h>
#include <sched.h>

#include "kselftest_harness.h"
#include "ring_model.h"

static const volatile int stop_now = 1;

static struct ring_model_cfg base(void)
{
	return (struct ring_model_cfg) {
		.prod_cpu = 0, .cons_cpu = 1, .ring = 2048, .batch = 64,
		.frames = 256, .size = 64, .work = 0, .seconds = 0.1,
	};
}

static bool two_cpus(void)
{
	cpu_set_t set;

	return !sched_getaffinity(0, sizeof(set), &set) &&
	       CPU_ISSET(0, &set) && CPU_ISSET(1, &set);
}

static void run_checked(struct __test_metadata *_metadata,
			const struct ring_model_cfg *cfg)
{
	struct ring_model_result r;
	cpu_set_t before, after;

	ASSERT_EQ(0, sched_getaffinity(0, sizeof(before), &before));
	ASSERT_EQ(0, ring_model_run(cfg, &r));
	ASSERT_EQ(0, sched_getaffinity(0, sizeof(after), &after));
	EXPECT_TRUE(CPU_EQUAL(&before, &after));
	EXPECT_GT(r.produced, 0ULL);
	/* published in whole batches */
	EXPECT_EQ(0ULL, r.produced % cfg->batch);
	EXPECT_EQ(r.produced, r.consumed);
	EXPECT_EQ(cfg->consumer == RING_NONE ? 0ULL : r.produced, r.checked);
	EXPECT_EQ(0ULL, r.bad);
	EXPECT_GT(r.ns_per_frame, 0);
}

TEST(every_descriptor_once_as_written)
{
	struct ring_model_cfg cfg = base();

	if (!two_cpus())
		SKIP(return, "CPUs 0 and 1 are not both ours");
	cfg.consumer = RING_READ;
	run_checked(_metadata, &cfg);
	cfg.consumer = RING_NONE;
	run_checked(_metadata, &cfg);
	cfg.consumer = RING_READ;
	cfg.prefetch = 4;
	run_checked(_metadata, &cfg);
	cfg.prefetch = 2047;
	run_checked(_metadata, &cfg);
	cfg.prefetch = 0;
	cfg.consumer = RING_WRITE;
	run_checked(_metadata, &cfg);
	if (ring_model_has_clflushopt()) {
		cfg.consumer = RING_FLUSH;
		run_checked(_metadata, &cfg);
	}
}

/*
 * The smallest ring published whole at once (the producer must find room
 * for each batch), and nothing is taken twice or lost; more chunks than
 * entries and fewer; the largest copy; no lock; a stop flag already set
 * ends the run after its first batch
 */
TEST(full_ring_and_odd_settings)
{
	struct ring_model_cfg cfg = base();

	if (!two_cpus())
		SKIP(return, "CPUs 0 and 1 are not both ours");
	cfg.ring = 64;
	cfg.batch = 64;
	cfg.work = 100;
	run_checked(_metadata, &cfg);
	cfg.frames = 1;
	cfg.batch = 7;
	cfg.size = RING_MODEL_MAX_SIZE;
	cfg.no_lock = true;
	run_checked(_metadata, &cfg);
	cfg = base();
	cfg.frames = 5000;
	cfg.cons_cpu = 0;
	cfg.prod_cpu = 1;
	run_checked(_metadata, &cfg);
	cfg = base();
	cfg.seconds = 60;
	cfg.stop = &stop_now;
	run_checked(_metadata, &cfg);
}

/* A setting out of its range: -EINVAL before a thread starts */
#define REFUSED(field, value)						\
	do {								\
		struct ring_model_cfg cfg = base();			\
		struct ring_model_result r;				\
									\
		cfg.field = value;					\
		EXPECT_EQ(-EINVAL, ring_model_run(&cfg, &r));		\
	} while (0)

TEST(refused_settings)
{
	struct ring_model_cfg cfg = base();
	struct ring_model_result r;

	/* the control: the base is taken */
	if (!two_cpus())
		SKIP(return, "CPUs 0 and 1 are not both ours");
	cfg.seconds = 0.01;
	ASSERT_EQ(0, ring_model_run(&cfg, &r));
	REFUSED(ring, 1000);
	REFUSED(ring, 32);
	REFUSED(ring, 2 * RING_MODEL_MAX_RING);
	REFUSED(batch, 0);
	REFUSED(batch, 2049);
	REFUSED(prefetch, 2048);
	REFUSED(frames, 0);
	REFUSED(frames, RING_MODEL_MAX_FRAMES + 1);
	REFUSED(size, 0);
	REFUSED(size, RING_MODEL_MAX_SIZE + 1);
	REFUSED(work, RING_MODEL_MAX_WORK + 1);
	REFUSED(seconds, 0);
	REFUSED(cons_cpu, 0);		/* the producer's */
	REFUSED(cons_cpu, 4095);
	REFUSED(prod_cpu, -1);
	REFUSED(consumer, RING_WRITE + 1);
}

TEST_HARNESS_MAIN
