// rtl/ub_pkg.sv and cmodel/ub_pkg.h hold the same constants.
//
// The package text is read here (comments stripped; localparam / parameter
// declarations, enum items and the fields of packed structs collected, their
// values evaluated); the C side is the table the X-macro lists of ub_pkg.h
// generate. Every constant of the package must have its C twin (the C name
// is the SV name in upper case with underscores) with the same value, and the
// other way round; every C enum type <t>_t must be the SV enum <t>_e with the
// same items; ub_req_t must have the fields of UB_REQ_FIELDS.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

extern "C" {
#include "blocks.h"
#include "ub_pkg.h"
}

namespace {

// --- reading the package --------------------------------------------------

struct SvField {
    std::string name;
    long long width;
};

struct SvPkg {
    std::map<std::string, long long> consts;         // every named constant
    std::map<std::string, std::string> enum_of;      // enum item -> enum type
    std::map<std::string, std::vector<std::string>> enums;  // type -> items
    std::map<std::string, long long> enum_width;     // type -> base width
    std::map<std::string, std::vector<SvField>> structs;
    std::vector<std::string> order;                  // constants, in text order
};

std::string strip_comments(const std::string &s)
{
    std::string out;
    for (size_t i = 0; i < s.size();) {
        if (s.compare(i, 2, "//") == 0) {
            while (i < s.size() && s[i] != '\n')
                i++;
        } else if (s.compare(i, 2, "/*") == 0) {
            size_t e = s.find("*/", i + 2);
            i = e == std::string::npos ? s.size() : e + 2;
            out += ' ';
        } else {
            out += s[i++];
        }
    }
    return out;
}

std::string trim(const std::string &s)
{
    size_t a = 0, b = s.size();
    while (a < b && std::isspace((unsigned char)s[a]))
        a++;
    while (b > a && std::isspace((unsigned char)s[b - 1]))
        b--;
    return s.substr(a, b - a);
}

// Integer expressions of SV literals (8'h0C, 3'd1, 32'h00D8_1F3C, 24), names
// of constants read before, + - * / and parentheses.
class Expr {
public:
    Expr(const std::string &s, const std::map<std::string, long long> &names)
        : s_(s), names_(names) {}
    long long eval()
    {
        long long v = sum();
        skip();
        if (p_ != s_.size())
            throw std::runtime_error("cannot read '" + s_ + "'");
        return v;
    }

private:
    void skip()
    {
        while (p_ < s_.size() && std::isspace((unsigned char)s_[p_]))
            p_++;
    }
    long long sum()
    {
        long long v = product();
        for (;;) {
            skip();
            if (p_ < s_.size() && (s_[p_] == '+' || s_[p_] == '-')) {
                char op = s_[p_++];
                long long r = product();
                v = op == '+' ? v + r : v - r;
            } else {
                return v;
            }
        }
    }
    long long product()
    {
        long long v = atom();
        for (;;) {
            skip();
            if (p_ < s_.size() && (s_[p_] == '*' || s_[p_] == '/')) {
                char op = s_[p_++];
                long long r = atom();
                if (op == '/' && r == 0)
                    throw std::runtime_error("division by zero in '" + s_ + "'");
                v = op == '*' ? v * r : v / r;
            } else {
                return v;
            }
        }
    }
    long long atom()
    {
        skip();
        if (p_ >= s_.size())
            throw std::runtime_error("cannot read '" + s_ + "'");
        if (s_[p_] == '(') {
            p_++;
            long long v = sum();
            skip();
            if (p_ >= s_.size() || s_[p_] != ')')
                throw std::runtime_error("missing ')' in '" + s_ + "'");
            p_++;
            return v;
        }
        if (std::isalpha((unsigned char)s_[p_]) || s_[p_] == '_') {
            size_t b = p_;
            while (p_ < s_.size() && (std::isalnum((unsigned char)s_[p_]) || s_[p_] == '_'))
                p_++;
            std::string n = s_.substr(b, p_ - b);
            auto it = names_.find(n);
            if (it == names_.end())
                throw std::runtime_error("unknown name '" + n + "' in '" + s_ + "'");
            return it->second;
        }
        // [size]'[s]base digits, or plain decimal
        std::string digits;
        int base = 10;
        while (p_ < s_.size() && (std::isdigit((unsigned char)s_[p_]) || s_[p_] == '_'))
            digits += s_[p_++];
        if (p_ < s_.size() && s_[p_] == '\'') {
            p_++;
            if (p_ < s_.size() && (s_[p_] == 's' || s_[p_] == 'S'))
                p_++;
            char b = p_ < s_.size() ? (char)std::tolower((unsigned char)s_[p_++]) : 0;
            base = b == 'h' ? 16 : b == 'd' ? 10 : b == 'b' ? 2 : b == 'o' ? 8 : 0;
            if (!base)
                throw std::runtime_error("bad literal in '" + s_ + "'");
            digits.clear();
            while (p_ < s_.size() && (std::isxdigit((unsigned char)s_[p_]) || s_[p_] == '_'))
                digits += s_[p_++];
        }
        long long v = 0;
        bool any = false;
        for (char c : digits) {
            if (c == '_')
                continue;
            int d = std::isdigit((unsigned char)c) ? c - '0' : std::tolower((unsigned char)c) - 'a' + 10;
            if (d >= base)
                throw std::runtime_error("bad digit in '" + s_ + "'");
            v = v * base + d;
            any = true;
        }
        if (!any)
            throw std::runtime_error("cannot read '" + s_ + "'");
        return v;
    }

