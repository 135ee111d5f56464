# The closing lines of a run of the test guests; sourced after lib.sh.
# report() prints each boot's failures and its totals and adds them up
# in total_pass, total_fail and total_skip; status becomes 1 if a boot
# failed a test, did not finish, or showed a kernel splat.

total_pass=0 total_fail=0 total_skip=0 status=0

# Report the run whose logs are in build/$1, named $2.
report() {
	local out line name=$2 rc=0
	out=$(out_dir "$1")
	touch "$out/console.log" "$out/results.log"
	line=$(awk -f "$ROOT/harness/report.awk" "$out/console.log" "$out/results.log") || rc=1
	printf '%s\n' "$line" | sed '$d'
	# shellcheck disable=SC2046
	set -- $(printf '%s\n' "$line" | tail -1)
	echo "$name: $1 passed, $3 failed, $5 skipped$(slowest "$out/results.log")"
	total_pass=$((total_pass + $1)) total_fail=$((total_fail + $3))
	total_skip=$((total_skip + $5))
	[ "$rc" = 0 ] || status=1
}

# Where a boot's time went, from the guest's "### exit TEST STATUS
# SECONDS" lines in results log $1: " (N s of tests; slowest: the three
# longest)", or nothing from a guest that does not time them.
slowest() {
	awk '{ sub(/\r$/, "") }
	$1 == "###" && $2 == "exit" && $5 ~ /^[0-9]+$/ {
		sum += $5
		print $5, $3
	} END { print sum + 0, "total" }' "$1" | sort -rn | awk '
		NR == 1 && $1 == 0 { exit }
		$2 == "total" { total = $1; next }
		n < 3 { top = top (n++ ? ", " : "") $2 " " $1 " s" }
		END { if (total) printf " (%d s of tests; slowest: %s)", total, top }'
}

# Keep build/$1's logs of the last run as console-$2.log, results-$2.log.
keep_logs() {
	for f in console results; do
		mv "$(out_dir "$1")/$f.log" "$(out_dir "$1")/$f-$2.log"
	done
}

# The closing line of all the runs reported.
report_total() {
	echo "$total_pass passed, $total_fail failed, $total_skip skipped"
}
