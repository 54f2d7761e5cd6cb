SUMMARY = "latprobe: Linux wake-up latency probe with the stages of the interrupt path"
DESCRIPTION = "Like cyclictest by default (SCHED_FIFO, mlockall, cpu_dma_latency); as root the \
               stages of every wake-up and the spikes explained from the kernel's tracepoints (tracefs); \
               --metrics serves the histogram to Prometheus."

require recipes-latmon/latmon.inc
CVE_PRODUCT = "latmon"
BBCLASSEXTEND = "native nativesdk"

do_compile() {
    ${LATMON_MAKE} ${B}/sw/latprobe
}

do_install() {
    install -d ${D}${bindir}
    install -m 0755 ${B}/sw/latprobe ${D}${bindir}/
}
