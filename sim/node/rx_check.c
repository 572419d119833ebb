#include "rx_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ub_pkg.h"

const char *rx_reason_name(rx_reason_t r)
{
    static const char *const names[RX_N_REASONS] = {
        "ok",        "malformed",      "bad_checksum",   "wrong_tpn", "psn_duplicate",
        "psn_gap",   "tassn",          "bad_token",      "out_of_segment", "no_access",
    };
    return (unsigned)r < RX_N_REASONS ? names[r] : "?";
}

int rx_init(rx_checker_t *c, const rx_cfg_t *cfg, char *err, int errlen)
{
    memset(c, 0, sizeof(*c));
    if (cfg->proto != PKT_UB && cfg->proto != PKT_RC) {
        snprintf(err, (size_t)errlen, "a receiver speaks UB or RoCE RC, not protocol %d",
                 (int)cfg->proto);
        return -1;
    }
    uint32_t psn_mask = cfg->proto == PKT_UB ? UB_PSN_MASK : UB_BITS_MASK(RC_PSN_BITS);
    if (cfg->n_tpn == 0 || cfg->n_tpn > (1u << 20)) {
        snprintf(err, (size_t)errlen, "a receiver needs 1 to %u channels, not %u", 1u << 20,
                 cfg->n_tpn);
        return -1;
    }
    if (cfg->tassn_ctx & (cfg->tassn_ctx - 1)) {
        snprintf(err, (size_t)errlen, "TASSN contexts: %u is not a power of two", cfg->tassn_ctx);
        return -1;
    }
    if (cfg->psn_init > psn_mask) {
        snprintf(err, (size_t)errlen, "first PSN 0x%x is wider than a PSN", cfg->psn_init);
        return -1;
    }
    if (cfg->n_src > 4096) {
        snprintf(err, (size_t)errlen, "a receiver keeps 1 to 4096 senders apart, not %u", cfg->n_src);
        return -1;
    }
    c->cfg = *cfg;
    if (c->cfg.n_src == 0)
        c->cfg.n_src = 1;
    size_t nch = (size_t)cfg->n_tpn * c->cfg.n_src;
    c->expect_psn = malloc(nch * sizeof(*c->expect_psn));
    size_t nt = nch * (cfg->tassn_ctx ? cfg->tassn_ctx : 1);
    c->expect_tassn = calloc(nt, sizeof(*c->expect_tassn));
    if (!c->expect_psn || !c->expect_tassn) {
        rx_free(c);
        snprintf(err, (size_t)errlen, "out of memory for %u channels", cfg->n_tpn);
        return -1;
    }
    for (size_t i = 0; i < nch; i++)
        c->expect_psn[i] = cfg->psn_init;
    return 0;
}

void rx_free(rx_checker_t *c)
{
    free(c->expect_psn);
    free(c->expect_tassn);
    c->expect_psn = NULL;
    c->expect_tassn = NULL;
}

/* The access a request needs at the target, or 0 when it names no remote
 * memory (a send lands in a posted receive buffer; responses and
 * acknowledgements are matched by the initiator). */
static int access_of(const pkt_hdr_t *h)
{
    if (h->proto == PKT_RC) {
        if (h->tp_opcode == RC_OP_READ_REQUEST)
            return SEG_READ;
        if (h->tp_opcode == RC_OP_WRITE_FIRST || h->tp_opcode == RC_OP_WRITE_ONLY)
            return SEG_WRITE;
        return 0;
    }
    switch (h->ta_opcode) {
    case UB_TA_WRITE:
    case UB_TA_WRITE_IMM:
    case UB_TA_WRITE_NOTIFY:
        return SEG_WRITE;
    case UB_TA_READ:
        return SEG_READ;
    case UB_TA_CAS:
    case UB_TA_SWAP:
    case UB_TA_ATOMIC_STORE:
    case UB_TA_ATOMIC_LOAD:
    case UB_TA_FETCH_ADD:
    case UB_TA_FETCH_SUB:
    case UB_TA_FETCH_AND:
    case UB_TA_FETCH_OR:
    case UB_TA_FETCH_XOR:
        return SEG_ATOMIC;
    default:
        return 0;
    }
}

/* A data packet: it has a place in its channel's sequence (UB: reliable
 * or unreliable data; RoCE: anything but an acknowledgement). Transport
 * acknowledgements and notifications are the transport's to handle. */
