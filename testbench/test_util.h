// Helpers shared by the test suites.
#ifndef UB_TEST_UTIL_H
#define UB_TEST_UTIL_H

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <sstream>
#include <string>

namespace testutil {

// The time limit of one command a test starts (UBSIM_TEST_SUBPROCESS_TIMEOUT
// seconds, default 240; 0: none): a command still running then is stopped
// (TERM, KILL 5 s later) and the test fails, naming it. A value that is not
// whole seconds fails the test and keeps the default.
inline unsigned subprocess_limit_s()
{
    const char *s = std::getenv("UBSIM_TEST_SUBPROCESS_TIMEOUT");
    if (!s || !*s)
        return 240;
    char *end;
    unsigned long v = std::strtoul(s, &end, 10);
    if (*end || *s == '-' || v > 86400) {
        ADD_FAILURE() << "UBSIM_TEST_SUBPROCESS_TIMEOUT=" << s
                      << ": expected whole seconds, 0 to 86400 (0: no limit)";
        return 240;
    }
    return (unsigned)v;
}

// cmd as one word of a POSIX shell command line.
inline std::string shell_quote(const std::string &cmd)
{
    std::string q = "'";
    for (char ch : cmd)
        q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    return q + "'";
}

// Runs a shell command; returns its exit status and stdout (+ stderr if asked).
// A command that outlives subprocess_limit_s() fails the test.
inline int run(const std::string &cmd, std::string *out, bool with_stderr = false)
{
    std::string c = cmd + (with_stderr ? " 2>&1" : " 2>/dev/null");
    unsigned limit = subprocess_limit_s();
    if (limit)
        c = "timeout -k 5 " + std::to_string(limit) + " /bin/sh -c " + shell_quote(c);
    FILE *p = popen(c.c_str(), "r");
    if (!p)
        return -1;
    char buf[4096];
    size_t n;
    out->clear();
    while ((n = fread(buf, 1, sizeof(buf), p)) > 0)
        out->append(buf, n);
    int st = pclose(p);
    int rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    if (limit && (rc == 124 || rc == 137))
        ADD_FAILURE() << "timed out: the command did not end within " << limit
                      << " s (UBSIM_TEST_SUBPROCESS_TIMEOUT): " << cmd;
    return rc;
}

inline std::string ubsim() { return UBSIM_BIN; }

// Runs cmd with each of the options in `variants` (--jobs values): "" when
// every run exits 0 and prints what the first prints, else what differed.
inline std::string same_output(const std::string &cmd, std::initializer_list<const char *> variants)
{
    std::string first, out;
    bool have = false;
    for (const char *v : variants) {
        int rc = run(cmd + " " + v, &out);
        if (rc != 0)
            return std::string(v) + ": exit " + std::to_string(rc);
        if (!have)
            first = out, have = true;
        else if (out != first)
            return std::string(v) + ": output differs from " + *variants.begin();
    }
    return "";
}

// A command's output without the lines of what the run cost
// (nic_edges_simulated, which differs between engines and backends that
// give the same figures).
inline std::string without_costs(const std::string &s)
{
    std::istringstream in(s);
    std::string line, out;
    while (std::getline(in, line))
        if (line.find("nic_edges_simulated") == std::string::npos)
            out += line + "\n";
    return out;
}

// Writes text to a fresh temporary file and returns its path.
inline std::string temp_file(const std::string &text, const char *suffix = ".ini")
{
    char tmpl[] = "/tmp/ubsim_test_XXXXXX";
    int fd = mkstemp(tmpl);
    if (fd < 0)
        return "";
    std::string path = std::string(tmpl) + suffix;
    FILE *f = fdopen(fd, "w");
    fputs(text.c_str(), f);
    fclose(f);
    std::rename(tmpl, path.c_str());
    return path;
}

// Everything from the start of an open stream to its end, as text; closes it.
inline std::string slurp(FILE *f)
{
    std::string s;
    std::rewind(f);
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
        s.append(buf, n);
    std::fclose(f);
    return s;
}

inline bool short_run() { return std::getenv("UBSIM_TEST_SHORT") != nullptr; }

// UBSIM_TEST_CYCLES=N (the replay test's brief runs that write vectors):
// N, else 0.
inline uint64_t cycles_override()
{
    const char *s = std::getenv("UBSIM_TEST_CYCLES");
    return s && *s ? std::strtoull(s, nullptr, 10) : 0;
}

// The cycles of a long random run: `full`, `brief` in the sanitizer build,
// or UBSIM_TEST_CYCLES.
inline uint64_t run_cycles(uint64_t full, uint64_t brief)
{
    if (uint64_t n = cycles_override())
        return n;
    return short_run() ? brief : full;
}

// Edges between the resets of such a run: `normal`, or half the run under
// UBSIM_TEST_CYCLES (so that a brief run has a reset in its middle).
inline uint64_t reset_interval(uint64_t normal)
{
    uint64_t n = cycles_override();
    return n ? (n / 2 ? n / 2 : 1) : normal;
}

}  // namespace testutil

#endif
