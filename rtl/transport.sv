// Selective-acknowledgement transport: both halves of a node's reliable
// delivery (docs/transport.md has the rules).
//
// RTL twin of cmodel/transport.c; both agree cycle for cycle. Every decision
// of an edge is taken from the registers before it and the inputs; the
// updates follow in the C model's order (T1..T8 transmit, R1..R4 receive).
//
// Transmit, per channel: next PSN, oldest PSN not acknowledged (una), the
// flight and the resend scan as 11-bit offsets from una, the timer and its
// timeout, the retry count, a fail bit; a ring of selectively acknowledged
// bits and a ring of 16-bit descriptors (handles) indexed by PSN modulo W.
// New packets wait in a 2-entry FIFO. An acknowledgement's header is taken
// into registers at one edge (its differences from una worked out there) and
// applied at the next; ack_ready is low at the edge after a header, so two
// are never in flight.
// Receive, per channel: next PSN to deliver, the highest PSN received, the
// packets held, a ring of received-not-delivered bits (two 64-bit words in
// registers, the rest in a LUT RAM); acknowledgements owed. All outputs are registers.
//
// The port list is cmodel/transport_ports.h (4 channels: CH is fixed by the
// 2-bit channel ports; W, the ring and bitmap size, is a parameter for
// synthesis estimates and must stay 1024 for the simulator). A SACK's bitmap
// crosses the ack ports in 64-bit words, one an edge after its header: it is
// merged into the acked ring, and an outgoing one read from the receive
// ring, a word an edge.
//
// `make lint` synthesizes it with a 128-entry ring (yosys needs minutes for
// the full one; docs/transport.md gives both sizes):
// lint-synth: hierarchy -top transport -chparam W 128
`include "prim_assert.svh"

module transport #(
  parameter int W = 1024
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          cfg_gbn_i,
  input  logic [2:0]    cfg_bmap_code_i,
  input  logic [10:0]   cfg_window_i,
  input  logic [10:0]   cfg_ooo_cap_i,
  input  logic [31:0]   cfg_rto_i,
  input  logic          cfg_backoff_i,
  input  logic [3:0]    cfg_retry_max_i,
  input  logic [23:0]   cfg_psn_init_i,
  input  logic          sq_valid_i,
  input  logic [1:0]    sq_ch_i,
  input  logic [15:0]   sq_hdl_i,
  input  logic          pkt_ready_i,
  input  logic          ack_valid_i,
  input  logic [1:0]    ack_ch_i,
  input  logic [1:0]    ack_kind_i,
  input  logic [23:0]   ack_base_i,
  input  logic [23:0]   ack_hi_i,
  input  logic [2:0]    ack_code_i,
  input  logic          ack_wvalid_i,
  input  logic [63:0]   ack_word_i,
  input  logic          rx_valid_i,
  input  logic [1:0]    rx_ch_i,
  input  logic [23:0]   rx_psn_i,
  input  logic          ao_ready_i,
  output logic          sq_ready_o,
  output logic          ack_ready_o,
  output logic          pkt_valid_o,
  output logic [1:0]    pkt_ch_o,
  output logic [23:0]   pkt_psn_o,
  output logic [15:0]   pkt_hdl_o,
  output logic          pkt_retx_o,
  output logic [95:0]   una_o,
  output logic [3:0]    fail_o,
  output logic          tmo_o,
  output logic          rxv_valid_o,
  output logic [1:0]    rxv_ch_o,
  output logic [23:0]   rxv_psn_o,
  output logic [2:0]    rxv_verdict_o,
  output logic          dlv_valid_o,
  output logic [1:0]    dlv_ch_o,
  output logic [23:0]   dlv_psn_o,
  output logic          ao_valid_o,
  output logic [1:0]    ao_ch_o,
  output logic [1:0]    ao_kind_o,
  output logic [23:0]   ao_base_o,
  output logic [23:0]   ao_hi_o,
  output logic [2:0]    ao_code_o,
  output logic          ao_wvalid_o,
  output logic [63:0]   ao_word_o,
  output logic          busy_o
);

  localparam int CH = 4;
  localparam int IW = $clog2(W);
  localparam int NW = W / 64;  // ring words
  localparam int JW = IW - 6;  // a word's index
  localparam logic [2:0] VAccept = 3'd0, VDup = 3'd1, VFull = 3'd2, VBeyond = 3'd3, VGap = 3'd4;
  localparam logic [1:0] KAck = 2'd0, KSack = 2'd1, KNak = 2'd2;

  // ---- transmit registers ----
  logic [23:0]   nxt_q [CH];
  logic [23:0]   una_q [CH];
  logic [23:0]   rptr_q [CH];
  // the acknowledged ring has 2W bits (below), its indexes AIW bits
  localparam int AIW = IW + 1;
  localparam int ANW = 2 * NW;
  localparam int AJW = JW + 1;
  logic [AIW-1:0] rp1_q [CH];  // the acknowledged ring's index of rptr + 1
  logic [AIW-1:0] rp2_q [CH];  // and of rptr + 2
  logic [AIW-1:0] una1_q [CH]; // the acknowledged ring's index of una + 1
  logic [AIW-1:0] una2_q [CH]; // and of una + 2
  // offsets from una (0..W): the flight, the resend scan [rpo, reo), the
  // last round's end
  logic [10:0]   fl_q [CH];
  logic [10:0]   rpo_q [CH];
  logic [10:0]   rpo1_q [CH];  // rpo + 1
  logic [10:0]   reo_q [CH];
  logic [10:0]   rno_q [CH];
  logic [31:0]   tmr_q [CH];
  logic [CH-1:0] t1_q;       // tmr_q == 1: the timer expires at this edge
  logic [CH-1:0] tz_q;       // tmr_q == 0: the timer is stopped
  logic [31:0]   rto_q [CH];
  logic [3:0]    retries_q [CH];
  logic [CH-1:0] fail_q;
  logic [CH-1:0] rnd_rs_q, rnd_on_q;  // resend rounds (docs/transport.md)
  // the scan's registered view: valid, a PSN due, its acked bit; a timer to
  // start (a packet left while it was stopped); a SACK being merged
  logic [CH-1:0] sv_q, sd_q, sa_q, st_q, mgb_q;
  // the acknowledged ring, a bit for each PSN in flight: acknowledged
  // selectively. It has 2W bits, twice the largest window, so that a word
  // holds PSNs of one lap only: each channel's is a LUT RAM of 2NW words
  // (g_ar[c].m, not reset) with a valid bit per word (av_q; a word not
  // valid reads as 0). A new packet that starts a word makes it not valid
  // (its PSNs of the lap before are long out of flight), so no bit is
  // cleared for a new packet; a merged SACK word is read, or'ed and written
  // back. A timeout's clear of una's bit is a write still to make (uf_q,
  // at index ux_q), made at the first edge the RAM's write port is free
  // or with a merge into the same word; until then that bit reads as 0.
  logic [ANW-1:0] av_q [CH];
  logic [CH-1:0]  uf_q;
  logic [AIW-1:0] ux_q [CH];
  // the scan view's acknowledged bit, read over two edges: at the edge
  // before, the bit at each index the view may read at the next (rptr,
  // rptr + 1, rptr + 2, the header's base, una: bit k of sr_q[c] for
  // channel c, with that edge's writes to the ring), and which of them it
  // is (sr_sel_q, one-hot); at the edge, the chosen one
  localparam int NS = 5;
  logic [NS-1:0] sr_q [CH];
  logic [NS-1:0] srv_q [CH];  // its word's valid bit
  logic [NS-1:0] srm_q [CH];  // the bit merged at that edge
  logic [NS-1:0] sr_sel_q [CH];
  logic [15:0]   desc_q [CH*W];     // the descriptor ring (a RAM, below)
  logic [15:0]   rhdl_q, nhdl_q;    // a resend's handle (the RAM's read), a new packet's
  logic [1:0]    sq_n_q;
  logic          sq_r_q;            // the FIFO's head
  logic [1:0]    sq_c_q [2];
  logic [15:0]   sq_h_q [2];
  // the acknowledgement header taken at the last edge, with its differences
  // from una then (cmodel/transport.h: k_*)
  logic          k_v_q, k_take_q, k_nz_q, k_nak_q, k_hbz_q;
  logic [CH-1:0] kb_q;   // k_v_q on the header's channel, one bit each
  logic [1:0]    k_ch_q, k_kind_q;
  logic [2:0]    k_code_q;
  logic [23:0]   k_b_q;
  logic [AIW-1:0] k_b1_q, k_b2_q;
  logic [10:0]   k_d_q, k_dm1_q, k_lim_q, k_hb1_q;
  // the header's comparisons with each channel's offsets as they are at
  // the edge it is applied (worked out at the edge it is taken, from the
  // offsets then and how that edge moves them; read only on its channel):
  // the round's end below its base (rlt) and at or below its highest PSN
  // (hge); the scan's start below its base (rplt); the scan's end below
  // its base (relt) and at or below its highest PSN (relt1); a SACK whose
  // highest PSN was sent (ssr)
  logic [CH-1:0] k_rlt_q, k_hge_q, k_rplt_q, k_relt_q, k_relt1_q, k_ssr_q;
  // a SACK's word as it came
  logic          w_v_q;
  logic [63:0]   w_word_q;
  // ---- receive registers ----
  logic [23:0] exp_q [CH];
  logic [23:0] exp1_q [CH];  // exp + 1
  logic [23:0] exp2_q [CH];  // exp + 2
  logic [71:0] eb_q [CH];  // exp + k + the bitmap's bits (eb_q[c][24*k +: 24], k = 0, 1, 2)
  logic [23:0] hi_q [CH];
  logic [10:0] held_q [CH];
  // whether held_q is at the out-of-order cap (g0) or beyond it (g1), kept
  // in registers from the count's comparisons with the cap's registered
  // copies (capm1: cap - 1, or 0; cap1, cap2: cap + 1, + 2)
  logic [CH-1:0] hg0_q, hg1_q;
  logic [10:0] cap_q, capm1_q;
  logic [11:0] cap1_q, cap2_q;
  // the receive ring, a bit for each PSN in [exp, exp + W): received, not
  // delivered. Two words of each channel are registers: exp's word (rc_q;
  // its bits below exp's are 0) and the word after it (rn_q). The others,
  // and the bits of exp's word that name PSNs of the next lap (those below
  // exp's bit, W - 63 to W - 1 ahead of exp), are in a LUT RAM of NW
  // words a channel (g_rr[c].m, not reset: a word reads as 0 unless its bit
  // in rv_q is set). The RAM takes one write an edge, an accepted packet's word
  // (read, the bit set, written back); when exp moves into the next word
  // the register words move down one and the word two on is read out of the
  // RAM into rn_q, its valid bit cleared. (cw1_q, cw2_q: exp's word + 1, +2)
  logic [63:0]   rc_q [CH];
  logic [63:0]   rn_q [CH];
  logic [NW-1:0] rv_q [CH];
  logic [JW-1:0] cw1_q [CH];
  logic [JW-1:0] cw2_q [CH];
`ifdef UB_ASSERT_ON
  logic [63:0]   a_rr [CH*NW];  // the RAM words, for the assertions
  logic [63:0]   a_ar [CH*ANW];
