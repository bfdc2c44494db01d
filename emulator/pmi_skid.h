/* The PMI skid's default, in a header C can include (the Valgrind tool's help text prints it too). */
#pragma once

// The delivery time of an imprecise PMI, from the counter's overflow to the interrupt being taken, in cycles. No
// measurement of it alone is published; it is fitted to the one measurement of its effect, Sprunt's Figure 5 (IEEE
// Micro 2002: IEBS samples of the l1_miss benchmark 65 or more instructions after the missing load, 46.5 % of
// them at +69). With 56 cycles, examples/l1_miss on model 2 puts its IEBS samples at +69 (doc/sampling.md, "The
// skid"). A macro so that the tools' help texts print it.
#define NB_DEFAULT_PMI_SKID_CYCLES 56
#define NB_STRINGIFY_VALUE_(x) #x
#define NB_STRINGIFY_VALUE(x) NB_STRINGIFY_VALUE_(x)
