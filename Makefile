# hostaccess — make probes | bench | fix | report | check | clean
#
# Honours CC, CFLAGS, LDFLAGS, ROCM_PATH and CUDA_PATH. Each GPU backend is
# compiled against that machine's own headers when they are there, and
# compiled out (with --list-backends saying so) when they are not. Runtimes
# are loaded with dlopen, so nothing here links against libamdhip64 or libcuda.

CC        ?= cc
CFLAGS    ?= -O2 -g
ROCM_PATH ?= $(firstword $(wildcard /opt/rocm) /usr)
CUDA_PATH ?= $(firstword $(wildcard /usr/local/cuda) /usr)
BUILD     ?= build
# compilers at once where a check builds before it runs (tests/tests.mk)
JOBS      ?= $(shell nproc 2>/dev/null || echo 1)

# A copy without .git (the GPU machine) reads the version from .tool-version.
HA_VERSION ?= $(shell git describe --always --dirty --tags 2>/dev/null || cat .tool-version 2>/dev/null || echo unknown)
WARN      := -Wall -Wextra -Werror
# -fPIC: the common core also goes into the PyTorch allocator library.
BASE      := -std=c11 -D_GNU_SOURCE -fPIC $(WARN) -Icommon -DHA_VERSION='"$(HA_VERSION)"'
LIBS      := -ldl -lm

HIP_HDR   := $(wildcard $(ROCM_PATH)/include/hip/hip_runtime_api.h)
CUDA_HDR  := $(wildcard $(CUDA_PATH)/include/cuda.h)
# /usr/include is searched anyway; naming it with -I would reorder system headers.
inc_unless_usr = $(if $(filter /usr,$(1)),,-I$(1)/include)
HIP_FLAGS  := $(if $(HIP_HDR),-DHA_HAVE_HIP -D__HIP_PLATFORM_AMD__ $(call inc_unless_usr,$(ROCM_PATH)))
CUDA_FLAGS := $(if $(CUDA_HDR),-DHA_HAVE_CUDA $(call inc_unless_usr,$(CUDA_PATH)))

