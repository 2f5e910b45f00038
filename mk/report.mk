# netprobe report: golden files, the namespace demo, and the packages its
# tests use (Chromium renders the HTML report, xmllint validates JUnit).
DEB_PKGS += chromium libxml2-utils python3

.PHONY: report-goldens demo
# Rewrites tests/fixtures/report/golden/* from the recorded documents;
# review the diff before committing it.
report-goldens: $(UNIT)
	REPORT_GOLDEN_UPDATE=1 CK_RUN_SUITE=report $(UNIT)

# A simulated cluster in network namespaces (root): scans and probes on
# every node, then the report in every format under DEMO_DIR.
DEMO_DIR ?= $(BUILD)/demo
demo: $(NETPROBE)
	NETPROBE=$(CURDIR)/$(NETPROBE) sh tests/demo/demo.sh $(DEMO_DIR)
