// Generated from hw/regs/latmon.rdl by hw/regs/generate.py (make regs). Do not edit.
// Included inside the latmon RTL modules.

localparam integer LATMON_MAP_SIZE = 32'h8000;

localparam [15:0] LATMON_ID_OFFSET = 16'h0000;
localparam [31:0] LATMON_ID_RESET = 32'h4C544D4E;
localparam integer LATMON_ID_MAGIC_LSB = 0;
localparam integer LATMON_ID_MAGIC_WIDTH = 32;

localparam [15:0] LATMON_VERSION_OFFSET = 16'h0004;
localparam [31:0] LATMON_VERSION_RESET = 32'h00010000;
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
localparam integer LATMON_CAPS_CNT_WIDTH_LSB = 8;
localparam integer LATMON_CAPS_CNT_WIDTH_WIDTH = 7;
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

localparam [15:0] LATMON_TRACE_OFFSET = 16'h4000;
localparam integer LATMON_TRACE_ENTRIES = 4096;
