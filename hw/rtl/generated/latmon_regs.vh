// Generated from hw/regs/latmon.rdl by hw/regs/generate.py (make regs). Do not edit.
// Included inside the latmon RTL modules.

localparam integer LATMON_MAP_SIZE = 32'hC000;

localparam [15:0] LATMON_ID_OFFSET = 16'h0000;
localparam [31:0] LATMON_ID_RESET = 32'h4C544D4E;
localparam integer LATMON_ID_MAGIC_LSB = 0;
localparam integer LATMON_ID_MAGIC_WIDTH = 32;

localparam [15:0] LATMON_VERSION_OFFSET = 16'h0004;
localparam [31:0] LATMON_VERSION_RESET = 32'h00010003;
localparam integer LATMON_VERSION_MINOR_LSB = 0;
localparam integer LATMON_VERSION_MINOR_WIDTH = 16;
localparam integer LATMON_VERSION_MAJOR_LSB = 16;
localparam integer LATMON_VERSION_MAJOR_WIDTH = 16;

localparam [15:0] LATMON_CAPS_OFFSET = 16'h0008;
localparam [31:0] LATMON_CAPS_RESET = 32'h00000000;
localparam integer LATMON_CAPS_TRACE_LSB = 0;
localparam integer LATMON_CAPS_TRACE_WIDTH = 1;
localparam integer LATMON_CAPS_HIST_LSB = 1;
localparam integer LATMON_CAPS_HIST_WIDTH = 1;
localparam integer LATMON_CAPS_STAMP_LSB = 2;
localparam integer LATMON_CAPS_STAMP_WIDTH = 1;
localparam integer LATMON_CAPS_STIM_LSB = 3;
localparam integer LATMON_CAPS_STIM_WIDTH = 1;
localparam integer LATMON_CAPS_IRQ_LSB = 4;
localparam integer LATMON_CAPS_IRQ_WIDTH = 1;
localparam integer LATMON_CAPS_TIMEOUT_LSB = 5;
localparam integer LATMON_CAPS_TIMEOUT_WIDTH = 1;
localparam integer LATMON_CAPS_COUNTERS_LSB = 6;
localparam integer LATMON_CAPS_COUNTERS_WIDTH = 1;
localparam integer LATMON_CAPS_SUM_LSB = 7;
localparam integer LATMON_CAPS_SUM_WIDTH = 1;
localparam integer LATMON_CAPS_CNT_WIDTH_LSB = 8;
localparam integer LATMON_CAPS_CNT_WIDTH_WIDTH = 7;
localparam integer LATMON_CAPS_MINIMAL_LSB = 15;
localparam integer LATMON_CAPS_MINIMAL_WIDTH = 1;
localparam integer LATMON_CAPS_TRACE_DEPTH_LOG2_LSB = 16;
localparam integer LATMON_CAPS_TRACE_DEPTH_LOG2_WIDTH = 5;
localparam integer LATMON_CAPS_SYNC_STAGES_LSB = 21;
localparam integer LATMON_CAPS_SYNC_STAGES_WIDTH = 3;
localparam integer LATMON_CAPS_TRACE_WIDTH_LSB = 24;
localparam integer LATMON_CAPS_TRACE_WIDTH_WIDTH = 6;

localparam [15:0] LATMON_CTRL_OFFSET = 16'h000C;
localparam [31:0] LATMON_CTRL_RESET = 32'h00000000;
localparam integer LATMON_CTRL_ENABLE_LSB = 0;
localparam integer LATMON_CTRL_ENABLE_WIDTH = 1;
localparam integer LATMON_CTRL_CLEAR_LSB = 1;
localparam integer LATMON_CTRL_CLEAR_WIDTH = 1;
localparam integer LATMON_CTRL_TRACE_RING_LSB = 2;
localparam integer LATMON_CTRL_TRACE_RING_WIDTH = 1;
localparam integer LATMON_CTRL_IRQ_MODE_LSB = 4;
localparam integer LATMON_CTRL_IRQ_MODE_WIDTH = 2;
localparam integer LATMON_CTRL_ACK_MODE_LSB = 6;
localparam integer LATMON_CTRL_ACK_MODE_WIDTH = 2;

