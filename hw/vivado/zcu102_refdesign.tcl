# The published T1/T2 reference design on a ZCU102, as a Vivado block design, built and exported
# (bitstream and the .xsa hardware handoff for PetaLinux/Yocto and Vitis):
#
#   vivado -mode batch -source hw/vivado/zcu102_refdesign.tcl [-tclargs <output dir>]
#
# Block design "latmon_zcu102":
#   Zynq UltraScale+ PS (ZCU102 board preset), M_AXI_HPM0_FPD 32 bits wide, pl_clk0 100 MHz;
#   an AXI SmartConnect (AXI4 -> AXI4-Lite) to the reference design (hw/rtl/refdesign/refdesign.v
#   as a module reference: timer, data generator, FIFO, and the two latmon cores T1 and T2, from
#   hw/latmon.core's files) at 0xA000_0000 (256 KiB: T1 +0x00000, T2 +0x10000, data +0x20000);
#   pl_ps_irq (data ready) on pl_ps_irq0[0] = GIC SPI 89, monitor_irq (the cores' irq_out) on
#   pl_ps_irq0[1] = GIC SPI 90 — the interrupts meta-latmon's latmon.dtsi gives Linux.
# The latmon IP alone is in Vivado's catalog from hw/vivado/ip (component.xml, IP-XACT
# 1685-2014: AXI4-Lite slave, clock, reset, interrupt, user parameters) for your own designs.
#
# Not run here: Vivado is not available on the machine latmon is built and tested on
# (docs/boards.md says what was checked and what was not).

set here [file dirname [file normalize [info script]]]
set repo [file normalize [file join $here .. ..]]
set out [expr {[llength $argv] > 0 ? [file normalize [lindex $argv 0]] : [file join $repo build vivado]}]
set design latmon_zcu102

# ---- project on the ZCU102's part, with its board files ---------------------------------------
set board [lindex [get_board_parts -quiet -latest_file_version "*:zcu102:*"] 0]
if {$board eq ""} {
    error "zcu102_refdesign.tcl: no ZCU102 board files in this Vivado installation"
}
create_project -force $design [file join $out $design] -part xczu9eg-ffvb1156-2-e
set_property board_part $board [current_project]
set_property target_language Verilog [current_project]
set_property ip_repo_paths [list [file join $here ip]] [current_project]
update_ip_catalog

# ---- the RTL: the reference design and the IP's files, from hw/latmon.core's list -------------
set rtl [file join $repo hw rtl]
set core_files {}
set in_rtl 0
foreach line [split [read [open [file join $repo hw latmon.core]]] "\n"] {
    if {[regexp {^  rtl:} $line]} { set in_rtl 1; continue }
    if {$in_rtl && [regexp {^\s+- (rtl/[^:\s]+)} $line -> f]} { lappend core_files [file join $repo hw $f] }
    if {$in_rtl && [regexp {^\s+file_type:} $line]} { break }
}
add_files -norecurse [concat $core_files [list [file join $rtl refdesign refdesign.v]]]
set_property file_type {Verilog Header} [get_files [file join $rtl generated latmon_regs.vh]]
set_property include_dirs [list [file join $rtl generated]] [current_fileset]
update_compile_order -fileset sources_1

# ---- block design ------------------------------------------------------------------------------
create_bd_design $design

set ps [create_bd_cell -type ip -vlnv xilinx.com:ip:zynq_ultra_ps_e zynq_ultra_ps_e_0]
apply_bd_automation -rule xilinx.com:bd_rule:zynq_ultra_ps_e -config {apply_board_preset "1"} $ps
set_property -dict [list \
    CONFIG.PSU__USE__M_AXI_GP0 {1} \
    CONFIG.PSU__MAXIGP0__DATA_WIDTH {32} \
    CONFIG.PSU__USE__M_AXI_GP1 {0} \
    CONFIG.PSU__USE__M_AXI_GP2 {0} \
    CONFIG.PSU__FPGA_PL0_ENABLE {1} \
    CONFIG.PSU__CRL_APB__PL0_REF_CTRL__FREQMHZ {100} \
    CONFIG.PSU__USE__IRQ0 {1} \
] $ps

set rstgen [create_bd_cell -type ip -vlnv xilinx.com:ip:proc_sys_reset proc_sys_reset_0]
set smc [create_bd_cell -type ip -vlnv xilinx.com:ip:smartconnect smartconnect_0]
set_property -dict [list CONFIG.NUM_SI {1} CONFIG.NUM_MI {1}] $smc
set ref [create_bd_cell -type module -reference refdesign refdesign_0]
set_property CONFIG.ADDR_WIDTH 18 $ref
set irqs [create_bd_cell -type ip -vlnv xilinx.com:ip:xlconcat xlconcat_0]
set_property CONFIG.NUM_PORTS 2 $irqs

# clock and reset: pl_clk0 everywhere, the reference design's rst active high
set clk [get_bd_pins $ps/pl_clk0]
connect_bd_net $clk [get_bd_pins $ps/maxihpm0_fpd_aclk] [get_bd_pins $smc/aclk] \
    [get_bd_pins $rstgen/slowest_sync_clk] [get_bd_pins $ref/clk]
connect_bd_net [get_bd_pins $ps/pl_resetn0] [get_bd_pins $rstgen/ext_reset_in]
connect_bd_net [get_bd_pins $rstgen/interconnect_aresetn] [get_bd_pins $smc/aresetn]
connect_bd_net [get_bd_pins $rstgen/peripheral_reset] [get_bd_pins $ref/rst]

# the bus: HPM0 -> SmartConnect (to AXI4-Lite) -> the reference design's s_axil
connect_bd_intf_net [get_bd_intf_pins $ps/M_AXI_HPM0_FPD] [get_bd_intf_pins $smc/S00_AXI]
connect_bd_intf_net [get_bd_intf_pins $smc/M00_AXI] [get_bd_intf_pins $ref/s_axil]

# interrupts: data ready on pl_ps_irq0[0] (SPI 89), the cores' irq_out on pl_ps_irq0[1] (SPI 90)
connect_bd_net [get_bd_pins $ref/pl_ps_irq] [get_bd_pins $irqs/In0]
connect_bd_net [get_bd_pins $ref/monitor_irq] [get_bd_pins $irqs/In1]
connect_bd_net [get_bd_pins $irqs/dout] [get_bd_pins $ps/pl_ps_irq0]

# the address: 256 KiB at 0xA000_0000 (T1, T2, data; latmon.dtsi)
assign_bd_address -offset 0xA0000000 -range 256K \
    [get_bd_addr_segs -of_objects [get_bd_intf_pins $ref/s_axil]]

validate_bd_design
save_bd_design

# ---- synthesis, implementation, bitstream, hardware handoff ------------------------------------
set wrapper [make_wrapper -files [get_files $design.bd] -top]
add_files -norecurse $wrapper
set_property top ${design}_wrapper [current_fileset]
update_compile_order -fileset sources_1
launch_runs impl_1 -to_step write_bitstream -jobs 4
wait_on_run impl_1
if {[get_property PROGRESS [get_runs impl_1]] ne "100%"} {
    error "zcu102_refdesign.tcl: implementation did not finish; see [get_property DIRECTORY [get_runs impl_1]]"
}
open_run impl_1
report_timing_summary -file [file join $out ${design}_timing.rpt]
report_utilization -file [file join $out ${design}_utilization.rpt]
write_hw_platform -fixed -include_bit -force [file join $out ${design}.xsa]
puts "zcu102_refdesign.tcl: [file join $out ${design}.xsa]"
