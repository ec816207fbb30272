#include "markdown.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "abjudge.h"
#include "derive.h"
#include "exports.h"
#include "findings.h"
#include "goals.h"
#include "statusname.h"
#include "text.h"

/* The largest tables, at most this big: the rest is in the records, and
 * the report says how much was left out. */
#define MAX_MATRIX_KINDS 48
#define MAX_MATRIX_CANDS 200
#define MAX_LISTED 16
/* The verdict lists this many candidates of a kind, the Candidates table all. */
#define MAX_VERDICT_CANDS 6

/* ---- the head: title, one line of facts, the warnings ---- */

static void title(FILE *f, const m_run *r)
{
    const m_env *e = r->env;
    fprintf(f, "# %s%s%shostaccess: %s (%s)\n\n", r->complete ? "" : "INCOMPLETE RUN: ",
            r->d.simulated ? "SIMULATED, not evidence: " : "", r->d.slowed ? "SLOWED ON PURPOSE, not evidence: " : "",
            md_text(e->device_name), md_text(e->backend));
    fprintf(f, "**%s** (%s, device %lld) · backend **%s** · runtime %s · driver %s · header %s · tool %s · %s\n\n",
            md_text(e->device_name), md_text(e->arch), e->device, md_text(e->backend), md_text(e->runtime_version),
            md_text(e->driver_version), md_text(e->header_version), md_text(e->tool_version), md_text(e->time_utc));
}

static void warnings(FILE *f, const m_run *r)
{
    const m_env *e = r->env;
    if (!r->complete)
        fprintf(f, "> **This run is not whole: %s.** What follows is what its records hold; nothing here stands "
                   "for a finished run.\n\n", md_text(r->incomplete));
    if (*e->sim_profile)
        fprintf(f, "> **SIMULATED:** the hip backend over the stand-in ROCm runtime, profile %s: the answers ROCm's "
                   "sources say that release gives, on a host-only model of a large-BAR platform. It tests the code "
                   "that runs on AMD GPUs; none of it was measured on one.\n\n", md_text(e->sim_profile));
    else if (r->d.simulated)
        fprintf(f, "> **SIMULATED:** the simulation backend, a host-only model of a large-BAR platform: it tests the "
                   "harness; none of it describes a GPU.%s%s\n\n", *r->d.fallback_reason ? " No GPU backend was used: " : "",
                md_text(r->d.fallback_reason));
    for (size_t i = 0; i < r->bench.nslowdowns; i++)
        fprintf(f, "> **Test slowdown (HOSTACCESS_TEST_SLOWDOWN):** every %s batch was stretched by %lld %% of its "
                   "own time, to show that compare flags a known change. Its figures are not the machine's.\n\n",
                md_text(r->bench.slowdowns[i].path), r->bench.slowdowns[i].percent);
    if (*e->layout_skew)
        fprintf(f, "> **Header/runtime skew:** %s.\n\n", md_text(e->layout_skew));
    if (*e->version_warning)
        fprintf(f, "> **Versions:** %s.\n\n", md_text(e->version_warning));
    if (*e->guards)
        fprintf(f, "> **Guards:** %s.\n\n", md_text(e->guards));
}

/* ---- the verdict ---- */

static void kind_list(FILE *f, const m_kind *const *k, size_t n)
{
    for (size_t i = 0; i < n && i < MAX_LISTED; i++)
        fprintf(f, "%s%s", i ? ", " : "", md_text(k[i]->name));
    if (n > MAX_LISTED)
        fprintf(f, " and %zu more", n - MAX_LISTED);
    if (!n)
        fprintf(f, "none");
}

static void cand_list(FILE *f, const m_cand *const *c, size_t n, int wrong /* 1 FP, 0 FN, -1 none */)
{
    if (n > MAX_VERDICT_CANDS)
        fprintf(f, "%zu candidates, among them: ", n);
    for (size_t i = 0; i < n && i < MAX_VERDICT_CANDS; i++) {
        fprintf(f, "%s%s", i ? "; " : "", md_text(c[i]->name));
        if (wrong < 0)
            continue;
        int shown = 0;
        for (size_t w = 0; w < c[i]->nwrong; w++)
            if (c[i]->wrong[w].false_positive == (wrong == 1))
                fprintf(f, "%s%s", shown++ ? ", " : " on ", md_text(c[i]->wrong[w].kind));
    }
    if (n > MAX_VERDICT_CANDS)
        fprintf(f, "; and %zu more (see Candidates)", n - MAX_VERDICT_CANDS);
    if (!n)
        fprintf(f, "none");
}

