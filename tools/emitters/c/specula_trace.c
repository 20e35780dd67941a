/* specula_trace.c: see specula_trace.h. C11 atomics; no locks on the recording path. */
#define _POSIX_C_SOURCE 200809L
#include "specula_trace.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SPT_MAX_ASSIGN 16

typedef struct {
    const char *action; /* string literals owned by the caller (static lifetime) */
    char *actor;
    char *params;
    char *input;
    int n;
    char *path[SPT_MAX_ASSIGN];
    char *value[SPT_MAX_ASSIGN];
    atomic_int ready;
} spt_slot;

typedef struct {
    char *name;  /* top-level field */
    char *key;   /* NULL for a scalar field, else the key inside the object */
    char *value; /* JSON text */
} spt_field;

struct spt_trace {
    FILE *out;
    char *system;
    char **nodes;
    int n_nodes;
    long seed;
    size_t capacity;
    spt_slot *slots;
    atomic_uint_fast64_t next; /* global sequence counter */
    atomic_uint_fast64_t dropped;
    spt_field *fields;
    size_t n_fields, cap_fields;
};

static char *dup_or_null(const char *s) { return s ? strdup(s) : NULL; }

static void write_json_string(FILE *f, const char *s) {
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c == '\n') fputs("\\n", f);
        else if (c < 0x20) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
    }
    fputc('"', f);
}

spt_trace *spt_open(const char *path, const char *system, const char *const *nodes, int n_nodes,
                    long seed, size_t capacity) {
    spt_trace *tr = calloc(1, sizeof *tr);
    if (!tr) return NULL;
    tr->out = fopen(path, "w");
    if (!tr->out) { free(tr); return NULL; }
    tr->system = strdup(system);
    tr->n_nodes = n_nodes;
    tr->nodes = calloc((size_t)(n_nodes > 0 ? n_nodes : 1), sizeof(char *));
    for (int i = 0; i < n_nodes; i++) tr->nodes[i] = strdup(nodes[i]);
    tr->seed = seed;
    tr->capacity = capacity;
    tr->slots = calloc(capacity, sizeof(spt_slot));
    atomic_init(&tr->next, 0);
    atomic_init(&tr->dropped, 0);
    return tr;
}

/* Split "pc.t1" into ("pc", "t1"); "lock" into ("lock", NULL). */
static void set_field(spt_trace *tr, const char *path, const char *value) {
    const char *dot = strchr(path, '.');
    size_t name_len = dot ? (size_t)(dot - path) : strlen(path);
    const char *key = dot ? dot + 1 : NULL;
    for (size_t i = 0; i < tr->n_fields; i++) {
        spt_field *f = &tr->fields[i];
        if (strlen(f->name) == name_len && strncmp(f->name, path, name_len) == 0 &&
            ((key == NULL && f->key == NULL) || (key && f->key && strcmp(f->key, key) == 0))) {
            free(f->value);
            f->value = strdup(value);
            return;
        }
    }
    if (tr->n_fields == tr->cap_fields) {
        tr->cap_fields = tr->cap_fields ? 2 * tr->cap_fields : 16;
        tr->fields = realloc(tr->fields, tr->cap_fields * sizeof(spt_field));
    }
    spt_field *f = &tr->fields[tr->n_fields++];
    f->name = strndup(path, name_len);
    f->key = dup_or_null(key);
    f->value = strdup(value);
}

void spt_init_field(spt_trace *tr, const char *path, const char *json_value) {
    set_field(tr, path, json_value);
}

static void write_state(spt_trace *tr) {
    FILE *f = tr->out;
    fputc('{', f);
    int first = 1;
    for (size_t i = 0; i < tr->n_fields; i++) {
        spt_field *a = &tr->fields[i];
        int seen = 0; /* fields of one object are written together at its first occurrence */
        for (size_t j = 0; j < i; j++)
            if (strcmp(tr->fields[j].name, a->name) == 0) { seen = 1; break; }
        if (seen) continue;
        if (!first) fputs(", ", f);
        first = 0;
        write_json_string(f, a->name);
        fputs(": ", f);
        if (a->key == NULL) { fputs(a->value, f); continue; }
        fputc('{', f);
        int first_key = 1;
        for (size_t j = i; j < tr->n_fields; j++) {
            spt_field *b = &tr->fields[j];
            if (strcmp(b->name, a->name) != 0 || b->key == NULL) continue;
            if (!first_key) fputs(", ", f);
            first_key = 0;
            write_json_string(f, b->key);
            fputs(": ", f);
            fputs(b->value, f);
        }
        fputc('}', f);
    }
    fputc('}', f);
}

