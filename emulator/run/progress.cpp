#include "emulator/run/progress.h"

#include <dirent.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "emulator/run/report.h"

namespace netburst::emu::run {

std::uint64_t read_progress(const std::string& dir) {
    std::uint64_t total = 0;
    DIR* d = opendir(dir.c_str());
    if (!d) return 0;
    while (dirent* e = readdir(d)) {
        if (std::strncmp(e->d_name, "progress-", 9) != 0) continue;
        std::ifstream in(dir + "/" + e->d_name);
        std::string line;
        // The tool writes a fixed-width line; anything shorter is a write caught half-way.
        if (!std::getline(in, line) || line.size() != 20) continue;
        total += std::strtoull(line.c_str(), nullptr, 10);
    }
    closedir(d);
    return total;
}

std::string progress_text(std::uint64_t instructions, double per_second) {
    char rate[32];
    std::snprintf(rate, sizeof rate, "%.1f M/s", per_second / 1e6);
    return with_commas(static_cast<std::int64_t>(instructions)) + " guest instructions, " + rate;
}

void ProgressLine::update() {
    const Clock::time_point now = Clock::now();
    const double seconds = std::chrono::duration<double>(now - last_time_).count();
    if (seconds < 1.0) return;
    const std::uint64_t count = read_progress(dir_);
    // An exec'd image starts its count again: show the new count, and no rate for that second.
    const double rate = count >= last_count_ ? static_cast<double>(count - last_count_) / seconds : 0.0;
    const std::string line = "\rnetburst-run: " + progress_text(count, rate) + "\033[K";
    if (write(STDERR_FILENO, line.data(), line.size()) < 0) return;
    shown_ = true;
    last_time_ = now;
    last_count_ = count;
}

void ProgressLine::clear() {
    if (!shown_) return;
    static const char kErase[] = "\r\033[K";
    if (write(STDERR_FILENO, kErase, sizeof kErase - 1) < 0) return;
    shown_ = false;
}

}  // namespace netburst::emu::run
