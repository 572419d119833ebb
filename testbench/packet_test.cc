// Packets as bytes: the header fields survive a round trip through the wire
// layout, the layout puts them where the protocols do, and the checksum
// catches every flipped bit.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include <zlib.h>

extern "C" {
#include "packet.h"
#include "ub_pkg.h"
}

namespace {

uint64_t rnd(uint64_t &s)
{
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return s >> 11;
}

pkt_hdr_t random_ub(uint64_t &s, uint32_t payload)
{
    pkt_hdr_t h{};
    h.proto = PKT_UB;
    h.last = rnd(s) & 1;
    h.tp_opcode = rnd(s) & 0x7f;
    h.ack_req = rnd(s) & 1;
    h.err_flag = rnd(s) & 1;
    h.rsp_status = rnd(s) & 7;
    h.rsp_info = rnd(s) & 31;
    h.src_tpn = rnd(s) & UB_TPN_MASK;
    h.dst_tpn = rnd(s) & UB_TPN_MASK;
    h.psn = rnd(s) & UB_PSN_MASK;
    h.tpmsn = rnd(s) & UB_TPMSN_MASK;
    h.ta_opcode = rnd(s) & 0xff;
    h.mode = rnd(s) & 7;
    h.wire_order = rnd(s) & 7;
    h.tassn = rnd(s) & 0xffff;
    h.jetty = rnd(s) & UB_JETTY_MASK;
    h.token = (uint32_t)rnd(s);
    h.addr = rnd(s) << 11 ^ rnd(s);
    h.len = (uint32_t)rnd(s);
    h.payload_len = payload;
    return h;
}

void expect_same(const pkt_hdr_t &a, const pkt_hdr_t &b)
{
    EXPECT_EQ(0, std::memcmp(&a, &b, sizeof a));
}

TEST(Packet, UbRoundTripAndLayout)
{
    uint64_t s = 5;
    for (uint32_t payload : {0u, 1u, 64u, 4096u}) {
        for (int i = 0; i < 200; i++) {
            pkt_hdr_t h = random_ub(s, payload);
            std::vector<uint8_t> data(payload), buf(pkt_wire_bytes(&h));
            for (auto &b : data)
                b = (uint8_t)rnd(s);
            ASSERT_EQ(buf.size(), UB_RTPH_BYTES + PKT_UB_TAH_BYTES + payload + PKT_CRC_BYTES);
            ASSERT_EQ(pkt_encode(&h, data.data(), buf.data(), buf.size(), nullptr), buf.size());
            // the RTPH as the wire has it, most significant bit first
            EXPECT_EQ(buf[0], (uint8_t)(h.last << 7 | h.tp_opcode));
            EXPECT_EQ(buf[1] >> 6, 0);
            EXPECT_EQ((uint32_t)(buf[5] << 16 | buf[6] << 8 | buf[7]), h.dst_tpn);
            EXPECT_EQ(buf[8] >> 7, h.ack_req);
            EXPECT_EQ((uint32_t)(buf[9] << 16 | buf[10] << 8 | buf[11]), h.psn);
            EXPECT_EQ((uint32_t)(buf[13] << 16 | buf[14] << 8 | buf[15]), h.tpmsn);
            pkt_hdr_t d;
            const uint8_t *pl = nullptr;
            ASSERT_EQ(pkt_decode(buf.data(), buf.size(), PKT_UB, &d, &pl), PKT_OK);
            expect_same(h, d);
            if (payload) {
                EXPECT_EQ(0, std::memcmp(pl, data.data(), payload));
            }
        }
    }
}

TEST(Packet, RcHeadersByOpcode)
{
    struct Case {
        uint8_t op;
        size_t hdr;
    } cases[] = {{RC_OP_READ_REQUEST, 12 + 16}, {RC_OP_WRITE_ONLY, 12 + 16},
                 {RC_OP_SEND_ONLY, 12},         {0x10 /* READ RESPONSE ONLY */, 12 + 4},
                 {0x11 /* ACK */, 12 + 4},      {RC_OP_WRITE_MIDDLE, 12}};
    uint64_t s = 9;
    for (const Case &c : cases) {
        pkt_hdr_t h{};
        h.proto = PKT_RC;
        h.tp_opcode = c.op;
        h.pkey = 0xffff;
        h.dst_tpn = rnd(s) & 0xffffff;
        h.psn = rnd(s) & 0xffffff;
        h.ack_req = 1;
        if (pkt_rc_has_reth(c.op)) {
            h.addr = rnd(s);
            h.token = (uint32_t)rnd(s);
            h.len = 64;
        }
        if (pkt_rc_has_aeth(c.op)) {
            h.syndrome = 0x1f;
            h.tpmsn = 77;
        }
        h.payload_len = c.op == RC_OP_READ_REQUEST ? 0 : 64;
        EXPECT_EQ(pkt_header_bytes(&h), c.hdr) << (int)c.op;
        std::vector<uint8_t> buf(pkt_wire_bytes(&h));
        ASSERT_EQ(pkt_encode(&h, nullptr, buf.data(), buf.size(), nullptr), buf.size());
        EXPECT_EQ(buf[0], c.op);
        EXPECT_EQ((uint32_t)(buf[5] << 16 | buf[6] << 8 | buf[7]), h.dst_tpn);
        pkt_hdr_t d;
        ASSERT_EQ(pkt_decode(buf.data(), buf.size(), PKT_RC, &d, nullptr), PKT_OK);
        expect_same(h, d);
    }
}

TEST(Packet, EverySingleBitFlipAndRandomDoubleFlipsAreCaught)
{
    uint64_t s = 11;
    pkt_hdr_t h = random_ub(s, 64);
    h.tp_opcode = UB_TP_RELIABLE;
    std::vector<uint8_t> buf(pkt_wire_bytes(&h));
    ASSERT_GT(pkt_encode(&h, nullptr, buf.data(), buf.size(), nullptr), 0u);
    pkt_hdr_t d;
    for (size_t bit = 0; bit < buf.size() * 8; bit++) {
        std::vector<uint8_t> b = buf;
        b[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        EXPECT_NE(pkt_decode(b.data(), b.size(), PKT_UB, &d, nullptr), PKT_OK) << "bit " << bit;
    }
    for (int i = 0; i < 20000; i++) {
        std::vector<uint8_t> b = buf;
        uint64_t x = rnd(s) % (b.size() * 8), y = rnd(s) % (b.size() * 8);
        if (x == y)
            continue;
        b[x / 8] ^= (uint8_t)(1u << (x % 8));
        b[y / 8] ^= (uint8_t)(1u << (y % 8));
        EXPECT_NE(pkt_decode(b.data(), b.size(), PKT_UB, &d, nullptr), PKT_OK);
    }
}

TEST(Packet, TruncatedWideFieldsAndSmallBuffersAreRefused)
{
    uint64_t s = 3;
    pkt_hdr_t h = random_ub(s, 16);
    std::vector<uint8_t> buf(pkt_wire_bytes(&h));
    ASSERT_GT(pkt_encode(&h, nullptr, buf.data(), buf.size(), nullptr), 0u);
    pkt_hdr_t d;
    for (size_t n : {size_t(0), size_t(10), size_t(UB_RTPH_BYTES + PKT_UB_TAH_BYTES + 3)})
        EXPECT_EQ(pkt_decode(buf.data(), n, PKT_UB, &d, nullptr), PKT_TRUNCATED) << n;
    EXPECT_EQ(pkt_decode(buf.data(), buf.size() - 1, PKT_UB, &d, nullptr), PKT_BAD_CRC);
    pkt_err_t e;
    EXPECT_EQ(pkt_encode(&h, nullptr, buf.data(), buf.size() - 1, &e), 0u);
    EXPECT_EQ(e, PKT_TRUNCATED);
    pkt_hdr_t w = h;
    w.psn = 1u << 24;
    EXPECT_EQ(pkt_encode(&w, nullptr, buf.data(), buf.size(), &e), 0u);
    EXPECT_EQ(e, PKT_BAD_FIELD);
    w = h;
    w.jetty = 1u << 20;
    EXPECT_EQ(pkt_encode(&w, nullptr, buf.data(), buf.size(), &e), 0u);
    // a version this model does not speak, under a checksum that matches
    std::vector<uint8_t> v = buf;
    v[1] |= 0x40;
    uint32_t c = (uint32_t)crc32(crc32(0L, Z_NULL, 0), v.data(), (uInt)(v.size() - 4));
    for (int i = 0; i < 4; i++)
        v[v.size() - 4 + i] = (uint8_t)(c >> (24 - 8 * i));
    EXPECT_EQ(pkt_decode(v.data(), v.size(), PKT_UB, &d, nullptr), PKT_BAD_VERSION);
}

uint64_t be(const std::vector<uint8_t> &b, size_t at, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v = v << 8 | b[at + i];
    return v;
}

TEST(Packet, TransactionAndRoceHeadersSitWhereTheDocsSay)
{
    uint64_t s = 21;
    pkt_hdr_t h = random_ub(s, 0);
    std::vector<uint8_t> b(pkt_wire_bytes(&h));
    ASSERT_GT(pkt_encode(&h, nullptr, b.data(), b.size(), nullptr), 0u);
    const size_t t = UB_RTPH_BYTES; /* the TAH follows the RTPH */
    EXPECT_EQ(b[t + 0], h.ta_opcode);
    EXPECT_EQ(b[t + 1], (uint8_t)(h.mode << 4 | h.wire_order));
    EXPECT_EQ(be(b, t + 2, 2), h.tassn);
    EXPECT_EQ(be(b, t + 4, 3), h.jetty);
    EXPECT_EQ(b[t + 7], 0);
    EXPECT_EQ(be(b, t + 8, 4), h.token);
    EXPECT_EQ(be(b, t + 12, 8), h.addr);
    EXPECT_EQ(be(b, t + 20, 4), h.len);
    EXPECT_EQ(be(b, 2, 3), h.src_tpn);
    EXPECT_EQ(b[12], (uint8_t)(h.rsp_status << 5 | h.rsp_info));

    pkt_hdr_t r{};
    r.proto = PKT_RC;
    r.tp_opcode = RC_OP_READ_REQUEST;
    r.pkey = 0x8001;
    r.dst_tpn = 0xabcdef;
    r.ack_req = 1;
    r.psn = 0x123456;
    r.addr = 0x1122334455667788ull;
    r.token = 0x99aabbcc;
    r.len = 0x10000;
    std::vector<uint8_t> c(pkt_wire_bytes(&r));
    ASSERT_GT(pkt_encode(&r, nullptr, c.data(), c.size(), nullptr), 0u);
    EXPECT_EQ(be(c, 2, 2), 0x8001u);
    EXPECT_EQ(be(c, 5, 3), 0xabcdefu);
    EXPECT_EQ(c[8], 0x80);
    EXPECT_EQ(be(c, 9, 3), 0x123456u);
    EXPECT_EQ(be(c, 12, 8), r.addr);
    EXPECT_EQ(be(c, 20, 4), r.token);
    EXPECT_EQ(be(c, 24, 4), r.len);
    pkt_hdr_t a{};
    a.proto = PKT_RC;
    a.tp_opcode = 0x11; /* ACKNOWLEDGE */
    a.syndrome = 0x1f;
    a.tpmsn = 0x345678;
    std::vector<uint8_t> d(pkt_wire_bytes(&a));
    ASSERT_GT(pkt_encode(&a, nullptr, d.data(), d.size(), nullptr), 0u);
    EXPECT_EQ(d[12], 0x1f);
    EXPECT_EQ(be(d, 13, 3), 0x345678u);
    // a RoCE field wider than its width is refused, an unknown protocol too
    pkt_err_t e;
    r.dst_tpn = 1u << 24;
    EXPECT_EQ(pkt_encode(&r, nullptr, c.data(), c.size(), &e), 0u);
    EXPECT_EQ(e, PKT_BAD_FIELD);
    pkt_hdr_t d2;
    EXPECT_EQ(pkt_decode(c.data(), c.size(), (pkt_proto_t)9, &d2, nullptr), PKT_BAD_FIELD);
}

}  // namespace

// UB transport acknowledgements: TPACK, NAK and TPSACK with its extension.
TEST(PacketAck, RoundTripsEveryKindAndBitmapSize)
{
    for (int kind = 0; kind < 3; kind++)
        for (unsigned code = 0; code <= (kind == 1 ? 4u : 0u); code++) {
            pkt_ack_t a;
            std::memset(&a, 0, sizeof a);
            a.sack = kind == 1;
            a.nak = kind == 2;
            a.src_tpn = 0x123456;
            a.dst_tpn = 0xABCDEF;
            a.psn = 0xFFFFF0;
            a.tpmsn = 77;
            if (a.sack) {
                a.code = (uint8_t)code;
                a.hi_psn = 0x000010;
                for (unsigned i = 0; i < (64u << code); i += 3)
                    a.bmap[i / 64] |= 1ull << (i % 64);
            }
            uint8_t buf[256];
            size_t n = pkt_ack_encode(&a, buf, sizeof buf, nullptr);
            ASSERT_EQ(n, pkt_ack_bytes(&a));
            EXPECT_EQ(n, a.sack ? 16u + 4u + (64u << code) / 8u + 4u : 20u);
            EXPECT_EQ(pkt_ub_opcode(buf, n), a.sack ? 0x5 : 0x2);
            pkt_ack_t b;
            ASSERT_EQ(pkt_ack_decode(buf, n, &b), PKT_OK);
            EXPECT_EQ(std::memcmp(&a, &b, sizeof a), 0);
            // every single flipped bit is a bad checksum
            for (size_t bit = 0; bit < n * 8; bit += 7) {
                buf[bit / 8] ^= (uint8_t)(1u << (bit % 8));
                EXPECT_EQ(pkt_ack_decode(buf, n, &b), PKT_BAD_CRC) << bit;
                EXPECT_EQ(pkt_ub_opcode(buf, n), -1);
                buf[bit / 8] ^= (uint8_t)(1u << (bit % 8));
            }
            // one byte short
            EXPECT_NE(pkt_ack_decode(buf, n - 1, &b), PKT_OK);
        }
}

TEST(PacketAck, BitmapBytesAreLeastSignificantBitFirst)
{
    pkt_ack_t a;
    std::memset(&a, 0, sizeof a);
    a.sack = 1;
    a.code = 0;
    a.bmap[0] = 0x0102; // bits 1 and 8
    uint8_t buf[64];
    size_t n = pkt_ack_encode(&a, buf, sizeof buf, nullptr);
    ASSERT_GT(n, 0u);
    EXPECT_EQ(buf[16], 0);       // bitmap size code 0: 64 bits
    EXPECT_EQ(buf[20 + 0], 0x02); // bit 1
    EXPECT_EQ(buf[20 + 1], 0x01); // bit 8
}

TEST(PacketAck, RefusesFieldsThatDoNotFit)
{
    pkt_ack_t a;
    std::memset(&a, 0, sizeof a);
    a.sack = 1;
    a.code = 5;
    uint8_t buf[256];
    pkt_err_t e;
    EXPECT_EQ(pkt_ack_encode(&a, buf, sizeof buf, &e), 0u);
    EXPECT_EQ(e, PKT_BAD_FIELD);
    a.code = 0;
    a.psn = 1u << 24;
    EXPECT_EQ(pkt_ack_encode(&a, buf, sizeof buf, &e), 0u);
    EXPECT_EQ(e, PKT_BAD_FIELD);
}

namespace {

// The CRC-32 of everything before the last four bytes, written there.
void reseal(std::vector<uint8_t> &b)
{
    uint32_t c = (uint32_t)crc32(crc32(0L, Z_NULL, 0), b.data(), (uInt)(b.size() - 4));
    for (int i = 0; i < 4; i++)
        b[b.size() - 4 + i] = (uint8_t)(c >> (24 - 8 * i));
}

}  // namespace

// A TPACK (or NAK) is an RTPH and a checksum, nothing else: one with bytes
// between them, under a checksum that matches, is refused.
TEST(PacketAck, APlainAckOfAnyOtherLengthIsRefused)
{
    for (int nak = 0; nak < 2; nak++) {
        pkt_ack_t a;
        std::memset(&a, 0, sizeof a);
        a.nak = (uint8_t)nak;
        a.src_tpn = 0x10;
        a.dst_tpn = 0x20;
        a.psn = 0x345;
        uint8_t buf[64];
        size_t n = pkt_ack_encode(&a, buf, sizeof buf, nullptr);
        ASSERT_EQ(n, (size_t)(UB_RTPH_BYTES + PKT_CRC_BYTES));
        pkt_ack_t d;
        ASSERT_EQ(pkt_ack_decode(buf, n, &d), PKT_OK);
        EXPECT_EQ(d.nak, nak);
        for (size_t extra : {1u, 3u, 4u, 8u, 132u}) {
            std::vector<uint8_t> v(buf, buf + UB_RTPH_BYTES);
            v.resize(UB_RTPH_BYTES + extra + PKT_CRC_BYTES, 0);
            reseal(v);
            EXPECT_EQ(pkt_ack_decode(v.data(), v.size(), &d), PKT_TRUNCATED)
                << "nak " << nak << ", " << extra << " bytes more";
        }
    }
}

// The TAH's source Jetty is 20 bits of a 3-byte field: the decoder reads the
// 20 and ignores the reserved bits above them.
TEST(Packet, TheJettyFieldsReservedBitsAreIgnored)
{
    uint64_t s = 31;
    for (uint32_t jetty : {0u, 0xABCDEu, (uint32_t)UB_JETTY_MASK}) {
        pkt_hdr_t h = random_ub(s, 8);
        h.jetty = jetty;
        std::vector<uint8_t> b(pkt_wire_bytes(&h));
        ASSERT_EQ(pkt_encode(&h, nullptr, b.data(), b.size(), nullptr), b.size());
        const size_t at = UB_RTPH_BYTES + 4; /* the Jetty's first byte */
        EXPECT_EQ(b[at] >> 4, 0) << "reserved bits are sent as 0";
        for (uint8_t rsv : {0x10, 0x80, 0xF0}) {
            std::vector<uint8_t> v = b;
            v[at] |= rsv;
            reseal(v);
            pkt_hdr_t d;
            ASSERT_EQ(pkt_decode(v.data(), v.size(), PKT_UB, &d, nullptr), PKT_OK);
            EXPECT_EQ(d.jetty, jetty) << std::hex << (int)rsv;
            expect_same(h, d);
        }
    }
}
