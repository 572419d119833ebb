#include "nic_pipe.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert((NIC_PIPE_MAX_RING & (NIC_PIPE_MAX_RING - 1)) == 0 && NIC_PIPE_MAX_RING > NIC_PIPE_MAX_DEPTH + 1,
               "the ring holds depth + 1 requests and its size is a power of two");

int nic_pipe_depth(const nic_pipe_cfg_t *cfg)
{
    int d = 0;
    for (int i = 0; i < cfg->n_stages; i++)
        d += cfg->stage_cycles[i];
    return d;
}

int nic_pipe_parse(const char *text, nic_pipe_cfg_t *cfg, char *err, int errlen)
{
    memset(cfg, 0, sizeof(*cfg));
    const char *p = text;
    for (;;) {
        while (*p == ' ' || *p == ',' || *p == '\t')
            p++;
        if (!*p)
            break;
        const char *name = p;
        while (*p && *p != ':' && *p != ' ' && *p != ',' && *p != '\t')
            p++;
        size_t nlen = (size_t)(p - name);
        if (*p != ':' || nlen == 0) {
            snprintf(err, (size_t)errlen, "expected stage list 'name:cycles ...', got '%s'", text);
            return -1;
        }
        if (nlen >= NIC_PIPE_NAME_LEN) {
            snprintf(err, (size_t)errlen, "stage name '%.*s' longer than %d characters",
                     (int)nlen, name, NIC_PIPE_NAME_LEN - 1);
            return -1;
        }
        p++;
        if (!isdigit((unsigned char)*p)) {
            snprintf(err, (size_t)errlen, "stage '%.*s': expected a whole number of cycles after ':'",
                     (int)nlen, name);
            return -1;
        }
        char *end;
        long c = strtol(p, &end, 10);
        p = end;
        if (*p && *p != ' ' && *p != ',' && *p != '\t') {
            snprintf(err, (size_t)errlen, "stage '%.*s': expected a whole number of cycles after ':'",
                     (int)nlen, name);
            return -1;
        }
        if (c < 1 || c > NIC_PIPE_MAX_DEPTH) {
            snprintf(err, (size_t)errlen, "stage '%.*s': cycles must be 1..%d, got %ld",
                     (int)nlen, name, NIC_PIPE_MAX_DEPTH, c);
            return -1;
        }
        if (cfg->n_stages == NIC_PIPE_MAX_STAGES) {
            snprintf(err, (size_t)errlen, "more than %d stages", NIC_PIPE_MAX_STAGES);
            return -1;
        }
        memcpy(cfg->stage_name[cfg->n_stages], name, nlen);
        cfg->stage_cycles[cfg->n_stages++] = (int)c;
    }
    if (cfg->n_stages == 0) {
        snprintf(err, (size_t)errlen, "expected at least one stage 'name:cycles'");
        return -1;
    }
    if (nic_pipe_depth(cfg) > NIC_PIPE_MAX_DEPTH) {
        snprintf(err, (size_t)errlen, "pipeline of %d cycles is deeper than %d",
                 nic_pipe_depth(cfg), NIC_PIPE_MAX_DEPTH);
        return -1;
    }
    return 0;
}

int nic_pipe_stage_of_slot(const nic_pipe_cfg_t *cfg, int slot)
{
    for (int i = 0; i < cfg->n_stages; i++) {
        if (slot < cfg->stage_cycles[i])
            return i;
        slot -= cfg->stage_cycles[i];
    }
    return -1;
}

/* Slot of request j (its stored base plus the pipeline-wide shift: when no
 * request is held back, all advance together by bumping `shift`). */
static inline int pos_of(const nic_pipe_t *p, int j) { return p->pos[j] + p->shift; }

uint64_t nic_pipe_slot_mask(const nic_pipe_t *p)
{
    uint64_t m = 0;
    for (int i = 0; i < p->count; i++) {
        int pos = pos_of(p, (p->head + i) & (NIC_PIPE_MAX_RING - 1));
        if (pos >= 0)
            m |= 1ull << pos;
    }
    return m;
}

