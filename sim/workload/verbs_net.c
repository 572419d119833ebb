#include "verbs_net.h"

#include <stdio.h>
#include <string.h>

#include "order_check.h"
#include "path_topo.h"
#include "topo_file.h"

int verbs_net_time(verbs_net_t *v, const path_cfg_t *path, char *err, int errlen)
{
    memset(v, 0, sizeof(*v));
    kernel_init(&v->k);
    kernel_init(&v->kf);
    int64_t sw_mhz[CFG_MAX_STAGES];
    int n_sw = 0;
    for (int i = 0; i < path->n_stages; i++)
        if (path->stages[i].kind == STAGE_SWITCH && path->topo)
            sw_mhz[n_sw++] = path->topo->t.sw[path->stages[i].sw].clock_mhz;
    if (tb_init(&v->k.tb, path->nic_mhz, sw_mhz, n_sw)) {
        snprintf(err, (size_t)errlen, "path '%s': no common time base for the NIC clock of %lld MHz "
                                      "and the switches' clocks",
                 path->name, (long long)path->nic_mhz);
        return -1;
    }
    v->kf.tb = v->k.tb;
    return 0;
}

int verbs_net_lossy(const path_cfg_t *path, const fault_spec_t *fault)
{
    return fault != NULL || path_has_switch(path);
}

int verbs_net_build(verbs_net_t *v, const path_cfg_t *path, verbs_net_opts_t *o,
                    const urma_workload_t *wl, char *err, int errlen)
{
    v->lossy = verbs_net_lossy(path, o->net.fault);
    urma_host_cfg_t hc = {
        .max_outstanding = o->max_outstanding,
        .lossy = v->lossy,
        .timeout = tb_from_ps(&v->k.tb, o->timeout_ps > 0 ? o->timeout_ps : LAT_TIMEOUT_PS),
        .post_point = o->post_point,
        .done_point = o->done_point,
        .mem_bytes = {o->mem_bytes[0], o->mem_bytes[1]},
        .node_id = {path->topo ? (uint32_t)path->from_node : 0,
                    path->topo ? (uint32_t)path->to_node : 1},
    };
    char hn[80];
    snprintf(hn, sizeof hn, "%s.host", path->name);
    v->host = urma_host_new(&v->k, hn, &hc, wl, err, errlen);
    if (!v->host)
        return -1;
    o->net.max_inside = o->max_outstanding;
    o->net.lossy = v->lossy;
    o->net.target_emit = urma_host_emit;
    o->net.target_emit_ctx = v->host;
    o->net.target_mem = urma_host_mem(v->host, 1);
    o->net.target_fields = urma_host_fields;
    o->net.req_jetty = urma_host_jetty;
    if (o->engine) {
        /* the target's parts on a kernel of their own, which sees
         * everything the initiator's does */
        v->engine = o->engine;
        o->net.far_k = &v->kf;
        o->net.link_send = o->engine->send;
        o->net.link_ctx = o->engine->ctx;
        v->kf.probe = v->k.probe;
        v->kf.probe_ctx = v->k.probe_ctx;
        v->kf.step_all = v->k.step_all;
        v->kf.payloads = v->k.payloads;
        urma_host_set_node_kernel(v->host, 1, &v->kf);
    }
    v->built = 1; /* (path_net_free takes a netlist built part way) */
    if (path_net_build(&v->net, &v->k, path, &o->net, err, errlen))
        return -1;
    for (int i = 0; i < v->net.n; i++)
        v->far_node[i] = v->net.node_of[i] == NODE_TARGET ? 1 : 0;
    for (int i = 0; i < v->net.n; i++)
        if (v->net.kind[i] == STAGE_WIRE)
            v->far_node[i] = 1 - v->far_node[i];
    /* a path with no target NIC to answer moves no bytes */
    urma_host_set_moves_data(v->host, v->net.target_emits);
    /* completions reach the send pipeline's order tracker through a channel */
    nic_port_t *tp = path_net_tracker_port(&v->net);
    chan_init(&v->cmp, "completions", (int64_t)1 << 62, 0);
    if (tp) {
        /* (the port looks at it when it runs, and runs for it only while a
         * request waits: a notice wakes no one) */
        tp->cmp_in = &v->cmp;
        urma_host_set_cmp(v->host, &v->cmp);
    }
    if (tp) { /* the host learns what its NIC issued */
        tp->on_issue = urma_host_issued;
        tp->issue_ctx = v->host;
    }
    if (o->checker)
        urma_host_set_checker(v->host, o->checker);
    return urma_host_connect(v->host, &v->net.ch[0], &v->net.ch[v->net.n], err, errlen);
}

static int arrive(void *net, int link, const msg_t *m) { return path_net_arrive(net, link, m); }

static int use_memory(void *owner, int node, uint8_t *bytes, uint64_t size)
{
    return urma_host_use_memory(owner, node, bytes, size);
}

engine_run_t verbs_net_engine_run(verbs_net_t *v)
{
    engine_run_t r = {
        .k = {&v->k, &v->kf},
        .n = 2,
        .deliver = arrive,
        .net = &v->net,
        .far_node = v->far_node,
        .use_memory = use_memory,
        .owner = v->host,
        .mem_size = {urma_host_mem(v->host, 0)->size, urma_host_mem(v->host, 1)->size},
    };
    return r;
}

int verbs_net_run(verbs_net_t *v)
{
    if (!v->engine)
        return kernel_run(&v->k);
    engine_run_t r = verbs_net_engine_run(v);
    return v->engine->run(v->engine->ctx, &r);
}

uint64_t verbs_net_instants(const verbs_net_t *v) { return v->k.instants + v->kf.instants; }

void verbs_net_counts(const verbs_net_t *v, lat_faults_t *fx, lat_switch_t *sw, int *n_sw)
{
    for (int node = 0; node < 2; node++)
        fx->rx_checked[node] = path_net_rx_counts(&v->net, node == 0 ? NODE_INITIATOR : NODE_TARGET,
                                                  fx->rx_counts[node]);
    for (int dir = 0; dir < 2; dir++)
        fx->faulted[dir] = path_net_fault_counts(&v->net, dir, &fx->faults[dir]);
    const path_cfg_t *p = v->net.path;
    *n_sw = 0;
    for (int i = 0; p && p->topo && i < p->topo->t.n_switches && *n_sw < LAT_MAX_SWITCHES; i++) {
        lat_switch_t *w = &sw[*n_sw];
        if (!path_net_switch_counts(&v->net, i, &w->received, &w->forwarded, &w->dropped,
                                    &w->unroutable, &w->peak_queue_bytes))
            continue;
        snprintf(w->name, sizeof w->name, "%s", p->topo->t.sw[i].name);
        (*n_sw)++;
    }
}

void verbs_net_free(verbs_net_t *v)
{
    if (v->built) {
        path_net_free(&v->net);
        chan_free(&v->cmp);
    }
    kernel_free(&v->k);
    kernel_free(&v->kf);
    urma_host_free(v->host); /* (after the path: it gives back payloads) */
    v->host = NULL;
    v->built = 0;
}
