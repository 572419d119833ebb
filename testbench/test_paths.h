// The default configuration's paths, and fault specs, for tests that run the
// simulator's workloads through its C API.
#ifndef UB_TEST_PATHS_H
#define UB_TEST_PATHS_H

#include <gtest/gtest.h>

#include <string>
#include <vector>

extern "C" {
#include "config.h"
#include "fault.h"
}

namespace testutil {

// The built-in configuration, with `sets` ("path.key=value", as --set)
// applied, validated; a failure is a test failure with the loader's message.
struct Paths {
    config_t cfg;
    explicit Paths(const std::vector<std::string> &sets = {})
    {
        char err[512];
        config_init(&cfg);
        EXPECT_EQ(config_load_defaults(&cfg, err, sizeof err), 0) << err;
        for (auto &s : sets)
            EXPECT_EQ(config_set(&cfg, s.c_str(), "--set", err, sizeof err), 0) << err;
        EXPECT_EQ(config_validate(&cfg, err, sizeof err), 0) << err;
    }
    const path_cfg_t *get(const char *name) { return config_find(&cfg, name); }
};

// A fault spec parsed from its command-line text ("loss=1e-3,seed=5").
inline fault_spec_t fault_spec(const char *text)
{
    fault_spec_t s;
    fault_spec_init(&s);
    char err[256];
    EXPECT_EQ(fault_parse(text, &s, err, sizeof err), 0) << text << ": " << err;
    return s;
}

}  // namespace testutil

#endif
