// RoCE RC send pipeline: the PCIe-NIC baseline's transmit path.
//
// Work requests for RC queue pairs in, packet headers out. The PSN of a QP is
// serially dependent (read the QP context, compute, write it back), and one
// QP-context engine serves every QP, so one transaction enters the engine
// every six cycles whatever the QP.
//
//   S0       input register; wr_ready_o is its registered "empty" flag
//   C1..C6   QP-context engine, one transaction at a time (eng_stage_q):
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

  localparam logic [2:0] StIdle = 3'd0;
  localparam logic [2:0] StAddr = 3'd1;
  localparam logic [2:0] StRead = 3'd2;
  localparam logic [2:0] StComp = 3'd3;
  localparam logic [2:0] StWrBk = 3'd4;
  localparam logic [2:0] StCmit = 3'd5;
  localparam logic [2:0] StDone = 3'd6;

  // ---------------------------------------------------------------------------
  // Registers
  // ---------------------------------------------------------------------------
  // S0
  logic        s0_valid_d, s0_valid_q;
  logic [23:0] s0_qpn_q;
  logic [7:0]  s0_opcode_q;
  logic [31:0] s0_len_q;
  logic [63:0] s0_addr_q;
  logic [31:0] s0_rkey_q;
  logic [31:0] s0_tag_q;

  // engine
  logic [2:0]  eng_stage_d, eng_stage_q;
  logic [23:0] eng_qpn_q;
  logic [7:0]  eng_opcode_q;
  logic [31:0] eng_len_q;
  logic [63:0] eng_addr_q;
  logic [31:0] eng_rkey_q;
  logic [31:0] eng_tag_q;
  logic [23:0] eng_npsn_q;
  logic [23:0] eng_nseg_q;   // packets it leaves as, less one
  logic [23:0] eng_psn_q;
  logic [23:0] eng_next_q;

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
  // the message OUT is sending: packet out_seg_q of out_nseg_q + 1
  logic [7:0]  out_opcode_q;
  logic [31:0] out_len_q;
  logic [23:0] out_seg_q, out_nseg_q;

  // ---------------------------------------------------------------------------
  // Control
  // ---------------------------------------------------------------------------
  logic            out_free, eng_leave, eng_load, wr_accept;
  logic            rd_en, cmp_en, wb_en;
  logic [IdxW-1:0] eng_idx;
  logic [23:0]     ctx_rdata;
  logic [23:0]     s0_npsn, s0_segs, s0_nseg;
  logic            s0_payload_only;
  logic            out_last;
  logic [7:0]      first_op, next_op;
  logic [23:0]     next_seg;
  logic [31:0]     mtu_bytes;

  // OUT is a plain valid/ready output register: it takes C6's header at any
  // edge where it is empty or its packet is taken (pkt_ready_i only steers
  // flop enables, never an output), so a back-pressured stream loses no cycle.
  assign out_last  = (out_seg_q == out_nseg_q);
  assign out_free  = !pkt_valid_q || (pkt_ready_i && out_last);
  assign eng_leave = (eng_stage_q == StDone) && out_free;
  assign eng_load  = s0_valid_q && ((eng_stage_q == StIdle) || eng_leave);
  assign wr_accept = wr_valid_i && wr_ready_q;

  assign rd_en  = (eng_stage_q == StRead);
  assign cmp_en = (eng_stage_q == StComp);
  assign wb_en  = (eng_stage_q == StWrBk);

  assign eng_idx   = eng_qpn_q[IdxW-1:0];
  assign ctx_rdata = ctx_valid_q[eng_idx] ? ctx_psn_q[eng_idx] : cfg_psn_init_i;

  // MTU segments less one: ceil(len / MTU) - 1 (0 without an MTU or bytes).
  // A READ request consumes one PSN per packet of its response; a SEND,
  // WRITE or READ RESPONSE ONLY one per packet it leaves as; the rest one.
  assign s0_segs = (cfg_mtu_log2_i == 5'd0 || s0_len_q == 32'd0) ? '0
                 : 24'((s0_len_q - 32'd1) >> cfg_mtu_log2_i);
  assign s0_payload_only = (s0_opcode_q == ub_pkg::RcOpSendOnly) ||
                           (s0_opcode_q == ub_pkg::RcOpWriteOnly) ||
                           (s0_opcode_q == ub_pkg::RcOpReadRespOnly);
  assign s0_nseg = s0_payload_only ? s0_segs : '0;
  assign s0_npsn = ((s0_opcode_q == ub_pkg::RcOpReadRequest) ? s0_segs : s0_nseg) + 24'd1;

  // Opcodes of a message's packets: its own alone, else FIRST, MIDDLE, LAST.
  function automatic logic [7:0] seg_op(input logic [7:0] op, input logic [1:0] k);
    unique case (op)
      ub_pkg::RcOpSendOnly:  seg_op = ub_pkg::RcOpSendFirst + {6'd0, k};
      ub_pkg::RcOpWriteOnly: seg_op = ub_pkg::RcOpWriteFirst + {6'd0, k};
      default:               seg_op = ub_pkg::RcOpReadRespFirst + {6'd0, k};
    endcase
  endfunction
  function automatic logic ack_of(input logic [7:0] op);
    ack_of = (op[7:5] == 3'b000) ? AckReqMask[op[4:0]] : 1'b0;
  endfunction
  assign mtu_bytes = 32'd1 << cfg_mtu_log2_i;
  assign first_op  = (eng_nseg_q == '0) ? eng_opcode_q : seg_op(eng_opcode_q, 2'd0);
  assign next_seg  = out_seg_q + 24'd1;
  assign next_op   = seg_op(out_opcode_q, (next_seg == out_nseg_q) ? 2'd2 : 2'd1);

  always_comb begin
    eng_stage_d = eng_stage_q;
    unique case (eng_stage_q)
      StAddr, StRead, StComp, StWrBk, StCmit: eng_stage_d = eng_stage_q + 3'd1;
      StDone:  if (eng_leave) eng_stage_d = StIdle;
      default: eng_stage_d = eng_stage_q;
    endcase
    if (eng_load) begin
      eng_stage_d = StAddr;
    end
  end

  assign s0_valid_d  = (s0_valid_q && !eng_load) || wr_accept;
  assign wr_ready_d  = !s0_valid_d;
  assign pkt_valid_d = eng_leave || (pkt_valid_q && !(pkt_ready_i && out_last));

  // ---------------------------------------------------------------------------
  // Flip-flops
  // ---------------------------------------------------------------------------
  // control state and the observable output registers: reset
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s0_valid_q    <= 1'b0;
      eng_stage_q   <= StIdle;
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
      out_seg_q     <= '0;
      out_nseg_q    <= '0;
    end else begin
      s0_valid_q  <= s0_valid_d;
      eng_stage_q <= eng_stage_d;
      wr_ready_q  <= wr_ready_d;
      pkt_valid_q <= pkt_valid_d;
      if (wb_en) begin
        ctx_valid_q[eng_idx] <= 1'b1;
      end
      if (eng_leave) begin
        pkt_opcode_q  <= first_op;
        pkt_dqpn_q    <= eng_qpn_q;
        pkt_psn_q     <= eng_psn_q;
        pkt_ack_req_q <= ack_of(first_op);
        pkt_len_q     <= (eng_nseg_q == '0) ? eng_len_q : mtu_bytes;
        pkt_addr_q    <= eng_addr_q;
        pkt_rkey_q    <= eng_rkey_q;
        pkt_tag_q     <= eng_tag_q;
        out_seg_q     <= '0;
        out_nseg_q    <= eng_nseg_q;
      end else if (pkt_valid_q && pkt_ready_i && !out_last) begin
        // the message's next packet
        pkt_opcode_q  <= next_op;
        pkt_psn_q     <= pkt_psn_q + 24'd1;
        pkt_ack_req_q <= ack_of(next_op);
        pkt_len_q     <= (next_seg == out_nseg_q) ? out_len_q - (32'(next_seg) << cfg_mtu_log2_i)
                                                  : mtu_bytes;
        pkt_addr_q    <= pkt_addr_q + 64'(mtu_bytes);
        out_seg_q     <= next_seg;
      end
    end
  end

  // datapath registers: only read after they were loaded, no reset needed
  always_ff @(posedge clk_i) begin
    if (wr_accept) begin
      s0_qpn_q    <= wr_qpn_i;
      s0_opcode_q <= wr_opcode_i;
      s0_len_q    <= wr_len_i;
      s0_addr_q   <= wr_addr_i;
      s0_rkey_q   <= wr_rkey_i;
      s0_tag_q    <= wr_tag_i;
    end
    if (eng_leave) begin
      out_opcode_q <= eng_opcode_q;
      out_len_q    <= eng_len_q;
    end
    if (eng_load) begin
      eng_nseg_q   <= s0_nseg;
      eng_qpn_q    <= s0_qpn_q;
      eng_opcode_q <= s0_opcode_q;
      eng_len_q    <= s0_len_q;
      eng_addr_q   <= s0_addr_q;
      eng_rkey_q   <= s0_rkey_q;
      eng_tag_q    <= s0_tag_q;
      eng_npsn_q   <= s0_npsn;
    end
    if (rd_en) begin
      eng_psn_q <= ctx_rdata;
    end
    if (cmp_en) begin
      eng_next_q <= eng_psn_q + eng_npsn_q;
    end
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

endmodule
