# SPDX-License-Identifier: GPL-2.0
#
# make          build the AF_XDP core, its selftests and the samples into build/
# make check    install what is missing, build, run the selftests (TAP)
# make check-sanitize  the same with everything built with ASan+LSan+UBSan
# make run      install what is missing, build, run the XDP cost sweep
# make deps     install what is missing (apt) and the kselftest framework
# make compare A=a.json B=b.json   A/B report of two sweep results
# make bench-peers  compare with xdp-tools (RUNS=5, PARTS="1 4", MODES=poll, RATES=1000000, SECS=6); not a test
# make clean    remove build/ and the installed framework
#
# The kernel pipeline (Documentation/kernel_pipeline.rst):
# make kernel-tree   kernel/: the pinned baseline (tag baseline) + git am patches/
# make patches       patches/ from kernel/'s commits, the selftests and docs; checked
# make series-check  git am, checkpatch --strict and every prefix builds
# make kernel        the test kernel (tinyconfig + selftests config + VM fragment)
# make vm-check      boot it under QEMU: the selftests on veth and on a pair of
#                    each NIC model of NICS (default: igb virtio-net vmxnet3)
# make exact-cost    the sweep in the VM under -icount: guest insns per packet
# make kernel-ab     baseline and patched kernel, exact A/B report (BASE= SERIES=;
#                    FUNCS=1: per-function counts, CACHE=1: and modelled L1 misses)
# make release-ab    what a release cost XDP: the exact A/B of two pinned
#                    upstream kernels, no series (A=7.2 B=7.3 by default;
#                    FUNCS=1, PARALLEL=1: both boots at once,
#                    RELEASE_AB_BASES="tiny debian": both configurations;
#                    scripts/release-ab.sh)
# make kernel-ab-test  the exact A/B's own test (two boots, 7-12 minutes)
# make series-prove  each kernel patch: its tests fail before it, pass with it
# make mutation-check  re-introduced driver bugs (tests/mutants/), each caught
#                    by the suite (MUTANTS=a,b: a subset; about an hour)
# make upstream-check  upstream's own tests as the judge: drivers/net/xdp.py
#                    (and the cases patches/xdp-py/ adds) on the pair of each
#                    model of NICS and test_progs -t xsk, baseline and series
#                    kernels (UPSTREAM_CHECK_OPTS="--no-btf --no-suite")
# make driver-series-check  the driver fix series (patches/vmxnet3/,
#                    patches/virtio-net/, patches/veth/): each
#                    git am alone on the baseline, checkpatch --strict, Fixes:
# make xdp-py-check  patches/xdp-py/ (the second series): git am alone,
#                    checkpatch --strict, its selftests build
#
# KERNEL_SRC=/path/to/linux uses that tree instead of the pinned source.
# KERNEL=7.3 works on Linux 7.3 (KERNEL_PIN-7.3, Debian experimental)
# instead of the default pin, 7.2 (KERNEL_PIN): its own kernel-7.3/ and
# build/*-7.3 directories, e.g. make KERNEL=7.3 series-check vm-check;
# KERNEL_PIN_FILE=FILE names a pin file of your own.
# KERNEL_CONFIG_BASE=debian builds every kernel of the pipeline from
# Debian's own amd64 config (-O2, SLUB, preemption, HZ, mitigations, BPF
# JIT as users have them; no modules) instead of tinyconfig, in build/*-debian
# directories, e.g. make KERNEL_CONFIG_BASE=debian kernel vm-check kernel-ab.
# KERNEL_DEBUG=1 builds every kernel as a debug kernel (the tree's
# kernel/configs/debug.config: KASAN, lockdep, kmemleak, UBSAN, DEBUG_NET;
# scripts/debug-vm.config names what is off and why), in build/*-debug
# directories, e.g. make KERNEL_DEBUG=1 vm-check.

# The pin: scripts/kernel-pin.sh chooses it, here and in every kernel script
PIN_FILE := $(shell KERNEL='$(KERNEL)' KERNEL_PIN_FILE='$(KERNEL_PIN_FILE)' scripts/kernel-pin.sh --file)
ifeq ($(PIN_FILE),)
$(error no kernel pin (KERNEL=$(KERNEL) KERNEL_PIN_FILE=$(KERNEL_PIN_FILE)): see the message above)
endif
export KERNEL KERNEL_PIN_FILE KERNEL_CONFIG_BASE KERNEL_DEBUG
include $(PIN_FILE)

