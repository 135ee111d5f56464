// SPDX-License-Identifier: GPL-2.0
/*
 * The memory controller's counters of Intel's client parts from Sandy
 * Bridge to Comet Lake, as the PMU uncore_imc: free-running 32-bit
 * counts of 64-byte requests, in the host bridge's MCHBAR (the
 * processor families' datasheets, vol. 2, "MCHBAR"; its address in the
 * host bridge's config space at 0x48, bit 0 its enable).
 *
 *	config	event		MCHBAR offset
 *	1	data_reads	0x5050	lines read from DRAM
 *	2	data_writes	0x5054	lines written to DRAM
 *	3	gt_requests	0x5040	the graphics' requests
 *	4	ia_requests	0x5044	the cores' requests
 *	5	io_requests	0x5048	I/O's requests
 *
 * The counters never stop and cannot be programmed: any number of
 * events can read each.  The host bridge is found by its id at init and
 * not bound as a driver: the counters need nothing of a driver's life,
 * and a driver's unbinding (or the device's removal) with events open
 * would unmap what they read.  At 64 bytes a count they wrap after 256 GiB,
 * a few seconds of a fast machine's bandwidth, so the readers' timers
 * fold them in every second.  The events' scale makes MiB of them.
 */
#define pr_fmt(fmt) "uncore: " fmt

#include <linux/io.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/perf_event.h>

#include "uncore.h"

#define IMC_MCHBAR		0x48	/* its low half; the high half next */
#define IMC_MCHBAR_EN		BIT(0)
#define IMC_MAP_SIZE		0x6000
#define IMC_WIDTH		32
#define IMC_INTERVAL		NSEC_PER_SEC

/* attr.config's events, from 1: their counters' offsets. */
static const u16 imc_counters[] = { 0x5050, 0x5054, 0x5040, 0x5044, 0x5048 };

PMU_FORMAT_ATTR(event, "config:0-7");

static struct attribute *imc_format_attrs[] = {
	&format_attr_event.attr,
	NULL,
};

static const struct attribute_group imc_format_group = {
	.name	= "format",
	.attrs	= imc_format_attrs,
};

/* Each counts 64 bytes: in MiB, 2^6 / 2^20 of one. */
#define IMC_SCALE	"6.103515625e-5"

UNCORE_EVENT_ATTR(data_reads, imc_data_reads, "event=0x01");
UNCORE_EVENT_ATTR(data_reads.scale, imc_data_reads_scale, IMC_SCALE);
UNCORE_EVENT_ATTR(data_reads.unit, imc_data_reads_unit, "MiB");
UNCORE_EVENT_ATTR(data_writes, imc_data_writes, "event=0x02");
UNCORE_EVENT_ATTR(data_writes.scale, imc_data_writes_scale, IMC_SCALE);
UNCORE_EVENT_ATTR(data_writes.unit, imc_data_writes_unit, "MiB");
UNCORE_EVENT_ATTR(gt_requests, imc_gt_requests, "event=0x03");
UNCORE_EVENT_ATTR(gt_requests.scale, imc_gt_requests_scale, IMC_SCALE);
UNCORE_EVENT_ATTR(gt_requests.unit, imc_gt_requests_unit, "MiB");
UNCORE_EVENT_ATTR(ia_requests, imc_ia_requests, "event=0x04");
UNCORE_EVENT_ATTR(ia_requests.scale, imc_ia_requests_scale, IMC_SCALE);
UNCORE_EVENT_ATTR(ia_requests.unit, imc_ia_requests_unit, "MiB");
UNCORE_EVENT_ATTR(io_requests, imc_io_requests, "event=0x05");
UNCORE_EVENT_ATTR(io_requests.scale, imc_io_requests_scale, IMC_SCALE);
UNCORE_EVENT_ATTR(io_requests.unit, imc_io_requests_unit, "MiB");

static struct attribute *imc_event_attrs[] = {
	&imc_data_reads.attr.attr,
	&imc_data_reads_scale.attr.attr,
	&imc_data_reads_unit.attr.attr,
	&imc_data_writes.attr.attr,
	&imc_data_writes_scale.attr.attr,
	&imc_data_writes_unit.attr.attr,
	&imc_gt_requests.attr.attr,
	&imc_gt_requests_scale.attr.attr,
	&imc_gt_requests_unit.attr.attr,
	&imc_ia_requests.attr.attr,
	&imc_ia_requests_scale.attr.attr,
	&imc_ia_requests_unit.attr.attr,
	&imc_io_requests.attr.attr,
	&imc_io_requests_scale.attr.attr,
	&imc_io_requests_unit.attr.attr,
	NULL,
};

