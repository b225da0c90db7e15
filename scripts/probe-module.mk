# SPDX-License-Identifier: GPL-2.0
#
# Build a probe module on the rawprobe core, out of tree. A probe module's
# whole Makefile is:
#
#	obj-m := my_probe.o
#	RAWPROBE ?= /usr/src/rawprobe
#	include $(RAWPROBE)/scripts/probe-module.mk
#
# then `make` builds my_probe.ko for the running kernel. Variables:
#	KDIR=DIR      kernel build tree (default: the running kernel's)
#	RAWPROBE=DIR  the rawprobe source tree, or where `make install-dev`
#	              put the core's headers and Module.symvers
#
# Module.symvers of the core gives modpost the CRCs of rawprobe_* symbols,
# so the module loads only against the core it was built for.

ifneq ($(KERNELRELEASE),)
# Second pass, inside Kbuild.
ccflags-y += -I$(RAWPROBE)/include -I$(RAWPROBE)/uapi
else
KDIR ?= /lib/modules/$(shell uname -r)/build
KREL := $(shell sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' \
	  $(KDIR)/include/generated/utsrelease.h 2>/dev/null)
RAWPROBE_SYMVERS ?= $(RAWPROBE)/build/$(KREL)/Module.symvers

modules:
	@test -n "$(KREL)" || { echo "no kernel build tree at $(KDIR): install the headers or set KDIR" >&2; exit 1; }
	@test -f "$(RAWPROBE_SYMVERS)" || { echo "$(RAWPROBE_SYMVERS) is missing: build the rawprobe core for $(KREL) first (make in $(RAWPROBE), or make install-dev)" >&2; exit 1; }
	@# Kbuild does not relink a module when only the core's CRCs change
	@# (the stale module then fails to load: "disagrees about version of
	@# symbol"): when the core's Module.symvers is not the one of the last
	@# build, start clean.
	@cmp -s "$(RAWPROBE_SYMVERS)" .rawprobe.symvers || \
		$(MAKE) -s -C $(KDIR) M=$(CURDIR) clean
	$(MAKE) -C $(KDIR) M=$(CURDIR) RAWPROBE=$(abspath $(RAWPROBE)) \
		KBUILD_EXTRA_SYMBOLS=$(abspath $(RAWPROBE_SYMVERS)) modules
	@cp "$(RAWPROBE_SYMVERS)" .rawprobe.symvers

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	rm -f .rawprobe.symvers

.PHONY: modules clean
endif
