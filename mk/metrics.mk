# Prometheus: `promtool check metrics` and `check rules` in the labs of
# --metrics (tests/lab/t_serve_metrics.sh, t_watch_prom.sh), and the
# server itself scraping a watching mesh.
DEB_PKGS += prometheus

# The Prometheus rules as operators load them, without a lab: promtool
# checks them and runs their unit tests (an alert keeps the metric's own
# severity, issue 44); the dashboard is valid JSON and shows a path MTU as
# a plain number (Grafana's "bytes" unit drew 1500 as 1.46 KiB) and RTT
# from the histogram's buckets (histogram_quantile), the series a watch
# writes since the RTT is a histogram (issue 44).
.PHONY: check-contrib
CHECK_TARGETS += check-contrib
check-contrib:
	@command -v promtool >/dev/null 2>&1 || { \
		echo "check-contrib: skipped, no promtool (make deps)"; exit 0; }; \
	cd contrib/prometheus && promtool check rules netprobe.rules.yml && \
		promtool test rules netprobe.rules.test.yml
	@python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); \
		bad=[p["title"] for p in d["panels"] if any("_mtu_" in t.get("expr","") for t in p.get("targets",[])) and p.get("fieldConfig",{}).get("defaults",{}).get("unit")!="none"]; \
		sys.exit("check-contrib: MTU panels with a scaling unit: %s" % bad if bad else 0)' \
		contrib/grafana/netprobe-dashboard.json
	@python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); \
		bad=[p["title"] for p in d["panels"] if any("netprobe_mesh_peer_rtt_seconds{" in t.get("expr","") for t in p.get("targets",[]))]; \
		sys.exit("check-contrib: RTT panels read the summary'"'"'s quantile series, gone (the histogram'"'"'s _bucket): %s" % bad if bad else 0)' \
		contrib/grafana/netprobe-dashboard.json
	@echo "contrib: rules, rule tests and dashboard ok"