COMMON_SRC := $(wildcard common/*.c)
COMMON_OBJ := $(COMMON_SRC:%.c=$(BUILD)/%.o)
LIBCOMMON  := $(BUILD)/libhacommon.a
# The base library: what the report tools need (JSON writing, record files,
# statistics, cleanup, status names) and nothing that knows a GPU.
BASE_SRC   := common/jsonw.c common/record.c common/cleanup.c common/stats.c common/statusname.c common/opts.c common/log.c \
              common/utf8.c common/fields.c common/recw.c common/sha256.c common/schemadoc.c common/units.c common/procstats.c \
              common/varprior.c common/changepoint.c common/verdictname.c common/abgate.c common/termguard.c \
              common/families.c
LIBBASE    := $(BUILD)/libhabase.a

# The stand-in ROCm runtime (standin/): built wherever HIP headers are, with
# them, so the hip backend runs against ROCm's semantics without an AMD GPU.
STANDIN := $(if $(HIP_HDR),$(BUILD)/standin/libamdhip64.so)
PROBES := $(BUILD)/probe_discriminator $(BUILD)/probe_memgetaccess $(BUILD)/run_manifest $(STANDIN)
BENCH  := $(BUILD)/bench_discriminator
FIX    := $(BUILD)/pool_check $(BUILD)/libhostaccess_pool.so
BENCH_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(filter-out bench/bench_discriminator.c,$(wildcard bench/*.c)))

# report/ reads records with jansson, and compressed ones with zlib: built
# where libjansson-dev and zlib1g-dev are installed.
HASH := \#
HAVE_JANSSON := $(shell pkg-config --exists jansson 2>/dev/null && printf '$(HASH)include <zlib.h>\n' | $(CC) -x c -fsyntax-only - 2>/dev/null && echo yes)
# report/: load (the records into a model) -> derive (the facts) -> render
# (Markdown, exports, plots, the trend page), the gate's statistics beside
# them; tools/ holds each tool's main, fuzz/ the fuzz targets, evidence/
# the scripts that make and judge the committed evidence.
REPORT_LIB_SRC := $(wildcard report/load/*.c report/derive/*.c report/stats/*.c report/render/*.c)
REPORT_LIB_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(REPORT_LIB_SRC))
REPORT_INC := -Ireport/load -Ireport/derive -Ireport/stats -Ireport/render
# zlib inflates records stored compressed (NAME.json.gz).
REPORT_LIBS := $(shell pkg-config --libs jansson 2>/dev/null || echo -ljansson) -lz
REPORT := $(BUILD)/bin/report $(BUILD)/bin/compare $(BUILD)/bin/trend $(BUILD)/bin/fleet $(BUILD)/bin/changes

.SECONDARY:
.PHONY: all probes side-tools bench fix report diag schema compact-results bench-changes rerender-results check test-tools mutants check-torch check-fuzz-corpus fuzz check-unit check-integration check-sanitize check-gpu check-nohdr check-standin coverage hip-matrix clean backends
all: probes

# probes builds every tool run_all.sh runs, so the quick start is two commands.
probes: $(PROBES) $(BENCH) $(FIX) $(if $(HAVE_JANSSON),$(REPORT))
	@echo "built: $(notdir $(PROBES) $(BENCH) $(FIX) $(if $(HAVE_JANSSON),$(REPORT),[report: no libjansson-dev or zlib1g-dev])) [hip: $(if $(HIP_HDR),$(HIP_HDR),compiled out)] [cuda: $(if $(CUDA_HDR),$(CUDA_HDR),compiled out)]"

$(BUILD)/common/backend_hip.o: BACKEND_FLAGS = $(HIP_FLAGS)
$(BUILD)/common/backend_cuda.o: BACKEND_FLAGS = $(CUDA_FLAGS)

$(BUILD)/%.o: %.c $(wildcard common/*.h common/*.def bench/*.h fix/*.h report/*/*.h) Makefile tests/tests.mk
	@mkdir -p $(dir $@)
	$(CC) $(BASE) $(BACKEND_FLAGS) $(CFLAGS) -c $< -o $@

# The version is baked into envinfo.o: rebuild it whenever the version changes.
$(BUILD)/common/envinfo.o: $(BUILD)/version.stamp
$(BUILD)/version.stamp: FORCE
	@mkdir -p $(BUILD); echo '$(HA_VERSION)' | cmp -s - $@ || echo '$(HA_VERSION)' > $@
FORCE:

