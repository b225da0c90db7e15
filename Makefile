# SPDX-License-Identifier: GPL-2.0
#
# rawprobe: build the core module (Kbuild, against KDIR) and rawprobectl.
#
#   make                 module for KDIR + rawprobectl
#   make check           install what is missing, build, run every test
#   make demo            boot Debian 6.1 under QEMU and show rawprobe at work
#   make vm              a shell in a QEMU guest with the module loaded
#   make KDIR=/path      build the module against other kernel headers
#   make install         module (modules_install) + install-ctl
#   make install-ctl     rawprobectl, its man page, bash completion, tools and JSON
#                        schema under $(DESTDIR)$(PREFIX) (no kernel needed)
#   make check-debug     the in-VM suite on debug kernels built from
#                        linux-source-6.12 (KASAN/lockdep, then KCSAN)
#   make stress          load, churn, kills, module cycles and fuzzing in
#                        the VM on 6.1 and 6.12, with a table of figures
#   make check-rt        the in-VM suite on Debian's 6.12 PREEMPT_RT kernel
#   make check-pkg       make deb's packages installed in a guest (DKMS)
#   make deb             Debian packages (DKMS module, CLI, dev files) in build/deb/

KDIR ?= $(firstword $(wildcard /lib/modules/$(shell uname -r)/build) \
		    $(wildcard /usr/src/linux-headers-6.1.*-amd64))
