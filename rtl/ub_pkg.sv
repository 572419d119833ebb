// Constants shared by the RTL and the C models.
//
// The C twin is cmodel/ub_pkg.h: every localparam and enum item here has a
// constant there whose name is this one in upper case with underscores
// (UbPsnBits -> UB_PSN_BITS, UrmaOt -> URMA_OT), with the same value; enum
// type <type>_e is C type <type>_t; the packed struct ub_req_t has the
// fields of UB_REQ_FIELDS. testbench/ub_pkg_test.cc checks both directions.
//
// Values are plain literals (or names of constants above them) so that the
// test can read them. Modules refer to them as ub_pkg::Name (yosys reads
// neither wildcard imports nor enum casts).
package ub_pkg;

  /* verilator lint_off UNUSEDPARAM */

  // Identifier and field widths (bits).
  localparam int UbTpnBits        = 24;
  localparam int UbPsnBits        = 24;
  localparam int UbTpmsnBits      = 24;
  localparam int UbTassnBits      = 16;
  localparam int UbJettyBits      = 20;
  localparam int UbTokenidBits    = 20;
  localparam int UbTokenBits      = 32;
  localparam int UbCeidBits       = 20;  // compact EID
  localparam int UbPrioBits       = 4;
  localparam int UbTaOpcodeBits   = 8;
  localparam int UbTpOpcodeBits   = 7;
  localparam int UbModeBits       = 3;
  localparam int UbOrderBits      = 2;   // place_order of a work request
  localparam int UbWireOrderBits  = 3;   // {fence, place_order} in the TA header
  localparam int UbLenBits        = 32;
  localparam int UbAddrBits       = 64;
  localparam int UbTagBits        = 32;  // opaque request id carried to the packet
  localparam int UbReqBits        = 215; // the request record ub_req_t below
  localparam int RcQpnBits        = 24;
  localparam int RcPsnBits        = 24;
  localparam int RcOpcodeBits     = 8;

  // Wire fields.
  localparam int UbWireOrderFence = 4;   // fence bit of the wire order field
  localparam int UbRspStatusNak   = 3;
  localparam int UbRtphBytes      = 16;

  // Message-ending RC request opcodes, bit k = opcode k (opcode < 0x20):
  // SEND LAST/ONLY (+imm) 02-05, WRITE LAST/ONLY (+imm) 08-0B, READ request
  // 0C, CMP&SWAP 13, FETCH&ADD 14, SEND LAST/ONLY with invalidate 16-17.
  localparam logic [31:0] RcAckReqMask = 32'h00D8_1F3C;

  // UB send pipeline: module parameter defaults and back-end stage indices
  // (stage k is the register Sk; S0 is the scheduler output register).
  localparam int UbspNumQueues    = 8;   // per-Jetty queues: jetty % NumQueues
  localparam int UbspQueueDepth   = 4;   // entries per queue
  localparam int UbspNumJettyCtx  = 32;  // TASSN contexts: jetty % NumJettyCtx
  localparam int UbspNumChannels  = 16;  // transport channels: dst % NumChannels
  localparam int UbspNumStages    = 21;  // S0..S20
  localparam int UbspOutDepth     = 2;   // output skid buffer entries
  localparam int UbspStSched      = 0;
  localparam int UbspStOtFirst    = 5;   // order-tracker hook S5..S8
  localparam int UbspStOtLast     = 8;
  localparam int UbspStTassn      = 9;
  localparam int UbspStTah        = 10;
  localparam int UbspStChan       = 11;
  localparam int UbspStTpn        = 12;
  localparam int UbspStSeqAsk     = 13;  // asks the channel table for its PSNs
  localparam int UbspStSeqWait    = 14;  // the table answers (taken into S15)
  localparam int UbspStRtph       = 15;

  // RC send pipeline: module parameter defaults.
  localparam int RcSendNumQps     = 16;   // QP-context entries; qpn % NumQps
  localparam int RcSendMtu        = 4096; // the usual path MTU in bytes (cfg_mtu_log2_i 12)

  /* verilator lint_on UNUSEDPARAM */

  // Transaction-layer service modes.
  typedef enum logic [2:0] {
    UrmaOt = 3'd1,  // ROT: reliable, ordering enforced at the target
    UrmaOi = 3'd2,  // ROI: reliable, ordering enforced at the initiator
    UrmaOl = 3'd3,  // ROL: reliable, TA ack fused into the transport ack
    UrmaNo = 3'd4   // UNO: unreliable, no ordering
  } ub_mode_e;

  // Execution order requested by a work request (place_order).
  typedef enum logic [1:0] {
    UbOrderNo = 2'd0,
    UbOrderRo = 2'd1,
    UbOrderSo = 2'd2
  } ub_order_e;

  // Transaction opcodes.
  typedef enum logic [7:0] {
    UbTaSend          = 8'h00,
    UbTaSendImm       = 8'h01,
    UbTaSendInv       = 8'h02,
    UbTaWrite         = 8'h03,
    UbTaWriteImm      = 8'h04,
    UbTaWriteNotify   = 8'h05,
    UbTaRead          = 8'h06,
    UbTaCas           = 8'h07,
    UbTaSwap          = 8'h08,
    UbTaAtomicStore   = 8'h09,
    UbTaAtomicLoad    = 8'h0A,
    UbTaFetchAdd      = 8'h0B,
    UbTaFetchSub      = 8'h0C,
    UbTaFetchAnd      = 8'h0D,
    UbTaFetchOr       = 8'h0E,
    UbTaFetchXor      = 8'h0F,
    UbTaTaack         = 8'h11,
    UbTaReadResp      = 8'h12,
    UbTaAtomicResp    = 8'h13
  } ub_ta_opcode_e;

  // Transport layer: RTPH TPOpcode.
  typedef enum logic [6:0] {
    UbTpUnreliable = 7'h0,  // UTP data (UNO)
    UbTpReliable   = 7'h1,  // RTP data (ROI/ROT/ROL)
    UbTpAck        = 7'h2,  // NAK: ACK with rsp status 0b011
    UbTpAckCc      = 7'h3,
    UbTpSack       = 7'h5,
    UbTpSackCc     = 7'h6,
    UbTpCnp        = 7'h8
  } ub_tp_opcode_e;

  // Completion status values.
  typedef enum logic [3:0] {
    UbCrSuccess            = 4'd0,
    UbCrLocLenErr          = 4'd2,
    UbCrLocAccessErr       = 4'd4,
    UbCrRemAccessAbortErr  = 4'd8,
    UbCrAckTimeoutErr      = 4'd9,
    UbCrWrFlushErr         = 4'd11
  } ub_cr_status_e;

  // RoCE RC transport: IB BTH opcodes used here.
  typedef enum logic [7:0] {
    RcOpSendFirst    = 8'h00,
    RcOpSendMiddle   = 8'h01,
    RcOpSendLast     = 8'h02,
    RcOpSendOnly     = 8'h04,
    RcOpWriteFirst   = 8'h06,
    RcOpWriteMiddle  = 8'h07,
    RcOpWriteLast    = 8'h08,
    RcOpWriteOnly    = 8'h0A,
    RcOpReadRequest  = 8'h0C,
    RcOpReadRespFirst  = 8'h0D,
    RcOpReadRespMiddle = 8'h0E,
    RcOpReadRespLast   = 8'h0F,
    RcOpReadRespOnly   = 8'h10,
    RcOpAcknowledge    = 8'h11
  } rc_opcode_e;

  // One work request as the UB send pipeline stores it (intake register,
  // queues, packet slots); its wr_*_i ports carry the same fields.
  typedef struct packed {
    logic [UbTaOpcodeBits-1:0] opcode;
    logic [UbModeBits-1:0]     mode;
    logic [UbOrderBits-1:0]    order;
    logic                      fence;
    logic                      comp_order;
    logic [UbJettyBits-1:0]    jetty;
    logic [UbCeidBits-1:0]     dst;
    logic [UbLenBits-1:0]      len;
    logic [UbAddrBits-1:0]     addr;
    logic [UbTokenBits-1:0]    token;
    logic [UbTagBits-1:0]      tag;
  } ub_req_t;

endpackage