static void verdict_probe(FILE *f, const m_run *r)
{
    const m_derived *d = &r->d;
    const m_probe *p = &r->probe;
    size_t made = 0, gpu = 0;
    for (size_t i = 0; i < p->nkinds; i++) {
        gpu += !p->kinds[i].control;
        made += !p->kinds[i].control && p->kinds[i].created;
    }
    fprintf(f, "| Can the host read it? | **reads:** ");
    kind_list(f, d->readable, d->nreadable);
    fprintf(f, " · **faults:** ");
    kind_list(f, d->unreadable, d->nunreadable);
    if (made < gpu)
        fprintf(f, " · %zu of %zu kinds could not be made here (see Kinds)", gpu - made, gpu);
    fprintf(f, " |\n| Which query tells? | ");
    if (d->ndistinguishing) {
        fprintf(f, "**%zu of %zu candidates distinguish here:** ", d->ndistinguishing, p->ncands);
        cand_list(f, d->distinguishing, d->ndistinguishing, -1);
    } else {
        fprintf(f, "**none of the %zu candidates distinguishes here**", p->ncands);
    }
    if (d->nruntime)
        fprintf(f, " |\n| Does any %s query tell, on every kind made here? | %s: %zu of the runtime's %zu queries "
                "separate readable from faulting memory", md_text(p->head.env.backend), d->nruntime_distinguishing ? "**yes**" : "**no**",
                d->nruntime_distinguishing, d->nruntime);
    fprintf(f, " |\n| Says \"readable\" of memory that faults (the crash) | ");
    cand_list(f, d->false_pos, d->nfalse_pos, 1);
    fprintf(f, " |\n| Says \"unreadable\" of memory that reads (a lost fast path) | ");
    cand_list(f, d->false_neg, d->nfalse_neg, 0);
    fprintf(f, " |\n");
    const m_cand *t = d->torch_rule;
    if (t) {
        fprintf(f, "| PyTorch ROCm's `.item()` rule (a model of `aten/src/ATen/native/cuda/CUDAScalar.cu`, not PyTorch) | ");
        if (t->verdict == HA_V_DISTINGUISHES)
            fprintf(f, "takes the host read exactly where it works");
        else if (t->verdict == HA_V_UNDETERMINED)
            fprintf(f, "undetermined: %s", md_text(t->why));
        int fp = 0, fn = 0;
        for (size_t w = 0; w < t->nwrong; w++)
            fp += t->wrong[w].false_positive, fn += !t->wrong[w].false_positive;
        if (fp) {
            fprintf(f, "**reads memory that faults — the crash — on:** ");
            for (size_t w = 0, k = 0; w < t->nwrong; w++)
                if (t->wrong[w].false_positive)
                    fprintf(f, "%s%s", k++ ? ", " : "", md_text(t->wrong[w].kind));
        }
        if (fn) {
            fprintf(f, "%scopies where the host read would work on: ", fp ? "; " : "");
            for (size_t w = 0, k = 0; w < t->nwrong; w++)
                if (!t->wrong[w].false_positive)
                    fprintf(f, "%s%s", k++ ? ", " : "", md_text(t->wrong[w].kind));
        }
        fprintf(f, " |\n");
    }
}

static void verdict_bench(FILE *f, const m_run *r)
{
    const m_bench *b = &r->bench;
    const m_derived *d = &r->d;
    fprintf(f, "| What the fast path buys | ");
    if (!b->has_headline) {
        fprintf(f, "nothing here: no kind on this platform is host-readable |\n");
        return;
    }
    const char *memory = d->fast_crosses_bar ? "device memory across the PCIe BAR" : "host DRAM";
    if (*b->slow_kind && strcmp(b->slow_kind, b->fast_kind))
        /* Records from before the headline compared like with like. */
        fprintf(f, "a 4 B host read of %s (%s): **%s**; the runtime copy of another allocation (%s): %s — not the "
                   "same memory, so no ratio. ",
                md_text(b->fast_kind), memory, fmt_ns(m_fast_ns(r)), md_text(b->slow_kind), fmt_ns(m_slow_ns(r)));
    else
        fprintf(f, "a 4 B host read of %s (%s): **%s**; the runtime's copy of the same allocation: **%s**; the read is "
                   "**%s faster**. ",
                md_text(b->fast_kind), memory, fmt_ns(m_fast_ns(r)), fmt_ns(m_slow_ns(r)),
                fmt_times(m_slow_ns(r) / m_fast_ns(r)));
    if (!d->fast_crosses_bar && d->cold)
        fprintf(f, "Through a warm cache; with the line flushed first: %s.", fmt_ns(m_row_figure(r, d->cold)->ns));
    fprintf(f, " |\n| The hardened fast path (a query, then the read) | ");
    const m_row *best = NULL;
    double best_ns = NAN;
    for (size_t i = 0; i < d->nhardened; i++)
        if (!best || m_row_figure(r, d->hardened[i])->ns < best_ns) {
            best = d->hardened[i];
            best_ns = m_row_figure(r, best)->ns;
        }
    if (best)
        fprintf(f, "best: %s, **%s** (%s over the bare read) — of %zu distinguishing candidate(s) timed |\n",
                md_text(best->candidate), fmt_ns(best_ns), fmt_ns(best_ns - m_fast_ns(r)), d->nhardened);
    else
        fprintf(f, "none timed: no candidate distinguishes here |\n");
}

/* Whether the fix itself ran on device memory: CUDA refuses a host grant
 * there, and then the device figures are of the pool without it. */
static bool fix_on_device(const m_pool *p)
{
    for (size_t i = 0; i < p->nchecks; i++)
        if (!strcmp(p->checks[i].mode, "device+fix") && strcmp(p->checks[i].status, "UNSUPPORTED"))
            return true;
    return false;
}

