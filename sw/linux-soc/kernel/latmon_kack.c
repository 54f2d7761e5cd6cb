// SPDX-License-Identifier: GPL-2.0
/*
 * latmon_kack: acknowledge a test interrupt from the kernel's hard-IRQ handler, so that the
 * latmon IP measures the kernel's own interrupt path (raise -> trap entry -> generic IRQ layer
 * -> this handler's store) on the latmon Linux SoC (docs/hw/linux-soc.md). Added to the kernel
 * tree by hw/tb/linux_soc.py (drivers/uio/, built with CONFIG_UIO).
 *
 * A UIO device whose handler hook (uio_info.handler, called by the UIO core's uio_interrupt)
 * does one store to the line's ACK register and returns IRQ_HANDLED: the UIO core then counts
 * the event, so the test program learns that the acknowledge is done from poll() and read() on
 * /dev/uioN (no mapping; writes are refused: the line is never masked).
 *
 * Device tree: compatible = "latmon,irq-ack"; reg = the irqgen block; interrupts = its line;
 * latmon,ack-offset = the byte offset of the line's ACK register.
 */
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/platform_device.h>
#include <linux/uio_driver.h>

struct latmon_kack {
	struct uio_info info;
	void __iomem *ack;
};

static irqreturn_t latmon_kack_irq(int irq, struct uio_info *info)
{
	struct latmon_kack *k = info->priv;

	writel_relaxed(0, k->ack);
	return IRQ_HANDLED;
}

static int latmon_kack_probe(struct platform_device *pdev)
{
	struct latmon_kack *k;
	struct resource *res;
	void __iomem *base;
	u32 offset;
	int irq, err;

	k = devm_kzalloc(&pdev->dev, sizeof(*k), GFP_KERNEL);
	if (!k)
		return -ENOMEM;
	/* the irqgen block is also a UIO device's map: mapped, not requested */
	res = platform_get_resource(pdev, IORESOURCE_MEM, 0);
	if (!res)
		return -EINVAL;
	base = devm_ioremap(&pdev->dev, res->start, resource_size(res));
	if (!base)
		return -ENOMEM;
	err = of_property_read_u32(pdev->dev.of_node, "latmon,ack-offset", &offset);
	if (err)
		return err;
	k->ack = base + offset;
	irq = platform_get_irq(pdev, 0);
	if (irq < 0)
		return irq;
	k->info.name = "latmon-kack";
	k->info.version = "1";
	k->info.irq = irq;
	k->info.handler = latmon_kack_irq;
	k->info.priv = k;
	err = devm_uio_register_device(&pdev->dev, &k->info);
	if (err)
		return err;
	dev_info(&pdev->dev, "acknowledges irq %d at offset 0x%x\n", irq, offset);
	return 0;
}

static const struct of_device_id latmon_kack_of[] = { { .compatible = "latmon,irq-ack" }, {} };

static struct platform_driver latmon_kack_driver = {
	.probe = latmon_kack_probe,
	.driver = {
		.name = "latmon-kack",
		.of_match_table = latmon_kack_of,
	},
};
builtin_platform_driver(latmon_kack_driver);