`endif
  logic [CH-1:0] hd_q;       // the ring's bit at exp: the next PSN is held
  // the ring's bit at exp + 1, read over two edges: at the edge before, the
  // bit of exp's word and of the next, by exp + 1's low bits (exp + 2's
  // with a delivery there), and which of the two it is in (hw_q); at this
  // one the pick, or'ed with the packet accepted at the edge before (la_*:
  // its ring index and channel)
  logic [1:0]    hp_q [CH];
  logic [CH-1:0] hw_q;
  logic [IW-1:0] la_i_q;
  logic [CH-1:0] la_c_q;
  logic [CH-1:0] ack_pend_q, nak_pend_q, nak_sent_q;
  // the data packet taken at the last edge, judged at this one
  // (cmodel/transport.h: x_*)
  logic          x_v_q, x_nhi_q, x_nprev_q, x_same_q, x_same_ch_q, x_mv_q, x_pacc_q, x_phi_q;
  logic [1:0]    x_ch_q;
  logic [23:0]   x_psn_q;
  logic [2:0]    x_zero_q, x_behind_q, x_beyond_q;
  // its ring bit as read at X in each channel (the channel's picked at V)
  logic [CH-1:0] x_cb_q;
  // an incoming SACK's words, merged into the acknowledged ring of channel
  // mg_q.c a word an edge
  // (cmodel/transport.h: the same registers, mg_*)
  typedef struct packed {
    logic [4:0]    n;      // words still to come
    logic          on;     // merged (else only consumed)
    logic          tail;   // the last word's carry still to write
    logic [1:0]    c;
    logic [AJW-1:0] pos;   // the ring word written next
    logic [5:0]    s;      // the shift onto the ring
    logic [10:0]   left;   // bitmap bits still naming PSNs sent
    logic [63:0]   carry;
  } merge_t;
  merge_t mg_q, mg_d;
  logic [63:0] mg_mask_q;      // the mask of mg_q.left's bits (all ones from 64 on)
  // the ring word a merged word makes, ORed in at the next edge
  logic        mw_v_q;
  logic [1:0]  mw_c_q;
  logic [AJW-1:0] mw_pos_q;
  logic [63:0] mw_data_q;
  // the outgoing SACK's words
  logic [4:0]  ao_n_q;       // words still to read from the ring
  logic [23:0] ao_p_q;       // the PSN of the next word's bit 0
  logic [23:0] ao_p64_q;     // ao_p_q + 64
  logic [5:0]  ao_s_q;       // the header's base modulo 64: the words' shift
  // a word read from the ring (the two ring words it spans) and the
  // distance from its first PSN to exp then, put out at the next edge
  logic          w2_v_q;
  logic [63:0]   w2_lo_q, w2_hi_q;
  logic [5:0]    w2_dd_q;       // the distance's low bits
  logic          w2_lt_q, w2_ge_q;  // the distance is below 2^23, at least 64
  logic        ao_fresh_q;  // the acknowledgement register was loaded at the last edge
  // 0 until the first edge after reset, which starts every channel's
  // sequence at cfg_psn_init and takes nothing else
  logic        init_q;

  // a 4-to-1 pick of each group of four bits, written as AND-OR terms
  // (synthesis keeps it a LUT a group; a mux it would merge into wider
  // ones of more levels)
  function automatic logic pick4_4(input logic [3:0] v, input logic [1:0] s);
    pick4_4 = (v[0] && s == 2'd0) || (v[1] && s == 2'd1) || (v[2] && s == 2'd2) || (v[3] && s == 2'd3);
  endfunction
  function automatic logic [15:0] pick4_64(input logic [63:0] v, input logic [1:0] s);
    for (int q = 0; q < 16; q++) pick4_64[q] = pick4_4(v[4*q +: 4], s);
  endfunction
  function automatic logic [3:0] pick4_16(input logic [15:0] v, input logic [1:0] s);
    for (int q = 0; q < 4; q++) pick4_16[q] = pick4_4(v[4*q +: 4], s);
  endfunction
  // the top bit of a - b (modulo 2^24)
  function automatic logic diff_top(input logic [23:0] a, input logic [23:0] b);
    /* verilator lint_off UNUSEDSIGNAL */
    logic [23:0] d;
    /* verilator lint_on UNUSEDSIGNAL */
    d = a - b;
    diff_top = d[23];
  endfunction
  function automatic logic [10:0] bmap_bits(input logic [2:0] code);
    bmap_bits = 11'd64 << (code > 3'd4 ? 3'd4 : code);
  endfunction
  function automatic logic [4:0] bmap_words(input logic [2:0] code);
    bmap_words = 5'd1 << (code > 3'd4 ? 3'd4 : code);
  endfunction

  // ---- transmit: the decisions of the edge, from the registers ----
  // registered copies of the configuration (it changes only in reset): the
  // bitmap's words, the window (the ring's size at most)
  logic [4:0]    bwords_q;
  logic [10:0]   win_q;
  logic [CH-1:0] flw_q;    // fl_q < win_q: the window has room
  logic          out_free, emit_r, emit_n, drop_n, take, prog;
  logic [CH-1:0] blk, rdm, skip, cand, adv, en, sentc, expire, exp_eff, apc, nok;
  logic [CH-1:0] exp_fire;  // a timeout that resends (not the one that fails)
  logic [1:0]    cs, hc, kc;
  logic [23:0]   rp;
  // (the acknowledgement's effects worked out for every channel, each
  // against its own registers: apc picks one, no register is read through
  // the acknowledgement's channel number)
  logic [10:0]   a_flm [CH], a_flp [CH], a_rno [CH], a_rpo [CH], a_reo [CH];
  logic [CH-1:0] a_rptr_b, a_rnd_off, a_rlt, a_sr;
  always_comb begin
    out_free = !pkt_valid_o || pkt_ready_i;
    // T1: the resend scan (a channel whose acknowledgement is applied at
    // this edge, or whose SACK is merged, waits)
    for (int c = 0; c < CH; c++) begin
      blk[c] = kb_q[c] || mgb_q[c];
      rdm[c] = !fail_q[c] && !blk[c] && !sv_q[c];
      skip[c] = !fail_q[c] && !blk[c] && sv_q[c] && sd_q[c] && sa_q[c];
      cand[c] = !fail_q[c] && !blk[c] && sv_q[c] && sd_q[c] && !sa_q[c];
    end
    // (an expression, not a loop that assigns it on the way: Icarus re-runs
    // a process when a variable it reads changes while it runs)
    cs = cand[0] ? 2'd0 : cand[1] ? 2'd1 : cand[2] ? 2'd2 : 2'd3;
    emit_r = cand != '0 && out_free;
    for (int c = 0; c < CH; c++) adv[c] = skip[c] || (emit_r && cs == 2'(c));
    rp = rptr_q[cs];
    // T2: the new packet at the head of the FIFO (whether each channel
    // could send one worked out for all four, then the head's picked)
    hc = sq_c_q[sq_r_q];
    for (int c = 0; c < CH; c++)
      nok[c] = !fail_q[c] && flw_q[c] && rpo_q[c] == reo_q[c] && !t1_q[c];
    drop_n = sq_n_q != 2'd0 && fail_q[hc];
    emit_n = sq_n_q != 2'd0 && out_free && cand == '0 && nok[hc];
    for (int c = 0; c < CH; c++) begin
      // (emit_n, written without the head's pick)
      en[c] = sq_n_q != 2'd0 && out_free && cand == '0 && nok[c] && hc == 2'(c);
      sentc[c] = en[c] || (emit_r && cs == 2'(c));
      // T3: timers
      expire[c] = !fail_q[c] && t1_q[c];
    end
    // T5: the acknowledgement taken at the last edge, against the channel's
    // registers as they are now
    kc = k_ch_q;
    take = k_v_q && k_take_q && !fail_q[kc];
    prog = take && k_nz_q;
    apc = take ? CH'(1) << kc : '0;
    for (int c = 0; c < CH; c++) begin
      exp_eff[c] = expire[c] && !(prog && kc == 2'(c));
      exp_fire[c] = exp_eff[c] && retries_q[c] < cfg_retry_max_i;  // (one more would pass the most)
    end
    for (int c = 0; c < CH; c++) begin
      a_flm[c] = fl_q[c] - k_d_q;
      a_flp[c] = fl_q[c] - k_dm1_q;  // (a new packet leaving at this edge too)
      a_rno[c] = rno_q[c] - k_d_q;
      a_rlt[c] = k_rlt_q[c];   // the last round's end acknowledged
      // a SACK reporting a packet sent after the round's end ends the round
      a_sr[c] = k_hbz_q && k_ssr_q[c] && !k_rlt_q[c] && rnd_on_q[c] && k_hge_q[c];
      a_rnd_off[c] = a_rlt[c] || a_sr[c];
      // a NAK resends the whole flight from its base
      a_rptr_b[c] = k_nak_q || k_rplt_q[c] || a_sr[c];
      a_rpo[c] = a_rptr_b[c] ? 11'd0 : rpo_q[c] - k_d_q;
      a_reo[c] = k_nak_q ? a_flm[c] :
                 (k_hbz_q && k_ssr_q[c] && k_relt1_q[c]) ? k_hb1_q :
                 k_relt_q[c] ? 11'd0 : reo_q[c] - k_d_q;
    end
  end

  // the scan view's bit, the acknowledged ring's at rptr (no view) or
  // rptr + 1 (a view),
  // from the sets read at the edge before
  logic [CH-1:0] sbit;
  always_comb
    for (int c = 0; c < CH; c++) sbit[c] = (((sr_q[c] & srv_q[c]) | srm_q[c]) & sr_sel_q[c]) != '0;

  // ---- transmit: next-state values ----
  logic [23:0]   nxt_d [CH];
  logic [23:0]   una_d [CH];
  logic [23:0]   rptr_d [CH];
  logic [AIW-1:0] rp1_d [CH], rp2_d [CH];
  logic [AIW-1:0] una1_d [CH], una2_d [CH];
  logic [10:0]   fl_d [CH];
  logic [10:0]   rpo_d [CH];
  logic [10:0]   rpo1_d [CH];
  logic [CH-1:0] flw_d;
  logic [10:0]   reo_d [CH];
  logic [10:0]   rno_d [CH];
  logic [31:0]   tmr_d [CH];
  logic [CH-1:0] t1_d;  // tmr_d == 1, from comparisons of what it may load
  logic [CH-1:0] tz_d, tld;
  logic [31:0]   tlv [CH];
  logic [31:0]   rto_d [CH];
  logic [3:0]    retries_d [CH];
  logic [CH-1:0] fail_d, rnd_rs_d, rnd_on_d, sv_d, sd_d, sa_d, st_d;
  // (per channel, each written once an edge)
  logic [CH-1:0] pcv, lastv, stoppedv;
  logic [31:0]   rto_x [CH];  // the timeout after a timeout (doubled with backoff)
  logic [31:0]   rto_s [CH];  // the timeout a packet starts
  always_comb begin
    for (int c = 0; c < CH; c++) begin
      rto_x[c] = !cfg_backoff_i ? rto_q[c] : rto_q[c][31] ? 32'hFFFFFFFF : {rto_q[c][30:0], 1'b0};
      rto_s[c] = rto_q[c] == 32'd0 ? cfg_rto_i : rto_q[c];
    end
  end
  always_comb begin
    for (int c = 0; c < CH; c++) begin
      pcv[c] = prog && kc == 2'(c);
      lastv[c] = rpo1_q[c] == reo_q[c];
      nxt_d[c] = en[c] ? nxt_q[c] + 24'd1 : nxt_q[c];
      una_d[c] = pcv[c] ? k_b_q : una_q[c];
      una1_d[c] = pcv[c] ? k_b1_q : una1_q[c];
      una2_d[c] = pcv[c] ? k_b2_q : una2_q[c];
      rnd_rs_d[c] = rnd_rs_q[c];
      rnd_on_d[c] = rnd_on_q[c];
      rno_d[c] = rno_q[c];
      reo_d[c] = reo_q[c];
      if (apc[c]) begin
        rptr_d[c] = a_rptr_b[c] ? k_b_q : rptr_q[c];
        rp1_d[c] = a_rptr_b[c] ? k_b1_q : rp1_q[c];
        rp2_d[c] = a_rptr_b[c] ? k_b2_q : rp2_q[c];
        rpo_d[c] = a_rpo[c];
        rpo1_d[c] = a_rptr_b[c] ? 11'd1 : rpo_q[c] - k_dm1_q;
        reo_d[c] = a_reo[c];
        rno_d[c] = a_rno[c];
        if (a_rnd_off[c]) rnd_on_d[c] = 1'b0;
        fl_d[c] = en[c] ? a_flp[c] : a_flm[c];
        flw_d[c] = en[c] ? a_flp[c] < win_q : a_flm[c] < win_q;
      end else begin
        rptr_d[c] = adv[c] ? rptr_q[c] + 24'd1 : rptr_q[c];
        rp1_d[c] = adv[c] ? rp1_q[c] + AIW'(1) : rp1_q[c];
        rp2_d[c] = adv[c] ? rp2_q[c] + AIW'(1) : rp2_q[c];
        rpo_d[c] = adv[c] ? rpo1_q[c] : rpo_q[c];
        rpo1_d[c] = adv[c] ? rpo1_q[c] + 11'd1 : rpo1_q[c];
        if (adv[c]) begin
          // the round is over: if it resent anything, watch for a SACK
          // that reports a packet sent after it
          if (lastv[c]) begin
            if (rnd_rs_q[c] || (emit_r && cs == 2'(c))) begin
              rnd_on_d[c] = 1'b1;
              rno_d[c] = fl_q[c];
            end
            rnd_rs_d[c] = 1'b0;
          end else if (emit_r && cs == 2'(c)) begin
            rnd_rs_d[c] = 1'b1;
          end
        end
        fl_d[c] = en[c] ? fl_q[c] + 11'd1 : fl_q[c];
        flw_d[c] = en[c] ? {1'b0, fl_q[c]} + 12'd1 < {1'b0, win_q} : flw_q[c];
      end
      // timers: progress restarts it (stops it with nothing left in
      // flight); a timeout; a packet that left at the lastv[c] edge while it
      // was stoppedv[c] starts it
      t1_d[c] = tmr_q[c] == 32'd2;
      rto_d[c] = rto_q[c];
      retries_d[c] = retries_q[c];
      fail_d[c] = fail_q[c];
      if (pcv[c]) begin
        t1_d[c] = fl_q[c] != k_d_q && cfg_rto_i == 32'd1;
        retries_d[c] = 4'd0;
        rto_d[c] = cfg_rto_i;
      end
      if (exp_eff[c]) begin
        if (!exp_fire[c]) begin
          fail_d[c] = 1'b1;
          t1_d[c] = 1'b0;
        end else begin
          retries_d[c] = retries_q[c] + 4'd1;
          rto_d[c] = rto_x[c];
          t1_d[c] = !cfg_backoff_i && rto_q[c] == 32'd1;  // (a doubled timeout is even)
          rptr_d[c] = una_d[c];
          rp1_d[c] = una1_d[c];
          rp2_d[c] = una2_d[c];
          rpo_d[c] = '0;
          rpo1_d[c] = 11'd1;
          reo_d[c] = apc[c] ? a_flm[c] : fl_q[c];  // (fl_d: no new packet leaves as it times out)
          rnd_on_d[c] = 1'b0;
          rnd_rs_d[c] = 1'b0;
        end
      end
      if (st_q[c] && !pcv[c]) begin
        rto_d[c] = rto_s[c];
        t1_d[c] = rto_q[c] == 32'd0 ? cfg_rto_i == 32'd1 : rto_q[c] == 32'd1;
      end
      // (the value a timer is loaded with, worked out beside the count
      // down, which is picked last; tz: the timer is 0)
      tld[c] = pcv[c] || exp_eff[c] || st_q[c];
      if (st_q[c] && !pcv[c]) begin
        tlv[c] = rto_s[c];
        tz_d[c] = rto_q[c] == 32'd0 && cfg_rto_i == 32'd0;
      end else if (exp_eff[c]) begin
        tlv[c] = exp_fire[c] ? rto_x[c] : 32'd0;
        tz_d[c] = !exp_fire[c] || rto_q[c] == 32'd0;
      end else begin
        tlv[c] = fl_q[c] != k_d_q ? cfg_rto_i : 32'd0;
        tz_d[c] = fl_q[c] == k_d_q || cfg_rto_i == 32'd0;
      end
      tmr_d[c] = tld[c] ? tlv[c] : tz_q[c] ? 32'd0 : tmr_q[c] - 32'd1;
      if (!tld[c]) tz_d[c] = tz_q[c] || t1_q[c];
      stoppedv[c] = pcv[c] ? fl_q[c] == k_d_q : tz_q[c];
      st_d[c] = sentc[c] && stoppedv[c];
      // the scan's view: read anew at the edge after an acknowledgement, a
      // timeout or a merge
      sv_d[c] = (blk[c] || exp_eff[c]) ? 1'b0 : rdm[c] ? 1'b1 : sv_q[c];
      sd_d[c] = rdm[c] ? rpo_q[c] != reo_q[c] : adv[c] ? !lastv[c] : sd_q[c];
      // (rdm: the view is read at rptr, adv: at rptr + 1; sbit is the bit
      // at rptr without the view, at rptr + 1 with it)
      sa_d[c] = !cfg_gbn_i && ((rdm[c] || adv[c]) ? sbit[c] : sa_q[c]);
    end
  end

  // the acknowledged ring's RAMs: one write an edge each (a merged word,
  // or else a timeout's clear still to make), read at the write's address
  // and at each index the scan view may read at the next edge
  logic [AIW-1:0] sr_ix [CH*NS];
  logic [63:0]    sr_w [CH*NS];
  logic [CH-1:0]  aw_e, mwc;
  logic [AJW-1:0] aw_a [CH];
  logic [63:0]    aw_d [CH], ar_w [CH];
  always_comb
    for (int c = 0; c < CH; c++) begin
      sr_ix[c*NS+0] = rptr_q[c][AIW-1:0];
      sr_ix[c*NS+1] = rp1_q[c];
      sr_ix[c*NS+2] = rp2_q[c];
      sr_ix[c*NS+3] = k_b_q[AIW-1:0];
      sr_ix[c*NS+4] = una_q[c][AIW-1:0];
      mwc[c] = mw_v_q && mw_c_q == 2'(c);
      aw_e[c] = mwc[c] || uf_q[c];
      aw_a[c] = mwc[c] ? mw_pos_q : ux_q[c][AIW-1:6];
    end
  for (genvar gc = 0; gc < CH; gc++) begin : g_ar
    logic [63:0] m [ANW];
    always_ff @(posedge clk_i)
      if (aw_e[gc]) m[aw_a[gc]] <= aw_d[gc];
    assign ar_w[gc] = m[aw_a[gc]];
    for (genvar gk = 0; gk < NS; gk++) begin : g_rd
      assign sr_w[gc*NS+gk] = m[sr_ix[gc*NS+gk][AIW-1:6]];
    end
`ifdef UB_ASSERT_ON
    for (genvar gj = 0; gj < ANW; gj++) begin : g_aw
      assign a_ar[gc*ANW+gj] = m[gj];
    end