static void verdict_pool(FILE *f, const m_run *r, const char *side)
{
    const m_pool *p = &r->pool;
    if (fix_on_device(p))
        fprintf(f, "| %sThe pool with the host-access fix | ", side);
    else
        fprintf(f, "| %sThe pool: **the fix cannot be applied to device memory here** (the runtime refuses a host "
                   "grant); device memory measured without it, the fix on host-backed memory | ", side);
    fprintf(f, "**%lld of %zu checks pass**, %lld fail, %lld cannot run here", p->passed, p->nchecks, p->failed,
            p->unsupported);
    for (size_t i = 0; i < p->ntputs; i++) {
        const m_tput *t = &p->tputs[i];
        if (!t->measured)
            continue;
        fprintf(f, "; %s %s: sleep %s, wake %s", fmt_bytes(t->bytes), md_text(t->mode), fmt_pct(t->sleep_frac),
                fmt_pct(t->wake_frac));
        if (isfinite(t->wake_now_frac))
            fprintf(f, " (right after sleep %s)", fmt_pct(t->wake_now_frac));
    }
    if (r->d.pool_goal_known)
        fprintf(f, " of the pinned-copy ceiling — goal ≥ %.0f %% in every steady cycle: **%s**",
                100 * HA_POOL_THROUGHPUT_GOAL, ha_goal_name(r->d.pool_goal));
    fprintf(f, " |\n");
}

static void verdict(FILE *f, const m_run *r)
{
    fprintf(f, "## Verdict\n\n| | %s |\n|---|---|\n", r->bench.ab.on ? "side A" : "this run");
    if (r->has[RUN_PROBE])
        verdict_probe(f, r);
    else
        fprintf(f, "| Can the host read it? | no probe_discriminator record in this run |\n");
    if (r->has[RUN_BENCH])
        verdict_bench(f, r);
    else
        fprintf(f, "| What the fast path buys | no bench_discriminator record in this run |\n");
    if (r->has[RUN_POOL])
        verdict_pool(f, r, "");
    else
        fprintf(f, "| The pool with the host-access fix | no pool_check record in this run |\n");
    fprintf(f, "\n");
}

/* ---- the details ---- */

static void open_fold(FILE *f, const md_opts *o, const char *summary)
{
    if (o->pr)
        fprintf(f, "<details><summary>%s</summary>\n\n", summary);
}

static void close_fold(FILE *f, const md_opts *o)
{
    if (o->pr)
        fprintf(f, "</details>\n\n");
}

static void env_table(FILE *f, const m_run *r, const md_opts *o)
{
    const m_env *e = r->env;
    open_fold(f, o, "Environment");
    fprintf(f, "### Environment\n\n| fact | value |\n|---|---|\n");
    fprintf(f, "| device | %s (%s), device %lld of %lld, %s |\n", md_text(e->device_name), md_text(e->arch), e->device,
            e->device_count, fmt_bytes(e->vram_bytes));
    fprintf(f, "| versions | header %s · runtime %s · driver %s%s%s |\n", md_text(e->header_version),
            md_text(e->runtime_version), md_text(e->driver_version), *e->kernel_driver ? " · " : "",
            md_text(e->kernel_driver));
    if (*e->firmware || *e->rocm_version)
        fprintf(f, "| firmware | %s%s%s |\n", md_text(*e->firmware ? e->firmware : "-"),
                *e->rocm_version ? " · ROCm " : "", md_text(e->rocm_version));
    fprintf(f, "| large BAR | runtime: %s (%s) · sysfs: %s (%s) |\n",
            e->lb_runtime < 0 ? "not reported" : e->lb_runtime ? "yes" : "no", md_text(e->lb_runtime_note),
            e->lb_sysfs < 0 ? "unknown" : e->lb_sysfs ? "yes" : "no", md_text(e->lb_sysfs_note));
    if (e->nattrs) {
        fprintf(f, "| device attributes |");
        for (size_t i = 0; i < e->nattrs; i++)
            e->attrs[i].has_value ? fprintf(f, " %s=%lld", md_text(e->attrs[i].name), e->attrs[i].value)
                                  : fprintf(f, " %s=?", md_text(e->attrs[i].name));
        fprintf(f, " |\n");
    }
    fprintf(f, "| IOMMU | %s%s%s |\n", md_text(*e->iommu_sysfs ? e->iommu_sysfs : "not recorded"),
            *e->iommu_cmdline ? " · kernel command line: " : "", md_text(e->iommu_cmdline));
    fprintf(f, "| host | %s · %s · %s", md_text(e->host), md_text(e->kernel), md_text(e->cpu));
    if (e->cpu_count > 0)
        fprintf(f, " (%lld CPUs%s%s%s%s)", e->cpu_count, *e->cpu_governor ? ", governor " : "",
                md_text(e->cpu_governor), *e->clocksource ? ", clock " : "", md_text(e->clocksource));
    fprintf(f, " |\n| backend choice | %s |\n\n", md_text(r->has[RUN_ENV] ? r->envrec.backend_choice
                                                                          : r->probe.head.backend_choice));
    close_fold(f, o);
}

static const char *truth(int t) { return t < 0 ? "?" : t ? "✔ reads" : "✘ faults"; }

