# SPDX-License-Identifier: GPL-2.0
#
# rawprobe: build the core module (Kbuild, against KDIR) and rawprobectl.
#
#   make                 module for KDIR + rawprobectl
#   make check           install what is missing, build, run every test
#   make demo            boot Debian 6.1 under QEMU and show rawprobe at work
#   make vm              a shell in a QEMU guest with the module loaded
#   make KDIR=/path      build the module against other kernel headers

KDIR ?= $(firstword $(wildcard /lib/modules/$(shell uname -r)/build) \
		    $(wildcard /usr/src/linux-headers-6.1.*-amd64))
KREL := $(if $(KDIR),$(shell sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' \
		$(KDIR)/include/generated/utsrelease.h 2>/dev/null))
BUILD := build/$(KREL)
SRC_DIRS := kmod probes uapi
KSRC := Kbuild $(wildcard $(addsuffix /*.[ch],$(SRC_DIRS)))

PKG_CONFIG ?= pkg-config
NL_CFLAGS := $(shell $(PKG_CONFIG) --cflags libnl-genl-3.0 2>/dev/null)
NL_LIBS := $(shell $(PKG_CONFIG) --libs libnl-genl-3.0 2>/dev/null)
CFLAGS ?= -O2 -g
USER_CFLAGS := -std=gnu11 -Wall -Wextra -Werror -Iuapi -Iuserctl $(NL_CFLAGS)

CTL_SRCS := $(wildcard userctl/*.c)
CTL_HDRS := $(wildcard userctl/*.h) uapi/rawprobe.h

.PHONY: all module test-modules bench-module ctl modules-all check unit vmtest demo vm bench deps \
	clean install checkpatch

all: module ctl

# The module is built in build/<release>/, a tree of links to the sources,
# so one checkout can hold builds for several kernels at once.
module: $(BUILD)/rawprobe.ko
	@ln -sf $(BUILD)/rawprobe.ko rawprobe.ko
	@echo "built $(BUILD)/rawprobe.ko (linked as ./rawprobe.ko) for $(KREL)"

$(BUILD)/rawprobe.ko: $(KSRC)
	@test -n "$(KREL)" || { echo "no kernel headers: set KDIR or run tools/deps.sh" >&2; exit 1; }
	@mkdir -p $(BUILD)
	@for d in $(SRC_DIRS); do mkdir -p $(BUILD)/$$d; \
		for f in $$d/*.[ch]; do ln -sf $(CURDIR)/$$f $(BUILD)/$$f; done; done
	@ln -sf $(CURDIR)/Kbuild $(BUILD)/Kbuild
	$(MAKE) -C $(KDIR) M=$(CURDIR)/$(BUILD) modules

# Out-of-tree helper modules, per kernel like the core:
# $(call build-mods,FILES,DIR) links FILES into build/<release>/DIR, builds there.
define build-mods
	@test -n "$(KREL)" || { echo "no kernel headers: set KDIR" >&2; exit 1; }
	@mkdir -p $(BUILD)/$(2)
	@for f in $(1); do ln -sf $(CURDIR)/$$f $(BUILD)/$(2)/; done
	$(MAKE) -C $(KDIR) M=$(CURDIR)/$(BUILD)/$(2) modules
endef

# Test-only modules (tests/vm/modules).
test-modules:
	$(call build-mods,$(wildcard tests/vm/modules/*),test-modules)

# The benchmark's empty-handler module (tests/bench), for make bench only.
bench-module:
	$(call build-mods,tests/bench/Kbuild tests/bench/rp_bench_empty.c,bench)

ctl: userctl/rawprobectl build/tools/nl_malformed build/tools/ring_mmap \
	build/tools/getpgid_loop

# Test tools that talk to the module directly (run in the VM).
build/tools/nl_malformed: tests/tools/nl_malformed.c userctl/nl.c $(CTL_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(USER_CFLAGS) -o $@ tests/tools/nl_malformed.c userctl/nl.c $(NL_LIBS)

build/tools/ring_mmap: tests/tools/ring_mmap.c uapi/rawprobe.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(USER_CFLAGS) -o $@ tests/tools/ring_mmap.c

# The getpgid workload of the benchmark and of the hotplug test.
build/tools/getpgid_loop: tests/bench/getpgid_loop.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(USER_CFLAGS) -o $@ $<

userctl/rawprobectl: $(CTL_SRCS) $(CTL_HDRS)
	$(CC) $(CFLAGS) $(USER_CFLAGS) -o $@ $(CTL_SRCS) $(NL_LIBS)

# Every kernel the tests boot (tools/deps.sh --print).
modules-all:
	@for rel in $$(tools/deps.sh --print); do \
		$(MAKE) --no-print-directory module test-modules \
			KDIR=/usr/src/linux-headers-$$rel || exit 1; done

deps:
	@tools/deps.sh

unit: ctl
	@$(MAKE) --no-print-directory -C tests/unit check

check:
	@tools/deps.sh
	@$(MAKE) --no-print-directory ctl modules-all
	@tests/run-all.sh

demo:
	@tools/deps.sh
	@$(MAKE) --no-print-directory ctl
	@$(MAKE) --no-print-directory module KDIR=/usr/src/linux-headers-$$(tools/deps.sh --print | head -1)
	@tests/vm/run -k 6.1 -- tools/demo.sh

vm: ctl
	@$(MAKE) --no-print-directory module KDIR=/usr/src/linux-headers-$$(tools/deps.sh --print | head -1)
	@tests/vm/run -k 6.1 --shell

bench:
	@tools/deps.sh
	@$(MAKE) --no-print-directory ctl modules-all
	@tests/bench/run.sh

checkpatch:
	@tools/checkpatch.sh

install: module ctl
	$(MAKE) -C $(KDIR) M=$(CURDIR)/$(BUILD) modules_install
	install -D -m 0755 userctl/rawprobectl $(DESTDIR)/usr/local/sbin/rawprobectl

clean:
	rm -rf build rawprobe.ko userctl/rawprobectl
	$(MAKE) -C tests/unit clean 2>/dev/null || true
