// UB send pipeline: work requests from many Jetties in, packets out.
//
// RTL twin of cmodel/ub_send_pipeline.c; both agree cycle for cycle. See
// docs/ub_send_pipeline.md for the stage map and the 24-cycle budget.
//
//   wr_* -> intake register -> per-Jetty queue (jetty % NumQueues)
//        -> rotating-priority scheduler -> S0
//        -> S1..S4   Jetty context read (budget; context cache plugs in here)
//        -> S5..S8   ORDER-TRACKER HOOK (pass-through for now)
//        -> S9       TASSN read-modify-write (per Jetty context)
//        -> S10      transaction header (wire order field)
//        -> S11      transport channel index (dst % NumChannels)
//        -> S12      channel TPN
//        -> S13      channel state read (PSN, TPMSN)
//        -> S14      channel state write-back (+1 mod 2^24)
//        -> S15..S17 framing (RTPH opcode / ack request, TAH, descriptor)
//        -> S18..S20 egress
//        -> 2-entry output skid buffer -> pkt_*_o
//
// S0..S20 advance together whenever the output buffer holds fewer than two
// packets (a register-only condition), so pkt_ready_i reaches only the output
// buffer. The scheduler fills S0 only while S0 is empty: one request every
// two cycles, the rate of the two-cycle channel-state read-modify-write.
// Every output is a register (or a register gated by a register).
module ub_send_pipeline #(
  parameter int NumQueues   = 8,   // power of two
  parameter int QueueDepth  = 4,   // power of two
  parameter int NumJettyCtx = 32,  // power of two
  parameter int NumChannels = 16   // power of two
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  // work requests
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
  // configuration
  input  logic [23:0] cfg_psn_init_i,
  input  logic [23:0] cfg_tpn_base_i,
  // packets
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

  localparam int QW = $clog2(NumQueues);
  localparam int DW = $clog2(QueueDepth);
  localparam int JW = $clog2(NumJettyCtx);
  localparam int CW = $clog2(NumChannels);

  // Back-end stages.
  localparam int NumStages = 21;
  localparam int StTassn   = 9;
  localparam int StTah     = 10;
  localparam int StChan    = 11;
  localparam int StTpn     = 12;
  localparam int StPsnRd   = 13;
  localparam int StPsnWr   = 14;
  localparam int StRtph    = 15;

  // One request / packet as a flat vector: request fields, then the fields
  // the stages fill in. The output buffer keeps the first PktW bits.
  localparam int OTag   = 0;    // 32
  localparam int OToken = 32;   // 32
  localparam int OAddr  = 64;   // 64
  localparam int OLen   = 128;  // 32
  localparam int ODst   = 160;  // 20
  localparam int OJetty = 180;  // 20
  localparam int OComp  = 200;  // 1
  localparam int OFence = 201;  // 1
  localparam int OOrder = 202;  // 2
  localparam int OMode  = 204;  // 3
  localparam int OOpc   = 207;  // 8
  localparam int ReqW   = 215;
  localparam int OTassn = 215;  // 16
  localparam int OWord  = 231;  // 3, wire order field
  localparam int OTpn   = 234;  // 24
  localparam int OPsn   = 258;  // 24
  localparam int OTpmsn = 282;  // 24
  localparam int OTpop  = 306;  // 7
  localparam int OAck   = 313;  // 1
  localparam int PktW   = 314;
  localparam int OCh    = 314;  // CW, dropped at the output buffer
  localparam int ItemW  = PktW + CW;

  localparam int unsigned QDepth = QueueDepth;

  // ---------------------------------------------------------------------
  // Intake register
  // ---------------------------------------------------------------------
  logic            in_valid_q, in_valid_d;
  logic [ReqW-1:0] in_req_q, in_req_d;
  logic [QW-1:0]   in_qidx;
  logic            drain, accept;

  // ---------------------------------------------------------------------
  // Per-Jetty queues: circular buffers in one memory, index {queue, slot}
  // ---------------------------------------------------------------------
  logic [ReqW-1:0]              q_mem_q [NumQueues*QueueDepth];
  logic [NumQueues*DW-1:0]      q_rd_q, q_rd_d, q_wr_q, q_wr_d;
  logic [NumQueues*(DW+1)-1:0]  q_cnt_q, q_cnt_d;
  logic [NumQueues-1:0]         q_nonempty;
  logic [DW:0]                  in_q_cnt;
  logic [DW-1:0]                in_q_wr, g_rd;

  // ---------------------------------------------------------------------
  // Scheduler
  // ---------------------------------------------------------------------
  logic [QW-1:0] rr_ptr_q, rr_ptr_d;
  logic          any_req;
  logic [QW-1:0] grant;
  logic          pick;
  logic [ItemW-1:0] pick_item;

  // ---------------------------------------------------------------------
  // Back end S0..S20 and per-context state
  // ---------------------------------------------------------------------
  logic [NumStages*ItemW-1:0] st_q, st_d;
  logic [NumStages-1:0]       sv_q, sv_d;
  logic                       be_en;

  logic [15:0]            tassn_mem_q [NumJettyCtx];
  logic [NumJettyCtx-1:0] tassn_init_q, tassn_init_d;
  logic [23:0]            psn_mem_q [NumChannels];
  logic [23:0]            tpmsn_mem_q [NumChannels];
  logic [NumChannels-1:0] ch_init_q, ch_init_d;

  logic          tassn_we, ch_we;
  logic [JW-1:0] tassn_idx;
  logic [15:0]   tassn_rd;
  logic [CW-1:0] rd_ch, wr_ch;
  logic [23:0]   wr_psn, wr_tpmsn;

  // ---------------------------------------------------------------------
  // Output skid buffer
  // ---------------------------------------------------------------------
  logic [PktW-1:0] out0_q, out0_d, out1_q, out1_d;
  logic [1:0]      out_cnt_q, out_cnt_d;
  logic            out_pop, out_push;
  logic [1:0]      out_cnt_pop;
  logic [PktW-1:0] out_item;

  // ---------------------------------------------------------------------
  // Intake and queues
  // ---------------------------------------------------------------------
  assign in_qidx  = in_req_q[OJetty +: QW];
  assign in_q_cnt = q_cnt_q[in_qidx*(DW+1) +: DW+1];
  assign in_q_wr  = q_wr_q[in_qidx*DW +: DW];
  assign drain    = in_valid_q && (32'(in_q_cnt) != QDepth);
  // wr_ready depends on registers only.
  assign wr_ready_o = !in_valid_q || drain;
  assign accept     = wr_valid_i && wr_ready_o;

  always_comb begin
    in_valid_d = in_valid_q;
    in_req_d   = in_req_q;
    if (drain) begin
      in_valid_d = 1'b0;
    end
    if (accept) begin
      in_valid_d = 1'b1;
      in_req_d   = {wr_opcode_i, wr_mode_i, wr_order_i, wr_fence_i, wr_comp_order_i,
                    wr_jetty_i, wr_dst_i, wr_len_i, wr_addr_i, wr_token_i, wr_tag_i};
    end
  end

  for (genvar e = 0; e < NumQueues; e++) begin : g_qne
    assign q_nonempty[e] = |q_cnt_q[e*(DW+1) +: DW+1];
  end

  ub_rr_pick #(
    .N(NumQueues),
    .W(QW)
  ) u_rr_pick (
    .req_i  (q_nonempty),
    .ptr_i  (rr_ptr_q),
    .valid_o(any_req),
    .idx_o  (grant)
  );

  assign be_en = (out_cnt_q != 2'd2);
  assign pick  = be_en && !sv_q[0] && any_req;
  assign g_rd  = q_rd_q[grant*DW +: DW];
  assign pick_item = {{(ItemW-ReqW){1'b0}}, q_mem_q[{grant, g_rd}]};

  always_comb begin
    q_rd_d   = q_rd_q;
    q_wr_d   = q_wr_q;
    q_cnt_d  = q_cnt_q;
    rr_ptr_d = rr_ptr_q;
    for (int e = 0; e < NumQueues; e++) begin
      if (pick && (32'(grant) == e)) begin
        q_rd_d[e*DW +: DW] = q_rd_q[e*DW +: DW] + 1'b1;
      end
      if (drain && (32'(in_qidx) == e)) begin
        q_wr_d[e*DW +: DW] = q_wr_q[e*DW +: DW] + 1'b1;
      end
      q_cnt_d[e*(DW+1) +: DW+1] = q_cnt_q[e*(DW+1) +: DW+1]
          + {{DW{1'b0}}, drain && (32'(in_qidx) == e)}
          - {{DW{1'b0}}, pick && (32'(grant) == e)};
    end
    if (pick) begin
      rr_ptr_d = grant + 1'b1;
    end
  end

  always_ff @(posedge clk_i) begin
    if (drain) begin
      q_mem_q[{in_qidx, in_q_wr}] <= in_req_q;
    end
  end

  // ---------------------------------------------------------------------
  // Back end
  // ---------------------------------------------------------------------
  // Stage k of st_q is st_q[k*ItemW +: ItemW].
  assign tassn_idx = st_q[(StTassn-1)*ItemW + OJetty +: JW];
  assign tassn_rd  = tassn_init_q[tassn_idx] ? tassn_mem_q[tassn_idx] : 16'h0;
  assign tassn_we  = be_en && sv_q[StTassn-1];
  assign rd_ch     = st_q[(StPsnRd-1)*ItemW + OCh +: CW];
  assign wr_ch     = st_q[(StPsnWr-1)*ItemW + OCh +: CW];
  assign wr_psn    = st_q[(StPsnWr-1)*ItemW + OPsn +: 24] + 24'd1;
  assign wr_tpmsn  = st_q[(StPsnWr-1)*ItemW + OTpmsn +: 24] + 24'd1;
  assign ch_we     = be_en && sv_q[StPsnWr-1];

  // S15 inputs: service mode and PSN low bits of the item entering S15.
  logic       rtph_rel;
  logic [2:0] rtph_mode;
  logic [3:0] rtph_psn_lo;
  assign rtph_mode   = st_q[(StRtph-1)*ItemW + OMode +: 3];
  assign rtph_psn_lo = st_q[(StRtph-1)*ItemW + OPsn +: 4];
  assign rtph_rel    = (rtph_mode == 3'd1) || (rtph_mode == 3'd2) || (rtph_mode == 3'd3);

  always_comb begin
    st_d         = st_q;
    sv_d         = sv_q;
    tassn_init_d = tassn_init_q;
    ch_init_d    = ch_init_q;
    if (be_en) begin
      sv_d = {sv_q[NumStages-2:0], pick};
      st_d = {st_q[(NumStages-1)*ItemW-1:0], pick_item};
      // S9: TASSN of the Jetty context (read-modify-write in one cycle).
      st_d[StTassn*ItemW + OTassn +: 16] = tassn_rd;
      if (tassn_we) begin
        tassn_init_d[tassn_idx] = 1'b1;
      end
      // S10: transaction header: wire order field {fence, place_order}.
      st_d[StTah*ItemW + OWord +: 3] = {st_q[(StTah-1)*ItemW + OFence],
                                        st_q[(StTah-1)*ItemW + OOrder +: 2]};
      // S11: transport channel of the destination.
      st_d[StChan*ItemW + OCh +: CW] = st_q[(StChan-1)*ItemW + ODst +: CW];
      // S12: channel TPN.
      st_d[StTpn*ItemW + OTpn +: 24] = cfg_tpn_base_i
          + {{(24-CW){1'b0}}, st_q[(StTpn-1)*ItemW + OCh +: CW]};
      // S13: channel state read; a channel not used since reset starts at
      // cfg_psn_init_i.
      st_d[StPsnRd*ItemW + OPsn +: 24]   = ch_init_q[rd_ch] ? psn_mem_q[rd_ch]
                                                            : cfg_psn_init_i;
      st_d[StPsnRd*ItemW + OTpmsn +: 24] = ch_init_q[rd_ch] ? tpmsn_mem_q[rd_ch]
                                                            : cfg_psn_init_i;
      // S14: channel state write-back (below).
      if (ch_we) begin
        ch_init_d[wr_ch] = 1'b1;
      end
      // S15: RTPH transport opcode and ack request.
      st_d[StRtph*ItemW + OTpop +: 7] = rtph_rel ? 7'h1 : 7'h0;
      st_d[StRtph*ItemW + OAck]       = rtph_rel && ((rtph_mode == 3'd3) ||
                                                     (rtph_psn_lo == 4'hf));
    end
  end

  always_ff @(posedge clk_i) begin
    if (tassn_we) begin
      tassn_mem_q[tassn_idx] <= tassn_rd + 16'd1;
    end
    if (ch_we) begin
      psn_mem_q[wr_ch]   <= wr_psn;
      tpmsn_mem_q[wr_ch] <= wr_tpmsn;
    end
  end

  // ---------------------------------------------------------------------
  // Output skid buffer
  // ---------------------------------------------------------------------
  assign out_pop     = (out_cnt_q != 2'd0) && pkt_ready_i;
  assign out_push    = be_en && sv_q[NumStages-1];
  assign out_item    = st_q[(NumStages-1)*ItemW +: PktW];
  assign out_cnt_pop = out_cnt_q - {1'b0, out_pop};

  always_comb begin
    out0_d    = out0_q;
    out1_d    = out1_q;
    out_cnt_d = out_cnt_pop;
    if (out_pop) begin
      out0_d = out1_q;
    end
    if (out_push) begin
      out_cnt_d = out_cnt_pop + 2'd1;
      if (out_cnt_pop == 2'd0) begin
        out0_d = out_item;
      end else begin
        out1_d = out_item;
      end
    end
  end

  // ---------------------------------------------------------------------
  // Registers with reset
  // ---------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      in_valid_q   <= 1'b0;
      in_req_q     <= '0;
      q_rd_q       <= '0;
      q_wr_q       <= '0;
      q_cnt_q      <= '0;
      rr_ptr_q     <= '0;
      st_q         <= '0;
      sv_q         <= '0;
      tassn_init_q <= '0;
      ch_init_q    <= '0;
      out0_q       <= '0;
      out1_q       <= '0;
      out_cnt_q    <= '0;
    end else begin
      in_valid_q   <= in_valid_d;
      in_req_q     <= in_req_d;
      q_rd_q       <= q_rd_d;
      q_wr_q       <= q_wr_d;
      q_cnt_q      <= q_cnt_d;
      rr_ptr_q     <= rr_ptr_d;
      st_q         <= st_d;
      sv_q         <= sv_d;
      tassn_init_q <= tassn_init_d;
      ch_init_q    <= ch_init_d;
      out0_q       <= out0_d;
      out1_q       <= out1_d;
      out_cnt_q    <= out_cnt_d;
    end
  end

  // ---------------------------------------------------------------------
  // Outputs: the head of the output buffer, zero while it is empty
  // ---------------------------------------------------------------------
  logic [PktW-1:0] pkt;
  assign pkt_valid_o      = (out_cnt_q != 2'd0);
  assign pkt              = pkt_valid_o ? out0_q : '0;
  assign pkt_tp_opcode_o  = pkt[OTpop +: 7];
  assign pkt_last_o       = pkt_valid_o;  // one packet per request
  assign pkt_src_tpn_o    = pkt[OTpn +: 24];
  assign pkt_dst_tpn_o    = pkt[OTpn +: 24];
  assign pkt_psn_o        = pkt[OPsn +: 24];
  assign pkt_tpmsn_o      = pkt[OTpmsn +: 24];
  assign pkt_ack_req_o    = pkt[OAck];
  assign pkt_ta_opcode_o  = pkt[OOpc +: 8];
  assign pkt_order_o      = pkt[OWord +: 3];
  assign pkt_tassn_o      = pkt[OTassn +: 16];
  assign pkt_jetty_o      = pkt[OJetty +: 20];
  assign pkt_token_o      = pkt[OToken +: 32];
  assign pkt_len_o        = pkt[OLen +: 32];
  assign pkt_addr_o       = pkt[OAddr +: 64];
  assign pkt_tag_o        = pkt[OTag +: 32];
  assign pkt_dst_o        = pkt[ODst +: 20];
  assign pkt_mode_o       = pkt[OMode +: 3];
  assign pkt_comp_order_o = pkt[OComp];

  // Fields the packet does not carry: place_order and fence travel in the
  // wire order field; the channel index is dropped at the output buffer.
  logic unused_bits;
  assign unused_bits = ^{pkt[OFence], pkt[OOrder +: 2],
                         st_q[(NumStages-1)*ItemW + OCh +: CW]};

endmodule
