// Formal wrapper of rtl/ub_rr_pick.sv (scripts/formal.sh, docs/formal.md).
//
// The pick is combinational and has no clock or reset: its assertions are
// immediate ones in always_comb, checked in every step of the proof for
// whatever the free inputs are, so one step covers every input and the
// proof is complete. One instance per supported size (N = 2 to 32; the
// send pipeline uses N = ub_pkg::UbspNumQueues = 8).
module ub_rr_pick_formal (
  input  logic [1:0]  req2_i,
  input  logic [0:0]  ptr2_i,
  input  logic [3:0]  req4_i,
  input  logic [1:0]  ptr4_i,
  input  logic [7:0]  req8_i,
  input  logic [2:0]  ptr8_i,
  input  logic [15:0] req16_i,
  input  logic [3:0]  ptr16_i,
  input  logic [31:0] req32_i,
  input  logic [4:0]  ptr32_i,
  output logic [4:0]  valid_o,
  output logic [14:0] idx_o
);
  ub_rr_pick #(.N(2),  .W(1)) u_n2  (.req_i(req2_i),  .ptr_i(ptr2_i),  .valid_o(valid_o[0]), .idx_o(idx_o[0:0]));
  ub_rr_pick #(.N(4),  .W(2)) u_n4  (.req_i(req4_i),  .ptr_i(ptr4_i),  .valid_o(valid_o[1]), .idx_o(idx_o[2:1]));
  ub_rr_pick #(.N(8),  .W(3)) u_n8  (.req_i(req8_i),  .ptr_i(ptr8_i),  .valid_o(valid_o[2]), .idx_o(idx_o[5:3]));
  ub_rr_pick #(.N(16), .W(4)) u_n16 (.req_i(req16_i), .ptr_i(ptr16_i), .valid_o(valid_o[3]), .idx_o(idx_o[9:6]));
  ub_rr_pick #(.N(32), .W(5)) u_n32 (.req_i(req32_i), .ptr_i(ptr32_i), .valid_o(valid_o[4]), .idx_o(idx_o[14:10]));
endmodule
