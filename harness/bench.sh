#!/bin/bash
# make bench: run perf-bench on our kernel and on the upstream reference,
# both under QEMU -icount (the guest clock counts executed instructions,
# so host load does not move the numbers), and print each measurement
# side by side with the ratio ours/upstream (below 1: we are faster;
# for samples/s above 1 is better).
#
# BENCH=quick boots each kernel once, under -icount, and runs
# "perf-bench quick": fewer rows, no vCPU scaling.
# The table lands in build/bench/table.txt and, as the README's table,
# build/bench/table.md; each family of rows that grows with a parameter
# is drawn by gnuplot, ours beside 6.1, into build/bench/<family>.svg.
. "$(dirname "$0")/lib.sh"

case "${BENCH:-full}" in
full) args='' cpus="1 4 8" ;;
quick) args=quick cpus='' ;;
*) echo "BENCH must be 'full' or 'quick', not '$BENCH'" >&2; exit 2 ;;
esac
out=$BUILD/bench
mkdir -p "$out"
rm -f "$out"/*.txt "$out"/*.log "$out"/*.md "$out"/*.dat "$out"/*.gp \
	"$out"/*.svg

# Each kernel boots under -icount with one vCPU for everything, then
# without -icount (6.1 does not boot there with more than one) with 1, 4
# and 8 vCPUs (the guest configuration's NR_CPUS) for the rows that grow
# with the CPUs: those run on the host's clock and move with its load.
# One initramfs serves every boot, its command telling them apart.
# Every boot is HARNESS_DETERMINISTIC: no KASLR, no randomised mmap()
# addresses, no RDRAND, so a process's mappings land where they did on
# the other kernel.  With randomisation, whether a mapping shares its page
# tables with its neighbours changes from boot to boot, and with it the
# cost of an mmap()+munmap() by a fifth: enough to move a ratio by 0.1.
export HARNESS_DETERMINISTIC=1
cmd="if grep -q harness.cpus /proc/cmdline; then perf-bench cpus;"
cmd="$cmd elif grep -q harness.precise /proc/cmdline; then perf-bench precise;"
cmd="$cmd elif grep -q harness.ibs /proc/cmdline; then perf-bench ibs;"
cmd="$cmd elif grep -q harness.package /proc/cmdline; then perf-bench package;"
cmd="$cmd else perf-bench $args; fi"
boot() {
	local kind=$1 n=$2 start
	start=$(date +%s)
	"$ROOT/harness/boot.sh" "$kind" run | tr -d '\r' |
		tee "$out/console-$kind-$n.log" |
		grep -E ' (ns/op|records|samples/s)$' >>"$out/$kind.txt" || true
	log "bench: $kind, $n: $(($(date +%s) - start)) s"
}
# And once more on the skylake flavour, for the rows of PEBS and the LBR,
# and on zen for IBS's.
for kind in ours upstream; do
	"$ROOT/harness/build.sh" "$kind" "$cmd" >/dev/null
	HARNESS_ICOUNT=1 boot "$kind" icount
	PMU=skylake HARNESS_ICOUNT=1 HARNESS_CMDLINE=harness.precise \
		boot "$kind" skylake
	PMU=zen HARNESS_ICOUNT=1 HARNESS_CMDLINE=harness.ibs boot "$kind" zen
done
# The vCPU rows run on the host's clock, and one boot can be a fifth
# slower than the next for all its rows.  So the two kernels take turns,
# BENCH_ROUNDS (3) boots each per vCPU count, and each row keeps its best
# (lowest) value; the kernels are built with the same initramfs as above.
# With them, the package's counters (RAPL's, the memory controller's)
# read on their CPU and from the other vCPU of the die, on kabylake.
rounds=${BENCH_ROUNDS:-3}
for round in $(seq "$rounds"); do
	for n in $cpus; do
		for kind in ours upstream; do
			HARNESS_SMP=$n HARNESS_CMDLINE=harness.cpus \
				boot "$kind" "$n-vcpu-$round"
		done
	done
	[ -n "$cpus" ] || continue
	for kind in ours upstream; do
		PMU=kabylake HARNESS_SMP=2 HARNESS_CMDLINE=harness.package \
			boot "$kind" "package-$round"
	done
done

# A row printed by several boots keeps its lowest value (all such rows are
# ns/op), in the place of its first.
for kind in ours upstream; do
	awk '
		{
			n = split($0, f, " ");
			name = f[1]; for (i = 2; i < n - 1; i++) name = name " " f[i];
			if (!(name in best)) { order[++rows] = name; line[name] = $0; best[name] = f[n - 1]; }
			else if (f[n - 1] + 0 < best[name] + 0) { line[name] = $0; best[name] = f[n - 1]; }
		}
		END { for (i = 1; i <= rows; i++) print line[order[i]] }' \
		"$out/$kind.txt" >"$out/$kind.best" && mv "$out/$kind.best" "$out/$kind.txt"
done

# The two runs joined by measurement name, in the order ours printed them:
# "name|ours|upstream|ratio|unit" lines.
awk '
	{
		n = split($0, f, " ");
		name = f[1]; for (i = 2; i < n - 1; i++) name = name " " f[i];
	}
	FNR == NR { up[name] = f[n - 1]; next }
	{
		u = name in up ? up[name] : "-";
		r = u != "-" && u + 0 ? sprintf("%.2f", f[n - 1] / u) : "-";
		print name "|" f[n - 1] "|" u "|" r "|" f[n];
	}' "$out/upstream.txt" "$out/ours.txt" >"$out/rows"

awk -F'|' '{ printf "%-36s %12s %12s %7s  %s\n", $1, $2, $3, $4, $5 }' \
	"$out/rows" | { printf '%-36s %12s %12s %7s\n' measurement ours upstream ratio; cat; } |
	tee "$out/table.txt"
{
	echo '| measurement | ours | 6.1 | ratio | unit |'
	echo '| --- | ---: | ---: | ---: | --- |'
	awk -F'|' '{ printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5 }' "$out/rows"
} >"$out/table.md"

# The scaling families: file, the rows' pattern (the parameter is the
# first number in a row's name), the title and the parameter's name.
# A series is a row's name with its "<number> <word>" made "N <word>".
families="switch|^switch extra, |What counters add to a context switch|counters per task
group-read|^read group of |read() of a group|counters in the group
fork|^fork[+]exit extra, |What inherited counters add to fork+exit|inherited counters
perf-stat|^perf stat extra, |What perf stat adds to a program, per yield|threads
cpus|vCPUs?$|Opening counters on more CPUs|vCPUs"

command -v gnuplot >/dev/null || { log "bench: no gnuplot, no curves"; exit 0; }
printf '%s\n' "$families" | while IFS='|' read -r fam pat title xlabel; do
	# One data block per series: "x ours upstream" lines.
	awk -F'|' -v pat="$pat" '
		$1 ~ pat && match($1, /[0-9]+ [A-Za-z]+/) {
			word = substr($1, RSTART, RLENGTH);
			x = word + 0;
			sub(/^[0-9]+ /, "", word);
			sub(/s$/, "", word);
			key = substr($1, 1, RSTART - 1) "N " word substr($1, RSTART + RLENGTH);
			if (!(key in seen)) { seen[key] = ++nkeys; keys[nkeys] = key; }
			data[key] = data[key] x " " $2 " " ($3 == "-" ? "NaN" : $3) "\n";
		}
		END {
			for (i = 1; i <= nkeys; i++)
				printf "# %s\n%s\n\n", keys[i], data[keys[i]];
		}' "$out/rows" >"$out/$fam.dat"
	[ -s "$out/$fam.dat" ] || continue
	{
		cat <<-EOF
		set terminal svg size 900,560 dynamic font "sans,12"
		set output "$out/$fam.svg"
		set title "$title (solid: ours, dashed: 6.1)"
		set xlabel "$xlabel"
		set ylabel "guest ns per operation (-icount)"
		set logscale x 2
		set logscale y
		set key outside bottom center horizontal maxcols 2
		set grid
		EOF
		printf 'plot '
		grep '^# ' "$out/$fam.dat" | sed 's/^# //' | awk -v dat="$out/$fam.dat" '
			{
				sep = NR > 1 ? ", \\\n     " : "";
				printf "%s\"%s\" index %d using 1:2 with linespoints lc %d lw 2 pt 7 title \"ours: %s\"", sep, dat, NR - 1, NR, $0;
				printf ", \\\n     \"%s\" index %d using 1:3 with linespoints lc %d lw 2 pt 6 dt 2 title \"6.1: %s\"", dat, NR - 1, NR, $0;
			}
			END { print "" }'
	} >"$out/$fam.gp"
	gnuplot "$out/$fam.gp"
done
for f in "$out"/*.svg; do
	[ -f "$f" ] && echo "curves: $f"
done