localparam [15:0] LATMON_STATUS_OFFSET = 16'h0010;
localparam [31:0] LATMON_STATUS_RESET = 32'h00000000;
localparam integer LATMON_STATUS_BUSY_LSB = 0;
localparam integer LATMON_STATUS_BUSY_WIDTH = 1;
localparam integer LATMON_STATUS_ALARM_LSB = 1;
localparam integer LATMON_STATUS_ALARM_WIDTH = 1;
localparam integer LATMON_STATUS_TRACE_FULL_LSB = 2;
localparam integer LATMON_STATUS_TRACE_FULL_WIDTH = 1;
localparam integer LATMON_STATUS_TRACE_WRAPPED_LSB = 3;
localparam integer LATMON_STATUS_TRACE_WRAPPED_WIDTH = 1;
localparam integer LATMON_STATUS_SATURATED_LSB = 4;
localparam integer LATMON_STATUS_SATURATED_WIDTH = 1;

localparam [15:0] LATMON_IRQ_ENABLE_OFFSET = 16'h0014;
localparam [31:0] LATMON_IRQ_ENABLE_RESET = 32'h00000000;
localparam integer LATMON_IRQ_ENABLE_SAMPLE_LSB = 0;
localparam integer LATMON_IRQ_ENABLE_SAMPLE_WIDTH = 1;
localparam integer LATMON_IRQ_ENABLE_ALARM_LSB = 1;
localparam integer LATMON_IRQ_ENABLE_ALARM_WIDTH = 1;
localparam integer LATMON_IRQ_ENABLE_TRACE_FULL_LSB = 2;
localparam integer LATMON_IRQ_ENABLE_TRACE_FULL_WIDTH = 1;
localparam integer LATMON_IRQ_ENABLE_TIMEOUT_LSB = 3;
localparam integer LATMON_IRQ_ENABLE_TIMEOUT_WIDTH = 1;
localparam integer LATMON_IRQ_ENABLE_OVERRUN_LSB = 4;
localparam integer LATMON_IRQ_ENABLE_OVERRUN_WIDTH = 1;
localparam integer LATMON_IRQ_ENABLE_STIM_DONE_LSB = 5;
localparam integer LATMON_IRQ_ENABLE_STIM_DONE_WIDTH = 1;
localparam integer LATMON_IRQ_ENABLE_HIST_READY_LSB = 6;
localparam integer LATMON_IRQ_ENABLE_HIST_READY_WIDTH = 1;

localparam [15:0] LATMON_IRQ_STATUS_OFFSET = 16'h0018;
localparam [31:0] LATMON_IRQ_STATUS_RESET = 32'h00000000;
localparam integer LATMON_IRQ_STATUS_SAMPLE_LSB = 0;
localparam integer LATMON_IRQ_STATUS_SAMPLE_WIDTH = 1;
localparam integer LATMON_IRQ_STATUS_ALARM_LSB = 1;
localparam integer LATMON_IRQ_STATUS_ALARM_WIDTH = 1;
localparam integer LATMON_IRQ_STATUS_TRACE_FULL_LSB = 2;
localparam integer LATMON_IRQ_STATUS_TRACE_FULL_WIDTH = 1;
localparam integer LATMON_IRQ_STATUS_TIMEOUT_LSB = 3;
localparam integer LATMON_IRQ_STATUS_TIMEOUT_WIDTH = 1;
localparam integer LATMON_IRQ_STATUS_OVERRUN_LSB = 4;
localparam integer LATMON_IRQ_STATUS_OVERRUN_WIDTH = 1;
localparam integer LATMON_IRQ_STATUS_STIM_DONE_LSB = 5;
localparam integer LATMON_IRQ_STATUS_STIM_DONE_WIDTH = 1;
localparam integer LATMON_IRQ_STATUS_HIST_READY_LSB = 6;
localparam integer LATMON_IRQ_STATUS_HIST_READY_WIDTH = 1;

