# A kbuild Makefile as it stands at one step of the patch series: the
# objects whose sources are not in the tree yet are left out (see "grow"
# in harness/patches/series).
#
#   awk -v dir=kernel/events -f grow.awk STATE Makefile
#
# STATE lists the tree's files at that step, one path a line.  An object
# foo.o stays if dir/foo.c or dir/foo.S is there, or if the Makefile
# builds it from parts (foo-y, foo-objs); a subdirectory foo/ stays if a
# file is under it.  In a kselftest Makefile, a program of TEST_GEN_PROGS
# or TEST_GEN_PROGS_EXTENDED stays if dir/prog.c is there.  A logical line (with its continuations) whose objects
# are all there is printed as it is, so the last step gives the file
# unchanged; one with none of its objects left goes away, and so does a
# conditional (ifdef ... endif) left empty.

FNR == NR {
	have[$0] = 1
	n = split($0, part, "/")
	p = part[1]
	for (i = 2; i <= n; i++) {
		hasdir[p] = 1
		p = p "/" part[i]
	}
	next
}

{ line[++nlines] = $0 }

function is_obj(tok) {
	return tok ~ /^[A-Za-z0-9_.-]+\.o$/ || tok ~ /^[A-Za-z0-9_-]+\/$/ ||
	       (progs && tok ~ /^[A-Za-z0-9_-]+$/)
}

function present(tok,    base, p) {
	if (tok ~ /\/$/)
		return (dir "/" substr(tok, 1, length(tok) - 1)) in hasdir
	if (tok !~ /\.o$/)
		return (dir "/" tok ".c") in have
	base = substr(tok, 1, length(tok) - 2)
	p = dir "/" base
	return (p ".c") in have || (p ".S") in have || base in composite
}

# The objects of an assignment's physical line: tokens after the operator
# on its first line, every token on a continuation.
function objects(text, first, tok,    n, i, start, k, t) {
	n = split(text, t, /[ \t]+/)
	start = 1
	if (first) {
		start = n + 1
		for (i = 1; i <= n; i++)
			if (t[i] ~ /(:=|\+=|\?=|=)$/) {
				start = i + 1
				break
			}
	}
	k = 0
	for (i = start; i <= n; i++)
		if (is_obj(t[i]))
			tok[++k] = t[i]
	return k
}

function emit(text) { res[++nres] = text }

function rebuild(text, first,    n, i, t, lead, out, seen_op) {
	match(text, /^[ \t]*/)
	lead = substr(text, 1, RLENGTH)
	n = split(substr(text, RLENGTH + 1), t, /[ \t]+/)
	out = ""
	seen_op = !first
	for (i = 1; i <= n; i++) {
		if (t[i] == "")
			continue
		if (seen_op && is_obj(t[i]) && !present(t[i]))
			continue
		if (!seen_op && t[i] ~ /(:=|\+=|\?=|=)$/)
			seen_op = 1
		out = out (out == "" ? "" : " ") t[i]
	}
	return lead out
}

END {
	for (i = 1; i <= nlines; i++)
		if (match(line[i], /^[ \t]*[A-Za-z0-9_]+-(y|objs|\$\()/)) {
			name = line[i]
			sub(/^[ \t]*/, "", name)
			sub(/-(y|objs|\$\().*/, "", name)
			composite[name] = 1
		}
	i = 1
	while (i <= nlines) {
		# One logical line: line[i .. j].
		j = i
		while (line[j] ~ /\\$/ && j < nlines)
			j++
		assign = line[i] ~ /^[ \t]*[^#= \t][^=]*(:=|\+=|\?=|=)/
		progs = line[i] ~ /^[ \t]*TEST_GEN_PROGS(_EXTENDED)?[ \t]*(:=|\+=|\?=|=)/
		total = 0
		kept = 0
		for (k = i; k <= j && assign; k++) {
			delete tok
			m = objects(line[k], k == i, tok)
			for (o = 1; o <= m; o++) {
				total++
				if (present(tok[o]))
					kept++
			}
		}
		if (!assign || total == kept) {
			for (k = i; k <= j; k++)
				emit(line[k])
		} else if (kept > 0) {
			nout = 0
			for (k = i; k <= j; k++) {
				delete tok
				m = objects(line[k], k == i, tok)
				left = 0
				for (o = 1; o <= m; o++)
					if (present(tok[o]))
						left++
				text = rebuild(line[k], k == i)
				if (k > i && left == 0)
					continue
				out[++nout] = text
			}
			sub(/[ \t]*\\$/, "", out[nout])
			for (k = 1; k <= nout; k++)
				emit(out[k])
		}
		i = j + 1
	}
	# Drop conditionals left empty, innermost first.
	do {
		changed = 0
		for (k = 1; k < nres; k++)
			if (!(k in gone) && res[k] ~ /^[ \t]*if(n?def|n?eq)[ \t(]/) {
				for (l = k + 1; l in gone; l++)
					;
				if (l <= nres && res[l] ~ /^[ \t]*endif/) {
					gone[k] = gone[l] = 1
					changed = 1
				}
			}
	} while (changed)
	for (k = 1; k <= nres; k++)
		if (!(k in gone))
			print res[k]
}