static uint64_t record(spt_trace *tr, const char *action, const char *actor, const char *params,
                       const char *input, int n, va_list ap) {
    uint64_t seq = atomic_fetch_add_explicit(&tr->next, 1, memory_order_seq_cst) + 1;
    if (seq > tr->capacity || n > SPT_MAX_ASSIGN) {
        atomic_fetch_add(&tr->dropped, 1);
        return 0;
    }
    spt_slot *s = &tr->slots[seq - 1];
    s->action = action;
    s->actor = dup_or_null(actor);
    s->params = dup_or_null(params);
    s->input = dup_or_null(input);
    s->n = n;
    for (int i = 0; i < n; i++) {
        s->path[i] = strdup(va_arg(ap, const char *));
        s->value[i] = strdup(va_arg(ap, const char *));
    }
    atomic_store_explicit(&s->ready, 1, memory_order_release);
    return seq;
}

uint64_t spt_step(spt_trace *tr, const char *action, const char *actor, const char *params_json,
                  int n_assign, ...) {
    va_list ap;
    va_start(ap, n_assign);
    uint64_t seq = record(tr, action, actor, params_json, NULL, n_assign, ap);
    va_end(ap);
    return seq;
}

uint64_t spt_step_input(spt_trace *tr, const char *action, const char *actor, const char *params_json,
                        const char *input_json, int n_assign, ...) {
    va_list ap;
    va_start(ap, n_assign);
    uint64_t seq = record(tr, action, actor, params_json, input_json, n_assign, ap);
    va_end(ap);
    return seq;
}

int spt_close(spt_trace *tr) {
    FILE *f = tr->out;
    int rc = 0;
    uint64_t total = atomic_load(&tr->next);
    uint64_t dropped = atomic_load(&tr->dropped);
    if (total > tr->capacity) total = tr->capacity;

    fputs("{\"kind\": \"meta\", \"system\": ", f);
    write_json_string(f, tr->system);
    fputs(", \"format\": 1, \"nodes\": [", f);
    for (int i = 0; i < tr->n_nodes; i++) {
        if (i) fputs(", ", f);
        write_json_string(f, tr->nodes[i]);
    }
    fprintf(f, "], \"seed\": %ld}\n", tr->seed);
    fputs("{\"kind\": \"init\", \"state\": ", f);
    write_state(tr);
    fputs("}\n", f);
    for (uint64_t i = 0; i < total; i++) {
        spt_slot *s = &tr->slots[i];
        if (!atomic_load_explicit(&s->ready, memory_order_acquire)) { rc = -1; break; }
        for (int k = 0; k < s->n; k++) set_field(tr, s->path[k], s->value[k]);
        fprintf(f, "{\"kind\": \"step\", \"seq\": %llu, \"action\": ", (unsigned long long)(i + 1));
        write_json_string(f, s->action);
        fputs(", \"actor\": ", f);
        if (s->actor) write_json_string(f, s->actor); else fputs("null", f);
        fputs(", \"params\": ", f);
        fputs(s->params ? s->params : "{}", f);
        fputs(", \"input\": ", f);
        fputs(s->input ? s->input : "null", f);
        fputs(", \"state\": ", f);
        write_state(tr);
        fputs("}\n", f);
        free(s->actor); free(s->params); free(s->input);
        for (int k = 0; k < s->n; k++) { free(s->path[k]); free(s->value[k]); }
    }
    if (dropped) {
        fprintf(f, "# dropped %llu steps (capacity %zu)\n", (unsigned long long)dropped, tr->capacity);
        rc = -1;
    }
    if (fclose(f) != 0) rc = -1;
    for (size_t i = 0; i < tr->n_fields; i++) {
        free(tr->fields[i].name); free(tr->fields[i].key); free(tr->fields[i].value);
    }
    free(tr->fields);
    for (int i = 0; i < tr->n_nodes; i++) free(tr->nodes[i]);
    free(tr->nodes);
    free(tr->system);
    free(tr->slots);
    free(tr);
    return rc;
}
