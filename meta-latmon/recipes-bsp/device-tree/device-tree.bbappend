# The latmon IP's node (files/latmon.dtsi) included into the board's device tree by meta-xilinx's
# device-tree recipe (PetaLinux: or paste it into meta-user's system-user.dtsi).
FILESEXTRAPATHS:prepend:zcu102-zynqmp := "${THISDIR}/files:"
SRC_URI:append:zcu102-zynqmp = " file://latmon.dtsi"
EXTRA_DT_INCLUDE_FILES:append:zcu102-zynqmp = " latmon.dtsi"