static const struct attribute_group imc_events_group = {
	.name	= "events",
	.attrs	= imc_event_attrs,
};

static int imc_event_init(struct uncore_box *box, struct perf_event *event)
{
	u64 config = event->attr.config;

	if (config < 1 || config > ARRAY_SIZE(imc_counters))
		return -EINVAL;
	event->hw.config = config;
	return 0;
}

static int imc_assign(struct uncore_box *box, struct perf_event *event)
{
	event->hw.event_base = imc_counters[event->hw.config - 1];
	return UNCORE_FREE_IDX;
}

static u64 imc_read(struct uncore_box *box, struct perf_event *event)
{
	return readl(box->io + event->hw.event_base);
}

static const struct uncore_box_ops imc_ops = {
	.event_init	= imc_event_init,
	.assign		= imc_assign,
	.read		= imc_read,
};

/* The one memory controller of the package. */
static struct uncore_box imc_box = {
	.name		= "uncore_imc",
	.ops		= &imc_ops,
	.width		= IMC_WIDTH,
	.interval	= IMC_INTERVAL,
	.groups		= { &uncore_cpumask_group, &imc_format_group,
			    &imc_events_group },
};

/* The host bridges of the client parts, by their datasheets. */
#define IMC(_id)	{ PCI_VDEVICE(INTEL, _id) }

static const struct pci_device_id imc_ids[] = {
	/* Sandy Bridge, Ivy Bridge, Haswell, Broadwell */
	IMC(0x0100), IMC(0x0150), IMC(0x0154), IMC(0x0a04), IMC(0x0c00),
	IMC(0x1604),
	/* Skylake */
	IMC(0x1900), IMC(0x1904), IMC(0x190c), IMC(0x190f), IMC(0x1910),
	IMC(0x1918), IMC(0x191f),
	/* Kaby Lake, Amber Lake */
	IMC(0x5904), IMC(0x590c), IMC(0x590d), IMC(0x590f), IMC(0x5910),
	IMC(0x5914), IMC(0x5918), IMC(0x591f),
	/* Coffee Lake, Whiskey Lake */
	IMC(0x3e0f), IMC(0x3e10), IMC(0x3e18), IMC(0x3e1f), IMC(0x3e30),
	IMC(0x3e31), IMC(0x3e32), IMC(0x3e33), IMC(0x3e34), IMC(0x3e35),
	IMC(0x3ec2), IMC(0x3ec4), IMC(0x3ec6), IMC(0x3eca), IMC(0x3ecc),
	IMC(0x3ed0),
	/* Comet Lake */
	IMC(0x9b33), IMC(0x9b43), IMC(0x9b44), IMC(0x9b51), IMC(0x9b53),
	IMC(0x9b54), IMC(0x9b61), IMC(0x9b63), IMC(0x9b64), IMC(0x9b71),
	IMC(0x9b73),
	{}
};
MODULE_DEVICE_TABLE(pci, imc_ids);

/**
 * uncore_imc_init() - drives the memory controller's counters, if any
 *
 * Return: 0, -ENODEV without the host bridge or its MCHBAR, or another
 * negative errno.
 */
int __init uncore_imc_init(void)
{
	struct pci_dev *pdev = NULL;
	u32 lo, hi;
	u64 addr;
	int ret;

	for_each_pci_dev(pdev) {
		if (pci_match_id(imc_ids, pdev))
			break;
	}
	if (!pdev)
		return -ENODEV;
	pci_read_config_dword(pdev, IMC_MCHBAR, &lo);
	pci_read_config_dword(pdev, IMC_MCHBAR + 4, &hi);
	pci_dev_put(pdev);
	/* Disabled by firmware, the window would read what lies there. */
	if (!(lo & IMC_MCHBAR_EN))
		return -ENODEV;
	addr = ((u64)hi << 32 | lo) & PAGE_MASK;
	imc_box.io = ioremap(addr, IMC_MAP_SIZE);
	if (!imc_box.io)
		return -ENOMEM;
	ret = uncore_box_register(&imc_box);
	if (ret) {
		iounmap(imc_box.io);
		imc_box.io = NULL;
	}
	return ret;
}

/**
 * uncore_imc_migrate() - moves the memory controller's events
 * @from: the reader going off line
 * @to: the die's next reader
 */
void uncore_imc_migrate(unsigned int from, unsigned int to)
{
	uncore_box_migrate(&imc_box, from, to);
}

/**
 * uncore_imc_exit() - stops driving the memory controller's counters
 */
void uncore_imc_exit(void)
{
	if (!imc_box.io)
		return;
	uncore_box_unregister(&imc_box);
	iounmap(imc_box.io);
	imc_box.io = NULL;
}