`endif
  end
  // the write: the word as it stands (0 if not valid), the pending clear
  // applied if it is this word's, the merged word or'ed in; the valid bits
  // (a merged word's set, a word a new packet starts cleared); the pending
  // clear (set by a timeout, done by a write to its word)
  // (the valid bits with the merge's set, and the word a new packet would
  // start, as nets of their own, kept: the new packet's late decision is
  // one gate after them)
  logic [ANW-1:0] av_b [CH], av_n [CH];
  for (genvar gc = 0; gc < CH; gc++) begin : g_av
    (* keep *) logic [ANW-1:0] b, n;
    assign b = av_q[gc] | (mwc[gc] ? ANW'(1) << mw_pos_q : '0);
    assign n = nxt_q[gc][5:0] == 6'd0 ? ANW'(1) << nxt_q[gc][AIW-1:6] : '0;
    assign av_b[gc] = b;
    assign av_n[gc] = n;
  end
  logic [ANW-1:0] av_d [CH];
  logic [CH-1:0]  uf_d;
  logic [AIW-1:0] ux_d [CH];
  always_comb
    for (int c = 0; c < CH; c++) begin
      logic [63:0] uxm;
      uxm = (uf_q[c] && ux_q[c][AIW-1:6] == aw_a[c]) ? 64'd1 << ux_q[c][5:0] : 64'd0;
      aw_d[c] = ((av_q[c][aw_a[c]] ? ar_w[c] : 64'd0) & ~uxm) | (mwc[c] ? mw_data_q : 64'd0);
      av_d[c] = av_b[c] & ~(av_n[c] & {ANW{en[c]}});
      uf_d[c] = exp_fire[c] || (uf_q[c] && ux_q[c][AIW-1:6] != aw_a[c]);
      ux_d[c] = exp_fire[c] ? una_q[c][AIW-1:0] : ux_q[c];
    end
  // the sets: at each index, the bit as this edge's writes leave it (the
  // word's bit if valid and no clear is pending there, or the merged word's
  // bit; a timeout clears una's, which only set 4 is chosen with)
  // (each set's bit picked as a net of its own, kept, and the writes
  // applied to it after)
  logic [NS-1:0] sr_d [CH], srv_d [CH], srm_d [CH];
  logic [NS-1:0] sr_sel_d [CH];
  for (genvar gc = 0; gc < CH; gc++) begin : g_src
    for (genvar gk = 0; gk < NS; gk++) begin : g_sset
      (* keep *) logic rb, vb, mb, pb;
      (* keep *) logic [15:0] l1;
      (* keep *) logic [3:0] l2;
      logic [AIW-1:0] ix;
      assign ix = sr_ix[gc*NS+gk];
      // (the word's bit in 4-to-1 steps written as AND-OR terms: a LUT each)
      assign l1 = pick4_64(sr_w[gc*NS+gk], ix[1:0]);
      assign l2 = pick4_16(l1, ix[3:2]);
      assign rb = pick4_4(l2, ix[5:4]);
      assign vb = av_q[gc][ix[AIW-1:6]];
      assign mb = mwc[gc] && mw_pos_q == ix[AIW-1:6] && mw_data_q[ix[5:0]];
      assign pb = uf_q[gc] && ux_q[gc] == ix;
      // (the word's valid bit is registered apart and and'ed in at the
      // next edge: its pick is not on the path of the word's bit)
      // (and so is the merged word's bit: the RAM word's bit goes through
      // one gate, the pending clear's)
      if (gk == 4) begin : g_una
        assign sr_d[gc][gk] = rb && !pb && !exp_fire[gc];
        assign srm_d[gc][gk] = mb && !exp_fire[gc];
      end else begin : g_oth
        assign sr_d[gc][gk] = rb && !pb;
        assign srm_d[gc][gk] = mb;
      end
      assign srv_d[gc][gk] = vb;
    end
  end
  always_comb begin
    for (int c = 0; c < CH; c++) begin
      if (sv_d[c]) sr_sel_d[c] = adv[c] ? NS'(4) : NS'(2);
      else if (exp_fire[c]) sr_sel_d[c] = NS'(16);
      else if (apc[c]) sr_sel_d[c] = a_rptr_b[c] ? NS'(8) : NS'(1);
      else sr_sel_d[c] = adv[c] ? NS'(2) : NS'(1);
    end
  end

  // M1: the registered word of the SACK being merged, masked to the PSNs
  // sent (mg_mask_q: the mask of mg_q.left) and shifted onto the ring: its
  // low part, with the high part of the word before, makes ring word
  // mg_q.pos's bits, registered and ORed in at the next edge (M2); after
  // the last word that high part alone. The header applied at this edge
  // sets the merge up for its words.
  logic        mg_word, mg_wr;
  logic [63:0] mg_w, mg_wdata, mg_mask_d;
  logic [127:0] mg_sh;  // the masked word shifted onto the ring: its low half this word's, its high half the carry
  logic [CH-1:0] mgb_d;
  always_comb begin
    mg_word = w_v_q && mg_q.n != 5'd0;
    mg_w = w_word_q & mg_mask_q;
    mg_wr = mg_word ? mg_q.on : mg_q.tail;
    mg_sh = {64'd0, mg_w} << mg_q.s;
    mg_wdata = mg_word ? mg_sh[63:0] | mg_q.carry : mg_q.carry;
    mg_d = mg_q;
    if (mg_word) begin
      if (mg_q.on) begin
        mg_d.left = mg_q.left >= 11'd64 ? mg_q.left - 11'd64 : 11'd0;
        mg_d.carry = mg_sh[127:64];
        mg_d.pos = mg_q.pos + AJW'(1);
      end
      mg_d.n = mg_q.n - 5'd1;
      mg_d.tail = mg_q.n == 5'd1 && mg_q.on && mg_q.s != 6'd0;
    end else if (mg_q.tail) begin
      mg_d.tail = 1'b0;
    end
    if (k_v_q) begin
      mg_d.n = k_kind_q == KSack ? bmap_words(k_code_q) : 5'd0;
      mg_d.on = 1'b0;
      mg_d.tail = 1'b0;
      mg_d.carry = 64'd0;
      if (take && k_kind_q == KSack) begin
        // bits naming PSNs never sent are left out
        mg_d.on = 1'b1;
        mg_d.c = kc;
        mg_d.left = bmap_bits(k_code_q) > k_lim_q ? k_lim_q : bmap_bits(k_code_q);
        mg_d.pos = k_b_q[AIW-1:6];
        mg_d.s = k_b_q[5:0];
      end
    end
    for (int c = 0; c < CH; c++)
      mgb_d[c] = (mg_d.on && (mg_d.n != 5'd0 || mg_d.tail) && mg_d.c == 2'(c)) || (mg_wr && mg_q.c == 2'(c));
    // the mask of mg_d.left (all ones from 64 bits on)
    mg_mask_d = mg_mask_q;
    if (mg_word && mg_q.on)
      mg_mask_d = mg_q.left[10:7] != '0 ? {64{1'b1}} :
                  mg_q.left[6] ? ~({64{1'b1}} << mg_q.left[5:0]) : 64'd0;
    if (k_v_q && take && k_kind_q == KSack)
      // (a bitmap has 64 bits at least: fewer than 64 left is the limit's mask)
      mg_mask_d = k_lim_q[10:6] != '0 ? {64{1'b1}} :
                  ~({64{1'b1}} << k_lim_q[5:0]);
  end

  // the header taken at this edge, against the registers before it: its
  // base within [una, nxt] (else it is stale or forged and changes nothing
  // but the words it announces)
  logic        hdr;
  logic [23:0] una_m, ak_d, ak_hb;
  logic [10:0] fl_m;
  always_comb begin
    hdr = ack_valid_i && ack_ready_o;
    una_m = una_q[ack_ch_i];
    fl_m = fl_q[ack_ch_i];
    ak_d = ack_base_i - una_m;
    ak_hb = ack_hi_i - ack_base_i;
  end
  // its comparisons for the edge it is applied at, for every channel from
  // its own registers (the header's base and highest PSN as offsets from
  // that channel's una): no edge applies a header as one is taken, so the
  // offsets move only as the scan and the timer move them (rno_ld: the
  // round's end set to the flight; rpo: one on, or 0 at a timeout; reo:
  // the flight at a timeout). Its base within the flight (k_take_q) and
  // its highest PSN within 2^11 of the base (k_hbz_q) make d + hb the
  // offset of the highest PSN: hb < flight - d is that offset below the
  // flight.
  logic [CH-1:0] rno_ld, kf_rlt, kf_hge, kf_rplt, kf_relt, kf_relt1, kf_ssr;
  always_comb begin
    for (int c = 0; c < CH; c++) begin
      logic [10:0] dc, huc;
      logic [11:0] hbc;
      dc = ack_base_i[10:0] - una_q[c][10:0];
      huc = ack_hi_i[10:0] - una_q[c][10:0];
      hbc = ack_hi_i[11:0] - una_q[c][11:0];
      rno_ld[c] = adv[c] && lastv[c] && (rnd_rs_q[c] || (emit_r && cs == 2'(c)));
      kf_rlt[c] = rno_ld[c] ? fl_q[c] < dc : rno_q[c] < dc;
      kf_hge[c] = rno_ld[c] ? huc >= fl_q[c] : huc >= rno_q[c];
      kf_rplt[c] = exp_fire[c] ? dc != 11'd0 :
                   adv[c] ? {1'b0, rpo_q[c]} + 12'd1 < {1'b0, dc} : rpo_q[c] < dc;
      kf_relt[c] = exp_fire[c] ? fl_q[c] < dc : reo_q[c] < dc;
      kf_relt1[c] = huc != 11'h7FF && (exp_fire[c] ? fl_q[c] <= huc : reo_q[c] <= huc);
      kf_ssr[c] = ack_kind_i == KSack && hbc < {1'b0, fl_q[c]};
    end
  end
  // ---- receive ----
  // A data packet is taken into registers at one edge (X: its distance from
  // exp read there, and its ring bit begun: the pick ends at V) and judged
  // at the next (V), against the registers as that edge's delivery leaves
  // them.
  // R2: delivery, on the lowest channel whose next PSN is held (hd_q: the
  // ring bit at exp, kept in a register)
  logic        dlv_found;
  logic [1:0]  dc;
  logic [23:0] dpsn;
  logic [CH-1:0] dl;
  always_comb begin
    dlv_found = hd_q != '0;
    dc = hd_q[0] ? 2'd0 : hd_q[1] ? 2'd1 : hd_q[2] ? 2'd2 : 2'd3;
    dpsn = exp_q[dc];
    for (int c = 0; c < CH; c++) dl[c] = dlv_found && dc == 2'(c);
  end

  // the ring bit at exp + 1 (hn), and the bits hp_q and hw_q are loaded
  // with (exp + 1 after this edge is in exp's word or the next)
  // (the bits at exp + 1 and at exp + 2 picked as nets of their own, kept,
  // and the delivery's choice made after: a late select is one gate, not an
  // index through the pick)
  logic [CH-1:0] hn, hw_d;
  logic [1:0]    hp_d [CH];
  for (genvar gc = 0; gc < CH; gc++) begin : g_hp
    (* keep *) logic [1:0] h1, h2;
    assign h1 = {rn_q[gc][exp1_q[gc][5:0]], rc_q[gc][exp1_q[gc][5:0]]};
    assign h2 = {rn_q[gc][exp2_q[gc][5:0]], rc_q[gc][exp2_q[gc][5:0]]};
  end
  logic [1:0]    hp1 [CH], hp2 [CH];
  for (genvar gc = 0; gc < CH; gc++) begin : g_hpv
    assign hp1[gc] = g_hp[gc].h1;
    assign hp2[gc] = g_hp[gc].h2;
  end
  always_comb begin
    for (int c = 0; c < CH; c++) begin
      hn[c] = (hw_q[c] ? hp_q[c][1] : hp_q[c][0]) || (la_c_q[c] && la_i_q == exp1_q[c][IW-1:0]);
      hp_d[c] = dl[c] ? hp2[c] : hp1[c];
      hw_d[c] = dl[c] ? exp_q[c][5:1] == 5'h1F : exp_q[c][5:0] == 6'h3F;
    end
  end

  // R1: the verdict on the packet taken at the last edge (k: the deliveries
  // on its channel since its distance was read)
  logic [2:0]  rv;
  logic        mv2, zero, behind, beyond, dup_bit, full, acc, set_hi;
  logic [1:0]  xk;
  logic [CH-1:0] accc;
  always_comb begin
    mv2 = dl[x_ch_q];
    xk = {1'b0, x_mv_q} + {1'b0, mv2};
    zero = x_zero_q[xk];
    behind = x_behind_q[xk];
    beyond = x_beyond_q[xk];
    dup_bit = x_cb_q[x_ch_q] || (x_same_q && x_pacc_q);
    full = mv2 ? hg1_q[x_ch_q] : hg0_q[x_ch_q];
    if (cfg_gbn_i) rv = zero ? (dup_bit ? VDup : VAccept) : behind ? VDup : VGap;
    else if (behind) rv = VDup;
    else if (beyond) rv = VBeyond;
    else if (dup_bit) rv = VDup;
    else if (!zero && full) rv = VFull;
    else rv = VAccept;
    acc = x_v_q && rv == VAccept;
    set_hi = acc && ((x_same_ch_q && x_phi_q) ? x_nprev_q : x_nhi_q);
    for (int c = 0; c < CH; c++) accc[c] = acc && x_ch_q == 2'(c);
  end

  // R4 (the ring): where the accepted packet's bit goes - exp's word at or
  // above exp's bit (rtc), the next word (rtn), else the RAM (rtr; its word
  // read, the bit set, written back); a delivery of the last PSN of exp's
  // word moves the register words down (cr), the word two on read from the
  // RAM (with the packet accepted into it at this edge)
  logic [JW-1:0]   xw;
  logic [63:0]     xoh;
  logic [63:0]     rr_ld [CH];
  logic [CH-1:0]   rtr, cr, ptc, ptn, ptr, ptl;
  // each channel's RAM and its read ports (every address a register's or an
  // input's): the accepted packet's word (mr, read and written back), the
  // word two on (lr, read at every edge), the arriving packet's word (xr),
  // the outgoing SACK's two (ar, br)
  logic [63:0]     rr_mr [CH], rr_lr [CH], rr_xr [CH], rr_ar [CH], rr_br [CH];
  logic [JW-1:0]   ao_j;
  for (genvar gc = 0; gc < CH; gc++) begin : g_rr
    logic [63:0] m [NW];
    always_ff @(posedge clk_i)
      if (rtr[gc]) m[xw] <= (rv_q[gc][xw] ? rr_mr[gc] : 64'd0) | xoh;
    assign rr_mr[gc] = m[xw];
    assign rr_lr[gc] = m[cw2_q[gc]];
    assign rr_xr[gc] = m[rx_psn_i[IW-1:6]];
    assign rr_ar[gc] = m[ao_j];
    assign rr_br[gc] = m[ao_p64_q[IW-1:6]];
`ifdef UB_ASSERT_ON
    for (genvar gj = 0; gj < NW; gj++) begin : g_aw
      assign a_rr[gc*NW+gj] = m[gj];
    end