static void kinds_table(FILE *f, const m_run *r, const md_opts *o)
{
    const m_probe *p = &r->probe;
    open_fold(f, o, "Kinds: how each was made and what the host read did");
    bool forked = !strcmp(p->isolation, "fork");
    fprintf(f, "### Kinds\n\nGround truth: a host read of a pattern the device wrote (and a host write the device "
               "reads back), with SIGSEGV/SIGBUS contained (isolation: %s: %s).\n\n| kind | host read | host write | "
               "how it was made, or why not | note |\n|---|---|---|---|---|\n", md_text(p->isolation),
            forked ? "each read was also repeated in a forked child, where a fault ends only the child"
            : *p->isolation ? "the reads ran in this process, a fault caught by its handler; --isolate fork repeats "
                              "each in a child"
                            : "not recorded");
    for (size_t i = 0; i < p->nkinds; i++) {
        const m_kind *k = &p->kinds[i];
        fprintf(f, "| %s%s | %s | %s | %s | %s%s |\n", md_text(k->name), k->control ? " (control: not GPU memory)" : "",
                k->created ? truth(k->readable) : "not made", k->created ? truth(k->writable) : "",
                md_text(k->detail), md_text(k->truth_note),
                k->control ? " A VM_IO or VM_PFNMAP mapping like large-BAR VRAM: only the OS-level candidates are "
                             "judged on it." : "");
    }
    fprintf(f, "\n");
    close_fold(f, o);
}

static const char *verdict_word(const m_cand *c)
{
    return c->verdict == HA_V_DISTINGUISHES ? "✔ distinguishes" : c->verdict == HA_V_FAILS ? "✘ does not" : "– undetermined";
}

static void cands_table(FILE *f, const m_run *r, const md_opts *o)
{
    const m_probe *p = &r->probe;
    open_fold(f, o, "Candidates: each one's verdict");
    fprintf(f, "### Candidates\n\n**FP** says readable of memory that faults (the crash); **FN** says unreadable of "
               "memory that reads (a lost fast path). A candidate asks the runtime, the OS (`os_`: the kernel, no "
               "runtime call) or a model; what it asks follows its source.\n\n| candidate | asks | verdict | wrong on |\n"
               "|---|---|---|---|\n");
    for (size_t i = 0; i < p->ncands; i++) {
        const m_cand *c = &p->cands[i];
        fprintf(f, "| %s | %s%s%s | %s | ", md_text(c->name), md_text(c->source), *c->api ? ": " : "",
                md_text(c->api), verdict_word(c));
        for (size_t w = 0; w < c->nwrong; w++)
            fprintf(f, "%s%s %s", w ? ", " : "", c->wrong[w].false_positive ? "FP" : "FN", md_text(c->wrong[w].kind));
        if (c->verdict == HA_V_UNDETERMINED)
            fprintf(f, "%s", md_text(c->why));
        fprintf(f, " |\n");
    }
    fprintf(f, "\n");
    close_fold(f, o);
}

/* A cell: the status name without the runtime's prefix, then the class. */
static void cell(FILE *f, const m_cell *c)
{
    if (!c) {
        fprintf(f, " – |");
        return;
    }
    const char *st = ha_short_status(c->status_name);
    if (!strcmp(c->outcome, "ok"))
        fprintf(f, " %s |", md_text(c->cls));
    else if (!strcmp(c->outcome, "error"))
        fprintf(f, " ✘ %s |", md_text(st));
    else if (!strcmp(c->outcome, "not_written"))
        fprintf(f, " ok, not written |");
    else if (!strcmp(c->outcome, "skipped") && *st && strcmp(st, "skipped"))
        fprintf(f, " – %s |", md_text(st));
    else
        fprintf(f, " %s |", md_text(c->outcome));
}

static void matrix(FILE *f, const m_run *r, const md_opts *o)
{
    const m_probe *p = &r->probe;
    size_t nk = 0, idx[MAX_MATRIX_KINDS], made = 0;
    for (size_t i = 0; i < p->nkinds; i++)
        if (p->kinds[i].created && made++ < MAX_MATRIX_KINDS)
            idx[nk++] = i;
    size_t nc = p->ncands < MAX_MATRIX_CANDS ? p->ncands : MAX_MATRIX_CANDS;
    char summary[160];
    snprintf(summary, sizeof summary, "The full truth table: every candidate's answer on every kind (%zu × %zu)",
             p->ncands, made);
    open_fold(f, o, summary);
    if (!o->pr)
        fprintf(f, "<details><summary>%s</summary>\n\n", summary);
    fprintf(f, "A cell is the query's answer: ✘ and the status for an error, else the value's class (never a raw "
               "address).\n\n| candidate |");
    for (size_t k = 0; k < nk; k++)
        fprintf(f, " %s |", md_text(p->kinds[idx[k]].name));
    fprintf(f, "\n|---|");
    for (size_t k = 0; k < nk; k++)
        fprintf(f, "---|");
    fprintf(f, "\n| **host read** |");
    for (size_t k = 0; k < nk; k++)
        fprintf(f, " %s |", truth(p->kinds[idx[k]].readable));
    fprintf(f, "\n");
    for (size_t c = 0; c < nc; c++) {
        fprintf(f, "| %s |", md_text(p->cands[c].name));
        for (size_t k = 0; k < nk; k++)
            cell(f, p->cands[c].by_kind ? p->cands[c].by_kind[idx[k]] : NULL);
        fprintf(f, "\n");
    }
    if (made > nk || p->ncands > nc)
        fprintf(f, "\nLeft out of this table: %zu kind(s) and %zu candidate(s) past the first %d and %d; the record "
                   "holds them all.\n", made - nk, p->ncands - nc, MAX_MATRIX_KINDS, MAX_MATRIX_CANDS);
    fprintf(f, "\n</details>\n\n");
}

