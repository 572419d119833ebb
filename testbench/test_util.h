// Helpers shared by the test suites.
#ifndef UB_TEST_UTIL_H
#define UB_TEST_UTIL_H

#include <cstdio>
#include <cstdlib>
#include <string>

namespace testutil {

// Runs a shell command; returns its exit status and stdout (+ stderr if asked).
inline int run(const std::string &cmd, std::string *out, bool with_stderr = false)
{
    std::string c = cmd + (with_stderr ? " 2>&1" : " 2>/dev/null");
    FILE *p = popen(c.c_str(), "r");
    if (!p)
        return -1;
    char buf[4096];
    size_t n;
    out->clear();
    while ((n = fread(buf, 1, sizeof(buf), p)) > 0)
        out->append(buf, n);
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

inline std::string ubsim() { return UBSIM_BIN; }

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

}  // namespace testutil

#endif
