// A node's memory and segments, and the receive checks: an in-order stream
// passes, and each check catches the fault it is for, counts it by reason,
// and leaves the state a correct packet needs.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

extern "C" {
#include "mem.h"
#include "packet.h"
#include "rx_check.h"
#include "ub_pkg.h"
}

namespace {

TEST(NodeMem, SegmentsGrantWhatTheyWereRegisteredWith)
{
    node_mem_t m;
    ASSERT_EQ(node_mem_init(&m, 1 << 20), 0);
    char err[256];
    ASSERT_EQ(node_mem_register(&m, 0x1000, 0x1000, 0xabc, SEG_READ, err, sizeof err), 0) << err;
    ASSERT_EQ(node_mem_register(&m, 0x4000, 0x100, 0x777, SEG_ATOMIC, err, sizeof err), 1) << err;
    // refused registrations say why
    EXPECT_EQ(node_mem_register(&m, 0x1800, 0x1000, 1, SEG_READ, err, sizeof err), -1);
    EXPECT_NE(std::string(err).find("overlaps"), std::string::npos) << err;
    EXPECT_EQ(node_mem_register(&m, (1 << 20) - 8, 16, 1, SEG_READ, err, sizeof err), -1);
    EXPECT_NE(std::string(err).find("outside"), std::string::npos) << err;
    EXPECT_EQ(node_mem_register(&m, 0x9000, 16, 1, 0, err, sizeof err), -1);

    EXPECT_EQ(node_mem_check(&m, 0xabc, 0x1000, 0x1000, SEG_READ), MEM_OK);
    EXPECT_EQ(node_mem_check(&m, 0xabd, 0x1000, 64, SEG_READ), MEM_BAD_TOKEN);
    EXPECT_EQ(node_mem_check(&m, 0xabc, 0x1fc0, 65, SEG_READ), MEM_OUT_OF_SEGMENT);
    EXPECT_EQ(node_mem_check(&m, 0xabc, 0x0fff, 2, SEG_READ), MEM_OUT_OF_SEGMENT);
    EXPECT_EQ(node_mem_check(&m, 0xabc, 0x1000, 64, SEG_WRITE), MEM_NO_ACCESS);
    // atomic implies write and read
    EXPECT_EQ(node_mem_check(&m, 0x777, 0x4000, 8, SEG_READ), MEM_OK);
    EXPECT_EQ(node_mem_check(&m, 0x777, 0x4000, 8, SEG_WRITE), MEM_OK);

    const char msg[] = "the bytes really move";
    node_mem_write(&m, 0x1010, msg, sizeof msg);
    char back[sizeof msg];
    node_mem_read(&m, 0x1010, back, sizeof back);
    EXPECT_STREQ(back, msg);
    node_mem_free(&m);
}

TEST(NodeMem, AccessImpliesAndLimits)
{
    node_mem_t m;
    ASSERT_EQ(node_mem_init(&m, 1 << 20), 0);
    char err[256];
    ASSERT_EQ(node_mem_register(&m, 0, 64, 1, SEG_WRITE, err, sizeof err), 0);
    EXPECT_EQ(node_mem_check(&m, 1, 0, 8, SEG_READ), MEM_OK) << "write implies read";
    EXPECT_EQ(node_mem_check(&m, 1, 0, 8, SEG_ATOMIC), MEM_NO_ACCESS);
    EXPECT_EQ(node_mem_register(&m, 100, 0, 1, SEG_READ, err, sizeof err), -1) << "empty";
    for (int i = 1; i < MEM_MAX_SEGS; i++)
        ASSERT_EQ(node_mem_register(&m, 1000 + (uint64_t)i * 16, 16, 1, SEG_READ, err, sizeof err), i);
    EXPECT_EQ(node_mem_register(&m, 900000, 16, 1, SEG_READ, err, sizeof err), -1);
    EXPECT_NE(std::string(err).find("more than"), std::string::npos) << err;
    node_mem_free(&m);
}

struct Rx {
    node_mem_t mem;
    rx_checker_t rx;
    Rx()
    {
        EXPECT_EQ(node_mem_init(&mem, 1 << 20), 0);
        char err[256];
        EXPECT_EQ(node_mem_register(&mem, 0x10000, 0x10000, 0x5eed, SEG_WRITE, err, sizeof err),
                  0);
        EXPECT_EQ(node_mem_register(&mem, 0x40000, 0x1000, 0x5eed, SEG_READ, err, sizeof err), 1);
        rx_cfg_t cfg{};
        cfg.proto = PKT_UB;
        cfg.tpn_base = 0x100;
        cfg.n_tpn = 16;
        cfg.psn_init = 0;
        cfg.tassn_ctx = UBSP_NUM_JETTY_CTX;
        cfg.mem = &mem;
        EXPECT_EQ(rx_init(&rx, &cfg, err, sizeof err), 0) << err;
    }
    ~Rx()
    {
        rx_free(&rx);
        node_mem_free(&mem);
    }
};

// A UB request as a send pipeline would emit it.
pkt_hdr_t request(uint32_t tpn, uint32_t psn, uint32_t jetty, uint16_t tassn, uint8_t op,
                  uint64_t addr, uint32_t len)
{
    pkt_hdr_t h{};
    h.proto = PKT_UB;
    h.last = 1;
    h.tp_opcode = UB_TP_RELIABLE;
    h.src_tpn = 0x200;
    h.dst_tpn = tpn;
    h.psn = psn;
    h.ta_opcode = op;
    h.mode = URMA_OT;
    h.tassn = tassn;
    h.jetty = jetty;
    h.token = 0x5eed;
    h.addr = addr;
    h.len = len;
    h.payload_len = op == UB_TA_WRITE ? len : 0;
    return h;
}

std::vector<uint8_t> bytes(const pkt_hdr_t &h)
{
    std::vector<uint8_t> b(pkt_wire_bytes(&h));
    EXPECT_EQ(pkt_encode(&h, nullptr, b.data(), b.size(), nullptr), b.size());
    return b;
}

rx_reason_t check(Rx &r, const pkt_hdr_t &h)
{
    std::vector<uint8_t> b = bytes(h);
    pkt_hdr_t d;
    return rx_check(&r.rx, b.data(), b.size(), &d, nullptr);
}

TEST(RxCheck, AnInOrderStreamPasses)
{
    Rx r;
    uint32_t psn[3] = {0, 0, 0};
    uint16_t tassn[3][5] = {}; /* per channel and Jetty (context) */
    for (uint32_t i = 0; i < 1000; i++) {
        uint32_t ch = i % 3, jetty = i % 5;
        pkt_hdr_t h = request(0x100 + ch, psn[ch]++, jetty, tassn[ch][jetty]++, UB_TA_READ,
                              0x40000 + 64 * (i % 64), 64);
        ASSERT_EQ(check(r, h), RX_OK) << i;
    }
    EXPECT_EQ(r.rx.count[RX_OK], 1000u);
}

TEST(RxCheck, EachCheckCatchesItsFault)
{
    for (int fault = 0; fault < 8; fault++) {
        Rx r;
        // one good request first, then the faulty one, then the one a correct
        // sender sends next (it must still pass when the fault was the transport's)
        ASSERT_EQ(check(r, request(0x100, 0, 3, 0, UB_TA_WRITE, 0x10000, 64)), RX_OK);
        pkt_hdr_t h = request(0x100, 1, 3, 1, UB_TA_WRITE, 0x10040, 64);
        rx_reason_t want = RX_OK;
        std::vector<uint8_t> b;
        switch (fault) {
        case 0: h.dst_tpn = 0x300; want = RX_WRONG_TPN; break;
        case 1: h.psn = 5; want = RX_PSN_GAP; break;
        case 2: h.psn = 0; want = RX_PSN_DUPLICATE; break;
        case 3: h.token = 0xbad; want = RX_BAD_TOKEN; break;
        case 4: h.addr = 0x1fff0; want = RX_OUT_OF_SEGMENT; break;
        case 5: h.addr = 0x40000; want = RX_NO_ACCESS; break; /* a read-only segment */
        case 6: h.tassn = 0; want = RX_TASSN; break; /* behind: already seen */
        case 7: want = RX_BAD_CHECKSUM; break;
        }
        b = bytes(h);
        if (fault == 7)
            b[UB_RTPH_BYTES + PKT_UB_TAH_BYTES + 10] ^= 0x08; /* a payload bit */
        pkt_hdr_t d;
        EXPECT_EQ(rx_check(&r.rx, b.data(), b.size(), &d, nullptr), want) << fault;
        EXPECT_EQ(r.rx.count[want], 1u) << rx_reason_name(want);
        // a transport fault changes nothing: the correct next packet passes;
        // a transaction refusal used up its PSN (and TASSN, unless the TASSN
        // was the fault)
        bool transport = want == RX_WRONG_TPN || want == RX_PSN_GAP || want == RX_PSN_DUPLICATE ||
                         want == RX_BAD_CHECKSUM;
        uint32_t next_psn = transport ? 1 : 2;
        uint16_t next_tassn = transport || want == RX_TASSN ? 1 : 2;
        EXPECT_EQ(check(r, request(0x100, next_psn, 3, next_tassn, UB_TA_WRITE, 0x10080, 64)), RX_OK)
            << rx_reason_name(want);
    }
}

TEST(RxCheck, RocePsnAndRkey)
{
    node_mem_t mem;
    ASSERT_EQ(node_mem_init(&mem, 1 << 16), 0);
    char err[256];
    ASSERT_EQ(node_mem_register(&mem, 0x1000, 0x1000, 0x42, SEG_READ, err, sizeof err), 0);
    rx_checker_t rx;
    rx_cfg_t cfg{};
    cfg.proto = PKT_RC;
    cfg.tpn_base = 1;
    cfg.n_tpn = 1;
    cfg.psn_init = 0xfffffe; /* wraps */
    cfg.mem = &mem;
    ASSERT_EQ(rx_init(&rx, &cfg, err, sizeof err), 0) << err;
    auto read = [&](uint32_t psn, uint32_t rkey, uint32_t len = 64) {
        pkt_hdr_t h{};
        h.proto = PKT_RC;
        h.tp_opcode = RC_OP_READ_REQUEST;
        h.dst_tpn = 1;
        h.psn = psn;
        h.token = rkey;
        h.addr = 0x1000;
        h.len = len;
        std::vector<uint8_t> b = bytes(h);
        pkt_hdr_t d;
        return rx_check(&rx, b.data(), b.size(), &d, nullptr);
    };
    EXPECT_EQ(read(0xfffffe, 0x42), RX_OK);
    EXPECT_EQ(read(0xffffff, 0x43), RX_BAD_TOKEN);
    EXPECT_EQ(read(0x000001, 0x42), RX_PSN_GAP);
    EXPECT_EQ(read(0xffffff, 0x42), RX_PSN_DUPLICATE);
    EXPECT_EQ(read(0x000000, 0x42, 0x1000), RX_OK);
    // a READ of 3 MTUs uses three PSNs: its responses' (the segment is 4 KiB)
    EXPECT_EQ(read(0x000001, 0x42, 0x1000), RX_OK);
    EXPECT_EQ(read(0x000002, 0x42, 3 * 4096), RX_OUT_OF_SEGMENT) << "in sequence, then refused";
    EXPECT_EQ(read(0x000003, 0x42), RX_PSN_DUPLICATE);
    EXPECT_EQ(read(0x000005, 0x42), RX_OK);
    rx_free(&rx);
    node_mem_free(&mem);
}

TEST(RxCheck, BadConfigurationsAreRefused)
{
    rx_checker_t rx;
    char err[256];
    rx_cfg_t cfg{};
    cfg.proto = PKT_UB;
    cfg.n_tpn = 0;
    EXPECT_EQ(rx_init(&rx, &cfg, err, sizeof err), -1);
    cfg.n_tpn = 4;
    cfg.tassn_ctx = 6;
    EXPECT_EQ(rx_init(&rx, &cfg, err, sizeof err), -1);
    EXPECT_NE(std::string(err).find("power of two"), std::string::npos) << err;
    cfg.tassn_ctx = 8;
    cfg.psn_init = 1u << 24;
    EXPECT_EQ(rx_init(&rx, &cfg, err, sizeof err), -1);
}

TEST(RxCheck, TassnGapsPassButNotOneBehindAndAcksAreNotSequenced)
{
    Rx r;
    ASSERT_EQ(check(r, request(0x100, 0, 3, 0, UB_TA_READ, 0x40000, 64)), RX_OK);
    // the Jetty's transactions 1..4 went to other targets
    ASSERT_EQ(check(r, request(0x100, 1, 3, 5, UB_TA_READ, 0x40000, 64)), RX_OK);
    EXPECT_EQ(check(r, request(0x100, 2, 3, 4, UB_TA_READ, 0x40000, 64)), RX_TASSN);
    // an acknowledgement has no place in the data sequence
    pkt_hdr_t ack = request(0x100, 77, 0, 0, UB_TA_READ, 0, 0);
    ack.tp_opcode = UB_TP_ACK;
    EXPECT_EQ(check(r, ack), RX_OK);
    EXPECT_EQ(check(r, request(0x100, 3, 3, 6, UB_TA_READ, 0x40000, 64)), RX_OK);
}

TEST(RxCheck, TheFirstFailingCheckWinsAndEveryPacketIsCountedOnce)
{
    Rx r;
    uint64_t sent = 0;
    // wrong TPN and a bad token: the TPN is checked first
    pkt_hdr_t h = request(0x300, 0, 3, 0, UB_TA_WRITE, 0x10000, 64);
    h.token = 0xbad;
    EXPECT_EQ(check(r, h), RX_WRONG_TPN);
    sent++;
    // a PSN gap and an out-of-segment address: the PSN first
    EXPECT_EQ(check(r, request(0x100, 9, 3, 0, UB_TA_WRITE, 0x90000, 64)), RX_PSN_GAP);
    sent++;
    // too short to be a packet
    uint8_t junk[10] = {0};
    pkt_hdr_t d;
    EXPECT_EQ(rx_check(&r.rx, junk, sizeof junk, &d, nullptr), RX_MALFORMED);
    sent++;
    for (int i = 0; i < 5; i++, sent++)
        EXPECT_EQ(check(r, request(0x100, (uint32_t)i, 3, (uint16_t)i, UB_TA_WRITE, 0x10000, 64)),
                  RX_OK);
    uint64_t counted = 0;
    for (int k = 0; k < RX_N_REASONS; k++)
        counted += r.rx.count[k];
    EXPECT_EQ(counted, sent);
    EXPECT_STREQ(rx_reason_name(RX_PSN_GAP), "psn_gap");
}

TEST(RxCheck, EveryFlippedBitOfARocePacketIsABadChecksum)
{
    rx_checker_t rx;
    rx_cfg_t cfg{};
    cfg.proto = PKT_RC;
    cfg.tpn_base = 0;
    cfg.n_tpn = 16;
    char err[256];
    ASSERT_EQ(rx_init(&rx, &cfg, err, sizeof err), 0) << err;
    for (uint8_t op : {(uint8_t)RC_OP_SEND_ONLY, (uint8_t)RC_OP_READ_REQUEST, (uint8_t)0x10}) {
        pkt_hdr_t h{};
        h.proto = PKT_RC;
        h.tp_opcode = op;
        h.pkey = 0xffff;
        h.dst_tpn = 1;
        h.payload_len = op == RC_OP_READ_REQUEST ? 0 : 16;
        std::vector<uint8_t> b = bytes(h);
        for (size_t bit = 0; bit < b.size() * 8; bit++) {
            std::vector<uint8_t> x = b;
            x[bit / 8] ^= (uint8_t)(1u << (bit % 8));
            pkt_hdr_t d;
            ASSERT_EQ(rx_check(&rx, x.data(), x.size(), &d, nullptr), RX_BAD_CHECKSUM)
                << "opcode " << (int)op << " bit " << bit;
        }
    }
    rx_free(&rx);
}

TEST(RxCheck, RoceWritesMeetTheSegmentChecks)
{
    node_mem_t mem;
    ASSERT_EQ(node_mem_init(&mem, 1 << 16), 0);
    char err[256];
    ASSERT_EQ(node_mem_register(&mem, 0x1000, 0x100, 0x42, SEG_READ, err, sizeof err), 0);
    ASSERT_EQ(node_mem_register(&mem, 0x2000, 0x100, 0x43, SEG_WRITE, err, sizeof err), 1);
    rx_checker_t rx;
    rx_cfg_t cfg{};
    cfg.proto = PKT_RC;
    cfg.n_tpn = 1;
    cfg.mem = &mem;
    ASSERT_EQ(rx_init(&rx, &cfg, err, sizeof err), 0) << err;
    uint32_t psn = 0;
    auto write = [&](uint64_t addr, uint32_t rkey, uint32_t len) {
        pkt_hdr_t h{};
        h.proto = PKT_RC;
        h.tp_opcode = RC_OP_WRITE_ONLY;
        h.psn = psn++;
        h.addr = addr;
        h.token = rkey;
        h.len = len;
        h.payload_len = len;
        std::vector<uint8_t> b = bytes(h);
        pkt_hdr_t d;
        return rx_check(&rx, b.data(), b.size(), &d, nullptr);
    };
    EXPECT_EQ(write(0x2000, 0x43, 64), RX_OK);
    EXPECT_EQ(write(0x20c0, 0x43, 128), RX_OUT_OF_SEGMENT);
    EXPECT_EQ(write(0x1000, 0x42, 64), RX_NO_ACCESS);
    EXPECT_EQ(write(0x3000, 0x43, 64), RX_OUT_OF_SEGMENT);
    rx_free(&rx);
    node_mem_free(&mem);
}

// The PSN check at the edge of half the 24-bit space: 2^23 ahead of the next
// expected PSN is behind it (a duplicate), 2^23 - 1 ahead is a gap; UB and
// RoCE alike, and the boundary moves on with the sequence.
TEST(RxCheck, HalfThePsnSpaceAheadIsADuplicate)
{
    for (pkt_proto_t proto : {PKT_UB, PKT_RC}) {
        rx_checker_t rx;
        rx_cfg_t cfg{};
        cfg.proto = proto;
        cfg.tpn_base = 4;
        cfg.n_tpn = 2;
        cfg.psn_init = 0x123456;
        char err[256];
        ASSERT_EQ(rx_init(&rx, &cfg, err, sizeof err), 0) << err;
        auto at = [&](uint32_t psn) {
            pkt_hdr_t h{};
            h.proto = proto;
            h.tp_opcode = proto == PKT_UB ? (uint8_t)UB_TP_RELIABLE : (uint8_t)RC_OP_SEND_ONLY;
            h.dst_tpn = 5;
            h.psn = psn & 0xFFFFFF;
            h.payload_len = 8;
            std::vector<uint8_t> b = bytes(h);
            pkt_hdr_t d;
            return rx_check(&rx, b.data(), b.size(), &d, nullptr);
        };
        for (uint32_t next : {0x123456u, 0x123457u}) {
            EXPECT_EQ(at(next + 0x800000), RX_PSN_DUPLICATE) << proto << " " << next;
            EXPECT_EQ(at(next + 0x7FFFFF), RX_PSN_GAP) << proto << " " << next;
            EXPECT_EQ(at(next + 0x800001), RX_PSN_DUPLICATE) << proto << " " << next;
            EXPECT_EQ(at(next - 1), RX_PSN_DUPLICATE) << proto << " " << next;
            EXPECT_EQ(at(next + 1), RX_PSN_GAP) << proto << " " << next;
            EXPECT_EQ(at(next), RX_OK) << proto << " " << next;
        }
        EXPECT_EQ(rx.count[RX_OK], 2u);
        EXPECT_EQ(rx.count[RX_PSN_DUPLICATE], 6u);
        EXPECT_EQ(rx.count[RX_PSN_GAP], 4u);
        rx_free(&rx);
    }
}

// A receiver's TPNs are [base, base + n): the one just past the end is not
// one of them (it would name the next sender's first channel).
TEST(RxCheck, TheTpnJustPastTheRangeIsWrong)
{
    for (pkt_proto_t proto : {PKT_UB, PKT_RC}) {
        rx_checker_t rx;
        rx_cfg_t cfg{};
        cfg.proto = proto;
        cfg.tpn_base = 0x100;
        cfg.n_tpn = 16;
        cfg.n_src = 2; /* channel state for two senders, one after the other */
        char err[256];
        ASSERT_EQ(rx_init(&rx, &cfg, err, sizeof err), 0) << err;
        auto at = [&](uint32_t tpn) {
            pkt_hdr_t h{};
            h.proto = proto;
            h.tp_opcode = proto == PKT_UB ? (uint8_t)UB_TP_RELIABLE : (uint8_t)RC_OP_SEND_ONLY;
            h.dst_tpn = tpn;
            h.psn = 0;
            std::vector<uint8_t> b = bytes(h);
            pkt_hdr_t d;
            return rx_check(&rx, b.data(), b.size(), &d, nullptr);
        };
        EXPECT_EQ(at(0x110), RX_WRONG_TPN) << proto;
        EXPECT_EQ(at(0x111), RX_WRONG_TPN) << proto;
        EXPECT_EQ(at(0x0ff), RX_WRONG_TPN) << proto;
        EXPECT_EQ(at(0x10f), RX_OK) << proto;
        EXPECT_EQ(at(0x100), RX_OK) << proto;
        EXPECT_EQ(rx.count[RX_WRONG_TPN], 3u);
        // the same through the field check
        pkt_hdr_t h{};
        h.proto = proto;
        h.tp_opcode = proto == PKT_UB ? (uint8_t)UB_TP_RELIABLE : (uint8_t)RC_OP_SEND_ONLY;
        h.dst_tpn = 0x110;
        EXPECT_EQ(rx_check_fields_from(&rx, &h, 1, 0), RX_WRONG_TPN) << proto;
        EXPECT_EQ(rx.count[RX_WRONG_TPN], 4u);
        rx_free(&rx);
    }
}

}  // namespace
