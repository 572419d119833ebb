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
// Storage: the scheduler picks a queue's head at an edge and registers
// where it lies; in the next cycle the record is read from the queue memory
// and copied once into a slot of the packet memory (slot_*), with the MTU of
// the pick edge (a request's packets follow the MTU it was split by). The
// two cycles after compute its packet count (length less one; then shifted
// by the MTU; then whether that is 0 or 1), each in a register of its own,
// long before S13 asks the channel table with it. Items leave in the order
// they were picked, so the slots are a ring allocated at sl_wr_q (12 slots:
// the most requests ever between S0 and S20). The stages S0..S20 are shift
// registers of narrow stage fields (slot id and the few request bits the
// stages compute with), written with fixed indices; a stage that computes a
// header field writes it into the item's slot.
//
// S0..S20 advance together whenever the output buffer holds fewer than two
// packets (a register-only condition), so pkt_ready_i reaches only the output
// buffer. The scheduler fills S0 only while S0 is empty: one request every
// two cycles, the rate of the two-cycle sequence round trip to the channel
// table (the pipeline keeps no PSN of its own).
//
// Output buffer: the item leaving S20 is read from its slot into one of two
// entries of registers (e0_* offered, e1_* behind it), in the form of its first
// packet, every field ready: PSN, address, length, the bytes left, the MTU
// in bytes, the packets left and whether this is the last or the one before
// it, the ack request. The MAC taking a packet steps the head to its next
// packet (PSN + 1, address + MTU, length: the MTU or, for the last, what is
// left) or, after the last, moves e1_* forward. So every output is a
// register gated by the valid flag (zero while none is offered), and no
// path leads from an input to an output.
//
// Timing (docs/rtl.md, make timing): the scheduler works on registered
// flags only (q_ne_q, q_full_q, the order tracker's elig, a thermometer
// mask for the rotating pointer) and picks in three LUT levels; everything
// that follows a pick but the queue pointers and the order tracker waits
// for the next cycle.
//
// Constants (opcodes, modes, widths, stage indices, the request record
// ub_req_t, the parameter defaults) come from rtl/ub_pkg.sv; the port list is
// cmodel/ub_send_pipeline_ports.h. Assertions: rtl/prim_assert.svh.
`include "prim_assert.svh"

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
  localparam int LastStage = NumStages - 1;
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
  localparam int LenW   = ub_pkg::UbLenBits;
  localparam int AddrW  = ub_pkg::UbAddrBits;
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

  // One entry of the output buffer: the request's packet that is offered
  // (or offered next), every field ready in a register of its own (e0_*
  // the head, e1_* the entry behind it; a simulator then moves only the
  // fields an edge changes). rem, mtub, left and nlast are bookkeeping:
  // the bytes from this packet on, the MTU in bytes, the packets after
  // this one, and whether that is one; last: whether it is none; ack:
  // this packet asks for an acknowledgement.

  // Packet memory: at most 12 requests are in flight between the scheduler
  // and the output buffer (S0..S20 hold at most 11; a slot is free once its
  // request has been copied into the output buffer).
  localparam int NumSlots  = 12;
  localparam int SW        = $clog2(NumSlots);
  localparam logic [SW-1:0] LastSlot = SW'(NumSlots - 1);

  // The stages carry only what they compute with, each field in its own
  // shift register (stage k of field F is F_sr_q[k*W +: W]), as far as the
  // last stage that needs it; the request keeps the rest in its slot.
  localparam int IdLast    = LastStage;     // slot id, S0..S20 (S9, S12, S13, S15 write; S20 reads)
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
  // Read / write pointers have one wrap bit more than the entry index.
  // q_ne_q[e]: queue e holds a request; q_full_q[e]: it holds QueueDepth
  // (both registered with the pointers, so no pointer compare lies on the
  // paths of the intake or the scheduler).
  // ---------------------------------------------------------------------
  logic [ReqW-1:0]       q_mem_q [NumQueues*QueueDepth];
  // The pointers are kept as bit planes: bit b of every queue's read
  // pointer is the plane q_rd_q[b*NumQueues +: NumQueues] (its bit e queue
  // e's), and so for the write pointers. The per-queue logic is the same
  // (the layout is wiring); the functions below do it for all queues in
  // one word operation per bit, as a simulator evaluates it.
  localparam int PW = DW + 1;
  logic [PW*NumQueues-1:0] q_rd_q, q_wr_q;
  logic [NumQueues-1:0]  q_ne_q, q_full_q;
  // each queue's pointer plus en's bit (mod 2^PW)
  function automatic logic [PW*NumQueues-1:0] plus(input logic [PW*NumQueues-1:0] p,
                                                   input logic [NumQueues-1:0] en);
    logic [NumQueues-1:0] c;
    c = en;
    for (int b = 0; b < PW; b++) begin
      plus[b*NumQueues +: NumQueues] = p[b*NumQueues +: NumQueues] ^ c;
      c = c & p[b*NumQueues +: NumQueues];
    end
  endfunction
  // per queue, whether w - r (mod 2^PW) is v
  function automatic logic [NumQueues-1:0] diff_is(input logic [PW*NumQueues-1:0] w,
                                                   input logic [PW*NumQueues-1:0] r,
                                                   input logic [PW-1:0] v);
    logic [NumQueues-1:0] br, wb, rb, d;
    br = '0;
    diff_is = {NumQueues{1'b1}};
    for (int b = 0; b < PW; b++) begin
      wb = w[b*NumQueues +: NumQueues];
      rb = r[b*NumQueues +: NumQueues];
      d  = wb ^ rb ^ br;
      br = (~wb & rb) | (~(wb ^ rb) & br);
      diff_is = diff_is & (v[b] ? d : ~d);
    end
  endfunction
  // per queue, whether its pointers in p and r differ
  function automatic logic [NumQueues-1:0] differ(input logic [PW*NumQueues-1:0] p,
                                                  input logic [PW*NumQueues-1:0] r);
    differ = '0;
    for (int b = 0; b < PW; b++) begin
      differ = differ | (p[b*NumQueues +: NumQueues] ^ r[b*NumQueues +: NumQueues]);
    end
  endfunction
  // queue e's pointer
  function automatic logic [PW-1:0] lane(input logic [PW*NumQueues-1:0] p, input logic [QW-1:0] e);
    for (int b = 0; b < PW; b++) begin
      lane[b] = p[b*NumQueues + 32'(e)];
    end
  endfunction

  // ---------------------------------------------------------------------
  // Scheduler: rotating priority. mask_q[k] is set for the queues at or
  // after the rotating pointer (all ones for pointer 0): the first
  // requester among them wins, else the first of all.
  // ---------------------------------------------------------------------
  logic [NumQueues-1:0] mask_q, req, hi, gnt_hi, gnt_lo, gnt_oh;
  logic [QW-1:0]        enc_hi, enc_lo, grant;
  logic                 any_hi, any_req, pick;

  // The picked request's record is read from the queue memory in the cycle
  // after the pick (fresh_q), at the address registered with it: S0's
  // fields are that read while fresh_q, then the copy taken of it.
  logic                 fresh_q;
  logic [QW+DW-1:0]     pk_addr_q;
  logic [4:0]           pk_mtu_q;    // cfg_mtu_log2_i at the pick
  req_t                 qrd;

  // ---------------------------------------------------------------------
  // Back end S0..S20: valid bits and the stage fields
  // ---------------------------------------------------------------------
  logic [NumStages-1:0]          sv_q;
  logic [(IdLast+1)*SW-1:0]      id_sr_q;
  logic [(JettyLast+1)*JW-1:0]   jetty_sr_q;
  logic [(ChLast+1)*CW-1:0]      ch_sr_q;
  logic [(ModeLast+1)*ModeW-1:0] mode_sr_q;
  logic                          be_en;
  logic [JW-1:0]                 s0_jetty;
  logic [CW-1:0]                 s0_ch;
  logic [ModeW-1:0]              s0_mode;

  // Per-context state.
  logic [TassnW-1:0]      tassn_mem_q [NumJettyCtx];
  logic [NumJettyCtx-1:0] tassn_init_q;

  // The channel table's last answer, held (the item in S14 takes it into
  // S15 at the edge it comes, or later from here if the back end stalled).
  logic [PsnW-1:0] hold_psn_q, hold_tpmsn_q;

  // The segment count of a picked request, two cycles after its record is
  // read (p1: length less one; p2: shifted by the MTU; p3: its flags).
  logic            p1_valid_q, p2_valid_q;
  logic [LenW-1:0] p1_lenm1_q;
  logic            p1_none_q;     // one packet whatever its length
  logic [4:0]      p1_mtu_q;
  logic [SW-1:0]   p1_id_q, p2_id_q;
  logic [PsnW-1:0] p2_nseg_q, p1_nseg;

  // ---------------------------------------------------------------------
  // Packet memory (no reset: a slot is read only after it was written)
  // ---------------------------------------------------------------------
  logic [ReqW-1:0]   slot_req_q   [NumSlots];  // written a cycle after S0
  logic [4:0]        slot_mtu_q   [NumSlots];  // the same edge: the MTU it is split by
  logic [PsnW-1:0]   slot_nseg_q  [NumSlots];  // two cycles after: packets - 1
  logic [1:0]        slot_flag_q  [NumSlots];  // three cycles after: {nseg == 1, nseg == 0}
  logic [TassnW-1:0] slot_tassn_q [NumSlots];  // written at S9
  logic [TpnW-1:0]   slot_tpn_q   [NumSlots];  // written at S12
  // written at S15: {reliable, TPMSN, first PSN}
  logic [2*PsnW:0]   slot_seq_q   [NumSlots];
  logic [SW-1:0]     sl_wr_q;                  // next slot to allocate

  // Output buffer: two entries, e0_* the packet offered (while out_cnt_q
  // is not 0), e1_* the request behind it.
  logic [1:0]      out_cnt_q, out_cnt_d;
  logic            pkt_valid_q;
`define ENTRY(e) \
  logic [TassnW-1:0]                 e``_tassn; \
  logic [ub_pkg::UbCeidBits-1:0]     e``_dst; \
  logic [ub_pkg::UbJettyBits-1:0]    e``_jetty; \
  logic [TpnW-1:0]                   e``_tpn; \
  logic [ub_pkg::UbModeBits-1:0]     e``_mode; \
  logic [ub_pkg::UbOrderBits-1:0]    e``_order; \
  logic                              e``_fence; \
  logic                              e``_comp_order; \
  logic                              e``_rel; \
  logic [PsnW-1:0]                   e``_tpmsn; \
  logic                              e``_last; \
  logic                              e``_nlast; \
  logic                              e``_ack; \
  logic [PsnW-1:0]                   e``_left; \
  logic [ub_pkg::UbTaOpcodeBits-1:0] e``_opcode; \
  logic [PsnW-1:0]                   e``_psn; \
  logic [ub_pkg::UbTagBits-1:0]      e``_tag; \
  logic [ub_pkg::UbTokenBits-1:0]    e``_token; \
  logic [LenW-1:0]                   e``_mtub; \
  logic [LenW-1:0]                   e``_rem; \
  logic [LenW-1:0]                   e``_len; \
  logic [AddrW-1:0]                  e``_addr;
  `ENTRY(e0)
  `ENTRY(e1)
