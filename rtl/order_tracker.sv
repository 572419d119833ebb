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
  function automatic logic wait_of(input logic [2:0] mode, input logic [1:0] order,
                                   input logic fence);
    if (mode == ub_pkg::UrmaNo) begin
      wait_of = 1'b0;                                   // unreliable: no ordering
    end else if (fence) begin
      wait_of = 1'b1;                                   // fence
    end else if (mode == ub_pkg::UrmaOt) begin
      wait_of = 1'b0;                                   // the target orders
    end else begin
      wait_of = (order == ub_pkg::UbOrderSo);           // ROI, ROL: SO waits
    end
  endfunction

  // The queues side by side. Every per-queue value is a lane of a vector:
  // one bit per queue for the flags ([q]); a FIFO is Depth such vectors,
  // one per entry, in one vector of FW bits (entry k of queue q is bit
  // k*NumQueues + q, entry 0 the head). So the logic of all queues is one
  // expression (the same LUTs as a loop over the queues; a simulator
  // evaluates it a word at a time): a flag per queue applies to every entry
  // as a replication, an entry is a slice, a pop moves the entries down by
  // NumQueues bits.
  localparam int FW = NumQueues * Depth;
  // every queue's entry 0 (written out bit by bit:
  // yosys 0.23 sizes a cast inside a replication as 32 bits)
  localparam logic [FW-1:0] Entry0   = {{(FW-NumQueues){1'b0}}, {NumQueues{1'b1}}};

  // An event of this edge, decoded: one bit per queue (one LUT per bit).
  function automatic logic [NumQueues-1:0] onehot(input logic valid, input logic [2:0] q);
    onehot = {NumQueues{valid}} & (NumQueues'(1) << q);
  endfunction

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
  //  - the FIFO: wait_q's entries hold the wait bits, entry 0 the head;
  //    occ_q's that the entry holds a request (per queue a thermometer: the
  //    fill is its ones, so entry 0 is "known", the last "full"). A pop
  //    shifts both down by one entry; a push writes the first free entry
  //    (after the pop's shift). The entries past the fill hold nothing anyone reads (the
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

  // The state is the bank of the last edge's pick. Here, what the outputs
  // need of it (whether each queue knows a request, whether it has some
  // outstanding); the rest inside the clocked block below, where it is
  // stepped (the same logic, which a simulator then works out only at the
  // edges that change something).
  logic [NumQueues-1:0] picked, known, counted;
  assign picked  = {NumQueues{pick_valid_q}} & (NumQueues'(1) << pick_q_q);
  assign known   = (occ_q[1][NumQueues-1:0] & picked) | (occ_q[0][NumQueues-1:0] & ~picked);
  assign counted = (nz_q[1] & picked) | (nz_q[0] & ~picked);

  // Nothing changes at an edge without a pick, a completion or an accepted
  // request, if the last edge picked nothing either: bank 0 is then the
  // state as it stands, bank 1 is read only after a pick, and the outputs
  // are bank 0's. So the registers below are enabled by those four (a
  // simulator skips the edges between a request's events).
  logic active;
  assign active = pick_valid_i || pick_valid_q || cmp_valid_i || acc_valid_i;

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
    end else if (active) begin
      logic [NumQueues-1:0] pick_oh, cmp_oh, acc_oh;
      logic                 acc_wait;
      logic [NumQueues-1:0] nz_s, one_s, max_s, max1_s;
      logic [FW-1:0]        wait_s, occ_s, picked_e;
      logic [NumQueues-1:0] inc, dec, up0, down0, up1, down1, hold, ok, nz_d, max_d, e0, e1, h0, h1;
      logic [NumQueues-1:0] out_two, out_max2;
      logic [FW-1:0]        occ_base, occ_low, wait_base, push, occ_d, wait_d;
      e0 = '0; e1 = '0; h0 = '0; h1 = '0;
      // this edge's events
      pick_oh  = onehot(pick_valid_i, pick_q_i);
      cmp_oh   = onehot(cmp_valid_i, cmp_q_i);
      acc_oh   = onehot(acc_valid_i, acc_q_i);
      acc_wait = wait_of(acc_mode_i, acc_order_i, acc_fence_i);
      // the state: the bank of the last edge's pick
      picked_e = {Depth{picked}};
      wait_s   = (wait_q[1] & picked_e) | (wait_q[0] & ~picked_e);
      occ_s    = (occ_q[1] & picked_e) | (occ_q[0] & ~picked_e);
      nz_s     = counted;
      one_s    = (one_q[1] & picked) | (one_q[0] & ~picked);
      max_s    = (max_q[1] & picked) | (max_q[0] & ~picked);
      max1_s   = (max1_q[1] & picked) | (max1_q[0] & ~picked);
      // The count: a pick counts one more unless saturated, a completion
      // one less (after the pick's) unless there is none; a pick and a
      // completion at one edge cancel out. Bank 0 has no pick (so it only
      // steps down), bank 1 has one.
      inc   = ~max_s;
      dec   = cmp_oh & (inc | nz_s);
      up1   = inc & ~dec;
      down1 = dec & ~inc;
      up0   = '0;
      down0 = cmp_oh & nz_s;
      // Each count, from the bank of the last edge's pick, one up and one
      // down (carry chains), and the two compares a step of the flags needs
      // (what "== 1" and "== CntMax - 1" become after a step down / up).
      out_two  = '0;
      out_max2 = '0;
      for (int q = 0; q < NumQueues; q++) begin
        logic [CntW-1:0] os, oi, od;
`ifdef VERILATOR
        // (the Verilated model steps only the counts this edge can change:
        // the queue picked at the last edge, whose bank 0 takes bank 1's
        // count, and the queues picked or completed at this one; any other
        // queue's bank 0 holds, and its bank 1 is read only after a pick of
        // it, which steps it first. Synthesis and the proofs read every
        // queue stepped, the same values where they are read.)
        if (picked[q] || pick_oh[q] || cmp_oh[q]) begin
`endif
        os = picked[q] ? out_q[1][q] : out_q[0][q];
        oi = os + CntW'(1);
        od = os - CntW'(1);
        out_two[q]  = (os == CntW'(2));
        out_max2[q] = (os == CntMax - CntW'(2));
        out_q[0][q] <= down0[q] ? od : os;
        out_q[1][q] <= up1[q] ? oi : (down1[q] ? od : os);
`ifdef VERILATOR
        end
`endif
      end
      for (int pk = 0; pk < 2; pk++) begin
        logic [NumQueues-1:0] up, down;
        up   = (pk == 1) ? up1 : up0;
        down = (pk == 1) ? down1 : down0;
        hold = ~(up | down);
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
          occ_base  = occ_s >> NumQueues;
          wait_base = wait_s >> NumQueues;
          occ_low   = occ_s | Entry0;
        end else begin
          occ_base  = occ_s;
          wait_base = wait_s;
          occ_low   = (occ_s << NumQueues) | Entry0;
        end
        // ... and the push into its first free entry (none when full: the
        // request is not kept)
        push   = {Depth{acc_oh}} & occ_low & ~occ_base;
        occ_d  = occ_base | push;
        wait_d = (push & {FW{acc_wait}}) | (~push & wait_base);
        occ_q[pk]  <= occ_d;
        wait_q[pk] <= wait_d;
        // The new head's eligibility (the rules table)
        ok = ~max_d & (~wait_d[NumQueues-1:0] | ~nz_d);
        if (pk == 1) begin
          e1 = occ_d[NumQueues-1:0] & ok;
          h1 = occ_d[NumQueues-1:0] & ~ok;
        end else begin
          e0 = occ_d[NumQueues-1:0] & ok;
          h0 = occ_d[NumQueues-1:0] & ~ok;
        end
      end
      // the pick selects the outcome in the last LUT (pick_valid_i,
      // pick_q_i and the two outcomes: one LUT6 per bit)
      elig_q <= (pick_oh & e1) | (~pick_oh & e0);
      held_q <= (pick_oh & h1) | (~pick_oh & h0);
    end
  end

  `UB_ASSERT_INIT(QueuesFitThePorts, NumQueues == 8 && Depth == 8)

  // Assertions and the logic only they read: compiled when they are checked
  // (rtl/prim_assert.svh), so a simulation that does not check them does
  // not evaluate it.
`ifdef UB_ASSERT_ON
  `UB_ASSERT_SETUP
`ifdef FORMAL
  // (the proof) the first cycle is in reset
  initial assume (!rst_ni);
`endif

  // (for the assertions) per queue: checks of its registers, and values now
  // and as the C model steps them (cmodel/order_tracker.c: a pick pops only
  // a queue that holds a request, a push is dropped when the queue is full
  // after the pop; the count steps up on a pick unless saturated, then down
  // on a completion unless zero)
  // the state as it stands (the bank of the last edge's pick)
`ifdef VERILATOR
  localparam bit SkipBank1 = 1'b1;
`else
  localparam bit SkipBank1 = 1'b0;
`endif
  logic [CntW-1:0]           out_s [NumQueues];
  logic [FW-1:0]             wait_s, occ_s;
  logic [NumQueues-1:0]      nz_s, max_s;
  always_comb begin
    for (int q = 0; q < NumQueues; q++) begin
      out_s[q] = picked[q] ? out_q[1][q] : out_q[0][q];
    end
    wait_s = (wait_q[1] & {Depth{picked}}) | (wait_q[0] & ~{Depth{picked}});
    occ_s  = (occ_q[1] & {Depth{picked}}) | (occ_q[0] & ~{Depth{picked}});
    nz_s   = counted;
    max_s  = (max_q[1] & picked) | (max_q[0] & ~picked);
  end
  logic [NumQueues-1:0]      a_fill_ok, a_flags_ok, a_elig_rule;
  logic [NumQueues-1:0]      a_second, a_head, a_max, a_zero;
  logic [4*NumQueues-1:0]    a_fill;
  logic [CntW*NumQueues-1:0] a_out;
  // queue q's FIFO (entry 0 its bit 0)
  function automatic logic [Depth-1:0] lane(input logic [FW-1:0] v, input int q);
    for (int k = 0; k < Depth; k++) begin
      lane[k] = v[k*NumQueues + q];
    end
  endfunction
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
      os = lane(occ_s, q);
      ws = {wait_s[NumQueues + q], wait_s[q]};
      o0 = lane(occ_q[0], q);
      o1 = lane(occ_q[1], q);
      a_fill[4*q +: 4]      = fill_of(os);
      a_out[CntW*q +: CntW] = out_s[q];
      a_second[q] = ws[1];
      a_head[q]   = ws[0];
      a_max[q]    = (out_s[q] == CntMax);
      a_zero[q]   = (out_s[q] == '0);
      // both banks hold a state the queue can be in (a FIFO filled from
      // entry 0 up, flags equal to the compares they stand for)
      a_fill_ok[q] = ((o0 & (o0 + Depth'(1))) == '0) && ((o1 & (o1 + Depth'(1))) == '0);
      // (the Verilated model steps a queue's bank 1 only when it can be read:
      // there, bank 1 where it is read, the queue picked at the last edge;
      // synthesis and the proofs check both banks of every queue)
      a_flags_ok[q] = 1'b1;
      for (int pk = 0; pk < 2; pk++) begin
        a_flags_ok[q] = a_flags_ok[q] && ((pk == 1 && !picked[q] && SkipBank1) ||
            (nz_q[pk][q] == (out_q[pk][q] != '0)) && (one_q[pk][q] == (out_q[pk][q] == CntW'(1))) &&
            (max_q[pk][q] == (out_q[pk][q] == CntMax)) &&
            (max1_q[pk][q] == (out_q[pk][q] == CntMax - CntW'(1))));
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
  logic [NumQueues-1:0]      pick_oh, cmp_oh, acc_oh;
  assign pick_oh = onehot(pick_valid_i, pick_q_i);
  assign cmp_oh  = onehot(cmp_valid_i, cmp_q_i);
  assign acc_oh  = onehot(acc_valid_i, acc_q_i);
  logic [4*NumQueues-1:0]    a_fill_next_q;
  logic [CntW*NumQueues-1:0] a_out_next_q;
  logic [NumQueues-1:0]      a_pop2_q;
  always_ff @(posedge clk_i) begin
    for (int q = 0; q < NumQueues; q++) begin
      logic [Depth-1:0] os;
      logic             pop_m, push_m, inc_m, dec_m;
      logic [CntW-1:0]  out_m;
      os     = lane(occ_s, q);
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
`endif

  assign elig_o = elig_q;
  assign held_o = held_q;
  assign busy_o = |(known | counted);

endmodule