localparam [15:0] LATMON_TIMEOUT_OFFSET = 16'h001C;
localparam [31:0] LATMON_TIMEOUT_RESET = 32'h00000000;
localparam integer LATMON_TIMEOUT_CYCLES_LSB = 0;
localparam integer LATMON_TIMEOUT_CYCLES_WIDTH = 32;

localparam [15:0] LATMON_THRESHOLD_OFFSET = 16'h0020;
localparam [31:0] LATMON_THRESHOLD_RESET = 32'h00000000;
localparam integer LATMON_THRESHOLD_CYCLES_LSB = 0;
localparam integer LATMON_THRESHOLD_CYCLES_WIDTH = 32;

localparam [15:0] LATMON_LAST_OFFSET = 16'h0024;
localparam [31:0] LATMON_LAST_RESET = 32'h00000000;
localparam integer LATMON_LAST_VALUE_LSB = 0;
localparam integer LATMON_LAST_VALUE_WIDTH = 32;

localparam [15:0] LATMON_MIN_OFFSET = 16'h0028;
localparam [31:0] LATMON_MIN_RESET = 32'hFFFFFFFF;
localparam integer LATMON_MIN_VALUE_LSB = 0;
localparam integer LATMON_MIN_VALUE_WIDTH = 32;

localparam [15:0] LATMON_MAX_OFFSET = 16'h002C;
localparam [31:0] LATMON_MAX_RESET = 32'h00000000;
localparam integer LATMON_MAX_VALUE_LSB = 0;
localparam integer LATMON_MAX_VALUE_WIDTH = 32;

localparam [15:0] LATMON_COUNT_OFFSET = 16'h0030;
localparam [31:0] LATMON_COUNT_RESET = 32'h00000000;
localparam integer LATMON_COUNT_VALUE_LSB = 0;
localparam integer LATMON_COUNT_VALUE_WIDTH = 32;

localparam [15:0] LATMON_SUM_LO_OFFSET = 16'h0034;
localparam [31:0] LATMON_SUM_LO_RESET = 32'h00000000;
localparam integer LATMON_SUM_LO_VALUE_LSB = 0;
localparam integer LATMON_SUM_LO_VALUE_WIDTH = 32;

localparam [15:0] LATMON_SUM_HI_OFFSET = 16'h0038;
localparam [31:0] LATMON_SUM_HI_RESET = 32'h00000000;
localparam integer LATMON_SUM_HI_VALUE_LSB = 0;
localparam integer LATMON_SUM_HI_VALUE_WIDTH = 16;

localparam [15:0] LATMON_SUM_COUNT_OFFSET = 16'h003C;
localparam [31:0] LATMON_SUM_COUNT_RESET = 32'h00000000;
localparam integer LATMON_SUM_COUNT_VALUE_LSB = 0;
localparam integer LATMON_SUM_COUNT_VALUE_WIDTH = 32;

localparam [15:0] LATMON_VIOLATIONS_OFFSET = 16'h0040;
localparam [31:0] LATMON_VIOLATIONS_RESET = 32'h00000000;
localparam integer LATMON_VIOLATIONS_VALUE_LSB = 0;
localparam integer LATMON_VIOLATIONS_VALUE_WIDTH = 32;

localparam [15:0] LATMON_TIMEOUTS_OFFSET = 16'h0044;
localparam [31:0] LATMON_TIMEOUTS_RESET = 32'h00000000;
localparam integer LATMON_TIMEOUTS_VALUE_LSB = 0;
localparam integer LATMON_TIMEOUTS_VALUE_WIDTH = 32;