`endif
  end
  always_comb begin
    xw = x_psn_q[IW-1:6];
    xoh = 64'd1 << x_psn_q[5:0];
    for (int c = 0; c < CH; c++) begin
      logic inc, inn;
      inc = xw == exp_q[c][IW-1:6] && x_psn_q[5:0] >= exp_q[c][5:0];
      inn = xw == cw1_q[c];
      ptc[c] = x_ch_q == 2'(c) && inc;
      ptn[c] = x_ch_q == 2'(c) && inn;
      ptr[c] = x_ch_q == 2'(c) && !inc && !inn;
      ptl[c] = x_ch_q == 2'(c) && !inc && !inn && xw == cw2_q[c];
      rtr[c] = acc && ptr[c];
      cr[c] = dl[c] && exp_q[c][5:0] == 6'h3F;
    end
    for (int c = 0; c < CH; c++) rr_ld[c] = rv_q[c][cw2_q[c]] ? rr_lr[c] : 64'd0;
  end
  // the held count's next value and its comparisons with the cap, if the
  // packet judged is accepted (x: on its channel) and if not (n), worked
  // out beside the verdict, whose accept picks one (the count moves by -1,
  // 0 or +1: each outcome's comparisons from the count before the edge)
  (* keep *) logic acc_k;
  assign acc_k = acc;
  logic [10:0]   held_x [CH], held_n [CH];
  logic [CH-1:0] hg0_x, hg0_n, hg1_x, hg1_n;
  for (genvar gc = 0; gc < CH; gc++) begin : g_held
    (* keep *) logic [10:0] ha, hk, hx;
    (* keep *) logic g0a, g0k, g0x, g1a, g1k, g1x;
    assign ha = dl[gc] ? held_q[gc] : held_q[gc] + 11'd1;
    assign hk = dl[gc] ? held_q[gc] - 11'd1 : held_q[gc];
    assign hx = x_ch_q == 2'(gc) ? ha : hk;
    assign g0a = dl[gc] ? held_q[gc] >= cap_q : held_q[gc] >= capm1_q;
    assign g0k = dl[gc] ? {1'b0, held_q[gc]} >= cap1_q : held_q[gc] >= cap_q;
    assign g0x = x_ch_q == 2'(gc) ? g0a : g0k;
    assign g1a = dl[gc] ? {1'b0, held_q[gc]} >= cap1_q : held_q[gc] >= cap_q;
    assign g1k = dl[gc] ? {1'b0, held_q[gc]} >= cap2_q : {1'b0, held_q[gc]} >= cap1_q;
    assign g1x = x_ch_q == 2'(gc) ? g1a : g1k;
    assign held_x[gc] = hx;
    assign held_n[gc] = hk;
    assign hg0_x[gc] = g0x;
    assign hg0_n[gc] = g0k;
    assign hg1_x[gc] = g1x;
    assign hg1_n[gc] = g1k;
  end
  // the register words' and valid bits' next values: each bit what it
  // becomes without the packet, or'ed with "the packet sets it" and the
  // verdict's accept last (a late input is one gate, as the ring's bits
  // were; the crossing, from the delivery, is worked into both before:
  // an accept into exp's word never comes with a crossing, since the
  // packet would be the one delivered)
  logic [63:0]   rc_d [CH], rn_d [CH];
  logic [NW-1:0] rv_d [CH];
  for (genvar gc = 0; gc < CH; gc++) begin : g_rw
    (* keep *) logic [63:0] bc, sc, bn, sn;
    (* keep *) logic [NW-1:0] bv, sv;
    logic [NW-1:0] vout;
    assign bc = cr[gc] ? rn_q[gc] : rc_q[gc] & ~({63'd0, dl[gc]} << exp_q[gc][5:0]);
    assign sc = xoh & {64{cr[gc] ? ptn[gc] : ptc[gc]}};
    assign bn = cr[gc] ? rr_ld[gc] : rn_q[gc];
    assign sn = xoh & {64{cr[gc] ? ptl[gc] : ptn[gc]}};
    assign vout = {{(NW-1){1'b0}}, cr[gc]} << cw2_q[gc];
    assign bv = rv_q[gc] & ~vout;
    assign sv = ({{(NW-1){1'b0}}, ptr[gc]} << xw) & ~vout;
    assign rc_d[gc] = bc | (sc & {64{acc_k}});
    assign rn_d[gc] = bn | (sn & {64{acc_k}});
    assign rv_d[gc] = bv | (sv & {NW{acc_k}});
  end

  // R3: an acknowledgement out (free once the link took what it held; a new
  // one two edges after the last at the earliest: the peer takes a header
  // every other edge). A SACK's words follow its header, read from the ring
  // a word an edge into a register (with the PSNs delivered by then set)
  // and put out at the edge after.
  logic        streaming, ao_gone, ao_free, ao_take, ao_gap;
  logic [1:0]  ac, ao_kind;
  logic [CH-1:0] owed;
  logic [63:0]   ao_w;
  always_comb begin
    streaming = ao_n_q != 5'd0 || w2_v_q;
    ao_gone = (!ao_valid_o || ao_ready_i) && !streaming;
    ao_free = ao_gone && !ao_fresh_q;
    owed = ack_pend_q | nak_pend_q;
    ac = owed[0] ? 2'd0 : owed[1] ? 2'd1 : owed[2] ? 2'd2 : 2'd3;
    ao_take = ao_free && owed != '0;
    ao_gap = held_q[ac] > {10'd0, hd_q[ac]};
    ao_kind = nak_pend_q[ac] ? KNak : (!cfg_gbn_i && ao_gap) ? KSack : KAck;
    ao_j = ao_p_q[IW-1:6];
    ao_w = 64'({w2_hi_q, w2_lo_q} >> ao_s_q);
    if (w2_lt_q) ao_w = ao_w | (w2_ge_q ? {64{1'b1}} : ~({64{1'b1}} << w2_dd_q));
  end

  // the two ring words the outgoing SACK's next word spans: each channel's
  // RAM word (if valid) or'ed with the register word it is, then the
  // channel's picked
  logic [63:0] ao_lo, ao_hi;
  always_comb begin
    logic [JW-1:0] jh;
    logic [63:0] lo [CH], hi [CH];
    jh = ao_p64_q[IW-1:6];
    for (int c = 0; c < CH; c++) begin
      lo[c] = (rv_q[c][ao_j] ? rr_ar[c] : 64'd0) | (ao_j == exp_q[c][IW-1:6] ? rc_q[c] : 64'd0) |
              (ao_j == cw1_q[c] ? rn_q[c] : 64'd0);
      hi[c] = (rv_q[c][jh] ? rr_br[c] : 64'd0) | (jh == exp_q[c][IW-1:6] ? rc_q[c] : 64'd0) |
              (jh == cw1_q[c] ? rn_q[c] : 64'd0);
    end
    ao_lo = lo[ao_ch_o];
    ao_hi = hi[ao_ch_o];
  end

  // X: the packet taken at this edge, against the registers before it: its
  // ring bit, its distance d from exp (for k = 0, 1, 2 deliveries on its
  // channel before the verdict: d == k, d - k behind, d - k beyond the
  // bitmap), whether it is newer than the highest PSN received or than the
  // packet judged now, and whether it is that packet. (Each k has its own
  // difference, PSN - (exp + k), from registers exp, exp + 1 and exp + 2:
  // no flag is a comparison chained behind a subtraction's carry, each is
  // a difference's top bit or an equality: beyond the bitmap, d - k >=
  // bits, is PSN - (exp + k + bits) below 2^23 (registers eb_q: exp + k +
  // bits), or d - k behind; newer than h, PSN - h - 1 < 2^23 - 1, is PSN
  // - h below 2^23 and not 0.)
  logic [23:0] xd [3];
  logic        xnh, xnp;
  logic [2:0]  xz, xb, xy, xg;
  // (its ring bit in each channel - its RAM word's if valid, or its
  // register words' - the channel's picked at V)
  // (each part's bit picked as a net of its own, kept, and the three
  // or'ed after: one LUT)
  logic [CH-1:0] xcb;
  for (genvar gc = 0; gc < CH; gc++) begin : g_xr
    (* keep *) logic rb, vb, cb, nb, ec, en1;
    (* keep *) logic [15:0] l1;
    (* keep *) logic [3:0] l2;
    assign l1 = pick4_64(rr_xr[gc], rx_psn_i[1:0]);
    assign l2 = pick4_16(l1, rx_psn_i[3:2]);
    assign rb = pick4_4(l2, rx_psn_i[5:4]);
    assign vb = rv_q[gc][rx_psn_i[IW-1:6]];
    assign cb = rc_q[gc][rx_psn_i[5:0]];
    assign nb = rn_q[gc][rx_psn_i[5:0]];
    assign ec = rx_psn_i[IW-1:6] == exp_q[gc][IW-1:6];
    assign en1 = rx_psn_i[IW-1:6] == cw1_q[gc];
    assign xcb[gc] = (vb && rb) || (ec && cb) || (en1 && nb);
  end
  always_comb begin
    xd[0] = rx_psn_i - exp_q[rx_ch_i];
    xd[1] = rx_psn_i - exp1_q[rx_ch_i];
    xd[2] = rx_psn_i - exp2_q[rx_ch_i];
    xz = {rx_psn_i == exp2_q[rx_ch_i], rx_psn_i == exp1_q[rx_ch_i], rx_psn_i == exp_q[rx_ch_i]};
    xb = {xd[2][23], xd[1][23], xd[0][23]};                    // d - k >= 2^23
    for (int k = 0; k < 3; k++) xg[k] = !diff_top(rx_psn_i, eb_q[rx_ch_i][24*k +: 24]) || xb[k];
    xy = {xg[2] && !xz[0] && !xz[1], xg[1] && !xz[0], xg[0]};  // d >= bits + k
    xnh = diff_top(rx_psn_i, hi_q[rx_ch_i]);
    xnp = diff_top(rx_psn_i, x_psn_q);
  end

  // ---- registers ----
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int c = 0; c < CH; c++) begin
        nxt_q[c] <= '0;
        una_q[c] <= '0;
        rptr_q[c] <= '0;
        rp1_q[c] <= '0;
        rp2_q[c] <= '0;
        una1_q[c] <= '0;
        una2_q[c] <= '0;
        fl_q[c] <= '0;
        rpo_q[c] <= '0;
        rpo1_q[c] <= 11'd1;
        reo_q[c] <= '0;
        rno_q[c] <= '0;
        tmr_q[c] <= '0;
        t1_q[c] <= 1'b0;
        tz_q[c] <= 1'b1;
        rto_q[c] <= '0;
        retries_q[c] <= '0;
        av_q[c] <= '0;
        ux_q[c] <= '0;
        sr_sel_q[c] <= '0;
        sr_q[c] <= '0;
        srv_q[c] <= '0;
        srm_q[c] <= '0;
        exp_q[c] <= '0;
        exp1_q[c] <= '0;
        exp2_q[c] <= '0;
        eb_q[c] <= '0;
        hi_q[c] <= 24'hFFFFFF;
        held_q[c] <= '0;
        rc_q[c] <= '0;
        rn_q[c] <= '0;
        rv_q[c] <= '0;
        cw1_q[c] <= '0;
        cw2_q[c] <= '0;
        hp_q[c] <= '0;
      end
      la_i_q <= '0;
      la_c_q <= '0;
      sq_c_q[0] <= '0;
      sq_c_q[1] <= '0;
      sq_h_q[0] <= '0;
      sq_h_q[1] <= '0;
      init_q <= 1'b0;
      bwords_q <= '0;
      win_q <= '0;
      flw_q <= '0;
      hg0_q <= '0;
      hg1_q <= '0;
      cap_q <= '0;
      capm1_q <= '0;
      cap1_q <= '0;
      cap2_q <= '0;
      fail_q <= '0;
      rnd_rs_q <= '0;
      rnd_on_q <= '0;
      sv_q <= '0;
      sd_q <= '0;
      sa_q <= '0;
      st_q <= '0;
      mgb_q <= '0;
      sq_n_q <= '0;
      sq_r_q <= 1'b0;
      k_v_q <= 1'b0;
      kb_q <= '0;
      k_take_q <= 1'b0;
      k_nz_q <= 1'b0;
      k_nak_q <= 1'b0;
      k_hbz_q <= 1'b0;
      k_rlt_q <= '0;
      k_hge_q <= '0;
      k_rplt_q <= '0;
      k_relt_q <= '0;
      k_relt1_q <= '0;
      k_ssr_q <= '0;
      k_ch_q <= '0;
      k_kind_q <= '0;
      k_code_q <= '0;
      k_b_q <= '0;
      k_b1_q <= '0;
      k_b2_q <= '0;
      uf_q <= '0;
      k_d_q <= '0;
      k_dm1_q <= '0;
      k_lim_q <= '0;
      k_hb1_q <= '0;
      w_v_q <= 1'b0;
      w_word_q <= '0;
      ack_pend_q <= '0;
      nak_pend_q <= '0;
      nak_sent_q <= '0;
      mg_q <= '0;
      mg_mask_q <= '0;
      mw_v_q <= 1'b0;
      mw_c_q <= '0;
      mw_pos_q <= '0;
      mw_data_q <= '0;
      ao_n_q <= '0;
      ao_p_q <= '0;
      ao_p64_q <= 24'd64;
      ao_s_q <= '0;
      w2_v_q <= 1'b0;
      w2_lo_q <= '0;
      w2_hi_q <= '0;
      w2_dd_q <= '0;
      w2_lt_q <= 1'b0;
      w2_ge_q <= 1'b0;
      hd_q <= '0;
      x_v_q <= 1'b0;
      x_cb_q <= '0;
      hw_q <= '0;
      x_nhi_q <= 1'b0;
      x_nprev_q <= 1'b0;
      x_same_q <= 1'b0;
      x_same_ch_q <= 1'b0;
      x_mv_q <= 1'b0;
      x_pacc_q <= 1'b0;
      x_phi_q <= 1'b0;
      x_ch_q <= '0;
      x_psn_q <= '0;
      x_zero_q <= '0;
      x_behind_q <= '0;
      x_beyond_q <= '0;
      ao_fresh_q <= 1'b0;
      sq_ready_o <= 1'b0;
      ack_ready_o <= 1'b0;
      pkt_valid_o <= 1'b0;
      pkt_ch_o <= '0;
      pkt_psn_o <= '0;
      nhdl_q <= '0;
      pkt_retx_o <= 1'b0;
      una_o <= '0;
      fail_o <= '0;
      tmo_o <= 1'b0;
      rxv_valid_o <= 1'b0;
      rxv_ch_o <= '0;
      rxv_psn_o <= '0;
      rxv_verdict_o <= '0;
      dlv_valid_o <= 1'b0;
      dlv_ch_o <= '0;
      dlv_psn_o <= '0;
      ao_valid_o <= 1'b0;
      ao_ch_o <= '0;
      ao_kind_o <= '0;
      ao_base_o <= '0;
      ao_hi_o <= '0;
      ao_code_o <= '0;
      ao_wvalid_o <= 1'b0;
      ao_word_o <= '0;
    end else if (!init_q) begin
      // the first edge: every channel's sequence starts at cfg_psn_init
      init_q <= 1'b1;
      bwords_q <= bmap_words(cfg_bmap_code_i);
      win_q <= cfg_window_i > 11'(W) ? 11'(W) : cfg_window_i;
      flw_q <= cfg_window_i != 11'd0 ? '1 : '0;  // (nothing in flight yet)
      cap_q <= cfg_ooo_cap_i;
      capm1_q <= cfg_ooo_cap_i == 11'd0 ? 11'd0 : cfg_ooo_cap_i - 11'd1;
      cap1_q <= {1'b0, cfg_ooo_cap_i} + 12'd1;
      cap2_q <= {1'b0, cfg_ooo_cap_i} + 12'd2;
      hg0_q <= cfg_ooo_cap_i == 11'd0 ? '1 : '0;  // nothing held
      for (int c = 0; c < CH; c++) begin
        nxt_q[c] <= cfg_psn_init_i;
        una_q[c] <= cfg_psn_init_i;
        rptr_q[c] <= cfg_psn_init_i;
        rp1_q[c] <= cfg_psn_init_i[AIW-1:0] + AIW'(1);
        rp2_q[c] <= cfg_psn_init_i[AIW-1:0] + AIW'(2);
        una1_q[c] <= cfg_psn_init_i[AIW-1:0] + AIW'(1);
        una2_q[c] <= cfg_psn_init_i[AIW-1:0] + AIW'(2);
        exp_q[c] <= cfg_psn_init_i;
        cw1_q[c] <= cfg_psn_init_i[IW-1:6] + JW'(1);
        cw2_q[c] <= cfg_psn_init_i[IW-1:6] + JW'(2);
        exp1_q[c] <= cfg_psn_init_i + 24'd1;
        exp2_q[c] <= cfg_psn_init_i + 24'd2;
        for (int k = 0; k < 3; k++) eb_q[c][24*k +: 24] <= cfg_psn_init_i + 24'(bmap_bits(cfg_bmap_code_i)) + 24'(k);
        hi_q[c] <= cfg_psn_init_i - 24'd1;  // one before it: nothing received
        una_o[24*c +: 24] <= cfg_psn_init_i;
      end
      sq_ready_o <= 1'b1;
      ack_ready_o <= 1'b1;
    end else begin
      // transmit
      for (int c = 0; c < CH; c++) begin
        nxt_q[c] <= nxt_d[c];
        una_q[c] <= una_d[c];
        rptr_q[c] <= rptr_d[c];
        rp1_q[c] <= rp1_d[c];
        rp2_q[c] <= rp2_d[c];
        una1_q[c] <= una1_d[c];
        una2_q[c] <= una2_d[c];
        fl_q[c] <= fl_d[c];
        rpo_q[c] <= rpo_d[c];
        rpo1_q[c] <= rpo1_d[c];
        reo_q[c] <= reo_d[c];
        rno_q[c] <= rno_d[c];
        tmr_q[c] <= tmr_d[c];
        t1_q[c] <= t1_d[c];
        tz_q[c] <= tz_d[c];
        rto_q[c] <= rto_d[c];
        retries_q[c] <= retries_d[c];
        una_o[24*c +: 24] <= una_d[c];
      end
      fail_q <= fail_d;
      flw_q <= flw_d;
      rnd_rs_q <= rnd_rs_d;
      rnd_on_q <= rnd_on_d;
      sv_q <= sv_d;
      sd_q <= sd_d;
      sa_q <= sa_d;
      st_q <= st_d;
      mgb_q <= mgb_d;
      fail_o <= fail_d;
      tmo_o <= exp_eff != '0;
      // the FIFO: a ring of two
      if (emit_n || drop_n) sq_r_q <= !sq_r_q;
      if (sq_valid_i && sq_ready_o) begin
        sq_c_q[sq_r_q ^ (sq_n_q == 2'd1)] <= sq_ch_i;
        sq_h_q[sq_r_q ^ (sq_n_q == 2'd1)] <= sq_hdl_i;
      end
      sq_n_q <= sq_n_q - {1'b0, emit_n || drop_n} + {1'b0, sq_valid_i && sq_ready_o};
      sq_ready_o <= !(sq_n_q == 2'd2 && !(emit_n || drop_n)) &&
                    !(sq_n_q == 2'd1 && !(emit_n || drop_n) && sq_valid_i && sq_ready_o);
      // the acknowledgement header
      k_v_q <= hdr;
      for (int c = 0; c < CH; c++) kb_q[c] <= hdr && ack_ch_i == 2'(c);
      ack_ready_o <= !hdr;
      if (hdr) begin
        k_ch_q <= ack_ch_i;
        k_kind_q <= ack_kind_i;
        k_code_q <= ack_code_i;
        k_b_q <= ack_base_i;
        k_b1_q <= ack_base_i[AIW-1:0] + AIW'(1);
        k_b2_q <= ack_base_i[AIW-1:0] + AIW'(2);
        k_take_q <= ak_d <= {13'd0, fl_m};
        k_nz_q <= ak_d[10:0] != 11'd0;
        k_d_q <= ak_d[10:0];
        k_dm1_q <= ak_d[10:0] - 11'd1;
        k_lim_q <= fl_m - ak_d[10:0];
        k_hb1_q <= ak_hb[10:0] + 11'd1;
        k_nak_q <= ack_kind_i == KNak;
        k_hbz_q <= ak_hb[23:11] == 13'd0;
        k_rlt_q <= kf_rlt;
        k_hge_q <= kf_hge;
        k_rplt_q <= kf_rplt;
        k_relt_q <= kf_relt;
        k_relt1_q <= kf_relt1;
        k_ssr_q <= kf_ssr;
      end
      w_v_q <= ack_wvalid_i;
      w_word_q <= ack_wvalid_i ? ack_word_i : 64'd0;
      mg_q <= mg_d;
      mg_mask_q <= mg_mask_d;
      mw_v_q <= mg_wr;
      mw_c_q <= mg_q.c;
      mw_pos_q <= mg_q.pos;
      mw_data_q <= mg_wdata;
      for (int c = 0; c < CH; c++) begin
        // the acknowledged ring's valid bits and pending clear (a timeout
        // resends una whatever its acked bit: the receiver then answers
        // with its cumulative acknowledgement)
        av_q[c] <= av_d[c];
        ux_q[c] <= ux_d[c];
        sr_sel_q[c] <= sr_sel_d[c];
        sr_q[c] <= sr_d[c];
        srv_q[c] <= srv_d[c];
        srm_q[c] <= srm_d[c];
      end
      uf_q <= uf_d;
      if (emit_r) begin
        pkt_valid_o <= 1'b1;
        pkt_ch_o <= cs;
        pkt_psn_o <= rp;
        pkt_retx_o <= 1'b1;
      end else if (emit_n) begin
        pkt_valid_o <= 1'b1;
        pkt_ch_o <= hc;
        pkt_psn_o <= nxt_q[hc];
        nhdl_q <= sq_h_q[sq_r_q];
        pkt_retx_o <= 1'b0;
      end else if (out_free) begin
        pkt_valid_o <= 1'b0;
      end
      // receive
      for (int c = 0; c < CH; c++) begin
        hd_q[c] <= (accc[c] && zero) || (dl[c] ? hn[c] : hd_q[c]);
        hp_q[c] <= hp_d[c];
        hw_q[c] <= hw_d[c];
        if (dl[c]) begin
          exp_q[c] <= exp1_q[c];
          exp1_q[c] <= exp1_q[c] + 24'd1;
          exp2_q[c] <= exp2_q[c] + 24'd1;
          eb_q[c][23:0] <= eb_q[c][47:24];
          eb_q[c][47:24] <= eb_q[c][47:24] + 24'd1;
          eb_q[c][71:48] <= eb_q[c][71:48] + 24'd1;
        end
        // the ring's register words and valid bits
        rc_q[c] <= rc_d[c];
        rn_q[c] <= rn_d[c];
        rv_q[c] <= rv_d[c];
        if (cr[c]) begin
          cw1_q[c] <= cw2_q[c];
          cw2_q[c] <= cw2_q[c] + JW'(1);
        end
        held_q[c] <= acc_k ? held_x[c] : held_n[c];
        hg0_q[c] <= acc_k ? hg0_x[c] : hg0_n[c];
        hg1_q[c] <= acc_k ? hg1_x[c] : hg1_n[c];
        if (accc[c] && set_hi) hi_q[c] <= x_psn_q;
        // acknowledgements owed
        begin
          logic ap, np, ns;
          ap = ack_pend_q[c];
          np = nak_pend_q[c];
          ns = nak_sent_q[c];
          if (ao_take && ac == 2'(c)) begin
            ap = 1'b0;
            np = 1'b0;
          end
          if (dl[c]) begin
            ap = 1'b1;
            ns = 1'b0;
          end
          if (x_v_q && x_ch_q == 2'(c)) begin
            if (rv == VGap) begin
              if (!ns) begin
                np = 1'b1;
                ns = 1'b1;
              end
            end else if (rv != VAccept || !zero) begin
              ap = 1'b1;
            end
          end
          ack_pend_q[c] <= ap;
          nak_pend_q[c] <= np;
          nak_sent_q[c] <= ns;
        end
      end
      rxv_valid_o <= x_v_q;
      rxv_ch_o <= x_ch_q;
      rxv_psn_o <= x_psn_q;
      rxv_verdict_o <= x_v_q ? rv : VAccept;
      dlv_valid_o <= dlv_found;
      dlv_ch_o <= dlv_found ? dc : 2'd0;
      dlv_psn_o <= dlv_found ? dpsn : 24'd0;
      x_pacc_q <= acc;
      la_i_q <= x_psn_q[IW-1:0];
      la_c_q <= accc;
      x_phi_q <= set_hi;
      x_v_q <= rx_valid_i;
      x_ch_q <= rx_valid_i ? rx_ch_i : 2'd0;
      x_psn_q <= rx_valid_i ? rx_psn_i : 24'd0;
      x_cb_q <= xcb;
      // (read only with x_v_q)
      x_zero_q <= xz;
      x_behind_q <= xb;
      x_beyond_q <= xy;
      x_nhi_q <= rx_valid_i && !xnh && rx_psn_i != hi_q[rx_ch_i];
      x_nprev_q <= rx_valid_i && !xnp && rx_psn_i != x_psn_q;
      x_same_ch_q <= rx_valid_i && x_v_q && x_ch_q == rx_ch_i;
      x_same_q <= rx_valid_i && x_v_q && x_ch_q == rx_ch_i && x_psn_q == rx_psn_i;
      x_mv_q <= rx_valid_i && dl[rx_ch_i];
      // acknowledgements out
      if (ao_take) begin
        ao_valid_o <= 1'b1;
        ao_ch_o <= ac;
        ao_kind_o <= ao_kind;
        ao_base_o <= exp_q[ac];
        ao_hi_o <= hi_q[ac];
        ao_code_o <= cfg_bmap_code_i > 3'd4 ? 3'd4 : cfg_bmap_code_i;
        ao_n_q <= ao_kind == KSack ? bwords_q : 5'd0;
        ao_p_q <= exp_q[ac];
        ao_p64_q <= exp_q[ac] + 24'd64;
        ao_s_q <= exp_q[ac][5:0];
      end else if (ao_gone) begin
        ao_valid_o <= 1'b0;
      end
      ao_fresh_q <= ao_take;
      ao_wvalid_o <= w2_v_q;
      if (w2_v_q) ao_word_o <= ao_w;
      w2_v_q <= ao_n_q != 5'd0;
      if (ao_n_q != 5'd0) begin
        w2_lo_q <= ao_lo;
        w2_hi_q <= ao_hi;
        // (the distance from the word's first PSN to exp: below 2^23 is
        // its top bit clear; with that, at least 64 is the top bit of the
        // distance to exp from 64 PSNs on clear)
        w2_dd_q <= exp_q[ao_ch_o][5:0] - ao_p_q[5:0];
        w2_lt_q <= !diff_top(exp_q[ao_ch_o], ao_p_q);
        w2_ge_q <= !diff_top(exp_q[ao_ch_o], ao_p64_q);
        ao_p_q <= ao_p64_q;
        ao_p64_q <= ao_p64_q + 24'd64;
        ao_n_q <= ao_n_q - 5'd1;
      end
    end
  end

  `UB_ASSERT_INIT(RingInWords, W >= 128 && W % 64 == 0 && NW * 64 == W && (W & (W - 1)) == 0)

  // Assertions and the logic only they read: compiled when they are checked
  // (rtl/prim_assert.svh).
