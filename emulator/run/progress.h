// The progress line netburst-run keeps on a terminal during long runs: guest instructions so far and the rate.
// The tool of each process image writes its count to DIR/progress-PID about twice a second (nb_main.c); this adds
// them up and rewrites one line of standard error in place.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace netburst::emu::run {

// The sum of the counts in dir's progress-* files (a file being rewritten is skipped until the next poll).
std::uint64_t read_progress(const std::string& dir);

// "12,345,678 guest instructions, 3.2 M/s": the line for a count and a rate in instructions per second.
std::string progress_text(std::uint64_t instructions, double per_second);

class ProgressLine {
public:
    explicit ProgressLine(std::string dir) : dir_(std::move(dir)) {}
    // Called while the program runs; redraws the line at most once a second.
    void update();
    // Erases the line, so that the report (or the shell prompt) starts on a clean line.
    void clear();

private:
    using Clock = std::chrono::steady_clock;
    std::string dir_;
    Clock::time_point last_time_ = Clock::now();
    std::uint64_t last_count_ = 0;
    bool shown_ = false;
};

}  // namespace netburst::emu::run
