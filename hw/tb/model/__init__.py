"""Python reference models of the latmon RTL, used by the cocotb scoreboards."""
