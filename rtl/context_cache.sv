// Context cache: variable-size records in sets with a byte budget,
// pseudo-LRU or random replacement, 8 miss registers that merge misses to
// one record, dirty records written back on eviction (docs/context_cache.md).
//
// Its combinational blocks are `always @*`: Icarus Verilog 11 never settles
// some of them written as always_comb (it wakes them again and again within
// one time step), while both forms mean the same to Verilator and yosys.
//
// RTL twin of cmodel/context_cache.c; both agree cycle for cycle. A request
// is looked up over a pipeline (below, "the lookup pipeline"): taken into
// A with its set, moved to B with its ways' tags compared and its miss
// registers matched, decided at the edge after. The steps of an edge follow
// the C model's order: (1) the request in B is decided, (2) a fill
// completes its miss register, (4a) a hit due answers, (3) the lowest miss
// register filled before the edge answers a waiter, or evicts one record or
// installs its own as planned over the three edges before (below, "(3)'s
// plan"), (5) the next fetch goes out, for a register taken before the
// edge. Decisions are taken from the registers before the edge, with the
// decided request's own update of a record bypassed into (3); a fill is not
// (its register is served from the next edge).
//
// The port list is cmodel/context_cache_ports.h. SETS and WAYS are the
// largest geometry (the configuration inputs choose within it); the
// simulator needs 64 and 128.
//
// `make lint` synthesizes a small geometry (yosys needs far too long for
// 8192 records of 92 bits):
// lint-synth: hierarchy -top context_cache -chparam SETS 2 -chparam WAYS 4
`include "prim_assert.svh"

module context_cache #(
  parameter int SETS = 64,
  parameter int WAYS = 128
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [31:0] cfg_capacity_i,
  input  logic [2:0]  cfg_sets_log2_i,
  input  logic [7:0]  cfg_ways_i,
  input  logic [43:0] cfg_rec_bytes_i,
  input  logic        cfg_random_i,
  input  logic [15:0] cfg_seed_i,
  input  logic [3:0]  cfg_hit_cycles_i,
  input  logic        rq_valid_i,
  input  logic [1:0]  rq_kind_i,
  input  logic [23:0] rq_id_i,
  input  logic [7:0]  rq_tag_i,
  input  logic        rq_write_i,
  input  logic [31:0] rq_wdata_i,
  input  logic        fill_valid_i,
  input  logic [2:0]  fill_tag_i,
  input  logic [31:0] fill_data_i,
  input  logic        mreq_ready_i,
  output logic        rq_ready_o,
  output logic        rsp_valid_o,
  output logic [7:0]  rsp_tag_o,
  output logic [31:0] rsp_data_o,
  output logic        rsp_hit_o,
  output logic        mreq_valid_o,
  output logic [1:0]  mreq_kind_o,
  output logic [23:0] mreq_id_o,
  output logic [10:0] mreq_bytes_o,
  output logic [2:0]  mreq_tag_o,
  output logic        wb_valid_o,
  output logic [1:0]  wb_kind_o,
  output logic [23:0] wb_id_o,
  output logic [31:0] wb_data_o,   // (a choice between two registers)
  output logic [10:0] wb_bytes_o,
  output logic [31:0] hits_o,
  output logic [31:0] misses_o,
  output logic [31:0] merged_o,
  output logic [31:0] evictions_o,
  output logic        busy_o
);

  localparam int SW = $clog2(SETS);
  localparam int WW = $clog2(WAYS);
  localparam int NM = 8;  // miss registers
  localparam int NW = 8;  // waiters per miss register
  localparam logic [1:0] MFree = 2'd0, MWait = 2'd1, MFilled = 2'd2;
  localparam int MinHit = 4;  // CC_MIN_HIT: the lookup's edges and the data read

  // ---- records ----
  // valid and dirty bits in flip-flops (they reset); each way's tag (kind
  // and id) and data in memories of SETS rows without a reset (below, after
  // the logic that writes them), read asynchronously by the request's set
  // and by the lowest filled miss register's set: LUT RAM
  logic [WAYS-1:0] e_valid [SETS], e_dirty [SETS];  // per set, a bit per way
  logic [WAYS-1:0] rq_valids, fm_valids;           // the request's set's, fm's set's
  logic [25:0]   rq_tags [WAYS], fm_tags [WAYS];   // {kind, id}
  logic [31:0]   rq_datas [WAYS], fm_datas [WAYS];

`ifdef UB_ASSERT_ON
  logic [25:0]   a_pb_tags [WAYS];                 // (the request decided's set's, for a check)
