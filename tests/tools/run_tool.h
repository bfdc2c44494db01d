// Running an installed-to-be command-line tool from a test, the way users run it.
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace netburst::testtools {

struct ToolRun {
    int status = -1;
    std::string out;
    std::string err;
};

// Runs `command` through the shell; stdout and stderr are captured separately.
inline ToolRun run_command(const std::string& command) {
    const std::string err_file = ::testing::TempDir() + "tool_stderr.txt";
    ToolRun r;
    FILE* p = popen((command + " 2>" + err_file).c_str(), "r");
    if (!p) return r;
    char buf[4096];
    std::size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
    const int raw = pclose(p);
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    std::ifstream e(err_file);
    std::stringstream ss;
    ss << e.rdbuf();
    r.err = ss.str();
    return r;
}

inline nlohmann::json json_of(const ToolRun& r) {
    auto j = nlohmann::json::parse(r.out, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << r.out << r.err;
    return j;
}

inline std::string write_temp_file(const std::string& name, const std::string& content) {
    const std::string path = ::testing::TempDir() + name;
    std::ofstream(path) << content;
    return path;
}

}  // namespace netburst::testtools
