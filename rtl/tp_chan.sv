// Transport channel table: the sequence state of UB's transport channels.
//
// RTL twin of cmodel/tp_chan.c; both agree cycle for cycle (docs/
// transport.md). Per channel (one per remote host, dst % NumChannels) it
// keeps the next PSN and the next TPMSN. A request (rq_*: a message of
// rq_nseg_i + 1 packets on channel rq_ch_i) is answered at the next edge
// with the message's first PSN and its TPMSN, and the channel moves on by
// the packets and by one message in the same edge (a read-modify-write in
// one cycle: a request every cycle is served). A channel not used since
// reset starts at cfg_psn_init_i. The answer registers hold their values
// until the next answer; rs_valid_o is high for one cycle.
//
// Constants come from rtl/ub_pkg.sv; the port list is
// cmodel/tp_chan_ports.h.
//
// Assertions (rtl/prim_assert.svh; proven by scripts/formal.sh, docs/
// formal.md): the answer comes one cycle after the request and holds until
// the next; per channel the answer's PSN advances by rq_nseg_i + 1 per
// request and its TPMSN by 1 (modulo 2^24), a channel's first answer is
// cfg_psn_init_i of its request, checked against a shadow model that sees
// only the ports.
`include "prim_assert.svh"

module tp_chan #(
  parameter int NumChannels = ub_pkg::UbspNumChannels  // power of two, <= 16
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [23:0] cfg_psn_init_i,
  input  logic        rq_valid_i,
  input  logic [3:0]  rq_ch_i,
  input  logic [23:0] rq_nseg_i,
  output logic        rs_valid_o,
  output logic [23:0] rs_psn_o,
  output logic [23:0] rs_tpmsn_o
);

  `UB_ASSERT_SETUP

  localparam int CW    = $clog2(NumChannels);
  localparam int PsnW  = ub_pkg::UbPsnBits;
  localparam int MsnW  = ub_pkg::UbTpmsnBits;

  // per channel {next TPMSN, next PSN}: one memory, written at once
  logic [MsnW+PsnW-1:0]   seq_mem_q [NumChannels];
  logic [NumChannels-1:0] init_q;

  logic [CW-1:0]   ch;

  /* verilator lint_off UNUSEDSIGNAL */
  logic [3:0] rq_ch_unused;  // (bits above CW name no channel)
  /* verilator lint_on UNUSEDSIGNAL */
  assign rq_ch_unused = rq_ch_i;
  assign ch       = rq_ch_i[CW-1:0];

  // The asked channel's numbers (its last answer, or the initial PSN) are
  // read where they are used, in both clocked blocks below (one multiplexer
  // after synthesis; a simulator reads them only at an edge with a request).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      init_q     <= '0;
      rs_valid_o <= 1'b0;
      rs_psn_o   <= '0;
      rs_tpmsn_o <= '0;
    end else begin
      rs_valid_o <= rq_valid_i;
      // (a decoder, one enable per flag: a write at a variable index into
      // a vector would become a shift by the index)
      init_q     <= init_q | ({NumChannels{rq_valid_i}} & (NumChannels'(1) << ch));
      if (rq_valid_i) begin
        logic [PsnW-1:0] psn_rd;
        logic [MsnW-1:0] tpmsn_rd;
        {tpmsn_rd, psn_rd} = init_q[ch] ? seq_mem_q[ch] : {cfg_psn_init_i, cfg_psn_init_i};
        rs_psn_o   <= psn_rd;
        rs_tpmsn_o <= tpmsn_rd;
      end
    end
  end

  // The channel's numbers (no reset: read only after init_q is set).
  always_ff @(posedge clk_i) begin
    if (rq_valid_i) begin
      logic [PsnW-1:0] psn_rd;
      logic [MsnW-1:0] tpmsn_rd;
      {tpmsn_rd, psn_rd} = init_q[ch] ? seq_mem_q[ch] : {cfg_psn_init_i, cfg_psn_init_i};
      seq_mem_q[ch] <= {tpmsn_rd + 1'b1, psn_rd + rq_nseg_i + 1'b1};
    end
  end

  // ---------------------------------------------------------------------
  // Assertions
  // ---------------------------------------------------------------------

  // ch is rq_ch_i[CW-1:0] and the channel count a power of two: 2 to 16
  // (the port has 4 bits; one channel would leave ch no bits)
  `UB_ASSERT_INIT(NumChannelsOk_A, NumChannels >= 2 && NumChannels <= 16 &&
                                   (NumChannels & (NumChannels - 1)) == 0)

  // The checks and the shadow model only they read: compiled when they are
  // checked (rtl/prim_assert.svh).
`ifdef UB_ASSERT_ON
  // Shadow model, from the ports alone: the request of the previous cycle
  // (sh_ch_q, sh_nseg_q, sh_cfg_q) and per channel the answer its next
  // request must get (sh_psn_q, sh_msn_q), known once the channel has
  // answered (sh_seen_q), as the last answer plus the packets and the
  // message of its request.
  logic [CW-1:0]          sh_ch_q;
  logic [PsnW-1:0]        sh_nseg_q;
  logic [PsnW-1:0]        sh_cfg_q;
  logic [NumChannels-1:0] sh_seen_q;
  logic [PsnW-1:0]        sh_psn_q [NumChannels];
  logic [MsnW-1:0]        sh_msn_q [NumChannels];
  logic [PsnW-1:0]        sh_psn_next;
  logic [MsnW-1:0]        sh_msn_next;
  logic [PsnW-1:0]        sh_psn_want;
  logic [MsnW-1:0]        sh_msn_want;

  assign sh_psn_next = rs_psn_o + sh_nseg_q + 1'b1;
  assign sh_msn_next = rs_tpmsn_o + 1'b1;
  assign sh_psn_want = sh_seen_q[sh_ch_q] ? sh_psn_q[sh_ch_q] : sh_cfg_q;
  assign sh_msn_want = sh_seen_q[sh_ch_q] ? sh_msn_q[sh_ch_q] : sh_cfg_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sh_seen_q <= '0;
    end else begin
      for (int k = 0; k < NumChannels; k++) begin
        if (rs_valid_o && sh_ch_q == CW'(k)) begin
          sh_seen_q[k] <= 1'b1;
        end
      end
    end
  end

  always_ff @(posedge clk_i) begin
    sh_ch_q   <= ch;
    sh_nseg_q <= rq_nseg_i;
    sh_cfg_q  <= cfg_psn_init_i;
    if (rs_valid_o) begin
      sh_psn_q[sh_ch_q] <= sh_psn_next;
      sh_msn_q[sh_ch_q] <= sh_msn_next;
    end
  end

  // the answer is the cycle after the request, and only then
  `UB_ASSERT(RsValidFollowsRq_A, rs_valid_o == $past(rq_valid_i))
  // between answers the answer registers hold
  `UB_ASSERT(RsHold_A, rs_valid_o ||
                       (rs_psn_o == $past(rs_psn_o) && rs_tpmsn_o == $past(rs_tpmsn_o)))
  // the PSN advances by the request's packets (nseg + 1), modulo 2^24
  `UB_ASSERT(PsnAdvance_A, !rs_valid_o || rs_psn_o == sh_psn_want)
  // the TPMSN advances by one message, modulo 2^24
  `UB_ASSERT(TpmsnAdvance_A, !rs_valid_o || rs_tpmsn_o == sh_msn_want)

  // Induction helpers (white box): the table holds what the shadow model
  // expects, counting the answer still in the output registers (one bit
  // per channel; yosys 0.23 names an assertion by its label alone, so one
  // assertion covers every channel).
  logic [NumChannels-1:0] sh_init_ok;
  logic [NumChannels-1:0] sh_table_ok;
  always_comb begin
    for (int k = 0; k < NumChannels; k++) begin
      if (rs_valid_o && sh_ch_q == CW'(k)) begin
        sh_init_ok[k]  = init_q[k];
        sh_table_ok[k] = seq_mem_q[k] == {sh_msn_next, sh_psn_next};
      end else begin
        sh_init_ok[k]  = init_q[k] == sh_seen_q[k];
        sh_table_ok[k] = !init_q[k] || seq_mem_q[k] == {sh_msn_q[k], sh_psn_q[k]};
      end
    end
  end
`ifdef FORMAL
  // (in the proof: in every step, reset included (they hold in the reset
  // state), without the clocked check's one-step delay, so that k-induction
  // closes in two steps)
  always_comb begin
    InitMatchesShadow_A: assert (&sh_init_ok);
    TableMatchesShadow_A: assert (&sh_table_ok);
  end
`else
  `UB_ASSERT(InitMatchesShadow_A, &sh_init_ok)
  `UB_ASSERT(TableMatchesShadow_A, &sh_table_ok)
`endif
`endif

endmodule