TOP := $(CURDIR)
BUILD := $(TOP)/build
BIN := $(BUILD)/bin
XSK_DIR := tools/testing/selftests/xsk
XSK_OUT := $(BUILD)/selftests/xsk
KSFT_DIR := tools/testing/selftests
KSFT_FILES := lib.mk kselftest.h kselftest_harness.h kselftest
KSFT_STAMP := $(KSFT_DIR)/.framework-$(KERNEL_PKG_VERSION)
# The UAPI headers of the same source (make headers), which everything here
# is built against, as selftests in a kernel tree are: no compatibility
# header for the system's older ones.  usr/include links to them, where a
# kernel tree has them, so that make -C tools/testing/selftests/xsk finds
# them as it would there
KHDR := $(TOP)/build/khdr
KHDR_STAMP := $(KHDR)/.headers-$(KERNEL_PKG_VERSION)
KHDR_INCLUDES := -isystem $(KHDR)/usr/include

CC := gcc
CFLAGS := -O2 -g -Wall -Wextra -Werror
export CC

# make check-sanitize builds into build/sanitize with these (SANITIZE=1)
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all \
	     -fno-omit-frame-pointer
ifneq ($(SANITIZE),)
CFLAGS += $(SAN_FLAGS)
endif

SAMPLES := $(patsubst samples/%.c,%,$(filter-out %.bpf.c,$(wildcard samples/*.c)))

.PHONY: all deps selftests-framework selftests samples tests check check-sanitize run bench-peers compare clean help options-doc \
	print-layers layer-probe \
	kernel-deps kernel-tree patches series-check kernel vm-check \
	exact-cost kernel-ab release-ab kernel-ab-test series-prove mutation-check plugin \
	upstream-check xdp-py-check driver-series-check

all: selftests samples tests

help:
	@sed -n '3,35s/^# \{0,1\}//p' Makefile

deps: selftests-framework
	@scripts/deps.sh

# The kselftest framework comes from the pinned kernel source, unchanged
selftests-framework: $(KSFT_STAMP) $(KHDR_STAMP)

$(KSFT_STAMP): $(PIN_FILE)
	@scripts/deps.sh
	@src="$(KERNEL_SRC)"; \
	if [ -z "$$src" ]; then src=$$(scripts/kernel-source.sh $(BUILD)/src) || exit 1; fi; \
	for f in $(KSFT_FILES); do \
		[ -e "$$src/$(KSFT_DIR)/$$f" ] || { echo "$$src has no $(KSFT_DIR)/$$f" >&2; exit 1; }; \
		rm -rf $(KSFT_DIR)/$$f; cp -a "$$src/$(KSFT_DIR)/$$f" $(KSFT_DIR)/; \
	done
	@rm -f $(KSFT_DIR)/.framework-*
	@touch $@

$(KHDR_STAMP): KERNEL_PIN
	@src="$(KERNEL_SRC)"; \
	if [ -z "$$src" ]; then src=$$(scripts/kernel-source.sh $(BUILD)/src) || exit 1; fi; \
	rm -rf $(KHDR) && mkdir -p $(KHDR) && \
	printf '  %-8s %s\n' HEADERS "$(KHDR)/usr/include (make headers of $$src)" && \
	$(MAKE) -s -C "$$src" O=$(KHDR) headers >$(KHDR).log 2>&1 || \
		{ tail -20 $(KHDR).log >&2; echo "make headers in $$src failed" >&2; exit 1; }
	@mkdir -p usr && ln -sfn ../build/khdr/usr/include usr/include
	@touch $@

# An in-tree build's skeleton would shadow ours (#include "" looks beside the
# source first): remove it; the in-tree build makes it again when run
selftests: $(XSK_OUT)/.built

$(XSK_OUT)/.built: $(KSFT_STAMP) $(KHDR_STAMP) $(wildcard $(XSK_DIR)/*.[ch]) $(XSK_DIR)/Makefile
	@rm -f $(XSK_DIR)/xsk_prog.skel.h
	@mkdir -p $(XSK_OUT)
	@$(if $(SANITIZE),CFLAGS="$(SAN_FLAGS)") \
		$(MAKE) --no-print-directory -C $(XSK_DIR) OUTPUT=$(XSK_OUT) \
		KHDR_INCLUDES="$(KHDR_INCLUDES)"
	@touch $@

# lib/: measurement and reporting, a folder per layer (README, Layout).
# Each layer sees only its own headers and those of the layers below it,
# through its -I list: an include of a header above it does not build
# (tests/layers_test.c shows it, and that no header includes another in a
# cycle).
#   base     errors, escaping, options and the run lock, JSON, input
#            files, statistics, the frames' limits, XDP action names
#   measure  CPU time and TSC, /proc/stat load, exact softirq time, line
#            round trip, icount windows, ethtool counters, profiles
#   report   the results read and compared: the sweep's result, the A/B,
#            bench-peers' records
#   bench    over the AF_XDP core (tools/testing/selftests/xsk): the
#            generator, the measured XDP action, AF_XDP and AF_PACKET
#            receivers, the ring model, their BPF programs
#   sweep    the matrix, its runner, its result written, its table
# A tool links the layers it names in LAYERS_tool (default: all, the core
# and libbpf): xdp_compare and xdp_peers need neither the core nor libbpf.
LAYERS := base measure report bench sweep
LIB_USES_base := base
LIB_USES_measure := base measure
LIB_USES_report := base measure report
LIB_USES_bench := base measure bench
LIB_USES_sweep := base measure report bench sweep
# ... and these see the AF_XDP core, and the BPF skeletons in build/bpf
LIB_CORE_LAYERS := bench sweep
LIB_BPF_LAYERS := measure bench sweep
lib_inc = $(addprefix -Ilib/,$(LIB_USES_$(1))) \
	  $(if $(filter $(1),$(LIB_BPF_LAYERS)),-I$(BUILD)/bpf) \
	  $(if $(filter $(1),$(LIB_CORE_LAYERS)),-I$(XSK_DIR) -I$(XSK_OUT))
LIB_INC_all := $(call lib_inc,sweep)

LIB_HDRS := $(wildcard lib/*/*.h)

# BPF programs of lib/ and samples/: NAME.bpf.c -> build/bpf/NAME.skel.h,
# a skeleton named NAME_bpf
BPF_SRCS := $(wildcard lib/*/*.bpf.c samples/*.bpf.c)
BPF_SKELS := $(patsubst %.bpf.c,$(BUILD)/bpf/%.skel.h,$(notdir $(BPF_SRCS)))
BPF_CFLAGS := -O2 -g -Wall -Werror -target bpf -Ilib/base -Ilib/measure \
	      -Ilib/bench -I$(XSK_DIR) $(KHDR_INCLUDES) \
	      $(shell pkg-config --cflags libbpf 2>/dev/null) \
	      -idirafter /usr/include/$(shell $(CC) -dumpmachine)

vpath %.bpf.c $(addprefix lib/,$(LAYERS)) samples

$(BUILD)/bpf/%.bpf.o: %.bpf.c $(LIB_HDRS) $(KHDR_STAMP)
	@mkdir -p $(dir $@)
	@printf '  %-8s %s\n' CLNG-BPF $@
	@clang $(BPF_CFLAGS) -c $< -o $@

$(BUILD)/bpf/%.skel.h: $(BUILD)/bpf/%.bpf.o
	@printf '  %-8s %s\n' GEN-SKEL $@
	@bpftool gen skeleton $< name $(subst -,_,$*)_bpf > $@.tmp && mv $@.tmp $@

XSK_OBJS := $(XSK_OUT)/xsk_core.o $(XSK_OUT)/xsk_env.o $(XSK_OUT)/xsk_pkt.o
lib_objs = $(patsubst lib/%.c,$(BUILD)/lib/%.o,$(filter-out %.bpf.c,$(wildcard lib/$(1)/*.c)))
lib_a = $(BUILD)/lib/lib$(1).a
LIB_ARCHIVES := $(foreach l,$(LAYERS),$(call lib_a,$(l)))
# highest first, as the linker wants them
LIB_LINK_ALL := $(foreach l,sweep bench report measure base,$(call lib_a,$(l)))
COMMON_CFLAGS := $(CFLAGS) -D_GNU_SOURCE $(KHDR_INCLUDES) \
		 $(shell pkg-config --cflags libbpf 2>/dev/null) \
		 $(shell pkg-config --cflags jansson 2>/dev/null)
SAMPLE_CFLAGS := $(COMMON_CFLAGS) $(LIB_INC_all)
JANSSON_LIBS := $(or $(shell pkg-config --libs jansson 2>/dev/null),-ljansson)
SAMPLE_LIBS := $(or $(shell pkg-config --libs libbpf 2>/dev/null),-lbpf) -lelf -lz -lpthread -lm \
	       $(JANSSON_LIBS)

# The readers of results: the layers below the benchmarks, no core, no BPF
LAYERS_xdp_compare := report measure base
LAYERS_xdp_peers := report measure base
tool_archives = $(if $(LAYERS_$(1)),$(foreach l,$(LAYERS_$(1)),$(call lib_a,$(l))),$(LIB_LINK_ALL))
tool_libs = $(if $(LAYERS_$(1)),$(JANSSON_LIBS) -lm,$(XSK_OBJS) $(SAMPLE_LIBS))

samples: $(addprefix $(BIN)/,$(SAMPLES))

.SECONDARY: $(BPF_SKELS) $(patsubst %.skel.h,%.bpf.o,$(BPF_SKELS))

# V=1 shows the compile commands
Q := $(if $(V),,@)

define lib_layer
$(call lib_objs,$(1)): $(BUILD)/lib/$(1)/%.o: lib/$(1)/%.c $(LIB_HDRS) $(BPF_SKELS) \
		$(KHDR_STAMP) $(if $(filter $(1),$(LIB_CORE_LAYERS)),$(XSK_OUT)/.built)
	@mkdir -p $$(dir $$@)
	@printf '  %-8s %s\n' CC $$@
	$$(Q)$$(CC) $$(COMMON_CFLAGS) $$(call lib_inc,$(1)) -c $$< -o $$@

$(call lib_a,$(1)): $(call lib_objs,$(1))
	@printf '  %-8s %s\n' AR $$@
	@rm -f $$@ && ar rcs $$@ $$^
endef
$(foreach l,$(LAYERS),$(eval $(call lib_layer,$(l))))

$(BIN)/%: samples/%.c $(LIB_ARCHIVES) $(BPF_SKELS) $(XSK_OUT)/.built
	@mkdir -p $(BIN)
	@printf '  %-8s %s\n' CC $@
	$(Q)$(CC) $(SAMPLE_CFLAGS) -I$(XSK_OUT) $< $(call tool_archives,$*) \
		$(call tool_libs,$*) -o $@

# The layers and what each may include, for scripts/lib-layers.py; and a
# probe: does lib/LAYER/ build with #include "HEADER"?  (tests/layers_test.c)
print-layers:
	@$(foreach l,$(LAYERS),echo '$(l): $(LIB_USES_$(l))';)

layer-probe:
	@[ -n "$(filter $(LAYER),$(LAYERS))" ] && [ -n "$(HEADER)" ] || \
		{ echo "usage: make layer-probe LAYER=<$(LAYERS)> HEADER=name.h" >&2; exit 2; }
	@printf '#include "%s"\n' '$(HEADER)' | $(CC) $(COMMON_CFLAGS) \
		$(call lib_inc,$(LAYER)) -fsyntax-only -x c -

# tests/: the tools' own tests, on the kselftest harness as well
TESTS := $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/*_test.c))

tests: $(TESTS)

$(BUILD)/tests/%: tests/%.c $(wildcard tests/*.h) $(LIB_ARCHIVES) $(BPF_SKELS) $(XSK_OUT)/.built
	@mkdir -p $(dir $@)
	@printf '  %-8s %s\n' CC $@
	@$(CC) $(SAMPLE_CFLAGS) -I$(KSFT_DIR) $< $(LIB_LINK_ALL) $(XSK_OBJS) $(SAMPLE_LIBS) -o $@

check: deps all
	@scripts/run-selftests.sh $(XSK_DIR) $(XSK_OUT) $(TESTS)

# The same suite, everything built with ASan, LSan and UBSan (any finding
# fails the program that hit it): Documentation/running.rst
SAN_BUILD := $(TOP)/build/sanitize
check-sanitize: deps
	@$(MAKE) --no-print-directory BUILD=$(SAN_BUILD) SANITIZE=1 all
	@BIN=$(SAN_BUILD)/bin \
	 ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=99:verify_asan_link_order=0 \
	 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=98 \
	 CFLAGS="$(SAN_FLAGS)" SANITIZED=1 scripts/run-selftests.sh $(XSK_DIR) $(SAN_BUILD)/selftests/xsk \
		$(patsubst $(BUILD)/%,$(SAN_BUILD)/%,$(TESTS))

# Documentation/options.rst ends with every tool's --help, written here
# (tests/options_doc_test fails when it differs from the tools')
OPTIONS_DOC := Documentation/options.rst
options-doc: samples
	@sed '/^\.\. Generated by make options-doc/q' $(OPTIONS_DOC) > $(OPTIONS_DOC).tmp
	@for t in $(sort $(SAMPLES)); do \
		printf '\n%s\n%s\n\n::\n\n' $$t $$(echo $$t | tr -c '\n' -); \
		$(BIN)/$$t --help | sed 's/^/    /; s/^ *$$//'; \
	done >> $(OPTIONS_DOC).tmp && mv $(OPTIONS_DOC).tmp $(OPTIONS_DOC)
	@printf '  %-8s %s\n' GEN $(OPTIONS_DOC)

# The main job: the default sweep (about 3 minutes here); table on stdout,
# JSON and plot under results/, the JSON file's path as the last line
run: deps all
	@$(BIN)/xdp_sweep --out results

# Benchmarks against xdp-tools 1.6 in a debootstrap chroot (not a test)
bench-peers: deps all
	@PARTS="$(PARTS)" MODES="$(MODES)" RATES="$(RATES)" SECS="$(SECS)" scripts/bench-peers.sh $(RUNS)

# A/B report of two sweep results (Documentation/compare.rst)
compare: $(BIN)/xdp_compare
	@[ -n "$(A)" ] && [ -n "$(B)" ] || { echo "usage: make compare A=a.json B=b.json" >&2; exit 2; }
	@$(BIN)/xdp_compare "$(A)" "$(B)"

# The kernel pipeline: kernel/ is the work tree, patches/ the series
kernel-deps:
	@scripts/kernel-deps.sh

kernel-tree: kernel-deps
	@scripts/kernel-tree.sh

patches: kernel-tree
	@scripts/kernel-patches.sh

# SUBMISSION=iwl-net (or iwl-next, selftests): that one alone, on its base
series-check: kernel-tree
	@scripts/kernel-series-check.sh $(SUBMISSION)

kernel: kernel-tree
	@scripts/kernel-build.sh

# The guest runs the host's build of the suite over the shared root
# (-icount: QEMU's igb loses frames under TCG without it), on a pair of
# each NIC model of NICS (scripts/lib/vm-nics.sh; Documentation/vm_nics.rst)
NICS ?= igb virtio-net vmxnet3
# VM_SPLIT=1: a guest per model and one for veth, side by side
# (scripts/vm-check.sh); the debug kernel's default, whose run takes hours
# in one guest (VM_TIMEOUT is per guest, on the host's clock); VM_GUESTS,
# some of them only: VM_GUESTS="veth igb"
ifeq ($(KERNEL_DEBUG),1)
VM_TIMEOUT ?= 10800
VM_SPLIT ?= 1
else
VM_TIMEOUT ?= 1800
VM_SPLIT ?= 0
endif
VM_OPTS ?= --icount
# SUBMISSION=NAME: on the kernel of kernel/ as far as that submission
# (scripts/submission-kernel.sh), the suite as the project has it
vm-check: $(if $(SUBMISSION),kernel-tree,kernel) selftests
	@img=$(if $(SUBMISSION),$$(scripts/submission-kernel.sh $(SUBMISSION)),) && \
		scripts/vm-check.sh $(if $(filter 1,$(VM_SPLIT)),--split) \
		$(if $(VM_GUESTS),--guests "$(VM_GUESTS)") --timeout $(VM_TIMEOUT) $(VM_OPTS) --nics "$(NICS)" \
		$${img:+--kernel "$$img"}

# Exact per-packet cost: guest instructions under QEMU -icount shift=0
# (Documentation/exact_cost.rst).  kernel-ab builds the baseline (kernel/ at
# its tag, or BASE=tree) and the patched kernel (kernel/, or SERIES=tree);
# TOLERANCE is the spread within which a change is "no change", in %.
# FUNCS=1 adds the per-function counts of the QEMU plugin (plugin/), and
# CACHE=1 its modelled L1 misses as well: both slow TCG down (exact_cost.rst);
# EXACT_TIMEOUT=SEC the guest's limit in kernel-ab (exact-cost.sh: 1800)
TOLERANCE ?= 0.1
EXACT_FUNCS_OPTS := $(if $(CACHE),--cache,$(if $(FUNCS),--funcs))
exact-cost: kernel-deps kernel all plugin
	@scripts/exact-cost.sh $(EXACT_FUNCS_OPTS) --out $(BUILD)/exact run

kernel-ab: kernel-deps $(if $(and $(BASE),$(SERIES)),,kernel-tree) all plugin
	@scripts/kernel-ab.sh $(if $(BASE),--base "$(BASE)") \
		$(if $(SERIES),--series "$(SERIES)") --tolerance $(TOLERANCE) $(EXACT_FUNCS_OPTS) \
		$(if $(EXACT_TIMEOUT),--timeout $(EXACT_TIMEOUT))

# RELEASE_AB_BASES="tiny debian": both kernel configurations, one after the
# other (default: KERNEL_CONFIG_BASE's, else tiny)
RELEASE_AB_BASES ?= $(or $(KERNEL_CONFIG_BASE),tiny)
release-ab: kernel-deps all plugin
	@for base in $(RELEASE_AB_BASES); do \
		KERNEL_CONFIG_BASE=$$base scripts/release-ab.sh \
			$(if $(A),--a "$(A)") $(if $(B),--b "$(B)") \
			--tolerance $(TOLERANCE) $(EXACT_FUNCS_OPTS) $(if $(PARALLEL),--parallel) \
			$(if $(EXACT_TIMEOUT),--timeout $(EXACT_TIMEOUT)) || exit 1; \
	done

# The QEMU TCG plugin of the per-function counts, against the plugin API
# header of the installed QEMU's own Debian source package
PLUGIN_API := $(BUILD)/qemu-plugin-api
PLUGIN_CFLAGS := $(CFLAGS) -shared -fPIC -I$(PLUGIN_API)/qemu \
		 $(shell pkg-config --cflags glib-2.0 2>/dev/null)
plugin: $(BUILD)/plugin/insn_window.so

$(PLUGIN_API)/qemu/qemu-plugin.h: | kernel-deps
	@scripts/qemu-plugin-api.sh $(PLUGIN_API) >/dev/null

$(BUILD)/plugin/%.so: plugin/%.c $(PLUGIN_API)/qemu/qemu-plugin.h
	@mkdir -p $(dir $@)
	@printf '  %-8s %s\n' CC $@
	@$(CC) $(PLUGIN_CFLAGS) $< -o $@.tmp $(or $(shell pkg-config --libs glib-2.0 2>/dev/null),-lglib-2.0)
	@mv $@.tmp $@	# a new file: a running QEMU keeps the one it loaded

# Each kernel patch shown necessary: its tests (scripts/series-prove.map)
# fail on the tree before it and pass with it; a "no-change" patch gets
# its exact A/B (Documentation/kernel_pipeline.rst)
series-prove: kernel-deps kernel-tree selftests all
	@scripts/series-prove.sh $(if $(SUBMISSION),--submission $(SUBMISSION)) $(SERIES_PROVE_OPTS)

# The suite's strength: each mutant of tests/mutants/ (a known driver bug
# re-introduced) applied to kernel/, built, booted, caught by a test or
# SURVIVED (Documentation/mutation_check.rst); not in make check or .ci/run
mutation-check: kernel-deps kernel-tree selftests all
	@scripts/mutation-check.sh $(if $(MUTANTS),--mutants "$(MUTANTS)") $(MUTATION_OPTS)

# Upstream's own tests (Documentation/kernel_pipeline.rst); not in .ci/run
upstream-check: kernel-deps kernel-tree selftests
	@scripts/upstream-check.sh --nics "$(NICS)" $(UPSTREAM_CHECK_OPTS)

# The driver fix series (patches/DRIVER/): each alone on the baseline
driver-series-check: kernel-deps kernel-tree
	@scripts/driver-series-check.sh

xdp-py-check: kernel-deps kernel-tree
	@scripts/xdp-py-check.sh

kernel-ab-test: kernel-deps kernel all plugin
	@scripts/kernel-ab-test.sh $(if $(TEST_TOLERANCE),--tolerance $(TEST_TOLERANCE))

clean:
	rm -rf $(BUILD) $(addprefix $(KSFT_DIR)/,$(KSFT_FILES)) $(KSFT_DIR)/.framework-* usr
	@$(MAKE) --no-print-directory -C $(XSK_DIR) clean >/dev/null 2>&1 || true
