// Rotating-priority pick: one cycle, no sequential scan.
//
// Returns the first requester at or after ptr_i (cyclically). The request
// vector is rotated right by ptr_i and a fixed priority encoder picks the
// lowest set bit, whose index is rotated back. N must be a power of two.
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

endmodule