`undef ENTRY
  logic            s20_in, take, pop;

  // ---------------------------------------------------------------------
  // Intake and queues
  // ---------------------------------------------------------------------
  assign in_qidx    = in_req_q.jetty[QW-1:0];
  // The intake drains unless its queue is full; wr_ready depends on
  // registers only.
  assign drain      = in_valid_q && !q_full_q[in_qidx];
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

  // The lowest requester, one-hot and as an index, among those after the
  // pointer and among all; the first wins when there is one. Written as
  // word operations (a simulator evaluates each at once; yosys sees the
  // same functions as bit-by-bit loops): lowest(v) keeps v's lowest one,
  // above(v) sets every bit above v's lowest one, index(g) is the position
  // of a one-hot g.
  function automatic logic [NumQueues-1:0] above(input logic [NumQueues-1:0] v);
    logic [NumQueues-1:0] p;
    p = v;
    for (int d = 1; d < NumQueues; d = 2 * d) begin
      p = p | (p << d);
    end
    above = p << 1;
  endfunction
  function automatic logic [QW-1:0] index(input logic [NumQueues-1:0] g);
    for (int b = 0; b < QW; b++) begin
      logic [NumQueues-1:0] sel;
      for (int k = 0; k < NumQueues; k++) begin
        sel[k] = k[b];
      end
      index[b] = |(g & sel);
    end
  endfunction
  assign req    = q_ne_q & ot_elig;
  assign any_req = |req;
`ifndef VERILATOR
  assign hi     = req & mask_q;
  assign any_hi = |hi;
  assign gnt_hi = hi & ~above(hi);
  assign gnt_lo = req & ~above(req);
  assign enc_hi = index(gnt_hi);
  assign enc_lo = index(gnt_lo);
  assign gnt_oh = any_hi ? gnt_hi : gnt_lo;
  assign grant  = any_hi ? enc_hi : enc_lo;
