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

  localparam int CW    = $clog2(NumChannels);
  localparam int PsnW  = ub_pkg::UbPsnBits;
  localparam int MsnW  = ub_pkg::UbTpmsnBits;

  // per channel {next TPMSN, next PSN}: one memory, written at once
  logic [MsnW+PsnW-1:0]   seq_mem_q [NumChannels];
  logic [NumChannels-1:0] init_q;

  logic [CW-1:0]   ch;
  logic [PsnW-1:0] psn_rd;
  logic [MsnW-1:0] tpmsn_rd;

  /* verilator lint_off UNUSEDSIGNAL */
  logic [3:0] rq_ch_unused;  // (bits above CW name no channel)
  /* verilator lint_on UNUSEDSIGNAL */
  assign rq_ch_unused = rq_ch_i;
  assign ch       = rq_ch_i[CW-1:0];
  assign {tpmsn_rd, psn_rd} = init_q[ch] ? seq_mem_q[ch] : {cfg_psn_init_i, cfg_psn_init_i};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      init_q     <= '0;
      rs_valid_o <= 1'b0;
      rs_psn_o   <= '0;
      rs_tpmsn_o <= '0;
    end else begin
      rs_valid_o <= rq_valid_i;
      if (rq_valid_i) begin
        init_q[ch] <= 1'b1;
        rs_psn_o   <= psn_rd;
        rs_tpmsn_o <= tpmsn_rd;
      end
    end
  end

  // The channel's numbers (no reset: read only after init_q is set).
  always_ff @(posedge clk_i) begin
    if (rq_valid_i) begin
      seq_mem_q[ch] <= {tpmsn_rd + 1'b1, psn_rd + rq_nseg_i + 1'b1};
    end
  end

endmodule
