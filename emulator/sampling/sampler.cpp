#include "emulator/sampling/sampler.h"

#include "table/msr_map.h"
#include "table/registers.h"

namespace netburst::emu::vg {

const char* Sampler::init(const SampleSpec& spec, bool long_mode, const SamplerHost& host) {
    if (!spec.enabled || spec.num_events == 0) return "no sampling was asked for";
    if (spec.num_events > kMaxSampledEvents) return "too many sampled events";
    for (unsigned i = 0; i < spec.num_events; ++i) {
        const SampledCounter& e = spec.events[i];
        if (e.counter >= kNumCounters || e.exact_counter >= kNumCounters) return "sampling counter out of range";
        if (e.period < min_sample_period(e.pebs) || e.period > kMaxSamplePeriod) return "sample period out of range";
        if (e.pebs && e.counter != kPebsCounterThread0) return "PEBS samples on IQ_COUNTER4 (counter 16) only";
        if (e.pebs && static_cast<int>(i) != spec.pebs_event()) return "one PEBS event at most";
    }
    if (!host.write || !host.alloc || !host.release) return "the sampler needs a writer and an allocator";
    spec_ = spec;
    long_mode_ = long_mode;
    host_ = host;
    writer_.set_sink(host.write);
    if (!counts_.init(host.alloc, host.release)) return "out of memory";
    if (spec.call_edges) {
        if (!edges_.init(host.alloc, host.release, spec.num_events)) return "out of memory";
        edge_sink_ = &edges_;
    }
    if (const int pebs = spec.pebs_event(); pebs >= 0) {
        // As a driver sets the DS area up: the buffer after the management area, no interrupt before it is full
        // (it is emptied after every instruction), and the counter reset that makes every PERIOD-th event a sample.
        DsAreaSetup setup;
        setup.buffer_base = kSampleDsArea + kDsBufferOffset;
        setup.index = setup.buffer_base;
        setup.absolute_maximum = setup.buffer_base + kPebsRecords * pebs_record_size(long_mode);
        setup.interrupt_threshold = setup.absolute_maximum;
        setup.counter_reset = sample_start_value(spec.events[pebs].period, true);
        if (!write_ds_area(ds_memory(), kSampleDsArea, long_mode, setup)) return "the DS area does not fit";
    }
    return nullptr;
}

GuestMemory Sampler::ds_memory() { return ds_window_.view(); }

void Sampler::begin_process(std::uint64_t pid, const char* exe, std::uint64_t kernel_low, std::uint64_t kernel_high) {
    TextWriter first = writer_.line();
    first.str("netburst-samples ").dec(kSamplesFileVersion).str("\nevents ").dec(spec_.num_events).ch('\n');
    writer_.commit(first);
    TextWriter w = writer_.line();
    w.str("process ").dec(pid).ch(' ');
    append_text(w, exe);
    w.ch('\n');
    writer_.commit(w);
    if (kernel_high > kernel_low) {
        TextWriter k = writer_.line();
        k.str("kernel ").hex(kernel_low).ch(' ').hex(kernel_high).ch('\n');
        writer_.commit(k);
    }
}

void Sampler::drain(Emulator& emu, unsigned lp) {
    settle();
    Pmu& pmu = emu.pmu();
    PmiRecord pmis[8];
    PebsRecord records[8];
    for (;;) {
        const unsigned n = pmu.take_pmis(pmis, 8);
        const unsigned m = pmu.take_pebs_records(records, 8);
        if (n == 0 && m == 0) break;
        for (unsigned i = 0; i < m; ++i) take_pebs(records[i]);
        if (m != 0) set_pebs_index(ds_memory(), kSampleDsArea, long_mode_, kSampleDsArea + kDsBufferOffset);
        for (unsigned i = 0; i < n; ++i) take_pmi(emu, lp, pmis[i]);
    }
    settle();
}

void Sampler::take_pmi(Emulator& emu, unsigned lp, const PmiRecord& pmi) {
    // Only the sampling counters' overflow interrupts sample (the PEBS counter's OVF flag may be in the mask too; it
    // raises no interrupt); a PEBS buffer-threshold interrupt cannot come (the threshold is the buffer's end and the
    // buffer is emptied after every instruction).
    if (pmi.pebs_threshold) return;
    bool sampling = false;
    for (unsigned i = 0; i < spec_.num_events; ++i) {
        const SampledCounter& e = spec_.events[i];
        if (e.pebs || !(pmi.overflowed & (std::uint32_t{1} << e.counter))) continue;
        sampling = true;
        // eip 0: the thread stopped before any instruction told where the interrupt returns (counted below).
        if (pmi.eip != 0) {
            TextWriter w = writer_.line();
            w.str("i ").dec(i).ch(' ').dec(tid_).ch(' ').dec(pmi.cycle).ch(' ').hex(pmi.eip).ch('\n');
            writer_.commit(w);
            note_sample(i, pmi.eip);
        }
        rearm_iebs(emu, lp, e);
    }
    if (sampling && pmi.eip == 0) ++lost_;
}

void Sampler::note_sample(unsigned event, std::uint64_t ip) {
    write_chain();
    counts_.mark_sampled(ip);
    if (stack_) stack_->add_sample(event);
    ++samples_;
}

void Sampler::rearm_iebs(Emulator& emu, unsigned lp, const SampledCounter& event) {
    const CounterDef& regs = kCounters[event.counter];
    std::uint64_t cccr = 0, value = 0;
    emu.read_msr(lp, regs.cccr_msr, &cccr);
    emu.read_msr(lp, regs.counter_msr, &value);
    // The counter kept counting after it wrapped: what it counted since belongs to the next period.
    emu.write_msr(lp, regs.cccr_msr, cccr & ~(std::uint64_t{1} << kCccrOvfBit));
    emu.write_msr(lp, regs.counter_msr, overflow_reload_value(event.period, value));
}

void Sampler::take_pebs(const PebsRecord& record) {
    // The PEBS counter is one: its records are the PEBS event's.
    const int event = spec_.pebs_event();
    if (event < 0) return;
    TextWriter w = writer_.line();
    w.str("p ").dec(static_cast<unsigned>(event)).ch(' ').dec(tid_).ch(' ').dec(record.cycle).ch(' ').hex(record.eip);
    if (record.has_data_address) w.ch(' ').hex(record.data_address);
    w.ch('\n');
    writer_.commit(w);
    note_sample(static_cast<unsigned>(event), record.eip);
}

void Sampler::write_chain() {
    if (!spec_.callchain) return;
    TextWriter w = writer_.line();
    w.str("chain");
    // At most ShadowStack::kCapacity words of 19 characters: well within a line (SampleWriter::kMaxLine).
    const unsigned depth = stack_ ? stack_->depth() : 0;
    for (unsigned i = 0; i < depth; ++i) w.ch(' ').hex(stack_->from_top(i));
    w.ch('\n');
    writer_.commit(w);
}

void Sampler::finish(Cycle now, std::uint64_t chain_overflow) {
    {
        TextWriter w = writer_.line();
        w.str("cycles ").dec(now).ch('\n');
        writer_.commit(w);
    }
    if (lost_ != 0) {
        TextWriter w = writer_.line();
        w.str("lost ").dec(lost_).ch('\n');
        writer_.commit(w);
    }
    if (chain_overflow != 0) {
        TextWriter w = writer_.line();
        w.str("chain-overflow ").dec(chain_overflow).ch('\n');
        writer_.commit(w);
    }
    if (edge_sink_) {
        edges_.for_each([&](const CallEdges::Entry& e) {
            TextWriter w = writer_.line();
            w.str("call ").hex(e.site).ch(' ').hex(e.callee).ch(' ').dec(e.calls);
            for (unsigned i = 0; i < spec_.num_events; ++i)
                w.ch(' ').dec(e.costs.exact[i]).ch(' ').dec(e.costs.samples[i]);
            w.ch('\n');
            writer_.commit(w);
        });
        // Both ends of every edge need their place in the source (below), with or without a count of their own.
        edges_.for_each([&](const CallEdges::Entry& e) {
            counts_.add(e.site, 0, 0);
            counts_.add(e.callee, 0, 0);
        });
    }
    counts_.for_each([&](const PcCounts::Entry& e) {
        bool counted = false;
        for (unsigned i = 0; i < spec_.num_events; ++i) counted = counted || e.count[i] != 0;
        if (counted) {
            TextWriter w = writer_.line();
            w.str("count ").hex(e.pc);
            for (unsigned i = 0; i < spec_.num_events; ++i) w.ch(' ').dec(e.count[i]);
            w.ch('\n');
            writer_.commit(w);
        }
        SourcePlace place;
        if (!host_.describe || !host_.describe(e.pc, &place)) return;
        if (place.function) {
            TextWriter w = writer_.line();
            w.str("fn ").hex(e.pc).ch(' ');
            append_text(w, place.function);
            w.ch('\n');
            writer_.commit(w);
        }
        if (place.file && place.line != 0) {
            TextWriter w = writer_.line();
            w.str("src ").hex(e.pc).ch(' ').dec(place.line).ch(' ');
            // Absolute paths, so that the host finds the file wherever it runs from.
            if (place.dir && place.dir[0] && place.file[0] != '/') {
                append_text(w, place.dir);
                w.ch('/');
            }
            append_text(w, place.file);
            w.ch('\n');
            writer_.commit(w);
        }
    });
    // Each call reports what came since the previous one (an exec that fails is followed by more of the image).
    counts_.clear();
    edges_.clear();
    lost_ = 0;
}

void Sampler::forget() {
    counts_.clear();
    edges_.clear();
    samples_ = lost_ = 0;
    for (std::uint64_t& v : last_exact_) v = 0;
    last_pc_ = 0;
    exact_ = nullptr;
    stack_ = nullptr;
}

}  // namespace netburst::emu::vg