KREL := $(if $(KDIR),$(shell sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' \
		$(KDIR)/include/generated/utsrelease.h 2>/dev/null))
BUILD := build/$(KREL)
SRC_DIRS := module kmod probes uapi include/rawprobe
KSRC := Kbuild $(wildcard $(addsuffix /*.[ch],$(SRC_DIRS)))

PREFIX ?= /usr/local
PKG_CONFIG ?= pkg-config
NL_CFLAGS := $(shell $(PKG_CONFIG) --cflags libnl-genl-3.0 2>/dev/null)
NL_LIBS := $(shell $(PKG_CONFIG) --libs libnl-genl-3.0 2>/dev/null)
BPF_CFLAGS := $(shell $(PKG_CONFIG) --cflags libbpf 2>/dev/null)
BPF_LIBS := $(shell $(PKG_CONFIG) --libs libbpf 2>/dev/null)
CFLAGS ?= -O2 -g
USER_CFLAGS := -std=gnu11 -Wall -Wextra -Werror -Iuapi -Iuserctl $(NL_CFLAGS)

CTL_SRCS := $(wildcard userctl/*.c userctl/*/*.c)
CTL_HDRS := $(wildcard userctl/*/*.h) uapi/rawprobe.h

.PHONY: all module test-modules bench-module ctl modules-all examples check unit vmtest \
	demo vm bench deps clean install install-ctl install-module install-dev checkpatch \
	examples-kdir modules-debug check-debug ctl-asan stress check-rt check-pkg check-long \
	bench-steps

all: module ctl

# The module is built in build/<release>/, a tree of links to the sources,
# so one checkout can hold builds for several kernels at once.
LINK_KO ?= 1
module: $(BUILD)/rawprobe.ko
	@$(if $(LINK_KO),ln -sf $(BUILD)/rawprobe.ko rawprobe.ko,true)
	@echo "built $(BUILD)/rawprobe.ko$(if $(LINK_KO), (linked as ./rawprobe.ko)) for $(KREL)"

# (a debug kernel rebuilt in place has a new Module.symvers)
$(BUILD)/rawprobe.ko: $(KSRC) $(wildcard $(KDIR)/Module.symvers)
	$(call build-core,$(BUILD))

# $(call build-core,DIR[,MAKE VARIABLES]): the core in DIR, a tree of links.
define build-core
	@test -n "$(KREL)" || { echo "no kernel headers: set KDIR or run tools/deps.sh" >&2; exit 1; }
	@mkdir -p $(1)
	@for d in $(SRC_DIRS); do mkdir -p $(1)/$$d; \
		for f in $$d/*.[ch]; do ln -sf $(CURDIR)/$$f $(1)/$$f; done; done
	@ln -sf $(CURDIR)/Kbuild $(1)/Kbuild
	$(MAKE) -C $(KDIR) M=$(CURDIR)/$(1) $(2) modules
endef

# Out-of-tree helper modules, per kernel like the core:
# $(call stale-crcs,DIR): DIR built afresh if the core's CRCs moved on
stale-crcs = if [ $(BUILD)/Module.symvers -nt $(1)/Module.symvers ]; then \
	rm -rf $(1); fi

# $(call build-mods,FILES,DIR) links FILES into build/<release>/DIR, builds there.
# Kbuild does not see the core's Module.symvers change (its CRCs, when a
# struct an export names does): the modules are built afresh then.
define build-mods
	@test -n "$(KREL)" || { echo "no kernel headers: set KDIR" >&2; exit 1; }
	@$(call stale-crcs,$(BUILD)/$(2))
	@mkdir -p $(BUILD)/$(2)
	@for f in $(1); do ln -sf $(CURDIR)/$$f $(BUILD)/$(2)/; done
	$(MAKE) -C $(KDIR) M=$(CURDIR)/$(BUILD)/$(2) \
		KBUILD_EXTRA_SYMBOLS=$(CURDIR)/$(BUILD)/Module.symvers modules
endef

# Test-only modules (tests/vm/modules); they link against the core's
# Module.symvers, so under make -j they wait for it.
test-modules: $(BUILD)/rawprobe.ko
	$(call build-mods,$(wildcard tests/vm/modules/*),test-modules)

# The benchmark's empty-handler module (tests/bench), for make bench only.
bench-module: $(BUILD)/rawprobe.ko
	$(call build-mods,tests/bench/Kbuild tests/bench/rp_bench_empty.c,bench)

# make bench's staircase: the core with its record path cut short at each
# step (RP_BENCH_STEP in kmod/record.h), in build/<release>/bench-step<N>.
BENCH_STEPS := 1 2 3
bench-steps: $(foreach n,$(BENCH_STEPS),$(BUILD)/bench-step$(n)/rawprobe.ko)
$(BUILD)/bench-step%/rawprobe.ko: $(KSRC)
	$(call build-core,$(BUILD)/bench-step$*,RP_BENCH_STEP=$*)

ctl: userctl/rawprobectl build/tools/nl_malformed build/tools/nl_ownership \
	build/tools/ring_mmap build/tools/getpgid_loop build/tools/fail_nth.so \
	build/tools/nl_fuzz build/tools/nl_session build/tools/dev_hostile \
	build/tools/ring_validate

# Test tools that talk to the module directly (run in the VM).
build/tools/nl_malformed: tests/tools/nl_malformed.c tests/tools/tap.h userctl/lib/nl.c $(CTL_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(USER_CFLAGS) -Itests/tools -o $@ tests/tools/nl_malformed.c userctl/lib/nl.c $(NL_LIBS)

build/tools/nl_ownership: tests/tools/nl_ownership.c tests/tools/tap.h userctl/lib/nl.c $(CTL_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(USER_CFLAGS) -Itests/tools -o $@ tests/tools/nl_ownership.c userctl/lib/nl.c $(NL_LIBS)

# The seeded netlink fuzzer (tests/vm/cases/22-fuzz.sh); its parts:
# tests/tools/nl_fuzz.h.
NL_FUZZ_SRCS := $(addprefix tests/tools/nl_fuzz,.c _rand.c _attr.c _tmpl.c \
	_mut.c _ser.c _state.c _session.c)
build/tools/nl_fuzz: $(NL_FUZZ_SRCS) \
		tests/tools/nl_fuzz.h tests/tools/sessions.c tests/tools/sessions.h \
		tests/tools/tap.h userctl/lib/nl.c $(CTL_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(USER_CFLAGS) -Itests/tools -o $@ $(filter %.c,$^) $(NL_LIBS)

# Sessions from the shell, without rawprobectl's commands (the fault
# walks of tests/vm/debug-cases/70-alloc-faults.sh, 22-fuzz.sh).
build/tools/nl_session: tests/tools/nl_session.c tests/tools/sessions.c \
		tests/tools/sessions.h userctl/lib/nl.c $(CTL_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(USER_CFLAGS) -Itests/tools -o $@ $(filter %.c,$^) $(NL_LIBS)

build/tools/dev_hostile: tests/tools/dev_hostile.c tests/tools/tap.h uapi/rawprobe.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(USER_CFLAGS) -Itests/tools -o $@ $< -lpthread

# The validating reader of make stress.
build/tools/ring_validate: tests/stress/ring_validate.c userctl/lib/ring_reader.c \
		userctl/lib/rings_map.c $(CTL_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(USER_CFLAGS) -o $@ $(filter %.c,$^)

build/tools/ring_mmap: tests/tools/ring_mmap.c uapi/rawprobe.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(USER_CFLAGS) -o $@ tests/tools/ring_mmap.c

# LD_PRELOAD shim of the allocation-failure loops (make check-debug).
build/tools/fail_nth.so: tests/tools/fail_nth.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -std=gnu11 -Wall -Wextra -Werror -fPIC -shared -o $@ $< -ldl

# The getpgid workload of the benchmark and of the hotplug test.
build/tools/getpgid_loop: tests/bench/getpgid_loop.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(USER_CFLAGS) -o $@ $<

userctl/rawprobectl: $(CTL_SRCS) $(CTL_HDRS)
	$(CC) $(CFLAGS) $(USER_CFLAGS) $(BPF_CFLAGS) -o $@ $(CTL_SRCS) $(NL_LIBS) $(BPF_LIBS)

# The CLI under ASan+UBSan, for the hostile-invocation test (tests/cli).
ASAN_CFLAGS := -O1 -g -fsanitize=address,undefined,float-cast-overflow \
	-fno-sanitize-recover=all -fno-omit-frame-pointer
ctl-asan: build/asan/rawprobectl
build/asan/rawprobectl: $(CTL_SRCS) $(CTL_HDRS)
	@mkdir -p $(@D)
	$(CC) $(ASAN_CFLAGS) $(USER_CFLAGS) $(BPF_CFLAGS) -o $@ $(CTL_SRCS) $(NL_LIBS) $(BPF_LIBS)

# Every kernel the tests boot (tools/deps.sh --print); KDIRS="..." for
# others, and KDIR=... on the command line means that kernel alone.
ifeq ($(origin KDIR),command line)
KDIRS ?= $(KDIR)
endif
KDIRS ?= $(addprefix /usr/src/linux-headers-,$(shell tools/deps.sh --print))
# (./rawprobe.ko stays the default kernel's: LINK_KO= for the others)
modules-all:
	@for kdir in $(KDIRS); do \
		$(MAKE) --no-print-directory module test-modules \
			KDIR=$$kdir LINK_KO= || exit 1; done

# The debug kernels (tests/vm/debug-kernel.sh builds and caches them).
DEBUG_VARIANTS := kasan kcsan
DEBUG_KDIRS = $(foreach v,$(DEBUG_VARIANTS),$(shell tests/vm/debug-kernel.sh --print-dir $(v))/build)
modules-debug:
	@for v in $(DEBUG_VARIANTS); do tests/vm/debug-kernel.sh $$v >/dev/null || exit 1; done
	@$(MAKE) --no-print-directory examples KDIRS="$(DEBUG_KDIRS)"

# The in-VM suite on the KASAN/lockdep kernel, then the ring, stream and
# churn cases on the KCSAN kernel; any sanitizer report fails the run.
check-debug:
	@tools/deps.sh
	@$(MAKE) --no-print-directory ctl ctl-asan modules-debug
	@tests/run-all.sh --debug

# The in-VM suite, the stress smoke and the locked-down boot on Debian's
# 6.12 PREEMPT_RT kernel (the third kernel of tools/deps.sh, -k rt).
check-rt:
	@tools/deps.sh
	@$(MAKE) --no-print-directory ctl ctl-asan examples
	@tests/run-all.sh --vm-only --kernel rt

# make deb's packages installed in a guest of 6.1 and of 6.12: dpkg -i,
# DKMS builds the core, modprobe, the packaged CLI, a template, purge.
check-pkg:
	@tools/deps.sh
	@tools/deps.sh --deb
	@$(MAKE) --no-print-directory ctl deb
	@tests/run-all.sh --pkg

# What make check leaves for its time, run before resolving what they
# cover: the stress smoke and YNL's client on 6.1, the labs' wrong
# answers (tests/run-all.sh --long).
check-long:
	@tools/deps.sh
	@$(MAKE) --no-print-directory ctl ctl-asan examples
	@tests/run-all.sh --long

# Load, churn, killed controllers, module cycles, fuzzing (tests/stress).
stress:
	@tools/deps.sh
	@$(MAKE) --no-print-directory ctl ctl-asan examples
	@tests/stress/run.sh

deps:
	@tools/deps.sh

unit: ctl
	@$(MAKE) --no-print-directory -C tests/unit check

check:
	@tools/deps.sh
	@$(MAKE) --no-print-directory ctl ctl-asan examples
	@tests/run-all.sh

demo:
	@tools/deps.sh
	@$(MAKE) --no-print-directory ctl
	@$(MAKE) --no-print-directory module KDIR=/usr/src/linux-headers-$$(tools/deps.sh --print | head -1)
	@tests/vm/run -k 6.1 -- tools/demo.sh

vm: ctl
	@$(MAKE) --no-print-directory module KDIR=/usr/src/linux-headers-$$(tools/deps.sh --print | head -1)
	@tests/vm/run -k 6.1 --shell

# BENCH_FLAGS: tests/bench/run.sh's options, e.g. "-k 6.12" (6.12's blocks).
bench:
	@tools/deps.sh
	@$(MAKE) --no-print-directory ctl modules-all
	@tests/bench/run.sh $(BENCH_FLAGS)

checkpatch:
	@tools/checkpatch.sh

# Debian packages (debian/, dkms.conf), built in a copy of the tree.
.PHONY: deb
deb:
	@tools/deps.sh --deb
	@tools/deb.sh

install: install-module install-ctl

install-module: module
	$(MAKE) -C $(KDIR) M=$(CURDIR)/$(BUILD) modules_install

# systemd's units; Debian 12's debhelper looks for them in /lib
UNITDIR ?= $(PREFIX)/lib/systemd/system
install-ctl: userctl/rawprobectl
	install -D -m 0755 userctl/rawprobectl $(DESTDIR)$(PREFIX)/sbin/rawprobectl
	install -D -m 0644 man/rawprobectl.8 $(DESTDIR)$(PREFIX)/share/man/man8/rawprobectl.8
	install -D -m 0644 completion/rawprobectl \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/rawprobectl
	install -D -m 0644 docs/schema/rawprobectl-v2.json \
		$(DESTDIR)$(PREFIX)/share/rawprobe/rawprobectl-v2.json
	install -d $(DESTDIR)$(PREFIX)/share/rawprobe/tools
	install -m 0755 scripts/tools/*.rp $(DESTDIR)$(PREFIX)/share/rawprobe/tools/
	install -D -m 0644 packaging/rawprobe-exporter.service \
		$(DESTDIR)$(UNITDIR)/rawprobe-exporter.service
	install -D -m 0644 packaging/exporter.conf \
		$(DESTDIR)$(PREFIX)/share/rawprobe/exporter.conf

# What a probe module copied out of examples/ builds against: the API
# header, the uapi header, scripts/probe-module.mk and the core's
# Module.symvers for this kernel (RAWPROBE=/usr/src/rawprobe, the default).
DEVDIR ?= /usr/src/rawprobe
install-dev: module
	install -D -m 0644 include/rawprobe/api.h $(DESTDIR)$(DEVDIR)/include/rawprobe/api.h
	install -D -m 0644 uapi/rawprobe.h $(DESTDIR)$(DEVDIR)/uapi/rawprobe.h
	install -D -m 0644 scripts/probe-module.mk $(DESTDIR)$(DEVDIR)/scripts/probe-module.mk
	install -D -m 0644 $(BUILD)/Module.symvers $(DESTDIR)$(DEVDIR)/build/$(KREL)/Module.symvers

clean:
	rm -rf build rawprobe.ko userctl/rawprobectl
	$(MAKE) -C tests/unit clean 2>/dev/null || true

# Example probe modules, each built with its own Makefile (as a user who
# copied it would) in build/<release>/examples/<name>, for every kernel.
EXAMPLES := $(patsubst examples/%/Makefile,%,$(wildcard examples/*/Makefile))
examples: modules-all
	@for kdir in $(KDIRS); do \
		$(MAKE) --no-print-directory examples-kdir KDIR=$$kdir || exit 1; done

examples-kdir:
	@for ex in $(EXAMPLES); do \
		d=$(BUILD)/examples/$$ex; $(call stale-crcs,$$d); mkdir -p $$d; \
		for f in examples/$$ex/*; do ln -sf $(CURDIR)/$$f $$d/; done; \
		$(MAKE) --no-print-directory -C $$d RAWPROBE=$(CURDIR) \
			KDIR=$(KDIR) || exit 1; \
	done

# --- Teaching labs (labs/): the logic is in labs/lab.sh ---
#   make lab N=1          a guest shell in lab 1's working copy, module loaded
#   make lab-check N=1    build the working copy, run lab 1's checks in a guest
#   make labs-selftest    each lab's skeleton fails, its solution passes (6.1, 6.12)
#   make labs-dist        student and instructor tarballs in build/labs/
# K=6.12 picks the guest's kernel (default 6.1); LAB_WORK=DIR the working copy.
.PHONY: lab lab-check labs-selftest labs-dist
lab:
	@LAB_KERNEL=$(or $(K),6.1) labs/lab.sh shell "$(N)"

lab-check:
	@LAB_KERNEL=$(or $(K),6.1) labs/lab.sh check "$(N)"

labs-selftest:
	@labs/lab.sh selftest

labs-dist:
	@labs/lab.sh dist
# --- end of the teaching labs ---

# --- TCG instruction counter (tools/tcg-insn) ---
#   make tcg-plugin       build/tcg-insn/libinsn.so, a QEMU 7.2 TCG plugin
#                         counting guest instructions between two markers,
#                         and insn_loop, the static marker program of its
#                         host test (tests/tcg-insn/check.sh)
# RPMARK_ADDR: where the markers' section goes (no other code runs there).
.PHONY: tcg-plugin
TCG_INSN := tools/tcg-insn
RPMARK_ADDR ?= 0x3f000000
tcg-plugin: build/tcg-insn/libinsn.so build/tcg-insn/insn_loop \
	build/tcg-insn/getpgid_marked

build/tcg-insn/libinsn.so: $(TCG_INSN)/insn.c $(TCG_INSN)/qemu-plugin-7.2.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -std=gnu11 -Wall -Wextra -Werror -fPIC -shared \
		-fvisibility=hidden -o $@ $< -lpthread

build/tcg-insn/insn_loop: $(TCG_INSN)/insn_loop.c $(TCG_INSN)/insn_loop.S \
		$(TCG_INSN)/rpmark.c $(TCG_INSN)/rpmark.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -std=gnu11 -Wall -Wextra -Werror -static -no-pie \
		-Wl,--section-start=.rpmark=$(RPMARK_ADDR) -o $@ $(filter %.c %.S,$^)

# make bench's workload for the instruction count (tests/bench)
build/tcg-insn/getpgid_marked: tests/bench/getpgid_marked.c \
		$(TCG_INSN)/rpmark.c $(TCG_INSN)/rpmark.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -std=gnu11 -Wall -Wextra -Werror -static -no-pie \
		-I$(TCG_INSN) -Wl,--section-start=.rpmark=$(RPMARK_ADDR) \
		-o $@ $(filter %.c,$^)
# --- end of the TCG instruction counter ---
