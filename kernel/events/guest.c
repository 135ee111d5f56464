// SPDX-License-Identifier: GPL-2.0
/*
 * Guests: a hypervisor (KVM, Xen) tells perf what its vCPU runs, so that
 * an overflow interrupt taken while a guest ran is reported as the
 * guest's (PERF_RECORD_MISC_GUEST_*, the guest's instruction pointer)
 * and an Intel PT interrupt meant for the guest reaches it.
 *
 * The overflow path, in NMI context, calls the hypervisor through three
 * static calls (<linux/perf_event.h>): a direct call, to a function that
 * returns 0 while no hypervisor is registered.  One registers at a time.
 */
#include <linux/perf_event.h>
#include <linux/rcupdate.h>
#include <linux/static_call.h>

DEFINE_STATIC_CALL_RET0(perf_guest_state_call, perf_guest_u32_fn);
DEFINE_STATIC_CALL_RET0(perf_guest_ip_call, perf_guest_ulong_fn);
DEFINE_STATIC_CALL_RET0(perf_guest_pt_call, perf_guest_u32_fn);

/*
 * Who is registered, published with RCU: the overflow path runs with
 * interrupts off, so once a grace period has passed after it is cleared,
 * no CPU is in a callback of the old set.  Changed only by the calls
 * below, which hypervisors make from their module init and exit.
 */
static struct perf_guest_info_callbacks __rcu *perf_guest_current;

/* Point the static calls at @cbs, or back at "return 0" for NULL. */
static void perf_guest_install(struct perf_guest_info_callbacks *cbs)
{
	void *none = (void *)&__static_call_return0;
	void *pt = none;

	if (cbs && cbs->handle_intel_pt_intr)
		pt = (void *)cbs->handle_intel_pt_intr;
	rcu_assign_pointer(perf_guest_current, cbs);
	static_call_update(perf_guest_state_call,
			   cbs ? (void *)cbs->state : none);
	static_call_update(perf_guest_ip_call,
			   cbs ? (void *)cbs->get_ip : none);
	static_call_update(perf_guest_pt_call, pt);
}

/**
 * perf_register_guest_info_callbacks - a hypervisor starts telling perf
 * @cbs: its callbacks; state() and get_ip() are required,
 *	handle_intel_pt_intr() is not
 *
 * A second hypervisor registering while one is there is a bug: it is
 * ignored, with a warning.
 */
void perf_register_guest_info_callbacks(struct perf_guest_info_callbacks *cbs)
{
	if (WARN_ONCE(rcu_access_pointer(perf_guest_current),
		      "perf: guest callbacks registered twice\n"))
		return;
	perf_guest_install(cbs);
}
EXPORT_SYMBOL_GPL(perf_register_guest_info_callbacks);

/**
 * perf_unregister_guest_info_callbacks - a hypervisor stops telling perf
 * @cbs: the callbacks it registered
 *
 * Returns once no CPU can be running any of them, so that the caller may
 * free them or unload the module they are in.
 */
void perf_unregister_guest_info_callbacks(struct perf_guest_info_callbacks *cbs)
{
	if (WARN_ONCE(rcu_access_pointer(perf_guest_current) != cbs,
		      "perf: unregistering guest callbacks not registered\n"))
		return;
	perf_guest_install(NULL);
	synchronize_rcu();
}
EXPORT_SYMBOL_GPL(perf_unregister_guest_info_callbacks);