static void mga_table(FILE *f, const m_run *r, const md_opts *o)
{
    open_fold(f, o, "MemGetAccess across an allocation's life");
    if (!o->pr)
        fprintf(f, "<details><summary>MemGetAccess across an allocation's life (probe_memgetaccess)</summary>\n\n");
    fprintf(f, "| kind | stage | stage call | host read | access (flags: 0 none, 1 read, 3 read-write) |\n"
               "|---|---|---|---|---|\n");
    for (size_t i = 0; i < r->mga.nshapes; i++) {
        const m_shape *s = &r->mga.shapes[i];
        if (!s->created) {
            fprintf(f, "| %s | not created: %s | | | |\n", md_text(s->kind), md_text(s->detail));
            continue;
        }
        for (size_t k = 0; k < s->nstages; k++) {
            const m_stage *g = &s->stages[k];
            fprintf(f, "| %s | %s | %s | %s |", md_text(s->kind), md_text(g->stage), md_text(g->status_name),
                    md_text(g->host_read));
            for (size_t a = 0; a < g->naccess; a++) {
                fprintf(f, " %s ", md_text(g->access[a].location));
                if (g->access[a].has_flags)
                    fprintf(f, "%lld", g->access[a].flags);
                else
                    fprintf(f, "✘ %s", md_text(ha_short_status(g->access[a].status_name)));
                fprintf(f, "%s", a + 1 < g->naccess ? ";" : "");
            }
            fprintf(f, " |\n");
        }
    }
    fprintf(f, "\n</details>\n\n");
}

/* A figure's uncertainty: over the processes, or an older record's robust
 * spread of its pooled samples. */
static const char *uncertainty(const m_run *r, const m_row *x)
{
    const m_figure *g = m_row_figure(r, x);
    if (!g->k)
        return text_printf("± %s", fmt_ns(x->st.spread));
    if (g->k < 2)
        return "one process: no interval";
    return text_printf("%s – %s (sd %.1f %%)", fmt_ns(g->lo), fmt_ns(g->hi), 100 * g->sd_log);
}

/* Whether rows were timed twice: older records split the rounds in two
 * repeats, a record of processes samples again in processes instead. */
static bool has_repeat2(const m_bench *b)
{
    for (size_t i = 0; i < b->nrows; i++)
        if (b->rows[i].repeat == 2)
            return true;
    return false;
}

/* "figure | uncertainty | repeat 2" cells of a row (the last where the
 * record has repeats). */
static void figures(FILE *f, const m_run *r, const m_row *x, bool r2)
{
    fprintf(f, " %s | %s |", fmt_ns(m_row_figure(r, x)->ns), uncertainty(r, x));
    if (r2) {
        const m_row *x2 = m_bench_row(&r->bench, x->path, x->kind, x->candidate, 2);
        fprintf(f, " %s |", x2 ? fmt_ns(m_row_figure(r, x2)->ns) : "–");
    }
}

/* How the run's figures were made: its processes, or one pooled process. */
static void figures_basis(FILE *f, const m_run *r)
{
    const m_bench *b = &r->bench;
    if (!r->d.by_process) {
        fprintf(f, "Medians of batched samples with the robust spread (1.4826 MAD), all from one process: a record "
                   "from before the bench ran several, so no figure here has an interval between processes.");
        return;
    }
    fprintf(f, "Each figure is the geometric mean of its processes' medians (a process is one sample: the median of "
               "its blocks), with its 95 %% interval over the processes (Student's t) and the spread between them "
               "(sd of logs) — the unit `compare` judges with. ");
    if (b->ab.on)
        fprintf(f, "An A/B session: %lld of side A's %zu processes finished (process 1 and one a round), and %lld of "
                   "side B's %zu (one a round, %lld rounds started)", b->procs_finished, b->nprocs,
                b->ab.procs_b_finished, b->ab.nprocs_b, b->ab.rounds_started);
    else
        fprintf(f, "%lld of %lld processes finished", b->procs_finished, b->procs_requested);
    for (size_t i = 0; i < b->nprocs; i++)
        if (!b->procs[i].ok)
            fprintf(f, "; process %lld did not (%s)", b->procs[i].index, md_text(b->procs[i].detail));
    fprintf(f, ".");
}

