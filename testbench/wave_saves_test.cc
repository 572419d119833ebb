// The GTKWave save files in waves/ open what they say: each names the
// command that writes its dump ("[*] Made by: build/ubsim ...") and the
// dump it opens ("[*] Open with: gtkwave DUMP SAVE"); the test runs that
// command into a folder of its own and reads the dump's declarations
// (fst2vcd, which ships with GTKWave, for an FST): every signal the save
// file lists must be there (a name the dump lacks is a row GTKWave leaves
// out without a word). `make waves` runs the same commands into waves/.
#include <gtest/gtest.h>

#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "test_util.h"

namespace {

const std::string kRoot = UBSIM_SOURCE_DIR;

std::vector<std::string> save_files()
{
    std::vector<std::string> v;
    DIR *d = opendir((kRoot + "/waves").c_str());
    if (!d)
        return v;
    while (dirent *e = readdir(d)) {
        std::string n = e->d_name;
        if (n.size() > 5 && n.compare(n.size() - 5, 5, ".gtkw") == 0)
            v.push_back(n);
    }
    closedir(d);
    std::sort(v.begin(), v.end());
    return v;
}

std::string replace_all(std::string s, const std::string &from, const std::string &to)
{
    for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
        s.replace(at, from.size(), to);
    return s;
}

// A save file's signal line as the dump names it: without an alias
// ("+{name} ") in front and a bit range ("[7:0]") behind.
std::string signal_name(std::string line)
{
    if (line.rfind("+{", 0) == 0 && line.find("} ") != std::string::npos)
        line = line.substr(line.find("} ") + 2);
    size_t open = line.rfind('[');
    if (open != std::string::npos && line.back() == ']') {
        std::string r = line.substr(open + 1, line.size() - open - 2);
        size_t colon = r.find(':');
        if (colon != std::string::npos && colon > 0 && colon + 1 < r.size() &&
            r.find_first_not_of("0123456789:") == std::string::npos && r.find(':', colon + 1) == std::string::npos)
            line = line.substr(0, open);
    }
    return line;
}

std::string leaf_of(const std::string &name)
{
    size_t dot = name.rfind('.');
    return dot == std::string::npos ? name : name.substr(dot + 1);
}

// The full names a VCD text declares (scope.scope.name, as GTKWave shows
// them, without a bit range), each with its identifier code.
std::map<std::string, std::string> declared(const std::string &vcd)
{
    std::map<std::string, std::string> names;
    std::vector<std::string> scope;
    std::istringstream in(vcd);
    std::string tok;
    while (in >> tok) {
        if (tok == "$scope") {
            std::string kind, name;
            in >> kind >> name;
            scope.push_back(name);
        } else if (tok == "$upscope") {
            if (!scope.empty())
                scope.pop_back();
        } else if (tok == "$var") {
            std::string type, width, id, name, full;
            in >> type >> width >> id >> name;
            for (const std::string &x : scope)
                full += x + ".";
            names.emplace(full + name, id);
        } else if (tok == "$enddefinitions") {
            break;
        }
    }
    return names;
}

// The distinct times in [from, to] (the dump's time units) at which one of
// the signals with identifier codes `ids` changes value in the VCD text, at
// most `enough`.
int changes_within(const std::string &vcd, const std::set<std::string> &ids, uint64_t from, uint64_t to,
                   int enough)
{
    size_t body = vcd.find("$enddefinitions");
    std::istringstream in(body == std::string::npos ? std::string() : vcd.substr(body));
    uint64_t t = 0, last = UINT64_MAX;
    int n = 0;
    bool first = true;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty())
            continue;
        if (line[0] == '#') {
            t = std::stoull(line.substr(1));
            if (t > to)
                return n;
            continue;
        }
        if (t < from || line[0] == '$')
            continue;
        std::string id = (line[0] == 'b' || line[0] == 'r' || line[0] == 's') ? line.substr(line.find(' ') + 1)
                                                                             : line.substr(1);
        // (the first values at the window's start are what it opens on, not
        // a change)
        if (ids.count(id) && !(first && t == from) && t != last) {
            last = t;
            if (++n >= enough)
                return n;
        }
        first = first && t == from;
    }
    return n;
}

