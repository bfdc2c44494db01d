/* Which of the tool's builds an executable needs, from the first bytes of its file: netburst-run reads them before
 * Valgrind starts (emulator/run/guest_platform.h), and the tool reads them at an execve, where Valgrind starts the
 * new image with the build for its platform. Freestanding C, for both. */
#ifndef NB_GUEST_ELF_H
#define NB_GUEST_ELF_H

/* e_ident (16 bytes), e_type (2) and e_machine (2) sit at the same place in both ELF classes. */
#define NB_ELF_HEADER_BYTES 20

enum nb_guest_elf {
    NB_ELF_AMD64, /* ELFCLASS64, EM_X86_64 */
    NB_ELF_I386,  /* ELFCLASS32, EM_386: built with gcc -m32, as every Pentium 4 before EM64T ran */
    NB_ELF_OTHER  /* not an ELF file (a script: its interpreter decides), another machine, or too short */
};

static inline enum nb_guest_elf nb_guest_elf_of(const unsigned char* header, unsigned long size) {
    if (size < NB_ELF_HEADER_BYTES || header[0] != 0x7f || header[1] != 'E' || header[2] != 'L' || header[3] != 'F' ||
        header[5] != 1 /* ELFDATA2LSB */)
        return NB_ELF_OTHER;
    const unsigned machine = header[18] | (unsigned)header[19] << 8;
    if (header[4] == 2 /* ELFCLASS64 */ && machine == 62 /* EM_X86_64 */) return NB_ELF_AMD64;
    if (header[4] == 1 /* ELFCLASS32 */ && machine == 3 /* EM_386 */) return NB_ELF_I386;
    return NB_ELF_OTHER;
}

/* An i386 image runs without the kernel's address randomisation: Valgrind's x86 build places the program where
 * the randomised kernel layout puts it, which moves its cache and cycle counts from run to run (by about 1 % of L1
 * misses); the amd64 build's layout does not move, and it keeps the randomisation the user had. */
static inline int nb_guest_elf_wants_fixed_layout(enum nb_guest_elf e) { return e == NB_ELF_I386; }

#endif
