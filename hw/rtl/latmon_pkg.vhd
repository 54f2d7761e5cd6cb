-- latmon_pkg: the component declaration of the latmon IP, for VHDL designs.
--
-- The IP is written in Verilog (hw/rtl/latmon.v); Vivado, Questa and other mixed-language tools
-- instantiate it from VHDL through this declaration:
--
--   library latmon;
--   use latmon.latmon_pkg.all;
--   ...
--   monitor : latmon
--     generic map (CNT_WIDTH => 32, TRACE_DEPTH => 512)
--     port map (clk => clk, rst => rst, irq => pl_ps_irq, ack => isr_read, ...);
--
-- Generics and ports match latmon.v one to one (a test checks it).
library ieee;
use ieee.std_logic_1164.all;

package latmon_pkg is

  component latmon is
    generic (
      CNT_WIDTH     : integer := 32;   -- width of the cycle counter and latencies (2..32)
      SYNC_STAGES   : integer := 2;    -- synchronizer flip-flops per input (0: bypass, 2..4)
      TRACE_DEPTH   : integer := 512;  -- samples in the trace RAM (a power of two, 2..4096)
      TRACE_WIDTH   : integer := 32;   -- bits per trace sample (1..32)
      COUNTER_WIDTH : integer := 32;   -- width of the event counters
      SUM_WIDTH     : integer := 48;   -- width of the sum of latencies (CNT_WIDTH..48)
      ADDR_WIDTH    : integer := 16;   -- width of the AXI4-Lite address (>= 16)
      HAS_HIST      : integer := 1;    -- histogram engine (0: left out)
      HIST_BINS_LOG2 : integer := 8;   -- log2 of the bins per bank (2..12)
      HAS_STAMP     : integer := 1;    -- timestamp mode, IDs matched (0: left out)
      STAMP_ENTRIES : integer := 16;   -- outstanding starts (2..64)
      HAS_STIM      : integer := 1;    -- stimulus generator (0: left out)
      ID_WIDTH      : integer := 16;   -- width of the event IDs (8..16)
      HAS_IRQ       : integer := 1;    -- irq_out, IRQ_ENABLE, IRQ_STATUS (0: left out)
      HAS_TIMEOUT   : integer := 1;    -- TIMEOUT, TIMEOUTS (0: left out)
      HAS_COUNTERS  : integer := 1;    -- VIOLATIONS, OVERRUNS, IGNORED, TRACE_LOST (0: left out)
      HAS_SUM       : integer := 1;    -- SUM_LO, SUM_HI, SUM_COUNT (0: left out)
      REG_DECODE    : integer := 1;    -- read decode in flip-flops (0: in the AR cycle)
      PIPE_COMPARE  : integer := 1     -- statistics' compares pipelined (0: direct)
    );
    port (
      clk            : in  std_logic;
      rst            : in  std_logic;
      irq            : in  std_logic;
      ack            : in  std_logic;
      alarm          : out std_logic;
      irq_out        : out std_logic;
      start_valid    : in  std_logic;
      start_id       : in  std_logic_vector(ID_WIDTH - 1 downto 0);
      end_valid      : in  std_logic;
      end_id         : in  std_logic_vector(ID_WIDTH - 1 downto 0);
      stim_out       : out std_logic;
      stim_id        : out std_logic_vector(ID_WIDTH - 1 downto 0);
      s_axil_awaddr  : in  std_logic_vector(ADDR_WIDTH - 1 downto 0);
      s_axil_awprot  : in  std_logic_vector(2 downto 0);
      s_axil_awvalid : in  std_logic;
      s_axil_awready : out std_logic;
      s_axil_wdata   : in  std_logic_vector(31 downto 0);
      s_axil_wstrb   : in  std_logic_vector(3 downto 0);
      s_axil_wvalid  : in  std_logic;
      s_axil_wready  : out std_logic;
      s_axil_bresp   : out std_logic_vector(1 downto 0);
      s_axil_bvalid  : out std_logic;
      s_axil_bready  : in  std_logic;
      s_axil_araddr  : in  std_logic_vector(ADDR_WIDTH - 1 downto 0);
      s_axil_arprot  : in  std_logic_vector(2 downto 0);
      s_axil_arvalid : in  std_logic;
      s_axil_arready : out std_logic;
      s_axil_rdata   : out std_logic_vector(31 downto 0);
      s_axil_rresp   : out std_logic_vector(1 downto 0);
      s_axil_rvalid  : out std_logic;
      s_axil_rready  : in  std_logic
    );
  end component;

end package latmon_pkg;
