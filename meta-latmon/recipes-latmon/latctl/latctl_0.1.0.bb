SUMMARY = "latctl: configure, arm, read and stream a latmon core under Linux (UIO)"
DESCRIPTION = "The Linux command line of the latmon IP: info, config, arm, status, read, \
               stream (latmon-log, or served to Prometheus with --metrics), hist, and the AMP log ring."

require recipes-latmon/latmon.inc
CVE_PRODUCT = "latmon"
BBCLASSEXTEND = "native nativesdk"

do_compile() {
    ${LATMON_MAKE} ${B}/sw/latctl
}

do_install() {
    install -d ${D}${bindir}
    install -m 0755 ${B}/sw/latctl ${D}${bindir}/
}
