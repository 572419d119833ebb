// UB transmit path: the send pipeline and the transport channel table it
// numbers its packets from.
//
// RTL twin of cmodel/ub_tx.c; both agree cycle for cycle. The pipeline
// (rtl/ub_send_pipeline.sv) keeps no packet sequence: at S13 it asks the
// table (rtl/tp_chan.sv) for the next PSNs of the request's channel, and
// takes the answer into S15. Both sides of that port are registers. The
// ports are the pipeline's but that one, plus the table's configuration;
// the port list is cmodel/ub_tx_ports.h.
`include "prim_assert.svh"

module ub_tx (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        wr_valid_i,
  input  logic [7:0]  wr_opcode_i,
  input  logic [2:0]  wr_mode_i,
  input  logic [1:0]  wr_order_i,
  input  logic        wr_fence_i,
  input  logic        wr_comp_order_i,
  input  logic [19:0] wr_jetty_i,
  input  logic [19:0] wr_dst_i,
  input  logic [31:0] wr_len_i,
  input  logic [63:0] wr_addr_i,
  input  logic [31:0] wr_token_i,
  input  logic [31:0] wr_tag_i,
  output logic        wr_ready_o,
  output logic [7:0]  held_o,
  input  logic        cmp_valid_i,
  input  logic [2:0]  cmp_q_i,
  input  logic [23:0] cfg_psn_init_i,
  input  logic [23:0] cfg_tpn_base_i,
  input  logic [4:0]  cfg_mtu_log2_i,
  input  logic        pkt_ready_i,
  output logic        pkt_valid_o,
  output logic [6:0]  pkt_tp_opcode_o,
  output logic        pkt_last_o,
  output logic [23:0] pkt_src_tpn_o,
  output logic [23:0] pkt_dst_tpn_o,
  output logic [23:0] pkt_psn_o,
  output logic [23:0] pkt_tpmsn_o,
  output logic        pkt_ack_req_o,
  output logic [7:0]  pkt_ta_opcode_o,
  output logic [2:0]  pkt_order_o,
  output logic [15:0] pkt_tassn_o,
  output logic [19:0] pkt_jetty_o,
  output logic [31:0] pkt_token_o,
  output logic [31:0] pkt_len_o,
  output logic [63:0] pkt_addr_o,
  output logic [31:0] pkt_tag_o,
  output logic [19:0] pkt_dst_o,
  output logic [2:0]  pkt_mode_o,
  output logic        pkt_comp_order_o
);

  // the port between them
  logic        seq_rq, seq_valid;
  logic [3:0]  seq_ch;
  logic [23:0] seq_nseg, seq_psn, seq_tpmsn;

  ub_send_pipeline u_pipeline (
    .clk_i            (clk_i),
    .rst_ni           (rst_ni),
    .wr_valid_i       (wr_valid_i),
    .wr_opcode_i      (wr_opcode_i),
    .wr_mode_i        (wr_mode_i),
    .wr_order_i       (wr_order_i),
    .wr_fence_i       (wr_fence_i),
    .wr_comp_order_i  (wr_comp_order_i),
    .wr_jetty_i       (wr_jetty_i),
    .wr_dst_i         (wr_dst_i),
    .wr_len_i         (wr_len_i),
    .wr_addr_i        (wr_addr_i),
    .wr_token_i       (wr_token_i),
    .wr_tag_i         (wr_tag_i),
    .wr_ready_o       (wr_ready_o),
    .held_o           (held_o),
    .cmp_valid_i      (cmp_valid_i),
    .cmp_q_i          (cmp_q_i),
    .cfg_tpn_base_i   (cfg_tpn_base_i),
    .cfg_mtu_log2_i   (cfg_mtu_log2_i),
    .pkt_ready_i      (pkt_ready_i),
    .pkt_valid_o      (pkt_valid_o),
    .pkt_tp_opcode_o  (pkt_tp_opcode_o),
    .pkt_last_o       (pkt_last_o),
    .pkt_src_tpn_o    (pkt_src_tpn_o),
    .pkt_dst_tpn_o    (pkt_dst_tpn_o),
    .pkt_psn_o        (pkt_psn_o),
    .pkt_tpmsn_o      (pkt_tpmsn_o),
    .pkt_ack_req_o    (pkt_ack_req_o),
    .pkt_ta_opcode_o  (pkt_ta_opcode_o),
    .pkt_order_o      (pkt_order_o),
    .pkt_tassn_o      (pkt_tassn_o),
    .pkt_jetty_o      (pkt_jetty_o),
    .pkt_token_o      (pkt_token_o),
    .pkt_len_o        (pkt_len_o),
    .pkt_addr_o       (pkt_addr_o),
    .pkt_tag_o        (pkt_tag_o),
    .pkt_dst_o        (pkt_dst_o),
    .pkt_mode_o       (pkt_mode_o),
    .pkt_comp_order_o (pkt_comp_order_o),
    .seq_rq_o         (seq_rq),
    .seq_ch_o         (seq_ch),
    .seq_nseg_o       (seq_nseg),
    .seq_valid_i      (seq_valid),
    .seq_psn_i        (seq_psn),
    .seq_tpmsn_i      (seq_tpmsn)
  );

  tp_chan u_chan (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .cfg_psn_init_i (cfg_psn_init_i),
    .rq_valid_i     (seq_rq),
    .rq_ch_i        (seq_ch),
    .rq_nseg_i      (seq_nseg),
    .rs_valid_o     (seq_valid),
    .rs_psn_o       (seq_psn),
    .rs_tpmsn_o     (seq_tpmsn)
  );

  // ---------------------------------------------------------------------
  // Assertions (rtl/prim_assert.svh; make formal proves them together with
  // those of the two blocks, which hold here in their real surroundings)
  // ---------------------------------------------------------------------
  // (compiled when they are checked: rtl/prim_assert.svh)
`ifdef UB_ASSERT_ON
  `UB_ASSERT_SETUP

  // The port between them: the table answers every ask on the next edge,
  // and never without one.
  logic a_ask_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) a_ask_q <= 1'b0;
    else         a_ask_q <= seq_rq;
  end
  `UB_ASSERT(AnswerFollowsAsk, seq_valid == a_ask_q)

  // On the wire, end to end: the packets of each channel carry consecutive
  // PSNs (modulo 2^24) from cfg_psn_init_i on, whatever the requests, their
  // sizes, the back-pressure and the order rules did to the timing; and a
  // packet's source TPN is the base plus its channel. Checked while the
  // configuration has been held since the reset (a change of it mid-run is
  // outside what the table promises). A channel's shadow: whether it has
  // sent a packet since the reset, and the PSN its next one must carry.
  localparam int NumCh = ub_pkg::UbspNumChannels;
  logic              a_run_q, a_held_q;
  logic [23:0]       a_init_q, a_base_q;
  logic [4:0]        a_mtu_q;
  logic [NumCh-1:0]  a_seen_q;
  logic [23:0]       a_next_q [NumCh];
  logic              a_same, a_take;
  logic [23:0]       a_off;
  logic [$clog2(NumCh)-1:0] a_ch;
  assign a_same = (cfg_psn_init_i == a_init_q) && (cfg_tpn_base_i == a_base_q) &&
                  (cfg_mtu_log2_i == a_mtu_q);
  assign a_take = pkt_valid_o && pkt_ready_i;
  assign a_off  = pkt_src_tpn_o - cfg_tpn_base_i;
  assign a_ch   = a_off[$clog2(NumCh)-1:0];
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      a_run_q  <= 1'b0;
      a_held_q <= 1'b0;
      a_seen_q <= '0;
    end else begin
      a_run_q  <= 1'b1;
      a_held_q <= a_run_q ? (a_held_q && a_same) : 1'b1;
      if (a_take) a_seen_q[a_ch] <= 1'b1;
    end
  end
  always_ff @(posedge clk_i) begin
    a_init_q <= cfg_psn_init_i;
    a_base_q <= cfg_tpn_base_i;
    a_mtu_q  <= cfg_mtu_log2_i;
    if (a_take) a_next_q[a_ch] <= pkt_psn_o + 24'd1;
  end
  `UB_ASSERT(TpnIsBasePlusChannel, !(a_held_q && a_same && a_take) ||
                                   a_off < 24'(NumCh))
  `UB_ASSERT(PsnConsecutivePerChannel, !(a_held_q && a_same && a_take) ||
                                       pkt_psn_o == (a_seen_q[a_ch] ? a_next_q[a_ch] : cfg_psn_init_i))
`endif

endmodule
