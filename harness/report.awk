# Turn a guest's console and test output into the closing line.
# Usage: awk -f report.awk console.log results.log
# KUnit cases come from the console (one "ok"/"not ok" per case at the
# first level of indentation), kselftest cases from the results port.
# The console is also searched for kernel splats.

function strip(s) {
	sub(/\r$/, "", s)
	sub(/^\[ *[0-9]+\.[0-9]+\] /, "", s)
	return s
}

function count(line, kind,    i) {
	if (line ~ /^(not )?ok [0-9]+/) {
		if (line ~ /# *SKIP/) {
			skipped++
		} else if (line ~ /^not ok/) {
			failed++
			printf "FAIL (%s): %s\n", kind, line
			# What the case said before it failed: a CI log has
			# nothing else of it.
			for (i = 1; i <= nsaid; i++)
				printf "  | %s\n", said[i]
		} else {
			passed++
		}
		return 1
	}
	return 0
}

FILENAME == ARGV[1] {
	line = strip($0)
	# Not splats: what the CPU-vulnerability code says of its choice of
	# mitigations, "WARNING:" in the text (Debian's configuration on the
	# Skylake flavour: RETBleed left open by retpolines).
	if (line ~ /^(Spectre V[12]|RETBleed|MDS|TAA|MMIO Stale Data|SRBDS|GDS|Speculative Return Stack Overflow): WARNING: /)
		next
	if (line ~ /(^|[^A-Za-z])(WARNING:|BUG:|Oops|Kernel panic|general protection fault|UBSAN:|KASAN:|Call Trace:|INFO: lockdep|turning off the locking correctness validator|INFO: possible|INFO: task .* blocked|rcu_.*detected stalls)/) {
		splats++
		if (splats <= 20)
			printf "SPLAT: %s\n", line
	}
	if (line ~ /^    (not )?ok [0-9]+/) {
		sub(/^    /, "", line)
		count(line, "kunit")
	}
	next
}

{
	line = strip($0)
	if (line ~ /^### kselftest /) {
		test = substr(line, 15)
		seen = 0
		next
	}
	if (line ~ /^### exit /) {
		split(line, f, " ")
		if (f[4] != 0 && !seen_fail) {
			failed++
			printf "FAIL (kselftest): %s exited with %s\n", f[3], f[4]
		}
		seen_fail = 0
		next
	}
	if (line ~ /^### harness done/) {
		done = 1
		next
	}
	if (line ~ /^not ok/)
		seen_fail = 1
	if (line ~ /^# +RUN /)
		nsaid = 0
	else if (line ~ /^# / && line !~ /^# +(OK|FAIL|SKIP) / && nsaid < 6)
		said[++nsaid] = line
	if (count(line, "kselftest " test))
		nsaid = 0
}

END {
	status = 0
	if (!done) {
		print "ERROR: the guest did not finish its tests"
		status = 1
	}
	if (splats) {
		printf "ERROR: %d kernel splat line(s) on the console\n", splats
		status = 1
	}
	if (failed)
		status = 1
	if (!passed && !failed && !skipped) {
		print "ERROR: no test ran"
		status = 1
	}
	printf "%d passed, %d failed, %d skipped\n", passed, failed, skipped
	exit status
}
