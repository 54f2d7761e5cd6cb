# nooelint: oelint.var.bbclassextend - systemd units for the target only, no native variant
SUMMARY = "latmon Prometheus exporters: systemd units for latprobe and latctl"
DESCRIPTION = "latprobe-exporter.service serves the board's wake-up latency histogram; \
               latctl-exporter@<uio name>.service streams a latmon core and serves its latencies and counters \
               (docs/fleet.md)."
SECTION = "admin"
LICENSE = "Apache-2.0"
LIC_FILES_CHKSUM = "file://latprobe-exporter.service;beginline=1;endline=1;md5=653b254f286b881bdce1d14afdede628"

SRC_URI = "file://latprobe-exporter.service \
           file://latctl-exporter@.service \
           file://latmon-exporter.default"

# Yocto 5.1 (styhead) unpacks into UNPACKDIR; before it, into WORKDIR.
UNPACKDIR ??= "${WORKDIR}"
S = "${UNPACKDIR}"

inherit systemd allarch

CVE_PRODUCT = "latmon"

# latctl's unit is a template: one instance per core, named after its UIO name (the device-tree
# node name of recipes-bsp/device-tree/files/latmon.dtsi: "latmon").
SYSTEMD_SERVICE:${PN} = "latprobe-exporter.service latctl-exporter@latmon.service"
SYSTEMD_AUTO_ENABLE:${PN} = "enable"

do_install() {
    install -d ${D}${systemd_system_unitdir} ${D}${sysconfdir}/default
    install -m 0644 ${UNPACKDIR}/latprobe-exporter.service ${D}${systemd_system_unitdir}/
    install -m 0644 ${UNPACKDIR}/latctl-exporter@.service ${D}${systemd_system_unitdir}/
    install -m 0644 ${UNPACKDIR}/latmon-exporter.default ${D}${sysconfdir}/default/latmon-exporter
}

CONFFILES:${PN} = "${sysconfdir}/default/latmon-exporter"
RDEPENDS:${PN} = "latctl latprobe"
