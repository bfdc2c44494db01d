#include "emulator/pmu/sampled_counters.h"

namespace netburst::emu {

double square_root(double x) {
    if (x <= 0) return 0;
    double r = x > 1 ? x : 1;
    for (int i = 0; i < 200; ++i) {
        const double next = 0.5 * (r + x / r);
        if (next >= r) break;
        r = next;
    }
    return r;
}

namespace {

std::uint64_t rounded(double v) { return v <= 0 ? 0 : static_cast<std::uint64_t>(v + 0.5); }

// The differences of two cumulative aux counts.
void aux_delta(const SampleAux& now, const SampleAux& before, double* out) {
    for (unsigned j = 0; j < SampleAux::kCount; ++j) out[j] = static_cast<double>(now.v[j] - before.v[j]);
}

}  // namespace

void SampledCounters::reset(std::uint64_t value_mask) {
    mask_ = value_mask;
    for (Counter& c : c_) c = Counter{};
    last_total_ = 0;
    last_aux_ = unit_aux_ = SampleAux{};
    timed_ = false;
}

// The regression and both predictors' records of their errors.
void SampledCounters::forget_fit(Counter& c) {
    c.model.reset();
    c.model_sse = c.rate_sse = 0;
    c.model_tests = c.rate_tests = 0;
    c.local = Local{};
}

void SampledCounters::new_interval(Counter& c, double value) {
    c.value = value;
    c.weight[0] = c.weight[1] = c.sum_w2[0] = c.sum_w2[1] = 0;
    c.pending = c.estimated_instructions = 0;
    c.interval = Spread{};
    // A new interval is often another part of the program (PAPI_start of the next region): its own fit.
    forget_fit(c);
    c.unit_events = c.unit_instructions = 0;
    c.unit_open = false;
}

std::uint64_t SampledCounters::program(unsigned n, bool estimated, bool counting, std::uint64_t key,
                                       std::uint64_t raw) {
    Counter& c = c_[n];
    std::uint64_t register_value = raw;
    if (estimated && !c.estimated) {
        // From here on the counter reads the estimate, starting from what it holds.
        new_interval(c, static_cast<double>(raw));
        c.mark = raw;
    } else if (!estimated && c.estimated) {
        register_value = value(n, raw);
    }
    if (key != c.key || !estimated) {
        // Another selection counts other events: its rates start afresh.
        c.has_rate = false;
        c.rate = 0;
        c.all = Spread{};
        forget_fit(c);
        c.key = key;
    }
    if (counting != c.counting) c.unit_open = false;
    c.estimated = estimated;
    c.counting = counting;
    return register_value;
}

void SampledCounters::written(unsigned n, std::uint64_t value) {
    Counter& c = c_[n];
    if (!c.estimated) return;
    new_interval(c, static_cast<double>(value));
    c.mark = value;
}

void SampledCounters::settle(std::uint64_t total, bool functional, const SampleAux& aux) {
    const double d = static_cast<double>(total - last_total_);
    double x[SampleAux::kCount];
    aux_delta(aux, last_aux_, x);
    last_total_ = total;
    last_aux_ = aux;
    if (!functional || d <= 0) return;
    for (Counter& c : c_) {
        if (!c.estimated || !c.counting) continue;
        if (!c.has_rate) {
            c.pending += d;
            continue;
        }
        const bool model = uses_model(c);
        c.value += model ? c.model.predict(d, x) * correction(c) : c.rate * d;
        c.weight[model] += d;
        c.estimated_instructions += d;
    }
}

void SampledCounters::timed(bool begin, const std::uint64_t* raw) {
    if (begin == timed_) return;
    timed_ = begin;
    for (unsigned n = 0; n < kCounters; ++n) {
        Counter& c = c_[n];
        c.unit_open = false;  // a unit is measured inside one stretch
        if (!c.estimated) continue;
        if (begin) c.mark = raw[n];
        else c.value += static_cast<double>((raw[n] - c.mark) & mask_);
    }
}

void SampledCounters::unit_begin(const std::uint64_t* raw, const SampleAux& aux) {
    unit_aux_ = aux;
    for (unsigned n = 0; n < kCounters; ++n) {
        Counter& c = c_[n];
        c.unit_open = c.estimated && c.counting;
        c.unit_mark = raw[n];
    }
}

void SampledCounters::unit_end(const std::uint64_t* raw, std::uint64_t instructions, const SampleAux& aux) {
    if (instructions == 0) {  // no unit after all (Emulator::unit)
        for (Counter& c : c_) c.unit_open = false;
        return;
    }
    double x[SampleAux::kCount];
    aux_delta(aux, unit_aux_, x);
    for (unsigned n = 0; n < kCounters; ++n) {
        Counter& c = c_[n];
        if (!c.unit_open) continue;
        c.unit_open = false;
        const double events = static_cast<double>((raw[n] - c.unit_mark) & mask_);
        const double r = events / static_cast<double>(instructions);
        for (unsigned k = 0; k < 2; ++k) {  // the share of the interval estimated since the last unit is complete
            c.sum_w2[k] += c.weight[k] * c.weight[k];
            c.weight[k] = 0;
        }
        // Each predictor's error on a unit it has not seen, before the unit joins it: the honest measure of how
        // well it predicts a stretch (a misfit of the regression shows here, where its residuals would hide it).
        const double u = static_cast<double>(instructions);
        if (c.has_rate) {
            const double e = events - c.rate * u;
            c.rate_sse += e * e;
            ++c.rate_tests;
        }
        if (c.model.ready()) {
            const double p = c.model.predict(u, x);
            const double e = events - p * correction(c);
            c.model_sse += e * e;
            ++c.model_tests;
            // The most recent units count most: a phase's own misfit, not the fit's early youth.
            c.local.predicted = c.local.predicted * (1 - kCorrectionDecay) + p;
            c.local.predicted_events = c.local.predicted_events * (1 - kCorrectionDecay) + events;
        }
        c.rate = r;
        c.has_rate = true;

        c.all.add(r);
        c.interval.add(r);
        c.model.add(u, x, events);
        c.unit_events += events;
        c.unit_instructions += u;
        if (c.pending > 0) {
            // Instructions that ran before the selection had a rate take its first one.
            c.value += r * c.pending;
            c.weight[0] += c.pending;
            c.estimated_instructions += c.pending;
            c.pending = 0;
        }
    }
}

// The fit predicts stretches once it has been tested on enough units it had not seen, and only while it predicts
// them better than the rate does.
bool SampledCounters::uses_model(const Counter& c) {
    if (!c.model.ready() || c.model_tests < kModelTests || c.rate_tests < kModelTests) return false;
    return c.model_sse / c.model_tests < c.rate_sse / c.rate_tests;
}

// How far the fit, made on the whole interval since the counter was written, is off on the recent units since the
// last read: the factor that brings its predictions to this part of the program.
double SampledCounters::correction(const Counter& c) {
    return c.local.predicted > 0 ? c.local.predicted_events / c.local.predicted : 1.0;
}

void SampledCounters::accessed() {
    for (Counter& c : c_) c.local = Local{};
}

bool SampledCounters::wants_unit() const {
    for (const Counter& c : c_)
        if (c.estimated && c.counting && !c.has_rate) return true;
    return false;
}

std::uint64_t SampledCounters::value(unsigned n, std::uint64_t raw) const {
    const Counter& c = c_[n];
    double v = c.value;
    if (timed_) v += static_cast<double>((raw - c.mark) & mask_);
    return rounded(v) & mask_;
}

std::uint64_t SampledCounters::half_width(unsigned n) const {
    const Counter& c = c_[n];
    if (!sampled(n)) return 0;
    // Instructions still waiting for a rate are not in the value at all: nothing bounds it.
    if (c.pending > 0) return kUnbounded;
    if (c.unit_instructions > 0 && c.unit_events < kMinEvents) return kUnbounded;
    const Spread& spread = c.interval.units >= kOwnSpreadUnits ? c.interval : c.all;
    // One rate and no spread to judge it by: the estimated part could be anything near its size.
    if (spread.units < 2) return rounded(c.rate * c.estimated_instructions) + 1;
    // Each predictor's variance for the stretches it estimated: its mean square error on units it had not seen,
    // per instruction (units are model.unit_instructions() long), or the units' successive differences before it
    // has been tested on two.
    const double u = c.model.unit_instructions();
    const double rate_variance = c.rate_tests >= 2 ? c.rate_sse / c.rate_tests / (u * u) : spread.variance();
    const double model_variance = c.model_tests != 0 ? c.model_sse / c.model_tests / (u * u) : rate_variance;
    const double variance = rate_variance * (c.sum_w2[0] + c.weight[0] * c.weight[0]) +
                            model_variance * (c.sum_w2[1] + c.weight[1] * c.weight[1]);
    const double spread_half = kZ * square_root(variance);
    // The units' events scaled to the estimated instructions (the interval's own units, or the selection's rate).
    double counting_half = 0;
    if (c.unit_instructions > 0) {
        const double scale = c.estimated_instructions / c.unit_instructions;
        counting_half = scale * kZ * square_root(c.unit_events);
    }
    return rounded(spread_half > counting_half ? spread_half : counting_half);
}

}  // namespace netburst::emu
