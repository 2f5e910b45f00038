# Node 0 under a join storm (bench/mesh/joinstorm.sh, root): `make
# bench-joinstorm [JOINSTORM_N="250 1000 2000"]`; figures in
# bench/mesh/RESULTS.md.
JOINSTORM_N ?= 250 1000 2000
$(BUILD)/joinstorm: bench/mesh/joinstorm.c $(BUILD)/lib/wire/proto_mesh.o \
		$(BUILD)/lib/wire/proto_hdr.o $(BUILD)/lib/wire/proto_codec.o \
		$(BUILD)/lib/base/monoclock.o \
		$(BUILD)/lib/base/sock.o
	$(QUIET_LD)$(CC) $(ALL_CFLAGS) -o $@ $^

.PHONY: bench-joinstorm
bench-joinstorm: $(NETPROBE) $(BUILD)/joinstorm
	@for n in $(JOINSTORM_N); do \
		echo "== $$n members"; \
		sh bench/mesh/joinstorm.sh $(NETPROBE) $(BUILD)/joinstorm $$n; \
	done
