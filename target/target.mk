# ARM targets on QEMU (docs/target/qemu.md). Included by the top-level Makefile.
#
# target-fetch    the Debian arm64 kernels and guest userland (private apt configuration,
#                 checked against the index's SHA256, cached in build/target/debs)
# target-images   the guest kernels and the initramfs (build/target)
# target-test     everything on QEMU: the A53 suite on the ZCU102 model, the arm64 guests with
#                 latprobe (and its stages), cyclictest and rtla, the preemption-model campaign
#                 and its report (out/target/preemption/report.html)
# hv-campaign     the hypervisor and AMP campaign (docs/target/xen.md): bare metal, Linux, Xen
#                 Dom0, Xen DomU idle and under Dom0 stress, the suite as a Xen guest, AMP;
#                 its report in out/target/hv/report.html

TARGET_BUILD := $(BUILD)/target
TARGET_OUT := $(OUT)/target

.PHONY: target-fetch target-images target-test hv-campaign

target-fetch:
	python3 target/debs.py --out $(TARGET_BUILD)/debs --apt-dir $(TARGET_BUILD)/apt

target-images: target-fetch sw-arm64
	python3 target/initramfs.py --debs $(TARGET_BUILD)/debs --latprobe $(SW_BUILD)/arm64/latprobe \
	  --latctl $(SW_BUILD)/arm64/latctl --out $(TARGET_BUILD)

target-test: setup sw-all target-images
	LATMON_TARGET_OUT=$(TARGET_OUT) $(PY) -m pytest -p no:cacheprovider -m "target or qemu" -s \
	  tests/test_qemu_a53.py tests/test_qemu_linux.py tests/test_latprobe_timerlat.py

# The hypervisor and AMP campaign: latmon run scenarios/hv-*.yaml and its report (about 16
# minutes on 2 cores; docs/target/xen.md). The test checks what the report must show.
hv-campaign: setup sw-all target-images
	LATMON_TARGET_OUT=$(TARGET_OUT) $(PY) -m pytest -p no:cacheprovider -m target -s \
	  tests/test_hv_campaign.py
