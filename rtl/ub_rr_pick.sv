// Rotating-priority pick: one cycle, no sequential scan.
//
// Returns the first requester at or after ptr_i (cyclically). The request
// vector is rotated right by ptr_i and a fixed priority encoder picks the
// lowest set bit, whose index is rotated back. N must be a power of two.
//
// Assertions (combinational, so immediate assertions in always_comb rather
// than the clocked `UB_ASSERT of rtl/prim_assert.svh; proven for N = 2..32
// by scripts/formal.sh through formal/ub_rr_pick_formal.sv, docs/formal.md).
`include "prim_assert.svh"

module ub_rr_pick #(
  parameter int N = 8,
  parameter int W = 3  // $clog2(N)
) (
  input  logic [N-1:0] req_i,
  input  logic [W-1:0] ptr_i,
  output logic         valid_o,
  output logic [W-1:0] idx_o
);

  logic [2*N-1:0] dbl;
  logic [N-1:0]   rot;
  logic [W-1:0]   off;

  assign dbl = {req_i, req_i} >> ptr_i;
  assign rot = dbl[N-1:0];

  always_comb begin
    off = '0;
    for (int k = N - 1; k >= 0; k--) begin
      if (rot[k]) begin
        off = W'(k);
      end
    end
  end

  assign valid_o = |req_i;
  assign idx_o   = ptr_i + off;

  // The upper half of the doubled vector is only there to rotate.
  logic unused_dbl;
  assign unused_dbl = ^dbl[2*N-1:N];

  // ---------------------------------------------------------------------
  // Assertions
  // ---------------------------------------------------------------------

  // W is exactly $clog2(N) and N a power of two: the index wraps modulo N
  `UB_ASSERT_INIT(NIsPow2W_A, N >= 2 && N == 2 ** W)

`ifndef SYNTHESIS
`ifndef __ICARUS__
  // skipped: a requester cyclically between ptr_i (inclusive) and idx_o
  // (exclusive), which the pick must not pass over
  logic         skipped;
  logic [W-1:0] dist_grant;
  always_comb begin
    dist_grant = idx_o - ptr_i;
    skipped    = 1'b0;
    for (int k = 0; k < N; k++) begin
      if (W'(W'(k) - ptr_i) < dist_grant && req_i[k]) begin
        skipped = 1'b1;
      end
    end
  end

  always_comb begin
    // there is a pick exactly when there is a requester
    ValidIffReq_A: assert (valid_o == (req_i != '0));
    // the grant is a requester (an in-range index: N == 2**W)
    GrantIsReq_A: assert (!valid_o || req_i[idx_o]);
    // it is the first requester at or after ptr_i, cyclically
    NoSkip_A: assert (!valid_o || !skipped);
  end
`endif
`endif

endmodule
