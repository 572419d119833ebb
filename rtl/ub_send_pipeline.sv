// UB send pipeline: work requests from many Jetties in, packets out.
//
// RTL twin of cmodel/ub_send_pipeline.c; both agree cycle for cycle. See
// docs/ub_send_pipeline.md for the stage map and the 24-cycle budget.
//
//   wr_* -> intake register -> per-Jetty queue (jetty % NumQueues)
//        -> rotating-priority scheduler, among the queues whose head the
//           order tracker (rtl/order_tracker.sv, beside it) says may go
//           -> S0 (allocates a slot)
//        -> S1..S4   Jetty context read (budget; context cache plugs in here)
//        -> S5..S8   order stage (the tracker decides before S0; carried)
//        -> S9       TASSN read-modify-write (per Jetty context)
//        -> S10      transaction header (wire order field)
//        -> S11      transport channel index (dst % NumChannels)
//        -> S12      channel TPN
//        -> S13      sequence request to the transport channel table
//                    (rtl/tp_chan.sv, beside it in rtl/ub_tx.sv): the
//                    channel and the request's packets less one
//        -> S14      the table answers (its registers, at the next edge)
//        -> S15..S17 framing (RTPH opcode, TAH, descriptor; S15 takes the
//                    table's answer, or the copy held while it stalled)
//        -> S18..S20 egress
//        -> 2-entry output skid buffer -> pkt_*_o, one packet per MTU
//           segment of the head request (PSN, length, address and ack
//           request per packet; the last is marked)
//
// Storage: a request is copied once, when the scheduler picks it, into a
// slot of the packet memory (slot_*), and stays there until the MAC takes
// the packet. Items leave in the order they were picked, so the slots are a
// ring: allocated at sl_wr_q by the scheduler, freed at sl_rd_q by the
// output buffer, whose head is always slot sl_rd_q (12 slots: the most
// requests ever in flight). The stages S0..S20 are shift registers of
// narrow stage fields (slot id and the few request bits the stages compute
// with), written with fixed indices; a stage that
// computes a header field writes it into the item's slot.
//
// S0..S20 advance together whenever the output buffer holds fewer than two
// packets (a register-only condition), so pkt_ready_i reaches only the output
// buffer. The scheduler fills S0 only while S0 is empty: one request every
// two cycles, the rate of the two-cycle sequence round trip to the channel
// table (the pipeline keeps no PSN of its own).
// Every output is a register, or logic of registers only (the head slot
// selected and gated, the packet's PSN, length and address from the segment
// counter and the registered MTU): no path leads from an input to an output.
// Inputs reach only the clocked blocks and the S0 segment count that feeds
// a register.
//
// Constants (opcodes, modes, widths, stage indices, the request record
// ub_req_t, the parameter defaults) come from rtl/ub_pkg.sv; the port list is
// cmodel/ub_send_pipeline_ports.h.
module ub_send_pipeline #(
  parameter int NumQueues   = ub_pkg::UbspNumQueues,    // power of two
  parameter int QueueDepth  = ub_pkg::UbspQueueDepth,   // power of two
  parameter int NumJettyCtx = ub_pkg::UbspNumJettyCtx,  // power of two
  parameter int NumChannels = ub_pkg::UbspNumChannels   // power of two
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
  output logic [7:0]  held_o,           // queue q's head waits (order tracker)
  // completions coming back: one of queue cmp_q_i (its Jetty % 8)
  input  logic        cmp_valid_i,
  input  logic [2:0]  cmp_q_i,
  // configuration
  input  logic [23:0] cfg_tpn_base_i,
  input  logic [4:0]  cfg_mtu_log2_i,   // MTU 2^n bytes; 0: one packet per request
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
  output logic        pkt_comp_order_o,
  // the transport channel table: S13's request, and its answer
  output logic        seq_rq_o,
  output logic [3:0]  seq_ch_o,
  output logic [23:0] seq_nseg_o,
  input  logic        seq_valid_i,
  input  logic [23:0] seq_psn_i,
  input  logic [23:0] seq_tpmsn_i
);

  localparam int QW = $clog2(NumQueues);
  localparam int DW = $clog2(QueueDepth);
  localparam int JW = $clog2(NumJettyCtx);
  localparam int CW = $clog2(NumChannels);

  // Back-end stages. A stage index k names the register Sk.
  localparam int NumStages = ub_pkg::UbspNumStages;
  localparam int StTassn   = ub_pkg::UbspStTassn;
  localparam int StTpn     = ub_pkg::UbspStTpn;
  localparam int StSeqAsk  = ub_pkg::UbspStSeqAsk;
  localparam int StRtph    = ub_pkg::UbspStRtph;
  localparam int OutDepth  = ub_pkg::UbspOutDepth;

  // Field widths.
  localparam int TassnW = ub_pkg::UbTassnBits;
  localparam int TpnW   = ub_pkg::UbTpnBits;
  localparam int PsnW   = ub_pkg::UbPsnBits;
  localparam int ModeW  = ub_pkg::UbModeBits;
  // Memories of requests are plain vectors of the record's width (yosys 0.23
  // drops memories whose element type is a struct); what is read from them is
  // a req_t again.
  localparam int ReqW   = ub_pkg::UbReqBits;

  // The request record, field for field ub_pkg::ub_req_t (testbench/
  // ub_pkg_test.cc checks that they agree). It is declared here because
  // Icarus Verilog 11 cannot elaborate a struct type named through its
  // package, and yosys 0.23 reads no import of a package's type.
  typedef struct packed {
    logic [ub_pkg::UbTaOpcodeBits-1:0] opcode;
    logic [ub_pkg::UbModeBits-1:0]     mode;
    logic [ub_pkg::UbOrderBits-1:0]    order;
    logic                              fence;
    logic                              comp_order;
    logic [ub_pkg::UbJettyBits-1:0]    jetty;
    logic [ub_pkg::UbCeidBits-1:0]     dst;
    logic [ub_pkg::UbLenBits-1:0]      len;
    logic [ub_pkg::UbAddrBits-1:0]     addr;
    logic [ub_pkg::UbTokenBits-1:0]    token;
    logic [ub_pkg::UbTagBits-1:0]      tag;
  } req_t;

  // Packet memory: at most 12 requests are in flight between the scheduler
  // and the MAC. S0..S20 hold at most 11 (items are at least one stage
  // apart); when the output buffer fills to 2 at an edge that moved S20 into
  // it, S19 was empty before that edge, so S20 is empty after it and S0..S19
  // hold at most 10.
  localparam int NumSlots  = 12;
  localparam int SW        = $clog2(NumSlots);
  localparam logic [SW-1:0] LastSlot = SW'(NumSlots - 1);

  // The stages carry only what they compute with, each field in its own
  // shift register (stage k of field F is F_sr_q[k*W +: W]), as far as the
  // last stage that needs it; the request keeps the rest in its slot.
  localparam int IdLast    = StRtph - 1;    // slot id, S0..S14 (S9, S12, S13, S15 use)
  localparam int JettyLast = StTassn - 1;   // Jetty context, S0..S8 (S9)
  localparam int ChLast    = StSeqAsk - 1;  // channel, S0..S12 (S12, S13)
  localparam int ModeLast  = StRtph - 1;    // service mode, S0..S14 (S15)

  // ---------------------------------------------------------------------
  // Intake register
  // ---------------------------------------------------------------------
  logic            in_valid_q;
  req_t            in_req_q;
  logic [QW-1:0]   in_qidx;
  logic            drain;

  // ---------------------------------------------------------------------
  // Per-Jetty queues: circular buffers in one memory, index {queue, entry}.
  // Read / write pointers have one wrap bit more than the entry index:
  // equal pointers = empty, equal entries with different wrap bits = full.
  // q_ne_q[e] is registered with them: queue e holds a request.
  // ---------------------------------------------------------------------
  logic [ReqW-1:0]       q_mem_q [NumQueues*QueueDepth];
  logic [DW:0]           q_rd_q [NumQueues];
  logic [DW:0]           q_wr_q [NumQueues];
  logic [NumQueues-1:0]  q_ne_q;
  logic [DW:0]           in_q_wr, in_q_rd, g_rd;

  // ---------------------------------------------------------------------
  // Scheduler
  // ---------------------------------------------------------------------
  logic [QW-1:0]   rr_ptr_q;
  logic            any_req;
  logic [QW-1:0]   grant;
  logic            pick;
  req_t            pick_req;

  // ---------------------------------------------------------------------
  // Back end S0..S20: valid bits and the stage fields
  // ---------------------------------------------------------------------
  logic [NumStages-1:0]        sv_q;
  logic [(IdLast+1)*SW-1:0]    id_sr_q;
  logic [(JettyLast+1)*JW-1:0] jetty_sr_q;
  logic [(ChLast+1)*CW-1:0]    ch_sr_q;
  logic [(ModeLast+1)*ModeW-1:0] mode_sr_q;
  logic                        be_en;

  // Per-context state.
  logic [TassnW-1:0]      tassn_mem_q [NumJettyCtx];
  logic [NumJettyCtx-1:0] tassn_init_q;

  // The channel table's last answer, held (the item in S14 takes it into
  // S15 at the edge it comes, or later from here if the back end stalled).
  logic [PsnW-1:0] hold_psn_q, hold_tpmsn_q;

  // ---------------------------------------------------------------------
  // Packet memory (no reset: a slot is read only after it was written)
  // ---------------------------------------------------------------------
  logic [ReqW-1:0]   slot_req_q   [NumSlots];  // written at S0
  logic [TassnW-1:0] slot_tassn_q [NumSlots];  // written at S9
  logic [TpnW-1:0]   slot_tpn_q   [NumSlots];  // written at S12
  // written at S15: {reliable, TPMSN, first PSN}
  logic [2*PsnW:0]   slot_seq_q   [NumSlots];
  logic [PsnW-1:0]   slot_nseg_q  [NumSlots];  // written at S0: packets - 1
  logic [SW-1:0]   sl_wr_q;                  // next slot to allocate
  logic [SW-1:0]   sl_rd_q;                  // head of the output buffer

  // Output skid buffer: its entries are slots sl_rd_q and sl_rd_q + 1; the
  // head has sent seg_q of its packets. mtu_q is cfg_mtu_log2_i, registered.
  logic [1:0]      out_cnt_q;
  logic [PsnW-1:0] seg_q;
  logic [4:0]      mtu_q;
  logic            pkt_last;

  // ---------------------------------------------------------------------
  // Intake and queues
  // ---------------------------------------------------------------------
  assign in_qidx  = in_req_q.jetty[QW-1:0];
  assign in_q_wr  = q_wr_q[in_qidx];
  assign in_q_rd  = q_rd_q[in_qidx];
  // The intake drains unless its queue is full.
  assign drain    = in_valid_q && (in_q_wr != (in_q_rd ^ {1'b1, {DW{1'b0}}}));
  // wr_ready depends on registers only.
  assign wr_ready_o = !in_valid_q || drain;

  // The order tracker beside the scheduler (docs/order_tracker.md): it sees
  // every accepted request, every pick and every completion, and says which
  // queues' heads may go (a register output).
  logic [NumQueues-1:0] ot_elig;
  /* verilator lint_off UNUSEDSIGNAL */
  logic                 ot_busy;  // (the pipeline has its own)
  /* verilator lint_on UNUSEDSIGNAL */
  order_tracker u_order_tracker (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .acc_valid_i (wr_valid_i && wr_ready_o),
    .acc_q_i     (wr_jetty_i[2:0]),
    .acc_mode_i  (wr_mode_i),
    .acc_order_i (wr_order_i),
    .acc_fence_i (wr_fence_i),
    .pick_valid_i(pick),
    .pick_q_i    (grant),
    .cmp_valid_i (cmp_valid_i),
    .cmp_q_i     (cmp_q_i),
    .elig_o      (ot_elig),
    .held_o      (held_o),
    .busy_o      (ot_busy)
  );

  ub_rr_pick #(
    .N(NumQueues),
    .W(QW)
  ) u_rr_pick (
    .req_i  (q_ne_q & ot_elig),
    .ptr_i  (rr_ptr_q),
    .valid_o(any_req),
    .idx_o  (grant)
  );

  assign be_en     = (out_cnt_q != 2'(OutDepth));
  assign pick      = be_en && !sv_q[0] && any_req;
  assign g_rd      = q_rd_q[grant];
  assign pick_req  = q_mem_q[{grant, g_rd[DW-1:0]}];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      in_valid_q <= 1'b0;
      in_req_q   <= '0;
      q_ne_q     <= '0;
      rr_ptr_q   <= '0;
      for (int e = 0; e < NumQueues; e++) begin
        q_rd_q[e] <= '0;
        q_wr_q[e] <= '0;
      end
    end else begin
      // Intake: drains into its queue, takes a new request when ready.
      if (wr_valid_i && wr_ready_o) begin
        in_valid_q <= 1'b1;
        in_req_q   <= {wr_opcode_i, wr_mode_i, wr_order_i, wr_fence_i, wr_comp_order_i,
                       wr_jetty_i, wr_dst_i, wr_len_i, wr_addr_i, wr_token_i, wr_tag_i};
      end else if (drain) begin
        in_valid_q <= 1'b0;
      end
      // (a queue that takes a request holds one after the edge, whether
      // or not its head is picked at it)
      if (pick) begin
        q_rd_q[grant] <= g_rd + 1'b1;
        q_ne_q[grant] <= (g_rd + 1'b1) != q_wr_q[grant];
        rr_ptr_q <= grant + 1'b1;
      end
      if (drain) begin
        q_wr_q[in_qidx] <= in_q_wr + 1'b1;
        q_ne_q[in_qidx] <= 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (drain) begin
      q_mem_q[{in_qidx, in_q_wr[DW-1:0]}] <= in_req_q;
    end
  end

  // ---------------------------------------------------------------------
  // Back end
  // ---------------------------------------------------------------------
  // Work of the stages, from the stage words of the items entering them.
  logic [JW-1:0] tassn_idx;
  logic [TassnW-1:0] tassn_rd;
  logic          tassn_we, seq_ask, rtph_rel;
  logic [PsnW-1:0] pick_nseg;
  logic            pick_payload;
  logic [PsnW-1:0] seq_psn, seq_tpmsn;
  logic [ModeW-1:0] rtph_mode;

  assign tassn_idx = jetty_sr_q[(StTassn-1)*JW +: JW];
  assign tassn_rd  = tassn_init_q[tassn_idx] ? tassn_mem_q[tassn_idx] : '0;
  assign tassn_we  = be_en && sv_q[StTassn-1];
  assign seq_ask   = be_en && sv_q[StSeqAsk-1];
  assign seq_psn   = seq_valid_i ? seq_psn_i : hold_psn_q;
  assign seq_tpmsn = seq_valid_i ? seq_tpmsn_i : hold_tpmsn_q;
  assign rtph_mode = mode_sr_q[(StRtph-1)*ModeW +: ModeW];
  assign rtph_rel  = (rtph_mode == ub_pkg::UrmaOt) || (rtph_mode == ub_pkg::UrmaOi) ||
                     (rtph_mode == ub_pkg::UrmaOl);
  // S0: the picked request's packets less one (MTU segments; 0 without an
  // MTU; only transactions whose length is payload: sends, writes, read and
  // atomic responses), kept in its slot for S13 and the output
  assign pick_payload = (pick_req.opcode <= ub_pkg::UbTaWriteNotify) ||
                        (pick_req.opcode == ub_pkg::UbTaReadResp) ||
                        (pick_req.opcode == ub_pkg::UbTaAtomicResp);
  assign pick_nseg = (!pick_payload || cfg_mtu_log2_i == 5'd0 || pick_req.len == 32'd0) ? '0
                   : PsnW'((pick_req.len - 32'd1) >> cfg_mtu_log2_i);

  // Valid bits, slot allocation, per-context valid bits, output buffer.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sv_q         <= '0;
      sl_wr_q      <= '0;
      sl_rd_q      <= '0;
      out_cnt_q    <= '0;
      seg_q        <= '0;
      mtu_q        <= '0;
      tassn_init_q <= '0;
      seq_rq_o     <= 1'b0;
      seq_ch_o     <= '0;
      seq_nseg_o   <= '0;
      hold_psn_q   <= '0;
      hold_tpmsn_q <= '0;
    end else begin
      if (be_en) begin
        sv_q <= {sv_q[NumStages-2:0], pick};
      end
      if (pick) begin
        sl_wr_q <= (sl_wr_q == LastSlot) ? '0 : sl_wr_q + 1'b1;
      end
      mtu_q <= cfg_mtu_log2_i;
      // The MAC takes a packet: the head's next one, or after its last the
      // head is popped; S20 moves in behind.
      if ((out_cnt_q != 2'd0) && pkt_ready_i) begin
        seg_q <= pkt_last ? '0 : seg_q + 1'b1;
      end
      if ((out_cnt_q != 2'd0) && pkt_ready_i && pkt_last) begin
        sl_rd_q   <= (sl_rd_q == LastSlot) ? '0 : sl_rd_q + 1'b1;
        out_cnt_q <= out_cnt_q - 2'd1 + {1'b0, be_en && sv_q[NumStages-1]};
      end else begin
        out_cnt_q <= out_cnt_q + {1'b0, be_en && sv_q[NumStages-1]};
      end
      if (tassn_we) begin
        tassn_init_q[tassn_idx] <= 1'b1;
      end
      // S13: the request to the channel table, for one cycle; its answer
      // is held.
      seq_rq_o <= seq_ask;
      if (seq_ask) begin
        seq_ch_o   <= 4'(ch_sr_q[(StSeqAsk-1)*CW +: CW]);
        seq_nseg_o <= slot_nseg_q[id_sr_q[(StSeqAsk-1)*SW +: SW]];
      end
      if (seq_valid_i) begin
        hold_psn_q   <= seq_psn_i;
        hold_tpmsn_q <= seq_tpmsn_i;
      end
    end
  end

  // Stage words, per-context memories, packet memory.
  always_ff @(posedge clk_i) begin
    if (be_en) begin
      // S0 takes the picked request's fields (don't-care without a pick).
      id_sr_q    <= {id_sr_q[IdLast*SW-1:0], sl_wr_q};
      jetty_sr_q <= {jetty_sr_q[JettyLast*JW-1:0], pick_req.jetty[JW-1:0]};
      ch_sr_q    <= {ch_sr_q[ChLast*CW-1:0], pick_req.dst[CW-1:0]};
      mode_sr_q  <= {mode_sr_q[ModeLast*ModeW-1:0], pick_req.mode};
    end
    // S0: the picked request moves into its slot.
    if (pick) begin
      slot_req_q[sl_wr_q]  <= pick_req;
      slot_nseg_q[sl_wr_q] <= pick_nseg;
    end
    // S9: TASSN of the Jetty context (read-modify-write in one cycle).
    if (tassn_we) begin
      tassn_mem_q[tassn_idx] <= tassn_rd + 1'b1;
      slot_tassn_q[id_sr_q[(StTassn-1)*SW +: SW]] <= tassn_rd;
    end
    // S12: channel TPN.
    if (be_en && sv_q[StTpn-1]) begin
      slot_tpn_q[id_sr_q[(StTpn-1)*SW +: SW]] <= cfg_tpn_base_i
          + {{(TpnW-CW){1'b0}}, ch_sr_q[(StTpn-1)*CW +: CW]};
    end
    // S15: RTPH transport opcode (reliable or not), and the channel
    // table's answer: the message's first PSN and its TPMSN.
    if (be_en && sv_q[StRtph-1]) begin
      slot_seq_q[id_sr_q[(StRtph-1)*SW +: SW]] <= {rtph_rel, seq_tpmsn, seq_psn};
    end
  end

  // ---------------------------------------------------------------------
  // Outputs: the head of the output buffer, zero while it is empty
  // ---------------------------------------------------------------------
  req_t            pkt;
  logic            pkt_rel;
  logic [PsnW-1:0] pkt_nseg, pkt_psn, pkt_psn0, pkt_tpmsn;
  assign pkt_valid_o      = (out_cnt_q != 2'd0);
  assign pkt              = pkt_valid_o ? slot_req_q[sl_rd_q] : '0;
  assign {pkt_rel, pkt_tpmsn, pkt_psn0} = pkt_valid_o ? slot_seq_q[sl_rd_q] : '0;
  assign pkt_nseg         = pkt_valid_o ? slot_nseg_q[sl_rd_q] : '0;
  assign pkt_last         = (seg_q == pkt_nseg);
  assign pkt_psn          = pkt_valid_o ? pkt_psn0 + seg_q : '0;
  assign pkt_tp_opcode_o  = pkt_rel ? ub_pkg::UbTpReliable : ub_pkg::UbTpUnreliable;
  assign pkt_last_o       = pkt_valid_o && pkt_last;
  assign pkt_src_tpn_o    = pkt_valid_o ? slot_tpn_q[sl_rd_q] : '0;
  assign pkt_dst_tpn_o    = pkt_src_tpn_o;
  assign pkt_psn_o        = pkt_psn;
  assign pkt_tpmsn_o      = pkt_tpmsn;
  // an acknowledgement every 16th PSN, and (ROL) at the end of each message
  assign pkt_ack_req_o    = pkt_rel && (((pkt.mode == ub_pkg::UrmaOl) && pkt_last) ||
                                        (pkt_psn[3:0] == 4'hf));
  assign pkt_ta_opcode_o  = pkt.opcode;
  assign pkt_order_o      = {pkt.fence, pkt.order};  // wire order field
  assign pkt_tassn_o      = pkt_valid_o ? slot_tassn_q[sl_rd_q] : '0;
  assign pkt_jetty_o      = pkt.jetty;
  assign pkt_token_o      = pkt.token;
  // the head's packet seg_q: MTU-sized, the last what is left
  assign pkt_len_o        = (pkt_nseg == '0) ? pkt.len
                          : pkt_last ? pkt.len - (32'(seg_q) << mtu_q)
                                     : (32'd1 << mtu_q);
  assign pkt_addr_o       = pkt.addr + (64'(seg_q) << mtu_q);
  assign pkt_tag_o        = pkt.tag;
  assign pkt_dst_o        = pkt.dst;
  assign pkt_mode_o       = pkt.mode;
  assign pkt_comp_order_o = pkt.comp_order;

endmodule