localparam [15:0] LATMON_OVERRUNS_OFFSET = 16'h0048;
localparam [31:0] LATMON_OVERRUNS_RESET = 32'h00000000;
localparam integer LATMON_OVERRUNS_VALUE_LSB = 0;
localparam integer LATMON_OVERRUNS_VALUE_WIDTH = 32;

localparam [15:0] LATMON_IGNORED_OFFSET = 16'h004C;
localparam [31:0] LATMON_IGNORED_RESET = 32'h00000000;
localparam integer LATMON_IGNORED_VALUE_LSB = 0;
localparam integer LATMON_IGNORED_VALUE_WIDTH = 32;

localparam [15:0] LATMON_TRACE_COUNT_OFFSET = 16'h0050;
localparam [31:0] LATMON_TRACE_COUNT_RESET = 32'h00000000;
localparam integer LATMON_TRACE_COUNT_VALUE_LSB = 0;
localparam integer LATMON_TRACE_COUNT_VALUE_WIDTH = 32;

localparam [15:0] LATMON_TRACE_LOST_OFFSET = 16'h0054;
localparam [31:0] LATMON_TRACE_LOST_RESET = 32'h00000000;
localparam integer LATMON_TRACE_LOST_VALUE_LSB = 0;
localparam integer LATMON_TRACE_LOST_VALUE_WIDTH = 32;

localparam [15:0] LATMON_CAPS2_OFFSET = 16'h0058;
localparam [31:0] LATMON_CAPS2_RESET = 32'h00000000;
localparam integer LATMON_CAPS2_HIST_BINS_LOG2_LSB = 0;
localparam integer LATMON_CAPS2_HIST_BINS_LOG2_WIDTH = 4;
localparam integer LATMON_CAPS2_STAMP_ENTRIES_LSB = 8;
localparam integer LATMON_CAPS2_STAMP_ENTRIES_WIDTH = 7;
localparam integer LATMON_CAPS2_ID_WIDTH_LSB = 16;
localparam integer LATMON_CAPS2_ID_WIDTH_WIDTH = 5;

localparam [15:0] LATMON_HIST_CTRL_OFFSET = 16'h0100;
localparam [31:0] LATMON_HIST_CTRL_RESET = 32'h00000000;
localparam integer LATMON_HIST_CTRL_SNAPSHOT_LSB = 0;
localparam integer LATMON_HIST_CTRL_SNAPSHOT_WIDTH = 1;

localparam [15:0] LATMON_HIST_STATUS_OFFSET = 16'h0104;
localparam [31:0] LATMON_HIST_STATUS_RESET = 32'h00000000;
localparam integer LATMON_HIST_STATUS_BUSY_LSB = 0;
localparam integer LATMON_HIST_STATUS_BUSY_WIDTH = 1;
localparam integer LATMON_HIST_STATUS_SATURATED_LSB = 1;
localparam integer LATMON_HIST_STATUS_SATURATED_WIDTH = 1;

localparam [15:0] LATMON_HIST_START_OFFSET = 16'h0108;
localparam [31:0] LATMON_HIST_START_RESET = 32'h00000000;
localparam integer LATMON_HIST_START_CYCLES_LSB = 0;
localparam integer LATMON_HIST_START_CYCLES_WIDTH = 32;

localparam [15:0] LATMON_HIST_SHIFT_OFFSET = 16'h010C;
localparam [31:0] LATMON_HIST_SHIFT_RESET = 32'h00000000;
localparam integer LATMON_HIST_SHIFT_SHIFT_LSB = 0;
localparam integer LATMON_HIST_SHIFT_SHIFT_WIDTH = 5;

localparam [15:0] LATMON_HIST_SNAPSHOTS_OFFSET = 16'h0110;
localparam [31:0] LATMON_HIST_SNAPSHOTS_RESET = 32'h00000000;
localparam integer LATMON_HIST_SNAPSHOTS_VALUE_LSB = 0;
localparam integer LATMON_HIST_SNAPSHOTS_VALUE_WIDTH = 32;

