// SPDX-License-Identifier: GPL-2.0
/*
 * KVM's virtual PMU runs on perf events: a guest's counter is a perf
 * event of KVM's (perf_event_create_kernel_counter() with exclude_host),
 * paused with perf_event_pause(), reloaded with perf_event_period() and
 * read with perf_event_read_value().  This test runs a guest of its own
 * (a real-mode loop, on KVM in this guest: a nested guest under the
 * emulated AMD PMU, whose TCG emulates SVM) that counts its own retired
 * instructions with the legacy AMD counter 0 and reads them back:
 *
 *  - the count of the loop is exact (the difference method: two runs of
 *    different lengths differ by the loop's instructions), so nothing of
 *    the host (KVM's exits, the test) is counted, and nothing is lost
 *    when the counter stops;
 *  - a counter the guest stopped keeps its value across exits, and a
 *    value the guest writes is where counting resumes.
 *
 * kvm.ko and kvm-amd.ko are loaded from /lib/modules if /dev/kvm is
 * missing.  Skipped without KVM (no SVM: the Intel flavours; no PMU).
 * The same on 6.1.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/kvm.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "perf_test_util.h"
#include "hw_test_util.h"
#include "../kselftest_harness.h"

#define GUEST_CODE	0x1000
#define GUEST_MEM	0x10000

#define N1		1000UL
#define N2		21000UL
#define LOOP_INSNS	2		/* dec, jnz */

/*
 * The guest, in real mode at GUEST_CODE: counter 0 counts retired
 * instructions (event 0xc0) in both rings from %esi (its start value);
 * the loop runs %ebx times; the counter stops, and its value ends in
 * %edx:%eax at the hlt.  The code around the loop is the same for any
 * length.
 */
extern const unsigned char kvm_guest_start[], kvm_guest_end[];
asm(".pushsection .rodata\n"
	".code16\n"
	"kvm_guest_start:\n"
	"	movl $0xc0010000, %ecx\n"	/* MSR_K7_EVNTSEL0 */
	"	xorl %eax, %eax\n"
	"	xorl %edx, %edx\n"
	"	wrmsr\n"
	"	movl $0xc0010004, %ecx\n"	/* MSR_K7_PERFCTR0 */
	"	movl %esi, %eax\n"
	"	wrmsr\n"
	"	movl $0xc0010000, %ecx\n"
	"	movl $0x004300c0, %eax\n"	/* EN, OS, USR, event 0xc0 */
	"	wrmsr\n"
	"1:	decl %ebx\n"
	"	jnz 1b\n"
	"	xorl %eax, %eax\n"
	"	wrmsr\n"
	"	movl $0xc0010004, %ecx\n"
	"	rdmsr\n"
	"	hlt\n"
	"kvm_guest_end:\n"
	".code64\n"
	".popsection\n");

static const char * const kvm_modules[] = {
	"/lib/modules/irqbypass.ko",
	"/lib/modules/kvm.ko",
	"/lib/modules/ccp.ko",		/* SEV's, under Debian's configuration */
	"/lib/modules/kvm-amd.ko",
};

FIXTURE(vpmu) {
	int kvm, vm, vcpu;
	struct kvm_run *run;
	unsigned char *mem;
	const char *skip;	/* why the tests skip, or NULL */
};

/* A SKIP() in the setup does not stop the test: each test asks. */
#define VPMU_SKIP() do {						\
	if (self->skip)							\
		SKIP(return, "%s", self->skip);				\
} while (0)

/* Open /dev/kvm, loading the modules first if need be; -1 if none. */
static int kvm_open(void)
{
	char cmd[128];
	unsigned int i;
	int fd;

	fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (fd >= 0)
		return fd;
	for (i = 0; i < ARRAY_SIZE(kvm_modules); i++) {
		if (access(kvm_modules[i], R_OK))
			continue;
		snprintf(cmd, sizeof(cmd), "insmod %s 2>/dev/null", kvm_modules[i]);
		if (system(cmd))
			continue;
	}
	return open("/dev/kvm", O_RDWR | O_CLOEXEC);
}

