// Checks of the SystemC test programs (one sc_main each, no GoogleTest:
// SystemC's simulation cannot be started again within a process): each
// check counts, a failed one is printed, and the program ends with the line
// "<name>: N passed, N failed" that CI reads.
#ifndef UB_SC_CHECK_H
#define UB_SC_CHECK_H

#include <cstdio>
#include <string>

namespace sc_check {

inline int passed = 0, failed = 0;

inline void check(bool ok, const std::string &what)
{
    if (ok) {
        passed++;
    } else {
        failed++;
        std::printf("FAILED: %s\n", what.c_str());
    }
}

// The closing line; the program's exit status.
inline int finish(const char *name)
{
    std::printf("%s: %d passed, %d failed\n", name, passed, failed);
    return failed ? 1 : 0;
}

} // namespace sc_check

#endif
