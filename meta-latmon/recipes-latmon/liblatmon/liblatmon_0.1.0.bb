SUMMARY = "latmon driver library: the latmon IP over MMIO or Linux UIO, latmon-log writer"
DESCRIPTION = "liblatmon (C11, no allocation): the latmon core's driver with its UIO HAL, the \
               latmon-log writer and the shared-memory log ring. A static library with its headers, for \
               programs that drive the core themselves."

require recipes-latmon/latmon.inc
CVE_PRODUCT = "latmon"
BBCLASSEXTEND = "native nativesdk"

do_compile() {
    ${LATMON_MAKE} ${B}/sw/liblatmon.a
}

do_install() {
    install -d ${D}${libdir} ${D}${includedir}/latmon
    install -m 0644 ${B}/sw/liblatmon.a ${D}${libdir}/
    install -m 0644 ${S}/sw/include/latmon/*.h ${D}${includedir}/latmon/
}

# Only a static library and headers: the main package stays empty so that -dev can depend on it.
ALLOW_EMPTY:${PN} = "1"
