// Order tracker: when each initiator's next request may be issued.
//
// RTL twin of cmodel/order_tracker.c; both agree on every port cycle for
// cycle. The rules table is docs/order_tracker.md.
//
// Per queue of the send pipeline (one per initiator) it keeps the requests
// accepted and not yet picked (a FIFO of 8), and the number of requests
// picked whose completions have not come back (24 bits, saturating). At every
// edge: a pick pops its queue's head and counts one more outstanding, a
// completion counts one less, an accepted request is pushed behind its
// queue. The outputs are registers: elig_o[q] says the head of queue q may be
// picked at the next edge, held_o[q] that it waits for completions.
//
// Built for speed (docs/order_tracker.md, "The hardware"): the picker that
// drives pick_valid_i / pick_q_i is deep, so the pick is only ever the select
// of the last LUT in front of a register: each queue works out its next
// registers both for "picked at this edge" and "not picked" (banks 1 and
// 0) from its registers, the completion and the accepted request. No
// compare or add of the outstanding count lies behind an event either: its
// "== 0", "== 1", "== max" and "== max - 1" are flags held in registers
// beside it, stepped with it. The FIFO holds of a request only the one bit
// the rules table asks of a head (whether it must wait for its initiator's
// completions) and is a shift register whose entry 0 is the head.
//
// Constants come from rtl/ub_pkg.sv; the port list is
// cmodel/order_tracker_ports.h.
`include "prim_assert.svh"

module order_tracker #(
  // the outstanding count's width (24 as the C model's; the proof runs a
  // narrower one, docs/formal.md: no logic depends on the width)
  parameter int CntW = 24
) (
  input  logic       clk_i,
  input  logic       rst_ni,
  // a request the send pipeline accepts
  input  logic       acc_valid_i,
  input  logic [2:0] acc_q_i,
  input  logic [2:0] acc_mode_i,
  input  logic [1:0] acc_order_i,
  input  logic       acc_fence_i,
  // the head the scheduler picked
  input  logic       pick_valid_i,
  input  logic [2:0] pick_q_i,
  // a completion came back
  input  logic       cmp_valid_i,
  input  logic [2:0] cmp_q_i,
  output logic [7:0] elig_o,
  output logic [7:0] held_o,
  output logic       busy_o
);

  localparam int NumQueues = ub_pkg::UbspNumQueues;  // one per initiator
  localparam int Depth     = 8;                      // requests known per queue
  localparam logic [CntW-1:0] CntMax = {CntW{1'b1}};  // (not '1: yosys 0.23 reads that as 1 here)

  // The rules table asks one thing of a request's order fields: whether, at
  // the head of its queue, it must wait until its initiator has nothing
  // outstanding. A head may go when the count is not saturated and it need
  // not wait or nothing is outstanding:
  //   ok = (out != CntMax) && (!wait || out == 0).
  // One LUT of the accepted request's fields; the FIFO keeps only this bit.
  logic acc_wait;
  always_comb begin
    if (acc_mode_i == ub_pkg::UrmaNo) begin
      acc_wait = 1'b0;                                  // unreliable: no ordering
    end else if (acc_fence_i) begin
      acc_wait = 1'b1;                                  // fence
    end else if (acc_mode_i == ub_pkg::UrmaOt) begin
      acc_wait = 1'b0;                                  // the target orders
    end else begin
      acc_wait = (acc_order_i == ub_pkg::UbOrderSo);    // ROI, ROL: SO waits
    end
  end

  // The queues side by side. Every per-queue value is a lane of a vector:
  // one bit per queue for the flags ([q]), eight bits per queue for a FIFO
  // ([q*Depth +: Depth], bit 0 the head), so that the logic of all queues is
  // one expression (the same LUTs as a loop over the queues; a simulator
  // evaluates it a word at a time).
  localparam int FW = NumQueues * Depth;
  // each lane's entry 0, each lane's last entry (written out bit by bit:
  // yosys 0.23 sizes a cast inside a replication as 32 bits)
  localparam logic [FW-1:0] LaneLow = {NumQueues{{(Depth-1){1'b0}}, 1'b1}};
  localparam logic [FW-1:0] LaneTop = {NumQueues{1'b1, {(Depth-1){1'b0}}}};
  // a flag per queue, spread over its FIFO lane
  function automatic logic [FW-1:0] spread(input logic [NumQueues-1:0] v);
    for (int q = 0; q < NumQueues; q++) begin
      spread[q*Depth +: Depth] = {Depth{v[q]}};
    end
  endfunction
  // entry k of every lane, as a flag per queue
  function automatic logic [NumQueues-1:0] entry(input logic [FW-1:0] v, input int k);
    for (int q = 0; q < NumQueues; q++) begin
      entry[q] = v[q*Depth + k];
    end
  endfunction

  // this edge's events, decoded (a compare per queue, one LUT per bit)
  logic [NumQueues-1:0] pick_oh, cmp_oh, acc_oh;
  always_comb begin
    for (int q = 0; q < NumQueues; q++) begin
      pick_oh[q] = pick_valid_i && (pick_q_i == 3'(q));
      cmp_oh[q]  = cmp_valid_i && (cmp_q_i == 3'(q));
      acc_oh[q]  = acc_valid_i && (acc_q_i == 3'(q));
    end
  end

  // The pick of the last edge, as it came (no logic in front of these).
  logic       pick_valid_q;
  logic [2:0] pick_q_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pick_valid_q <= 1'b0;
      pick_q_q     <= '0;
    end else begin
      pick_valid_q <= pick_valid_i;
      pick_q_q     <= pick_q_i;
    end
  end

  // The queues' state (after the last edge) is kept twice, in two banks:
  // bank 1 holds it as it is if the scheduler picked the queue at the last
  // edge, bank 0 as it is if not; both were worked out before that edge,
  // and the last edge's pick, registered as it came, selects one (picked).
  // So the pick never reaches these registers: only elig_q / held_q,
  // through the last LUT in front of them. The state of a queue:
  //  - the FIFO: wait_q's lane holds the wait bits, entry 0 the head; occ_q's
  //    lane that the entry holds a request (a thermometer: the fill is its
  //    ones, so entry 0 is "known", the last "full"). A pop shifts both down
  //    by one entry; a push writes the first free entry (after the pop's
  //    shift). The entries past the fill hold nothing anyone reads (the
  //    wait bits are reset with the rest only to share its clocked block);
  //  - the outstanding count out_q and its flags nz_q, one_q, max_q, max1_q
  //    (out != 0, == 1, == CntMax, == CntMax - 1), stepped with the count,
  //    so that whether it is zero or saturated after an edge is logic of a
  //    few flags, not a compare of the count's next value.
  logic [FW-1:0]        wait_q [2];
  logic [FW-1:0]        occ_q  [2];
  logic [CntW-1:0]      out_q  [2][NumQueues];
  logic [NumQueues-1:0] nz_q [2], one_q [2], max_q [2], max1_q [2];
  logic [NumQueues-1:0] elig_q, held_q;

  // The state: the bank of the last edge's pick, and from it alone, settled
  // early in the cycle, the count one up and one down (carry chains) and the
  // two compares a step of the flags needs (what "== 1" and "== CntMax - 1"
  // become after a step down / up).
  logic [NumQueues-1:0] picked, nz_s, one_s, max_s, max1_s, out_two, out_max2;
  logic [FW-1:0]        wait_s, occ_s;
  logic [CntW-1:0]      out_s [NumQueues], out_inc [NumQueues], out_dec [NumQueues];
  always_comb begin
    for (int q = 0; q < NumQueues; q++) begin
      picked[q] = pick_valid_q && (pick_q_q == 3'(q));
    end
    wait_s = (wait_q[1] & spread(picked)) | (wait_q[0] & ~spread(picked));
    occ_s  = (occ_q[1] & spread(picked)) | (occ_q[0] & ~spread(picked));
    nz_s   = (nz_q[1] & picked) | (nz_q[0] & ~picked);
    one_s  = (one_q[1] & picked) | (one_q[0] & ~picked);
    max_s  = (max_q[1] & picked) | (max_q[0] & ~picked);
    max1_s = (max1_q[1] & picked) | (max1_q[0] & ~picked);
    for (int q = 0; q < NumQueues; q++) begin
      out_s[q]    = picked[q] ? out_q[1][q] : out_q[0][q];
      out_inc[q]  = out_s[q] + CntW'(1);
      out_dec[q]  = out_s[q] - CntW'(1);
      out_two[q]  = (out_s[q] == CntW'(2));
      out_max2[q] = (out_s[q] == CntMax - CntW'(2));
    end
  end

  // The two outcomes of this edge, bank 1 (the queue picked at it) and bank
  // 0 (not), each logic of the state, this edge's completion and accepted
  // request, registered as is; the outputs' registers take the outcome of
  // this edge's pick. (Worked out inside the clocked block: the same logic,
  // which a simulator then evaluates once, at the edge.)
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int pk = 0; pk < 2; pk++) begin
        occ_q[pk]  <= '0;
        wait_q[pk] <= '0;
        nz_q[pk]   <= '0;
        one_q[pk]  <= '0;
        max_q[pk]  <= '0;
        max1_q[pk] <= '0;
        for (int q = 0; q < NumQueues; q++) begin
          out_q[pk][q] <= '0;
        end
      end
      elig_q <= '0;
      held_q <= '0;
    end else begin
      logic [NumQueues-1:0] inc, dec, up, down, hold, ok, nz_d, max_d, e0, e1, h0, h1;
      logic [FW-1:0]        occ_base, occ_low, wait_base, push, occ_d, wait_d;
      e0 = '0; e1 = '0; h0 = '0; h1 = '0;
      for (int pk = 0; pk < 2; pk++) begin
        // The count: a pick counts one more unless saturated, a completion
        // one less (after the pick's) unless there is none; a pick and a
        // completion at one edge cancel out.
        inc  = (pk == 1) ? ~max_s : '0;
        dec  = cmp_oh & (inc | nz_s);
        up   = inc & ~dec;
        down = dec & ~inc;
        hold = ~(up | down);
        for (int q = 0; q < NumQueues; q++) begin
          out_q[pk][q] <= ({CntW{up[q]}} & out_inc[q]) | ({CntW{down[q]}} & out_dec[q]) |
                          ({CntW{hold[q]}} & out_s[q]);
        end
        nz_d = up | (down & ~one_s) | (hold & nz_s);
        max_d = (up & max1_s) | (hold & max_s);
        nz_q[pk]   <= nz_d;
        one_q[pk]  <= (up & ~nz_s) | (down & out_two) | (hold & one_s);
        max_q[pk]  <= max_d;
        max1_q[pk] <= (up & out_max2) | (down & max_s) | (hold & max1_s);
        // The FIFO after the pick (a pick of an empty queue pops nothing:
        // shifting an empty FIFO leaves it empty), then occ_low: that the
        // entry below holds a request after the pop (or it is entry 0) ...
        if (pk == 1) begin
          occ_base  = (occ_s >> 1) & ~LaneTop;
          wait_base = (wait_s >> 1) & ~LaneTop;
          occ_low   = occ_s | LaneLow;
        end else begin
          occ_base  = occ_s;
          wait_base = wait_s;
          occ_low   = ((occ_s << 1) & ~LaneLow) | LaneLow;
        end
        // ... and the push into its first free entry (none when full: the
        // request is not kept)
        push   = spread(acc_oh) & occ_low & ~occ_base;
        occ_d  = occ_base | push;
        wait_d = (push & {FW{acc_wait}}) | (~push & wait_base);
        occ_q[pk]  <= occ_d;
        wait_q[pk] <= wait_d;
        // The new head's eligibility (the rules table)
        ok = ~max_d & (~entry(wait_d, 0) | ~nz_d);
        if (pk == 1) begin
          e1 = entry(occ_d, 0) & ok;
          h1 = entry(occ_d, 0) & ~ok;
        end else begin
          e0 = entry(occ_d, 0) & ok;
          h0 = entry(occ_d, 0) & ~ok;
        end
      end
      // the pick selects the outcome in the last LUT (pick_valid_i,
      // pick_q_i and the two outcomes: one LUT6 per bit)
      elig_q <= (pick_oh & e1) | (~pick_oh & e0);
      held_q <= (pick_oh & h1) | (~pick_oh & h0);
    end
  end

  logic [NumQueues-1:0] known, counted;
  assign known   = entry(occ_s, 0);
  assign counted = nz_s;

  `UB_ASSERT_SETUP
