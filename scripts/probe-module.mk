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
#	              or the rawprobe-dev package put the core's headers
#
# Module.symvers of the core gives modpost the CRCs of rawprobe_* symbols,
# so the module loads only against the core it was built for. A source
# tree has it in build/<release>/ once built; installed development files
# have it there after `make install-dev`, and otherwise use the one DKMS
# kept when it built the rawprobe-dkms core for that kernel (dkms.conf),
# found through DKMS's link to the version installed for the kernel.

ifneq ($(KERNELRELEASE),)
# Second pass, inside Kbuild.
ccflags-y += -I$(RAWPROBE)/include -I$(RAWPROBE)/uapi
else
KDIR ?= /lib/modules/$(shell uname -r)/build
KREL := $(shell sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' \
	  $(KDIR)/include/generated/utsrelease.h 2>/dev/null)
# The DKMS core's serves installed files only (no Kbuild): a source
# tree's headers may differ from it. (x86_64: the core builds for no other.)
RAWPROBE_DKMS ?= /var/lib/dkms/rawprobe/kernel-$(KREL)-x86_64
RAWPROBE_SYMVERS ?= $(firstword $(wildcard $(RAWPROBE)/build/$(KREL)/Module.symvers) \
	$(if $(wildcard $(RAWPROBE)/Kbuild),,$(wildcard $(RAWPROBE_DKMS)/Module.symvers)) \
	$(RAWPROBE)/build/$(KREL)/Module.symvers)

modules:
	@test -n "$(KREL)" || { echo "no kernel build tree at $(KDIR): install the headers or set KDIR" >&2; exit 1; }
	@test -f "$(RAWPROBE_SYMVERS)" || { echo "$(RAWPROBE_SYMVERS) is missing: build the rawprobe core for $(KREL) first (make in $(RAWPROBE), or make install-dev; with the rawprobe-dkms package: dkms autoinstall -k $(KREL))" >&2; exit 1; }
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