$(LIBCOMMON): $(COMMON_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^
$(LIBBASE): $(BASE_SRC:%.c=$(BUILD)/%.o)
	@rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/probe_%: $(BUILD)/probes/probe_%.o $(LIBCOMMON)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ -o $@ $(LIBS)

# run_all.sh's manifest, and the schema page, from the field table alone.
$(BUILD)/run_manifest: $(BUILD)/tools/run_manifest.o $(LIBBASE)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ -o $@ $(LIBS)
$(BUILD)/schema_md: $(BUILD)/tools/schema_md.o $(LIBBASE)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ -o $@ $(LIBS)

# results/SCHEMA.md is generated from common/fields.def (a test fails when
# the committed page and the table differ).
# Every committed run's records gzip-compressed (they stay readable by
# report, compare and trend, and checked against MANIFEST.json).
compact-results:
	tools/compact_results.sh results

# The change-point method's size benchmark (a figure, not a test): 1,000
# runs x 85 rows on one core.
$(BUILD)/bench_changes: tools/bench_changes.c $(LIBBASE)
	$(CC) $(BASE) $(CFLAGS) $(LDFLAGS) $^ -o $@ $(LIBS)
bench-changes: $(BUILD)/bench_changes
	taskset -c 0 $(BUILD)/bench_changes 1000 85 || $(BUILD)/bench_changes 1000 85

# The diagnostics behind the pool's design (tools/diag, results/*-parts-h200):
# where a sleep's and a wake's time goes, and what a query's per-process
# level follows. Built for evidence runs, not tests.
DIAG := $(BUILD)/diag/sleep_parts $(BUILD)/diag/wake_parts $(BUILD)/diag/query_realloc
$(BUILD)/diag/%: tools/diag/%.c $(LIBCOMMON)
	@mkdir -p $(dir $@)
	$(CC) $(BASE) $(CFLAGS) $(LDFLAGS) $^ -o $@ $(LIBS) -lpthread
diag: $(DIAG)

# Every committed run's report made again by this tree's report tool.
rerender-results: report
	BUILD=$(BUILD) tools/rerender_results.sh results

schema: $(BUILD)/schema_md
	$(BUILD)/schema_md > results/SCHEMA.md.tmp && mv results/SCHEMA.md.tmp results/SCHEMA.md

# -Bsymbolic: the model inside binds to itself, never to a tool's own copy.
STANDIN_SRC := $(wildcard standin/*.c) common/largebar.c
$(BUILD)/standin/libamdhip64.so: $(STANDIN_SRC) standin/standin.h common/largebar.h common/rocm_profiles.h Makefile
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE -fPIC -shared -Wl,-Bsymbolic $(WARN) -Wno-deprecated-declarations -Icommon -Istandin \
	    $(HIP_FLAGS) -O1 -g $(STANDIN_SRC) -o $@

# What an A/B session's side (or a --sim-profile run) runs from a side
# build against other headers (run_all.sh makes it under build/side/).
side-tools: $(PROBES) $(BENCH) $(FIX)

fix: $(FIX)
$(BUILD)/fix/%.o: BACKEND_FLAGS = -Ifix
$(BUILD)/pool_check: $(BUILD)/fix/pool_check.o $(BUILD)/fix/refpool.o $(LIBCOMMON)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ -o $@ $(LIBS)
$(BUILD)/libhostaccess_pool.so: $(BUILD)/fix/torch_alloc.o $(BUILD)/fix/refpool.o $(LIBCOMMON)
	$(CC) -shared $(CFLAGS) $(LDFLAGS) $^ -o $@ $(LIBS)

$(BUILD)/report/%.o: BACKEND_FLAGS = $(REPORT_INC) $(shell pkg-config --cflags jansson 2>/dev/null)
$(BUILD)/bin/%: $(BUILD)/report/tools/%.o $(REPORT_LIB_OBJ) $(LIBBASE)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ -o $@ $(REPORT_LIBS) $(LIBS)
report: $(REPORT)

bench: $(BENCH)
$(BUILD)/bench/%.o: BACKEND_FLAGS = -Ibench
$(BENCH): $(BUILD)/bench/bench_discriminator.o $(BENCH_OBJ) $(LIBCOMMON)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ -o $@ $(LIBS)

# The hip backend against every HIP release Debian packages (needs the
# package registry): tools/hip-matrix.sh, tools/hip-releases.txt.
# Made again only when what it checks changed (a failed matrix is not kept).
hip-matrix: $(BUILD)/hip-matrix/compat.json
$(BUILD)/hip-matrix/compat.json: tools/hip-matrix.sh tools/hip-releases.txt tools/hip_entry_points.c common/backend_hip.c \
                                 $(wildcard common/*.h)
	CC="$(CC)" tools/hip-matrix.sh $(BUILD)/hip-matrix || { rm -f $@; exit 1; }

include tests/tests.mk

clean:
	rm -rf build build-asan build-fuzz build-nohdr build-standin build-cov

# Every mutation in tests/mutants.md, each applied to a scratch copy
# (build-mutants/tree, and -2... one copy per CPU at work at once) with only
# its named tests run: fails naming any that survives. Starts from
# $(BUILD), so run it after make check.
mutants:
	BUILD=$(BUILD) tools/mutants.py $(MUTANTS_ARGS)
