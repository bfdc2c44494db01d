// The component core against an in-process emulator: a Backend that calls Emulator::write_msr/read_msr/read_pmc
// directly (what the Valgrind tool does for the client requests), and a workload that executes known synthetic
// instructions between the component's calls. With it the component's start, read and stop are tested end to
// end without Valgrind or PAPI.
#pragma once

#include <cstdint>
#include <memory>

#include "backend/detect.h"
#include "component/component.h"
#include "emulator/emulator.h"
#include "emulator/protocol/netburst_client.h"

namespace netburst::component::test {

class InProcessBackend final : public Backend {
public:
    InProcessBackend(emu::Emulator* emulator, const unsigned* thread) : emu_(emulator), thread_(thread) {}

    IoStatus write_msr(std::uint32_t msr, std::uint64_t value) override {
        ++writes;
        return emu_->write_msr(*thread_, msr, value) == emu::MsrResult::Ok ? IoStatus::Ok : IoStatus::Fault;
    }
    IoStatus read_msr(std::uint32_t msr, std::uint64_t* value) override {
        return emu_->read_msr(*thread_, msr, value) == emu::MsrResult::Ok ? IoStatus::Ok : IoStatus::Fault;
    }
    IoStatus read_counter(unsigned counter, std::uint64_t* value) override {
        return emu_->read_pmc(*thread_, counter, value) == emu::MsrResult::Ok ? IoStatus::Ok : IoStatus::Fault;
    }
    IoStatus counter_status(unsigned counter) override {
        return emu_->counter_unsupported(counter) ? IoStatus::Unsupported : IoStatus::Ok;
    }
    unsigned logical_processor() override { return *thread_; }
    // Overflow interrupts as the tool hands them out (NB_REQ_PMI_SIGNAL, NB_REQ_TAKE_PMI), taken straight from the
    // PMU: in process no signal is sent, the test takes them when it likes.
    int interrupt_signal() const override { return 1; }
    IoStatus deliver_interrupts(bool on) override {
        delivering_ = on;
        emu::PmiRecord dropped;
        emu::PebsRecord old;
        while (emu_->pmu().take_pebs_records(&old, 1) != 0) {  // records from before belong to no interrupt
        }
        if (!on)
            while (emu_->pmu().take_pmis(&dropped, 1) != 0) {
            }
        return IoStatus::Ok;
    }
    IoStatus take_interrupt(Interrupt* out) override {
        emu::PmiRecord r;
        if (!delivering_ || emu_->pmu().take_pmis(&r, 1) == 0) return IoStatus::Unavailable;
        out->eip = r.eip;
        out->overflowed = r.overflowed;
        out->pebs = r.pebs_threshold;
        return IoStatus::Ok;
    }
    // The PMU's records as the tool notes them, without its register completion (EIP is the field known), and
    // the tool's rewind of the buffer after the last one.
    IoStatus take_pebs_record(PebsNote* out) override {
        emu::PebsRecord record;
        if (!delivering_ || emu_->pmu().take_pebs_records(&record, 1) == 0) return IoStatus::Unavailable;
        out->record = record.address;
        out->valid = 1u << 1;
        out->data_address = record.has_data_address ? record.data_address : 0;
        out->rewound = 0;
        std::uint64_t ds = 0;
        emu_->read_msr(*thread_, kMsrDsArea, &ds);
        auto* fields = reinterpret_cast<std::uint64_t*>(static_cast<std::uintptr_t>(ds));
        if (ds != 0 && fields[kDsPebsIndex / 8] == record.address + kPebsRecordBytes) {
            out->rewound = static_cast<std::uint32_t>((fields[kDsPebsIndex / 8] - fields[kDsPebsBase / 8]) /
                                                      kPebsRecordBytes);
            fields[kDsPebsIndex / 8] = fields[kDsPebsBase / 8];
        }
        return IoStatus::Ok;
    }
    bool pebs_possible(std::string* why) const override {
        why->clear();
        return true;
    }

