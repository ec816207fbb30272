# Tests: cmocka unit tests, then integration scripts over the built tools.
# `make check` runs them in a plain build and again under ASan+UBSan.
UNIT_SRC  := $(wildcard tests/unit/test_*.c)
UNIT_BIN  := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
CMOCKA    := $(shell pkg-config --cflags --libs cmocka 2>/dev/null || echo -lcmocka)
JANSSON   := $(shell pkg-config --cflags --libs jansson 2>/dev/null || echo -ljansson)

$(BUILD)/tests/%: tests/unit/%.c $(LIBCOMMON)
	@mkdir -p $(dir $@)
	$(CC) $(BASE) $(CFLAGS) $(LDFLAGS) $< $(LIBCOMMON) -o $@ $(CMOCKA) $(JANSSON) $(LIBS)

check-unit: $(UNIT_BIN)
	@tests/run_unit.sh $(UNIT_BIN)

INT_SRC := $(wildcard tests/integration/test_*.c)
INT_BIN := $(INT_SRC:tests/integration/test_%.c=$(BUILD)/tests/integration_%)

$(BUILD)/tests/integration_%: tests/integration/test_%.c
	@mkdir -p $(dir $@)
	$(CC) $(BASE) $(CFLAGS) $(LDFLAGS) $< -o $@ $(CMOCKA) $(JANSSON) $(LIBS)

# Run from the repository root: the tests call ./run_all.sh.
check-integration: probes $(INT_BIN)
	@BUILD=$(BUILD) tests/run_unit.sh $(INT_BIN)

SAN := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
check-sanitize:
	$(MAKE) BUILD=build-asan CFLAGS="$(SAN)" LDFLAGS="-fsanitize=address,undefined" check-unit check-integration

check:
	$(MAKE) check-unit check-integration
	$(MAKE) check-sanitize
	@echo "check: all test suites passed (plain and ASan+UBSan)"
