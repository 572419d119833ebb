// Selective-acknowledgement transport: both halves of a node's reliable
// delivery (docs/transport.md has the rules).
//
// RTL twin of cmodel/transport.c; both agree cycle for cycle. Every decision
// of an edge is taken from the registers before it and the inputs; the
// updates follow in the C model's order (T1..T8 transmit, R1..R4 receive).
//
// Transmit, per channel: next PSN, oldest PSN not acknowledged, the resend
// scan [rptr, rend), the timer and its timeout, the retry count, a fail bit;
// a ring of selectively acknowledged bits and a ring of 16-bit descriptors
// (handles) indexed by PSN modulo W. New packets wait in a 2-entry FIFO.
// Receive, per channel: next PSN to deliver, the highest PSN received, the
// packets held, a ring of received-not-delivered bits; acknowledgements
// owed. All outputs are registers.
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
  localparam logic [23:0] Half = 24'h800000;
  localparam logic [2:0] VAccept = 3'd0, VDup = 3'd1, VFull = 3'd2, VBeyond = 3'd3, VGap = 3'd4;
  localparam logic [1:0] KAck = 2'd0, KSack = 2'd1, KNak = 2'd2;

  // ---- registers ----
  logic [23:0] nxt_q [CH];
  logic [23:0] una_q [CH];
  logic [23:0] rptr_q [CH];
  logic [23:0] rend_q [CH];
  logic [31:0] tmr_q [CH];
  logic [31:0] rto_q [CH];
  logic [3:0] retries_q [CH];
  logic [CH-1:0] fail_q;
  logic [CH-1:0] rnd_rs_q, rnd_on_q;  // resend rounds (docs/transport.md)
  logic [23:0] rnd_end_q [CH];
  logic [W-1:0] acked_q [CH];
  logic [15:0] desc_q [CH*W];     // the descriptor ring (a RAM, below)
  logic [15:0] rhdl_q, nhdl_q;    // a resend's handle (the RAM's read), a new packet's
  logic [1:0]  sq_n_q;
  logic [1:0]  sq_c0_q, sq_c1_q;
  logic [15:0] sq_h0_q, sq_h1_q;
  logic [23:0] exp_q [CH];
  logic [23:0] hi_q [CH];
  logic [10:0] held_q [CH];
  logic [W-1:0] ring_q [CH];
  logic [CH-1:0] ack_pend_q, nak_pend_q, nak_sent_q;
  // an incoming SACK's words, merged into acked_q[mg_q.c] a word an edge
  // (cmodel/transport.h: the same registers, mg_*)
  typedef struct packed {
    logic [4:0]    n;      // words still to come
    logic          on;     // merged (else only consumed)
    logic          tail;   // the last word's carry still to write
    logic [1:0]    c;
    logic [JW-1:0] pos;    // the ring word written next
    logic [5:0]    s;      // the shift onto the ring
    logic [10:0]   left;   // bitmap bits still naming PSNs sent
    logic [63:0]   carry;
  } merge_t;
  merge_t mg_q, mg_d;
  // the outgoing SACK's words still to put out, and the next one's offset
  logic [4:0]  ao_n_q;
  logic [10:0] ao_off_q;

  // ---- every channel's sequence starts at cfg_psn_init: until the first edge
  // after reset the sequence registers read as it ----
  logic        init_q;
  logic [23:0] nxt_c [CH];
  logic [23:0] una_c [CH];
  logic [23:0] rptr_c [CH];
  logic [23:0] rend_c [CH];
  logic [23:0] rnd_end_c [CH];
  logic [23:0] exp_c [CH];
  logic [23:0] hi_c [CH];
  always_comb begin
    for (int c = 0; c < CH; c++) begin
      nxt_c[c]     = init_q ? nxt_q[c] : cfg_psn_init_i;
      una_c[c]     = init_q ? una_q[c] : cfg_psn_init_i;
      rptr_c[c]    = init_q ? rptr_q[c] : cfg_psn_init_i;
      rend_c[c]    = init_q ? rend_q[c] : cfg_psn_init_i;
      rnd_end_c[c] = init_q ? rnd_end_q[c] : cfg_psn_init_i;
      exp_c[c]     = init_q ? exp_q[c] : cfg_psn_init_i;
      hi_c[c]      = init_q ? hi_q[c] : cfg_psn_init_i - 24'd1;  // nothing received
    end
  end

  // ---- next-state values of the scalar registers ----
  logic [23:0] nxt_d [CH];
  logic [23:0] una_d [CH];
  logic [23:0] rptr_d [CH];
  logic [23:0] rend_d [CH];
  logic [31:0] tmr_d [CH];
  logic [31:0] rto_d [CH];
  logic [3:0] retries_d [CH];
  logic [CH-1:0] fail_d;
  logic [CH-1:0] rnd_rs_d, rnd_on_d;
  logic [23:0] rnd_end_d [CH];
  logic [1:0]  sq_n_d;
  logic [1:0]  sq_c0_d, sq_c1_d;
  logic [15:0] sq_h0_d, sq_h1_d;
  logic [CH-1:0] expire;

  // decisions of the edge
  logic        out_free, emit_r, emit_n, drop_n, adv, scan_found;
  logic [1:0]  cs, hc, sc;
  logic [23:0] rp;
  logic        ack_take;
  logic [1:0]  ac_ch;
  logic [23:0] ab, alim;
  logic [10:0] bits;
  logic [23:0] win;

  function automatic logic [10:0] bmap_bits(input logic [2:0] code);
    bmap_bits = 11'd64 << (code > 3'd4 ? 3'd4 : code);
  endfunction

  // x is at or beyond y, both measured from base
  function automatic logic [23:0] farther(input logic [23:0] x, input logic [23:0] y,
                                          input logic [23:0] base);
    farther = (x - base) >= (y - base) ? x : y;
  endfunction

  // M: a word of the SACK being merged, masked to the PSNs sent and shifted
  // onto the ring: its low part ORed into ring word mg_q.pos with the high
  // part of the word before; after the last word that high part alone
  logic        mg_word, mg_wr;
  logic [63:0] mg_w, mg_wdata;
  logic [CH-1:0] merging;
  always_comb begin
    mg_word = ack_wvalid_i && mg_q.n != 5'd0;
    mg_w = mg_q.left >= 11'd64 ? ack_word_i : ack_word_i & ~({64{1'b1}} << mg_q.left[5:0]);
    mg_wr = mg_word ? mg_q.on : mg_q.tail;
    mg_wdata = mg_word ? (mg_w << mg_q.s) | mg_q.carry : mg_q.carry;
    for (int c = 0; c < CH; c++) merging[c] = mg_q.on && (mg_q.n != 5'd0 || mg_q.tail) && mg_q.c == 2'(c);
  end

  function automatic logic [4:0] bmap_words(input logic [2:0] code);
    bmap_words = 5'd1 << (code > 3'd4 ? 3'd4 : code);
  endfunction

  // ---- transmit ----
  always_comb begin
    bits = bmap_bits(cfg_bmap_code_i);
    win = cfg_window_i > 11'(W) ? 24'(W) : {13'd0, cfg_window_i};  // the ring's size at most
    out_free = !pkt_valid_o || pkt_ready_i;
    for (int c = 0; c < CH; c++) begin
      nxt_d[c] = nxt_c[c];
      una_d[c] = una_c[c];
      rptr_d[c] = rptr_c[c];
      rend_d[c] = rend_c[c];
      rto_d[c] = rto_q[c];
      retries_d[c] = retries_q[c];
      rnd_end_d[c] = rnd_end_c[c];
    end
    fail_d = fail_q;
    rnd_rs_d = rnd_rs_q;
    rnd_on_d = rnd_on_q;
    // T1: the resend scan
    scan_found = 1'b0;
    cs = 2'd0;
    for (int c = CH - 1; c >= 0; c--)
      if (!fail_q[c] && rptr_c[c] != rend_c[c] && !merging[c]) begin
        scan_found = 1'b1;
        cs = 2'(c);
      end
    rp = rptr_c[cs];
    emit_r = 1'b0;
    adv = 1'b0;
    if (scan_found) begin
      if (!cfg_gbn_i && acked_q[cs][rp[IW-1:0]]) adv = 1'b1;
      else if (out_free) begin
        emit_r = 1'b1;
        adv = 1'b1;
      end
    end
    // T2: the new packet
    hc = sq_c0_q;
    emit_n = 1'b0;
    drop_n = 1'b0;
    if (sq_n_q != 2'd0) begin
      if (fail_q[hc]) drop_n = 1'b1;
      else emit_n = out_free && !emit_r && (win > (nxt_c[hc] - una_c[hc])) &&
                    rptr_c[hc] == rend_c[hc];
    end
    // T3: timers
    for (int c = 0; c < CH; c++) begin
      expire[c] = !fail_q[c] && tmr_q[c] == 32'd1;
      tmr_d[c] = tmr_q[c] > 32'd1 ? tmr_q[c] - 32'd1 : 32'd0;
    end
    // T4: scan, new PSN, FIFO
    if (adv) begin
      rptr_d[cs] = rp + 24'd1;
      if (emit_r) rnd_rs_d[cs] = 1'b1;
      if (rptr_d[cs] == rend_c[cs]) begin
        if (rnd_rs_d[cs]) begin
          rnd_on_d[cs] = 1'b1;
          rnd_end_d[cs] = nxt_c[cs];
        end
        rnd_rs_d[cs] = 1'b0;
      end
    end
    if (emit_n) nxt_d[hc] = nxt_c[hc] + 24'd1;
    sq_n_d = sq_n_q;
    sq_c0_d = sq_c0_q;
    sq_c1_d = sq_c1_q;
    sq_h0_d = sq_h0_q;
    sq_h1_d = sq_h1_q;
    if (emit_n || drop_n) begin
      sq_c0_d = sq_c1_q;
      sq_h0_d = sq_h1_q;
      sq_n_d = sq_n_q - 2'd1;
    end
    if (sq_valid_i && sq_ready_o) begin
      if (sq_n_d[0]) begin
        sq_c1_d = sq_ch_i;
        sq_h1_d = sq_hdl_i;
      end else begin
        sq_c0_d = sq_ch_i;
        sq_h0_d = sq_hdl_i;
      end
      sq_n_d = sq_n_d + 2'd1;
    end
    // M: the merge's registers
    mg_d = mg_q;
    if (mg_word) begin
      if (mg_q.on) begin
        mg_d.left = mg_q.left >= 11'd64 ? mg_q.left - 11'd64 : 11'd0;
        mg_d.carry = mg_q.s != 6'd0 ? mg_w >> (7'd64 - {1'b0, mg_q.s}) : 64'd0;
        mg_d.pos = mg_q.pos + JW'(1);
      end
      mg_d.n = mg_q.n - 5'd1;
      mg_d.tail = mg_q.n == 5'd1 && mg_q.on && mg_q.s != 6'd0;
    end else if (mg_q.tail) begin
      mg_d.tail = 1'b0;
    end
    // T5: an acknowledgement (a header abandons the words of one before it)
    if (ack_valid_i) begin
      mg_d.n = ack_kind_i == KSack ? bmap_words(ack_code_i) : 5'd0;
      mg_d.on = 1'b0;
      mg_d.tail = 1'b0;
      mg_d.carry = 64'd0;
    end
    ac_ch = ack_ch_i;
    ab = ack_base_i;
    alim = nxt_c[ac_ch] - ab;
    ack_take = ack_valid_i && !fail_q[ac_ch] && (ab - una_c[ac_ch]) <= (nxt_c[ac_ch] - una_c[ac_ch]);
    if (ack_take) begin
      if (ab != una_c[ac_ch]) begin
        una_d[ac_ch] = ab;
        retries_d[ac_ch] = 4'd0;
        rto_d[ac_ch] = cfg_rto_i;
        tmr_d[ac_ch] = ab != nxt_d[ac_ch] ? cfg_rto_i : 32'd0;
        expire[ac_ch] = 1'b0;
      end
      if (ack_kind_i == KNak) begin
        rptr_d[ac_ch] = ab;
        rend_d[ac_ch] = nxt_c[ac_ch];
      end else begin
        if ((rptr_d[ac_ch] - ab) > alim) rptr_d[ac_ch] = ab;
        if ((rend_d[ac_ch] - ab) > alim) rend_d[ac_ch] = ab;
        if (ack_kind_i == KSack) begin
          // its words follow: bits naming PSNs never sent are left out
          mg_d.on = 1'b1;
          mg_d.c = ac_ch;
          mg_d.left = {13'd0, bmap_bits(ack_code_i)} > alim ? alim[10:0] : bmap_bits(ack_code_i);
          mg_d.pos = ab[IW-1:6];
          mg_d.s = ab[5:0];
        end
        if (ack_kind_i == KSack && (ack_hi_i - ab) < alim) begin
          rend_d[ac_ch] = farther(rend_d[ac_ch], ack_hi_i + 24'd1, ab);
          if ((rnd_end_d[ac_ch] - ab) > alim) rnd_on_d[ac_ch] = 1'b0;
          else if (rnd_on_d[ac_ch] && (ack_hi_i - ab) >= (rnd_end_d[ac_ch] - ab)) begin
            rptr_d[ac_ch] = ab;
            rnd_on_d[ac_ch] = 1'b0;
          end
        end
      end
    end
    // T6: timeouts
    for (int c = 0; c < CH; c++)
      if (expire[c]) begin
        if ({1'b0, retries_q[c]} + 5'd1 > {1'b0, cfg_retry_max_i}) begin
          fail_d[c] = 1'b1;
          tmr_d[c] = 32'd0;
        end else begin
          retries_d[c] = retries_q[c] + 4'd1;
          if (cfg_backoff_i) rto_d[c] = rto_q[c][31] ? 32'hFFFFFFFF : {rto_q[c][30:0], 1'b0};
          tmr_d[c] = rto_d[c];
          rptr_d[c] = una_d[c];
          rend_d[c] = nxt_d[c];
          rnd_on_d[c] = 1'b0;
          rnd_rs_d[c] = 1'b0;
        end
      end
    // T7: a packet that leaves starts its channel's timer (unless an
    // acknowledgement at this edge covered everything sent)
    sc = emit_r ? cs : hc;
    if ((emit_r || emit_n) && !fail_d[sc] && tmr_d[sc] == 32'd0 && nxt_d[sc] != una_d[sc]) begin
      if (rto_d[sc] == 32'd0) rto_d[sc] = cfg_rto_i;
      tmr_d[sc] = rto_d[sc];
    end
  end

  // ---- receive ----
  logic [2:0]  rv;
  logic        rv_any, moving;
  logic [23:0] rd;
  logic        dlv_found;
  logic [1:0]  dc;
  logic [23:0] dpsn;
  logic        ao_free, ao_take;
  logic [1:0]  ac;
  logic [CH-1:0] owed;
  logic [W-1:0]   ao_ring;
  logic           ao_gap;
  logic [1:0]     ao_kind;
  // the outgoing SACK's next word: the ring's bits from PSN ao_p on, those
  // of PSNs delivered by now set
  logic [23:0]    ao_p, ao_dd;
  logic [JW-1:0]  ao_j;
  logic [127:0]   ao_pair;
  logic [63:0]    ao_w;
  always_comb begin
    ao_p = ao_base_o + {13'd0, ao_off_q};
    ao_j = ao_p[IW-1:6];
    ao_pair = {ring_q[ao_ch_o][64*(JW'(ao_j + JW'(1))) +: 64], ring_q[ao_ch_o][64*ao_j +: 64]};
    ao_w = 64'(ao_pair >> ao_p[5:0]);
    ao_dd = exp_c[ao_ch_o] - ao_p;
    if (ao_dd < Half) ao_w = ao_w | (ao_dd >= 24'd64 ? {64{1'b1}} : ~({64{1'b1}} << ao_dd[5:0]));
  end

  always_comb begin
    // R2: delivery
    dlv_found = 1'b0;
    dc = 2'd0;
    for (int c = CH - 1; c >= 0; c--)
      if (ring_q[c][exp_c[c][IW-1:0]]) begin
        dlv_found = 1'b1;
        dc = 2'(c);
      end
    dpsn = exp_c[dc];
    // R1: the verdict, against the registers as this edge's delivery leaves
    // them (the next PSN one further, one packet fewer held)
    moving = dlv_found && dc == rx_ch_i;
    rd = rx_psn_i - exp_c[rx_ch_i] - {23'd0, moving};
    rv_any = rx_valid_i;
    if (cfg_gbn_i)
      rv = rd == 24'd0 ? (ring_q[rx_ch_i][rx_psn_i[IW-1:0]] ? VDup : VAccept) : rd >= Half ? VDup : VGap;
    else if (rd >= Half) rv = VDup;
    else if (rd >= {13'd0, bits}) rv = VBeyond;
    else if (ring_q[rx_ch_i][rx_psn_i[IW-1:0]]) rv = VDup;
    else if (rd != 24'd0 && held_q[rx_ch_i] - {10'd0, moving} >= cfg_ooo_cap_i) rv = VFull;
    else rv = VAccept;
    // R3: an acknowledgement out
    ao_free = (!ao_valid_o || ao_ready_i) && ao_n_q == 5'd0;
    owed = ack_pend_q | nak_pend_q;
    ac = 2'd0;
    ao_take = 1'b0;
    for (int c = CH - 1; c >= 0; c--)
      if (owed[c]) begin
        ac = 2'(c);
        ao_take = ao_free;
      end
    ao_ring = ring_q[ac];
    ao_gap = held_q[ac] > {10'd0, ao_ring[exp_c[ac][IW-1:0]]};
    ao_kind = nak_pend_q[ac] ? KNak : (!cfg_gbn_i && ao_gap) ? KSack : KAck;
  end

  // ---- registers ----
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int c = 0; c < CH; c++) begin
        nxt_q[c] <= '0;
        una_q[c] <= '0;
        rptr_q[c] <= '0;
        rend_q[c] <= '0;
        tmr_q[c] <= '0;
        rto_q[c] <= '0;
        retries_q[c] <= '0;
        rnd_end_q[c] <= '0;
        acked_q[c] <= '0;
        exp_q[c] <= '0;
        hi_q[c] <= 24'hFFFFFF;
        held_q[c] <= '0;
        ring_q[c] <= '0;
      end
      init_q <= 1'b0;
      fail_q <= '0;
      rnd_rs_q <= '0;
      rnd_on_q <= '0;
      sq_n_q <= '0;
      sq_c0_q <= '0;
      sq_c1_q <= '0;
      sq_h0_q <= '0;
      sq_h1_q <= '0;
      ack_pend_q <= '0;
      nak_pend_q <= '0;
      nak_sent_q <= '0;
      mg_q <= '0;
      ao_n_q <= '0;
      ao_off_q <= '0;
      sq_ready_o <= 1'b1;
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
    end else begin
      init_q <= 1'b1;
      // (the receive registers below are written only when they change:
      // at the first edge they take the sequence's start)
      if (!init_q)
        for (int c = 0; c < CH; c++) begin
          exp_q[c] <= exp_c[c];
          hi_q[c] <= hi_c[c];
        end
      // transmit
      for (int c = 0; c < CH; c++) begin
        nxt_q[c] <= nxt_d[c];
        una_q[c] <= una_d[c];
        rptr_q[c] <= rptr_d[c];
        rend_q[c] <= rend_d[c];
        tmr_q[c] <= tmr_d[c];
        rto_q[c] <= rto_d[c];
        retries_q[c] <= retries_d[c];
        rnd_end_q[c] <= rnd_end_d[c];
        una_o[24*c +: 24] <= una_d[c];
      end
      fail_q <= fail_d;
      rnd_rs_q <= rnd_rs_d;
      rnd_on_q <= rnd_on_d;
      fail_o <= fail_d;
      tmo_o <= |expire;
      sq_n_q <= sq_n_d;
      sq_c0_q <= sq_c0_d;
      sq_c1_q <= sq_c1_d;
      sq_h0_q <= sq_h0_d;
      sq_h1_q <= sq_h1_d;
      sq_ready_o <= sq_n_d != 2'd2;
      mg_q <= mg_d;
      for (int c = 0; c < CH; c++) begin
        if (mg_wr && 2'(c) == mg_q.c)
          acked_q[c][64*mg_q.pos +: 64] <= acked_q[c][64*mg_q.pos +: 64] | mg_wdata;
        if (emit_n && 2'(c) == hc)
          acked_q[c][nxt_c[hc][IW-1:0]] <= 1'b0;
      end
      if (emit_r) begin
        pkt_valid_o <= 1'b1;
        pkt_ch_o <= cs;
        pkt_psn_o <= rp;
        pkt_retx_o <= 1'b1;
      end else if (emit_n) begin
        pkt_valid_o <= 1'b1;
        pkt_ch_o <= hc;
        pkt_psn_o <= nxt_c[hc];
        nhdl_q <= sq_h0_q;
        pkt_retx_o <= 1'b0;
      end else if (out_free) begin
        pkt_valid_o <= 1'b0;
      end
      // receive
      for (int c = 0; c < CH; c++) begin
        if (dlv_found && dc == 2'(c)) begin
          exp_q[c] <= dpsn + 24'd1;
          if (rv_any && rv == VAccept && rx_ch_i == 2'(c)) begin
            ring_q[c] <= (ring_q[c] & ~(W'(1) << dpsn[IW-1:0])) | (W'(1) << rx_psn_i[IW-1:0]);
            held_q[c] <= held_q[c];
          end else begin
            ring_q[c][dpsn[IW-1:0]] <= 1'b0;
            held_q[c] <= held_q[c] - 11'd1;
          end
        end else if (rv_any && rv == VAccept && rx_ch_i == 2'(c)) begin
          ring_q[c][rx_psn_i[IW-1:0]] <= 1'b1;
          held_q[c] <= held_q[c] + 11'd1;
        end
        if (rv_any && rv == VAccept && rx_ch_i == 2'(c) && (rx_psn_i - hi_c[c]) != 24'd0 &&
            (rx_psn_i - hi_c[c]) < Half)
          hi_q[c] <= rx_psn_i;
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
          if (dlv_found && dc == 2'(c)) begin
            ap = 1'b1;
            ns = 1'b0;
          end
          if (rv_any && rx_ch_i == 2'(c)) begin
            if (rv == VGap) begin
              if (!ns) begin
                np = 1'b1;
                ns = 1'b1;
              end
            end else if (rv != VAccept || rd != 24'd0) begin
              ap = 1'b1;
            end
          end
          ack_pend_q[c] <= ap;
          nak_pend_q[c] <= np;
          nak_sent_q[c] <= ns;
        end
      end
      rxv_valid_o <= rv_any;
      rxv_ch_o <= rx_ch_i;
      rxv_psn_o <= rx_psn_i;
      rxv_verdict_o <= rv_any ? rv : VAccept;
      dlv_valid_o <= dlv_found;
      dlv_ch_o <= dlv_found ? dc : 2'd0;
      dlv_psn_o <= dlv_found ? dpsn : 24'd0;
      if (ao_take) begin
        ao_valid_o <= 1'b1;
        ao_ch_o <= ac;
        ao_kind_o <= ao_kind;
        ao_base_o <= exp_c[ac];
        ao_hi_o <= hi_c[ac];
        ao_code_o <= cfg_bmap_code_i > 3'd4 ? 3'd4 : cfg_bmap_code_i;
        ao_n_q <= ao_kind == KSack ? 5'(bits[10:6]) : 5'd0;
        ao_off_q <= '0;
      end else if (ao_free) begin
        ao_valid_o <= 1'b0;
      end
      ao_wvalid_o <= ao_n_q != 5'd0;
      if (ao_n_q != 5'd0) begin
        ao_word_o <= ao_w;
        ao_n_q <= ao_n_q - 5'd1;
        ao_off_q <= ao_off_q + 11'd64;
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

  // per channel, from the registers as they stand (the sequence registers
  // read as cfg_psn_init until the first edge)
  logic [CH-1:0] a_win, a_rptr_in, a_rend_in, a_held;
  always_comb begin
    for (int c = 0; c < CH; c++) begin
      logic [23:0] fl;
      fl = nxt_c[c] - una_c[c];
      // nothing sent beyond the window (the ring's size at most)
      a_win[c] = fl <= (cfg_window_i > 11'(W) ? 24'(W) : {13'd0, cfg_window_i});
      // the resend scan inside the flight (a failed channel stops anywhere)
      a_rptr_in[c] = fail_q[c] || (rptr_c[c] - una_c[c]) <= fl;
      a_rend_in[c] = fail_q[c] || (rend_c[c] - una_c[c]) <= fl;
      // the receiver holds as many packets as its ring has bits
      a_held[c] = 32'(held_q[c]) == $countones(ring_q[c]);
    end
  end
  `UB_ASSERT(NothingBeyondTheWindow, &a_win)
  `UB_ASSERT(ResendScanInsideTheFlight, &(a_rptr_in & a_rend_in))
  `UB_ASSERT(HeldCountIsTheRing, &a_held)
  // a failed channel stays failed; the new-packet FIFO never over 2
  `UB_ASSERT(FailIsKept, ($past(fail_q) & ~fail_q) == '0)
  `UB_ASSERT(FifoNeverOverTwo, sq_n_q <= 2'd2)
  // a packet is delivered once: the one its channel expected, which then
  // moves on past it
  `UB_ASSERT(DeliveredOnceInOrder, !dlv_valid_o || exp_q[dlv_ch_o] == dlv_psn_o + 24'd1)
  // a SACK's words go out behind their header, which stays
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
    if (emit_n) desc_q[{hc, nxt_c[hc][IW-1:0]}] <= sq_h0_q;
    if (emit_r) rhdl_q <= desc_q[{cs, rp[IW-1:0]}];
  end
  assign pkt_hdl_o = pkt_retx_o ? rhdl_q : nhdl_q;

  // busy: from the registers
  always_comb begin
    logic b;
    b = sq_n_q != 2'd0 || pkt_valid_o || ao_valid_o || dlv_valid_o || rxv_valid_o ||
        ack_pend_q != '0 || nak_pend_q != '0 || mg_q.n != 5'd0 || mg_q.tail || ao_n_q != 5'd0;
    for (int c = 0; c < CH; c++)
      b = b || (!fail_q[c] && (nxt_c[c] != una_c[c] || rptr_c[c] != rend_c[c])) || held_q[c] != '0;
    busy_o = b;
  end

endmodule
