// The emulator backend: MSR accesses as Valgrind client requests to the netburst tool that netburst-run loads
// (emulator/protocol/netburst_client.h). Each request first runs every instruction the thread executed so far
// through the emulator, so a counter read reflects exactly the work before it. The accesses of one start, stop,
// read or reset go in one request (NB_REQ_WRMSR_LIST, NB_REQ_READ_COUNTERS): the component's instructions are the
// program's too, timed and counted, so each request left out is work the emulated Pentium 4 no longer does for PAPI.
#pragma once

#include <cstdint>

#include "backend/backend.h"
#include "emulator/model/emulated_machine.h"

namespace netburst::component {

// What NB_REQ_QUERY reports, in our own terms (the C struct stays in the client header).
struct EmulatorQuery {
    bool emulated = false;  // false: not running under netburst-run
    std::uint32_t protocol_version = 0;
    emu::EmulatedMachine machine;  // its model, Hyper-Threading and L3 (the clock and skid stay the tool's)
    unsigned logical_processor = 0;
    bool per_thread = true;
    bool kernel_model = true;
    std::uint64_t misc_enable = 0;
    unsigned stepping = 0;
    EmulatedMemory memory;
};

// Asks the emulator (a no-op returning emulated == false when the program runs natively).
EmulatorQuery query_emulator();

class EmulatorBackend final : public Backend {
public:
    IoStatus write_msr(std::uint32_t msr, std::uint64_t value) override;
    IoStatus read_msr(std::uint32_t msr, std::uint64_t* value) override;
    IoStatus write_msrs(const nb_msr_write* writes, unsigned count, unsigned* done) override;
    IoStatus read_counters(CounterMask counters, std::uint64_t* cccr, std::uint64_t* raw) override;
    IoStatus read_counter(unsigned counter, std::uint64_t* value) override;
    IoStatus counter_status(unsigned counter) override;
    IoStatus counter_interval(unsigned counter, std::uint64_t* half_width) override;
    unsigned logical_processor() override;
    int interrupt_signal() const override;
    IoStatus deliver_interrupts(bool on) override;
    IoStatus take_interrupt(Interrupt* out) override;
    IoStatus take_pebs_record(PebsNote* out) override;
    bool pebs_possible(std::string* why) const override;
};

}  // namespace netburst::component