localparam [15:0] LATMON_HIST_DROPPED_OFFSET = 16'h0114;
localparam [31:0] LATMON_HIST_DROPPED_RESET = 32'h00000000;
localparam integer LATMON_HIST_DROPPED_VALUE_LSB = 0;
localparam integer LATMON_HIST_DROPPED_VALUE_WIDTH = 32;

localparam [15:0] LATMON_HIST_UNDERFLOW_OFFSET = 16'h0118;
localparam [31:0] LATMON_HIST_UNDERFLOW_RESET = 32'h00000000;
localparam integer LATMON_HIST_UNDERFLOW_VALUE_LSB = 0;
localparam integer LATMON_HIST_UNDERFLOW_VALUE_WIDTH = 32;

localparam [15:0] LATMON_HIST_OVERFLOW_OFFSET = 16'h011C;
localparam [31:0] LATMON_HIST_OVERFLOW_RESET = 32'h00000000;
localparam integer LATMON_HIST_OVERFLOW_VALUE_LSB = 0;
localparam integer LATMON_HIST_OVERFLOW_VALUE_WIDTH = 32;

localparam [15:0] LATMON_HIST_COUNT_LO_OFFSET = 16'h0120;
localparam [31:0] LATMON_HIST_COUNT_LO_RESET = 32'h00000000;
localparam integer LATMON_HIST_COUNT_LO_VALUE_LSB = 0;
localparam integer LATMON_HIST_COUNT_LO_VALUE_WIDTH = 32;

localparam [15:0] LATMON_HIST_COUNT_HI_OFFSET = 16'h0124;
localparam [31:0] LATMON_HIST_COUNT_HI_RESET = 32'h00000000;
localparam integer LATMON_HIST_COUNT_HI_VALUE_LSB = 0;
localparam integer LATMON_HIST_COUNT_HI_VALUE_WIDTH = 16;

localparam [15:0] LATMON_HIST_SUM_LO_OFFSET = 16'h0128;
localparam [31:0] LATMON_HIST_SUM_LO_RESET = 32'h00000000;
localparam integer LATMON_HIST_SUM_LO_VALUE_LSB = 0;
localparam integer LATMON_HIST_SUM_LO_VALUE_WIDTH = 32;

localparam [15:0] LATMON_HIST_SUM_HI_OFFSET = 16'h012C;
localparam [31:0] LATMON_HIST_SUM_HI_RESET = 32'h00000000;
localparam integer LATMON_HIST_SUM_HI_VALUE_LSB = 0;
localparam integer LATMON_HIST_SUM_HI_VALUE_WIDTH = 32;

localparam [15:0] LATMON_HIST_MIN_OFFSET = 16'h0130;
localparam [31:0] LATMON_HIST_MIN_RESET = 32'hFFFFFFFF;
localparam integer LATMON_HIST_MIN_VALUE_LSB = 0;
localparam integer LATMON_HIST_MIN_VALUE_WIDTH = 32;

localparam [15:0] LATMON_HIST_MAX_OFFSET = 16'h0134;
localparam [31:0] LATMON_HIST_MAX_RESET = 32'h00000000;
localparam integer LATMON_HIST_MAX_VALUE_LSB = 0;
localparam integer LATMON_HIST_MAX_VALUE_WIDTH = 32;

localparam [15:0] LATMON_STAMP_CTRL_OFFSET = 16'h0200;
localparam [31:0] LATMON_STAMP_CTRL_RESET = 32'h00000000;
localparam integer LATMON_STAMP_CTRL_ENABLE_LSB = 0;
localparam integer LATMON_STAMP_CTRL_ENABLE_WIDTH = 1;