    std::string s_;
    const std::map<std::string, long long> &names_;
    size_t p_ = 0;
};

long long eval(const std::string &s, const std::map<std::string, long long> &names)
{
    return Expr(s, names).eval();
}

// Width of "logic [msb:lsb]" (or 1 without a range).
long long range_width(const std::string &decl, const std::map<std::string, long long> &names)
{
    size_t lb = decl.find('['), rb = decl.find(']');
    if (lb == std::string::npos)
        return 1;
    std::string r = decl.substr(lb + 1, rb - lb - 1);
    size_t colon = r.find(':');
    return eval(r.substr(0, colon), names) - eval(r.substr(colon + 1), names) + 1;
}

std::vector<std::string> split(const std::string &s, char sep)
{
    std::vector<std::string> v;
    std::string cur;
    std::istringstream in(s);
    while (std::getline(in, cur, sep))
        if (!trim(cur).empty())
            v.push_back(trim(cur));
    return v;
}

// Reads a package's text. Throws std::runtime_error on what it cannot read.
SvPkg parse_pkg(const std::string &text)
{
    SvPkg pkg;
    std::string t = strip_comments(text);
    size_t b = t.find("package");
    size_t e = t.find("endpackage");
    if (b == std::string::npos || e == std::string::npos)
        throw std::runtime_error("no package ... endpackage");
    b = t.find(';', b) + 1;
    // Statements end with ';'; a typedef's braces hold ';' or ',' inside.
    size_t p = b;
    while (p < e) {
        size_t semi = t.find(';', p);
        size_t brace = t.find('{', p);
        if (brace < semi && brace < e)
            semi = t.find(';', t.find('}', brace));
        if (semi > e)
            semi = e;  // text after the last statement
        std::string stmt = t.substr(p, semi - p);
        p = semi + 1;
        stmt = trim(stmt);
        if (stmt.empty())
            continue;
        if (stmt.rfind("localparam", 0) == 0 || stmt.rfind("parameter", 0) == 0) {
            size_t eq = stmt.find('=');
            if (eq == std::string::npos)
                throw std::runtime_error("no value: " + stmt);
            std::string lhs = trim(stmt.substr(0, eq));
            std::string name = lhs.substr(lhs.find_last_of(" \t\n]") + 1);
            pkg.consts[name] = eval(stmt.substr(eq + 1), pkg.consts);
            pkg.order.push_back(name);
        } else if (stmt.rfind("typedef enum", 0) == 0) {
            size_t lb = stmt.find('{'), rb = stmt.find('}');
            std::string type = trim(stmt.substr(rb + 1));
            pkg.enum_width[type] = range_width(stmt.substr(0, lb), pkg.consts);
            long long next = 0;
            for (const std::string &item : split(stmt.substr(lb + 1, rb - lb - 1), ',')) {
                size_t eq = item.find('=');
                std::string name = trim(item.substr(0, eq));
                long long v = eq == std::string::npos ? next : eval(item.substr(eq + 1), pkg.consts);
                pkg.consts[name] = v;
                pkg.order.push_back(name);
                pkg.enum_of[name] = type;
                pkg.enums[type].push_back(name);
                next = v + 1;
            }
        } else if (stmt.rfind("typedef struct packed", 0) == 0) {
            size_t lb = stmt.find('{'), rb = stmt.find('}');
            std::string type = trim(stmt.substr(rb + 1));
            for (const std::string &f : split(stmt.substr(lb + 1, rb - lb - 1), ';')) {
                std::string name = f.substr(f.find_last_of(" \t\n]") + 1);
                pkg.structs[type].push_back({name, range_width(f, pkg.consts)});
            }
        } else {
            throw std::runtime_error("unexpected statement in the package: " + stmt);
        }
    }
    return pkg;
}

std::string read_text(const std::string &path)
{
    std::ifstream f(path);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

std::string pkg_path() { return std::string(UBSIM_SOURCE_DIR) + "/rtl/ub_pkg.sv"; }

// --- the C side -----------------------------------------------------------

struct CConst {
    const char *name;
    long long value;
};
struct CGroup {
    const char *type;  // "" for plain constants, else the C enum type without _t
    std::vector<CConst> items;
};

#define ROW(n, v) {#n, (long long)(v)},
#define GROUP(t, LIST) {#t, {LIST(ROW)}},
const std::vector<CGroup> &c_groups()
{
    static const std::vector<CGroup> g = {{"", {UB_PKG_PARAMS(ROW)}}, UB_PKG_ENUMS(GROUP)};
    return g;
}
#undef GROUP
#undef ROW

#define FIELD(n, w) {#n, (long long)(w)},
const std::vector<SvField> kReqFields = {UB_REQ_FIELDS(FIELD)};
#undef FIELD

// UB_PSN_BITS -> UbPsnBits
std::string sv_name(const std::string &c)
{
    std::string out;
    bool up = true;
    for (char ch : c) {
        if (ch == '_') {
            up = true;
            continue;
        }
        out += up ? (char)std::toupper((unsigned char)ch) : (char)std::tolower((unsigned char)ch);
        up = false;
    }
    return out;
}

// Every difference between the package and the C header, one line each.
std::vector<std::string> compare(const SvPkg &pkg)
{
    std::vector<std::string> bad;
    std::map<std::string, std::string> c_of_sv;  // SV name -> C name
    for (const CGroup &g : c_groups()) {
        for (const CConst &c : g.items) {
            std::string sv = sv_name(c.name);
            c_of_sv[sv] = c.name;
            auto it = pkg.consts.find(sv);
            if (it == pkg.consts.end()) {
                bad.push_back(std::string("C constant ") + c.name + " = " + std::to_string(c.value) +
                              " has no twin " + sv + " in rtl/ub_pkg.sv");
                continue;
            }
            if (it->second != c.value)
                bad.push_back(std::string("constant ") + c.name + ": C " + std::to_string(c.value) +
                              ", rtl/ub_pkg.sv " + sv + " = " + std::to_string(it->second));
            auto en = pkg.enum_of.find(sv);
            std::string sv_type = en == pkg.enum_of.end() ? "" : en->second;
            std::string want = *g.type ? std::string(g.type) + "_e" : "";
            if (sv_type != want)
                bad.push_back(std::string("constant ") + c.name + ": C " +
                              (*g.type ? std::string("item of enum ") + g.type + "_t" : "plain constant") +
                              ", rtl/ub_pkg.sv " +
                              (sv_type.empty() ? "plain constant" : "item of enum " + sv_type));
        }
    }
    for (const std::string &sv : pkg.order)
        if (!c_of_sv.count(sv))
            bad.push_back("rtl/ub_pkg.sv constant " + sv + " = " + std::to_string(pkg.consts.at(sv)) +
                          " has no C twin in cmodel/ub_pkg.h");
    // enum types: the same set on both sides; every item fits the SV width
    for (const CGroup &g : c_groups()) {
        if (!*g.type)
            continue;
        std::string t = std::string(g.type) + "_e";
        if (!pkg.enums.count(t))
            bad.push_back(std::string("C enum ") + g.type + "_t has no twin " + t + " in rtl/ub_pkg.sv");
    }
    for (const auto &kv : pkg.enums) {
        bool found = false;
        for (const CGroup &g : c_groups())
            found |= *g.type && std::string(g.type) + "_e" == kv.first;
        if (!found)
            bad.push_back("rtl/ub_pkg.sv enum " + kv.first + " has no C twin in cmodel/ub_pkg.h");
        long long w = pkg.enum_width.at(kv.first);
        for (const std::string &item : kv.second)
            if (w < 63 && pkg.consts.at(item) >= (1ll << w))
                bad.push_back("rtl/ub_pkg.sv enum " + kv.first + ": " + item + " does not fit " +
                              std::to_string(w) + " bits");
    }
    // the request record
    auto st = pkg.structs.find("ub_req_t");
    if (st == pkg.structs.end()) {
        bad.push_back("rtl/ub_pkg.sv has no packed struct ub_req_t");
    } else {
        const std::vector<SvField> &f = st->second;
        long long total = 0;
        for (size_t i = 0; i < f.size() || i < kReqFields.size(); i++) {
            if (i < f.size())
                total += f[i].width;
            if (i >= f.size()) {
                bad.push_back("ub_req_t: C field " + kReqFields[i].name + " missing in rtl/ub_pkg.sv");
            } else if (i >= kReqFields.size()) {
                bad.push_back("ub_req_t: rtl/ub_pkg.sv field " + f[i].name + " missing in UB_REQ_FIELDS");
            } else if (f[i].name != kReqFields[i].name || f[i].width != kReqFields[i].width) {
                bad.push_back("ub_req_t field " + std::to_string(i) + ": C " + kReqFields[i].name + " (" +
                              std::to_string(kReqFields[i].width) + " bits), rtl/ub_pkg.sv " + f[i].name +
                              " (" + std::to_string(f[i].width) + " bits)");
            }
        }
        auto rb = pkg.consts.find("UbReqBits");
        if (rb != pkg.consts.end() && rb->second != total)
            bad.push_back("ub_req_t is " + std::to_string(total) + " bits, UbReqBits says " +
                          std::to_string(rb->second));
    }
    return bad;
}

std::string joined(const std::vector<std::string> &v)
{
    std::string s;
    for (const std::string &l : v)
        s += "  " + l + "\n";
    return s;
}

TEST(UbPkg, NameMapping)
{
    EXPECT_EQ(sv_name("UB_PSN_BITS"), "UbPsnBits");
    EXPECT_EQ(sv_name("URMA_OT"), "UrmaOt");
    EXPECT_EQ(sv_name("RC_OP_READ_REQUEST"), "RcOpReadRequest");
    EXPECT_EQ(sv_name("UBSP_ST_SEQ_ASK"), "UbspStSeqAsk");
}

TEST(UbPkg, ParserReadsLiteralsAndNames)
{
    SvPkg p = parse_pkg("package p;\n"
                        "  localparam int A = 24; // a\n"
                        "  localparam logic [31:0] B = 32'h00D8_1F3C;\n"
                        "  /* c */ localparam int C = A - 1;\n"
                        "  typedef enum logic [2:0] { X = 3'd1, Y, Z = 3'b110 } e_e;\n"
                        "  typedef struct packed { logic [A-1:0] f; logic g; logic [7:0] h; } s_t;\n"
                        "endpackage\n");
    EXPECT_EQ(p.consts["A"], 24);
    EXPECT_EQ(p.consts["B"], 0x00D81F3C);
    EXPECT_EQ(p.consts["C"], 23);
    EXPECT_EQ(p.consts["X"], 1);
    EXPECT_EQ(p.consts["Y"], 2);
    EXPECT_EQ(p.consts["Z"], 6);
    EXPECT_EQ(p.enum_of["Y"], "e_e");
    EXPECT_EQ(p.enum_width["e_e"], 3);
    ASSERT_EQ(p.structs["s_t"].size(), 3u);
    EXPECT_EQ(p.structs["s_t"][0].width, 24);
    EXPECT_EQ(p.structs["s_t"][1].name, "g");
    EXPECT_EQ(p.structs["s_t"][1].width, 1);
    EXPECT_EQ(p.structs["s_t"][2].width, 8);
    EXPECT_THROW(parse_pkg("package p; localparam int A = Q; endpackage"), std::runtime_error);
}

TEST(UbPkg, PackageAndCHeaderAgree)
{
    std::string text = read_text(pkg_path());
    ASSERT_FALSE(text.empty()) << pkg_path();
    SvPkg pkg;
    ASSERT_NO_THROW(pkg = parse_pkg(text));
    EXPECT_GT(pkg.consts.size(), 50u);
    std::vector<std::string> bad = compare(pkg);
    EXPECT_TRUE(bad.empty()) << "rtl/ub_pkg.sv and cmodel/ub_pkg.h disagree:\n" << joined(bad);
}

// The UB send pipeline declares the request record itself (Icarus Verilog 11
// cannot elaborate a struct type named through its package): its req_t has
// the fields and widths of the package's ub_req_t, in order.
TEST(UbPkg, SendPipelineRecordIsThePackagesRecord)
{
    std::string pkg_text = read_text(pkg_path());
    std::string mod = strip_comments(read_text(std::string(UBSIM_SOURCE_DIR) + "/rtl/ub_send_pipeline.sv"));
    size_t b = mod.find("typedef struct packed");
    ASSERT_NE(b, std::string::npos) << "no typedef struct packed in rtl/ub_send_pipeline.sv";
    size_t e = mod.find(';', mod.find('}', b));
    ASSERT_NE(e, std::string::npos);
    std::string st = mod.substr(b, e - b + 1);
    for (size_t at; (at = st.find("ub_pkg::")) != std::string::npos;)
        st.erase(at, 8);
    // parsed inside the package, with the package's constants
    size_t end = pkg_text.rfind("endpackage");
    ASSERT_NE(end, std::string::npos);
    SvPkg pkg;
    ASSERT_NO_THROW(pkg = parse_pkg(pkg_text.substr(0, end) + st + "\nendpackage\n"));
    ASSERT_TRUE(pkg.structs.count("req_t")) << st;
    ASSERT_TRUE(pkg.structs.count("ub_req_t"));
    const auto &a = pkg.structs["ub_req_t"], &m = pkg.structs["req_t"];
    ASSERT_EQ(a.size(), m.size());
    for (size_t i = 0; i < a.size(); i++) {
        EXPECT_EQ(a[i].name, m[i].name) << "field " << i;
        EXPECT_EQ(a[i].width, m[i].width) << a[i].name;
    }
}

// The comparison sees a changed value, a constant on one side only, a moved
// enum item and a changed struct field.
TEST(UbPkg, DisagreementsAreNamed)
{
    std::string text = read_text(pkg_path());
    ASSERT_FALSE(text.empty());
    auto doctored = [&](const std::string &from, const std::string &to) {
        std::string t = text;
        size_t at = t.find(from);
        EXPECT_NE(at, std::string::npos) << from;
        if (at != std::string::npos)
            t.replace(at, from.size(), to);
        return joined(compare(parse_pkg(t)));
    };
    EXPECT_NE(doctored("UbJettyBits      = 20", "UbJettyBits      = 21").find("UB_JETTY_BITS"),
              std::string::npos);
    EXPECT_NE(doctored("UbTaReadResp      = 8'h12", "UbTaReadResp      = 8'h14").find("UB_TA_READ_RESP"),
              std::string::npos);
    EXPECT_NE(doctored("localparam int UbRtphBytes      = 16;",
                       "localparam int UbRtphBytes      = 16;\n  localparam int UbExtra = 1;")
                  .find("UbExtra = 1 has no C twin"),
              std::string::npos);
    EXPECT_NE(doctored("    UbTpCnp        = 7'h8\n", "    UbTpCnpX       = 7'h8\n").find("UB_TP_CNP"),
              std::string::npos);
    EXPECT_NE(doctored("logic [UbJettyBits-1:0]    jetty;", "logic [UbJettyBits:0]    jetty;")
                  .find("ub_req_t field 5"),
              std::string::npos);
}

// The UB send pipeline's work-request ports are the request record.
TEST(UbPkg, UbSendPipelineWorkRequestPortsAreTheRecord)
{
    const block_class_t &c = ub_send_pipeline_class;
    for (const SvField &f : kReqFields) {
        std::string port = "wr_" + f.name;
        const port_desc_t *p = nullptr;
        for (int i = 0; i < c.n_in; i++)
            if (port == c.in_ports[i].name)
                p = &c.in_ports[i];
        ASSERT_NE(p, nullptr) << port;
        EXPECT_EQ((long long)p->width, f.width) << port;
    }
}

}  // namespace
