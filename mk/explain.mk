# netprobe explain: `make check-explain` explains every log of the corpus
# (tests/explain/*.log, written from the frameworks' message formats) and
# fails on a missed or a wrong cause; the blind sets of issue 42 are
# floors (blind42: its figures, blind42b to blind42o: each
# case); it
# scores the wild corpus
# (tests/explain/wild, tests/explain/wild.sh; `make explain-results`
# writes tests/explain/RESULTS.md); `make bench-explain` times a
# generated 100,000-line log (bench/explain/RESULTS.md).
DEB_PKGS += jq

.PHONY: check-explain bench-explain explain-results
CHECK_TARGETS += check-explain

check-explain: $(NETPROBE)
	@NETPROBE=$(CURDIR)/$(NETPROBE) sh tests/explain/run.sh
	@NETPROBE=$(CURDIR)/$(NETPROBE) sh tests/explain/wild.sh
	@NETPROBE=$(CURDIR)/$(NETPROBE) sh tests/explain/blind42/floor.sh
	@NETPROBE=$(CURDIR)/$(NETPROBE) sh tests/explain/blind42b/floor.sh
	@NETPROBE=$(CURDIR)/$(NETPROBE) sh tests/explain/blind42b/floor.sh tests/explain/blind42c
	@NETPROBE=$(CURDIR)/$(NETPROBE) sh tests/explain/blind42b/floor.sh tests/explain/blind42d
	@NETPROBE=$(CURDIR)/$(NETPROBE) sh tests/explain/blind42b/floor.sh tests/explain/blind42e
	@NETPROBE=$(CURDIR)/$(NETPROBE) sh tests/explain/blind42b/floor.sh tests/explain/blind42f
	@NETPROBE=$(CURDIR)/$(NETPROBE) sh tests/explain/blind42b/floor.sh tests/explain/blind42g
	@NETPROBE=$(CURDIR)/$(NETPROBE) sh tests/explain/blind42b/floor.sh tests/explain/blind42h
	@NETPROBE=$(CURDIR)/$(NETPROBE) sh tests/explain/blind42b/floor.sh tests/explain/blind42i
	@NETPROBE=$(CURDIR)/$(NETPROBE) sh tests/explain/blind42b/floor.sh tests/explain/blind42j
	@NETPROBE=$(CURDIR)/$(NETPROBE) sh tests/explain/blind42b/floor.sh tests/explain/blind42k
	@NETPROBE=$(CURDIR)/$(NETPROBE) sh tests/explain/blind42b/floor.sh tests/explain/blind42l
	@NETPROBE=$(CURDIR)/$(NETPROBE) sh tests/explain/blind42b/floor.sh tests/explain/blind42m
	@NETPROBE=$(CURDIR)/$(NETPROBE) sh tests/explain/blind42b/floor.sh tests/explain/blind42n
	@NETPROBE=$(CURDIR)/$(NETPROBE) sh tests/explain/blind42b/floor.sh tests/explain/blind42o
	@NETPROBE=$(CURDIR)/$(NETPROBE) sh tests/explain/blind42b/floor.sh tests/explain/blind42p
	@NETPROBE=$(CURDIR)/$(NETPROBE) sh tests/explain/blind42b/floor.sh tests/explain/blind42q
	@NETPROBE=$(CURDIR)/$(NETPROBE) sh tests/explain/blind42b/floor.sh tests/explain/blind42r
	@NETPROBE=$(CURDIR)/$(NETPROBE) sh tests/explain/blind42b/floor.sh tests/explain/blind42s
	@NETPROBE=$(CURDIR)/$(NETPROBE) sh tests/explain/blind42b/floor.sh tests/explain/blind42t
	@NETPROBE=$(CURDIR)/$(NETPROBE) sh tests/explain/blind42b/floor.sh tests/explain/blind42u
	@NETPROBE=$(CURDIR)/$(NETPROBE) sh tests/explain/blind42b/floor.sh tests/explain/blind42v
	@NETPROBE=$(CURDIR)/$(NETPROBE) sh tests/explain/blind42b/floor.sh tests/explain/blind42w
	@NETPROBE=$(CURDIR)/$(NETPROBE) sh tests/explain/blind42b/floor.sh tests/explain/blind42x
	@NETPROBE=$(CURDIR)/$(NETPROBE) sh tests/explain/blind42b/floor.sh tests/explain/blind42y
	@NETPROBE=$(CURDIR)/$(NETPROBE) sh tests/explain/blind42b/floor.sh tests/explain/blind42z
	@NETPROBE=$(CURDIR)/$(NETPROBE) sh tests/explain/lab.sh
	@NETPROBE=$(CURDIR)/$(NETPROBE) sh tests/explain/frdump.sh

bench-explain: $(NETPROBE)
	@NETPROBE=$(CURDIR)/$(NETPROBE) sh bench/explain/run.sh

# The wild corpus's figures replace the file's first section only: the
# blind sets' sections after it are measurements that cannot be rerun
# blind, so they are kept as written.
explain-results: $(NETPROBE)
	@NETPROBE=$(CURDIR)/$(NETPROBE) RESULTS=$(BUILD)/wild-results.md \
		sh tests/explain/wild.sh
	@{ cat $(BUILD)/wild-results.md; echo; \
	  awk 'NR > 1 && /^# / { keep = 1 } keep' tests/explain/RESULTS.md; \
	} > $(BUILD)/RESULTS.md.new && \
		mv $(BUILD)/RESULTS.md.new tests/explain/RESULTS.md