localparam [15:0] LATMON_STAMP_TIMEOUT_OFFSET = 16'h0204;
localparam [31:0] LATMON_STAMP_TIMEOUT_RESET = 32'h00000000;
localparam integer LATMON_STAMP_TIMEOUT_CYCLES_LSB = 0;
localparam integer LATMON_STAMP_TIMEOUT_CYCLES_WIDTH = 32;

localparam [15:0] LATMON_STAMP_MATCHED_OFFSET = 16'h0208;
localparam [31:0] LATMON_STAMP_MATCHED_RESET = 32'h00000000;
localparam integer LATMON_STAMP_MATCHED_VALUE_LSB = 0;
localparam integer LATMON_STAMP_MATCHED_VALUE_WIDTH = 32;

localparam [15:0] LATMON_STAMP_UNMATCHED_OFFSET = 16'h020C;
localparam [31:0] LATMON_STAMP_UNMATCHED_RESET = 32'h00000000;
localparam integer LATMON_STAMP_UNMATCHED_VALUE_LSB = 0;
localparam integer LATMON_STAMP_UNMATCHED_VALUE_WIDTH = 32;

localparam [15:0] LATMON_STAMP_TIMEOUTS_OFFSET = 16'h0210;
localparam [31:0] LATMON_STAMP_TIMEOUTS_RESET = 32'h00000000;
localparam integer LATMON_STAMP_TIMEOUTS_VALUE_LSB = 0;
localparam integer LATMON_STAMP_TIMEOUTS_VALUE_WIDTH = 32;

localparam [15:0] LATMON_STAMP_FULL_OFFSET = 16'h0214;
localparam [31:0] LATMON_STAMP_FULL_RESET = 32'h00000000;
localparam integer LATMON_STAMP_FULL_VALUE_LSB = 0;
localparam integer LATMON_STAMP_FULL_VALUE_WIDTH = 32;

localparam [15:0] LATMON_STAMP_DUPLICATES_OFFSET = 16'h0218;
localparam [31:0] LATMON_STAMP_DUPLICATES_RESET = 32'h00000000;
localparam integer LATMON_STAMP_DUPLICATES_VALUE_LSB = 0;
localparam integer LATMON_STAMP_DUPLICATES_VALUE_WIDTH = 32;

localparam [15:0] LATMON_STAMP_OUTSTANDING_OFFSET = 16'h021C;
localparam [31:0] LATMON_STAMP_OUTSTANDING_RESET = 32'h00000000;
localparam integer LATMON_STAMP_OUTSTANDING_VALUE_LSB = 0;
localparam integer LATMON_STAMP_OUTSTANDING_VALUE_WIDTH = 7;

localparam [15:0] LATMON_STAMP_TIME_LO_OFFSET = 16'h0220;
localparam [31:0] LATMON_STAMP_TIME_LO_RESET = 32'h00000000;
localparam integer LATMON_STAMP_TIME_LO_VALUE_LSB = 0;
localparam integer LATMON_STAMP_TIME_LO_VALUE_WIDTH = 32;

localparam [15:0] LATMON_STAMP_TIME_HI_OFFSET = 16'h0224;
localparam [31:0] LATMON_STAMP_TIME_HI_RESET = 32'h00000000;
localparam integer LATMON_STAMP_TIME_HI_VALUE_LSB = 0;
localparam integer LATMON_STAMP_TIME_HI_VALUE_WIDTH = 32;

localparam [15:0] LATMON_STIM_CTRL_OFFSET = 16'h0280;
localparam [31:0] LATMON_STIM_CTRL_RESET = 32'h00000000;
localparam integer LATMON_STIM_CTRL_START_LSB = 0;
localparam integer LATMON_STIM_CTRL_START_WIDTH = 1;
localparam integer LATMON_STIM_CTRL_STOP_LSB = 1;
localparam integer LATMON_STIM_CTRL_STOP_WIDTH = 1;
localparam integer LATMON_STIM_CTRL_MODE_LSB = 4;
localparam integer LATMON_STIM_CTRL_MODE_WIDTH = 2;
localparam integer LATMON_STIM_CTRL_LOOP_LSB = 8;
localparam integer LATMON_STIM_CTRL_LOOP_WIDTH = 1;
localparam integer LATMON_STIM_CTRL_STAMP_LSB = 9;
localparam integer LATMON_STIM_CTRL_STAMP_WIDTH = 1;

