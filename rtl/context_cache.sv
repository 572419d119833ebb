// Context cache: variable-size records in sets with a byte budget,
// pseudo-LRU or random replacement, 8 miss registers that merge misses to
// one record, dirty records written back on eviction (docs/context_cache.md).
//
// Its combinational blocks are `always @*`: Icarus Verilog 11 never settles
// some of them written as always_comb (it wakes them again and again within
// one time step), while both forms mean the same to Verilator and yosys.
//
// RTL twin of cmodel/context_cache.c; both agree cycle for cycle. The steps
// of an edge follow the C model's order: (1) the request is looked up, (2) a
// fill completes its miss register, (4a) a hit due answers, (3) the lowest
// miss register filled before the edge answers a waiter, or evicts one
// record or installs its own as planned over the three edges before (below,
// "(3)'s plan"), (5) the next fetch goes out. Decisions are taken from the
// registers before the edge, with the request's own update of a record
// bypassed into (3); a fill is not (its register is served from the next
// edge).
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
  input  logic [1:0]  fill_kind_i,
  input  logic [23:0] fill_id_i,
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
  output logic        wb_valid_o,
  output logic [1:0]  wb_kind_o,
  output logic [23:0] wb_id_o,
  output logic [31:0] wb_data_o,
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

  // ---- records ----
  // valid and dirty bits in flip-flops (they reset); each way's tag (kind
  // and id) and data in memories of SETS rows without a reset (below, after
  // the logic that writes them), read asynchronously by the request's set
  // and by the lowest filled miss register's set: LUT RAM
  logic [WAYS-1:0] e_valid [SETS], e_dirty [SETS];  // per set, a bit per way
  logic [WAYS-1:0] rq_valids, fm_valids;           // the request's set's, fm's set's
  logic [25:0]   rq_tags [WAYS], fm_tags [WAYS];   // {kind, id}
  logic [31:0]   rq_datas [WAYS], fm_datas [WAYS];
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
  logic [3:0]  m_n     [NM];
  logic [2:0]  m_head  [NM];
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
  logic [SW-1:0] fm_set_q;
  logic [7:0]  w_tag   [NM*NW];
  logic [NM*NW-1:0] w_write;
  logic [31:0] w_wdata [NM*NW];
  // ---- hits waiting for their answer edge ----
  logic [31:0] f_due  [16];
  logic [7:0]  f_tag  [16];
  logic [31:0] f_data [16];
  logic [3:0]  f_head;
  logic [4:0]  f_n;
  logic [31:0] now_q;
  logic [15:0] lfsr_q;

  function automatic logic [10:0] rec_of(input logic [43:0] r, input logic [1:0] k);
    logic [10:0] b;
    b = r[11*k +: 11];
    rec_of = b == 11'd0 ? 11'd1 : b;
  endfunction

  // the tree after a lookup or an install of way w: every node above it
  // turned away from it
  function automatic logic [WAYS-1:0] plru_touch(input logic [WAYS-1:0] t, input logic [WW-1:0] w);
    plru_touch = t;
    for (int d = 0; d < WW; d++)
      for (int j = 0; j < (1 << d); j++)
        if (32'(w) >> (WW - d) == j) plru_touch[(1 << d) + j] = !w[WW-d-1];
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
  logic [7:0]  ways;
  logic [2:0]  lg;
  logic [31:0] budget;
  logic [31:0] hc;
  always @* begin
    ways = cfg_ways_i == 8'd0 ? 8'd1 : cfg_ways_i > 8'(WAYS) ? 8'(WAYS) : cfg_ways_i;
    lg = cfg_sets_log2_i > 3'(SW) ? 3'(SW) : cfg_sets_log2_i;
    budget = cfg_capacity_i >> lg;
    hc = cfg_hit_cycles_i == 4'd0 ? 32'd1 : {28'd0, cfg_hit_cycles_i};
  end

  // ---- (1) the request ----
  logic          rq_take;
  logic [SW-1:0] rq_set;
  logic          mi_found;
  logic [2:0]    mi;
  logic          hw_found;
  logic [WW-1:0] hw;
  logic [WAYS-1:0] rq_match, rq_first;
  logic [31:0]   hw_data;
  logic          free_m_found;
  logic [2:0]    free_m;
  logic [NM-1:0] m_free;
  logic          case_a, case_b, case_c, case_d;
  assign rq_set = set_of(rq_kind_i, rq_id_i, lg);
  assign rq_valids = e_valid[rq_set];
  logic [31:0]   a_data;      // case A: the register's data after the write
  logic [31:0]   c_data;      // case C: the record's data after the write
  logic          wr_hit;      // case C with a write: the data memory's write port is taken
  logic          wr_take;     // a write request taken: an install due waits
  logic [10:0]   rq_rec;      // the request's record size
  assign rq_rec = rec_of(cfg_rec_bytes_i, rq_kind_i);
  always @* begin
    rq_take = rq_valid_i && rq_ready_o;
    mi_found = 1'b0;
    mi = 3'd0;
    for (int i = NM - 1; i >= 0; i--)
      if (m_state[i] != MFree && m_kind[i] == rq_kind_i && m_id[i] == rq_id_i) begin
        mi_found = 1'b1;
        mi = 3'(i);
      end
    // the lowest way holding the record: its index by AND-OR from a
    // one-hot vector (no chain of multiplexers behind the tag memories'
    // reads)
    hw_found = 1'b0;
    hw = '0;
    for (int w = 0; w < WAYS; w++) begin
      rq_match[w] = w < 32'(ways) && rq_valids[w] && rq_tags[w] == {rq_kind_i, rq_id_i};
      rq_first[w] = rq_match[w] && !hw_found;
      hw = hw | ({WW{rq_first[w]}} & WW'(w));
      hw_found = hw_found || rq_match[w];
    end
    hw_data = rq_datas[hw];
    for (int i = 0; i < NM; i++) m_free[i] = m_state[i] == MFree;
    {free_m_found, free_m} = lowest(m_free);
    case_a = rq_take && mi_found && m_state[mi] == MFilled && m_n[mi] == 4'd0;
    case_b = rq_take && mi_found && !case_a;
    case_c = rq_take && !mi_found && hw_found;
    case_d = rq_take && !mi_found && !hw_found && free_m_found;  // (rq_ready promised one)
    a_data = rq_write_i ? rq_wdata_i : m_data[mi];
    c_data = rq_write_i ? rq_wdata_i : hw_data;
    wr_hit = case_c && rq_write_i;
    wr_take = rq_take && rq_write_i;
  end

  // ---- (2) a fill ----
  logic       fill_hit;
  logic [2:0] fi;
  always @* begin
    fill_hit = 1'b0;
    fi = 3'd0;
    for (int i = NM - 1; i >= 0; i--)
      if (fill_valid_i && m_state[i] != MFree && m_kind[i] == fill_kind_i &&
          m_id[i] == fill_id_i) begin
        fi = 3'(i);
      end
    // the lowest matching register, if it waits for this fill
    fill_hit = fill_valid_i && m_state[fi] == MWait && m_sent[fi] && m_kind[fi] == fill_kind_i &&
               m_id[fi] == fill_id_i;
  end

  // ---- (4a) a hit due ----
  logic [3:0]  f_tail;
  logic [4:0]  f_n1;       // after the push of (1)
  logic        hit_rsp;
  logic [7:0]  hit_tag;
  logic [31:0] hit_data;
  always @* begin
    f_tail = f_head + f_n[3:0];
    f_n1 = f_n + 5'((case_a || case_c) ? 1 : 0);
    hit_rsp = 1'b0;
    hit_tag = f_tag[f_head];
    hit_data = f_data[f_head];
    if (f_n != 5'd0) hit_rsp = f_due[f_head] == now_q;
    else if (case_a || case_c) begin
      // the FIFO was empty: the entry pushed now is the head
      hit_rsp = now_q + hc - 32'd1 == now_q;
      hit_tag = rq_tag_i;
      hit_data = case_a ? a_data : c_data;
    end
  end

  // ---- (3) the lowest filled miss register ----
  logic          fm_found;
  logic [2:0]    fm;
  logic [3:0]    fm_n;        // its waiters after (1)
  logic          fm_pop, fm_free, fm_install, fm_evict, fm_bypass_wb;
  logic [31:0]   fm_data;     // its data after (1)
  logic          fm_dirty;
  logic [SW-1:0] fm_set;
  logic [10:0]   fm_rec;
  logic [WW-1:0] fw;
  logic [WW-1:0] victim;
  logic [2*WAYS-1:1] has;     // node n: a usable valid way below it
  logic [31:0]   pop_data;
  logic [2:0]    pop_slot_head;
  // a record of fm's set as it is after (1)
  logic [31:0]   v_data;
  logic          v_dirty;
  assign fm_found = fm_found_q;
  assign fm = fm_q;
  assign fm_set = fm_set_q;
  assign fm_valids = e_valid[fm_set];
  always @* begin
    fm_n = m_n[fm] + 4'((case_b && mi == fm) ? 1 : 0);
    fm_data = m_data[fm];
    fm_dirty = m_dirty[fm];
    if (case_a && mi == fm) begin
      fm_data = a_data;
      fm_dirty = m_dirty[fm] | rq_write_i;
    end
    pop_slot_head = m_head[fm];
    pop_data = w_write[{fm, pop_slot_head}] ? w_wdata[{fm, pop_slot_head}] : fm_data;
    fm_pop = fm_found && m_n[fm] != 4'd0 && !hit_rsp;
    fm_rec = m_rec[fm];
    fm_free = 1'b0;
    fm_install = 1'b0;
    fm_evict = 1'b0;
    fm_bypass_wb = 1'b0;
    // (a request joins a filled register only while it has waiters: fm_n is
    // 0 exactly when m_n[fm] is)
    if (fm_found && m_n[fm] == 4'd0) begin
      if (m_big[fm]) begin
        fm_free = 1'b1;
        fm_bypass_wb = fm_dirty;
      end else if (pl_act && pl_free && pl_fit) begin
        // (the data memory has one write port: a write hit of (1) takes it,
        // and the install waits for the next edge; it waits behind any write
        // request, which is known before whether it hits)
        fm_install = !wr_take;
        fm_free = !wr_take;
      end else if (pl_act) fm_evict = 1'b1;
    end
  end

  // ---- (3)'s plan ----
  // For the served register once it has no waiter left and its record can
  // fit a set: at the edge it starts, the set's valid bits, tree and bytes
  // as they stand are taken (sv_*); the edge after, every node's way down
  // (the child its bit or the random bit names, unless no usable valid way
  // is below it), the lowest free way and whether the record fits; the
  // edge after that, the walk from the root to the victim (way 0 when no
  // usable way is valid); the edge after that, the install or eviction.
  // Only that changes the set's valid bits and bytes, so the plan holds
  // until then; hits in between move the tree, not the plan's victim. A
  // different register served, or none, drops it (cmodel/context_cache.c).
  localparam logic [1:0] PlanLast = 2'(2);  // CC_PLAN_EDGES - 1
  logic            pl_on, pl_need, pl_start, pl_act;
  logic [2:0]      pl_fm;
  logic [1:0]      pl_cnt;
  logic [WAYS-1:0] sv_valid, sv_tree;
  logic [15:0]     sv_rb;
  logic [31:0]     sv_used;
  logic [WAYS-1:1] pl_down;                 // stage 1: each node's way down
  logic            pl_any, pl_free, pl_fit;
  logic [WW-1:0]   pl_fw, pl_victim;
  logic [WAYS-1:1] down;
  logic            any, free_found;
  logic [WW-1:0]   free_w, walk;
  always @* begin
    pl_need = fm_found && m_n[fm] == 4'd0 && !m_big[fm];
    pl_act = pl_need && pl_on && pl_fm == fm && pl_cnt == 2'd0;
    pl_start = pl_need && !(pl_on && pl_fm == fm);
    // stage 1, from the snapshot
    for (int w = 0; w < WAYS; w++) has[WAYS + w] = w < 32'(ways) && sv_valid[w];
    for (int n = WAYS - 1; n >= 1; n--) has[n] = has[2*n] | has[2*n+1];
    for (int d = 0; d < WW; d++)
      for (int j = 0; j < (1 << d); j++) begin
        logic dir;
        dir = cfg_random_i ? sv_rb[WW-1-d] : sv_tree[(1 << d) + j];
        down[(1 << d) + j] = has[2 * ((1 << d) + j) + 32'(dir)] ? dir : !dir;
      end
    any = has[1];
    free_found = 1'b0;
    free_w = '0;
    for (int w = WAYS - 1; w >= 0; w--)
      if (w < 32'(ways) && !sv_valid[w]) begin
        free_found = 1'b1;
        free_w = WW'(w);
      end
    // stage 2: the walk
    begin
      logic [WW-1:0] n;  // a node above the ways (the last step's child is not one)
      n = WW'(1);
      walk = '0;
      for (int h = WW - 1; h >= 0; h--) begin
        walk[h] = pl_down[n];
        n = WW'({n, walk[h]});
      end
      if (!pl_any) walk = '0;
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pl_on <= 1'b0;
      pl_fm <= '0;
      pl_cnt <= '0;
    end else if (!pl_need) begin
      pl_on <= 1'b0;
    end else if (pl_start) begin
      pl_on <= 1'b1;
      pl_fm <= fm;
      pl_cnt <= PlanLast;
    end else if (pl_cnt != 2'd0) begin
      pl_cnt <= pl_cnt - 2'd1;
    end else if (fm_install || fm_evict) begin
      pl_on <= 1'b0;
    end
  end
  // (the plan's data registers: no reset, written only where the plan says)
  always_ff @(posedge clk_i) begin
    if (pl_start) begin
      sv_valid <= fm_valids;
      sv_tree <= plru_q[fm_set];
      sv_rb <= lfsr_q ^ cfg_seed_i;
      sv_used <= used_q[fm_set];
    end
    if (pl_cnt == PlanLast) begin
      pl_down <= down;
      pl_any <= any;
      pl_free <= free_found;
      pl_fw <= free_w;
      pl_fit <= sv_used <= m_lim[pl_fm];
    end
    if (pl_cnt == 2'd1) pl_victim <= walk;
  end
  assign fw = pl_fw;
  assign victim = pl_victim;

  always @* begin
    v_data = (case_c && rq_set == fm_set && hw == victim) ? c_data : fm_datas[victim];
    v_dirty = e_dirty[fm_set][victim] | (case_c && rq_set == fm_set && hw == victim && rq_write_i);
  end

  // ---- (5) the next fetch ----
  logic       mreq_free, q_found;
  logic [2:0] q;
  always @* begin
    mreq_free = !mreq_valid_o || mreq_ready_i;
    q_found = 1'b0;
    q = 3'd0;
    for (int i = NM - 1; i >= 0; i--)
      if ((m_state[i] == MWait && !m_sent[i]) || (case_d && free_m == 3'(i))) begin
        q_found = 1'b1;
        q = 3'(i);
      end
  end

  // next states of the miss registers, for rq_ready and busy
  logic [1:0] ms_d [NM];
  logic [3:0] mn_d [NM];
  always @* begin
    for (int i = 0; i < NM; i++) begin
      ms_d[i] = m_state[i];
      mn_d[i] = m_n[i];
    end
    if (case_d) begin
      ms_d[free_m] = MWait;
      mn_d[free_m] = 4'd1;
    end
    if (case_b) mn_d[mi] = m_n[mi] + 4'd1;
    if (fill_hit) ms_d[fi] = MFilled;
    if (fm_pop) mn_d[fm] = fm_n - 4'd1;
    if (fm_free) ms_d[fm] = MFree;
  end

  // the lowest register filled after the edge
  logic          fm_found_d;
  logic [2:0]    fm_d;
  logic [NM-1:0] filled_d;
  always @* begin
    for (int i = 0; i < NM; i++) filled_d[i] = ms_d[i] == MFilled;
    {fm_found_d, fm_d} = lowest(filled_d);
  end

  logic [25:0] v_tag;
  logic [31:0] v_key_kind_rec;
  assign v_tag = fm_tags[victim];
  assign v_key_kind_rec = {21'd0, rec_of(cfg_rec_bytes_i, v_tag[25:24])};

  // the record memories: one write port each (the tags written by an
  // install, the data by an install or a write hit) and two read ports,
  // each memory kept twice, one copy per read port (as LUT RAM does with a
  // second read port; written so, yosys never tries to share the two reads)
  logic          dw_en;
  logic [SW-1:0] dw_set;
  logic [WW-1:0] dw_way;
  logic [31:0]   dw_data;
  always @* begin
    dw_en = wr_hit || fm_install;
    dw_set = wr_hit ? rq_set : fm_set;
    dw_way = wr_hit ? hw : fw;
    dw_data = wr_hit ? rq_wdata_i : fm_data;
  end
  for (genvar w = 0; w < WAYS; w++) begin : g_way
    logic [25:0] tag_rq [SETS], tag_fm [SETS];
    logic [31:0] data_rq [SETS], data_fm [SETS];
    always_ff @(posedge clk_i) begin
      if (fm_install && fw == WW'(w)) begin
        tag_rq[fm_set] <= {m_kind[fm], m_id[fm]};
        tag_fm[fm_set] <= {m_kind[fm], m_id[fm]};
      end
      if (dw_en && dw_way == WW'(w)) begin
        data_rq[dw_set] <= dw_data;
        data_fm[dw_set] <= dw_data;
      end
    end
    assign rq_tags[w] = tag_rq[rq_set];
    assign fm_tags[w] = tag_fm[fm_set];
    assign rq_datas[w] = data_rq[rq_set];
    assign fm_datas[w] = data_fm[fm_set];
  end

  // the rows of each set (valid and dirty bits, tree, bytes used), written
  // as a decoded enable per set and a one-hot mask of ways: a hit's tree
  // update and dirty bit in the request's set; an install or an eviction in
  // the served register's set (after the hit, whose tree update it includes)
  logic [WAYS-1:0] hw_oh, fw_oh, vic_oh;
  logic [WAYS-1:0] hw_pm, hw_pv, fw_pm, fw_pv;  // the tree bits a touch sets, and their values
  logic [31:0]     used_new;
  always @* begin
    for (int w = 0; w < WAYS; w++) begin
      hw_oh[w] = rq_first[w];
      fw_oh[w] = fw == WW'(w);
      vic_oh[w] = victim == WW'(w);
    end
    // (a touch of an all-zero tree gives the values; the bits it writes are
    // those, and those it clears in an all-one tree)
    hw_pv = plru_touch({WAYS{1'b0}}, hw);
    hw_pm = hw_pv | ~plru_touch({WAYS{1'b1}}, hw);
    fw_pv = plru_touch({WAYS{1'b0}}, fw);
    fw_pm = fw_pv | ~plru_touch({WAYS{1'b1}}, fw);
    used_new = fm_install ? used_q[fm_set] + {21'd0, fm_rec} : used_q[fm_set] - v_key_kind_rec;
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
        hs = case_c && rq_set == SW'(s);
        fs = fm_set == SW'(s);
        if (hs && rq_write_i) e_dirty[s] <= e_dirty[s] | hw_oh;
        if (fs && fm_install) begin
          e_valid[s] <= e_valid[s] | fw_oh;
          e_dirty[s] <= fm_dirty ? e_dirty[s] | fw_oh : e_dirty[s] & ~fw_oh;
        end
        if (fs && fm_evict) e_valid[s] <= e_valid[s] & ~vic_oh;
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
      for (int i = 0; i < NM; i++) begin
        m_state[i] <= MFree;
        m_kind[i] <= '0;
        m_id[i] <= '0;
        m_data[i] <= '0;
        m_n[i] <= '0;
        m_head[i] <= '0;
        m_set[i] <= '0;
        m_rec[i] <= '0;
        m_lim[i] <= '0;
      end
      m_big <= '0;
      fm_found_q <= 1'b0;
      fm_q <= '0;
      fm_set_q <= '0;
      m_sent <= '0;
      m_dirty <= '0;
      f_head <= '0;
      f_n <= '0;
      now_q <= '0;
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
      wb_valid_o <= 1'b0;
      wb_kind_o <= '0;
      wb_id_o <= '0;
      wb_data_o <= '0;
      wb_bytes_o <= '0;
      hits_o <= '0;
      misses_o <= '0;
      merged_o <= '0;
      evictions_o <= '0;
    end else begin
      // (1)
      if (case_a) begin
        m_data[mi] <= a_data;
        if (rq_write_i) m_dirty[mi] <= 1'b1;
      end
      if (case_b) begin
        w_tag[{mi, m_head[mi] + m_n[mi][2:0]}] <= rq_tag_i;
        w_write[{mi, m_head[mi] + m_n[mi][2:0]}] <= rq_write_i;
        w_wdata[{mi, m_head[mi] + m_n[mi][2:0]}] <= rq_wdata_i;
        m_n[mi] <= m_n[mi] + 4'd1;
      end
      if (case_d) begin
        m_state[free_m] <= MWait;
        m_kind[free_m] <= rq_kind_i;
        m_id[free_m] <= rq_id_i;
        m_data[free_m] <= '0;
        m_dirty[free_m] <= 1'b0;
        m_sent[free_m] <= 1'b0;
        m_n[free_m] <= 4'd1;
        m_head[free_m] <= 3'd0;
        m_set[free_m] <= rq_set;
        m_rec[free_m] <= rq_rec;
        m_big[free_m] <= {21'd0, rq_rec} > budget;
        m_lim[free_m] <= budget - {21'd0, rq_rec};
        w_tag[{free_m, 3'd0}] <= rq_tag_i;
        w_write[{free_m, 3'd0}] <= rq_write_i;
        w_wdata[{free_m, 3'd0}] <= rq_wdata_i;
      end
      if (case_a || case_c) begin
        f_due[f_tail] <= now_q + hc - 32'd1;
        f_tag[f_tail] <= rq_tag_i;
        f_data[f_tail] <= case_a ? a_data : c_data;
      end
      if (case_a || case_c) hits_o <= hits_o + 32'd1;
      if (case_b || case_d) misses_o <= misses_o + 32'd1;
      if (case_b) merged_o <= merged_o + 32'd1;
      // (2)
      if (fill_hit) begin
        m_state[fi] <= MFilled;
        m_data[fi] <= fill_data_i;
      end
      // (4a)
      if (hit_rsp) begin
        f_head <= f_head + 4'd1;
        f_n <= f_n1 - 5'd1;
      end else f_n <= f_n1;
      // (3)
      wb_valid_o <= 1'b0;
      if (fm_pop) begin
        m_data[fm] <= pop_data;
        if (w_write[{fm, pop_slot_head}]) m_dirty[fm] <= 1'b1;
        m_head[fm] <= m_head[fm] + 3'd1;
        m_n[fm] <= fm_n - 4'd1;
      end
      if (fm_bypass_wb) begin
        wb_valid_o <= 1'b1;
        wb_kind_o <= m_kind[fm];
        wb_id_o <= m_id[fm];
        wb_data_o <= fm_data;
        wb_bytes_o <= fm_rec;
      end
      if (fm_free) m_state[fm] <= MFree;
      if (fm_evict) begin
        if (v_dirty) begin
          wb_valid_o <= 1'b1;
          wb_kind_o <= v_tag[25:24];
          wb_id_o <= v_tag[23:0];
          wb_data_o <= v_data;
          wb_bytes_o <= v_key_kind_rec[10:0];
        end
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
        rsp_tag_o <= w_tag[{fm, pop_slot_head}];
        rsp_data_o <= pop_data;
        rsp_hit_o <= 1'b0;
      end else rsp_valid_o <= 1'b0;
      // (5)
      if (mreq_free) begin
        if (q_found) begin
          m_sent[q] <= 1'b1;
          mreq_valid_o <= 1'b1;
          mreq_kind_o <= (case_d && free_m == q) ? rq_kind_i : m_kind[q];
          mreq_id_o <= (case_d && free_m == q) ? rq_id_i : m_id[q];
          mreq_bytes_o <= rec_of(cfg_rec_bytes_i, (case_d && free_m == q) ? rq_kind_i : m_kind[q]);
        end else mreq_valid_o <= 1'b0;
      end
      // (6)
      begin
        logic fr, room;
        fr = 1'b0;
        room = 1'b1;
        for (int i = 0; i < NM; i++) begin
          if (ms_d[i] == MFree) fr = 1'b1;
          else if (mn_d[i] >= 4'(NW)) room = 1'b0;
        end
        rq_ready_o <= fr && room;
      end
      fm_found_q <= fm_found_d;
      fm_q <= fm_d;
      fm_set_q <= m_set[fm_d];
      now_q <= now_q + 32'd1;
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
      a_rq_match[w] = rq_valids[w] && rq_tags[w] == {rq_kind_i, rq_id_i};
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
  `UB_ASSERT(MissedRecordNotHeld, !(mi_found && a_rq_match != '0))
  // a miss register collects at most its waiters; the hit FIFO holds at most 16
  logic a_waiters;
  always @* begin
    a_waiters = 1'b1;
    for (int i = 0; i < NM; i++) a_waiters = a_waiters && m_n[i] <= 4'(NW);
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
  `UB_ASSERT(InstallIntoAFreeWay, !fm_install || (!fm_valids[fw] && 32'(fw) < 32'(ways)))
  `UB_ASSERT(EvictAValidWay, !fm_evict || (fm_valids[victim] && 32'(victim) < 32'(ways)))
  `UB_ASSERT(ServedSetIsItsRecords, !fm_found_q || fm_set_q == set_of(m_kind[fm_q], m_id[fm_q], lg))
  `UB_ASSERT(HitFifoWithin16, f_n <= 5'd16)
`endif

  // busy: from the registers
  always @* begin
    logic b;
    b = f_n != 5'd0 || rsp_valid_o || mreq_valid_o || wb_valid_o;
    for (int i = 0; i < NM; i++) b = b || m_state[i] != MFree;
    busy_o = b;
  end

endmodule