    unsigned writes = 0;

private:
    emu::Emulator* emu_;
    const unsigned* thread_;
    bool delivering_ = false;
};

// An emulated Pentium 4 with the component initialised on it, as under netburst-run.
class InProcessMachine {
public:
    explicit InProcessMachine(const emu::EmulatedMachine& machine = {}, const char* fp_env = nullptr)
        : emu_(new emu::Emulator) {
        emu::EmulatorConfig config;
        config.machine = machine;
        emu_->reset(config);
        DetectionSources sources;
        sources.emulator = [=] {
            EmulatorQuery q;
            q.emulated = true;
            q.protocol_version = NB_CLIENT_PROTOCOL_VERSION;
            q.machine = machine;
            q.misc_enable = 1u << 7;
            return q;
        };
        sources.make_emulator_backend = [this] {
            auto b = std::make_unique<InProcessBackend>(emu_.get(), &thread_);
            backend_ = b.get();
            return std::unique_ptr<Backend>(std::move(b));
        };
        status_ = initialize_component(sources, fp_env, &info_);
    }
    ~InProcessMachine() { shutdown_component(); }
    InProcessMachine(const InProcessMachine&) = delete;
    InProcessMachine& operator=(const InProcessMachine&) = delete;

    int status() const { return status_; }
    const nb_component_info& info() const { return info_; }
    ComponentState& component() { return *active_component(); }
    InProcessBackend& backend() { return *backend_; }
    emu::Emulator& emulator() { return *emu_; }

    // Where the next instruction of the known work will be.
    std::uint64_t pc() const { return pc_; }
    // The logical processor the next component call and instructions belong to.
    void on_thread(unsigned t) { thread_ = t; }
    unsigned thread() const { return thread_; }

    // --- Known work -----------------------------------------------------------------------------------------
    // n integer instructions in a straight line, at privilege level cpl.
    void straight(unsigned n, unsigned cpl = 3, emu::InsnClass cls = emu::InsnClass::IntAlu) {
        for (unsigned i = 0; i < n; ++i) emu_->execute(next(cls, cpl));
    }
    // A counted loop: `iterations` times `body` instructions of class cls (the first an integer load when
    // load_stride is not 0, from load_base + i * load_stride) and a conditional branch back, taken every time but
    // the last. Instructions: iterations * (body + 1); branches: iterations, of which iterations - 1 taken.
    void loop(unsigned iterations, unsigned body, std::uint64_t load_stride = 0, std::uint64_t load_base = 1u << 24,
              emu::InsnClass cls = emu::InsnClass::IntAlu) {
        const std::uint64_t top = pc_;
        for (unsigned i = 0; i < iterations; ++i) {
            pc_ = top;
            for (unsigned k = 0; k < body; ++k) {
                const bool is_load = k == 0 && load_stride != 0;
                emu::Instruction insn = next(is_load ? emu::InsnClass::IntAlu : cls, 3);
                if (is_load) {
                    insn.num_mem = 1;
                    insn.mem[0].address = load_base + i * load_stride;
                    insn.mem[0].size = 8;
                }
                emu_->execute(insn);
            }
            emu::Instruction br = next(emu::InsnClass::CondBranch, 3);
            br.length = 2;
            br.taken = i + 1 < iterations;
            br.target = top;
            br.reads = emu::kRegFlags;
            emu_->execute(br);
        }
        pc_ = top + 3 * body + 2;
    }

private:
    emu::Instruction next(emu::InsnClass cls, unsigned cpl) {
        emu::Instruction insn;
        insn.pc = pc_;
        insn.length = 3;
        insn.cls = cls;
        insn.cpl = static_cast<std::uint8_t>(cpl);
        insn.thread = static_cast<std::uint8_t>(thread_);
        pc_ += 3;
        return insn;
    }

    std::unique_ptr<emu::Emulator> emu_;
    unsigned thread_ = 0;
    std::uint64_t pc_ = 0x400000;
    InProcessBackend* backend_ = nullptr;
    nb_component_info info_{};
    int status_ = -1;
};

}  // namespace netburst::component::test