static void bench_tables(FILE *f, const m_run *r, const md_opts *o)
{
    const m_bench *b = &r->bench;
    const m_derived *d = &r->d;
    open_fold(f, o, "Timings: the fast path, the hardened paths and the copies");
    fprintf(f, "### Timings\n\n");
    figures_basis(f, r);
    bool r2 = has_repeat2(b);
    fprintf(f, "%s\n\n", r2 ? " Repeat 2 took the other half of the interleaved rounds." : "");
    if (b->has_headline && d->fast) {
        double fast = m_row_figure(r, d->fast)->ns;
        fprintf(f, "| path | %s | %s |%s against the fast path |\n|---|---|---|%s---|\n| host read, 4 B (fast path) |",
                d->by_process ? "figure" : "median", d->by_process ? "95 % interval" : "spread",
                r2 ? " repeat 2 |" : "", r2 ? "---|" : "");
        figures(f, r, d->fast, r2);
        fprintf(f, " 1× |\n");
        if (d->cold) {
            fprintf(f, "| host read, line flushed first |");
            figures(f, r, d->cold, r2);
            fprintf(f, " %s |\n", fmt_times(m_row_figure(r, d->cold)->ns / fast));
        }
        for (size_t i = 0; i < d->nhardened; i++) {
            fprintf(f, "| %s, then the read (hardened) |", md_text(d->hardened[i]->candidate));
            figures(f, r, d->hardened[i], r2);
            fprintf(f, " %s more |\n", fmt_ns(m_row_figure(r, d->hardened[i])->ns - fast));
        }
        for (int i = 0; i < 3; i++)
            if (d->copies[i]) {
                fprintf(f, "| %s (slow path) |", md_text(d->copies[i]->what));
                figures(f, r, d->copies[i], r2);
                fprintf(f, " the read is %s faster |\n", fmt_times(m_row_figure(r, d->copies[i])->ns / fast));
            }
        if (d->fault_fallback) {
            fprintf(f, "| contained fault, then the copy (%s) |", md_text(d->fault_fallback->kind));
            figures(f, r, d->fault_fallback, r2);
            fprintf(f, " |\n");
        }
        fprintf(f, "\n");
    } else {
        fprintf(f, "No headline: no kind on this platform is host-readable.\n\n");
    }
    if (b->has_state)
        fprintf(f, "CPU state: each block ran on a CPU in its uncontended state (probe after every block; %lld of "
                   "%lld blocks taken again, %lld moves to another CPU, %lld kept contended); clock read %s.\n\n",
                b->state_retaken, b->state_blocks, b->state_moves, b->state_kept, fmt_ns(b->clock_read_ns));
    if (b->has_sweep)
        fprintf(f, "Size sweep on %s: %s.\n\n", md_text(b->sweep_kind),
                b->crossover >= 0 ? md_text(fmt_bytes((double)b->crossover))
                                  : "the host read stays faster than the copy up to the largest size");
    if (!o->pr && o->plots) {
        if (o->plots->drawn & (1 << PLOT_PATHS))
            fprintf(f, "![path latencies by family](report_paths.png) ");
        if (o->plots->drawn & (1 << PLOT_SWEEP))
            fprintf(f, "![size sweep](report_sweep.png)");
        fprintf(f, "\n\n");
    }
    close_fold(f, o);
    if (o->drop >= 2)
        return;
    fprintf(f, "<details><summary>Every timed row (%zu)</summary>\n\n| path | family | kind | candidate | repeat | "
               "%s | %s | p99 | n × batch | harness share |\n|---|---|---|---|---|---|---|---|---|---|\n",
            b->nrows, d->by_process ? "figure" : "median", d->by_process ? "95 % interval" : "spread");
    for (size_t i = 0; i < b->nrows; i++) {
        const m_row *x = &b->rows[i];
        if (x->skipped) {
            fprintf(f, "| %s | %s | %s | %s | %lld | skipped: %s | | | | |\n", md_text(x->path),
                    md_text(m_row_family(x)), md_text(x->kind), md_text(x->candidate), x->repeat,
                    md_text(x->skip_reason));
            continue;
        }
        /* a row whose median is 0 has no share to give: n/a, never "nan" */
        fprintf(f, "| %s | %s | %s | %s | %lld | %s | %s | %s | %lld × %lld | %s |\n", md_text(x->path),
                md_text(m_row_family(x)), md_text(x->kind), md_text(x->candidate), x->repeat,
                fmt_ns(m_row_figure(r, x)->ns), uncertainty(r, x), fmt_ns(x->st.p99), x->n, x->batch,
                isfinite(x->overhead_pct) ? text_printf("%.2f %%", x->overhead_pct) : "n/a");
    }
    fprintf(f, "\n</details>\n\n");
}

/* The median, the range of the steady cycles and the goal judged on them. */
static void frac_cell(FILE *f, double median, const double *cyc, size_t n, int goal)
{
    fprintf(f, "%s", fmt_pct(median));
    if (n >= 2) {
        double lo, hi;
        ha_cycles_range(cyc, n, &lo, &hi);
        fprintf(f, " (%zu cycles %s", n, fmt_pct(lo));
        fprintf(f, "–%s)", fmt_pct(hi));
    }
    fprintf(f, ", %s | ", ha_goal_name(goal));
}

