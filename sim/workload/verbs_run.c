#include "verbs_run.h"

#include <stdio.h>
#include <string.h>

#include "verbs_net.h"

int verbs_run(const path_cfg_t *path, const verbs_run_opts_t *o, const urma_workload_t *wl,
              verbs_run_result_t *r, char *err, int errlen)
{
    memset(r, 0, sizeof(*r));
    verbs_net_t v;
    if (verbs_net_time(&v, path, err, errlen)) {
        verbs_net_free(&v);
        return -1;
    }
    verbs_net_opts_t vo = {
        .max_outstanding = o->max_outstanding > 0 ? o->max_outstanding : 1024,
        .timeout_ps = o->timeout_ps,
        .post_point = CHAN_NO_PROBE,
        .done_point = CHAN_NO_PROBE,
        .mem_bytes = {o->mem_bytes[0] ? o->mem_bytes[0] : 16u << 20,
                      o->mem_bytes[1] ? o->mem_bytes[1] : 16u << 20},
        .checker = o->checker,
        .net = {
            .in_time_order = o->in_time_order,
            .payload = -1,
            .jetties = 1,
            .backend = o->backend,
            .fault = o->fault,
            .tx_class = o->tx_class,
            .transport = o->transport,
        },
    };
    for (int i = 0; i < CFG_MAX_STAGES; i++)
        vo.net.align_point[i] = vo.net.end_point[i] = vo.net.queue_point[i] =
            vo.net.tp_tx_point[i] = vo.net.tp_rx_point[i] = CHAN_NO_PROBE;
    int rc = verbs_net_build(&v, path, &vo, wl, err, errlen);
    if (rc == 0) {
        rc = kernel_run(&v.k) ? -1 : 0;
        if (rc)
            snprintf(err, (size_t)errlen, "path '%s': %s", path->name, v.k.err);
        r->end_ns = tb_to_ns(&v.k.tb, v.k.now);
        r->host = *urma_host_stats(v.host);
        verbs_net_counts(&v, &r->fx, r->sw, &r->n_switches);
        r->lockstep_mismatches = path_net_mismatches(&v.net);
        r->tp_on = path_net_tp_counts(&v.net, &r->tp);
    }
    verbs_net_free(&v);
    return rc;
}
