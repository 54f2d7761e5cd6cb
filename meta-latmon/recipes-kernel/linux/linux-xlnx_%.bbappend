# UIO for the latmon core, tracepoints for latprobe (files/latmon.cfg), merged into the kernel's
# configuration by kernel-yocto's fragment handling.
FILESEXTRAPATHS:prepend:zynqmp := "${THISDIR}/files:"
SRC_URI:append:zynqmp = " file://latmon.cfg"
