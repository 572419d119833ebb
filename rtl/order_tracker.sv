// Order tracker: when each initiator's next request may be issued.
//
// RTL twin of cmodel/order_tracker.c; both agree cycle for cycle. The rules
// table is docs/order_tracker.md.
//
// Per queue of the send pipeline (one per initiator) it keeps the order
// fields of the requests accepted and not yet picked (a FIFO of 8), and the
// number of requests picked whose completions have not come back (24 bits,
// saturating). At every edge: a pick pops its queue's head and counts one
// more outstanding, a completion counts one less, an accepted request is
// pushed behind its queue. The outputs are functions of these registers
// only: elig_o[q] says the head of queue q may be picked at the next edge,
// held_o[q] that it waits for completions.
//
// Constants come from rtl/ub_pkg.sv; the port list is
// cmodel/order_tracker_ports.h.
module order_tracker (
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
  localparam int CntW      = 24;                     // outstanding per initiator
  localparam logic [CntW-1:0] CntMax = '1;

  // The per-queue flags, one bit per queue (each written only by its own
  // queue's block below), and the queues with an event at this edge.
  logic [NumQueues-1:0] elig_q, held_q, known_q, counted_q;
  logic [NumQueues-1:0] pick_oh, cmp_oh, acc_oh;
  assign pick_oh = {{(NumQueues-1){1'b0}}, pick_valid_i} << pick_q_i;
  assign cmp_oh  = {{(NumQueues-1){1'b0}}, cmp_valid_i} << cmp_q_i;
  assign acc_oh  = {{(NumQueues-1){1'b0}}, acc_valid_i} << acc_q_i;

  // One block of registers per queue (the queues never interact).
  for (genvar q = 0; q < NumQueues; q++) begin : g_queue
    // FIFO of {fence, order, mode}, its read index and fill, the count of
    // requests picked and not completed
    logic [5:0]      attr_q [Depth];
    logic [2:0]      rd_q;
    logic [3:0]      cnt_q;
    logic [CntW-1:0] out_q;

    // Everything of a queue changes only at an edge with an event of its own
    // (so a simulator spends nothing on the queues that are quiet): a pick
    // pops the head and counts one more outstanding, a completion one less
    // (after the pick's), an accepted request goes behind; then the new
    // head's eligibility (the rules table) is registered.
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        rd_q   <= '0;
        cnt_q  <= '0;
        out_q  <= '0;
        elig_q[q] <= 1'b0;
        held_q[q] <= 1'b0;
        known_q[q] <= 1'b0;
        counted_q[q] <= 1'b0;
      end else if (pick_oh[q] || cmp_oh[q] || acc_oh[q]) begin
        logic            pick, cmp, acc, pop, inc, dec, push, ok;
        logic [2:0]      rd;
        logic [3:0]      cnt, cnt_n;
        logic [CntW-1:0] o, o_n;
        logic [5:0]      head;
        pick  = pick_oh[q];
        cmp   = cmp_oh[q];
        acc   = acc_oh[q];
        pop   = pick && (cnt_q != '0);
        inc   = pick && (out_q != CntMax);
        o     = out_q + {{(CntW-1){1'b0}}, inc};
        dec   = cmp && (o != '0);
        o_n   = o - {{(CntW-1){1'b0}}, dec};
        rd    = rd_q + {2'b0, pop};
        cnt   = cnt_q - {3'b0, pop};
        push  = acc && (cnt != 4'(Depth));
        cnt_n = cnt + {3'b0, push};
        // the head after this edge: the FIFO's, or the one pushed now into
        // an empty FIFO
        head  = (cnt == '0) ? {acc_fence_i, acc_order_i, acc_mode_i} : attr_q[rd];
        if (o_n == CntMax) begin
          ok = 1'b0;                                   // no more can be counted
        end else if (head[2:0] == ub_pkg::UrmaNo) begin
          ok = 1'b1;                                   // unreliable: no ordering
        end else if (head[5]) begin
          ok = (o_n == '0);                            // fence
        end else if (head[2:0] == ub_pkg::UrmaOt) begin
          ok = 1'b1;                                   // the target orders
        end else begin
          ok = (head[4:3] != ub_pkg::UbOrderSo) || (o_n == '0);  // ROI, ROL
        end
        rd_q   <= rd;
        cnt_q  <= cnt_n;
        out_q  <= o_n;
        elig_q[q] <= (cnt_n != '0) && ok;
        held_q[q] <= (cnt_n != '0) && !ok;
        known_q[q] <= (cnt_n != '0);
        counted_q[q] <= (o_n != '0);
      end
    end

    // the FIFO's storage: written behind the head, read only where filled
    always_ff @(posedge clk_i) begin
      if (acc_oh[q]) begin
        logic [2:0] rd, wr;
        logic [3:0] cnt;
        logic       pop;
        pop = pick_oh[q] && (cnt_q != '0);
        rd  = rd_q + {2'b0, pop};
        cnt = cnt_q - {3'b0, pop};
        // (the slot behind the last, modulo Depth: a 3-bit sum of its own,
        // as some simulators widen a sum written inside the index)
        wr  = rd + cnt[2:0];
        if (cnt != 4'(Depth)) begin
          attr_q[wr] <= {acc_fence_i, acc_order_i, acc_mode_i};
        end
      end
    end

  end

  assign elig_o = elig_q;
  assign held_o = held_q;
  assign busy_o = |(known_q | counted_q);

endmodule
