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
// registers both for "picked at this edge" and "not picked" (g_out[1],
// g_out[0]) from its registers, the completion and the accepted request. No
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

  // The per-queue flags, one bit per queue: the outputs' registers (each
  // written only by its own queue's block below), which queues hold a request
  // or have some outstanding (logic of the registers); and the queues with an
  // event at this edge. (Decoded by compares, one LUT per bit: a shift would
  // become a tree of wide multiplexers.)
  logic [NumQueues-1:0] elig_q, held_q, known, counted;
  logic [NumQueues-1:0] pick_oh, cmp_oh, acc_oh;
  for (genvar q = 0; q < NumQueues; q++) begin : g_event
    assign pick_oh[q] = pick_valid_i && (pick_q_i == 3'(q));
    assign cmp_oh[q]  = cmp_valid_i && (cmp_q_i == 3'(q));
    assign acc_oh[q]  = acc_valid_i && (acc_q_i == 3'(q));
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

  `UB_ASSERT_SETUP
`ifdef FORMAL
  // (the proof) the first cycle is in reset
  initial assume (!rst_ni);
`endif
  `UB_ASSERT_INIT(QueuesFitThePorts, NumQueues == 8 && Depth == 8)

  // (for the assertions) per queue, from the queues' blocks below: checks
  // of its registers, and values now and as the C model steps them
  logic [NumQueues-1:0]      a_fill_ok, a_flags_ok, a_elig_rule;
  logic [NumQueues-1:0]      a_pop2, a_second, a_head, a_max, a_zero;
  logic [4*NumQueues-1:0]    a_fill, a_fill_next;
  logic [CntW*NumQueues-1:0] a_out, a_out_next;
  // the number of requests a FIFO holds
  function automatic logic [3:0] fill_of(logic [Depth-1:0] occ);
    fill_of = '0;
    for (int k = 0; k < Depth; k++) begin
      fill_of = fill_of + 4'(occ[k]);
    end
  endfunction

  // One block of registers per queue (the queues never interact).
  for (genvar q = 0; q < NumQueues; q++) begin : g_queue
    // The queue's state (after the last edge) is kept twice: g_pk[1] holds it
    // as it is if the scheduler picked this queue at the last edge, g_pk[0]
    // as it is if not; both were worked out before that edge, and the last
    // edge's pick, registered as it came, selects one (picked_q). So the pick
    // never reaches these registers: only elig_q / held_q, through the last
    // LUT in front of them. The state:
    //  - the FIFO: wait_s[k] is entry k's wait bit, entry 0 the head;
    //    occ_s[k] that entry k holds a request (a thermometer: the fill is
    //    its ones, so occ_s[0] is "known", occ_s[Depth-1] "full"). A pop
    //    shifts both down by one entry; a push writes the first free entry
    //    (after the pop's shift). The entries past the fill hold nothing
    //    anyone reads, so the wait bits have no reset;
    //  - the outstanding count out_s and its flags nz_s, one_s, max_s, max1_s
    //    (out_s != 0, == 1, == CntMax, == CntMax - 1), stepped with the
    //    count, so that whether it is zero or saturated after an edge is
    //    logic of a few flags, not a compare of the count's next value.
    logic             picked_q, cmp_e, acc_e;
    logic [Depth-1:0] wait_s, occ_s;
    logic [CntW-1:0]  out_s;
    logic             nz_s, one_s, max_s, max1_s;

    // From the state alone, settled early in the cycle: the count one up and
    // one down (carry chains), and the two compares a step of the flags needs
    // (what "== 1" and "== CntMax - 1" become after a step down / up).
    logic [CntW-1:0] out_inc, out_dec;
    logic            out_two, out_max2;
    assign out_inc  = out_s + CntW'(1);
    assign out_dec  = out_s - CntW'(1);
    assign out_two  = (out_s == CntW'(2));
    assign out_max2 = (out_s == CntMax - CntW'(2));

    // The two outcomes of this edge: g_pk[1] if the scheduler picks this
    // queue at it, g_pk[0] if not. Each is logic of the state, this edge's
    // completion and accepted request, and is registered as is (its bank).
    for (genvar pk = 0; pk < 2; pk++) begin : g_pk
      // the bank
      logic [Depth-1:0] wait_q, occ_q;
      logic [CntW-1:0]  out_q;
      logic             nz_q, one_q, max_q, max1_q;
      // the outcome (elig_d / held_d are nets of their own: the pick selects
      // between the two eligibilities in the LUT in front of elig_q / held_q)
      logic             inc, dec, up, down, hold, ok;
      logic [Depth-1:0] occ_base, occ_low, tail, push, wait_base;
      logic [Depth-1:0] wait_d, occ_d;
      logic [CntW-1:0]  out_d;
      logic             nz_d, one_d, max_d, max1_d;
      (* keep *) logic  elig_d, held_d;
      // The count: a pick counts one more unless saturated, a completion one
      // less (after the pick's) unless there is none; a pick and a
      // completion at one edge cancel out.
      assign inc    = (pk == 1) && !max_s;
      assign dec    = cmp_e && (inc || nz_s);
      assign up     = inc && !dec;
      assign down   = dec && !inc;
      assign hold   = !up && !down;
      assign out_d  = ({CntW{up}} & out_inc) | ({CntW{down}} & out_dec) | ({CntW{hold}} & out_s);
      assign nz_d   = up || (down && !one_s) || (hold && nz_s);
      assign one_d  = (up && !nz_s) || (down && out_two) || (hold && one_s);
      assign max_d  = (up && max1_s) || (hold && max_s);
      assign max1_d = (up && out_max2) || (down && max_s) || (hold && max1_s);
      // The FIFO after the pick (a pick of an empty queue pops nothing:
      // shifting an empty FIFO leaves it empty): base; occ_low[k], that
      // entry k-1 holds a request after the pop (or k is 0) ...
      if (pk == 1) begin : g_pop
        assign occ_base  = {1'b0, occ_s[Depth-1:1]};
        assign wait_base = {1'b0, wait_s[Depth-1:1]};
        assign occ_low   = occ_s | Depth'(1);
      end else begin : g_stay
        assign occ_base  = occ_s;
        assign wait_base = wait_s;
        assign occ_low   = {occ_s[Depth-2:0], 1'b1};
      end
      // ... and the push into its first free entry (none when full: the
      // request is not kept)
      assign tail   = occ_low & ~occ_base;
      assign push   = {Depth{acc_e}} & tail;
      assign occ_d  = occ_base | push;
      assign wait_d = (push & {Depth{acc_wait}}) | (~push & wait_base);
      // The new head's eligibility (the rules table)
      assign ok     = !max_d && (!wait_d[0] || !nz_d);
      assign elig_d = occ_d[0] && ok;
      assign held_d = occ_d[0] && !ok;

      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          occ_q  <= '0;
          out_q  <= '0;
          nz_q   <= 1'b0;
          one_q  <= 1'b0;
          max_q  <= 1'b0;
          max1_q <= 1'b0;
        end else begin
          occ_q  <= occ_d;
          out_q  <= out_d;
          nz_q   <= nz_d;
          one_q  <= one_d;
          max_q  <= max_d;
          max1_q <= max1_d;
        end
      end

      // the FIFO's storage (no reset: read only where occ_q says filled)
      always_ff @(posedge clk_i) begin
        wait_q <= wait_d;
      end
    end

    // this edge's events of the queue
    assign cmp_e = cmp_oh[q];
    assign acc_e = acc_oh[q];

    // the state: the bank of the last edge's pick
    assign picked_q = pick_valid_q && (pick_q_q == 3'(q));
    assign wait_s   = picked_q ? g_pk[1].wait_q : g_pk[0].wait_q;
    assign occ_s    = picked_q ? g_pk[1].occ_q  : g_pk[0].occ_q;
    assign out_s    = picked_q ? g_pk[1].out_q  : g_pk[0].out_q;
    assign nz_s     = picked_q ? g_pk[1].nz_q   : g_pk[0].nz_q;
    assign one_s    = picked_q ? g_pk[1].one_q  : g_pk[0].one_q;
    assign max_s    = picked_q ? g_pk[1].max_q  : g_pk[0].max_q;
    assign max1_s   = picked_q ? g_pk[1].max1_q : g_pk[0].max1_q;

    // The outputs' registers: this edge's pick selects the outcome, in the
    // last LUT (pick_valid_i, pick_q_i and the two outcomes: one LUT6).
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        elig_q[q] <= 1'b0;
        held_q[q] <= 1'b0;
      end else begin
        elig_q[q] <= pick_oh[q] ? g_pk[1].elig_d : g_pk[0].elig_d;
        held_q[q] <= pick_oh[q] ? g_pk[1].held_d : g_pk[0].held_d;
      end
    end

    assign known[q]   = occ_s[0];
    assign counted[q] = nz_s;

    // (for the assertions below) the queue against the C model's rules
    // (cmodel/order_tracker.c). What the model does at this edge: a pick
    // pops only a queue that holds a request, a push is dropped when the
    // queue is full after the pop; the count steps up on a pick unless
    // saturated, then down on a completion unless zero.
    logic            pop_m, push_m, inc_m, dec_m;
    logic [CntW-1:0] out_m;
    assign pop_m  = pick_oh[q] && occ_s[0];
    assign push_m = acc_e && (pop_m || !occ_s[Depth-1]);
    assign inc_m  = pick_oh[q] && (out_s != CntMax);
    assign out_m  = out_s + CntW'(inc_m);
    assign dec_m  = cmp_e && (out_m != '0);
    assign a_fill[4*q +: 4]             = fill_of(occ_s);
    assign a_fill_next[4*q +: 4]        = fill_of(occ_s) - 4'(pop_m) + 4'(push_m);
    assign a_out[CntW*q +: CntW]        = out_s;
    assign a_out_next[CntW*q +: CntW]   = out_m - CntW'(dec_m);
    assign a_pop2[q]   = pop_m && occ_s[1];
    assign a_second[q] = wait_s[1];
    assign a_head[q]   = wait_s[0];
    assign a_max[q]    = (out_s == CntMax);
    assign a_zero[q]   = (out_s == '0);
    // both banks hold a state the queue can be in (a FIFO filled from entry
    // 0 up, flags equal to the compares they stand for), so the state does
    assign a_fill_ok[q] =
        ((g_pk[0].occ_q & (g_pk[0].occ_q + Depth'(1))) == '0) &&
        ((g_pk[1].occ_q & (g_pk[1].occ_q + Depth'(1))) == '0);
    assign a_flags_ok[q] =
        (g_pk[0].nz_q == (g_pk[0].out_q != '0)) && (g_pk[1].nz_q == (g_pk[1].out_q != '0)) &&
        (g_pk[0].one_q == (g_pk[0].out_q == CntW'(1))) && (g_pk[1].one_q == (g_pk[1].out_q == CntW'(1))) &&
        (g_pk[0].max_q == (g_pk[0].out_q == CntMax)) && (g_pk[1].max_q == (g_pk[1].out_q == CntMax)) &&
        (g_pk[0].max1_q == (g_pk[0].out_q == CntMax - CntW'(1))) &&
        (g_pk[1].max1_q == (g_pk[1].out_q == CntMax - CntW'(1)));
    // the outputs: elig is the rules table applied to the head
    assign a_elig_rule[q] = (elig_q[q] == (known[q] && !max_s && (!wait_s[0] || !nz_s)));
  end

  // (for the assertions) the model's values for after this edge, taken at
  // the edge. (Not $past: it takes the sampled values, from before the
  // inputs of this edge were driven when they change with the clock, as the
  // simulator's shims drive them.)
  logic [4*NumQueues-1:0]    a_fill_next_q;
  logic [CntW*NumQueues-1:0] a_out_next_q;
  logic [NumQueues-1:0]      a_pop2_q;
  always_ff @(posedge clk_i) begin
    a_fill_next_q <= a_fill_next;
    a_out_next_q  <= a_out_next;
    a_pop2_q      <= a_pop2;
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