static void pool_tables(FILE *f, const m_run *r, const md_opts *o)
{
    const m_pool *p = &r->pool;
    open_fold(f, o, "The pool's checks and throughput");
    fprintf(f, "### The sleep-mode pool with the host-access fix\n\n| check | mode | result | detail |\n|---|---|---|---|\n");
    for (size_t i = 0; i < p->nchecks; i++) {
        const m_check *c = &p->checks[i];
        fprintf(f, "| %s | %s | %s | %s |\n", md_text(c->name), md_text(c->mode),
                !strcmp(c->status, "PASS") ? "✔ pass" : !strcmp(c->status, "FAIL") ? "✘ **FAIL**" : "– unsupported",
                md_text(c->detail));
    }
    fprintf(f, "\n| pool | mode | sleep | wake | ceiling D2H | ceiling H2D | sleep / ceiling | wake / ceiling | wake "
               "right after sleep |\n|---|---|---|---|---|---|---|---|---|\n");
    long long pause = -1;
    for (size_t i = 0; i < p->ntputs; i++) {
        const m_tput *t = &p->tputs[i];
        if (!t->measured) {
            fprintf(f, "| %s | not measured: %s | | | | | | | |\n", fmt_bytes(t->bytes), md_text(t->note));
            continue;
        }
        if (t->pause_ms >= 0)
            pause = t->pause_ms;
        fprintf(f, "| %s | %s | %.1f GB/s | %.1f GB/s | %.1f GB/s | %.1f GB/s | ", fmt_bytes(t->bytes),
                md_text(t->mode), t->sleep, t->wake, t->d2h, t->h2d);
        frac_cell(f, t->sleep_frac, t->sleep_cyc, t->nsleep_cyc, t->sleep_goal);
        frac_cell(f, t->wake_frac, t->wake_cyc, t->nwake_cyc, t->wake_goal);
        fprintf(f, "%s |\n", isfinite(t->wake_now_frac) ? fmt_pct(t->wake_now_frac) : "(the wake column)");
    }
    if (pause >= 0)
        fprintf(f, "\nWake is timed %lld ms after its sleep, as a pool wakes after other work: the driver clears the "
                   "memory a release gives back after the release returns, and a wake right after sleep waits for "
                   "that (the last column).\n", pause);
    if (!o->pr && o->plots && (o->plots->drawn & (1 << PLOT_POOL)))
        fprintf(f, "\n![sleep and wake as a share of the ceiling](report_pool.png)\n");
    fprintf(f, "\n");
    close_fold(f, o);
}

/* The lines of torch_pool.txt a reader looks for: the configurations,
 * the results and what the tests printed. */
static void torch_section(FILE *f, const m_run *r, const md_opts *o)
{
    if (!r->has_torch) {
        fprintf(f, "### PyTorch through the pool\n\nNot run here (no torch or no GPU): no torch_pool.txt.\n\n");
        return;
    }
    open_fold(f, o, "PyTorch through the pool");
    if (o->pr)
        fprintf(f, "### PyTorch through the pool\n\n`tests/torch/test_pool_torch.py` in each pool configuration:\n\n");
    else
        fprintf(f, "### PyTorch through the pool\n\n`tests/torch/test_pool_torch.py` in each pool configuration "
                   "([%s](%s%s%s)):\n\n", r->torch_file, o->run_link ? o->run_link : "",
                o->run_link ? "/" : "", r->torch_file);
    if (r->torch_text[0] == '(') { /* the loader's word on why it is not shown */
        fprintf(f, "%s\n\n", md_text(r->torch_text));
        close_fold(f, o);
        return;
    }
    char *picked = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&picked, &n);
    for (const char *line = r->torch_text; m && *line;) {
        size_t len = strcspn(line, "\n");
        char *l = strndup(line, len);
        if (l && (!strncmp(l, "## ", 3) || strstr(l, "passed") || strstr(l, "skipped") || strstr(l, "host read") ||
                  strstr(l, "rose by") || strstr(l, "fell by") || strstr(l, "not checked") || strstr(l, "FAILED") || strstr(l, "pool:")))
            fprintf(m, "%s\n", l);
        free(l);
        line += len + (line[len] == '\n');
    }
    if (m)
        fclose(m);
    md_code_block(f, picked ? picked : "");
    free(picked);
    fprintf(f, "\n");
    close_fold(f, o);
}

static const char *const finding_class[NCLASS] = {"regression", "improvement", "inconclusive", "change"};

/* One side of a session: its runtime as it loaded it, and its tool. */
static void session_side(FILE *f, const char *side, const m_run *r)
{
    const m_env *e = r ? r->env : NULL;
    fprintf(f, "| %s | %s | %s | %s | %s |\n", side, e ? md_text(e->backend) : "(no record)",
            e ? md_text(e->runtime_version) : "", e && *e->sim_profile ? md_text(e->sim_profile) : "—",
            e ? md_text(e->tool_version) : "");
}

/* An A/B session's judgement first: what B is, the verdict, what B
 * changed beyond its timings, and the timings' tally. */
