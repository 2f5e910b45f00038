# The whole mesh with N members on one host, each on its own loopback
# address (bench/mesh/loopmesh.sh, root): `make bench-loopmesh
# [LOOPMESH_N="16 64 128"]`; figures in bench/mesh/RESULTS.md.
LOOPMESH_N ?= 16 64
$(BUILD)/loopmesh_util: bench/mesh/loopmesh_util.c $(BUILD)/lib/base/monoclock.o
	$(QUIET_LD)$(CC) $(ALL_CFLAGS) -o $@ $^

.PHONY: bench-loopmesh
bench-loopmesh: $(NETPROBE) $(BUILD)/loopmesh_util
	@for n in $(LOOPMESH_N); do \
		sh bench/mesh/loopmesh.sh $(NETPROBE) $(BUILD)/loopmesh_util $$n; \
	done

# What node 0 spends keeping documents, the tree's dump against
# json_indent (bench/mesh/keepcost.c): `make bench-keepcost
# KEEPCOST_DIR=DIR`, DIR a mesh's --out.
$(BUILD)/keepcost: bench/mesh/keepcost.c $(BUILD)/lib/doc/json_indent.o
	$(QUIET_LD)$(CC) $(ALL_CFLAGS) $(PKG_CFLAGS) $(ALL_LDFLAGS) -o $@ $^ $(PKG_LIBS)

.PHONY: bench-keepcost
bench-keepcost: $(BUILD)/keepcost
	@$(BUILD)/keepcost $(KEEPCOST_DIR)
