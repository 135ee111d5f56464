#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Charge two instruction profiles to functions and compare them.

symdiff.py OURS OURS_VMLINUX UPSTREAM UPSTREAM_VMLINUX OPS [TOP]

Each profile is insnprof's "vaddr count" lines.  An address is charged to
the function of the vmlinux it is in (user-space addresses to [user]);
the counts are divided by OPS.  Printed: the totals, then the TOP
functions whose instructions per operation differ most between the two,
with how many times each was entered (its first instruction's count).
"""
import bisect
import subprocess
import sys


def symbols(vmlinux):
    out = subprocess.run(['nm', '-n', vmlinux], capture_output=True,
                         text=True, check=True).stdout
    syms = []
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in 'tTwW':
            syms.append((int(f[0], 16), f[2]))
    return syms


def charge(profile, vmlinux):
    syms = symbols(vmlinux)
    starts = [a for a, _ in syms]
    first = set(starts)
    insns, calls = {}, {}
    with open(profile) as f:
        for line in f:
            addr, count = line.split()
            addr, count = int(addr, 16), int(count)
            if addr < 0xffff800000000000:
                name = '[user]'
            else:
                i = bisect.bisect_right(starts, addr) - 1
                name = syms[i][1] if i >= 0 else '?'
                if addr in first:
                    calls[name] = calls.get(name, 0) + count
            insns[name] = insns.get(name, 0) + count
    return insns, calls


def main():
    ours, ours_calls = charge(sys.argv[1], sys.argv[2])
    up, up_calls = charge(sys.argv[3], sys.argv[4])
    ops = float(sys.argv[5]) or 1.0
    top = int(sys.argv[6]) if len(sys.argv) > 6 else 25
    o_all, u_all = sum(ours.values()) / ops, sum(up.values()) / ops
    o_k = o_all - ours.get('[user]', 0) / ops
    u_k = u_all - up.get('[user]', 0) / ops
    print('%10s %10s %9s  %s' % ('ours', 'upstream', 'ours-up', 'function'))
    print('%10.1f %10.1f %+9.1f  (all)' % (o_all, u_all, o_all - u_all))
    print('%10.1f %10.1f %+9.1f  (kernel; ratio %.2f)' %
          (o_k, u_k, o_k - u_k, o_k / u_k if u_k else 0))
    names = set(ours) | set(up)
    diff = sorted(names, key=lambda n: -abs(ours.get(n, 0) - up.get(n, 0)))
    for n in diff[:top]:
        o, u = ours.get(n, 0) / ops, up.get(n, 0) / ops
        print('%10.1f %10.1f %+9.1f  %s (entered %.2f / %.2f)' %
              (o, u, o - u, n, ours_calls.get(n, 0) / ops,
               up_calls.get(n, 0) / ops))


if __name__ == '__main__':
    main()