static void session(FILE *f, const m_run *r, const md_opts *o)
{
    const findings *s = o->session;
    const m_ab *ab = &r->bench.ab;
    if (ab->on && o->session_why)
        fprintf(f, "## The A/B session: not judged\n\nSide B is %s; the session cannot be judged: %s.\n\n",
                md_text(ab->spec), md_text(o->session_why));
    if (!s || !ab->on)
        return;
    fprintf(f, "## The A/B session: %s\n\n", findings_verdict(s));
    fprintf(f, "Side B is %s, side A this build as it ran; %lld rounds paired, stopped at %s.\n\n",
            md_text(ab->spec), ab->rounds, md_text(ab->stopped ? ab->stopped : "(not recorded)"));
    fprintf(f, "| side | backend | runtime | stand-in release | tool |\n|---|---|---|---|---|\n");
    session_side(f, "A", r);
    session_side(f, "B", r->side_b);
    fprintf(f, "\n");
    if (s->unresolved)
        fprintf(f, "**Unresolved:** %s\n\n", md_text(s->unresolved));
    if (s->bound && !findings_status(s))
        fprintf(f, "**Clean, bounded:** %s.\n\n", md_text(s->bound));
    /* What moved, regressions first; the mere changes past a screenful
     * are counted (compare lists every one). */
    size_t said = 0, more = 0;
    for (int c = 0; c < NCLASS; c++)
        for (size_t i = 0; i < s->n; i++) {
            const finding *x = &s->v[i];
            if (x->cls != c || !strcmp(x->what, "timing") || !strcmp(x->what, "instrument"))
                continue;
            if (c == CHANGE && said >= 24) {
                more++;
                continue;
            }
            fprintf(f, "%s- %s: %s %s: %s\n", said++ ? "" : "What B changed beyond its timings:\n\n",
                    finding_class[x->cls], md_text(x->what), md_text(x->name), md_text(x->detail));
        }
    if (more)
        fprintf(f, "- and %zu more change(s): compare lists them\n", more);
    fprintf(f, "%s", said ? "\n" : "B changed nothing beyond its timings: the same kinds, candidates and pool checks.\n\n");
    if (r->has[RUN_POOL] && r->side_b && r->side_b->has[RUN_POOL]) {
        fprintf(f, "| side | the pool |\n|---|---|\n");
        verdict_pool(f, r, "A: ");
        verdict_pool(f, r->side_b, "B: ");
        fprintf(f, "\n");
    }
    if (o->tally)
        fprintf(f, "Timings: %zu rows judged over %zu paired rounds: %zu regression(s), %zu improvement(s), %zu the same, "
                   "%zu undecided, %zu with too few processes.\n\n",
                o->tally->rows, o->tally->pairs, o->tally->regressions, o->tally->improvements, o->tally->same,
                o->tally->undecided + o->tally->unresolvable, o->tally->too_few);
    fprintf(f, "`build/bin/compare` on this folder (%s) explains the verdict row by row; it exits %d.\n\n",
            md_text(r->name), findings_status(s));
}

void md_write(FILE *f, const m_run *r, const md_opts *o)
{
    title(f, r);
    warnings(f, r);
    session(f, r, o);
    verdict(f, r);
    fprintf(f, "## Details\n\n");
    env_table(f, r, o);
    if (r->has[RUN_PROBE]) {
        kinds_table(f, r, o);
        if (o->drop < 4)
            cands_table(f, r, o);
        if (o->drop < 1)
            matrix(f, r, o);
    }
    if (r->has[RUN_MGA] && o->drop < 3)
        mga_table(f, r, o);
    if (r->has[RUN_BENCH])
        bench_tables(f, r, o);
    if (r->has[RUN_POOL])
        pool_tables(f, r, o);
    torch_section(f, r, o);
    static const char *const left[] = {"", "the full truth table", "every bench row", "the MemGetAccess matrix",
                                       "the per-candidate table"};
    if (o->drop)
        fprintf(f, "Left out to stay under GitHub's comment limit: ");
    for (int i = 1; i <= o->drop && i < 5; i++)
        fprintf(f, "%s%s", i > 1 ? ", " : "", left[i]);
    if (o->drop)
        fprintf(f, " (REPORT.md in the run folder has them).\n\n");
    if (!o->pr && !o->plots)
        fprintf(f, "Plots: not made (%s).\n\n", md_text(o->no_plots_why ? o->no_plots_why : "none asked for"));
    static const char *const figure[PLOT_N] = {"report_paths", "report_sweep", "report_pool"};
    for (int i = 0; !o->pr && o->plots && i < PLOT_N; i++)
        if (o->plots->why[i])
            fprintf(f, "Plot %s left out: gnuplot refused it (%s).\n\n", figure[i], md_text(o->plots->why[i]));
    /* The folder's name, not the path it was read from: a report made again
     * anywhere is the same bytes (tests/integration/test_committed.c). */
    fprintf(f, "---\nMade by `report` from the records of run %s", md_text(r->name));
    for (int i = 0; !o->pr && exports[i].file; i++)
        fprintf(f, "%s[%s](%s)", i ? ", " : "; exports: ", exports[i].file, exports[i].file);
    fputs(".\n", f);
}

int md_write_pr(FILE *f, const m_run *r, const md_opts *session)
{
    for (int drop = 0; drop <= 4; drop++) {
        char *buf = NULL;
        size_t n = 0;
        FILE *m = open_memstream(&buf, &n);
        if (!m)
            return -1;
        md_opts o = {.pr = true, .drop = drop, .session = session->session, .tally = session->tally,
                     .session_why = session->session_why};
        md_write(m, r, &o);
        fclose(m);
        /* GitHub counts characters; UTF-8 bytes are at least as many. */
        if (n < MD_PR_LIMIT || drop == 4) {
            int ok = n < MD_PR_LIMIT;
            if (ok)
                fwrite(buf, 1, n, f);
            free(buf);
            return ok ? 0 : -1;
        }
        free(buf);
    }
    return -1;
}
