#include "penalties/snippet_tables.h"
#include "base/json.h"
#include "base/util.h"
#include "host/uarch.h"
#include "penalties/tables.h"
#include <ctype.h>
#include <math.h>
#include <string.h>

#define GLC_LLVM_SCHED "Intel's scheduling model for Sapphire Rapids in LLVM (X86SchedSapphireRapids.td: Golden Cove " \
                       "P-core latencies and throughputs)"
#define GLC_ORM "Intel 64 and IA-32 Architectures Optimization Reference Manual (248966), Golden Cove microarchitecture: " \
                "five integer ALU ports (0, 1, 5, 6, 10)"
#define GLC_FOLD "measured by this project on the Emerald Rapids VM (../shared/hosts/emr-vm: 0.186 TSC ticks an add " \
                 "at 2.3 GHz, the core at 3.10 GHz; indicative only)"
#define ZEN4_SOG_I "AMD, Software Optimization Guide for the AMD Zen4 Microarchitecture (publication 57647): " \
                   "four integer ALUs, latency table"

/* Instruction figures that are not a calibration recipe's; the same struct as the penalty
 * references, keyed "NAME:MODE" by the starter file's names (snippets/). */
const struct reference snippet_references[] = {
    {"goldencove", "add_rr:latency", 1, 1, "ADD r64, r64", GLC_LLVM_SCHED, false, false},
    {"goldencove", "add_rr:throughput", 0.2, 0.2, "ADD r64, r64 on five ALUs", GLC_ORM, false, false},
    {"goldencove", "imul_rr:latency", 3, 3, "IMUL r64, r64", GLC_LLVM_SCHED, false, false},
    {"goldencove", "imul_rr:throughput", 1, 1, "IMUL r64, r64 (one multiplier port)", GLC_LLVM_SCHED, false, false},
    {"goldencove", "add_imm:latency", 0.25, 0.25, "an ADD r64, imm chain folded at rename (4 a cycle there)",
     GLC_FOLD, false, true},
    {"zen4", "add_rr:latency", 1, 1, "ADD r64, r64", ZEN4_SOG_I, false, false},
    {"zen4", "add_rr:throughput", 0.25, 0.25, "ADD r64, r64 on four ALUs", ZEN4_SOG_I, false, false},
    {"zen4", "imul_rr:latency", 3, 3, "IMUL r64, r64", ZEN4_SOG_I, false, false},
};
const int nsnippet_references = (int)ARRAY_SIZE(snippet_references);

/* Starter entries that measure what a calibration recipe measures: its reference stands. */
static const struct {
    const char *name, *mode, *recipe;
} same_as_recipe[] = {
    {"div64", "latency", "div64_latency"},   {"div64", "throughput", "div64_throughput"},
    {"div32", "latency", "div32_latency"},   {"div32", "throughput", "div32_throughput"},
    {"divsd", "latency", "fdiv64_latency"},  {"divsd", "throughput", "fdiv64_throughput"},
    {"divss", "latency", "fdiv32_latency"},  {"divss", "throughput", "fdiv32_throughput"},
    {"sqrtsd", "latency", "sqrt64_latency"}, {"sqrtsd", "throughput", "sqrt64_throughput"},
    {"sqrtss", "latency", "sqrt32_latency"}, {"sqrtss", "throughput", "sqrt32_throughput"},
    {"load_l1", "latency", "l1_hit"},
};

const struct reference *snippet_reference(const char *model, const char *name, const char *mode)
{
    if (!model)
        return NULL;
    char key[96];
    snprintf(key, sizeof(key), "%s:%s", name, mode);
    for (int pass = 0; pass < 2; pass++) {
        const char *m = model;
        if (pass == 1) {
            const struct uarch *u = uarch_named(model, NULL);
            m = u ? u->name : NULL;
        }
        for (int i = 0; m && i < nsnippet_references; i++)
            if (!strcmp(snippet_references[i].uarch, m) && !strcmp(snippet_references[i].penalty, key))
                return &snippet_references[i];
    }
    for (size_t i = 0; i < ARRAY_SIZE(same_as_recipe); i++)
        if (!strcmp(same_as_recipe[i].name, name) && !strcmp(same_as_recipe[i].mode, mode))
            return reference_find(model, same_as_recipe[i].recipe);
    return NULL;
}

