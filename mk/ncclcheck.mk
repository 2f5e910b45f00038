# ncclcheck (collectives/): NCCL collectives that measure like nccl-tests
# and never hang. Built where CUDA (nvcc), NCCL and optionally MPI are
# present; `make` says clearly when it skips. Its CPU-side unit tests build
# without CUDA or NCCL and run in `make check`; `make check-gpu` needs GPUs.

CUDA_HOME ?= /usr/local/cuda
NCCL_HOME ?= $(if $(wildcard $(CUDA_HOME)/include/nccl.h),$(CUDA_HOME),/usr)
NVCC ?= $(CUDA_HOME)/bin/nvcc
NC_NVCC_ARCH ?= -gencode arch=compute_90,code=sm_90 \
	-gencode arch=compute_90,code=compute_90
NC_MULTIARCH := $(shell $(CC) -print-multiarch 2>/dev/null)
NC_NCCL_LIBDIR := $(firstword $(wildcard $(NCCL_HOME)/lib64/libnccl.so \
	$(NCCL_HOME)/lib/libnccl.so $(NCCL_HOME)/lib/x86_64-linux-gnu/libnccl.so \
	$(if $(NC_MULTIARCH),$(NCCL_HOME)/lib/$(NC_MULTIARCH)/libnccl.so)))
NC_NCCL_LIBDIR := $(if $(NC_NCCL_LIBDIR),$(dir $(NC_NCCL_LIBDIR)),)
# NC_BUILD=0 leaves ncclcheck out even where the toolkit is.
NC_BUILD ?= 1
NC_HAVE_TOOLKIT := $(if $(filter 1,$(NC_BUILD)),$(and $(wildcard $(NVCC)),$(wildcard $(NCCL_HOME)/include/nccl.h),$(NC_NCCL_LIBDIR)))
# NC_MPI=0 builds without MPI (torchrun-style and srun launches only).
NC_MPI ?= 1
NC_MPI_CFLAGS = $(if $(filter 1,$(NC_MPI)),$(shell $(PKG_CONFIG) --cflags ompi-c 2>/dev/null || mpicc --showme:compile 2>/dev/null),)
NC_MPI_LIBS = $(if $(filter 1,$(NC_MPI)),$(shell $(PKG_CONFIG) --libs ompi-c 2>/dev/null || mpicc --showme:link 2>/dev/null),)
NC_HAVE_MPI_DEF = $(if $(strip $(NC_MPI_LIBS)),-DNC_HAVE_MPI,)

# OpenMPI comes from Debian; CUDA and NCCL from the CUDA toolkit.
DEB_PKGS += libopenmpi-dev openmpi-bin

NCCLCHECK := $(BUILD)/ncclcheck
# What `make install` installs: linked again without the RUNPATH to NCCL's
# directory that the tree's build/ncclcheck carries for running in place.
NCCLCHECK_DIST := $(BUILD)/dist/ncclcheck
# The same program with the NCCLCHECK_TEST_* switches (hooks.c built with
# NC_TEST_HOOKS) that the GPU tests use; a release binary ignores them.
NCCLCHECK_TEST := $(BUILD)/ncclcheck-test
NC_TESTS := $(BUILD)/ncclcheck-tests
NC_PARSE := $(BUILD)/ncclcheck-parse
NC_PFBENCH := $(BUILD)/ncclcheck-pfbench
# the competing kernel of the slow-GPU test (tests/ncclcheck/gpu-run.sh)
NC_GPU_HOG := $(BUILD)/gpu_hog
# GPU host code (ncclcheck.c: main; gpu_*.c: the harness, see harness.h)
# includes CUDA and NCCL and is built only with the toolkit. Every other
# collectives/*.c is plain C: the CPU tests link it, built without either.
NC_GPU_HOST_SRC := collectives/ncclcheck.c $(wildcard collectives/gpu/*.c)
NC_PURE_SRC := $(filter-out $(NC_GPU_HOST_SRC),$(sort $(wildcard collectives/*.c collectives/*/*.c)))
NC_LIB_OBJ := $(addprefix $(BUILD)/lib/,base/cli.o base/parse.o base/sysroot.o \
	base/outfile.o base/termsafe.o base/xmlesc.o doc/doc.o doc/finding.o \
	kernel/iface.o \
	kernel/jobenv.o kernel/launchenv.o \
	kernel/jobenv_parse.o decide/nccl_select.o)
