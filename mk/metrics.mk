# Prometheus: `promtool check metrics` and `check rules` in the labs of
# --metrics (tests/lab/t_serve_metrics.sh, t_watch_prom.sh), and the
# server itself scraping a watching mesh.
DEB_PKGS += prometheus
