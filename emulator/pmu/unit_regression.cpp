#include "emulator/pmu/unit_regression.h"

namespace netburst::emu {

void UnitRegression::reset() { *this = UnitRegression{}; }

void UnitRegression::add(double instructions, const double* aux, double events) {
    double x[kColumns];
    x[0] = instructions;
    for (unsigned j = 0; j < SampleAux::kCount; ++j) x[j + 1] = aux[j];
    for (unsigned i = 0; i < kColumns; ++i) {
        for (unsigned j = 0; j < kColumns; ++j) xtx_[i][j] += x[i] * x[j];
        xty_[i] += x[i] * events;
    }
    instructions_ += instructions;
    ++units_;
    solved_ = false;
}

// The normal equations by Gaussian elimination with partial pivoting. A column that never varied (no unit saw a
// miss) has no information: a ridge of a billionth of each column's own square on the diagonal (and a tiny one for
// a column of zeros) gives it a coefficient of 0 instead of none, and moves the others by about a billionth.
void UnitRegression::solve() const {
    solved_ = true;
    double a[kColumns][kColumns + 1];
    for (unsigned i = 0; i < kColumns; ++i) {
        for (unsigned j = 0; j < kColumns; ++j) a[i][j] = xtx_[i][j] + (i == j ? 1e-9 * xtx_[i][i] + 1e-12 : 0);
        a[i][kColumns] = xty_[i];
    }
    for (unsigned col = 0; col < kColumns; ++col) {
        unsigned pivot = col;
        for (unsigned r = col + 1; r < kColumns; ++r) {
            const double m = a[r][col] < 0 ? -a[r][col] : a[r][col];
            const double p = a[pivot][col] < 0 ? -a[pivot][col] : a[pivot][col];
            if (m > p) pivot = r;
        }
        if (pivot != col)
            for (unsigned j = 0; j <= kColumns; ++j) {
                const double t = a[col][j];
                a[col][j] = a[pivot][j];
                a[pivot][j] = t;
            }
        const double d = a[col][col];
        if (d == 0) continue;
        for (unsigned r = 0; r < kColumns; ++r) {
            if (r == col) continue;
            const double f = a[r][col] / d;
            for (unsigned j = col; j <= kColumns; ++j) a[r][j] -= f * a[col][j];
        }
    }
    for (unsigned i = 0; i < kColumns; ++i) beta_[i] = a[i][i] != 0 ? a[i][kColumns] / a[i][i] : 0;
}

double UnitRegression::predict(double instructions, const double* aux) const {
    if (!solved_) solve();
    double y = beta_[0] * instructions;
    for (unsigned j = 0; j < SampleAux::kCount; ++j) y += beta_[j + 1] * aux[j];
    return y > 0 ? y : 0;
}

}  // namespace netburst::emu