`endif
  logic [31:0]   used_q  [SETS];
  // per set, the pseudo-LRU tree: bit n (1..WAYS-1; node n's children are
  // 2n and 2n + 1, way w is leaf WAYS + w) set when the next victim lies
  // under its right child
  logic [WAYS-1:0] plru_q [SETS];
  // ---- miss registers ----
  logic [1:0]  m_state [NM];
  logic [NM-1:0] m_sent, m_dirty;
  logic [1:0]  m_kind  [NM];
  logic [23:0] m_id    [NM];
  logic [31:0] m_data  [NM];
  logic [3:0]  m_n     [NM];  // the waiter count (read only by the assertions: synthesis drops it)
  logic [NW:1]   m_th    [NM];  // m_n as a thermometer: bit v set when m_n >= v
  logic [NM-1:0] mf_q;        // m_state == MFree, registered from the next states
  logic [2:0]  m_head  [NM];
  logic [2:0]  m_tail  [NM];  // the slot of its next waiter (head + waiters)
  // worked out when a register is taken (the configuration is held out of
  // reset): its record's set, its size in bytes, whether it can never fit a
  // set (larger than the budget) and, if it can, the most a set may hold
  // before it for it to fit (the budget less its size)
  logic [SW-1:0] m_set [NM];
  logic [10:0] m_rec   [NM];
  logic [NM-1:0] m_big;
  logic [31:0] m_lim   [NM];
  // the lowest filled register and its set, registered from the next
  // states of the edge before (a register filled at an edge is served from
  // the next)
  logic          fm_found_q;
  logic [2:0]    fm_q;
  logic [NM-1:0] fm_oh;
  logic [SW-1:0] fm_set_q;
  // the waiters: a memory of NM x NW entries {write, tag, wdata} (below)
  logic [40:0] w_mem   [NM*NW];
  logic [15:0] lfsr_q;

  function automatic logic [10:0] rec_of(input logic [43:0] r, input logic [1:0] k);
    logic [10:0] b;
    b = r[11*k +: 11];
    rec_of = b == 11'd0 ? 11'd1 : b;
  endfunction

  // a lookup or an install of a way turns every node above it away from
  // it: {the tree bits it writes, their values}, from the way as a one-hot
  // vector (node n is above it when the way is under n; n's bit is set when
  // the next victim lies under its right child, so it is written 1 when the
  // way is under its left child)
  function automatic logic [2*WAYS-1:0] touch_masks(input logic [WAYS-1:0] oh);
    logic [2*WAYS-1:1] under;  // node n: the way is below it
    logic [WAYS-1:0] pm, pv;
    for (int w = 0; w < WAYS; w++) under[WAYS + w] = oh[w];
    for (int n = WAYS - 1; n >= 1; n--) under[n] = under[2*n] | under[2*n+1];
    pm[0] = 1'b0;
    pv[0] = 1'b0;
    for (int n = 1; n < WAYS; n++) begin
      pm[n] = under[n];
      pv[n] = under[2*n];
    end
    touch_masks = {pm, pv};
  endfunction

  // The pick of a one-hot way's word (the ways' words ANDed with their bit
  // of the one-hot vector, ORed): by groups of PG ways, each group's OR a
  // short chain, then the groups' ORs as a binary tree (g: NG words, word j
  // at [32*j +: 32]), so that the synthesis sees a tree, where one chain of
  // WAYS ORs mapped to twice the levels it needs.
  localparam int PG = WAYS < 8 ? WAYS : 8;
  localparam int NG = WAYS / PG;
  function automatic logic [31:0] or_groups(input logic [32*NG-1:0] g);
    logic [32*NG-1:0] t;
    t = g;
    for (int n = NG / 2; n >= 1; n = n / 2)
      for (int i = 0; i < n; i++) t[32*i +: 32] = t[64*i +: 32] | t[64*i + 32 +: 32];
    or_groups = t[31:0];
  endfunction

  // the lowest one of a miss-register mask, one-hot (each bit from the mask
  // as a whole: no chain from bit to bit, no carry)
  function automatic logic [NM-1:0] lowest_oh(input logic [NM-1:0] v);
    for (int i = 0; i < NM; i++) lowest_oh[i] = v[i] && (v & ((NM'(1) << i) - NM'(1))) == '0;
  endfunction

  // a tree node's level (the root's is 0)
  function automatic int node_level(input int n);
    node_level = 0;
    for (int b = 1; b < 8; b++)
      if (n >= (1 << b)) node_level = b;
  endfunction

  // whether at least 0, 1, 2, 3, 4 of four bits are set (no adder)
  function automatic logic [4:0] atleast4(input logic [3:0] v);
    atleast4[0] = 1'b1;
    atleast4[1] = |v;
    atleast4[2] = (v[0] & v[1]) | (v[0] & v[2]) | (v[0] & v[3]) | (v[1] & v[2]) | (v[1] & v[3]) |
                  (v[2] & v[3]);
    atleast4[3] = (v[0] & v[1] & v[2]) | (v[0] & v[1] & v[3]) | (v[0] & v[2] & v[3]) |
                  (v[1] & v[2] & v[3]);
    atleast4[4] = &v;
  endfunction

  // {any, the lowest index} of the ones of a miss-register mask
  function automatic logic [3:0] lowest(input logic [NM-1:0] v);
    lowest = 4'd0;
    for (int i = NM - 1; i >= 0; i--)
      if (v[i]) lowest = {1'b1, 3'(i)};
  endfunction

  // the set of a record: the XOR of its id's four 6-bit pieces and its kind
  // (each bit the parity of five key bits: one LUT), its low lg bits
  function automatic logic [SW-1:0] set_of(input logic [1:0] kind, input logic [23:0] id,
                                            input logic [2:0] lg);
    logic [5:0] h;
    h = id[5:0] ^ id[11:6] ^ id[17:12] ^ id[23:18] ^ {4'd0, kind};
    set_of = SW'(h & ~(6'h3F << lg));
  endfunction

  // ---- configuration ----
  // The ways the cache may use and a set's byte budget are registered: the
  // configuration changes only in reset, across which the clock runs, and
  // nothing reads them at the first edge after it (a request taken then is
  // compared at the next).
  logic [7:0]      ways;
  logic [2:0]      lg;
  logic [WAYS-1:0] usable;
  logic [31:0]     budget;
  always @* begin
    ways = cfg_ways_i == 8'd0 ? 8'd1 : cfg_ways_i > 8'(WAYS) ? 8'(WAYS) : cfg_ways_i;
    lg = cfg_sets_log2_i > 3'(SW) ? 3'(SW) : cfg_sets_log2_i;
  end
  always_ff @(posedge clk_i) begin
    for (int w = 0; w < WAYS; w++) usable[w] <= w < 32'(ways);
    budget <= cfg_capacity_i >> lg;
  end

  // ---- the lookup pipeline ----
  // Edge 1 takes the request with its set (the hash: a LUT a bit) and its
  // record size into A. Edge 2 moves it to B with the set's tags read and
  // compared (a bit per way: valid, usable, {kind, id} equal), and its
  // record matched against the miss registers as they stand; also whether
  // it is the record of the request decided at that edge. Edge 3 decides it
  // (1), from registers: at most one way and one miss register match (the
  // assertions LineInOneWay and MissRegisterNotDoubleBooked), so both are
  // one-hot vectors; a miss register taken at edge 2 by the request before,
  // if for the same record, is the match, and one freed at edge 2 is not.
  // The tags it compared still hold: an install or eviction waits while A
  // holds a request of its set, and none happens between A and B otherwise.
  // Edge 4 reads a hit's data into its answer (below, the hit line).
  logic            rq_take;
  logic            pa_valid, pb_valid;
  logic [1:0]      pa_kind, pb_kind;
  logic [23:0]     pa_id, pb_id;
  logic [7:0]      pa_tag, pb_tag;
  logic            pa_write, pb_write;
  logic [31:0]     pa_wdata, pb_wdata;
  logic [SW-1:0]   pa_set, pb_set;
  logic [10:0]     pa_rec, pb_rec;
  logic            pb_big;       // larger than a set's budget
  logic [31:0]     pb_lim;       // the budget less its size
  logic [WAYS-1:0] pb_match;     // the ways holding its record
  logic [WAYS/4-1:0] pb_match4;  // ... by groups of four ways (whether it hits, in two levels)
  logic [NM-1:0]   pb_mi_pre;    // the miss registers for its record, at edge 2
  logic            pb_same;      // the record of the request decided at edge 2
  logic [NM-1:0]   alloc_q, freed_q;  // the miss register taken, the ones freed, at the last edge
  logic [WAYS-1:0] pa_match;
  logic [NM-1:0]   pa_mi;
  logic [25:0]     pa_key;     // {pa_kind, pa_id}
  logic            pa_match_b [WAYS];  // (each way's, from g_way)
  assign rq_take = rq_valid_i && rq_ready_o;
  assign rq_valids = e_valid[pa_set];
  assign pa_key = {pa_kind, pa_id};
  always @* begin
    for (int w = 0; w < WAYS; w++) pa_match[w] = pa_match_b[w];
    for (int i = 0; i < NM; i++)
      pa_mi[i] = m_state[i] != MFree && m_kind[i] == pa_kind && m_id[i] == pa_id;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pa_valid <= 1'b0;
      pb_valid <= 1'b0;
    end else begin
      pa_valid <= rq_take;
      pb_valid <= pa_valid;
    end
  end
  // (the stages' fields: no reset, read only while valid)
  always_ff @(posedge clk_i) begin
    if (rq_take) begin
      pa_kind <= rq_kind_i;
      pa_id <= rq_id_i;
      pa_tag <= rq_tag_i;
      pa_write <= rq_write_i;
      pa_wdata <= rq_wdata_i;
      pa_set <= set_of(rq_kind_i, rq_id_i, lg);
      pa_rec <= rec_of(cfg_rec_bytes_i, rq_kind_i);
    end
    pb_kind <= pa_kind;
    pb_id <= pa_id;
    pb_tag <= pa_tag;
    pb_write <= pa_write;
    pb_wdata <= pa_wdata;
    pb_set <= pa_set;
    pb_rec <= pa_rec;
    pb_big <= {21'd0, pa_rec} > budget;
    pb_lim <= budget - {21'd0, pa_rec};
    pb_match <= pa_match;
    for (int g = 0; g < WAYS / 4; g++) pb_match4[g] <= pa_match[4*g +: 4] != '0;
    pb_mi_pre <= pa_mi;
    pb_same <= pb_valid && pa_kind == pb_kind && pa_id == pb_id;
  end

  // ---- (1) the request decided ----
  logic          mi_found;
  logic [NM-1:0] mi_oh;
  logic          hw_found;
  logic          free_m_found;
  logic [NM-1:0] m_free, fo;  // the free registers; the lowest of them
  logic [NM-1:0] fe;          // filled with no waiter: a request is a hit on its copy
  logic [2:0]    tail_mi;     // the matching register's next waiter slot
  logic          case_a, case_b, case_c, case_d;
  logic [31:0]   a_data;      // case A: the register's data after the write
  logic [31:0]   mi_data;     // the matching register's data
  logic          rq_cmem;     // decided against the cache's records (no miss register has its record):
                              // a hit if a way matches (the row updates need not know whether one does)
  logic          wr_take;     // a write request decided: an install due waits
  always @* begin
    mi_oh = (pb_mi_pre & ~freed_q) | ({NM{pb_same}} & alloc_q);
    mi_found = mi_oh != '0;
    mi_data = '0;
    tail_mi = '0;
    for (int i = 0; i < NM; i++) begin
      mi_data = mi_data | ({32{mi_oh[i]}} & m_data[i]);
      tail_mi = tail_mi | ({3{mi_oh[i]}} & m_tail[i]);
      fe[i] = m_state[i] == MFilled && !m_th[i][1];  // (no waiter: the thermometer's first bit)
    end
    hw_found = pb_match4 != '0;
    m_free = mf_q;
    fo = lowest_oh(m_free);
    free_m_found = m_free != '0;
    case_a = pb_valid && (mi_oh & fe) != '0;
    case_b = pb_valid && mi_found && !case_a;
    case_c = pb_valid && !mi_found && hw_found;
    case_d = pb_valid && !mi_found && !hw_found && free_m_found;  // (rq_ready promised one)
    a_data = pb_write ? pb_wdata : mi_data;
    rq_cmem = pb_valid && !mi_found;
    wr_take = pb_valid && pb_write;
  end

  // ---- (2) a fill ----
  // (its tag names the miss register whose fetch it answers: no record's
  // kind and id compared; the register takes it if it waits for it)
  logic          fill_hit;
  logic [NM-1:0] fi_oh;
  always @* begin
    for (int i = 0; i < NM; i++)
      fi_oh[i] = fill_tag_i == 3'(i) && m_state[i] == MWait && m_sent[i];
    fill_hit = fill_valid_i && fi_oh != '0;  // (fi_oh: the tag's register only)
  end

  // ---- (4a) the hit line ----
  // A hit decided at an edge answers hd edges later (the hit latency less
  // the lookup's three edges: 1..12). ln_v[k] is set when a hit answers at
  // the (k + 1)-th edge from now; its tag is taken at the edge it is
  // decided, its data at the edge after (d_*: the way's data read by its set
  // and the one-hot match, the miss register's, or the word it wrote; the
  // way's data as the OR of one word per group of PG ways, each group's
  // AND-OR registered at the edge it is decided, the groups ORed at the
  // edge after).
  // Hits answer in order and always at their edge (a waiter's answer waits),
  // so the line moves one place an edge and nothing in it is overwritten.
  localparam int NL = 12;
  logic [3:0]    hd;
  logic [NL:0]   hdk_q;  // hd == k, decoded into a register at every edge (from the configuration, held out of reset; read from the third edge on)
  logic [NL-1:0] ln_v;
  logic [7:0]    ln_tag  [NL];
  logic [31:0]   ln_data [NL];
  logic          hit_push;
  logic          d_valid, d_write, d_isa;
  logic [31:0]   d_wdata, d_mdata, d_hdata, d_out;
  logic [32*NG-1:0] d_g, d_hg;
  logic          hit_rsp;
  logic [7:0]    hit_tag;
  logic [31:0]   hit_data;
  always @* begin
    hd = (cfg_hit_cycles_i < 4'(MinHit) ? 4'(MinHit) : cfg_hit_cycles_i) - 4'd3;
    hit_push = case_a || case_c;
    d_hdata = or_groups(d_hg);
    d_out = d_write ? d_wdata : d_isa ? d_mdata : d_hdata;
    hit_rsp = ln_v[0];
    hit_tag = ln_tag[0];
    hit_data = hdk_q[1] ? d_out : ln_data[0];
    for (int j = 0; j < NG; j++) begin
      logic [31:0] p;
      p = '0;
      for (int k = 0; k < PG; k++) p = p | ({32{pb_match[PG*j+k]}} & rq_datas[PG*j+k]);
      d_g[32*j +: 32] = p;
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ln_v <= '0;
      d_valid <= 1'b0;
      hdk_q <= '0;
    end else begin
      for (int k = 0; k <= NL; k++) hdk_q[k] <= 32'(hd) == k;
      for (int k = 0; k < NL; k++)
        ln_v[k] <= (k + 1 < NL ? ln_v[(k + 1) % NL] : 1'b0) || (hit_push && hdk_q[k + 1]);
      d_valid <= hit_push;
    end
  end
  always_ff @(posedge clk_i) begin
    for (int k = 0; k < NL; k++) begin
      ln_tag[k] <= (hit_push && hdk_q[k + 1]) ? pb_tag : ln_tag[(k + 1) % NL];
      ln_data[k] <= (d_valid && (k + 2 <= NL && hdk_q[(k + 2) % (NL + 1)])) ? d_out : ln_data[(k + 1) % NL];
    end
    d_write <= pb_write;
    d_wdata <= pb_wdata;
    d_isa <= case_a;
    d_mdata <= mi_data;
    d_hg <= d_g;
  end

  // ---- (3) the lowest filled miss register ----
  logic          fm_found;
  logic [2:0]    fm;
  logic          fm_pop, fm_free, fm_install, fm_evict, fm_bypass_wb;
  logic [31:0]   fm_data;     // its data after (1)
  logic          fm_dirty;
  logic [SW-1:0] fm_set;
  logic [10:0]   fm_rec;
  logic [2*WAYS-1:1] has;     // node n: a usable valid way below it
  logic [31:0]   pop_data;
  logic [2:0]    pop_slot_head;
  logic [40:0]   pop_w;       // its head waiter
  // a record of fm's set as it is after (1)
  logic [31:0]   v_data;
  logic [25:0]   v_tag;
  logic          v_dirty, v_bypass;
  // The write-back's data: the record's as read, or the data a write hit on
  // it decided at the same edge (the choice after the registers, so that the
  // bypass, the end of a long path, ends in one register)
  logic [31:0]   wb_raw_q, wb_wdata_q;
  logic          wb_byp_q;
  assign wb_data_o = wb_byp_q ? wb_wdata_q : wb_raw_q;
  logic [WAYS-1:0] fm_dirtys;   // fm's set's dirty bits
  assign fm_dirtys = e_dirty[fm_set];
  logic          pa_hold;     // A holds a request of fm's set: its tags stay
  assign pa_hold = pa_valid && pa_set == fm_set;
  assign fm_found = fm_found_q;
  assign fm = fm_q;
  assign fm_set = fm_set_q;
  assign fm_valids = e_valid[fm_set];
  // (the served register's fields by AND-OR of its one-hot index)
  logic          fm_n0, fm_big;  // it has no waiter; its record never fits
  always @* begin
    fm_data = '0;
    fm_n0 = 1'b0;
    for (int i = 0; i < NM; i++) begin
      fm_data = fm_data | ({32{fm_oh[i]}} & m_data[i]);
      fm_n0 = fm_n0 | (fm_oh[i] && !m_th[i][1]);
    end
    fm_big = (fm_oh & m_big) != '0;
    fm_dirty = (fm_oh & m_dirty) != '0;
    if (case_a && (mi_oh & fm_oh) != '0) begin
      fm_data = a_data;
      fm_dirty = fm_dirty | pb_write;
    end
  end
  always @* begin
    pop_slot_head = m_head[fm];
    pop_w = w_mem[{fm, pop_slot_head}];
    pop_data = pop_w[40] ? pop_w[31:0] : fm_data;
    fm_pop = fm_found && !fm_n0 && !hit_rsp;
    fm_rec = m_rec[fm];
    fm_free = 1'b0;
    fm_install = 1'b0;
    fm_evict = 1'b0;
    fm_bypass_wb = 1'b0;
    // (a request joins a filled register only while it has waiters: one with
    // none has none after the edge)
    if (fm_found && fm_n0) begin
      if (fm_big) begin
        fm_free = 1'b1;
        fm_bypass_wb = fm_dirty;
      end else if (pl_act && pl_free && pl_fit && !pa_hold) begin
        // (the data memory has one write port: a write hit of (1) takes it,
        // and the install waits for the next edge; it waits behind any write
        // request, which is known before whether it hits)
        fm_install = !wr_take;
        fm_free = !wr_take;
      end else if (pl_act && !(pl_free && pl_fit) && !pa_hold) fm_evict = 1'b1;
    end
  end

  // ---- (3)'s plan ----
  // For the served register once it has no waiter left and its record can
  // fit a set: at the edge it starts, the set's valid bits, tree and bytes
  // as they stand are taken (sv_*); the edge after, every node's way down
  // (the child its bit or the random bit names, unless no usable valid way
  // is below it), the lowest free way and whether the record fits; the
  // edge after that, the walk from the root to the victim (way 0 when no
  // usable way is valid) and to the lowest free way; the edge after that,
  // the victim's record gathered (below); the edge after that, the install
  // or eviction.
  // Only that changes the set's valid bits and bytes, so the plan holds
  // until then; hits in between move the tree, not the plan's victim. A
  // different register served, or none, drops it (cmodel/context_cache.c).
  localparam logic [1:0] PlanLast = 2'(3);  // CC_PLAN_EDGES - 1
  logic            pl_on, pl_need, pl_start, pl_act;
  logic            pl_due;   // pl_cnt == 0, as a register of its own
  logic            pl_move;  // a fill makes a register below the served one the served one
  logic [NM-1:0]   fabove;   // the registers above the fill's (tag < i: ORs of the tag's decode)
  logic [2:0]      pl_fm;
  logic [1:0]      pl_cnt;
  logic [WAYS-1:0] sv_has, sv_fx;  // usable ways valid, usable ways free
  logic [WAYS-1:1] sv_dir;          // each node's preferred way down: its tree bit, or the random bit of its level
  logic [31:0]     sv_used;
  // the set's bytes after the install, and after the eviction of a record
  // of each kind (the set's bytes stay sv_used until the plan is carried
  // out): worked out at the edge after the snapshot
  logic [31:0]     pl_used_in;
  logic [31:0]     pl_used_out [4];
  logic [WAYS-1:1] pl_down;                 // stage 1: each node's way down
  logic            pl_any, pl_free, pl_fit;
  logic [WAYS-1:0] pl_fw_oh, pl_vic_oh;     // the lowest free way; the victim (one-hot)
  logic [1:0]      pl_vkind;                // the victim's kind
  logic [WAYS-1:1] down;
  logic            any, free_found;
  logic [WAYS-1:0] free_oh, walk_oh;
  logic [2*WAYS-1:1] reach;                 // stage 2: node n lies on the walk
  logic [WAYS-1:1] pl_fright;               // stage 1: each node's way down to the lowest free way (fright)
  logic [2*WAYS-1:1] freach;                // stage 2: node n lies on that walk
  logic [WAYS-1:0] sv_kind0, sv_kind1;      // the kinds of the set's records (their two bits)
  // (each inner node's bit an OR of its own leaves, not of its children's
  // bits: no chain of two-input ORs down the tree; an array of single bits,
  // so no tool joins the nodes into one 127-deep expression)
  logic has_in [1:WAYS-1];
  logic fright [1:WAYS-1];
  for (genvar gd = 0; gd < WW; gd++) begin : g_has
    for (genvar gj = 0; gj < (1 << gd); gj++) begin : g_node
      assign has_in[(1 << gd) + gj] = |sv_has[gj * (WAYS >> gd) +: (WAYS >> gd)];
      // the walk to the lowest free way turns right where the left half has
      // no usable free way
      assign fright[(1 << gd) + gj] = ~|sv_fx[gj * (WAYS >> gd) +: (WAYS >> (gd + 1))];
    end
  end
  always @* begin
    pl_need = fm_found && fm_n0 && !fm_big;
    // (a plan on is always the served register's: it is dropped at the edge
    // a lower register's fill makes that one served; PlanFollowsTheServedRegister)
    pl_act = pl_need && pl_on && pl_due;
    pl_start = pl_need && !pl_on;
    for (int i = 0; i < NM; i++) begin
      fabove[i] = 1'b0;
      for (int j = 0; j < i; j++) fabove[i] = fabove[i] | (fill_tag_i == 3'(j));
    end
    pl_move = fill_hit && (fm_oh & fabove) != '0;
    // stage 1, from the snapshot
    for (int w = 0; w < WAYS; w++) has[WAYS + w] = sv_has[w];
    for (int n = 1; n < WAYS; n++) has[n] = has_in[n];
    for (int d = 0; d < WW; d++)
      for (int j = 0; j < (1 << d); j++) begin
        logic dir;
        dir = sv_dir[(1 << d) + j];
        // (the preferred child's bit picked by a multiplexer, not by an
        // index that adds the direction: yosys built that as an adder and a
        // 256-way shift)
        down[(1 << d) + j] = dir ? has[2 * ((1 << d) + j) + 1] : !has[2 * ((1 << d) + j)];
      end
    any = has[1];
    free_found = sv_fx != '0;
    // stage 2: the walk from the root, as the one leaf every step of whose
    // path goes the way down (way 0 when no usable way is valid), and its
    // record's kind
    reach[1] = 1'b1;
    for (int n = 1; n < WAYS; n++) begin
      reach[2*n] = reach[n] && !pl_down[n];
      reach[2*n+1] = reach[n] && pl_down[n];
    end
    for (int w = 0; w < WAYS; w++) walk_oh[w] = pl_any ? reach[WAYS + w] : w == 0;
    // ... and the walk to the lowest usable free way (read only when there
    // is one): a way-by-way prefix of the free bits was mapped as a chain
    freach[1] = 1'b1;
    for (int n = 1; n < WAYS; n++) begin
      freach[2*n] = freach[n] && !pl_fright[n];
      freach[2*n+1] = freach[n] && pl_fright[n];
    end
    for (int w = 0; w < WAYS; w++) free_oh[w] = freach[WAYS + w];
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pl_on <= 1'b0;
      pl_fm <= '0;
      pl_cnt <= '0;
      pl_due <= 1'b1;
    end else if (!pl_need || pl_move) begin
      pl_on <= 1'b0;
    end else if (pl_start) begin
      pl_on <= 1'b1;
      pl_fm <= fm;
      pl_cnt <= PlanLast;
      pl_due <= 1'b0;
    end else if (!pl_due) begin
      pl_cnt <= pl_cnt - 2'd1;
      pl_due <= pl_cnt == 2'd1;
    end else if (fm_install || fm_evict) begin
      pl_on <= 1'b0;
    end
  end
  // (the plan's data registers: no reset, written only where the plan says)
  always_ff @(posedge clk_i) begin
    if (pl_start) begin
      sv_has <= usable & fm_valids;
      sv_fx <= usable & ~fm_valids;
      for (int w = 0; w < WAYS; w++) begin
        sv_kind0[w] <= fm_tags[w][24];
        sv_kind1[w] <= fm_tags[w][25];
      end
      for (int n = 1; n < WAYS; n++) begin
        logic [15:0] rb;
        rb = lfsr_q ^ cfg_seed_i;
        sv_dir[n] <= cfg_random_i ? rb[WW - 1 - node_level(n)] : plru_q[fm_set][n];
      end
      sv_used <= used_q[fm_set];
    end
    if (pl_cnt == PlanLast) begin
      pl_down <= down;
      pl_any <= any;
      pl_free <= free_found;
      for (int n = 1; n < WAYS; n++) pl_fright[n] <= fright[n];
      pl_fit <= sv_used <= m_lim[pl_fm];
      pl_used_in <= sv_used + {21'd0, m_rec[pl_fm]};
      for (int k = 0; k < 4; k++) pl_used_out[k] <= sv_used - {21'd0, rec_of(cfg_rec_bytes_i, 2'(k))};
    end
    if (pl_cnt == 2'd2) begin
      pl_fw_oh <= free_oh;
      pl_vic_oh <= walk_oh;
    end
    if (pl_cnt == 2'd1) pl_vkind <= {(pl_vic_oh & sv_kind1) != '0, (pl_vic_oh & sv_kind0) != '0};
  end

  // The victim, gathered at every edge into registers of a word per group
  // of PG ways (its data, tag and dirty bit by AND-OR of its one-hot way,
  // from the memories as they stand before the edge) and read at the
  // eviction, an edge or more later: the plan's last edge gathers. A write
  // hit on it decided at the edge before the eviction is vw_q (after the
  // gathering's read); one decided at the eviction's edge is v_bypass,
  // chosen after the write-back registers.
  logic [32*NG-1:0] vg_d, vg_t, vg_data_q, vg_tag_q;
  logic [NG-1:0]    vg_dy, vg_dirty_q;
  logic             vw_q;
  logic [31:0]      vw_data_q;
  always @* begin
    v_bypass = rq_cmem && pb_write && pb_set == fm_set && (pb_match & pl_vic_oh) != '0;
    for (int j = 0; j < NG; j++) begin
      logic [31:0] pd, pt;
      logic        py;
      pd = '0;
      pt = '0;
      py = 1'b0;
      for (int k = 0; k < PG; k++) begin
        pd = pd | ({32{pl_vic_oh[PG*j+k]}} & fm_datas[PG*j+k]);
        pt = pt | {6'd0, {26{pl_vic_oh[PG*j+k]}} & fm_tags[PG*j+k]};
        py = py | (pl_vic_oh[PG*j+k] & fm_dirtys[PG*j+k]);
      end
      vg_d[32*j +: 32] = pd;
      vg_t[32*j +: 32] = pt;
      vg_dy[j] = py;
    end
    v_data = vw_q ? vw_data_q : or_groups(vg_data_q);
    v_tag = 26'(or_groups(vg_tag_q));
    v_dirty = v_bypass || vw_q || vg_dirty_q != '0;
  end
  always_ff @(posedge clk_i) begin
    vg_data_q <= vg_d;
    vg_tag_q <= vg_t;
    vg_dirty_q <= vg_dy;
    vw_q <= v_bypass;
    vw_data_q <= pb_wdata;
  end

  // ---- (5) the next fetch ----
  // (the lowest register waiting to send its fetch: each bit of the one-hot
  // choice from the whole vector, no chain from register to register)
  logic          mreq_free, q_found;
  logic [NM-1:0] wq, q_oh;
  logic [1:0]    q_kind;
  logic [23:0]   q_id;
  logic [10:0]   q_rec;
  logic [2:0]    q_tag;
  always @* begin
    mreq_free = !mreq_valid_o || mreq_ready_i;
    for (int i = 0; i < NM; i++) wq[i] = m_state[i] == MWait && !m_sent[i];
    q_kind = '0;
    q_id = '0;
    q_rec = '0;
    for (int i = 0; i < NM; i++) begin
      q_oh[i] = wq[i] && (wq & ((NM'(1) << i) - NM'(1))) == '0;
      q_kind = q_kind | ({2{q_oh[i]}} & m_kind[i]);
      q_id = q_id | ({24{q_oh[i]}} & m_id[i]);
      q_rec = q_rec | ({11{q_oh[i]}} & m_rec[i]);
    end
    q_found = wq != '0;
    q_tag = 3'(lowest(wq));
  end

  // next states of the miss registers, for the one served next
  logic [1:0] ms_d [NM];
  always @* begin
    for (int i = 0; i < NM; i++) ms_d[i] = m_state[i];
    for (int i = 0; i < NM; i++) begin
      if (case_d && fo[i]) ms_d[i] = MWait;
      if (fill_hit && fi_oh[i]) ms_d[i] = MFilled;
      if (fm_free && fm_oh[i]) ms_d[i] = MFree;
    end
  end

  // the lowest register filled after the edge
  // (the lowest filled before the edge worked out both ways, with the
  // served register kept and with it freed at this edge, each with its set
  // by AND-OR of its one-hot; the fill's register, named by its tag, wins
  // when none filled lies below it; fm_free picks last)
  logic [NM-1:0] fl_keep, fl_free, ok_keep, ok_free;
  logic [2:0]    ik_keep, ik_free;
  logic [SW-1:0] st_keep, st_free, st_fill;
  logic          fw_keep, fw_free;
  logic [NM-1:0] fbelow;  // the registers below the fill's (i < tag: ORs of the tag's decode, no subtraction)
  always @* begin
    for (int i = 0; i < NM; i++) begin
      fbelow[i] = 1'b0;
      for (int j = i + 1; j < NM; j++) fbelow[i] = fbelow[i] | (fill_tag_i == 3'(j));
    end
    for (int i = 0; i < NM; i++) fl_keep[i] = m_state[i] == MFilled;
    fl_free = fl_keep & ~fm_oh;
    ok_keep = lowest_oh(fl_keep);
    ok_free = lowest_oh(fl_free);
    ik_keep = 3'(lowest(fl_keep));
    ik_free = 3'(lowest(fl_free));
    st_keep = '0;
    st_free = '0;
    for (int i = 0; i < NM; i++) begin
      st_keep = st_keep | ({SW{ok_keep[i]}} & m_set[i]);
      st_free = st_free | ({SW{ok_free[i]}} & m_set[i]);
    end
    st_fill = m_set[fill_tag_i];
    fw_keep = fill_hit && (fl_keep & fbelow) == '0;
    fw_free = fill_hit && (fl_free & fbelow) == '0;
  end

  logic [10:0] v_rec;  // the victim's size
  assign v_rec = rec_of(cfg_rec_bytes_i, pl_vkind);

  // the waiters' memory: one write port (a request that joins a register,
  // or takes one as its first waiter), read at the served register's head
  logic       ww_en;
  logic [5:0] ww_addr;
  always @* begin
    ww_en = case_b || case_d;
    ww_addr = '0;
    for (int i = 0; i < NM; i++)
      if (case_d ? fo[i] : mi_oh[i]) ww_addr[5:3] = ww_addr[5:3] | 3'(i);
    ww_addr[2:0] = case_d ? 3'd0 : tail_mi;
  end
  always_ff @(posedge clk_i) begin
    if (ww_en) w_mem[ww_addr] <= {pb_write, pb_tag, pb_wdata};
  end

  // the record memories: one write port each (the tags written by an
  // install, the data by an install or a write hit) and two read ports,
  // each memory kept twice, one copy per read port (as LUT RAM does with a
  // second read port; written so, yosys never tries to share the two reads)
  logic [SW-1:0]   dw_set;
  logic [WAYS-1:0] dw_oh;  // the way written, one-hot
  logic [31:0]     dw_data;
  always @* begin
    // (a write request decided holds the port: an install waits behind it;
    // it writes if it hits, its way one-hot)
    dw_set = wr_take ? pb_set : fm_set;
    dw_oh = wr_take ? ({WAYS{rq_cmem}} & pb_match) : ({WAYS{fm_install}} & pl_fw_oh);
    dw_data = wr_take ? pb_wdata : fm_data;
  end
  for (genvar w = 0; w < WAYS; w++) begin : g_way
    logic [25:0] tag_rq [SETS], tag_fm [SETS];
    logic [31:0] data_rq [SETS], data_fm [SETS];
    always_ff @(posedge clk_i) begin
      if (fm_install && pl_fw_oh[w]) begin
        tag_rq[fm_set] <= {m_kind[fm], m_id[fm]};
        tag_fm[fm_set] <= {m_kind[fm], m_id[fm]};
      end
      if (dw_oh[w]) begin
        data_rq[dw_set] <= dw_data;
        data_fm[dw_set] <= dw_data;
      end
    end
    assign rq_tags[w] = tag_rq[pa_set];
    // the way's tag compare as a tree: three bits compared in each LUT,
    // then their AND with the valid and usable bits (both kept as nets of
    // their own: a mapper left to itself chained all 26 bits)
    (* keep *) logic [8:0] eqg;
    (* keep *) logic       pm;
    for (genvar b = 0; b < 9; b++) begin : g_eq
      localparam int N = b == 8 ? 2 : 3;
      assign eqg[b] = rq_tags[w][3*b +: N] == pa_key[3*b +: N];
    end
    assign pm = usable[w] && rq_valids[w] && &eqg;
    assign pa_match_b[w] = pm;
    assign fm_tags[w] = tag_fm[fm_set];
    assign rq_datas[w] = data_rq[pb_set];
`ifdef UB_ASSERT_ON
    assign a_pb_tags[w] = tag_rq[pb_set];
