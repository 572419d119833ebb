// Test-only block with ports wider than 64 bits (C model:
// testbench/wide_port_test_model.c, port list: testbench/wide_port_test_ports.h).
//
//   acc    <= valid ? rotl(acc, shift) ^ data : acc
//   mix    <= {acc[129:122] ^ data[7:0], acc[63:0] + data[127:64]}
//   parity <= ^acc
//
// Every output is a register (low_o a slice of one).
module wide_port_test (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         valid_i,
  input  logic [6:0]   shift_i,
  input  logic [129:0] data_i,
  output logic [129:0] acc_o,
  output logic [71:0]  mix_o,
  output logic         parity_o,
  output logic [63:0]  low_o
);

  logic [129:0] acc_q;
  logic [71:0]  mix_q;
  logic         parity_q;
  logic [259:0] dbl;

  // rotl(acc, shift) is the upper half of {acc, acc} << shift.
  assign dbl = {acc_q, acc_q} << shift_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      acc_q    <= '0;
      mix_q    <= '0;
      parity_q <= 1'b0;
    end else begin
      if (valid_i) begin
        acc_q <= dbl[259:130] ^ data_i;
      end
      mix_q    <= {acc_q[129:122] ^ data_i[7:0], acc_q[63:0] + data_i[127:64]};
      parity_q <= ^acc_q;
    end
  end

  assign acc_o    = acc_q;
  assign mix_o    = mix_q;
  assign parity_o = parity_q;
  assign low_o    = acc_q[63:0];

  // The lower half of the doubled vector is only there to rotate; data_i
  // bits 129:128 only reach acc.
  logic unused_dbl;
  assign unused_dbl = ^dbl[129:0];

endmodule