FIXTURE_SETUP(vpmu)
{
	struct kvm_userspace_memory_region region = {
		.slot = 0,
		.guest_phys_addr = 0,
		.memory_size = GUEST_MEM,
	};
	int size;

	self->kvm = -1;
	self->vm = -1;
	self->vcpu = -1;
	self->run = MAP_FAILED;
	self->mem = MAP_FAILED;
	self->skip = NULL;
	if (!hw_pmu_present()) {
		self->skip = NO_HW_PMU;
		return;
	}
	self->kvm = kvm_open();
	if (self->kvm < 0) {
		self->skip = "no KVM here (no /dev/kvm: no SVM or VMX)";
		return;
	}

	self->vm = ioctl(self->kvm, KVM_CREATE_VM, 0);
	ASSERT_GE(self->vm, 0) TH_LOG("KVM_CREATE_VM: %s", strerror(errno));
	self->mem = mmap(NULL, GUEST_MEM, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->mem);
	memcpy(self->mem + GUEST_CODE, kvm_guest_start,
	       kvm_guest_end - kvm_guest_start);
	region.userspace_addr = (unsigned long)self->mem;
	ASSERT_EQ(0, ioctl(self->vm, KVM_SET_USER_MEMORY_REGION, &region));

	self->vcpu = ioctl(self->vm, KVM_CREATE_VCPU, 0);
	ASSERT_GE(self->vcpu, 0) TH_LOG("KVM_CREATE_VCPU: %s", strerror(errno));
	size = ioctl(self->kvm, KVM_GET_VCPU_MMAP_SIZE, 0);
	ASSERT_GT(size, 0);
	self->run = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED,
			 self->vcpu, 0);
	ASSERT_NE(MAP_FAILED, self->run);
}

FIXTURE_TEARDOWN(vpmu)
{
	if (self->vcpu >= 0)
		close(self->vcpu);
	if (self->vm >= 0)
		close(self->vm);
	if (self->kvm >= 0)
		close(self->kvm);
	if (self->mem != MAP_FAILED)
		munmap(self->mem, GUEST_MEM);
}

/*
 * Run the guest's loop @n times with the counter starting at @start;
 * its value at the end, or -1 if the guest did not reach its hlt.
 */
static int64_t guest_count(struct __test_metadata *_metadata,
			   FIXTURE_DATA(vpmu) *self, unsigned long n,
			   uint32_t start)
{
	struct kvm_sregs sregs;
	struct kvm_regs regs;

	if (ioctl(self->vcpu, KVM_GET_SREGS, &sregs))
		return -1;
	sregs.cs.base = 0;
	sregs.cs.selector = 0;
	if (ioctl(self->vcpu, KVM_SET_SREGS, &sregs))
		return -1;
	memset(&regs, 0, sizeof(regs));
	regs.rip = GUEST_CODE;
	regs.rflags = 2;
	regs.rbx = n;
	regs.rsi = start;
	if (ioctl(self->vcpu, KVM_SET_REGS, &regs))
		return -1;
	if (ioctl(self->vcpu, KVM_RUN, 0)) {
		TH_LOG("KVM_RUN: %s", strerror(errno));
		return -1;
	}
	if (self->run->exit_reason != KVM_EXIT_HLT) {
		TH_LOG("the guest exited with reason %u", self->run->exit_reason);
		return -1;
	}
	if (ioctl(self->vcpu, KVM_GET_REGS, &regs))
		return -1;
	return (regs.rdx & 0xffff) << 32 | (regs.rax & 0xffffffff);
}

/* The loop's retired instructions, exactly: twice an iteration. */
TEST_F(vpmu, loop_exact)
{
	int64_t c1, c2;

	VPMU_SKIP();
	c1 = guest_count(_metadata, self, N1, 0);
	c1 = guest_count(_metadata, self, N1, 0);
	c2 = guest_count(_metadata, self, N2, 0);
	ASSERT_GE(c1, 0);
	ASSERT_GE(c2, 0);
	EXPECT_GE(c1, N1 * LOOP_INSNS);
	EXPECT_EQ((N2 - N1) * LOOP_INSNS, c2 - c1)
		TH_LOG("counts %lld and %lld", (long long)c1, (long long)c2);
}

/* Counting goes on from the value the guest wrote. */
TEST_F(vpmu, resumes_from_written_value)
{
	int64_t c0, c;

	VPMU_SKIP();
	c0 = guest_count(_metadata, self, N1, 0);
	c0 = guest_count(_metadata, self, N1, 0);
	c = guest_count(_metadata, self, N1, 1000000);
	ASSERT_GE(c0, 0);
	EXPECT_EQ(1000000 + c0, c);
}

TEST_HARNESS_MAIN