`endif
    assign fm_datas[w] = data_fm[fm_set];
  end

  // the rows of each set (valid and dirty bits, tree, bytes used), written
  // as a decoded enable per set and a one-hot mask of ways: a hit's tree
  // update and dirty bit in the request's set; an install or an eviction in
  // the served register's set (after the hit, whose tree update it includes)
  logic [WAYS-1:0] hw_pm, hw_pv, fw_pm, fw_pv;  // the tree bits a touch sets, and their values
  logic [31:0]     used_new;
  always @* begin
    {hw_pm, hw_pv} = touch_masks(pb_match);
    {fw_pm, fw_pv} = touch_masks(pl_fw_oh);
    used_new = fm_install ? pl_used_in : pl_used_out[pl_vkind];
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int s = 0; s < SETS; s++) begin
        e_valid[s] <= '0;
        e_dirty[s] <= '0;
        used_q[s] <= '0;
        plru_q[s] <= '0;
      end
    end else begin
      for (int s = 0; s < SETS; s++) begin
        logic hs, fs;
        hs = rq_cmem && pb_set == SW'(s);  // (no way matches: the masks are 0)
        fs = fm_set == SW'(s);
        if (hs && pb_write) e_dirty[s] <= e_dirty[s] | pb_match;
        if (fs && fm_install) begin
          e_valid[s] <= e_valid[s] | pl_fw_oh;
          e_dirty[s] <= fm_dirty ? e_dirty[s] | pl_fw_oh : e_dirty[s] & ~pl_fw_oh;
        end
        if (fs && fm_evict) e_valid[s] <= e_valid[s] & ~pl_vic_oh;
        begin
          logic [WAYS-1:0] t;
          t = hs ? (plru_q[s] & ~hw_pm) | hw_pv : plru_q[s];
          if (fs && fm_install) t = (t & ~fw_pm) | fw_pv;
          plru_q[s] <= t;
        end
        if (fs && (fm_install || fm_evict)) used_q[s] <= used_new;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mf_q <= '1;
      for (int i = 0; i < NM; i++) begin
        m_state[i] <= MFree;
        m_kind[i] <= '0;
        m_id[i] <= '0;
        m_data[i] <= '0;
        m_n[i] <= '0;
        m_th[i] <= '0;
        m_head[i] <= '0;
        m_tail[i] <= '0;
        m_set[i] <= '0;
        m_rec[i] <= '0;
        m_lim[i] <= '0;
      end
      m_big <= '0;
      fm_found_q <= 1'b0;
      fm_q <= '0;
      fm_oh <= '0;
      fm_set_q <= '0;
      m_sent <= '0;
      m_dirty <= '0;
      alloc_q <= '0;
      freed_q <= '0;
      lfsr_q <= 16'd1;
      rq_ready_o <= 1'b1;
      rsp_valid_o <= 1'b0;
      rsp_tag_o <= '0;
      rsp_data_o <= '0;
      rsp_hit_o <= 1'b0;
      mreq_valid_o <= 1'b0;
      mreq_kind_o <= '0;
      mreq_id_o <= '0;
      mreq_bytes_o <= '0;
      mreq_tag_o <= '0;
      wb_valid_o <= 1'b0;
      wb_kind_o <= '0;
      wb_id_o <= '0;
      wb_raw_q <= '0;
      wb_byp_q <= 1'b0;
      wb_wdata_q <= '0;
      wb_bytes_o <= '0;
      hits_o <= '0;
      misses_o <= '0;
      merged_o <= '0;
      evictions_o <= '0;
    end else begin
      // the miss registers, each by its own enables (at most one of the
      // request's, the fill's and the served register's touches a field of
      // one register, but for the waiter count)
      alloc_q <= '0;
      freed_q <= '0;
      for (int i = 0; i < NM; i++) begin
        // (1)
        if (case_a && mi_oh[i]) begin
          m_data[i] <= a_data;
          if (pb_write) m_dirty[i] <= 1'b1;
        end
        if (case_b && mi_oh[i]) m_tail[i] <= m_tail[i] + 3'd1;
        // (one more waiter, one fewer, both or neither: each count worked
        // out beside the choice)
        begin
          logic inc, dec;
          inc = case_b && mi_oh[i];
          dec = fm_pop && fm_oh[i];
          if (inc && !dec) begin
            m_n[i] <= m_n[i] + 4'd1;
            m_th[i] <= {m_th[i][NW-1:1], 1'b1};
          end else if (dec && !inc) begin
            m_n[i] <= m_n[i] - 4'd1;
            m_th[i] <= {1'b0, m_th[i][NW:2]};
          end
        end
        if (case_d && fo[i]) begin
          alloc_q[i] <= 1'b1;
          m_state[i] <= MWait;
          m_kind[i] <= pb_kind;
          m_id[i] <= pb_id;
          m_data[i] <= '0;
          m_dirty[i] <= 1'b0;
          m_sent[i] <= 1'b0;
          m_n[i] <= 4'd1;
          m_th[i] <= NW'(1);
          m_head[i] <= 3'd0;
          m_tail[i] <= 3'd1;
          m_set[i] <= pb_set;
          m_rec[i] <= pb_rec;
          m_big[i] <= pb_big;
          m_lim[i] <= pb_lim;
        end
        // (2)
        if (fill_hit && fi_oh[i]) begin
          m_state[i] <= MFilled;
          m_data[i] <= fill_data_i;
        end
        // (3)
        if (fm_pop && fm_oh[i]) begin
          m_data[i] <= pop_data;
          if (pop_w[40]) m_dirty[i] <= 1'b1;
          m_head[i] <= m_head[i] + 3'd1;
        end
        if (fm_free && fm_oh[i]) begin
          m_state[i] <= MFree;
          freed_q[i] <= 1'b1;
        end
      end
      if (case_a || case_c) hits_o <= hits_o + 32'd1;
      if (case_b || case_d) misses_o <= misses_o + 32'd1;
      if (case_b) merged_o <= merged_o + 32'd1;
      wb_valid_o <= 1'b0;
      if (fm_bypass_wb) begin
        wb_valid_o <= 1'b1;
        wb_kind_o <= m_kind[fm];
        wb_id_o <= m_id[fm];
        wb_raw_q <= fm_data;
        wb_byp_q <= 1'b0;
        wb_bytes_o <= fm_rec;
      end
      for (int i = 0; i < NM; i++) mf_q[i] <= ms_d[i] == MFree;
      if (fm_evict) begin
        // (the victim's record is put on the write-back port whether or not
        // it goes back, so that its dirty bit, the end of a long path,
        // drives only the valid bit)
        wb_valid_o <= v_dirty;
        wb_kind_o <= v_tag[25:24];
        wb_id_o <= v_tag[23:0];
        wb_raw_q <= v_data;
        wb_byp_q <= v_bypass;
        wb_wdata_q <= pb_wdata;
        wb_bytes_o <= v_rec;
        evictions_o <= evictions_o + 32'd1;
      end
      // (4a)/(3): the answer of the edge
      if (hit_rsp) begin
        rsp_valid_o <= 1'b1;
        rsp_tag_o <= hit_tag;
        rsp_data_o <= hit_data;
        rsp_hit_o <= 1'b1;
      end else if (fm_pop) begin
        rsp_valid_o <= 1'b1;
        rsp_tag_o <= pop_w[39:32];
        rsp_data_o <= pop_data;
        rsp_hit_o <= 1'b0;
      end else rsp_valid_o <= 1'b0;
      // (5)
      if (mreq_free) begin
        if (q_found) begin
          for (int i = 0; i < NM; i++)
            if (q_oh[i]) m_sent[i] <= 1'b1;
          mreq_valid_o <= 1'b1;
          mreq_kind_o <= q_kind;
          mreq_id_o <= q_id;
          mreq_bytes_o <= q_rec;
          mreq_tag_o <= q_tag;
        end else mreq_valid_o <= 1'b0;
      end
      // (6) ready for a request: for it and each in the lookup pipeline
      // (the one decided at this edge, the two behind it), a miss register
      // free before the edge and room in every one in use (each may miss)
      // (worked out for k = 0..3 requests ahead, each against constants,
      // then k's picked)
      begin
        logic [4:0] lo, hi;  // at least 0..4 free among registers 0-3, 4-7
        logic [1:0] k;
        logic [3:0] rdy;
        lo = atleast4(m_free[3:0]);
        hi = atleast4(m_free[7:4]);
        for (int kk = 0; kk < 4; kk++) begin
          rdy[kk] = 1'b0;
          for (int a = 0; a <= 4; a++)
            if (a <= kk + 1 && kk + 1 - a <= 4 && lo[a] && hi[(kk + 6 - a) % 5]) rdy[kk] = 1'b1;
          for (int i = 0; i < NM; i++)
            if (!m_free[i] && m_th[i][NW - kk]) rdy[kk] = 1'b0;
        end
        k = 2'(pb_valid) + 2'(pa_valid) + 2'(rq_take);
        rq_ready_o <= rdy[k];
      end
      if (fm_free) begin
        fm_found_q <= fill_hit || fl_free != '0;
        fm_q <= fw_free ? fill_tag_i : ik_free;
        fm_oh <= fw_free ? fi_oh : ok_free;
        fm_set_q <= fw_free ? st_fill : st_free;
      end else begin
        fm_found_q <= fill_hit || fl_keep != '0;
        fm_q <= fw_keep ? fill_tag_i : ik_keep;
        fm_oh <= fw_keep ? fi_oh : ok_keep;
        fm_set_q <= fw_keep ? st_fill : st_keep;
      end
      lfsr_q <= (lfsr_q >> 1) ^ ({16{lfsr_q[0]}} & 16'hB400);
    end
  end

  `UB_ASSERT_INIT(GeometryPowersOfTwo, SETS >= 1 && SETS <= 64 && (SETS & (SETS - 1)) == 0 &&
                                       WAYS >= 2 && WAYS <= 128 && (WAYS & (WAYS - 1)) == 0)

  // Assertions and the logic only they read: compiled when they are checked
  // (rtl/prim_assert.svh).
