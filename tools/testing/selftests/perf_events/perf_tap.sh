# SPDX-License-Identifier: GPL-2.0
#
# What the shell selftests share, sourced from the directory they run in:
#
#	. "$(dirname "$0")/perf_tap.sh"
#	tap_require perf	# or skip the whole file
#	tap_plan 4		# the TAP header: four tests
#	...
#	check $ok "what the test checks" [files to show if it failed]
#	...
#	tap_exit		# 1 if a test failed, else 0
#
# and helpers for what several of them set up or read.

ksft_skip=4
tap_n=0
tap_failed=0

# Skip the whole file, with the reason $*.
tap_skip_all() {
	echo "1..0 # SKIP $*"
	exit $ksft_skip
}

# Skip each of the file's $1 tests, with the reason $2...: as the C tests
# do, report every one "ok N # SKIP" and exit 0.
tap_skip_each() {
	tap_plan "$1"
	tap_total=$1
	shift
	while [ "$tap_n" -lt "$tap_total" ]; do
		tap_n=$((tap_n + 1))
		echo "ok $tap_n # SKIP $*"
	done
	exit 0
}

# Skip the whole file unless command $1 is installed.
tap_require() {
	command -v "$1" >/dev/null 2>&1 || tap_skip_all "$1 is not installed"
}

tap_plan() {
	echo "TAP version 13"
	echo "1..$1"
}

# A scratch directory, $tmp, for the perf.data files and what the tests
# keep, named for the test $1 and this shell; it is also HOME, where perf
# keeps its configuration and build-id cache.  The caller removes $tmp
# as it ends.
perf_scratch() {
	tmp=/tmp/$1.$$
	mkdir -p "$tmp"
	export HOME="$tmp"
}

# Run the command $3... (its output into $tmp/probe); if it fails,
# remove $tmp and skip each of the file's $1 tests with the reason $2.
perf_probe() {
	probe_tests=$1
	probe_why=$2
	shift 2
	"$@" >"$tmp/probe" 2>&1 && return 0
	rm -rf "$tmp"
	tap_skip_each "$probe_tests" "$probe_why"
}

# Show the first $2 (default 40) lines of file $1 as TAP comments.
show() {
	sed 's/^/# /' "$1" | head -n "${2:-40}"
}

# The next test passed if $1 is 0.  $2 names it; if it failed, the files
# that follow are shown (those that exist).
check() {
	tap_status=$1
	tap_name=$2
	shift 2
	tap_n=$((tap_n + 1))
	if [ "$tap_status" = 0 ]; then
		echo "ok $tap_n $tap_name"
		return 0
	fi
	for tap_file; do
		[ -e "$tap_file" ] && show "$tap_file"
	done
	echo "not ok $tap_n $tap_name"
	tap_failed=1
}

tap_exit() {
	exit $tap_failed
}

# The value perf stat -x, reports for event $1 in file $2.
stat_value() {
	awk -F, -v ev="$1" '$3 == ev { print $1 }' "$2"
}

# The samples perf script printed (file $1, with -F ip,sym,addr) in
# function $2, and how many of them have a hexadecimal field in
# [$3, $3 + $4), the data address of an access to that range: prints
# "# N samples in $2, M in $5" and then "N M".
samples_in_range() {
	awk -v fn="$2" -v start="$3" -v size="${4:-0}" -v what="$5" '
	function hex(s,   i, c, n) {
		n = 0
		s = tolower(s)
		sub(/^0x/, "", s)
		for (i = 1; i <= length(s); i++) {
			c = index("0123456789abcdef", substr(s, i, 1))
			if (!c)
				return -1
			n = n * 16 + c - 1
		}
		return n
	}
	$0 ~ " " fn "( |$)" {
		n++
		for (i = 1; i <= NF; i++) {
			a = hex($i)
			if (a >= hex(start) && a < hex(start) + size) {
				in_range++
				break
			}
		}
	}
	END {
		printf "# %d samples in %s, %d in %s\n", n, fn, in_range, what
		print n + 0, in_range + 0
	}' "$1"
}

# Is $1 a count (digits only), or a number (digits and dots)?
is_count() {
	case "$1" in
	'' | *[!0-9]*) return 1 ;;
	esac
}

