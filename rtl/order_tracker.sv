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

  // per queue: FIFO of {fence, order, mode} (one memory, index {queue,
  // entry}), read index, fill, outstanding (packed: field q at q*W +: W)
  logic [5:0]                attr_q [NumQueues*Depth];
  logic [NumQueues*3-1:0]    rd_q;
  logic [NumQueues*4-1:0]    cnt_q;
  logic [NumQueues*CntW-1:0] out_q;

  // the next state of each queue
  logic [NumQueues*3-1:0]    rd_d;
  logic [NumQueues*4-1:0]    cnt_d;
  logic [NumQueues*CntW-1:0] out_d;
  logic [NumQueues-1:0]      push;
  logic [NumQueues*3-1:0]    wr;
  always_comb begin
    for (int q = 0; q < NumQueues; q++) begin
      logic            pop, inc, dec;
      logic [2:0]      rd;
      logic [3:0]      cnt;
      logic [CntW-1:0] o;
      pop = pick_valid_i && (pick_q_i == 3'(q)) && (cnt_q[q*4 +: 4] != '0);
      inc = pick_valid_i && (pick_q_i == 3'(q)) && (out_q[q*CntW +: CntW] != CntMax);
      o   = out_q[q*CntW +: CntW] + {{(CntW-1){1'b0}}, inc};
      dec = cmp_valid_i && (cmp_q_i == 3'(q)) && (o != '0);
      out_d[q*CntW +: CntW] = o - {{(CntW-1){1'b0}}, dec};
      rd  = rd_q[q*3 +: 3] + {2'b0, pop};
      cnt = cnt_q[q*4 +: 4] - {3'b0, pop};
      push[q] = acc_valid_i && (acc_q_i == 3'(q)) && (cnt != 4'(Depth));
      wr[q*3 +: 3] = rd + cnt[2:0];
      rd_d[q*3 +: 3] = rd;
      cnt_d[q*4 +: 4] = cnt + {3'b0, push[q]};
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_q  <= '0;
      cnt_q <= '0;
      out_q <= '0;
    end else begin
      rd_q  <= rd_d;
      cnt_q <= cnt_d;
      out_q <= out_d;
    end
  end

  // the FIFOs' storage: written behind the head, read only where filled
  always_ff @(posedge clk_i) begin
    for (int q = 0; q < NumQueues; q++) begin
      if (push[q]) begin
        attr_q[{3'(q), wr[q*3 +: 3]}] <= {acc_fence_i, acc_order_i, acc_mode_i};
      end
    end
  end

  // eligibility of each head (the rules table)
  always_comb begin
    elig_o = '0;
    held_o = '0;
    busy_o = 1'b0;
    for (int q = 0; q < NumQueues; q++) begin
      logic [5:0]      a;
      logic [CntW-1:0] o;
      logic            ok;
      a = attr_q[{3'(q), rd_q[q*3 +: 3]}];
      o = out_q[q*CntW +: CntW];
      if (o == CntMax) begin
        ok = 1'b0;                              // no more can be counted
      end else if (a[2:0] == ub_pkg::UrmaNo) begin
        ok = 1'b1;                              // unreliable: no ordering
      end else if (a[5]) begin
        ok = (o == '0);                         // fence
      end else if (a[2:0] == ub_pkg::UrmaOt) begin
        ok = 1'b1;                              // the target orders
      end else begin
        ok = (a[4:3] != ub_pkg::UbOrderSo) || (o == '0);  // ROI, ROL
      end
      busy_o = busy_o || (cnt_q[q*4 +: 4] != '0) || (o != '0);
      if (cnt_q[q*4 +: 4] != '0) begin
        elig_o[q] = ok;
        held_o[q] = !ok;
      end
    end
  end

endmodule