`ifdef FORMAL
  // (the proof) the first cycle is in reset
  initial assume (!rst_ni);
`endif
  `UB_ASSERT_INIT(QueuesFitThePorts, NumQueues == 8 && Depth == 8)

  // (for the assertions) per queue: checks of its registers, and values now
  // and as the C model steps them (cmodel/order_tracker.c: a pick pops only
  // a queue that holds a request, a push is dropped when the queue is full
  // after the pop; the count steps up on a pick unless saturated, then down
  // on a completion unless zero)
  logic [NumQueues-1:0]      a_fill_ok, a_flags_ok, a_elig_rule;
  logic [NumQueues-1:0]      a_second, a_head, a_max, a_zero;
  logic [4*NumQueues-1:0]    a_fill;
  logic [CntW*NumQueues-1:0] a_out;
  // the number of requests a FIFO holds
  function automatic logic [3:0] fill_of(logic [Depth-1:0] occ);
    fill_of = '0;
    for (int k = 0; k < Depth; k++) begin
      fill_of = fill_of + 4'(occ[k]);
    end
  endfunction
  always_comb begin
    for (int q = 0; q < NumQueues; q++) begin
      logic [Depth-1:0] os, o0, o1;
      logic [1:0]       ws;  // the head's and the next entry's wait bits
      os = occ_s[q*Depth +: Depth];
      ws = wait_s[q*Depth +: 2];
      o0 = occ_q[0][q*Depth +: Depth];
      o1 = occ_q[1][q*Depth +: Depth];
      a_fill[4*q +: 4]      = fill_of(os);
      a_out[CntW*q +: CntW] = out_s[q];
      a_second[q] = ws[1];
      a_head[q]   = ws[0];
      a_max[q]    = (out_s[q] == CntMax);
      a_zero[q]   = (out_s[q] == '0);
      // both banks hold a state the queue can be in (a FIFO filled from
      // entry 0 up, flags equal to the compares they stand for)
      a_fill_ok[q] = ((o0 & (o0 + Depth'(1))) == '0) && ((o1 & (o1 + Depth'(1))) == '0);
      a_flags_ok[q] = 1'b1;
      for (int pk = 0; pk < 2; pk++) begin
        a_flags_ok[q] = a_flags_ok[q] &&
            (nz_q[pk][q] == (out_q[pk][q] != '0)) && (one_q[pk][q] == (out_q[pk][q] == CntW'(1))) &&
            (max_q[pk][q] == (out_q[pk][q] == CntMax)) &&
            (max1_q[pk][q] == (out_q[pk][q] == CntMax - CntW'(1)));
      end
      // the outputs: elig is the rules table applied to the head
      a_elig_rule[q] = (elig_q[q] == (known[q] && !max_s[q] && (!ws[0] || !nz_s[q])));
    end
  end

  // (for the assertions) the model's values for after this edge, worked out
  // and taken at the edge (so a simulator evaluates them once per edge; and
  // not $past, which takes the sampled values, from before the inputs of
  // this edge were driven when they change with the clock, as the
  // simulator's shims drive them)
  logic [4*NumQueues-1:0]    a_fill_next_q;
  logic [CntW*NumQueues-1:0] a_out_next_q;
  logic [NumQueues-1:0]      a_pop2_q;
  always_ff @(posedge clk_i) begin
    for (int q = 0; q < NumQueues; q++) begin
      logic [Depth-1:0] os;
      logic             pop_m, push_m, inc_m, dec_m;
      logic [CntW-1:0]  out_m;
      os     = occ_s[q*Depth +: Depth];
      pop_m  = pick_oh[q] && os[0];
      push_m = acc_oh[q] && (pop_m || !os[Depth-1]);
      inc_m  = pick_oh[q] && (out_s[q] != CntMax);
      out_m  = out_s[q] + CntW'(inc_m);
      dec_m  = cmp_oh[q] && (out_m != '0);
      a_fill_next_q[4*q +: 4]      <= fill_of(os) - 4'(pop_m) + 4'(push_m);
      a_out_next_q[CntW*q +: CntW] <= out_m - CntW'(dec_m);
      a_pop2_q[q]                  <= pop_m && os[1];
    end
  end

  // The invariants. The FIFOs: never over Depth, never under 0 (each a
  // thermometer of at most Depth ones), their fill steps as the model's, a
  // pop moves the entry behind the head to the head.
  `UB_ASSERT(FifoFillFromTheHead, &a_fill_ok)
  `UB_ASSERT(FifoFillSteps, a_fill == a_fill_next_q)
  `UB_ASSERT(FifoPopMovesUp, ((a_head ^ $past(a_second)) & a_pop2_q) == '0)
  // The counts: the model's step, so they saturate and never wrap; their
  // flags equal the compares they stand for (in both banks).
  `UB_ASSERT(CountSteps, a_out == a_out_next_q)
  `UB_ASSERT(CountNeverWraps, (($past(a_max) & a_zero) | ($past(a_zero) & a_max)) == '0)
  `UB_ASSERT(CountFlags, &a_flags_ok)
  // The outputs: elig and held never both, one of them exactly when the
  // queue knows a request, elig by the rules table.
  `UB_ASSERT(EligNotHeld, (elig_q & held_q) == '0)
  `UB_ASSERT(EligOrHeldWhenKnown, (elig_q | held_q) == known)
  `UB_ASSERT(EligByTheRules, &a_elig_rule)
  // busy: some queue knows a request or has some outstanding
  `UB_ASSERT(BusyWhenKnownOrCounted, busy_o == ((known != '0) || (counted != '0)))

  assign elig_o = elig_q;
  assign held_o = held_q;
  assign busy_o = |(known | counted);

endmodule
