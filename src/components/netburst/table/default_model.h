/* The emulated and assumed processor when none is named: Northwood (family 0FH model 2). It is the model with the
 * 8 KB L1 data cache most published Pentium 4 numbers come from, and it has every event except instr_completed.
 * C and C++: the Valgrind tool's C options take it from here, the C++ code as kDefaultModel (cpu_model.h). */
#ifndef NB_TABLE_DEFAULT_MODEL_H
#define NB_TABLE_DEFAULT_MODEL_H
#define NB_DEFAULT_MODEL 2
#endif