TEST(WaveSaves, EverySignalIsInTheDumpItsCommandWrites)
{
    std::string out;
    if (testutil::run("command -v fst2vcd", &out, true) != 0)
        GTEST_SKIP() << "fst2vcd (gtkwave) is not installed (make deps)";
    std::vector<std::string> saves = save_files();
    ASSERT_GE(saves.size(), 6u) << "no save files in " << kRoot << "/waves";
    char tmpl[] = "/tmp/ubsim_waves_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    const std::string dir = tmpl;

    for (const std::string &save : saves) {
        std::ifstream f(kRoot + "/waves/" + save);
        std::string line, made, dump;
        uint64_t start = 0;
        double zoom = -16; // GTKWave's zoom: at -16 the window shows about 300 ns
        std::vector<std::string> signals;
        while (std::getline(f, line)) {
            if (line.rfind("[*] Made by: build/ubsim ", 0) == 0)
                made = line.substr(25);
            else if (line[0] == '*' && line.size() > 1)
                zoom = std::stod(line.substr(1));
            else if (line.rfind("[timestart] ", 0) == 0)
                start = std::stoull(line.substr(12));
            else if (line.rfind("[*] Open with: gtkwave ", 0) == 0)
                dump = line.substr(23, line.find(' ', 23) - 23);
            else if (!line.empty() && line[0] != '[' && line[0] != '@' && line[0] != '-' && line[0] != '*')
                signals.push_back(signal_name(line));
        }
        ASSERT_NE(made, "") << save << ": no '[*] Made by: build/ubsim ...' line (the command that writes its dump)";
        ASSERT_EQ(dump.rfind("waves/", 0), 0u) << save << ": no '[*] Open with: gtkwave waves/DUMP " << save << "'";
        ASSERT_NE(made.find(" --wave waves/"), std::string::npos) << save << ": the command writes no waves/ dump";
        ASSERT_FALSE(signals.empty()) << save;
        // the command, writing into the test's folder
        std::string cmd = testutil::ubsim() + " " + replace_all(made, "waves/", dir + "/");
        ASSERT_EQ(testutil::run(cmd + " > /dev/null", &out, true), 0) << save << ": " << cmd << "\n" << out;
        std::string path = dir + "/" + dump.substr(6), vcd;
        ASSERT_EQ(access(path.c_str(), R_OK), 0) << save << ": " << cmd << " wrote no " << path;
        if (path.size() > 4 && path.compare(path.size() - 4, 4, ".fst") == 0) {
            ASSERT_EQ(testutil::run("fst2vcd " + path + " 2>/dev/null", &vcd), 0) << path;
        } else {
            std::ifstream v(path);
            std::stringstream ss;
            ss << v.rdbuf();
            vcd = ss.str();
        }
        std::map<std::string, std::string> names = declared(vcd);
        ASSERT_FALSE(names.empty()) << path;
        int missing = 0;
        for (const std::string &s : signals)
            if (!names.count(s)) {
                ADD_FAILURE() << save << ": " << s << " is not in " << dump << " (" << made << ")";
                missing++;
            }
        // it opens on activity: its signals (the clock and the reset aside)
        // change at 4 or more times within the window it opens on (from its
        // start time, about 300 ns at zoom -16, twice that for each step
        // out; the dumps count in ps)
        ASSERT_NE(vcd.find("$timescale\n\t1ps"), std::string::npos) << path << ": not in ps";
        std::set<std::string> shown; // (their identifier codes)
        for (const std::string &x : signals)
            if (leaf_of(x) != "clk_i" && leaf_of(x) != "rst_ni" && names.count(x))
                shown.insert(names[x]);
        const uint64_t window = (uint64_t)(300000.0 * std::pow(2.0, -16.0 - zoom));
        EXPECT_GE(changes_within(vcd, shown, start, start + window, 4), 4)
            << save << ": what it shows hardly changes within the " << window << " ps it opens on, from its "
            << "[timestart] " << start << " ps";
        std::printf("waves: %-22s %3zu signals, all in %s\n", save.c_str(), signals.size(), dump.c_str());
        EXPECT_EQ(missing, 0) << save;
    }
    testutil::run("rm -rf " + dir, &out);
}

// ubsim cache --wave traces one run's RTL cache; what it refuses, and why.
TEST(WaveSaves, CacheWaveIsOneRunOfTheRtl)
{
    const std::string u = testutil::ubsim() + " cache --quiet --reads 10 ";
    for (const auto &[args, says] : std::vector<std::pair<std::string, std::string>>{
             {"--stack ub --n 4 --backend rtl --wave w.vcd", "--wave: expected a file name ending in .fst, got 'w.vcd'"},
             {"--stack ub --n 4 --wave /tmp/w.fst", "--wave: the RTL cache traces itself: give --backend rtl or lockstep"},
             {"--n 4 --backend rtl --wave /tmp/w.fst", "--wave: one run: give --stack ub or pcie_nic and one --n value"},
             {"--stack ub --n 4,8 --backend rtl --wave /tmp/w.fst", "--wave: one run"},
         }) {
        std::string out;
        EXPECT_EQ(testutil::run(u + args, &out, true), 2) << args << ": " << out;
        EXPECT_NE(out.find(says), std::string::npos) << args << ": " << out;
    }
}

}  // namespace
