/* What the integration tests share: running a command and keeping its
 * output, and a scratch folder per test binary. */
#ifndef HA_ITEST_H
#define HA_ITEST_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* Output (both streams) of the last it_sh() call. */
extern char it_out[1 << 16];
/* The last n bytes of it_out, where a command says why it failed (cmocka
 * prints a message's head alone). */
const char *it_tail(size_t n);

/* Runs a shell command built like printf; returns its exit status (128 if
 * it did not exit normally). */
int it_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Makes /tmp/ha-<name>-XXXXXX into dir; 0 on success. */
int it_tmpdir(char *dir, size_t n, const char *name);

/* The build folder under test: $BUILD, or build. */
const char *it_build(void);

/* Whether the tools were built with backend NAME ("hip", "cuda"), as the
 * build itself says through --list-backends: a test decides from what this
 * machine has, never from a guess. */
int it_backend_compiled(const char *name);

/* Whether a shared library opens with dlopen here. */
int it_loadable(const char *lib);

/* Number of entries (not . or ..) in a folder; -1 if it cannot be read. */
int it_count_entries(const char *dir);

/* (Re)writes dir's MANIFEST.json as run_all.sh would after its five tools
 * wrote what dir now holds (sim backend, device 0): a test's edited
 * records become the run's own. dir may hold ' and ; but not " $ or `.
 * Returns the exit status of run_manifest. */
int it_seal(const char *dir);

/* Makes one bench row factor times slower, as a run would record it:
 * every raw sample, every process's block medians and, in a record that
 * carries it (schema 3), the median. */
void it_scale_row(json_t *row, double factor);

/* The bench record as a bench before schema 4 wrote it: schema_version 3,
 * each measured row's figures in it (worked out plainly here, a sort;
 * spread and MAD 0), process 1's block medians first in by_process, the
 * headline's figures unknown. A live run's way to an older record. */
void it_as_schema_3(json_t *bench);

/* it_scale_row on each row whose path starts with prefix. */
void it_slow_rows(json_t *bench, const char *prefix, double factor);

/* The rows whose path starts with prefix hold samples within ±1 % of
 * their median: a test that judges a planted change must not depend on
 * how busy the machine that made the run was. */
void it_steady_rows(json_t *bench, const char *prefix);

/* Marks every block of a bench record uncontended, and gives every
 * finished process a block in every row it lost to a contended CPU: a test
 * that judges timings then depends on the recorded samples alone, never on
 * how busy the machine was when the live run it copies was made. */
void it_uncontended(json_t *bench);
/* Two simulated runs' timings are never gated: the gate's own logic is
 * tested on a sim run's bench record presented as a real one, its
 * instruments (canary, syscall loop, empty loop) made steady. */
void it_as_real(json_t *bench);
/* Every string-valued `key` anywhere in the document j set to value. */
void it_set_every(json_t *j, const char *key, const char *value);
/* The instruments each process's value is divided by (canary, syscall
 * loop, empty loop) made steady: else a loaded test machine's canary
 * spread becomes every row's spread, and the rows are monitor-only. */
void it_steady_instruments(json_t *bench);
/* A copy of a run, as if timed a minute later: one run given twice is the
 * same run, with nothing to judge. */
void it_later(json_t *bench);

/* ./run_all.sh --backend sim --results RESULTS ARGS, its status. Where
 * HA_IT_RUN_CACHE names a folder (make mutants sets it for a mutation of
 * the report tools alone, which cannot change what run_all.sh's tools
 * record), the records of the first such run under key are kept there and
 * copied for the next, and this tree's report renders them again, as
 * run_all.sh would: a suite's fixture run is made once per mutant copy,
 * not once per mutant. */
int it_run_all(const char *key, const char *results, const char *args);

/* run_all.sh's options for a quick whole run: enough of every tool to
 * make every record, in seconds. */
#define IT_QUICK_RUN "--bench-args '--processes 4 --iterations 200 --repeat 1 --sweep-iterations 50 --sweep-max 256 --row-seconds 0.02' " \
                     "--pool-args '--throughput-sizes 4MiB --cycles 5'"

/* A quick whole simulated run into the folder results (made): its folder
 * into run. 0 on success; on failure run_all's output is printed. */
int it_sim_run(const char *results, char *run, size_t n);

/* Loads the page (a file path) in headless chromium, with its profile
 * under profile_dir, and leaves in it_out the DOM the browser made of it
 * once its scripts ran: whole, or only what `grep -o pattern` keeps of it
 * (pattern NULL: whole; a big page's DOM outgrows it_out; pattern holds
 * neither ' nor %). Returns the
 * shell's status: chromium's, or grep's when a pattern is given. The
 * caller skips where chromium is not installed (it_have_browser). */
int it_browser_dom(const char *page, const char *profile_dir, const char *pattern);
int it_have_browser(void);

/* The plots of a trend page (every SVG in page_dir) inlined into one page,
 * with tests/integration/xlabels.js after them, loaded in chromium: it_out
 * then holds what the script found, as data-NAME="N" lines (data-svgs,
 * data-xlabels, data-xlabel-overlaps, data-marks, data-mark-overlaps,
 * data-slowed). Run from the source tree's root. Returns 0 when it got
 * them. */
int it_plots_in_browser(const char *page_dir, const char *profile_dir);

/* Says why a test does not apply here, then skips it (cmocka's skip()). */
#define it_skip(...)                                                                               \
    do {                                                                                           \
        printf("[  SKIP    ] because ");                                                           \
        printf(__VA_ARGS__);                                                                       \
        printf("\n");                                                                              \
        fflush(stdout);                                                                            \
        skip();                                                                                    \
    } while (0)

/* Skips, saying why, unless python3 can load the pool library of build
 * with ctypes (it cannot load one built with sanitizers). */
#define it_need_ctypes(build)                                                                      \
    do {                                                                                           \
        if (it_sh("command -v python3") != 0)                                                      \
            it_skip("python3 is not installed: nothing to load the library with ctypes");          \
        if (strcmp((build), "build") != 0)                                                         \
            it_skip("python3 cannot load a sanitizer-built library (%s); the plain pass runs this", \
                    (build));                                                                      \
    } while (0)

#endif
