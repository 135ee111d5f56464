# Turn make fuzz's logs into its reports and closing line.
# Usage: awk -f fuzz-report.awk perf-functions.txt console.log results.log
# perf-functions.txt names the functions of perf code (kernel/events/,
# arch/x86/events/), one a line; a kmemleak object whose allocation
# backtrace passes through one of them is perf's leak.  A report on the
# console is a WARNING, BUG (KASAN's among them), Oops, UBSAN, lockdep,
# hung-task or RCU-stall splat, counted once however many lines it has,
# or a KCSAN data race one side of which is perf code (with -v
# sanitizer=kcsan the closing lines list every KCSAN title, perf's and
# the rest of the kernel's, with how often each came).

function strip(s) {
	sub(/\r$/, "", s)
	sub(/^\[ *[0-9]+\.[0-9]+\] /, "", s)
	sub(/^\[ *T?C?[0-9]+\] /, "", s)
	return s
}

function report(kind, line) {
	reports++
	if (reports <= 20)
		printf "REPORT (%s): %s\n", kind, line
}

FILENAME == ARGV[1] {
	perf[$1] = 1
	next
}

# "BUG: KCSAN: data-race in f / g" or "... in f+0x12/0x34": a data race
# between f and g (or f and an access KCSAN did not see).  It is perf's
# when one of the two is perf code; it is counted by its title, and one
# elsewhere in the kernel is listed but is no report of ours.
function kcsan(line,    t, fns, fa, n, i, fn, mine) {
	t = line
	sub(/.*BUG: KCSAN: /, "", t)
	fns = t
	sub(/^.* in /, "", fns)
	n = split(fns, fa, " / ")
	mine = 0
	for (i = 1; i <= n; i++) {
		fn = fa[i]
		sub(/[+.].*$/, "", fn)
		if (fn in perf)
			mine = 1
	}
	gsub(/\+0x[0-9a-f]+\/0x[0-9a-f]+/, "", t)
	if (!(t in kcsan_count))
		kcsan_order[++kcsan_titles] = t
	kcsan_count[t]++
	kcsan_perf[t] = mine
	if (mine)
		report("KCSAN", t)
}

FILENAME == ARGV[2] {
	line = strip($0)
	if (line ~ /BUG: KCSAN: /) {
		kcsan(line)
		last_report = FNR
		next
	}
	# An Oops right after the BUG or fault that caused it is the same report.
	if (line ~ /(^|[^A-Za-z])(WARNING:|BUG:|UBSAN:|general protection fault|Kernel panic|INFO: task .* blocked|INFO: rcu_.*detected stall|rcu: INFO: .*detected stall|INFO: possible|INFO: lockdep)/) {
		report("console", line)
		last_report = FNR
	} else if (line ~ /(^|[^A-Za-z])Oops/ && FNR - last_report > 3) {
		report("console", line)
	}
	next
}

{
	line = strip($0)
	if (line ~ /^### kselftest /) {
		test = substr(line, 15)
		next
	}
	if (line ~ /^### exit /) {
		split(line, f, " ")
		if (f[4] != 0 && !seen_fail)
			report("kselftest", f[3] " exited with " f[4])
		seen_fail = 0
		next
	}
	if (line ~ /^not ok/ && line !~ /# *SKIP/) {
		seen_fail = 1
		report("kselftest " test, line)
		next
	}
	if (line ~ /^### fuzz seed /) {
		split(line, f, " ")
		seed = f[4]
		minutes = f[6]
		next
	}
	if (line ~ /^### fuzz syscalls /) {
		syscalls = substr(line, 19) + 0
		next
	}
	if (line ~ /^### fuzz lite failed/) {
		report("fuzz_lite_test", line)
		next
	}
	if (line ~ /^### fuzz lite /) {
		split(line, f, " ")
		lite_runs = f[4]
		lite_events = f[6]
		next
	}
	if (line ~ /^### fuzz beside failed/) {
		report("beside trinity", line)
		next
	}
	if (line ~ /^### fuzz beside /) {
		split(line, f, " ")
		beside_runs = f[4]
		next
	}
	if (line ~ /^### fuzz hotplug /) {
		hotplug = substr(line, 18) + 0
		next
	}
	if (line ~ /^### kmemleak begin/) {
		in_kml = 1
		next
	}
	if (line ~ /^### kmemleak end/) {
		kml_flush()
		in_kml = 0
		next
	}
	if (in_kml) {
		if (line ~ /^unreferenced object/)
			kml_flush()
		obj = obj line "\n"
		# "    [<ffffffff81234567>] function+0x12/0x34" (or, with
		# the address hashed away, "[<(____ptrval____)>]")
		if (line ~ /^ *\[<[^>]*>\] /) {
			fn = line
			sub(/^ *\[<[^>]*>\] /, "", fn)
			sub(/[+.].*$/, "", fn)
			if (fn in perf)
				obj_perf = 1
		}
		next
	}
	if (line ~ /^### harness done/)
		done = 1
}

function kml_flush() {
	if (obj != "" && obj_perf) {
		leaks++
		report("kmemleak", "object allocated by perf code")
		if (leaks <= 5)
			printf "%s", obj
	}
	obj = ""
	obj_perf = 0
}

function kcsan_mine(want,    i, n) {
	n = 0
	for (i = 1; i <= kcsan_titles; i++)
		if (kcsan_perf[kcsan_order[i]] == want)
			n++
	return n
}

END {
	status = 0
	if (!done) {
		print "ERROR: the guest did not finish"
		status = 1
	}
	if (reports)
		status = 1
	printf "fuzz: seed %s, CPUs unplugged %d times\n", seed, hotplug
	printf "fuzz: fuzz_lite_test beside trinity: %d runs, %d events opened\n",
		lite_runs, lite_events
	if (beside_runs)
		printf "fuzz: kselftests beside trinity: %d runs\n", beside_runs
	if (sanitizer == "kcsan") {
		printf "fuzz: KCSAN: %d data races in perf code, %d elsewhere (distinct titles)\n",
			kcsan_mine(1), kcsan_mine(0)
		for (i = 1; i <= kcsan_titles; i++) {
			t = kcsan_order[i]
			printf "KCSAN %s %dx %s\n", kcsan_perf[t] ? "perf " : "other",
				kcsan_count[t], t
		}
	}
	printf "fuzz: %d minutes, %d syscalls, %d reports\n", minutes, syscalls, reports
	exit status
}
