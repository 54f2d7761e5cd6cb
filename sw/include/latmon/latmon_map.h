/* Generated from hw/regs/latmon.rdl by hw/regs/generate.py (make regs). Do not edit. */
/* Byte offsets of the registers and memory windows, for drivers that access the map
 * through read32/write32 at base + offset. Field masks and shifts are in
 * latmon_regs.h (PeakRDL). */
#ifndef LATMON_MAP_H
#define LATMON_MAP_H

#define LATMON_MAP_SIZE 0x8000u
#define LATMON_ID_OFFSET 0x000u
#define LATMON_VERSION_OFFSET 0x004u
#define LATMON_CAPS_OFFSET 0x008u
#define LATMON_CTRL_OFFSET 0x00Cu
#define LATMON_STATUS_OFFSET 0x010u
#define LATMON_IRQ_ENABLE_OFFSET 0x014u
#define LATMON_IRQ_STATUS_OFFSET 0x018u
#define LATMON_TIMEOUT_OFFSET 0x01Cu
#define LATMON_THRESHOLD_OFFSET 0x020u
#define LATMON_LAST_OFFSET 0x024u
#define LATMON_MIN_OFFSET 0x028u
#define LATMON_MAX_OFFSET 0x02Cu
#define LATMON_COUNT_OFFSET 0x030u
#define LATMON_SUM_LO_OFFSET 0x034u
#define LATMON_SUM_HI_OFFSET 0x038u
#define LATMON_SUM_COUNT_OFFSET 0x03Cu
#define LATMON_VIOLATIONS_OFFSET 0x040u
#define LATMON_TIMEOUTS_OFFSET 0x044u
#define LATMON_OVERRUNS_OFFSET 0x048u
#define LATMON_IGNORED_OFFSET 0x04Cu
#define LATMON_TRACE_COUNT_OFFSET 0x050u
#define LATMON_TRACE_LOST_OFFSET 0x054u
#define LATMON_TRACE_OFFSET 0x4000u
#define LATMON_TRACE_ENTRIES 4096u

#endif /* LATMON_MAP_H */
