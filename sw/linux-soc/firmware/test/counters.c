/*
 * Checks of counters.S's probes (hw/tb/test_linux_soc.py): a counter read writes its register
 * with the mtime word of an instant between the reads before and after it and leaves every
 * other register as it was; an instruction that is not a counter read reaches the supervisor's
 * trap vector as an illegal instruction (scause 2, stval the instruction) with every register
 * as it was. The result is the number of failed checks.
 */
#include <stdint.h>

#define PATTERN(i) (0x5A000000u + ((uint32_t)(i) << 8) + (uint32_t)(i))

extern uint32_t record[34], s_trap_record[3];

/* time, timeh, cycle, cycleh into x1, then x2, ... x31 */
extern void (*const probe_reads[31 * 4])(void);
void probe_csrrc(void), probe_csrrsi(void), probe_csrrci(void);
void probe_write(void), probe_instret(void), probe_csrrw(void);

/* The failures of one probe: rd (0: none) holds a word of mtime read in the probe's window. */
static uint32_t check(uint32_t rd)
{
	uint32_t i, fails = 0;

	for (i = 1; i < 32; i++) {
		if (i == rd)
			fails += record[i] < record[32] || record[i] > record[33];
		else
			fails += record[i] != PATTERN(i);
	}
	return fails;
}

/* The failures of a probe of an instruction that is no counter read. */
static uint32_t check_redirected(void (*probe)(void), uint32_t insn)
{
	s_trap_record[1] = 0;
	s_trap_record[2] = 0;
	probe();
	return check(0) + (s_trap_record[1] != 2) + (s_trap_record[2] != insn);
}

uint32_t counters_main(void);
uint32_t counters_main(void)
{
	uint32_t rd, c, fails = 0;

	for (rd = 1; rd < 32; rd++)
		for (c = 0; c < 4; c++) {
			probe_reads[4 * (rd - 1) + c]();
			fails += check(rd);
		}
	probe_csrrc();
	fails += check(7);
	probe_csrrsi();
	fails += check(7);
	probe_csrrci();
	fails += check(7);
	fails += check_redirected(probe_write, 0xC010A073u | (7u << 7));
	fails += check_redirected(probe_instret, 0xC0202073u | (7u << 7));
	fails += check_redirected(probe_csrrw, 0xC0101073u | (7u << 7));
	return fails;
}