NC_CPU_OBJ := $(patsubst %.c,$(BUILD)/nccpu/%.o,$(NC_PURE_SRC))
NC_GPU_OBJ := $(patsubst %.c,$(BUILD)/ncgpu/%.o,$(NC_PURE_SRC) $(NC_GPU_HOST_SRC)) \
	$(BUILD)/ncgpu/collectives/coll/kernels.o
NC_GPU_TEST_OBJ := $(filter-out $(BUILD)/ncgpu/collectives/launch/hooks.o,$(NC_GPU_OBJ)) \
	$(BUILD)/ncgpu-test/collectives/launch/hooks.o
NC_TEST_SRC := $(filter-out tests/ncclcheck/parse_main.c,$(sort $(wildcard tests/ncclcheck/*.c)))
NC_TEST_OBJ := $(patsubst %.c,$(BUILD)/nccpu/%.o,$(NC_TEST_SRC))
# the driver version is read through the sysroot (driver_version.c)
NC_LIB_OBJ += $(filter-out $(NC_LIB_OBJ),$(BUILD)/lib/base/sysroot.o)
# the pre-flight's wire is a table of lib/wire's codec (pf_wire.c)
NC_LIB_OBJ += $(BUILD)/lib/wire/proto_codec.o
# main's messages before a rank is known: the command runtime
NC_LIB_OBJ += $(BUILD)/lib/doc/cmdrun.o
# doc.c writes a document that came as text by indenting it
NC_LIB_OBJ += $(BUILD)/lib/doc/json_indent.o
# every deadline: the one clock and the socket waits
NC_LIB_OBJ += $(BUILD)/lib/base/monoclock.o $(BUILD)/lib/base/sock.o
NC_CFLAGS = $(ALL_CFLAGS) -Icollectives
# the CPU tests exercise the test switches
NC_CPU_CFLAGS = $(NC_CFLAGS) -DNC_TEST_HOOKS
NC_GPU_CFLAGS = $(NC_CFLAGS) -DNC_HAVE_NCCL $(NC_HAVE_MPI_DEF) \
	-isystem $(CUDA_HOME)/include -isystem $(NCCL_HOME)/include \
	$(NC_MPI_CFLAGS)
NC_GPU_LIBS = -L$(CUDA_HOME)/lib64 -lcudart_static -L$(NC_NCCL_LIBDIR) \
	-lnccl $(NC_MPI_LIBS) \
	$(shell $(PKG_CONFIG) --libs jansson 2>/dev/null) -lstdc++ -lpthread \
	-ldl -lrt -lm

.PHONY: ncclcheck-build check-ncclcheck check-gpu install-ncclcheck \
	uninstall-ncclcheck print-nccl
all: ncclcheck-build
CHECK_TARGETS += check-ncclcheck
INSTALL_TARGETS += install-ncclcheck
UNINSTALL_TARGETS += uninstall-ncclcheck

# The loader finds libnccl.so.2 by itself in these directories; anywhere
# else (a toolkit in /usr/local/cuda) the package adds an ld.so.conf.d file.
NC_LD_DEFAULT := /lib/ /usr/lib/ $(if $(NC_MULTIARCH),/lib/$(NC_MULTIARCH)/ \
	/usr/lib/$(NC_MULTIARCH)/)
NC_LD_CONF := $(if $(filter-out $(NC_LD_DEFAULT),$(NC_NCCL_LIBDIR)),yes,)
# Where `make install` puts that file: empty (the default) installs none and
# says how the installed ncclcheck finds libnccl; debian/rules sets it.
LDSOCONFDIR ?=

NC_SKIP_WHY = $(if $(filter 1,$(NC_BUILD)),$(NC_SKIP_TOOLKIT),NC_BUILD=$(NC_BUILD))
NC_SKIP_TOOLKIT = needs nvcc ($(NVCC)) and NCCL ($(NCCL_HOME)/include/nccl.h \
	and libnccl.so); set CUDA_HOME and NCCL_HOME
ncclcheck-build:
ifeq ($(NC_HAVE_TOOLKIT),)
	@echo "ncclcheck: skipped: $(NC_SKIP_WHY)"
else
	@$(MAKE) --no-print-directory $(if $(Q),-s) $(NCCLCHECK) \
		$(NCCLCHECK_DIST) $(NCCLCHECK_TEST)
	$(if $(strip $(NC_MPI_LIBS)),,@echo "ncclcheck: built without MPI" \
		"(no pkg-config ompi-c, no mpicc): torchrun-style and srun" \
		"launches only")
endif

$(BUILD)/nccpu/%.o: %.c
	@mkdir -p $(dir $@)
	$(QUIET_CC)$(CC) $(NC_CPU_CFLAGS) $(PKG_CFLAGS) $(CHECK_CFLAGS) \
		-I$(BUILD)/nccpu -DSRCDIR='"$(CURDIR)"' -c -o $@ $<

# The test runner finds its suites by name, as the unit tests' does: every
# tests/ncclcheck file that defines `Suite *suite_nc_NAME(void)` is run, so
# a new suite cannot compile and never run.
NC_SUITES_H := $(BUILD)/nccpu/nc_suites.h
$(NC_SUITES_H): $(NC_TEST_SRC)
	@mkdir -p $(dir $@)
	@grep -ho '^Suite \*suite_nc_[a-z0-9_]*(void)' $(NC_TEST_SRC) | \
		sed 's/^Suite \*\(suite_nc_[a-z0-9_]*\)(void)/SUITE(\1)/' > $@.tmp
	@mv $@.tmp $@
$(NC_TEST_OBJ): $(NC_SUITES_H)

$(BUILD)/ncgpu/%.o: %.c
	@mkdir -p $(dir $@)
	$(QUIET_CC)$(CC) $(NC_GPU_CFLAGS) $(PKG_CFLAGS) -c -o $@ $<

$(BUILD)/ncgpu-test/collectives/launch/hooks.o: collectives/launch/hooks.c
	@mkdir -p $(dir $@)
	$(QUIET_CC)$(CC) $(NC_GPU_CFLAGS) -DNC_TEST_HOOKS $(PKG_CFLAGS) -c -o $@ $<

$(BUILD)/ncgpu/collectives/coll/kernels.o: collectives/coll/kernels.cu collectives/coll/kernels.h
	@mkdir -p $(dir $@)
	$(QUIET_NVCC)$(NVCC) -O2 $(NC_NVCC_ARCH) -Icollectives -Xcompiler -Wall,-Werror \
		-c -o $@ $<

$(NCCLCHECK): $(NC_GPU_OBJ) $(NC_LIB_OBJ)
	$(QUIET_LD)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(NC_GPU_LIBS) \
		-Wl,-rpath,$(NC_NCCL_LIBDIR)

$(NCCLCHECK_DIST): $(NC_GPU_OBJ) $(NC_LIB_OBJ)
	@mkdir -p $(dir $@)
	$(QUIET_LD)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(NC_GPU_LIBS)

$(NCCLCHECK_TEST): $(NC_GPU_TEST_OBJ) $(NC_LIB_OBJ)
	$(QUIET_LD)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(NC_GPU_LIBS)

$(NC_GPU_HOG): tests/ncclcheck/gpu_hog.cu
	@mkdir -p $(dir $@)
	$(QUIET_NVCC)$(NVCC) -O2 $(NC_NVCC_ARCH) -o $@ $<

# ncclcheck's option parser alone: what the examples test runs where no
# GPU toolkit is (tests/ncclcheck/examples.sh)
$(NC_PARSE): $(BUILD)/nccpu/tests/ncclcheck/parse_main.o $(NC_CPU_OBJ) $(NC_LIB_OBJ)
	$(QUIET_LD)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(PKG_LIBS) -lpthread -lm

# the pre-flight's exchanges with N simulated ranks (threads) on loopback
$(NC_PFBENCH): $(BUILD)/nccpu/bench/ncclcheck/pf_bench.o $(NC_CPU_OBJ) $(NC_LIB_OBJ)
	$(QUIET_LD)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(PKG_LIBS) -lpthread -lm

.PHONY: bench-preflight
bench-preflight: $(NC_PFBENCH)
	$(NC_PFBENCH) 64
	$(NC_PFBENCH) 512
	$(NC_PFBENCH) 512 old

$(NC_TESTS): $(NC_TEST_OBJ) $(NC_CPU_OBJ) $(NC_LIB_OBJ)
	$(QUIET_LD)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(PKG_LIBS) $(CHECK_LIBS) -lpthread -lm

check-ncclcheck: $(NC_TESTS) $(NC_PARSE)
	$(NC_TESTS)
	NC_PARSE=$(NC_PARSE) NCCLCHECK=$(if $(wildcard $(NCCLCHECK)),$(NCCLCHECK),) \
		sh tests/ncclcheck/examples.sh
	@if nvidia-smi -L >/dev/null 2>&1; then \
		echo "ncclcheck: a GPU is here: run 'make check-gpu' for the GPU tests"; \
	else \
		echo "ncclcheck: GPU tests skipped: no GPU here (nvidia-smi -L failed);" \
			"'make check-gpu' runs them on a GPU host"; \
	fi

# GPU tests: build ncclcheck and run every GPU test on this host.
check-gpu:
ifeq ($(NC_HAVE_TOOLKIT),)
	@echo "check-gpu: skipped: no CUDA toolkit or NCCL here"
else
	@$(MAKE) --no-print-directory $(NCCLCHECK) $(NCCLCHECK_TEST) $(NC_GPU_HOG)
	@if nvidia-smi -L >/dev/null 2>&1; then \
		NCCLCHECK=$(CURDIR)/$(NCCLCHECK) \
		NCCLCHECK_TEST=$(CURDIR)/$(NCCLCHECK_TEST) \
		GPU_HOG=$(CURDIR)/$(NC_GPU_HOG) \
			bash tests/ncclcheck/gpu-run.sh; \
	else \
		echo "check-gpu: skipped: no GPU (nvidia-smi -L failed)"; \
	fi
endif

# Where NCCL came from, for debian/rules: its directory, and whether the
# loader needs an ld.so.conf.d file to find it there.
print-nccl:
	@echo "toolkit=$(if $(NC_HAVE_TOOLKIT),yes,no) libdir=$(NC_NCCL_LIBDIR)" \
		"ldconf=$(NC_LD_CONF)"

install-ncclcheck:
	@if [ -x $(NCCLCHECK_DIST) ]; then \
		set -e; \
		echo "$(INSTALL) -m 755 $(INSTALL_STRIP) $(NCCLCHECK_DIST)" \
			"$(DESTDIR)$(BINDIR)/ncclcheck"; \
		install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
			$(DESTDIR)$(BASHCOMPDIR); \
		$(INSTALL) -m 755 $(INSTALL_STRIP) $(NCCLCHECK_DIST) \
			$(DESTDIR)$(BINDIR)/ncclcheck; \
		$(MAN_PATHS) man/ncclcheck.1 > \
			$(DESTDIR)$(MANDIR)/man1/ncclcheck.1; \
		chmod 644 $(DESTDIR)$(MANDIR)/man1/ncclcheck.1; \
		install -m 644 contrib/bash-completion/ncclcheck \
			$(DESTDIR)$(BASHCOMPDIR)/ncclcheck; \
		if [ -z "$(NC_LD_CONF)" ]; then :; \
		elif [ -n "$(LDSOCONFDIR)" ]; then \
			install -d $(DESTDIR)$(LDSOCONFDIR); \
			echo "# libnccl.so.2 for ncclcheck (netprobe)" > \
				$(DESTDIR)$(LDSOCONFDIR)/ncclcheck-nccl.conf; \
			echo "$(NC_NCCL_LIBDIR:%/=%)" >> \
				$(DESTDIR)$(LDSOCONFDIR)/ncclcheck-nccl.conf; \
			chmod 644 $(DESTDIR)$(LDSOCONFDIR)/ncclcheck-nccl.conf; \
		elif ! /sbin/ldconfig -p 2>/dev/null | grep -q 'libnccl\.so\.2 '; then \
			echo "install: note: ncclcheck needs libnccl.so.2 from" \
				"$(NC_NCCL_LIBDIR), which the loader does not search:" \
				"install libnccl2, or put that directory in a file of" \
				"/etc/ld.so.conf.d and run ldconfig" \
				"(or: make install LDSOCONFDIR=/etc/ld.so.conf.d)"; \
		fi; \
	else \
		echo "install: ncclcheck not built, skipped (needs CUDA and NCCL)"; \
	fi

uninstall-ncclcheck:
	rm -f $(DESTDIR)$(BINDIR)/ncclcheck $(DESTDIR)$(MANDIR)/man1/ncclcheck.1 \
		$(DESTDIR)$(BASHCOMPDIR)/ncclcheck \
		$(if $(LDSOCONFDIR),$(DESTDIR)$(LDSOCONFDIR)/ncclcheck-nccl.conf)

-include $(NC_CPU_OBJ:.o=.d) $(NC_GPU_OBJ:.o=.d) $(NC_TEST_OBJ:.o=.d)

# The layout check reads ncclcheck's objects too: on a machine without the
# toolkit those are the CPU build's, which only the CPU tests would build;
# build them first, so the check never runs before they exist.
check-layout: $(NC_CPU_OBJ)
