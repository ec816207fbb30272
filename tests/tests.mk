# Tests: cmocka unit tests, then integration scripts over the built tools.
# `make check` runs them in a plain build and again under ASan+UBSan.
UNIT_SRC  := $(wildcard tests/unit/test_*.c)
UNIT_BIN  := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
CMOCKA    := $(shell pkg-config --cflags --libs cmocka 2>/dev/null || echo -lcmocka)
JANSSON   := $(shell pkg-config --libs jansson 2>/dev/null || echo -ljansson) -lz

# Every test binary takes HA_TEST_FILTER (tests/cmocka_filter.c).
FILTER_OBJ := $(BUILD)/tests/cmocka_filter.o
$(FILTER_OBJ): tests/cmocka_filter.c
	@mkdir -p $(dir $@)
	$(CC) $(BASE) $(CFLAGS) -c $< -o $@

$(BUILD)/tests/%: tests/unit/%.c $(LIBCOMMON) $(BUILD)/fix/refpool.o $(FILTER_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(BASE) -Ifix $(CFLAGS) $(LDFLAGS) $< $(BUILD)/fix/refpool.o $(FILTER_OBJ) $(LIBCOMMON) -o $@ $(CMOCKA) $(JANSSON) $(LIBS)

# The bench's sampling alone: linked with bench/measure.c (the test stubs
# its one call into paths.c).
$(BUILD)/tests/test_measure: tests/unit/test_measure.c bench/measure.c bench/measure.h $(LIBCOMMON) $(FILTER_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(BASE) -Ibench $(CFLAGS) $(LDFLAGS) $< bench/measure.c $(FILTER_OBJ) $(LIBCOMMON) -o $@ $(CMOCKA) $(JANSSON) $(LIBS)

# A worker's environment alone: linked with bench/workerenv.c.
$(BUILD)/tests/test_workerenv: tests/unit/test_workerenv.c bench/workerenv.c bench/workerenv.h $(LIBCOMMON) $(FILTER_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(BASE) -Ibench $(CFLAGS) $(LDFLAGS) $< bench/workerenv.c $(FILTER_OBJ) $(LIBCOMMON) -o $@ $(CMOCKA) $(JANSSON) $(LIBS)

# compare's judgement, on synthetic runs: linked with the report code.
REPORT_UNIT_SRC := $(wildcard tests/unit/report/test_*.c)
REPORT_UNIT_BIN := $(REPORT_UNIT_SRC:tests/unit/report/%.c=$(BUILD)/tests/report_%)
# recfix: the committed H200 run's records, for tests that edit them.
$(BUILD)/tests/report_%: tests/unit/report/%.c tests/unit/report/recfix.c tests/unit/report/recfix.h $(REPORT_LIB_OBJ) \
                         $(LIBBASE) $(FILTER_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(BASE) $(REPORT_INC) $(CFLAGS) $(LDFLAGS) $< tests/unit/report/recfix.c $(REPORT_LIB_OBJ) $(FILTER_OBJ) $(LIBBASE) \
	    -o $@ $(CMOCKA) $(JANSSON) $(LIBS)

# Each check-* builds what it runs first, on every CPU (JOBS), then runs it:
# the suites run in parallel in run_unit.sh, and the compiler must not
# compete with them for CPUs while they do.
check-unit:
	@$(MAKE) --no-print-directory -j$(JOBS) $(UNIT_BIN) $(REPORT_UNIT_BIN)
	@tests/run_unit.sh $(UNIT_BIN) $(REPORT_UNIT_BIN)

# Stand-in runtimes, so CI drives the hip and cuda backends past "no device".
FAKES := $(BUILD)/fakes/cuda/libcuda.so.1 $(BUILD)/fakes/hip/libamdhip64.so $(BUILD)/fakes/cuda-datasym/libcuda.so.1 \
         $(BUILD)/fakes/cuda-undef/libcuda.so.1 \
         $(BUILD)/fakes/hip-datasym/libamdhip64.so $(BUILD)/fakes/hip-initexit/libamdhip64.so \
         $(BUILD)/fakes/hip-inithang/libamdhip64.so $(BUILD)/fakes/io_order.so
$(BUILD)/fakes/io_order.so: tests/shims/io_order.c
	@mkdir -p $(dir $@)
	$(CC) -shared -fPIC -O1 $(WARN) $< -o $@ -ldl
$(BUILD)/fakes/hip-initexit/libamdhip64.so: tests/fakes/fake_hip.c
	@mkdir -p $(dir $@)
	$(CC) -shared -fPIC -O1 $(WARN) -DFAKE_INIT_EXIT $< -o $@
$(BUILD)/fakes/hip-inithang/libamdhip64.so: tests/fakes/fake_hip.c
	@mkdir -p $(dir $@)
	$(CC) -shared -fPIC -O1 $(WARN) -DFAKE_INIT_HANG $< -o $@
$(BUILD)/fakes/cuda/libcuda.so.1: tests/fakes/fake_cuda.c
	@mkdir -p $(dir $@)
	$(CC) -shared -fPIC -O1 $(WARN) $< -o $@
$(BUILD)/fakes/hip-datasym/libamdhip64.so: tests/fakes/fake_hip.c
	@mkdir -p $(dir $@)
	$(CC) -shared -fPIC -O1 $(WARN) -DFAKE_DATA_HIPINIT $< -o $@
$(BUILD)/fakes/cuda-datasym/libcuda.so.1: tests/fakes/fake_cuda.c
	@mkdir -p $(dir $@)
	$(CC) -shared -fPIC -O1 $(WARN) -DFAKE_DATA_CUINIT $< -o $@
$(BUILD)/fakes/cuda-undef/libcuda.so.1: tests/fakes/fake_cuda.c
	@mkdir -p $(dir $@)
	$(CC) -shared -fPIC -O1 $(WARN) -DFAKE_UNDEFINED_SYMBOL $< -o $@
$(BUILD)/fakes/hip/libamdhip64.so: tests/fakes/fake_hip.c
	@mkdir -p $(dir $@)
	$(CC) -shared -fPIC -O1 $(WARN) $< -o $@

INT_SRC := $(wildcard tests/integration/test_*.c)
INT_ALL := $(INT_SRC:tests/integration/test_%.c=$(BUILD)/tests/integration_%)
# The suites that take longest (CI's stage table: ASan and plain) start
# first. run_unit.sh runs two at once on CI's 2 CPUs, in this order: a long
# suite started last keeps one CPU busy alone for its whole length.
INT_SLOW := $(filter $(INT_ALL),$(patsubst %,$(BUILD)/tests/integration_%,committed quickstart journeys fleet untrusted changes report campaign))
INT_BIN := $(INT_SLOW) $(filter-out $(INT_SLOW),$(INT_ALL))
# On a GPU, the suites whose run_all.sh runs pool_check on it run after the
# others, one at a time (run_unit.sh): on an H100, pool_check failed its
# free-memory checks beside other suites' GPU work (docs/tools.md).
INT_GPU_ALONE := integration_quickstart integration_journeys

$(BUILD)/tests/integration_%: tests/integration/test_%.c tests/integration/itest.c tests/integration/itest.h $(FILTER_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(BASE) $(CFLAGS) $(LDFLAGS) $< tests/integration/itest.c $(FILTER_OBJ) -o $@ $(CMOCKA) $(JANSSON) $(LIBS)

# The stand-in's entry points, called with the header's own prototypes.
$(BUILD)/tests/integration_standin_api: BASE := $(BASE) $(HIP_FLAGS)
$(BUILD)/tests/integration_standin_api: LIBS := $(LIBS) -ldl

# What the integration tests run besides themselves.
test-tools: probes report $(FAKES) $(BUILD)/schema_md

# Run from the repository root: the tests call ./run_all.sh.
# INT_SKIP: suites (integration_NAME) left out of this run; see check-nohdr.
INT_RUN = $(filter-out $(INT_SKIP:%=$(BUILD)/tests/%),$(INT_BIN))
check-integration:
	@$(MAKE) --no-print-directory -j$(JOBS) test-tools $(INT_BIN)
	@BUILD=$(BUILD) HA_TEST_ALONE="$(INT_GPU_ALONE)" tests/run_unit.sh $(INT_RUN)

SAN := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
check-sanitize:
	$(MAKE) -j1 BUILD=build-asan CFLAGS="$(SAN)" LDFLAGS="-fsanitize=address,undefined" check-unit check-integration check-fuzz-corpus

# The fuzz corpus, replayed through both fuzz targets (ASan in check-sanitize):
# the record reader alone, and the whole report path behind it.
$(BUILD)/tests/fuzz_replay: tests/fuzz/replay.c $(BUILD)/report/fuzz/fuzz_record.o $(REPORT_LIB_OBJ) $(LIBBASE)
	@mkdir -p $(dir $@)
	$(CC) $(BASE) $(CFLAGS) $(LDFLAGS) $^ -o $@ $(JANSSON) $(LIBS)
$(BUILD)/tests/fuzz_replay_report: tests/fuzz/replay.c $(BUILD)/report/fuzz/fuzz_report.o $(REPORT_LIB_OBJ) $(LIBBASE)
	@mkdir -p $(dir $@)
	$(CC) $(BASE) $(CFLAGS) $(LDFLAGS) $^ -o $@ $(JANSSON) $(LIBS)

check-fuzz-corpus:
	@$(MAKE) --no-print-directory -j$(JOBS) $(BUILD)/tests/fuzz_replay $(BUILD)/tests/fuzz_replay_report
	$(BUILD)/tests/fuzz_replay tests/fuzz/corpus
	$(BUILD)/tests/fuzz_replay_report tests/fuzz/corpus

# libFuzzer (clang), time-limited: make fuzz [FUZZ_SECONDS=60] runs each
# target that long over the tracked corpus. New inputs go to
# build-fuzz/corpus-<target>; the tracked corpus is only read (copy a
# finding into tests/fuzz/corpus by hand when make check should replay it).
# The targets are built and run at once, each into its own log printed
# whole when both are done: the time limit is wall time, so two at once
# take one minute of CI, not two.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := record report
FUZZ_CFLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -std=c11 -D_GNU_SOURCE -DHA_VERSION='"fuzz"' -Icommon \
    $(REPORT_INC)
# the report library without any tool's main (report/tools/), as the tools link it
FUZZ_LIB_SRC := $(REPORT_LIB_SRC) $(BASE_SRC)
fuzz:
	@mkdir -p build-fuzz
	@$(MAKE) --no-print-directory -j$(words $(FUZZ_TARGETS)) $(FUZZ_TARGETS:%=fuzz-%); rc=$$?; \
	    for t in $(FUZZ_TARGETS); do cat build-fuzz/fuzz-$$t.log; done; exit $$rc
fuzz-%:
	@mkdir -p build-fuzz/corpus-$*
	@{ clang $(FUZZ_CFLAGS) report/fuzz/fuzz_$*.c $(FUZZ_LIB_SRC) -o build-fuzz/fuzz_$* $(JANSSON) $(LIBS) && \
	    build-fuzz/fuzz_$* -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 -rss_limit_mb=4096 \
	        build-fuzz/corpus-$* tests/fuzz/corpus; } > build-fuzz/fuzz-$*.log 2>&1 || \
	    { echo "fuzz: fuzz_$* failed (its log: build-fuzz/fuzz-$*.log, printed below)"; exit 1; }

# The PyTorch test skips, saying why, where torch or a GPU is missing.
check-torch: fix
	PYTHONDONTWRITEBYTECODE=1 HOSTACCESS_POOL_LIB=$(abspath $(BUILD))/libhostaccess_pool.so python3 -m unittest -v tests/torch/test_pool_torch.py

# On a GPU machine: everything check does, then PyTorch through the pool in
# every pool configuration, where "no torch" or "no GPU" is a failure, not a skip.
check-gpu: fix
	$(MAKE) check
	@d=$$(mktemp -d) && HOSTACCESS_REQUIRE_GPU=1 BUILD=$(abspath $(BUILD)) fix/torch_check.sh $$d; \
	    rc=$$?; cat $$d/torch_pool.txt; rm -rf $$d; \
	    [ $$rc -eq 0 ] && echo "check-gpu: passed" || { echo "check-gpu: FAILED"; exit 1; }

# The hip backend against the stand-in ROCm runtime, both built with the HIP
# 7.2 headers make hip-matrix fetched (Host location types need >= 7.1):
# every profile, the acceptance test, every tool over it. Says why it
# skips where those headers are not there.
HIP72 ?= build/hip-matrix/7.2/root/usr
check-standin:
	@if [ -f $(HIP72)/include/hip/hip_runtime_api.h ]; then \
	    $(MAKE) -j$(JOBS) BUILD=build-standin ROCM_PATH=$(abspath $(HIP72)) probes report build-standin/tests/integration_standin \
	        build-standin/tests/integration_standin_api \
	    && BUILD=build-standin tests/run_unit.sh build-standin/tests/integration_standin build-standin/tests/integration_standin_api; \
	else echo "check-standin: [  SKIP    ] because $(HIP72) has no HIP 7.2 headers (make hip-matrix fetches them)"; fi

# make coverage: the hip backend's tests (stand-in, fakes, probes) in a
# --coverage build with the HIP 7.2 headers, then line coverage per file;
# common/backend_hip.c must reach 90 %.
COV_TESTS := integration_standin integration_standin_api integration_fakes integration_probes test_backend_state
coverage:
	@[ -f $(HIP72)/include/hip/hip_runtime_api.h ] || { \
	    echo "coverage: needs the HIP 7.2 headers in $(HIP72): run make hip-matrix first"; exit 2; }
	rm -rf build-cov
	$(MAKE) -j$(JOBS) BUILD=build-cov ROCM_PATH=$(abspath $(HIP72)) CFLAGS="-O0 -g --coverage" LDFLAGS="--coverage" \
	    probes report $(FAKES:$(BUILD)/%=build-cov/%) $(addprefix build-cov/tests/,$(COV_TESTS))
	BUILD=build-cov tests/run_unit.sh $(addprefix build-cov/tests/,$(COV_TESTS))
	tools/coverage.sh build-cov common/backend_hip.c=90

# The unit and integration tests once more with no GPU headers at all, as on
# a machine without a CUDA toolkit or HIP: every test must decide from that.
#
# Suites that run the report tools alone (NOHDR_ALIKE) are left out here
# when every object those tools are linked from is byte for byte the one
# in build/ (make check's): the report code includes no GPU header, so the
# run in make check has already judged this very code. Where any object
# differs, or build/ was not made, they run here too.
NOHDR_ALIKE := integration_committed
REPORT_TOOL_OBJ := $(patsubst %.c,%.o,$(REPORT_LIB_SRC) $(wildcard report/tools/*.c) $(BASE_SRC))
NOHDR := BUILD=build-nohdr CUDA_PATH=/nonexistent ROCM_PATH=/nonexistent
check-nohdr:
	$(MAKE) $(NOHDR) check-unit
	@$(MAKE) --no-print-directory -j$(JOBS) $(NOHDR) report
	@skip="$(NOHDR_ALIKE)"; for o in $(REPORT_TOOL_OBJ); do \
	    cmp -s build/$$o build-nohdr/$$o || { echo "check-nohdr: build/$$o differs or is missing: $(NOHDR_ALIKE) run here too"; \
	        skip=; break; }; done; \
	[ -z "$$skip" ] || echo "check-nohdr: $(NOHDR_ALIKE) not run again: the report tools' objects are those make check ran"; \
	$(MAKE) $(NOHDR) INT_SKIP="$$skip" check-integration

# diag is built too: the evidence tools are run only on the GPU machine, and
# one that no longer compiles would be found there, on device time. The
# goals run one after another (-j1) under make -jN too: each builds its own
# binaries -j$(JOBS), and two at once would build one library side by side
# (a link reading libhacommon.a while ar rewrote it, seen under make -j16).
check:
	$(MAKE) -j1 check-unit check-integration check-fuzz-corpus check-torch check-standin diag
	$(MAKE) check-sanitize
	@echo "check: all test suites passed (plain and ASan+UBSan)"