`else
  // The same for the Verilated model, which works it out only at the edges
  // some queue requests (without a request every term above is 0): most
  // edges of a request's way through the stages have none. Synthesis, the
  // proofs and the Icarus replays read the form above (yosys maps this one
  // two LUT levels deeper); the lockstep tests check this one against the
  // C model, and its checked build asserts that both agree
  // (SchedulerFormsAgree).
  always_comb begin
    hi     = '0;
    any_hi = 1'b0;
    gnt_hi = '0;
    gnt_lo = '0;
    enc_hi = '0;
    enc_lo = '0;
    gnt_oh = '0;
    grant  = '0;
    if (any_req) begin
      hi     = req & mask_q;
      any_hi = |hi;
      gnt_hi = hi & ~above(hi);
      gnt_lo = req & ~above(req);
      enc_hi = index(gnt_hi);
      enc_lo = index(gnt_lo);
      gnt_oh = any_hi ? gnt_hi : gnt_lo;
      grant  = any_hi ? enc_hi : enc_lo;
    end
  end
`endif
  assign be_en  = (out_cnt_q != 2'(OutDepth));
  assign pick   = be_en && !sv_q[0] && any_req;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      in_valid_q <= 1'b0;
      in_req_q   <= '0;
      q_ne_q     <= '0;
      q_full_q   <= '0;
      mask_q     <= '1;
      fresh_q    <= 1'b0;
      q_rd_q     <= '0;
      q_wr_q     <= '0;
    end else begin
      // Intake: drains into its queue, takes a new request when ready.
      if (wr_valid_i && wr_ready_o) begin
        in_valid_q <= 1'b1;
        in_req_q   <= {wr_opcode_i, wr_mode_i, wr_order_i, wr_fence_i, wr_comp_order_i,
                       wr_jetty_i, wr_dst_i, wr_len_i, wr_addr_i, wr_token_i, wr_tag_i};
      end else if (drain) begin
        in_valid_q <= 1'b0;
      end
      // Per queue: a pick pops its head, a drain pushes behind (a queue
      // that takes a request holds one after the edge, whether or not its
      // head is picked at it); a pick leaves it not full, a drain into a
      // queue one short of full fills it. (Nothing changes without either:
      // the queues' registers are enabled by the two.)
      if (pick || drain) begin
        logic [NumQueues-1:0] pk_v, dr_v;  // this edge's pick and drain, per queue
        pk_v     = {NumQueues{pick}} & gnt_oh;
        dr_v     = {NumQueues{drain}} & (NumQueues'(1) << in_qidx);
        q_rd_q   <= plus(q_rd_q, pk_v);
        q_wr_q   <= plus(q_wr_q, dr_v);
        q_ne_q   <= dr_v | (pk_v & differ(plus(q_rd_q, {NumQueues{1'b1}}), q_wr_q)) | (~pk_v & q_ne_q);
        q_full_q <= ~pk_v & (q_full_q | (dr_v & diff_is(q_wr_q, q_rd_q, PW'(QueueDepth - 1))));
      end
      if (pick) begin
        // the pointer moves behind the granted queue (after the last: all ones)
        // (all ones written out: yosys 0.23 reads '1 beside a function call as 1)
        mask_q <= gnt_oh[NumQueues-1] ? {NumQueues{1'b1}} : above(gnt_oh);
      end
      fresh_q <= pick;
    end
  end

  always_ff @(posedge clk_i) begin
    /* verilator lint_off UNUSEDSIGNAL */
    logic [PW-1:0] in_wr;  // (its wrap bit addresses nothing)
    /* verilator lint_on UNUSEDSIGNAL */
    logic [DW-1:0] g_rd;
    if (drain) begin
      in_wr = lane(q_wr_q, in_qidx);
      q_mem_q[{in_qidx, in_wr[DW-1:0]}] <= in_req_q;
    end
    // The granted queue and its read pointer (an AND-OR of the one-hot
    // grant, one plane at a time), taken at every edge (no enable in front
    // of them: they are read only in the cycle after a pick).
    for (int b = 0; b < DW; b++) begin
      g_rd[b] = |(q_rd_q[b*NumQueues +: NumQueues] & gnt_oh);
    end
    pk_addr_q <= {grant, g_rd};
    pk_mtu_q  <= cfg_mtu_log2_i;
  end
  // (a read outside the clocked blocks: the queue memory's read port is
  // asynchronous, as LUT RAM's; read inside a clocked block, yosys 0.23
  // makes it a synchronous port that sees the same edge's write)
  assign qrd = q_mem_q[pk_addr_q];

  // ---------------------------------------------------------------------
  // Back end
  // ---------------------------------------------------------------------
  // Work of the stages, from the stage words of the items entering them.
  logic [JW-1:0]     tassn_idx;
  logic [TassnW-1:0] tassn_rd;
  logic              tassn_we, seq_ask, rtph_rel;
  logic [PsnW-1:0]   seq_psn, seq_tpmsn;
  logic [ModeW-1:0]  rtph_mode;
  logic [SW-1:0]     s0_id, s20_id;

  assign s0_id     = id_sr_q[0 +: SW];
  assign s20_id    = id_sr_q[IdLast*SW +: SW];
  assign s0_jetty  = fresh_q ? qrd.jetty[JW-1:0] : jetty_sr_q[0 +: JW];
  assign s0_ch     = fresh_q ? qrd.dst[CW-1:0] : ch_sr_q[0 +: CW];
  assign s0_mode   = fresh_q ? qrd.mode : mode_sr_q[0 +: ModeW];
  assign tassn_idx = jetty_sr_q[(StTassn-1)*JW +: JW];
  assign tassn_rd  = tassn_init_q[tassn_idx] ? tassn_mem_q[tassn_idx] : '0;
  assign tassn_we  = be_en && sv_q[StTassn-1];
  assign seq_ask   = be_en && sv_q[StSeqAsk-1];
  assign seq_psn   = seq_valid_i ? seq_psn_i : hold_psn_q;
  assign seq_tpmsn = seq_valid_i ? seq_tpmsn_i : hold_tpmsn_q;
  assign rtph_mode = mode_sr_q[(StRtph-1)*ModeW +: ModeW];
  assign rtph_rel  = (rtph_mode == ub_pkg::UrmaOt) || (rtph_mode == ub_pkg::UrmaOi) ||
                     (rtph_mode == ub_pkg::UrmaOl);
  // The picked request's packets less one (MTU segments; 0 without an MTU,
  // without bytes, or for a transaction whose length is not payload: only
  // sends, writes, read and atomic responses are split), with the MTU of
  // the edge that picked it.
  function automatic logic is_payload(input logic [ub_pkg::UbTaOpcodeBits-1:0] op);
    is_payload = (op <= ub_pkg::UbTaWriteNotify) || (op == ub_pkg::UbTaReadResp) ||
                 (op == ub_pkg::UbTaAtomicResp);
  endfunction
  assign p1_nseg = p1_none_q ? '0 : PsnW'(p1_lenm1_q >> p1_mtu_q);

  // Valid bits, slot allocation, per-context valid bits, output buffer.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sv_q         <= '0;
      sl_wr_q      <= '0;
      out_cnt_q    <= '0;
      pkt_valid_q  <= 1'b0;
      tassn_init_q <= '0;
      p1_valid_q   <= 1'b0;
      p2_valid_q   <= 1'b0;
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
      p1_valid_q <= fresh_q;
      p2_valid_q <= p1_valid_q;
      // The MAC takes the offered packet: the head's next one, or after its
      // last the entry behind; S20 moves in behind.
      out_cnt_q   <= out_cnt_d;
      pkt_valid_q <= out_cnt_d != 2'd0;
      // (a one-hot decode of the index, a word to a simulator)
      tassn_init_q <= tassn_init_q | ({NumJettyCtx{tassn_we}} & (NumJettyCtx'(1) << tassn_idx));
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
    if (fresh_q) begin
      // S0 keeps a copy of its fields while it waits
      jetty_sr_q[0 +: JW]   <= s0_jetty;
      ch_sr_q[0 +: CW]      <= s0_ch;
      mode_sr_q[0 +: ModeW] <= s0_mode;
      // the request moves into its slot, with the MTU; its length less one
      // is registered
      slot_req_q[s0_id] <= qrd;
      slot_mtu_q[s0_id] <= pk_mtu_q;
      p1_lenm1_q <= qrd.len - 32'd1;
      p1_none_q  <= !is_payload(qrd.opcode) || pk_mtu_q == 5'd0 || qrd.len == 32'd0;
      p1_mtu_q   <= pk_mtu_q;
      p1_id_q    <= s0_id;
    end
    if (be_en) begin
      // S0 takes the slot id allocated (don't-care without a pick).
      id_sr_q <= {id_sr_q[IdLast*SW-1:0], sl_wr_q};
      jetty_sr_q[JW +: JettyLast*JW]   <= {jetty_sr_q[JW +: (JettyLast-1)*JW], s0_jetty};
      ch_sr_q[CW +: ChLast*CW]         <= {ch_sr_q[CW +: (ChLast-1)*CW], s0_ch};
      mode_sr_q[ModeW +: ModeLast*ModeW] <= {mode_sr_q[ModeW +: (ModeLast-1)*ModeW], s0_mode};
    end
    // Then its packets less one, then whether that is 0 or 1.
    if (p1_valid_q) begin
      slot_nseg_q[p1_id_q] <= p1_nseg;
      p2_nseg_q <= p1_nseg;
      p2_id_q   <= p1_id_q;
    end
    if (p2_valid_q) begin
      slot_flag_q[p2_id_q] <= {p2_nseg_q == PsnW'(1), p2_nseg_q == '0};
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
  // Output buffer
  // ---------------------------------------------------------------------
  // The request leaving S20 is loaded as an entry: its first packet. The
  // head steps to its next packet: MTU-sized, the last what is left. (Field
  // by field where they are loaded, so that a simulator works them out only
  // at the edges that load them; the logic is the same as a computed entry
  // selected into the register. LOAD_S20 is used for e0_* and for e1_*.)
`define LOAD_S20(e) \
      e``_rel        <= seq[2*PsnW]; \
      e``_tpmsn      <= seq[PsnW +: PsnW]; \
      e``_opcode     <= r.opcode; \
      e``_mode       <= r.mode; \
      e``_order      <= r.order; \
      e``_fence      <= r.fence; \
      e``_comp_order <= r.comp_order; \
      e``_jetty      <= r.jetty; \
      e``_dst        <= r.dst; \
      e``_token      <= r.token; \
      e``_tag        <= r.tag; \
      e``_tassn      <= slot_tassn_q[s20_id]; \
      e``_tpn        <= slot_tpn_q[s20_id]; \
      e``_psn        <= psn0; \
      e``_addr       <= r.addr; \
      e``_rem        <= r.len; \
      e``_mtub       <= mtub; \
      e``_len        <= flag[0] ? r.len : mtub; \
      e``_left       <= slot_nseg_q[s20_id]; \
      e``_last       <= flag[0]; \
      e``_nlast      <= flag[1]; \
      /* an acknowledgement every 16th PSN, and (ROL) at the end of each message */ \
      e``_ack        <= seq[2*PsnW] && (((r.mode == ub_pkg::UrmaOl) && flag[0]) || (psn0[3:0] == 4'hf));

  assign s20_in = be_en && sv_q[LastStage];
  assign out_cnt_d = out_cnt_q - {1'b0, pop} + {1'b0, s20_in};
  assign take   = pkt_valid_q && pkt_ready_i;
  assign pop    = take && e0_last;

  // The slot of the request leaving S20 (r, flag, seq, psn0, mtub), read
  // beside the clocked block. The Verilated model reads it in the block, at
  // the edges that use it (those with s20_in); yosys would make a read
  // inside a clocked block a registered memory port, so synthesis, the
  // proofs and the Icarus replays read it beside the block (the lockstep
  // tests check the Verilated form against the C model).
`ifndef VERILATOR
  req_t            r;
  logic [PsnW-1:0] psn0;
  logic [1:0]      flag;
  logic [2*PsnW:0] seq;
  logic [LenW-1:0] mtub;
  assign r    = slot_req_q[s20_id];
  assign flag = slot_flag_q[s20_id];
  assign seq  = slot_seq_q[s20_id];
  assign psn0 = seq[PsnW-1:0];
  assign mtub = LenW'(1) << slot_mtu_q[s20_id];
`endif
  always_ff @(posedge clk_i) begin
`ifdef VERILATOR
    req_t            r;
    logic [PsnW-1:0] psn0;
    logic [1:0]      flag;
    logic [2*PsnW:0] seq;
    logic [LenW-1:0] mtub;
    if (s20_in) begin
      r    = slot_req_q[s20_id];
      flag = slot_flag_q[s20_id];
      seq  = slot_seq_q[s20_id];
      psn0 = seq[PsnW-1:0];
      mtub = LenW'(1) << slot_mtu_q[s20_id];
    end
`endif
    if ((out_cnt_q == 2'd0 || (pop && out_cnt_q == 2'd1)) && s20_in) begin
      `LOAD_S20(e0)
    end else if (pop) begin
      e0_tassn      <= e1_tassn;
      e0_dst        <= e1_dst;
      e0_jetty      <= e1_jetty;
      e0_tpn        <= e1_tpn;
      e0_mode       <= e1_mode;
      e0_order      <= e1_order;
      e0_fence      <= e1_fence;
      e0_comp_order <= e1_comp_order;
      e0_rel        <= e1_rel;
      e0_tpmsn      <= e1_tpmsn;
      e0_last       <= e1_last;
      e0_nlast      <= e1_nlast;
      e0_ack        <= e1_ack;
      e0_left       <= e1_left;
      e0_opcode     <= e1_opcode;
      e0_psn        <= e1_psn;
      e0_tag        <= e1_tag;
      e0_token      <= e1_token;
      e0_mtub       <= e1_mtub;
      e0_rem        <= e1_rem;
      e0_len        <= e1_len;
      e0_addr       <= e1_addr;
    end else if (take) begin
      e0_psn   <= e0_psn + 1'b1;
      e0_addr  <= e0_addr + AddrW'(e0_mtub);
      e0_rem   <= e0_rem - e0_mtub;
      e0_len   <= e0_nlast ? e0_rem - e0_mtub : e0_mtub;
      e0_left  <= e0_left - 1'b1;
      e0_last  <= e0_nlast;
      e0_nlast <= (e0_left == PsnW'(2));
      e0_ack   <= e0_rel && (((e0_mode == ub_pkg::UrmaOl) && e0_nlast) ||
                             (e0_psn[3:0] == 4'he));
    end
    if (out_cnt_q == 2'd1 && !pop && s20_in) begin
      `LOAD_S20(e1)
    end
  end
`undef LOAD_S20

  // ---------------------------------------------------------------------
  // Outputs: the head entry, zero while none is offered
  // ---------------------------------------------------------------------
  // (the bookkeeping fields rem, mtub, left and nlast stay inside)
  assign pkt_valid_o      = pkt_valid_q;
  assign pkt_tp_opcode_o  = pkt_valid_q && e0_rel ? ub_pkg::UbTpReliable : ub_pkg::UbTpUnreliable;
  assign pkt_last_o       = pkt_valid_q ? e0_last : '0;
  assign pkt_src_tpn_o    = pkt_valid_q ? e0_tpn : '0;
  assign pkt_dst_tpn_o    = pkt_valid_q ? e0_tpn : '0;
  assign pkt_psn_o        = pkt_valid_q ? e0_psn : '0;
  assign pkt_tpmsn_o      = pkt_valid_q ? e0_tpmsn : '0;
  assign pkt_ack_req_o    = pkt_valid_q ? e0_ack : '0;
  assign pkt_ta_opcode_o  = pkt_valid_q ? e0_opcode : '0;
  assign pkt_order_o      = pkt_valid_q ? {e0_fence, e0_order} : '0;  // wire order field
  assign pkt_tassn_o      = pkt_valid_q ? e0_tassn : '0;
  assign pkt_jetty_o      = pkt_valid_q ? e0_jetty : '0;
  assign pkt_token_o      = pkt_valid_q ? e0_token : '0;
  assign pkt_len_o        = pkt_valid_q ? e0_len : '0;
  assign pkt_addr_o       = pkt_valid_q ? e0_addr : '0;
  assign pkt_tag_o        = pkt_valid_q ? e0_tag : '0;
  assign pkt_dst_o        = pkt_valid_q ? e0_dst : '0;
  assign pkt_mode_o       = pkt_valid_q ? e0_mode : '0;
  assign pkt_comp_order_o = pkt_valid_q ? e0_comp_order : '0;

  // ---------------------------------------------------------------------
  // Assertions (rtl/prim_assert.svh; make formal proves them)
  // ---------------------------------------------------------------------
  `UB_ASSERT_INIT(NumQueuesPow2, NumQueues >= 2 && (NumQueues & (NumQueues - 1)) == 0)
  `UB_ASSERT_INIT(NumQueuesFitTracker, NumQueues == ub_pkg::UbspNumQueues)
  `UB_ASSERT_INIT(QueueDepthPow2, QueueDepth >= 2 && (QueueDepth & (QueueDepth - 1)) == 0)
  `UB_ASSERT_INIT(NumJettyCtxPow2, NumJettyCtx >= 2 && (NumJettyCtx & (NumJettyCtx - 1)) == 0)
  `UB_ASSERT_INIT(NumChannelsPow2, NumChannels >= 2 && NumChannels <= 16 &&
                                   (NumChannels & (NumChannels - 1)) == 0)

  // The checks at the edges and the logic only they read: compiled when they
  // are checked (rtl/prim_assert.svh).
`ifdef UB_ASSERT_ON
  `UB_ASSERT_SETUP

  // The queues: never more than QueueDepth, and the registered flags are
  // what the pointers say (one bit per queue; yosys names an assertion once
  // per module, so the queues are checked as one vector).
  logic [NumQueues-1:0] a_q_fill_ok, a_q_full_ok, a_q_ne_ok;
  always_comb begin
    for (int e = 0; e < NumQueues; e++) begin
      logic [DW:0] occ;
      occ = lane(q_wr_q, QW'(e)) - lane(q_rd_q, QW'(e));
      a_q_fill_ok[e] = occ <= (DW+1)'(QueueDepth);
      a_q_full_ok[e] = q_full_q[e] == (occ == (DW+1)'(QueueDepth));
      a_q_ne_ok[e]   = q_ne_q[e] == (occ != '0);
    end
  end
  `UB_ASSERT(QueueNoOverflow, &a_q_fill_ok)
  `UB_ASSERT(QueueFullFlag, &a_q_full_ok)
  `UB_ASSERT(QueueNonEmptyFlag, &a_q_ne_ok)
  // The scheduler: at most one grant; a pick takes the head of a queue that
  // holds one and that the order tracker lets go; the rotating mask is a
  // run of ones up to the top queue.
  `UB_ASSERT(GrantOneHot, $onehot0(gnt_oh) && (any_req == (gnt_oh != '0)))
`ifdef VERILATOR
  // The Verilated model's scheduler (only at edges with a request) is the
  // word form that synthesis and the proofs read.
  logic [NumQueues-1:0] a_hi;
  assign a_hi = req & mask_q;
  `UB_ASSERT(SchedulerFormsAgree,
             gnt_oh == (|a_hi ? a_hi & ~above(a_hi) : req & ~above(req)) &&
             grant == (|a_hi ? index(a_hi & ~above(a_hi)) : index(req & ~above(req))))
`endif
  `UB_ASSERT(PickIsEligible, !pick || (q_ne_q[grant] && ot_elig[grant] && gnt_oh[grant]))
  `UB_ASSERT(MaskIsARun, mask_q[NumQueues-1] && ((mask_q & (mask_q << 1)) == (mask_q << 1)))
  // One request every 2 cycles at most (S0 is filled only while empty),
  // so the stages never hold two items side by side, and the table is
  // never asked on two edges in a row.
  `UB_ASSERT(IntervalOfTwo, !(pick && $past(pick)))
  `UB_ASSERT(ItemsApart, (sv_q & (sv_q >> 1)) == '0)
  `UB_ASSERT(SeqAskApart, !(seq_rq_o && $past(seq_rq_o)))
  `UB_ASSERT(FreshAfterPick, fresh_q == $past(pick))
  // Nothing enters a queue that is full, or the intake while it holds one
  // that cannot drain.
  `UB_ASSERT(DrainOnlyWithRoom, !drain || !q_full_q[in_qidx])
  // The output buffer: at most two entries; the head's flags are what its
  // counter says.
  `UB_ASSERT(OutCntInRange, out_cnt_q <= 2'(OutDepth))
  `UB_ASSERT(OutValidIsCount, pkt_valid_q == (out_cnt_q != 2'd0))
  `UB_ASSERT(HeadLastFlag, !pkt_valid_q || (e0_last == (e0_left == '0)))
  `UB_ASSERT(HeadNextLastFlag, !pkt_valid_q || (e0_nlast == (e0_left == PsnW'(1))))
  // ... and so are the second entry's, and those of every slot from the
  // edge its flags are written (p2) until its count is written again (p1
  // of a later request); the request leaving S20 has its flags written.
  // (These carry the two above back to where the flags are made.)
  logic [NumSlots-1:0] a_slot_ok_q, a_slot_flags_ok;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      a_slot_ok_q <= '0;
    end else begin
      for (int k = 0; k < NumSlots; k++) begin
        if (p1_valid_q && p1_id_q == SW'(k)) begin
          a_slot_ok_q[k] <= 1'b0;
        end else if (p2_valid_q && p2_id_q == SW'(k)) begin
          a_slot_ok_q[k] <= 1'b1;
        end
      end
    end
  end
  always_comb begin
    for (int k = 0; k < NumSlots; k++) begin
      a_slot_flags_ok[k] = !a_slot_ok_q[k] ||
          (slot_flag_q[k] == {slot_nseg_q[k] == PsnW'(1), slot_nseg_q[k] == '0});
    end
  end
  `UB_ASSERT(SecondFlags, out_cnt_q != 2'd2 ||
                          (e1_last == (e1_left == '0) && e1_nlast == (e1_left == PsnW'(1))))
  `UB_ASSERT(SlotFlags, &a_slot_flags_ok)
  `UB_ASSERT(SlotFlagsAtS20, !s20_in || a_slot_ok_q[s20_id])
  `UB_ASSERT(SlotCountForFlags, !p2_valid_q || slot_nseg_q[p2_id_q] == p2_nseg_q)
  // The packet stream: an offered packet stays offered, unchanged, until
  // taken; a message's packets follow each other with consecutive PSNs
  // (modulo 2^24) and the same message number and tag. (The last edge's
  // values are taken into registers, not by $past: $past takes the values
  // sampled before the edge's inputs are driven, and the simulator's shims
  // drive pkt_ready_i with the clock.)
  logic        a_stall_q, a_next_q, a_last_q;
  logic [23:0] a_psn_q, a_tpmsn_q;
  logic [31:0] a_len_q, a_tag_q;
  logic [63:0] a_addr_q;
  always_ff @(posedge clk_i) begin
    a_stall_q <= pkt_valid_o && !pkt_ready_i;
    a_next_q  <= pkt_valid_o && pkt_ready_i && !pkt_last_o;
    a_last_q  <= pkt_last_o;
    a_psn_q   <= pkt_psn_o;
    a_tpmsn_q <= pkt_tpmsn_o;
    a_len_q   <= pkt_len_o;
    a_tag_q   <= pkt_tag_o;
    a_addr_q  <= pkt_addr_o;
  end
  `UB_ASSERT(PktHeldUntilTaken, !a_stall_q ||
                                (pkt_valid_o && pkt_psn_o == a_psn_q && pkt_len_o == a_len_q &&
                                 pkt_addr_o == a_addr_q && pkt_tag_o == a_tag_q &&
                                 pkt_last_o == a_last_q))
  `UB_ASSERT(PsnStepsByOne, !a_next_q ||
                            (pkt_valid_o && pkt_psn_o == a_psn_q + 1'b1 &&
                             pkt_tpmsn_o == a_tpmsn_q && pkt_tag_o == a_tag_q))
  `UB_ASSERT(ZeroWhileIdle, pkt_valid_o || (pkt_psn_o == '0 && pkt_len_o == '0 && !pkt_last_o))
`endif

endmodule
