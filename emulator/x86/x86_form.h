// The timing form of an instruction (emulator/model/insn_form.h) from the decoder front's reading of its bytes.
//
// Freestanding: no allocation, no C library; the Valgrind tool links it.
#pragma once

#include "emulator/model/instruction.h"
#include "emulator/x86/x86_decode.h"

namespace netburst::emu {

// The form of the decoded instruction `d`, which the classifier put in class `cls`; InsnForm::None when the
// class's timing is the form's.
InsnForm x86_form(const X86Decoded& d, InsnClass cls);

}  // namespace netburst::emu