`ifdef UB_ASSERT_ON
  `UB_ASSERT_SETUP

  // the configuration changes only in reset (a window that shrinks under
  // the packets in flight leaves them beyond it)
  `UB_ASSUME(ConfigHeldOutOfReset,
             {cfg_gbn_i, cfg_bmap_code_i, cfg_window_i, cfg_ooo_cap_i, cfg_rto_i, cfg_backoff_i,
              cfg_retry_max_i, cfg_psn_init_i} ==
             $past({cfg_gbn_i, cfg_bmap_code_i, cfg_window_i, cfg_ooo_cap_i, cfg_rto_i,
                    cfg_backoff_i, cfg_retry_max_i, cfg_psn_init_i}))

  // the acknowledged ring as it was, W bits a channel in registers, beside
  // the RAM that holds it (the RAM's words for the assertions in a_ar)
  logic [W-1:0] acked_q [CH];
  always_ff @(posedge clk_i or negedge rst_ni)
    if (!rst_ni) begin
      for (int c = 0; c < CH; c++) acked_q[c] <= '0;
    end else if (init_q) begin
      for (int c = 0; c < CH; c++) begin
        logic [W-1:0] a;
        a = acked_q[c];
        for (int j = 0; j < NW; j++)
          if (mw_v_q && 2'(c) == mw_c_q && mw_pos_q[JW-1:0] == JW'(j))
            a[64*j +: 64] = a[64*j +: 64] | mw_data_q;
        if (en[c]) a = a & ~(W'(1) << nxt_q[c][IW-1:0]);
        if (exp_fire[c]) a = a & ~(W'(1) << una_q[c][IW-1:0]);
        acked_q[c] <= a;
      end
    end
  // every bit in flight is the one the RAM, its valid bits and the pending
  // clear make up
  logic [CH-1:0] a_ak;
`ifdef FORMAL
  // every index of the 2W ring, each its own bit of the RAM: no index is
  // computed, so that the proof sees no multiplexer
  always_comb
    for (int c = 0; c < CH; c++) begin
      a_ak[c] = 1'b1;
      for (int i = 0; i < 2 * W; i++) begin
        logic [AIW-1:0] o;
        o = AIW'(i) - una_q[c][AIW-1:0];
        if (12'(o) < {1'b0, fl_q[c]} &&
            acked_q[c][i % W] != (av_q[c][i / 64] && a_ar[c*ANW+i/64][i % 64] && !(uf_q[c] && ux_q[c] == AIW'(i))))
          a_ak[c] = 1'b0;
      end
    end
`else
  // the same a word at a time (a simulation evaluates it at every edge):
  // the bits of RAM word j in flight are one run, [lo, hi), of its 64
  always_comb
    for (int c = 0; c < CH; c++) begin
      a_ak[c] = 1'b1;
      for (int j = 0; j < ANW; j++) begin
        logic [AIW-1:0] o0;
        logic [63:0] wd, m;
        int lo, hi;
        o0 = AIW'(64 * j) - una_q[c][AIW-1:0];  // the word's first bit's offset
        if (12'(o0) < {1'b0, fl_q[c]}) begin
          lo = 0;
          hi = int'(fl_q[c]) - int'(o0);
        end else begin  // una inside this word or none of it in flight
          lo = 2 * W - int'(o0);
          hi = lo + int'(fl_q[c]);
        end
        if (hi > 64) hi = 64;
        m = lo >= 64 ? 64'd0 : (hi >= 64 ? ~64'd0 : (64'd1 << hi) - 64'd1) & ~((64'd1 << lo) - 64'd1);
        wd = av_q[c][j] ? a_ar[c*ANW+j] : 64'd0;
        if (uf_q[c] && ux_q[c][AIW-1:6] == AJW'(j)) wd[ux_q[c][5:0]] = 1'b0;
        if (((wd ^ acked_q[c][64*(j%NW) +: 64]) & m) != 64'd0) a_ak[c] = 1'b0;
      end
    end
`endif
  `UB_ASSERT(AckedRingIsItsWords, !init_q || &a_ak)

  // the receive ring as one vector a channel (registers), beside the words
  // and the RAM that hold it: every word is the one they make up
  logic [W-1:0] ring_q [CH];
  always_ff @(posedge clk_i or negedge rst_ni)
    if (!rst_ni) begin
      for (int c = 0; c < CH; c++) ring_q[c] <= '0;
    end else if (init_q) begin
      for (int c = 0; c < CH; c++) begin
        logic [W-1:0] r;
        r = ring_q[c];
        if (dl[c]) r = r & ~(W'(1) << exp_q[c][IW-1:0]);
        if (accc[c]) r = r | (W'(1) << x_psn_q[IW-1:0]);
        ring_q[c] <= r;
      end
    end
  logic [CH*NW-1:0] a_rw;
  always_comb
    for (int c = 0; c < CH; c++)
      for (int j = 0; j < NW; j++)
        a_rw[c*NW+j] = ring_q[c][64*j +: 64] ==
                       ((rv_q[c][j] ? a_rr[c*NW+j] : 64'd0) | (JW'(j) == exp_q[c][IW-1:6] ? rc_q[c] : 64'd0) |
                        (JW'(j) == cw1_q[c] ? rn_q[c] : 64'd0));
  `UB_ASSERT(RingIsItsWords, &a_rw)
  // the register words' indexes follow exp's
  logic [CH-1:0] a_cw;
  always_comb
    for (int c = 0; c < CH; c++)
      a_cw[c] = !init_q || (cw1_q[c] == exp_q[c][IW-1:6] + JW'(1) && cw2_q[c] == exp_q[c][IW-1:6] + JW'(2));
  `UB_ASSERT(RingWordIndexesFollowExp, &a_cw)

  // per channel, from the registers as they stand
  logic [CH-1:0] a_win, a_scan_in, a_ofs, a_held;
  always_comb begin
    for (int c = 0; c < CH; c++) begin
      // nothing sent beyond the window (the ring's size at most)
      a_win[c] = fl_q[c] <= (cfg_window_i > 11'(W) ? 11'(W) : cfg_window_i);
      // the resend scan inside the flight
      a_scan_in[c] = rpo_q[c] <= fl_q[c] && reo_q[c] <= fl_q[c];
      // the offsets and the copies agree with the sequence numbers
      a_ofs[c] = t1_q[c] == (tmr_q[c] == 32'd1) && tz_q[c] == (tmr_q[c] == 32'd0) &&
                 (!init_q || flw_q[c] == (fl_q[c] < win_q)) && kb_q[c] == (k_v_q && k_ch_q == 2'(c)) &&
                 nxt_q[c] == una_q[c] + 24'(fl_q[c]) && rptr_q[c] == una_q[c] + 24'(rpo_q[c]) &&
                 rp1_q[c] == rptr_q[c][AIW-1:0] + AIW'(1) && una1_q[c] == una_q[c][AIW-1:0] + AIW'(1) &&
                 rp2_q[c] == rptr_q[c][AIW-1:0] + AIW'(2) && una2_q[c] == una_q[c][AIW-1:0] + AIW'(2) &&
                 rpo1_q[c] == rpo_q[c] + 11'd1;
      // the receiver holds as many packets as its ring has bits; its head
      // bit is the ring's at exp, and exp1 is exp + 1
      a_held[c] = 32'(held_q[c]) == $countones(ring_q[c]) && hd_q[c] == ring_q[c][exp_q[c][IW-1:0]] &&
                  (!init_q || (hg0_q[c] == (held_q[c] >= cfg_ooo_cap_i) &&
                               hg1_q[c] == ({1'b0, held_q[c]} >= {1'b0, cfg_ooo_cap_i} + 12'd1))) &&
                  exp1_q[c] == exp_q[c] + 24'd1 && exp2_q[c] == exp_q[c] + 24'd2 &&
                  (!init_q || (eb_q[c][23:0] == exp_q[c] + 24'(bmap_bits(cfg_bmap_code_i)) &&
                               eb_q[c][47:24] == eb_q[c][23:0] + 24'd1 && eb_q[c][71:48] == eb_q[c][23:0] + 24'd2));
    end
  end
  `UB_ASSERT(NothingBeyondTheWindow, !init_q || &a_win)
  `UB_ASSERT(ResendScanInsideTheFlight, !init_q || &a_scan_in)
  `UB_ASSERT(OffsetsAreThePsns, !init_q || &a_ofs)
  `UB_ASSERT(HeldCountIsTheRing, &a_held)
  // the ring bit at exp + 1 as read over two edges is the ring's
  logic [CH-1:0] a_hn;
  always_comb
    for (int c = 0; c < CH; c++) a_hn[c] = hn[c] == ring_q[c][exp1_q[c][IW-1:0]];
  `UB_ASSERT(NextHeadBitIsTheRing, !init_q || &a_hn)
  // the header's comparisons, worked out at the edge it was taken, are
  // those of the offsets at the edge it is applied (the ones it needs: a
  // SACK's highest PSN only with its base within the flight)
  logic [10:0] a_khu_q, a_khb_q;
  logic        a_khbz_q;
  always_ff @(posedge clk_i)
    if (hdr) begin
      a_khu_q <= ack_hi_i[10:0] - una_m[10:0];
      a_khb_q <= ak_hb[10:0];
      a_khbz_q <= ak_hb[23:11] == 13'd0;
    end
  logic [CH-1:0] a_kf;
  always_comb
    for (int c = 0; c < CH; c++)
      a_kf[c] = !kb_q[c] ||
                (k_rlt_q[c] == (rno_q[c] < k_d_q) && k_hge_q[c] == (a_khu_q >= rno_q[c]) &&
                 k_rplt_q[c] == (rpo_q[c] < k_d_q) && k_relt_q[c] == (reo_q[c] < k_d_q) &&
                 k_relt1_q[c] == (reo_q[c] < 11'(a_khu_q + 11'd1)) &&
                 k_nak_q == (k_kind_q == KNak) &&
                 k_hbz_q == a_khbz_q &&
                 (!k_take_q || !k_hbz_q || k_ssr_q[c] == (k_kind_q == KSack && a_khb_q < k_lim_q)));
  `UB_ASSERT(HeaderComparisonsHold, &a_kf)
  // the scan view's bit as read over two edges is the acknowledged ring's
  // (at a PSN in flight: only there is it read)
  logic [CH-1:0] a_sb;
  always_comb
    for (int c = 0; c < CH; c++)
      a_sb[c] = (sv_q[c] ? rpo1_q[c] : rpo_q[c]) >= fl_q[c] ||
                sbit[c] == acked_q[c][sv_q[c] ? rp1_q[c][IW-1:0] : rptr_q[c][IW-1:0]];
  `UB_ASSERT(ScanBitIsTheRing, !init_q || &a_sb)
  // with a view, its "a PSN due" is the scan's offsets'
  logic [CH-1:0] a_sd;
  always_comb
    for (int c = 0; c < CH; c++) a_sd[c] = !sv_q[c] || sd_q[c] == (rpo_q[c] != reo_q[c]);
  `UB_ASSERT(ScanViewDueIsTheOffsets, &a_sd)
  // the merge's mask is that of the bitmap bits still naming PSNs sent
  `UB_ASSERT(MergeMaskFollowsItsCount,
             mg_mask_q == (mg_q.left >= 11'd64 ? {64{1'b1}} : ~({64{1'b1}} << mg_q.left[5:0])))
  // a failed channel stays failed; the new-packet FIFO never over 2
  `UB_ASSERT(FailIsKept, ($past(fail_q) & ~fail_q) == '0)
  `UB_ASSERT(FifoNeverOverTwo, sq_n_q <= 2'd2)
  // a packet is delivered once: the one its channel expected, which then
  // moves on past it
  `UB_ASSERT(DeliveredOnceInOrder, !dlv_valid_o || exp_q[dlv_ch_o] == dlv_psn_o + 24'd1)
  // a SACK's words go out behind their header, which stays
  `UB_ASSERT(OutWordPsnsKept, ao_p64_q == ao_p_q + 24'd64)
  `UB_ASSERT(SackWordsBehindTheirHeader, !ao_wvalid_o || (ao_valid_o && ao_kind_o == KSack))
  // an output held until the link takes it, unchanged (the conditions and
  // values taken at the edge, as the C model sees them)
  logic a_pkt_hold_q, a_ao_hold_q;
  logic [42:0] a_pkt_q;
  logic [54:0] a_ao_q;
  always_ff @(posedge clk_i) begin
    a_pkt_hold_q <= pkt_valid_o && !pkt_ready_i;
    a_pkt_q <= {pkt_ch_o, pkt_psn_o, pkt_hdl_o, pkt_retx_o};
    a_ao_hold_q <= ao_valid_o && (!ao_ready_i || ao_n_q != 5'd0);
    a_ao_q <= {ao_ch_o, ao_kind_o, ao_base_o, ao_hi_o, ao_code_o};
  end
  `UB_ASSERT(PacketHeldUntilTaken,
             !a_pkt_hold_q || (pkt_valid_o && a_pkt_q == {pkt_ch_o, pkt_psn_o, pkt_hdl_o, pkt_retx_o}))
  `UB_ASSERT(AckHeldUntilTaken,
             !a_ao_hold_q || (ao_valid_o && a_ao_q == {ao_ch_o, ao_kind_o, ao_base_o, ao_hi_o, ao_code_o}))
`endif

  // The descriptor ring: a RAM (at W = 1024, 4 x 1024 x 16 bits: block RAM),
  // not reset, written at a new packet's PSN and read by the resend scan
  // into its own output register at the edge the resend leaves (the two
  // never at the same edge: a new packet waits while a resend goes). The
  // packet's handle is that register's for a resend, else the new packet's.
  always_ff @(posedge clk_i) begin
    if (emit_n) desc_q[{hc, nxt_q[hc][IW-1:0]}] <= sq_h_q[sq_r_q];
    if (emit_r) rhdl_q <= desc_q[{cs, rp[IW-1:0]}];
  end
  assign pkt_hdl_o = pkt_retx_o ? rhdl_q : nhdl_q;

  // busy: from the registers
  always_comb begin
    logic b;
    b = sq_n_q != 2'd0 || k_v_q || w_v_q || mw_v_q || st_q != '0 || x_v_q || w2_v_q || pkt_valid_o || ao_valid_o ||
        dlv_valid_o || rxv_valid_o || ack_pend_q != '0 || nak_pend_q != '0 || mg_q.n != 5'd0 || mg_q.tail ||
        ao_n_q != 5'd0;
    for (int c = 0; c < CH; c++)
      b = b || (!fail_q[c] && (fl_q[c] != '0 || rpo_q[c] != reo_q[c])) || held_q[c] != '0;
    busy_o = b;
  end

endmodule
