// Assertion macros of the RTL (in the style of OpenTitan's prim_assert.sv):
// every block states its invariants with them, and a tool that lacks
// assertions still builds it.
//
//   `UB_ASSERT_SETUP            once per module, after its ports: the flag
//                               ub_past_ok_q, 1 from the first edge after
//                               reset (so $past is meaningful where it is 1)
//   `UB_ASSERT(Name, prop)      prop holds at every rising clk_i edge once
//                               out of reset (an immediate assertion in a
//                               clocked block: values before the edge; may use
//                               $past); Verilator checks it (--assert) in the
//                               checked build (every RTL and lockstep test,
//                               ubsim-checked), yosys-smtbmc and ABC prove it
//                               (make formal, scripts/formal.sh)
//   `UB_ASSUME(Name, prop)      what the block expects of its inputs: an
//                               assumption for the proof, nothing elsewhere
//                               (the simulations drive inputs at random)
//   `UB_ASSERT_INIT(Name, prop) a parameter check at elaboration ($error)
//
// The assertions are compiled only when UB_ASSERTS is defined (the checked
// build of the Verilated models passes +define+UB_ASSERTS; FORMAL defines
// it): then this file defines UB_ASSERT_ON, and each block keeps the logic that only its
// assertions read (shadow registers, per-queue checks, the model's values
// for the next edge) inside `ifdef UB_ASSERT_ON, so that the build that
// does not check them does not simulate that logic either. Synthesis (yosys
// defines SYNTHESIS), Icarus Verilog (__ICARUS__, which the replays use) and
// a build without UB_ASSERTS see empty macros (the parameter checks stay,
// except in synthesis and Icarus). The properties name clk_i and rst_ni, the
// project's clock and reset.
`ifndef UB_PRIM_ASSERT_SVH
`define UB_PRIM_ASSERT_SVH
`ifdef FORMAL
  `define UB_ASSERTS
`endif
`ifdef SYNTHESIS
  `define UB_ASSERT_SETUP
  `define UB_ASSERT(name, prop)
  `define UB_ASSUME(name, prop)
  `define UB_ASSERT_INIT(name, prop)
`elsif __ICARUS__
  `define UB_ASSERT_SETUP
  `define UB_ASSERT(name, prop)
  `define UB_ASSUME(name, prop)
  `define UB_ASSERT_INIT(name, prop)
`elsif UB_ASSERTS
  `define UB_ASSERT_ON
  `define UB_ASSERT_SETUP \
    logic ub_past_ok_q; \
    always_ff @(posedge clk_i or negedge rst_ni) begin \
      if (!rst_ni) ub_past_ok_q <= 1'b0; \
      else         ub_past_ok_q <= 1'b1; \
    end
  `define UB_ASSERT(name, prop) \
    always_ff @(posedge clk_i) begin \
      if (ub_past_ok_q) begin \
        name: assert (prop); \
      end \
    end
  `ifdef FORMAL
    `define UB_ASSUME(name, prop) \
      always_ff @(posedge clk_i) begin \
        if (ub_past_ok_q) begin \
          name: assume (prop); \
        end \
      end
  `else
    `define UB_ASSUME(name, prop)
  `endif
  `define UB_ASSERT_INIT(name, prop) \
    if (!(prop)) begin : name \
      $error("parameter check failed: %s", `"prop`"); \
    end
`else
  `define UB_ASSERT_SETUP
  `define UB_ASSERT(name, prop)
  `define UB_ASSUME(name, prop)
  `define UB_ASSERT_INIT(name, prop) \
    if (!(prop)) begin : name \
      $error("parameter check failed: %s", `"prop`"); \
    end
`endif
`endif
