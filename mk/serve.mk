# netprobe serve / heartbeat: libcrypto for the HMAC token check, the
# protocol fuzz target (make fuzz, fuzz-ci in make check) and benchmarks.
DEB_PKGS += libssl-dev
PKG_CFLAGS += $(shell $(PKG_CONFIG) --cflags libcrypto 2>/dev/null)
PKG_LIBS += $(shell $(PKG_CONFIG) --libs libcrypto 2>/dev/null)