`ifdef UB_ASSERT_ON
  `UB_ASSERT_SETUP

  // the configuration changes only in reset (a cache that shrinks under its
  // records loses sight of some of them; a hit latency that shrinks puts a
  // hit due before the ones queued ahead of it)
  `UB_ASSUME(ConfigHeldOutOfReset,
             {cfg_capacity_i, cfg_sets_log2_i, cfg_ways_i, cfg_rec_bytes_i, cfg_random_i,
              cfg_seed_i, cfg_hit_cycles_i} ==
             $past({cfg_capacity_i, cfg_sets_log2_i, cfg_ways_i, cfg_rec_bytes_i, cfg_random_i,
                    cfg_seed_i, cfg_hit_cycles_i}))

  logic [WAYS-1:0] a_rq_match, a_fm_match;
  logic            a_m_twice;
  always @* begin
    for (int w = 0; w < WAYS; w++) begin
      a_rq_match[w] = rq_valids[w] && rq_tags[w] == {pa_kind, pa_id};
      a_fm_match[w] = fm_valids[w] && fm_tags[w] == {m_kind[fm], m_id[fm]};
    end
    a_m_twice = 1'b0;
    for (int i = 0; i < NM; i++)
      for (int j = i + 1; j < NM; j++)
        if (m_state[i] != MFree && m_state[j] != MFree && m_kind[i] == m_kind[j] &&
            m_id[i] == m_id[j])
          a_m_twice = 1'b1;
  end
  // a record is in at most one way of its set: the set a request looks up
  // holds it at most once, and an install never adds a second copy
  `UB_ASSERT(LineInOneWay, (a_rq_match & (a_rq_match - 1'b1)) == '0)
  `UB_ASSERT(InstallIsTheOnlyCopy, !fm_install || a_fm_match == '0)
  // a miss register is never double-booked: no two in use for one record,
  // and none for a record the cache holds
  `UB_ASSERT(MissRegisterNotDoubleBooked, !a_m_twice)
  // the hit delay's registered decode is the configuration's
  `UB_ASSERT(HitDelayDecoded, hdk_q == (NL + 1)'(1) << hd)
  `UB_ASSERT(MissedRecordNotHeld, !(pb_valid && mi_found && hw_found))
  // a miss register collects at most its waiters
  logic a_waiters;
  always @* begin
    a_waiters = 1'b1;
    for (int i = 0; i < NM; i++) a_waiters = a_waiters && m_n[i] <= 4'(NW) && m_th[i] == ~(NW'('1) << m_n[i]) &&
                                 mf_q[i] == (m_state[i] == MFree);
  end
  `UB_ASSERT(WaitersWithinTheRegister, a_waiters)
  // the registered choice of the filled register to serve is the lowest
  // filled one (it is filled, none below it is), with its record's set
  logic [NM-1:0] a_filled;
  always @* begin
    for (int i = 0; i < NM; i++) a_filled[i] = m_state[i] == MFilled;
  end
  `UB_ASSERT(ServedIsTheLowestFilled,
             fm_found_q == (a_filled != '0) &&
             (!fm_found_q || (a_filled[fm_q] && (a_filled & ((NM'(1) << fm_q) - NM'(1))) == '0)))
  // a plan still holds when it is carried out: its free way is free, its
  // victim a usable valid way of the set
  logic [WAYS-1:0] a_usable;
  always @* begin
    for (int w = 0; w < WAYS; w++) a_usable[w] = w < 32'(ways);
  end
  // (the registered copies are the configuration's from the first edge
  // after reset on)
  logic a_after_first;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) a_after_first <= 1'b0;
    else a_after_first <= 1'b1;
  end
  `UB_ASSERT(UsableAndBudgetAreTheConfigs, !a_after_first ||
                                           (usable == a_usable && budget == cfg_capacity_i >> lg))
  `UB_ASSERT(InstallIntoAFreeWay, !fm_install || ((pl_fw_oh & (pl_fw_oh - 1'b1)) == '0 &&
                                                  (pl_fw_oh & ~fm_valids & a_usable) != '0))
  `UB_ASSERT(PlanFollowsTheServedRegister, !(pl_on && pl_need) || pl_fm == fm)
  `UB_ASSERT(PlanDueIsItsCount, pl_due == (pl_cnt == 2'd0))
  `UB_ASSERT(EvictAValidWay, !fm_evict || ((pl_vic_oh & (pl_vic_oh - 1'b1)) == '0 &&
                                           (pl_vic_oh & fm_valids & a_usable) != '0))
  `UB_ASSERT(ServedSetIsItsRecords, !fm_found_q || fm_set_q == set_of(m_kind[fm_q], m_id[fm_q], lg))
  // the request decided sees its set and the miss registers as they are
  // now, not only as they were when it was compared (the install held back
  // while A looks its set up; the miss register taken or freed at the last
  // edge)
  logic [WAYS-1:0] a_pb_match;
  logic [NM-1:0]   a_pb_mi;
  always @* begin
    for (int w = 0; w < WAYS; w++)
      a_pb_match[w] = w < 32'(ways) && e_valid[pb_set][w] && a_pb_tags[w] == {pb_kind, pb_id};
    for (int i = 0; i < NM; i++)
      a_pb_mi[i] = m_state[i] != MFree && m_kind[i] == pb_kind && m_id[i] == pb_id;
  end
  `UB_ASSERT(LookupSeesItsSetAsItIs, !pb_valid || pb_match == a_pb_match)
  `UB_ASSERT(LookupSeesTheMissRegistersAsTheyAre, !pb_valid || mi_oh == a_pb_mi)
`endif

  // busy: from the registers
  always @* begin
    logic b;
    b = ln_v != '0 || pa_valid || pb_valid || rsp_valid_o || mreq_valid_o || wb_valid_o;
    for (int i = 0; i < NM; i++) b = b || m_state[i] != MFree;
    busy_o = b;
  end

endmodule
