# netprobe serve / heartbeat: libcrypto for the HMAC token check, the
# protocol fuzz target (make fuzz, fuzz-ci in make check) and benchmarks.
DEB_PKGS += libssl-dev
PKG_CFLAGS += $(shell $(PKG_CONFIG) --cflags libcrypto 2>/dev/null)
PKG_LIBS += $(shell $(PKG_CONFIG) --libs libcrypto 2>/dev/null)

# The protocol decoder under libFuzzer: `make fuzz` runs FUZZ_TIME seconds
# (default 60), `make fuzz-ci` (part of make check) 20 seconds. New inputs
# go to $(BUILD)/fuzz-corpus; the seeds in tests/fuzz/corpus stay as they
# are. Skipped with a message when clang or its fuzzer runtime is missing.
FUZZ_CC ?= clang
FUZZ_TIME ?= 60
FUZZ_BIN := $(BUILD)/fuzz_proto
FUZZ_SRC := tests/fuzz/fuzz_proto.c lib/wire/proto_msg.c lib/wire/proto_mesh.c \
	lib/wire/proto_codec.c \
	lib/wire/proto_hdr.c lib/wire/portstate.c

.PHONY: fuzz fuzz-ci fuzz-build bench-serve bench-heartbeat bench-serve-crowd
CHECK_TARGETS += fuzz-ci

fuzz-build:
	@mkdir -p $(BUILD)
	@if ! command -v $(FUZZ_CC) >/dev/null 2>&1 || \
	    ! echo 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n){(void)d;(void)n;return 0;}' | \
	    $(FUZZ_CC) -x c -fsanitize=fuzzer -o $(BUILD)/fuzz-probe - \
		>/dev/null 2>&1; then \
		echo "fuzz: skipped: $(FUZZ_CC) with -fsanitize=fuzzer (libFuzzer) is not available"; \
		rm -f $(FUZZ_BIN); \
	else \
		$(if $(Q),printf '  %-7s %s\n' FUZZ $(FUZZ_BIN),set -x); \
		$(FUZZ_CC) -std=c11 -D_GNU_SOURCE -g -O1 -Ilib \
			-fsanitize=fuzzer,address,undefined \
			-fno-sanitize-recover=undefined \
			-static-libstdc++ -static-libgcc \
			-o $(FUZZ_BIN) $(FUZZ_SRC); \
	fi

fuzz: fuzz-build
	@if [ -x $(FUZZ_BIN) ]; then \
		mkdir -p $(BUILD)/fuzz-corpus; \
		$(FUZZ_BIN) -max_total_time=$(FUZZ_TIME) -timeout=5 \
			-artifact_prefix=$(BUILD)/fuzz-proto- \
			-rss_limit_mb=1024 -max_len=66000 -print_final_stats=1 \
			$(BUILD)/fuzz-corpus tests/fuzz/corpus; \
	fi

fuzz-ci:
	@$(MAKE) --no-print-directory fuzz FUZZ_TIME=20

# Benchmarks, by hand (bench/*/RESULTS.md holds the figures).
$(BUILD)/bench-load: bench/serve/load.c $(BUILD)/lib/wire/proto_hdr.o \
		$(BUILD)/lib/base/monoclock.o
	$(QUIET_LD)$(CC) $(ALL_CFLAGS) -o $@ $^

bench-serve: $(NETPROBE) $(BUILD)/bench-load
	NETPROBE=$(NETPROBE) LOAD=$(BUILD)/bench-load sh bench/serve/run.sh

bench-heartbeat: $(NETPROBE)
	NETPROBE=$(NETPROBE) sh bench/heartbeat/run.sh

# issue 34: CLIENTS clients (default 5000) against a table of MAX (1024)
$(BUILD)/bench-crowd: bench/serve/crowd.c $(BUILD)/lib/wire/proto_hdr.o \
		$(BUILD)/lib/base/monoclock.o $(BUILD)/lib/base/sock.o
	$(QUIET_LD)$(CC) $(ALL_CFLAGS) -o $@ $^

bench-serve-crowd: $(NETPROBE) $(BUILD)/bench-crowd
	NETPROBE=$(NETPROBE) CROWD=$(BUILD)/bench-crowd sh bench/serve/crowd.sh