static int data_packet(pkt_proto_t proto, const pkt_hdr_t *h)
{
    if (proto == PKT_UB)
        return h->tp_opcode == UB_TP_RELIABLE || h->tp_opcode == UB_TP_UNRELIABLE;
    return h->tp_opcode != 0x11; /* ACKNOWLEDGE */
}


/* Checks 2-5 on decoded fields, of a packet from node src. */
static rx_reason_t field_verdict(rx_checker_t *c, const pkt_hdr_t *h, uint32_t src)
{
    const rx_cfg_t *cfg = &c->cfg;
    /* transport: the channel and the sequence */
    if (h->dst_tpn < cfg->tpn_base || h->dst_tpn - cfg->tpn_base >= cfg->n_tpn)
        return RX_WRONG_TPN;
    uint32_t ch = h->dst_tpn - cfg->tpn_base + (src % cfg->n_src) * cfg->n_tpn;
    if (!data_packet(cfg->proto, h) && !cfg->acks_numbered)
        return RX_OK;
    uint32_t bits = cfg->proto == PKT_UB ? UB_PSN_BITS : RC_PSN_BITS;
    uint32_t mask = UB_BITS_MASK(bits);
    uint32_t ahead = (h->psn - c->expect_psn[ch]) & mask;
    if (ahead != 0)
        return ahead < (1u << (bits - 1)) ? RX_PSN_GAP : RX_PSN_DUPLICATE;
    uint32_t span = 1;
    if (cfg->proto == PKT_RC && h->tp_opcode == RC_OP_READ_REQUEST) {
        uint32_t mtu = cfg->mtu ? cfg->mtu : 4096;
        span = h->len / mtu + (h->len % mtu != 0);
        if (span == 0)
            span = 1;
    }
    c->expect_psn[ch] = (h->psn + span) & mask;
    /* transaction: the Jetty's sequence, then the memory it names */
    rx_reason_t r = RX_OK;
    int request = cfg->proto == PKT_RC || h->ta_opcode < UB_TA_TAACK; /* (data, so UB: a request) */
    if (cfg->proto == PKT_UB && cfg->tassn_ctx && request) {
        /* a sender numbers a Jetty's transactions whatever their target, so
         * a receiver may see gaps; what it must never see is one behind */
        uint16_t *want = &c->expect_tassn[(size_t)ch * cfg->tassn_ctx +
                                          (h->jetty & (cfg->tassn_ctx - 1))];
        if ((uint16_t)(h->tassn - *want) >= 0x8000u)
            return RX_TASSN;
        if (h->last)
            *want = (uint16_t)(h->tassn + 1);
    }
    int access = cfg->mem && request ? access_of(h) : 0;
    if (access) {
        switch (node_mem_check(cfg->mem, h->token, h->addr, h->len, access)) {
        case MEM_OK:
            break;
        case MEM_BAD_TOKEN:
            r = RX_BAD_TOKEN;
            break;
        case MEM_OUT_OF_SEGMENT:
            r = RX_OUT_OF_SEGMENT;
            break;
        case MEM_NO_ACCESS:
            r = RX_NO_ACCESS;
            break;
        }
    }
    return r;
}

static rx_reason_t verdict(rx_checker_t *c, const uint8_t *bytes, size_t n, pkt_hdr_t *h,
                           const uint8_t **payload)
{
    switch (pkt_decode(bytes, n, c->cfg.proto, h, payload)) {
    case PKT_OK:
        return field_verdict(c, h, 0);
    case PKT_BAD_CRC:
        return RX_BAD_CHECKSUM;
    default:
        return RX_MALFORMED;
    }
}

rx_reason_t rx_check_fields_from(rx_checker_t *c, const pkt_hdr_t *h, int checksum_ok, uint32_t src)
{
    rx_reason_t r = checksum_ok ? field_verdict(c, h, src) : RX_BAD_CHECKSUM;
    c->count[r]++;
    return r;
}

rx_reason_t rx_check_fields(rx_checker_t *c, const pkt_hdr_t *h, int checksum_ok)
{
    return rx_check_fields_from(c, h, checksum_ok, 0);
}

rx_reason_t rx_check(rx_checker_t *c, const uint8_t *bytes, size_t n, pkt_hdr_t *h,
                     const uint8_t **payload)
{
    rx_reason_t r = verdict(c, bytes, n, h, payload);
    c->count[r]++;
    return r;
}