localparam [15:0] LATMON_STIM_STATUS_OFFSET = 16'h0284;
localparam [31:0] LATMON_STIM_STATUS_RESET = 32'h00000000;
localparam integer LATMON_STIM_STATUS_RUNNING_LSB = 0;
localparam integer LATMON_STIM_STATUS_RUNNING_WIDTH = 1;
localparam integer LATMON_STIM_STATUS_DONE_LSB = 1;
localparam integer LATMON_STIM_STATUS_DONE_WIDTH = 1;

localparam [15:0] LATMON_STIM_PERIOD_OFFSET = 16'h0288;
localparam [31:0] LATMON_STIM_PERIOD_RESET = 32'h00000000;
localparam integer LATMON_STIM_PERIOD_CYCLES_LSB = 0;
localparam integer LATMON_STIM_PERIOD_CYCLES_WIDTH = 32;

localparam [15:0] LATMON_STIM_MIN_OFFSET = 16'h028C;
localparam [31:0] LATMON_STIM_MIN_RESET = 32'h00000000;
localparam integer LATMON_STIM_MIN_CYCLES_LSB = 0;
localparam integer LATMON_STIM_MIN_CYCLES_WIDTH = 32;

localparam [15:0] LATMON_STIM_MAX_OFFSET = 16'h0290;
localparam [31:0] LATMON_STIM_MAX_RESET = 32'h00000000;
localparam integer LATMON_STIM_MAX_CYCLES_LSB = 0;
localparam integer LATMON_STIM_MAX_CYCLES_WIDTH = 32;

localparam [15:0] LATMON_STIM_BURST_OFFSET = 16'h0294;
localparam [31:0] LATMON_STIM_BURST_RESET = 32'h00000001;
localparam integer LATMON_STIM_BURST_PULSES_LSB = 0;
localparam integer LATMON_STIM_BURST_PULSES_WIDTH = 32;

localparam [15:0] LATMON_STIM_PAUSE_OFFSET = 16'h0298;
localparam [31:0] LATMON_STIM_PAUSE_RESET = 32'h00000000;
localparam integer LATMON_STIM_PAUSE_CYCLES_LSB = 0;
localparam integer LATMON_STIM_PAUSE_CYCLES_WIDTH = 32;

localparam [15:0] LATMON_STIM_TOTAL_OFFSET = 16'h029C;
localparam [31:0] LATMON_STIM_TOTAL_RESET = 32'h00000000;
localparam integer LATMON_STIM_TOTAL_PULSES_LSB = 0;
localparam integer LATMON_STIM_TOTAL_PULSES_WIDTH = 32;

localparam [15:0] LATMON_STIM_SEED_OFFSET = 16'h02A0;
localparam [31:0] LATMON_STIM_SEED_RESET = 32'h00000001;
localparam integer LATMON_STIM_SEED_VALUE_LSB = 0;
localparam integer LATMON_STIM_SEED_VALUE_WIDTH = 32;

localparam [15:0] LATMON_STIM_SENT_OFFSET = 16'h02A4;
localparam [31:0] LATMON_STIM_SENT_RESET = 32'h00000000;
localparam integer LATMON_STIM_SENT_VALUE_LSB = 0;
localparam integer LATMON_STIM_SENT_VALUE_WIDTH = 32;

localparam [15:0] LATMON_TRACE_OFFSET = 16'h4000;
localparam integer LATMON_TRACE_ENTRIES = 4096;

localparam [15:0] LATMON_HIST_OFFSET = 16'h8000;
localparam integer LATMON_HIST_ENTRIES = 4096;
