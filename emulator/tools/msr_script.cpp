#include "emulator/tools/msr_script.h"

#include <sstream>

namespace netburst::emu {

namespace {
bool parse_u64(const std::string& s, std::uint64_t* out) {
    if (s.empty() || s[0] == '-' || s[0] == '+') return false;
    try {
        std::size_t used = 0;
        *out = std::stoull(s, &used, 0);
        return used == s.size();
    } catch (...) {
        return false;
    }
}
}  // namespace

bool parse_msr_script(const std::string& text, const std::string& name, std::vector<MsrScriptLine>* out,
                      std::string* error) {
    std::istringstream in(text);
    std::string raw;
    int line_no = 0;
    while (std::getline(in, raw)) {
        ++line_no;
        const std::size_t hash = raw.find('#');
        std::istringstream words(hash == std::string::npos ? raw : raw.substr(0, hash));
        std::vector<std::string> w;
        std::string word;
        while (words >> word) w.push_back(word);
        if (w.empty()) continue;
        auto fail = [&](const std::string& m) {
            *error = name + ":" + std::to_string(line_no) + ": " + m;
            return false;
        };
        MsrScriptLine l;
        l.line = line_no;
        if (w[0] == "wrmsr") l.kind = MsrScriptLine::Kind::WriteMsr;
        else if (w[0] == "poke") l.kind = MsrScriptLine::Kind::Poke;
        else return fail("unknown command '" + w[0] + "' (wrmsr ADDR VALUE [thread=T], poke ADDR VALUE)");
        if (w.size() < 3 || !parse_u64(w[1], &l.address) || !parse_u64(w[2], &l.value))
            return fail("write '" + w[0] + " ADDRESS VALUE' with numbers (0x... for hexadecimal)");
        if (l.kind == MsrScriptLine::Kind::WriteMsr && l.address > 0xFFFFFFFFull)
            return fail("an MSR address has 32 bits");
        for (std::size_t k = 3; k < w.size(); ++k) {
            if (l.kind == MsrScriptLine::Kind::WriteMsr && (w[k] == "thread=0" || w[k] == "thread=1")) {
                l.thread = static_cast<unsigned>(w[k].back() - '0');
                continue;
            }
            return fail("unexpected '" + w[k] + "'");
        }
        out->push_back(l);
    }
    return true;
}

}  // namespace netburst::emu
