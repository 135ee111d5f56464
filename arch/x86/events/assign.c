// SPDX-License-Identifier: GPL-2.0
/*
 * Putting events on counters.
 *
 * Each event may run on some of the counters only (a fixed-counter
 * event on its fixed counter, or on any general one if the event also
 * exists there; a constrained event on the counters its constraint
 * names).  Finding a counter for every event is a bipartite matching:
 * events on one side, counters on the other.  The sets are small (a few
 * events, at most 48 counters), so each event without a counter looks
 * for an augmenting path: a free counter it may use, or one whose event
 * can itself move to another counter, recursively.  This finds an
 * assignment whenever one exists, however the constraints overlap,
 * which a greedy pass by constraint weight does not.
 *
 * Events keep the counters they have whenever the new event fits around
 * them, so adding an event rarely moves one that is already counting.
 * Fixed counters are tried before general ones, and lower counters
 * before higher ones, so the result is deterministic.
 */
#include <linux/bitops.h>
#include <linux/string.h>

#include "pmu.h"

/**
 * struct x86_matching - the state of one assignment
 * @allowed: the counters each event may use
 * @assign: the counter of each event, or -1
 * @owner: the event on each counter, or -1
 * @seen: counters visited by the current search
 */
struct x86_matching {
	const u64	*allowed;
	int		*assign;
	s8		owner[X86_PMC_MAX];
	u64		seen;
};

static bool x86_augment(struct x86_matching *m, int event);

/* Give @event the first free counter of @set. */
static bool x86_take_free(struct x86_matching *m, int event, u64 set)
{
	unsigned long bits = set;
	int c;

	for_each_set_bit(c, &bits, X86_PMC_MAX) {
		if (m->owner[c] < 0) {
			m->owner[c] = event;
			m->assign[event] = c;
			return true;
		}
	}
	return false;
}

/* Take a counter of @set from its event, if that can move elsewhere. */
static bool x86_take_moving(struct x86_matching *m, int event, u64 set)
{
	unsigned long bits = set & ~m->seen;
	int c;

	for_each_set_bit(c, &bits, X86_PMC_MAX) {
		m->seen |= BIT_ULL(c);
		if (x86_augment(m, m->owner[c])) {
			m->owner[c] = event;
			m->assign[event] = c;
			return true;
		}
	}
	return false;
}

/*
 * Find @event a counter: a free one if there is one (fixed counters
 * first), else one whose event can move along a path to a free one.
 */
static bool x86_augment(struct x86_matching *m, int event)
{
	u64 allowed = m->allowed[event];
	u64 fixed = allowed & GENMASK_ULL(X86_PMC_MAX - 1, X86_PMC_FIXED);

	return x86_take_free(m, event, fixed) ||
	       x86_take_free(m, event, allowed & ~fixed) ||
	       x86_take_moving(m, event, fixed) ||
	       x86_take_moving(m, event, allowed & ~fixed);
}

/**
 * x86_assign_counters - find a counter for every event
 * @allowed: for each event, the counters it may use
 * @n: how many events
 * @assign: on entry, each event's current counter or -1; on success,
 *	each event's counter
 *
 * A current counter the event may not use, or that an earlier event
 * holds, is ignored.  On failure @assign is left in an unspecified state.
 *
 * Return: true if every event has a counter of its own.
 */
bool x86_assign_counters(const u64 *allowed, int n, int *assign)
{
	struct x86_matching m = { .allowed = allowed, .assign = assign };
	int i, c;

	if (n > X86_PMU_MAX_EVENTS)
		return false;

	memset(m.owner, -1, sizeof(m.owner));
	for (i = 0; i < n; i++) {
		c = assign[i];
		if (c < 0 || c >= X86_PMC_MAX || !(allowed[i] & BIT_ULL(c)) ||
		    m.owner[c] >= 0) {
			assign[i] = -1;
			continue;
		}
		m.owner[c] = i;
	}

	for (i = 0; i < n; i++) {
		if (assign[i] >= 0)
			continue;
		m.seen = 0;
		if (!x86_augment(&m, i))
			return false;
	}
	return true;
}