is_number() {
	case "$1" in
	'' | *[!0-9.]*) return 1 ;;
	esac
}

# The hardware PMU, for the tests of it: hw_pmu is its name under
# /sys/bus/event_source/devices, "cpu", or on a hybrid CPU the big
# cores' "cpu_core" (as the C tests' hw_test_util.h chooses), empty if
# there is none; hw_cpus is the list of its CPUs a workload is pinned
# to on a hybrid (so that the big cores' events count all of it), empty
# elsewhere.
hw_pmu=
hw_cpus=
for hw_dir in cpu cpu_core; do
	if [ -d "/sys/bus/event_source/devices/$hw_dir" ]; then
		hw_pmu=$hw_dir
		break
	fi
done
[ "$hw_pmu" = cpu_core ] &&
	hw_cpus=$(cat /sys/bus/event_source/devices/cpu_core/cpus)

# Skip each of the file's $1 tests unless there is a hardware PMU.
hw_require() {
	[ -n "$hw_pmu" ] || tap_skip_each "$1" \
		"no hardware PMU (no /sys/bus/event_source/devices/cpu or cpu_core)"
}

# Run $@ on the hardware PMU's CPUs (on a hybrid, the big cores).
hw_pinned() {
	if [ -n "$hw_cpus" ]; then
		taskset -c "$hw_cpus" "$@"
	else
		"$@"
	fi
}

# Run $@ as hw_pinned does, with the kernel's limits on the sample rate
# lifted for it: a sample every ten thousand instructions is more than
# the kernel lets through by default where its NMIs are slow (as under
# emulation), and the rate an earlier test's slow NMIs lowered it to
# (kernel.perf_event_max_sample_rate) throttles such a profile to a few
# samples.  The limit is raised and the dynamic one off (percentage 0;
# the rate can only be written while it is on) while $@ runs, then both
# are put back.  Returns $@'s status.
hw_unthrottled() {
	_pct=/proc/sys/kernel/perf_cpu_time_max_percent
	_rate=/proc/sys/kernel/perf_event_max_sample_rate
	_old_pct=$(cat $_pct)
	_old_rate=$(cat $_rate)
	echo 25 >$_pct && echo 1000000 >$_rate && echo 0 >$_pct
	hw_pinned "$@"
	_rc=$?
	echo 25 >$_pct && echo "$_old_rate" >$_rate && echo "$_old_pct" >$_pct
	return $_rc
}

# Hardware event $1 with modifiers $2 (none if empty) as perf takes it
# and perf stat names it: "instructions:u" on the cpu PMU, and on a
# hybrid the big cores' own, "cpu_core/instructions/u" (perf would
# otherwise open one on each kind of core).
hw_event() {
	if [ "$hw_pmu" = cpu ]; then
		echo "$1${2:+:$2}"
	else
		echo "$hw_pmu/$1/$2"
	fi
}

# The value perf stat -x, reports in file $3 for hardware event $1 with
# modifiers $2, opened by its hw_event name: on a hybrid, perf 6.1 names
# some such events without their modifiers (cpu_core/branches/).
hw_stat_value() {
	awk -F, -v ev="$(hw_event "$1" "$2")" -v bare="$hw_pmu/$1/" \
		'$3 == ev || ($3 == bare && ev ~ /\//) { print $1 }' "$3"
}

mount_tracefs() {
	[ -d /sys/kernel/tracing/events ] ||
		mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
}

# Mount cgroup2 at directory $1 (made if need be); 0 if it is mounted.
# The pids controller is enabled at the root for a moment so that new
# cgroups have the implicit perf_event controller (see cgroup_util.h).
cgroup2_mount() {
	mkdir -p "$1" && mount -t cgroup2 none "$1" 2>/dev/null || return 1
	echo +pids >"$1/cgroup.subtree_control" 2>/dev/null
	echo -pids >"$1/cgroup.subtree_control" 2>/dev/null
	return 0
}

# Undo cgroup2_mount $1, whether or not it succeeded.
cgroup2_umount() {
	umount "$1" 2>/dev/null
	rmdir "$1" 2>/dev/null
}