int code_format_parse(const char *s)
{
    return !strcmp(s, "tap") ? CODE_TAP : !strcmp(s, "json") ? CODE_JSON : !strcmp(s, "csv") ? CODE_CSV
         : !strcmp(s, "c") ? CODE_C : -1;
}

static void ref_text(char *buf, size_t n, const struct code_row *r)
{
    if (!r->ref)
        snprintf(buf, n, "-");
    else if (r->ref->lo == r->ref->hi)
        snprintf(buf, n, "%g", r->ref->lo);
    else
        snprintf(buf, n, "%g-%g", r->ref->lo, r->ref->hi);
}

static void write_tap(FILE *out, const struct code_row *rows, int n, const char *model)
{
    int points = 0;
    for (int i = 0; i < n; i++)
        points += 1 + rows[i].nev;
    fprintf(out, "TAP version 13\n1..%d\n", points);
    fprintf(out, "# %-14s %-10s %9s %19s %8s %9s %8s  %s\n", "snippet", "mode", "cycles", "interval", "ref", "deviation",
            "status", "instructions");
    for (int i = 0; i < n; i++) {
        const struct code_row *r = &rows[i];
        char ref[32], dev[16] = "-", iv[40] = "-";
        ref_text(ref, sizeof(ref), r);
        if (r->ref && !isnan(r->cycles))
            snprintf(dev, sizeof(dev), "%+.1f%%", 100 * r->deviation);
        if (!isnan(r->cycles))
            snprintf(iv, sizeof(iv), "[%.3f, %.3f]", r->lo, r->hi);
        fprintf(out, "# %-14s %-10s %9.3f %19s %8s %9s %8s  %s\n", r->name, r->mode, r->cycles, iv, ref, dev, penalty_status_name(r->status),
                r->text);
    }
    if (model)
        fprintf(out, "# references: %s's, where published (a deviation is 0 inside a published range)\n", model);
    else
        fprintf(out, "# references: none: no uarch file recognises this host\n");
    int k = 0;
    for (int i = 0; i < n; i++) {
        const struct code_row *r = &rows[i];
        bool good = r->status == PENALTY_OK;
        bool skip = r->status == PENALTY_SKIP || r->status == PENALTY_WITHHELD || r->status == PENALTY_UNSTABLE;
        fprintf(out, "%s %d - %s %s: %.3f cycles a copy", good || skip ? "ok" : "not ok", ++k, r->name, r->mode,
                r->cycles);
        if (r->ref)
            fprintf(out, ", published %g-%g (%s)", r->ref->lo, r->ref->hi, r->ref->source);
        if (skip)
            fprintf(out, " # %s %s", r->status == PENALTY_UNSTABLE ? "TODO" : "SKIP", r->reason);
        else if (!good)
            fprintf(out, " # %s", r->reason);
        fputc('\n', out);
        for (int e = 0; e < r->nev; e++) {
            bool ok = r->ev[e].verdict == VERDICT_OK, sk = r->ev[e].verdict == VERDICT_SKIP;
            fprintf(out, "%s %d - %s %s :: %s measured %.4f expected %.4f%s\n", ok || sk ? "ok" : "not ok", ++k,
                    r->name, r->mode, r->ev[e].name, r->ev[e].measured, r->ev[e].expected, sk ? " # SKIP no rule or no count" : "");
        }
    }
}

