# Fuzzing what faces the network and the files users pass (issues 22 and
# 45): the responder's connection state machine (fuzz_serve), the mesh
# rendezvous (fuzz_rdv) and its watch branch (fuzz_watch), the /metrics
# request reader (fuzz_metrics), NCCL RAS answers (fuzz_ras), explain's
# log reader and matcher (fuzz_explain), report's loader and renderers
# (fuzz_report), the sysroot readers (fuzz_sysroot) and torch's Flight
# Recorder dumps, pickle and JSON (fuzz_frdump, issue 43), beside the
# protocol decoders of mk/serve.mk.
# `make fuzz` runs each FUZZ_TIME seconds too (fuzz-ci: 20 s each), with
# its seeds in tests/fuzz/corpus-NAME and new inputs in
# $(BUILD)/fuzz-corpus-NAME; a crash's input goes to
# $(BUILD)/fuzz-NAME-crash-SHA1 (fixed, it belongs in the target's corpus
# as a regression input, never at the repository's root). The library
# and the commands are compiled once more by clang with the fuzzer's
# instrumentation, into $(BUILD)/fuzzobj. Skipped, as fuzz is, without
# clang's libFuzzer.
# libFuzzer's runtime: clang only recommends it (libclang-rt-dev, the
# default version's), so `make deps` names it where recommends are off.
DEB_PKGS += libclang-rt-dev
FUZZ_NAMES := serve rdv report sysroot metrics ras explain watch frdump
FUZZ_OBJDIR := $(BUILD)/fuzzobj
FUZZ_FLAGS := -std=c11 -D_GNU_SOURCE -DNETPROBE_VERSION='"$(VERSION)"' \
	-g -O1 -Ilib -Iprobes $(REPORT_INC) -fsanitize=address,undefined \
	-fno-sanitize-recover=undefined
FUZZ_LIB_OBJ := $(patsubst %.c,$(FUZZ_OBJDIR)/%.o,$(LIB_SRC) $(CMD_SRC))
FUZZ_BINS := $(addprefix $(BUILD)/fuzz_,$(FUZZ_NAMES))
# A target takes from the archive only the objects it reaches, and from
# the shared libraries only those they call (--as-needed): the binaries
# go to a bigger machine for long runs (bench/fuzz/longrun.sh), so the
# sanitizers' and libFuzzer's runtimes (static already), the C++ runtime,
# jansson and libcrypto (where their .a is installed) are linked in;
# `ldd` shows libc and libm, and libmnl or libpcap for a target that
# reaches netlink or captures.
FUZZ_AR := $(FUZZ_OBJDIR)/libnpfuzz.a
FUZZ_STATIC = $(foreach l,jansson crypto,$(filter /%,$(shell \
	$(FUZZ_CC) -print-file-name=lib$(l).a 2>/dev/null)))
FUZZ_LDFLAGS := -static-libstdc++ -static-libgcc -Wl,--as-needed
# Seed folders a target reads besides tests/fuzz/corpus-NAME, never
# written (explain: the recorded logs, wild/ too, as libFuzzer reads a
# folder whole); bench/fuzz/longrun.sh names the same.
FUZZ_SEEDS_explain := tests/explain
FUZZ_SEEDS_frdump := tests/fixtures/frdump
FUZZ_RP := )

.PHONY: fuzz-more fuzz-more-build
.SECONDARY: $(FUZZ_LIB_OBJ)
fuzz: fuzz-more

$(FUZZ_OBJDIR)/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link $(PKG_CFLAGS) \
		-c -o $@ $<

$(FUZZ_AR): $(FUZZ_LIB_OBJ)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_AR)
	$(if $(Q),@printf '  %-7s %s\n' FUZZ $@)
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer $(PKG_CFLAGS) \
		$(FUZZ_LDFLAGS) -o $@ $< $(FUZZ_AR) $(FUZZ_STATIC) $(PKG_LIBS) \
		-lm -ldl -lpthread

fuzz-more-build: fuzz-build
	@if [ -x $(FUZZ_BIN) ]; then \
		$(MAKE) --no-print-directory $(FUZZ_BINS); \
	fi

fuzz-more: fuzz-more-build
	@rc=0; for n in $(FUZZ_NAMES); do \
		[ -x $(BUILD)/fuzz_$$n ] || continue; \
		mkdir -p $(BUILD)/fuzz-corpus-$$n; \
		echo "fuzz: $$n for $(FUZZ_TIME) s"; \
		seeds=; case $$n in $(foreach n,$(FUZZ_NAMES),$(if \
			$(FUZZ_SEEDS_$(n)),$(n)$(FUZZ_RP) \
			seeds='$(FUZZ_SEEDS_$(n))';;)) esac; \
		if ! $(BUILD)/fuzz_$$n -max_total_time=$(FUZZ_TIME) -timeout=10 \
			-artifact_prefix=$(BUILD)/fuzz-$$n- \
			-rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
			$(BUILD)/fuzz-corpus-$$n tests/fuzz/corpus-$$n $$seeds \
			>$(BUILD)/fuzz-$$n.log 2>&1; then \
			tail -40 $(BUILD)/fuzz-$$n.log; rc=1; \
		fi; \
		grep -E '^stat::(number_of_executed_units|peak_rss)' \
			$(BUILD)/fuzz-$$n.log; \
		grep -E '^#[0-9]+[[:space:]]+DONE' $(BUILD)/fuzz-$$n.log; \
	done; exit $$rc
