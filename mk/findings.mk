# The finding codes: docs/findings.md, the list in netprobe(1) and the
# list of ncclcheck's codes in ncclcheck(1) are made from
# lib/doc/findings.def by tools/findings_doc.c. `make findings-doc`
# rewrites them; `make check` fails when they differ from the table.

FINDINGS_DOC := $(BUILD)/findings-doc
FINDINGS_MAN := man/netprobe.1
FINDINGS_NC_MAN := man/ncclcheck.1

.PHONY: findings-doc check-findings-doc
CHECK_TARGETS += check-findings-doc

$(FINDINGS_DOC): $(BUILD)/tools/findings_doc.o $(BUILD)/lib/doc/finding.o
	$(QUIET_LD)$(CC) $(ALL_LDFLAGS) -o $@ $^

findings-doc: $(FINDINGS_DOC)
	$(FINDINGS_DOC) md > docs/findings.md.tmp
	mv docs/findings.md.tmp docs/findings.md
	$(FINDINGS_DOC) man $(FINDINGS_MAN) > $(FINDINGS_MAN).tmp
	mv $(FINDINGS_MAN).tmp $(FINDINGS_MAN)
	$(FINDINGS_DOC) man $(FINDINGS_NC_MAN) ncclcheck > $(FINDINGS_NC_MAN).tmp
	mv $(FINDINGS_NC_MAN).tmp $(FINDINGS_NC_MAN)

# Regenerates both into $(BUILD)/findings-doc.d and compares, then checks
# that every code of the table is in both and in nothing else's place.
check-findings-doc: $(FINDINGS_DOC)
	@mkdir -p $(BUILD)/findings-doc.d
	@$(FINDINGS_DOC) md > $(BUILD)/findings-doc.d/findings.md
	@$(FINDINGS_DOC) man $(FINDINGS_MAN) > $(BUILD)/findings-doc.d/netprobe.1
	@$(FINDINGS_DOC) man $(FINDINGS_NC_MAN) ncclcheck > \
		$(BUILD)/findings-doc.d/ncclcheck.1
	@diff -u docs/findings.md $(BUILD)/findings-doc.d/findings.md && \
	diff -u $(FINDINGS_MAN) $(BUILD)/findings-doc.d/netprobe.1 && \
	diff -u $(FINDINGS_NC_MAN) $(BUILD)/findings-doc.d/ncclcheck.1 || { \
		echo "docs/findings.md, $(FINDINGS_MAN) or $(FINDINGS_NC_MAN)" \
			"differs from lib/doc/findings.def: run" \
			"'make findings-doc'" >&2; \
		exit 1; }
	@for c in $$($(FINDINGS_DOC) list); do \
		grep -q "^## $$c\$$" docs/findings.md && \
		grep -q "^\.It Cm $$c Pq" $(FINDINGS_MAN) || { \
			echo "finding code '$$c' missing from docs/findings.md" \
				"or $(FINDINGS_MAN): run 'make findings-doc'" >&2; \
			exit 1; }; \
	done
	@for c in $$($(FINDINGS_DOC) list ncclcheck); do \
		grep -q "^\.It Cm $$c Pq" $(FINDINGS_NC_MAN) || { \
			echo "finding code '$$c' missing from" \
				"$(FINDINGS_NC_MAN): run 'make findings-doc'" >&2; \
			exit 1; }; \
	done
	@echo "findings-doc: $$($(FINDINGS_DOC) list | wc -l) codes in" \
		"docs/findings.md and $(FINDINGS_MAN)," \
		"$$($(FINDINGS_DOC) list ncclcheck | wc -l) in" \
		"$(FINDINGS_NC_MAN), as in the table"