static void write_json(FILE *out, const struct code_row *rows, int n, const char *model, const char *source)
{
    struct json j;
    json_init(&j);
    json_object_begin(&j, NULL);
    json_string(&j, "model", model);
    json_string(&j, "source", source);
    json_array_begin(&j, "snippets");
    for (int i = 0; i < n; i++) {
        const struct code_row *r = &rows[i];
        json_object_begin(&j, NULL);
        json_string(&j, "name", r->name);
        json_string(&j, "asm", r->text);
        json_int(&j, "line", r->line);
        json_string(&j, "mode", r->mode);
        json_string(&j, "status", penalty_status_name(r->status));
        json_string(&j, "reason", r->reason);
        json_number(&j, "cycles", r->cycles);
        json_number(&j, "cycles_lo", r->lo);
        json_number(&j, "cycles_hi", r->hi);
        json_number(&j, "copies", r->copies);
        json_number(&j, "inst_per_iteration", r->inst);
        json_array_begin(&j, "counts");
        for (int e = 0; e < r->nev; e++) {
            json_object_begin(&j, NULL);
            json_string(&j, "event", r->ev[e].name);
            json_number(&j, "measured", r->ev[e].measured);
            json_number(&j, "expected", r->ev[e].expected);
            json_string(&j, "verdict", verdict_name(r->ev[e].verdict));
            json_object_end(&j);
        }
        json_array_end(&j);
        if (r->ref) {
            json_object_begin(&j, "reference");
            json_number(&j, "lo", r->ref->lo);
            json_number(&j, "hi", r->ref->hi);
            json_string(&j, "source", r->ref->source);
            json_bool(&j, "indicative", r->ref->indicative);
            json_number(&j, "deviation", r->deviation);
            json_object_end(&j);
        }
        json_object_end(&j);
    }
    json_array_end(&j);
    json_object_end(&j);
    json_write_line(&j, out);
    json_free(&j);
}

static void write_csv(FILE *out, const struct code_row *rows, int n)
{
    fprintf(out, "name,mode,status,cycles,cycles_lo,cycles_hi,reference_lo,reference_hi,deviation,asm,reason\n");
    for (int i = 0; i < n; i++) {
        const struct code_row *r = &rows[i];
        csv_text(out, r->name);
        fprintf(out, ",%s,%s,", r->mode, penalty_status_name(r->status));
        if (isnan(r->cycles))
            fprintf(out, ",,");
        else
            fprintf(out, "%.4f,%.4f,%.4f", r->cycles, r->lo, r->hi);
        if (r->ref)
            fprintf(out, ",%g,%g,%.4f,", r->ref->lo, r->ref->hi, isnan(r->cycles) ? 0.0 : r->deviation);
        else
            fprintf(out, ",,,,");
        csv_text(out, r->text);
        fputc(',', out);
        csv_text(out, r->reason);
        fputc('\n', out);
    }
}

static void write_c(FILE *out, const struct code_row *rows, int n, const char *model)
{
    fprintf(out, "/* Instruction latencies and throughputs, cycles a copy, measured by pmucal code");
    if (model) {
        fprintf(out, " on a ");
        c_comment_text(out, model);
    }
    fprintf(out, ". Only figures that passed their checks are defined. */\n#ifndef PMUCAL_CODE_H\n#define PMUCAL_CODE_H\n");
    for (int i = 0; i < n; i++) {
        const struct code_row *r = &rows[i];
        char macro[96];
        size_t k = 0;
        for (const char *p = r->name; *p && k + 1 < sizeof(macro); p++)
            macro[k++] = (char)toupper((unsigned char)*p);
        macro[k] = 0;
        const char *m = !strcmp(r->mode, "latency") ? "LATENCY" : "THROUGHPUT";
        fprintf(out, "/* ");
        c_comment_text(out, r->text);
        fprintf(out, " */\n");
        if (r->status == PENALTY_OK && isfinite(r->cycles))
            fprintf(out, "#define PMUCAL_CODE_%s_%s %.3f\n", macro, m, r->cycles);
        else {
            fprintf(out, "/* PMUCAL_CODE_%s_%s not defined: %s: ", macro, m, penalty_status_name(r->status));
            c_comment_text(out, r->reason);
            fprintf(out, " */\n");
        }
    }
    fprintf(out, "#endif\n");
}

int code_table_write(FILE *out, enum code_format f, const struct code_row *rows, int n, const char *model,
                     const char *source)
{
    switch (f) {
    case CODE_TAP: write_tap(out, rows, n, model); break;
    case CODE_JSON: write_json(out, rows, n, model, source); break;
    case CODE_CSV: write_csv(out, rows, n); break;
    case CODE_C: write_c(out, rows, n, model); break;
    }
    return ferror(out) ? -1 : 0;
}
