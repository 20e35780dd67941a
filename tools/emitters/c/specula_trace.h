/*
 * specula_trace: write specula's NDJSON event trace (docs/traces.md) from instrumented C code.
 *
 * Thread-safe and lock-free while the system runs: every step takes the next number of one
 * global atomic sequence counter and fills its own preallocated slot; nothing is shared but the
 * counter. Call spt_step() at a linearization point (while holding whatever makes that point
 * atomic, e.g. right after a successful CAS and before the releasing store), so the sequence
 * order is a valid linearization. spt_close() (single-threaded, after joining the workers)
 * replays the slots in sequence order and writes one full observed state per step.
 *
 * State is a set of fields named by paths: "lock" (a top-level field) or "pc.t1" (key "t1" of
 * the per-node object "pc"). Values are JSON text ("true", "3", "\"idle\"", "[1,2]").
 *
 *   spt_trace *tr = spt_open("trace-000.ndjson", "spinlock", nodes, 2, 7, 4096);
 *   spt_init_field(tr, "lock", "false");
 *   spt_init_field(tr, "pc.t1", "\"idle\"");  ...
 *   spt_step(tr, "AcquireLock", "t1", "{\"t\": \"t1\"}", 2, "lock", "true", "pc.t1", "\"locked\"");
 *   spt_close(tr);
 */
#ifndef SPECULA_TRACE_H
#define SPECULA_TRACE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct spt_trace spt_trace;

/* Open a trace file; capacity bounds the number of steps (extra steps are counted as dropped). */
spt_trace *spt_open(const char *path, const char *system, const char *const *nodes, int n_nodes,
                    long seed, size_t capacity);

/* Set a field of the initial state (call before any spt_step). */
void spt_init_field(spt_trace *tr, const char *path, const char *json_value);

/* Record one step: n_assign pairs of (const char *path, const char *json_value) follow.
 * params_json may be NULL. Returns the step's sequence number (1-based), 0 if dropped. */
uint64_t spt_step(spt_trace *tr, const char *action, const char *actor, const char *params_json,
                  int n_assign, ...);

/* Like spt_step with an "input" (JSON text, may be NULL). */
uint64_t spt_step_input(spt_trace *tr, const char *action, const char *actor, const char *params_json,
                        const char *input_json, int n_assign, ...);

/* Write the trace and free it. Returns 0 on success, -1 on I/O error or dropped steps. */
int spt_close(spt_trace *tr);

#ifdef __cplusplus
}
#endif

#endif /* SPECULA_TRACE_H */