static void drive(const nic_pipe_t *p, nic_pipe_out_t *out)
{
    out->in_ready = p->count <= p->depth; /* depth slots + one skid register */
    out->out_valid = 0;
    out->out_tag = 0;
    if (p->count && pos_of(p, p->head) == p->depth - 1) {
        out->out_valid = 1;
        out->out_tag = p->tag[p->head];
    }
}

void nic_pipe_init(nic_pipe_t *p, const nic_pipe_cfg_t *cfg)
{
    memset(p, 0, sizeof(*p));
    p->cfg = *cfg;
    p->depth = nic_pipe_depth(cfg);
}

void nic_pipe_reset(nic_pipe_t *p, nic_pipe_out_t *out)
{
    p->head = 0;
    p->count = 0;
    p->shift = 0;
    drive(p, out);
}

void nic_pipe_step(nic_pipe_t *p, const nic_pipe_in_t *in, nic_pipe_out_t *out)
{
    int ready = p->count <= p->depth; /* the in_ready driven during this cycle */
    int n = p->count;
    if (n) {
        int head_at_end = pos_of(p, p->head) == p->depth - 1;
        if (head_at_end && in->out_ready) { /* the oldest request is taken */
            p->head = (p->head + 1) & (NIC_PIPE_MAX_RING - 1);
            p->count--;
            n--;
        }
        if (!head_at_end || in->out_ready) {
            /* nothing is held back: every request moves one slot */
            p->shift++;
        } else {
            /* the oldest is held in the last slot: the rest advance while the
             * slot ahead is free after its occupant has moved */
            int limit = p->depth; /* first slot that is not free ahead */
            for (int k = 0; k < n; k++) {
                int j = (p->head + k) & (NIC_PIPE_MAX_RING - 1);
                int pos = pos_of(p, j);
                if (pos + 1 < limit)
                    pos++;
                p->pos[j] = pos - p->shift;
                limit = pos;
            }
        }
        if (p->count == 0)
            p->shift = 0;
    }
    if (in->in_valid && ready) {
        int j = (p->head + p->count) & (NIC_PIPE_MAX_RING - 1);
        int tail = (p->head + p->count - 1 + NIC_PIPE_MAX_RING) & (NIC_PIPE_MAX_RING - 1);
        /* slot 0, or the skid register when slot 0 is still occupied */
        int pos = (p->count && pos_of(p, tail) == 0) ? -1 : 0;
        p->pos[j] = pos - p->shift;
        p->tag[j] = in->in_tag;
        p->count++;
    }
    drive(p, out);
}

void nic_pipe_advance(nic_pipe_t *p, int64_t n)
{
    if (p->count && n > 0)
        p->shift += (int)n;
}

void nic_pipe_advance_held(nic_pipe_t *p, int64_t n)
{
    /* each moves one slot per edge until it is right behind where the one
     * ahead of it stops; the oldest stops in the last slot */
    int64_t limit = p->depth;
    for (int k = 0; k < p->count; k++) {
        int j = (p->head + k) & (NIC_PIPE_MAX_RING - 1);
        int64_t pos = pos_of(p, j) + n;
        if (pos > limit - 1)
            pos = limit - 1;
        p->pos[j] = (int)pos - p->shift;
        limit = pos;
    }
}

int nic_pipe_settled(const nic_pipe_t *p, const nic_pipe_in_t *in)
{
    if (in->in_valid)
        return 0;
    if (!p->count)
        return 1;
    if (in->out_ready || pos_of(p, p->head) != p->depth - 1)
        return 0;
    /* distinct slots (the skid register is -1) behind the last: closed up
     * exactly when the youngest is count - 1 slots behind the oldest */
    int tail = (p->head + p->count - 1) & (NIC_PIPE_MAX_RING - 1);
    return pos_of(p, tail) == p->depth - p->count;
}

int64_t nic_pipe_edges_to_output(const nic_pipe_t *p)
{
    if (!p->count)
        return -1;
    return (int64_t)(p->depth - 1 - pos_of(p, p->head));
}
