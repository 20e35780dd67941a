/*
 * Trace harness for the spin lock: `spin_harness --runs N --seed S --out DIR [--threads T] [--ops K]`.
 * Run i (seed S+i) starts T pthreads on one lock; each performs K critical sections, choosing
 * lock() or try_lock() (retrying a failed try later) with a per-thread seeded xorshift generator,
 * yielding inside and outside the critical section so threads really contend. Interleavings are
 * real (not reproducible); the trace order is the emitter's global sequence order, taken at the
 * linearization points while the lock is held, so it is a valid linearization.
 * Writes DIR/trace-000.ndjson ... in specula's NDJSON event schema.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spinlock.h"
#include "spinlock_trace.h"
#include "specula_trace.h"

#define MAX_THREADS 8

static spt_trace *g_trace;
static _Thread_local const char *t_name;
static _Thread_local char t_pc_path[32];
static _Thread_local char t_params[64];

void spin_trace_lock_call(spinlock_t *l) {
    (void)l;
    spt_step(g_trace, "StartLock", t_name, t_params, 1, t_pc_path, "\"spinning\"");
}

void spin_trace_acquired(spinlock_t *l, bool via_try) {
    (void)l;
    (void)via_try;
    spt_step(g_trace, "AcquireLock", t_name, t_params, 2, "lock", "true", t_pc_path, "\"locked\"");
}

void spin_trace_release(spinlock_t *l) {
    (void)l;
    spt_step(g_trace, "ReleaseLock", t_name, t_params, 2, "lock", "false", t_pc_path, "\"idle\"");
}

typedef struct {
    char name[16];
    uint64_t rng;
    int ops;
    spinlock_t *lock;
    pthread_barrier_t *start;
} worker_t;

static uint64_t xorshift(uint64_t *s) {
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

static void pause_a_little(uint64_t *rng, int max_yields) {
    int n = (int)(xorshift(rng) % (uint64_t)(max_yields + 1));
    for (int i = 0; i < n; i++) sched_yield();
    for (volatile int spin = (int)(xorshift(rng) % 2000); spin > 0; spin--) {}
}

static void *worker(void *arg) {
    worker_t *w = arg;
    t_name = w->name;
    snprintf(t_pc_path, sizeof t_pc_path, "pc.%s", w->name);
    snprintf(t_params, sizeof t_params, "{\"t\": \"%s\"}", w->name);
    pthread_barrier_wait(w->start);
    for (int done = 0; done < w->ops;) {
        bool use_try = xorshift(&w->rng) % 10 < 4;
        if (use_try) {
            if (!spin_try_lock(w->lock)) { /* try_lock never spins: do something else, retry later */
                pause_a_little(&w->rng, 2);
                continue;
            }
        } else {
            spin_lock(w->lock);
        }
        pause_a_little(&w->rng, 3); /* critical section */
        spin_unlock(w->lock);
        done++;
        pause_a_little(&w->rng, 1);
    }
    return NULL;
}

static int run_one(const char *path, long seed, int threads, int ops) {
    const char *names[MAX_THREADS];
    worker_t ws[MAX_THREADS];
    spinlock_t lock;
    spin_init(&lock);
    for (int i = 0; i < threads; i++) {
        snprintf(ws[i].name, sizeof ws[i].name, "t%d", i + 1);
        names[i] = ws[i].name;
    }
    g_trace = spt_open(path, "spinlock", names, threads, seed, 4096);
    if (!g_trace) { perror(path); return -1; }
    spt_init_field(g_trace, "lock", "false");
    for (int i = 0; i < threads; i++) {
        char p[32];
        snprintf(p, sizeof p, "pc.%s", ws[i].name);
        spt_init_field(g_trace, p, "\"idle\"");
    }
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, (unsigned)threads);
    pthread_t tids[MAX_THREADS];
    for (int i = 0; i < threads; i++) {
        ws[i].rng = (uint64_t)seed * 0x9E3779B97F4A7C15ull + (uint64_t)(i + 1) * 0xBF58476D1CE4E5B9ull;
        if (ws[i].rng == 0) ws[i].rng = 1;
        ws[i].ops = ops;
        ws[i].lock = &lock;
        ws[i].start = &start;
        pthread_create(&tids[i], NULL, worker, &ws[i]);
    }
    for (int i = 0; i < threads; i++) pthread_join(tids[i], NULL);
    pthread_barrier_destroy(&start);
    return spt_close(g_trace);
}

int main(int argc, char **argv) {
    int runs = 1, threads = 3, ops = 6;
    long seed = 0;
    const char *out = ".";
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--runs")) runs = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--seed")) seed = atol(argv[i + 1]);
        else if (!strcmp(argv[i], "--out")) out = argv[i + 1];
        else if (!strcmp(argv[i], "--threads")) threads = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--ops")) ops = atoi(argv[i + 1]);
        else { fprintf(stderr, "unknown option %s\n", argv[i]); return 2; }
    }
    if (runs < 1 || threads < 1 || threads > MAX_THREADS || ops < 1) {
        fprintf(stderr, "bad --runs/--threads/--ops\n");
        return 2;
    }
    for (int r = 0; r < runs; r++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/trace-%03d.ndjson", out, r);
        if (run_one(path, seed + r, threads, ops) != 0) {
            fprintf(stderr, "run %d failed\n", r);
            return 1;
        }
    }
    return 0;
}
