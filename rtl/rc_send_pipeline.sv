// RoCE RC send pipeline: the PCIe-NIC baseline's transmit path.
//
// Work requests for RC queue pairs in, packet headers out. The PSN of a QP is
// serially dependent (read the QP context, compute, write it back), and one
// QP-context engine serves every QP, so one transaction enters the engine
// every six cycles whatever the QP.
//
//   S0       input register; wr_ready_o is its registered "empty" flag
//   C1..C6   QP-context engine, one transaction at a time (one-hot eng_st_q):
//            C1 context address, C2 context read, C3 PSN compute,
//            C4 context write-back, C5 write commit, C6 header done
//   OUT      output register, held until pkt_ready_i; a SEND ONLY, RDMA WRITE
//            ONLY or READ RESPONSE ONLY longer than the MTU leaves from it
//            as FIRST, MIDDLE... and LAST packets, one per MTU segment, each
//            with the next PSN (the engine allocated them all)
//
// Idle latency: a request accepted at edge n shows pkt_valid_o after edge
// n + 7. Every output comes from a flip-flop. The C twin is
// cmodel/rc_send_pipeline.c; docs/rc_send_pipeline.md has the stage budget.
// Constants come from rtl/ub_pkg.sv; the port list is
// cmodel/rc_send_pipeline_ports.h.
//
// Timing (3.10 ns, 322 MHz): the engine's six cycles are used to precompute
// everything OUT needs, each in a stage of its own: the MTU segment count
// (C1: a 5-bit barrel shift of len - 1, which S0 computed), the PSN count
// and the segment flags (C2), the sum (C3), the FIRST / MIDDLE / LAST
// opcodes and their AckReq bits (C3). OUT keeps "this is the last packet"
// and "the next is the last" flags instead of comparing 24-bit counters.
// What still depends on cfg_mtu_log2_i at the edge where OUT loads (the C
// model samples it there) is one decoder or shifter in front of one adder:
// the MTU-sized length, address + MTU and the LAST packet's length.
`include "prim_assert.svh"

module rc_send_pipeline #(
  parameter int NumQps = ub_pkg::RcSendNumQps  // QP-context entries, power of two >= 2
) (
  input  logic        clk_i,
  input  logic        rst_ni,

  // work requests
  input  logic        wr_valid_i,
  output logic        wr_ready_o,
  input  logic [23:0] wr_qpn_i,
  input  logic [7:0]  wr_opcode_i,
  input  logic [31:0] wr_len_i,
  input  logic [63:0] wr_addr_i,
  input  logic [31:0] wr_rkey_i,
  input  logic [31:0] wr_tag_i,

  // packets
  output logic        pkt_valid_o,
  input  logic        pkt_ready_i,
  output logic [7:0]  pkt_opcode_o,
  output logic [23:0] pkt_dqpn_o,
  output logic [23:0] pkt_psn_o,
  output logic        pkt_ack_req_o,
  output logic [31:0] pkt_len_o,
  output logic [63:0] pkt_addr_o,
  output logic [31:0] pkt_rkey_o,
  output logic [31:0] pkt_tag_o,

  // configuration: first PSN of every QP after reset; the MTU, 2^n bytes
  // (0: every request one packet)
  input  logic [23:0] cfg_psn_init_i,
  input  logic [4:0]  cfg_mtu_log2_i
);

  localparam int IdxW = $clog2(NumQps);

  // Message-ending RC request opcodes (bit k = opcode k < 0x20).
  localparam logic [31:0] AckReqMask = ub_pkg::RcAckReqMask;

  // One-hot engine stage: bit 0 idle, bit k stage Ck.
  localparam int StIdle = 0;
  localparam int StAddr = 1;
  localparam int StRead = 2;
  localparam int StComp = 3;
  localparam int StWrBk = 4;
  localparam int StCmit = 5;
  localparam int StDone = 6;

  // ---------------------------------------------------------------------------
  // Registers
  // ---------------------------------------------------------------------------
  // S0, and what it computes of the request on its way in
  logic        s0_valid_d, s0_valid_q;
  logic [23:0] s0_qpn_q;
  logic [7:0]  s0_opcode_q;
  logic [31:0] s0_len_q;
  logic [63:0] s0_addr_q;
  logic [31:0] s0_rkey_q;
  logic [31:0] s0_tag_q;
  logic [31:0] s0_len_m1_q;   // len - 1
  logic        s0_len_zero_q; // len == 0
  logic        s0_pay_q;      // SEND / WRITE / READ RESPONSE ONLY: segmented
  logic        s0_rdreq_q;    // RDMA READ request: one PSN per response packet

  // engine
  logic [6:0]  eng_st_d, eng_st_q;
  logic [23:0] eng_qpn_q;
  logic [7:0]  eng_opcode_q;
  logic [31:0] eng_len_q;
  logic [63:0] eng_addr_q;
  logic [31:0] eng_rkey_q;
  logic [31:0] eng_tag_q;
  logic [31:0] eng_len_m1_q;
  logic        eng_pay_q, eng_rdreq_q;
  logic [4:0]  eng_mtu_q;      // cfg_mtu_log2_i at the load edge (C1 uses it)
  logic        eng_nomtu_q;    // no MTU or no bytes: one segment
  logic [23:0] eng_segs_q;     // C1: MTU segments less one
  logic [23:0] eng_nseg_q;     // C2: packets it leaves as, less one
  logic        eng_one_q;      // C2: nseg == 0 (one packet)
  logic        eng_two_q;      // C2: nseg == 1 (FIRST, then LAST)
  logic [23:0] eng_npsn_q;     // C2: PSNs it consumes
  logic [23:0] eng_psn_q;      // C2: context read
  logic [23:0] eng_next_q;     // C3: next PSN of the QP
  logic [7:0]  eng_op_first_q, eng_op_mid_q, eng_op_last_q;  // C3
  logic        eng_ack_first_q, eng_ack_mid_q, eng_ack_last_q;

  // QP-context table
  logic [23:0]       ctx_psn_q [NumQps];
  logic [NumQps-1:0] ctx_valid_q;

  // outputs
  logic        wr_ready_d, wr_ready_q;
  logic        pkt_valid_d, pkt_valid_q;
  logic [7:0]  pkt_opcode_q;
  logic [23:0] pkt_dqpn_q;
  logic [23:0] pkt_psn_q;
  logic        pkt_ack_req_q;
  logic [31:0] pkt_len_q;
  logic [63:0] pkt_addr_q;
  logic [31:0] pkt_rkey_q;
  logic [31:0] pkt_tag_q;
  // the message OUT is sending: out_rem_q packets after the shown one
  logic [7:0]  out_op_mid_q, out_op_last_q;
  logic        out_ack_mid_q, out_ack_last_q;
  logic [31:0] out_len_q;
  logic [23:0] out_nseg_q, out_rem_q;
  logic        out_last_q;   // out_rem_q == 0: the shown packet ends the message
  logic        out_nlast_q;  // out_rem_q == 1: the next one does

  // assertion support (ub_past_ok_q: $past is meaningful)
  `UB_ASSERT_SETUP

  // ---------------------------------------------------------------------------
  // Control
  // ---------------------------------------------------------------------------
  logic            out_free, out_adv, eng_leave, eng_load, wr_accept;
  logic            rd_en, cmp_en, wb_en;
  logic [IdxW-1:0] eng_idx;
  logic [23:0]     ctx_rdata;
  logic [31:0]     mtu_bytes, last_len, addr_lo_next;
  logic [31:0]     addr_hi_inc;
  logic            addr_cout;
  logic [23:0]     segs_cnt;

  // OUT is a plain valid/ready output register: it takes C6's header at any
  // edge where it is empty or its packet is taken (pkt_ready_i only steers
  // flop enables, never an output), so a back-pressured stream loses no cycle.
  assign out_free  = !pkt_valid_q || (pkt_ready_i && out_last_q);
  assign out_adv   = pkt_valid_q && pkt_ready_i && !out_last_q;
  assign eng_leave = eng_st_q[StDone] && out_free;
  assign eng_load  = s0_valid_q && (eng_st_q[StIdle] || eng_leave);
  assign wr_accept = wr_valid_i && wr_ready_q;

  assign rd_en  = eng_st_q[StRead];
  assign cmp_en = eng_st_q[StComp];
  assign wb_en  = eng_st_q[StWrBk];

  assign eng_idx   = eng_qpn_q[IdxW-1:0];
  assign ctx_rdata = ctx_valid_q[eng_idx] ? ctx_psn_q[eng_idx] : cfg_psn_init_i;

  // Opcodes of a message's packets: its own alone, else FIRST, MIDDLE, LAST.
  function automatic logic [7:0] seg_op(input logic [7:0] op, input logic [1:0] k);
    case (op)
      ub_pkg::RcOpSendOnly:  seg_op = ub_pkg::RcOpSendFirst + {6'd0, k};
      ub_pkg::RcOpWriteOnly: seg_op = ub_pkg::RcOpWriteFirst + {6'd0, k};
      default:               seg_op = ub_pkg::RcOpReadRespFirst + {6'd0, k};
    endcase
  endfunction
  function automatic logic ack_of(input logic [7:0] op);
    ack_of = (op[7:5] == 3'b000) ? AckReqMask[op[4:0]] : 1'b0;
  endfunction

  // C1: MTU segments less one, ceil(len / MTU) - 1 (0 without an MTU or
  // bytes), with the MTU of the load edge. A READ request consumes one PSN
  // per packet of its response; a SEND, WRITE or READ RESPONSE ONLY one per
  // packet it leaves as; the rest one.
  assign segs_cnt = eng_nomtu_q ? '0 : 24'(eng_len_m1_q >> eng_mtu_q);

  // The MTU and the LAST packet's length use cfg_mtu_log2_i of the edge OUT
  // loads at: a decoder, a shifter in front of the 32-bit subtract.
  assign mtu_bytes = 32'd1 << cfg_mtu_log2_i;
  assign last_len  = out_len_q - (32'(out_nseg_q) << cfg_mtu_log2_i);

  // The next packet's address, pkt_addr + MTU, as a 32-bit add of the MTU
  // to the low half and a carry that selects the high half + 1 (computed in
  // parallel from the register) by the flop enable: no 64-bit carry chain
  // behind the MTU decoder. The MTU is at most 2^31, so the low half
  // carries out exactly where its bit 31 falls.
  assign addr_lo_next = pkt_addr_q[31:0] + mtu_bytes;
  assign addr_cout    = pkt_addr_q[31] && !addr_lo_next[31];
  assign addr_hi_inc  = pkt_addr_q[63:32] + 32'd1;

  // next engine stage (one-hot): a load only happens from idle or C6
  assign eng_st_d = {eng_st_q[StCmit] || (eng_st_q[StDone] && !eng_leave),  // C6
                     eng_st_q[StWrBk:StAddr],                              // C2..C5
                     eng_load,                                             // C1
                     (eng_st_q[StIdle] || eng_leave) && !eng_load};        // idle

  assign s0_valid_d  = (s0_valid_q && !eng_load) || wr_accept;
  assign wr_ready_d  = !s0_valid_d;
  assign pkt_valid_d = eng_leave || (pkt_valid_q && !(pkt_ready_i && out_last_q));

  // ---------------------------------------------------------------------------
  // Flip-flops
  // ---------------------------------------------------------------------------
  // control state and the observable output registers: reset
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s0_valid_q    <= 1'b0;
      eng_st_q      <= 7'b1 << StIdle;
      ctx_valid_q   <= '0;
      wr_ready_q    <= 1'b1;
      pkt_valid_q   <= 1'b0;
      pkt_opcode_q  <= '0;
      pkt_dqpn_q    <= '0;
      pkt_psn_q     <= '0;
      pkt_ack_req_q <= 1'b0;
      pkt_len_q     <= '0;
      pkt_addr_q    <= '0;
      pkt_rkey_q    <= '0;
      pkt_tag_q     <= '0;
      out_rem_q     <= '0;
      out_last_q    <= 1'b1;
      out_nlast_q   <= 1'b0;
    end else begin
      s0_valid_q  <= s0_valid_d;
      eng_st_q    <= eng_st_d;
      wr_ready_q  <= wr_ready_d;
      pkt_valid_q <= pkt_valid_d;
      // C4: the context's valid bit, written through a decoder
      for (int k = 0; k < NumQps; k++) begin
        if (wb_en && (eng_idx == IdxW'(k))) begin
          ctx_valid_q[k] <= 1'b1;
        end
      end
      if (eng_leave) begin
        pkt_opcode_q  <= eng_op_first_q;
        pkt_dqpn_q    <= eng_qpn_q;
        pkt_psn_q     <= eng_psn_q;
        pkt_ack_req_q <= eng_ack_first_q;
        pkt_len_q     <= eng_one_q ? eng_len_q : mtu_bytes;
        pkt_addr_q    <= eng_addr_q;
        pkt_rkey_q    <= eng_rkey_q;
        pkt_tag_q     <= eng_tag_q;
        out_rem_q     <= eng_nseg_q;
        out_last_q    <= eng_one_q;
        out_nlast_q   <= eng_two_q;
      end else if (out_adv) begin
        // the message's next packet
        pkt_opcode_q  <= out_nlast_q ? out_op_last_q : out_op_mid_q;
        pkt_psn_q     <= pkt_psn_q + 24'd1;
        pkt_ack_req_q <= out_nlast_q ? out_ack_last_q : out_ack_mid_q;
        pkt_len_q     <= out_nlast_q ? last_len : mtu_bytes;
        pkt_addr_q[31:0] <= addr_lo_next;
        if (addr_cout) begin
          pkt_addr_q[63:32] <= addr_hi_inc;
        end
        out_rem_q     <= out_rem_q - 24'd1;
        out_last_q    <= out_nlast_q;
        out_nlast_q   <= (out_rem_q == 24'd2);
      end
    end
  end

  // datapath registers: only read after they were loaded, no reset needed
  always_ff @(posedge clk_i) begin
    if (wr_accept) begin
      s0_qpn_q      <= wr_qpn_i;
      s0_opcode_q   <= wr_opcode_i;
      s0_len_q      <= wr_len_i;
      s0_addr_q     <= wr_addr_i;
      s0_rkey_q     <= wr_rkey_i;
      s0_tag_q      <= wr_tag_i;
      s0_len_m1_q   <= wr_len_i - 32'd1;
      s0_len_zero_q <= (wr_len_i == 32'd0);
      s0_pay_q      <= (wr_opcode_i == ub_pkg::RcOpSendOnly) ||
                       (wr_opcode_i == ub_pkg::RcOpWriteOnly) ||
                       (wr_opcode_i == ub_pkg::RcOpReadRespOnly);
      s0_rdreq_q    <= (wr_opcode_i == ub_pkg::RcOpReadRequest);
    end
    if (eng_leave) begin
      out_op_mid_q   <= eng_op_mid_q;
      out_op_last_q  <= eng_op_last_q;
      out_ack_mid_q  <= eng_ack_mid_q;
      out_ack_last_q <= eng_ack_last_q;
      out_len_q      <= eng_len_q;
      out_nseg_q     <= eng_nseg_q;
    end
    if (eng_load) begin
      eng_qpn_q    <= s0_qpn_q;
      eng_opcode_q <= s0_opcode_q;
      eng_len_q    <= s0_len_q;
      eng_addr_q   <= s0_addr_q;
      eng_rkey_q   <= s0_rkey_q;
      eng_tag_q    <= s0_tag_q;
      eng_len_m1_q <= s0_len_m1_q;
      eng_pay_q    <= s0_pay_q;
      eng_rdreq_q  <= s0_rdreq_q;
      eng_mtu_q    <= cfg_mtu_log2_i;
      eng_nomtu_q  <= (cfg_mtu_log2_i == 5'd0) || s0_len_zero_q;
    end
    // C1: segment count
    if (eng_st_q[StAddr]) begin
      eng_segs_q <= segs_cnt;
    end
    // C2: context read; packets and PSNs of the transaction
    if (rd_en) begin
      eng_psn_q  <= ctx_rdata;
      eng_nseg_q <= eng_pay_q ? eng_segs_q : '0;
      eng_one_q  <= !eng_pay_q || (eng_segs_q == 24'd0);
      eng_two_q  <= eng_pay_q && (eng_segs_q == 24'd1);
      eng_npsn_q <= ((eng_pay_q || eng_rdreq_q) ? eng_segs_q : '0) + 24'd1;
    end
    // C3: next PSN; the opcodes and AckReq bits of the packets
    if (cmp_en) begin
      eng_next_q      <= eng_psn_q + eng_npsn_q;
      eng_op_first_q  <= eng_one_q ? eng_opcode_q : seg_op(eng_opcode_q, 2'd0);
      eng_op_mid_q    <= seg_op(eng_opcode_q, 2'd1);
      eng_op_last_q   <= seg_op(eng_opcode_q, 2'd2);
      eng_ack_first_q <= eng_one_q ? ack_of(eng_opcode_q) : ack_of(seg_op(eng_opcode_q, 2'd0));
      eng_ack_mid_q   <= ack_of(seg_op(eng_opcode_q, 2'd1));
      eng_ack_last_q  <= ack_of(seg_op(eng_opcode_q, 2'd2));
    end
    // C4: context write-back
    if (wb_en) begin
      ctx_psn_q[eng_idx] <= eng_next_q;
    end
  end

  // ---------------------------------------------------------------------------
  // Outputs: straight from flip-flops
  // ---------------------------------------------------------------------------
  assign wr_ready_o    = wr_ready_q;
  assign pkt_valid_o   = pkt_valid_q;
  assign pkt_opcode_o  = pkt_opcode_q;
  assign pkt_dqpn_o    = pkt_dqpn_q;
  assign pkt_psn_o     = pkt_psn_q;
  assign pkt_ack_req_o = pkt_ack_req_q;
  assign pkt_len_o     = pkt_len_q;
  assign pkt_addr_o    = pkt_addr_q;
  assign pkt_rkey_o    = pkt_rkey_q;
  assign pkt_tag_o     = pkt_tag_q;

  // ---------------------------------------------------------------------------
  // Assertions (rtl/prim_assert.svh): checked by Verilator in every RTL and
  // lockstep test, proved by make formal. Nothing here is synthesised: the
  // interval counter drives only assertions.
  // ---------------------------------------------------------------------------
  `UB_ASSERT_INIT(NumQpsPow2, NumQps >= 2 && (NumQps & (NumQps - 1)) == 0)

  // The checks at the edges and the logic only they read: compiled when they
  // are checked (rtl/prim_assert.svh).
`ifdef UB_ASSERT_ON
  // Cycles since the engine's last load, saturating at 7 (7 after reset);
  // and what happened at the last edge. The latter are flops rather than
  // $past(...) because they depend on pkt_ready_i: Verilator takes $past of
  // an expression from its sampled (preponed) values, and the simulator
  // changes the inputs in the same time slot as the clock edge, so $past of
  // an input reads one edge too early there. $past of a flop is exact and
  // is used below.
  logic [2:0] eng_gap_q;
  logic       pkt_held_q;   // a packet was offered and not taken
  logic       out_adv_q;    // OUT moved on to its message's next packet
  logic       eng_leave_q;  // OUT took a header from C6
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      eng_gap_q   <= 3'd7;
      pkt_held_q  <= 1'b0;
      out_adv_q   <= 1'b0;
      eng_leave_q <= 1'b0;
    end else begin
      if (eng_load) begin
        eng_gap_q <= 3'd1;
      end else if (eng_gap_q != 3'd7) begin
        eng_gap_q <= eng_gap_q + 3'd1;
      end
      pkt_held_q  <= pkt_valid_q && !pkt_ready_i;
      out_adv_q   <= out_adv;
      eng_leave_q <= eng_leave;
    end
  end

  // FIRST of the family of a FIRST or MIDDLE opcode (8'hFF for any other)
  function automatic logic [7:0] seg_base(input logic [7:0] op);
    case (op)
      ub_pkg::RcOpSendFirst,     ub_pkg::RcOpSendMiddle:     seg_base = ub_pkg::RcOpSendFirst;
      ub_pkg::RcOpWriteFirst,    ub_pkg::RcOpWriteMiddle:    seg_base = ub_pkg::RcOpWriteFirst;
      ub_pkg::RcOpReadRespFirst, ub_pkg::RcOpReadRespMiddle: seg_base = ub_pkg::RcOpReadRespFirst;
      default:                                               seg_base = 8'hFF;
    endcase
  endfunction
  // a message's packets after the first: MIDDLE, ..., LAST of its family
  function automatic logic seg_next_ok(input logic [7:0] prev, input logic [7:0] cur,
                                       input logic last);
    seg_next_ok = (seg_base(prev) != 8'hFF) && (cur == seg_base(prev) + (last ? 8'd2 : 8'd1));
  endfunction
  function automatic logic is_first_op(input logic [7:0] op);
    is_first_op = (op == ub_pkg::RcOpSendFirst) || (op == ub_pkg::RcOpWriteFirst) ||
                  (op == ub_pkg::RcOpReadRespFirst);
  endfunction

  logic eng_after_c2, eng_after_c3;
  assign eng_after_c2 = |eng_st_q[StDone:StComp];
  assign eng_after_c3 = |eng_st_q[StDone:StWrBk];

  // intake: wr_ready_o is S0's "empty" flag, so S0 never takes a second
  // request over the one it holds
  `UB_ASSERT(WrReadyIsS0Empty, wr_ready_o == !s0_valid_q)
  `UB_ASSERT(IntakeNoOverflow, !(wr_accept && s0_valid_q))
  // the engine: one stage at a time, loaded only when free, at most one
  // transaction every six cycles
  `UB_ASSERT(EngineOneHot, $onehot(eng_st_q))
  `UB_ASSERT(EngineLoadsWhenFree, !eng_load || eng_st_q[StIdle] || eng_st_q[StDone])
  `UB_ASSERT(EngineIntervalSix, !eng_load || eng_gap_q >= 3'd6)
  // the output handshake: a packet offered stays offered, unchanged, until
  // pkt_ready_i takes it
  `UB_ASSERT(PktHeldUntilReady, !pkt_held_q || pkt_valid_o)
  `UB_ASSERT(PktStableWhileHeld, !pkt_held_q ||
             ({pkt_opcode_o, pkt_dqpn_o, pkt_psn_o, pkt_ack_req_o, pkt_len_o, pkt_addr_o,
               pkt_rkey_o, pkt_tag_o} ==
              $past({pkt_opcode_o, pkt_dqpn_o, pkt_psn_o, pkt_ack_req_o, pkt_len_o, pkt_addr_o,
                     pkt_rkey_o, pkt_tag_o})))
  // OUT's message flags follow its packet count
  `UB_ASSERT(OutLastFlag, out_last_q == (out_rem_q == 24'd0))
  `UB_ASSERT(OutNextLastFlag, out_nlast_q == (out_rem_q == 24'd1))
  // a segmented message: FIRST, then MIDDLE... and LAST of the same family,
  // each with the next PSN (mod 2^24), the same QP, rkey and tag
  `UB_ASSERT(SegFirstOpcode, !eng_leave_q || out_last_q || is_first_op(pkt_opcode_o))
  `UB_ASSERT(SegNextOpcode, !out_adv_q ||
             seg_next_ok($past(pkt_opcode_o), pkt_opcode_o, out_last_q))
  `UB_ASSERT(SegPsnPlusOne, !out_adv_q ||
             (pkt_valid_o && pkt_psn_o == 24'($past(pkt_psn_o) + 24'd1)))
  `UB_ASSERT(SegSameMessage, !out_adv_q ||
             ({pkt_dqpn_o, pkt_rkey_o, pkt_tag_o} == $past({pkt_dqpn_o, pkt_rkey_o, pkt_tag_o})))
  // what the engine precomputed for OUT agrees with what it stands for
  // (these carry the proofs over a stall of any length in C6 or OUT)
  `UB_ASSERT(EngSegFlags, !eng_after_c2 ||
             (eng_one_q == (eng_nseg_q == 24'd0) && eng_two_q == (eng_nseg_q == 24'd1)))
  `UB_ASSERT(EngSegOpcodes, !eng_after_c3 || eng_one_q ||
             (is_first_op(eng_op_first_q) && eng_op_mid_q == eng_op_first_q + 8'd1 &&
              eng_op_last_q == eng_op_first_q + 8'd2))
  `UB_ASSERT(EngAckReqs, !eng_after_c3 ||
             (eng_ack_first_q == ack_of(eng_op_first_q) && eng_ack_mid_q == ack_of(eng_op_mid_q) &&
              eng_ack_last_q == ack_of(eng_op_last_q)))
  `UB_ASSERT(OutSegOpcodes, !pkt_valid_q || out_last_q ||
             (seg_base(pkt_opcode_q) != 8'hFF && out_op_mid_q == seg_base(pkt_opcode_q) + 8'd1 &&
              out_op_last_q == seg_base(pkt_opcode_q) + 8'd2 &&
              out_ack_mid_q == ack_of(out_op_mid_q) && out_ack_last_q == ack_of(out_op_last_q)))
  // AckReq is the opcode's
  `UB_ASSERT(AckReqOfOpcode, !pkt_valid_o || pkt_ack_req_o == ack_of(pkt_opcode_o))
`endif

endmodule
