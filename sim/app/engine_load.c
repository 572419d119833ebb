/* The engines by name (ubsim's --engine). The SystemC engine is loaded the
 * first time it is asked for, from ubsim_systemc.so in the program's own
 * directory, so that a run on the native or nodes engine neither loads nor
 * starts the SystemC library (a few milliseconds at every start). A program
 * that links sim/systemc/ itself calls engine_systemc() instead. */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sc_engine.h"

#define PLUGIN "ubsim_systemc.so"

/* The plugin's path: beside the running program. */
static int plugin_path(char *path, size_t len)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return -1;
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (slash)
        *slash = 0;
    return snprintf(path, len, "%s/%s", slash ? exe : ".", PLUGIN) < (int)len ? 0 : -1;
}

static const sim_engine_t *load_systemc(char *err, size_t errlen)
{
    static const sim_engine_t *(*get)(void);
    if (!get) {
        char path[PATH_MAX + 32];
        if (plugin_path(path, sizeof path)) {
            snprintf(err, errlen, "cannot find the running program (for %s beside it)", PLUGIN);
            return NULL;
        }
        void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (!h) {
            snprintf(err, errlen, "cannot load the SystemC engine: %s", dlerror());
            return NULL;
        }
        get = (const sim_engine_t *(*)(void))dlsym(h, "engine_systemc");
        if (!get) {
            snprintf(err, errlen, "%s has no engine_systemc: %s", path, dlerror());
            dlclose(h);
            return NULL;
        }
    }
    return get();
}

int engine_by_name(const char *name, const sim_engine_t **e, char *err, size_t errlen)
{
    if (strcmp(name, "native") == 0) {
        *e = NULL;
    } else if (strcmp(name, "nodes") == 0) {
        *e = engine_nodes();
    } else if (strcmp(name, "systemc") == 0) {
        if (!(*e = load_systemc(err, errlen)))
            return -2;
    } else {
        snprintf(err, errlen, "expected native, nodes or systemc, got '%s'", name);
        return -1;
    }
    return 0;
}
