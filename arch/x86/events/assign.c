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
 *
 * An event whose set has X86_COUNTERS_PAIR takes two counters, the one
 * it gets and the one above it (AMD's large-increment events).  Such
 * events are few and their choices fewer (three pairs at most), so they
 * are placed first, every way they can be, and the others matched
 * around each placement until one fits them all.
 */
#include <linux/bitops.h>
#include <linux/string.h>

#include "pmu.h"

/* In x86_matching::owner: no event, or a counter of a paired event. */
#define X86_OWNER_FREE	(-1)
#define X86_OWNER_PAIR	(-2)

/**
 * struct x86_matching - the state of one assignment
 * @allowed: the counters each event may use
 * @assign: the counter of each event, or -1
 * @n: how many events
 * @owner: the event on each counter, X86_OWNER_FREE or X86_OWNER_PAIR
 *	(a paired event's two counters: not to be moved by the matching)
 * @seen: counters visited by the current search
 * @held: the counters unpaired events had on entry
 */
struct x86_matching {
	const u64	*allowed;
	int		*assign;
	int		n;
	s8		owner[X86_PMC_MAX];
	u64		seen;
	u64		held;
};

static bool x86_augment(struct x86_matching *m, int event);

/* Give @event the first free counter of @set. */
static bool x86_take_free(struct x86_matching *m, int event, u64 set)
{
	unsigned long bits = set;
	int c;

	for_each_set_bit(c, &bits, X86_PMC_MAX) {
		if (m->owner[c] == X86_OWNER_FREE) {
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
		if (m->owner[c] >= 0 && x86_augment(m, m->owner[c])) {
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
	u64 allowed = m->allowed[event] & ~X86_COUNTERS_PAIR;
	u64 fixed = allowed & GENMASK_ULL(X86_PMC_MAX - 1, X86_PMC_FIXED);

	return x86_take_free(m, event, fixed) ||
	       x86_take_free(m, event, allowed & ~fixed) ||
	       x86_take_moving(m, event, fixed) ||
	       x86_take_moving(m, event, allowed & ~fixed);
}

/* Match the unpaired events around the paired ones: true if all fit. */
static bool x86_match_single(struct x86_matching *m)
{
	int i, c;

	for (i = 0; i < m->n; i++) {
		if (m->allowed[i] & X86_COUNTERS_PAIR)
			continue;
		c = m->assign[i];
		if (c < 0 || c >= X86_PMC_MAX ||
		    !(m->allowed[i] & BIT_ULL(c)) ||
		    m->owner[c] != X86_OWNER_FREE) {
			m->assign[i] = -1;
			continue;
		}
		m->owner[c] = i;
	}
	for (i = 0; i < m->n; i++) {
		if ((m->allowed[i] & X86_COUNTERS_PAIR) || m->assign[i] >= 0)
			continue;
		m->seen = 0;
		if (!x86_augment(m, i))
			return false;
	}
	return true;
}

static bool x86_place_pairs(struct x86_matching *m, int event,
			    const int *was);

/* Put paired @event on counters @c and @c + 1, and the rest around it. */
static bool x86_try_pair(struct x86_matching *m, int event, int c,
			 const int *was)
{
	u64 allowed = m->allowed[event] & ~X86_COUNTERS_PAIR;

	if (c < 0 || c >= X86_PMC_MAX - 1 || !(allowed & BIT_ULL(c)) ||
	    m->owner[c] != X86_OWNER_FREE || m->owner[c + 1] != X86_OWNER_FREE)
		return false;
	m->owner[c] = X86_OWNER_PAIR;
	m->owner[c + 1] = X86_OWNER_PAIR;
	if (x86_place_pairs(m, event + 1, was)) {
		m->assign[event] = c;
		return true;
	}
	m->owner[c] = X86_OWNER_FREE;
	m->owner[c + 1] = X86_OWNER_FREE;
	return false;
}

/*
 * Place the paired events from @event on, each on the pair it had (@was)
 * if it can keep it, else on each free pair in turn, those no unpaired
 * event holds first; then the others around them.
 */
static bool x86_place_pairs(struct x86_matching *m, int event,
			    const int *was)
{
	s8 owner[X86_PMC_MAX];
	unsigned long bits;
	int c;

	while (event < m->n && !(m->allowed[event] & X86_COUNTERS_PAIR))
		event++;
	if (event == m->n) {
		memcpy(owner, m->owner, sizeof(owner));
		memcpy(m->assign, was, m->n * sizeof(*was));
		if (x86_match_single(m))
			return true;
		memcpy(m->owner, owner, sizeof(owner));
		return false;
	}

	if (x86_try_pair(m, event, was[event], was))
		return true;
	bits = m->allowed[event] & ~X86_COUNTERS_PAIR &
	       ~m->held & ~(m->held >> 1);
	for_each_set_bit(c, &bits, X86_PMC_MAX - 1)
		if (c != was[event] && x86_try_pair(m, event, c, was))
			return true;
	bits = m->allowed[event] & ~X86_COUNTERS_PAIR & ~bits;
	for_each_set_bit(c, &bits, X86_PMC_MAX - 1)
		if (c != was[event] && x86_try_pair(m, event, c, was))
			return true;
	return false;
}

/**
 * x86_assign_counters - find a counter for every event
 * @allowed: for each event, the counters it may use, and
 *	X86_COUNTERS_PAIR if it takes the one above its counter too
 * @n: how many events
 * @assign: on entry, each event's current counter or -1; on success,
 *	each event's counter
 *
 * A current counter the event may not use, or that an earlier event
 * holds, is ignored.  A paired event's counter is the lower of its two.
 * On failure @assign is left in an unspecified state.
 *
 * Return: true if every event has a counter of its own.
 */
bool x86_assign_counters(const u64 *allowed, int n, int *assign)
{
	struct x86_matching m = {
		.allowed = allowed, .assign = assign, .n = n,
	};
	int was[X86_PMU_MAX_EVENTS];
	int i, pairs = 0;

	if (n > X86_PMU_MAX_EVENTS)
		return false;
	memset(m.owner, X86_OWNER_FREE, sizeof(m.owner));
	for (i = 0; i < n; i++) {
		if (allowed[i] & X86_COUNTERS_PAIR)
			pairs++;
		else if (assign[i] >= 0 && assign[i] < X86_PMC_MAX)
			m.held |= BIT_ULL(assign[i]);
	}
	if (!pairs)
		return x86_match_single(&m);
	memcpy(was, assign, n * sizeof(*assign));
	return x86_place_pairs(&m, 0, was);
}
