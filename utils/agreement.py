#!/usr/bin/env python3
"""Measures how far coopspv-val agrees with a reference validator on one-operand mutants.

A developer tool, not a test: nothing in the build or CI runs it. For every module of
test/data/corpus/*.spvasm (assembled with coopspv-as) and of a directory of real modules
(default ../shared/corpus/real-sample beside the repository, envs from its MANIFEST.tsv), it makes mutants with
mutate_spv.py (--all: of every instruction; else of the cooperative ones), validates each one
with both validators in the module's target environment, and prints the agreement and the
disagreements grouped by mutated opcode and direction:

  ref-rejects  the reference finds the mutant invalid, coopspv-val accepts it
  ref-accepts  coopspv-val finds it invalid, the reference accepts it

Mutants on which the reference aborts (a signal, or an exit status other than 0 and 1) are
counted apart and left out of the agreement; a coopspv-val crash is reported as an error.

  bazel build -c opt //tools:coopspv-val //tools:coopspv-as //source/grammar:grammar
  utils/agreement.py --mode both [--max 30] [-v]

Run from the repository root.
"""
import argparse
import collections
import concurrent.futures
import csv
import os
import re
import subprocess
import sys
import tempfile

# The shared folder beside the repository (../shared from its root), or $COOPSPV_SHARED.
SHARED = os.environ.get('COOPSPV_SHARED', os.path.join(
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), 'shared'))


def read_envs(manifest):
    envs = {}
    with open(manifest) as f:
        for row in csv.DictReader(f, delimiter='\t'):
            envs[row['file']] = row['val_env']
    return envs


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120)
    return p.returncode, p.stdout.decode(errors='replace')


def first_error(text):
    for line in text.splitlines():
        if 'error' in line:
            return line.strip()[:200]
    return text.strip().splitlines()[0][:200] if text.strip() else ''


def mutated_op(desc):
    m = re.match(r'(Op\w+)', desc)
    return m.group(1) if m else '?'


def modules(args, work):
    """(name, spv path, env) for every module to mutate."""
    out = []
    corpus = 'test/data/corpus'
    envs = read_envs(os.path.join(corpus, 'MANIFEST.tsv'))
    for name in sorted(envs):
        if not name.endswith('.spvasm'):
            continue
        spv = os.path.join(work, name[:-len('.spvasm')] + '.spv')
        rc, text = run([args.assembler, os.path.join(corpus, name), '-o', spv])
        if rc != 0:
            sys.exit(f'{name} does not assemble: {text}')
        out.append((name, spv, envs[name]))
    if args.real and os.path.isdir(args.real):
        envs = read_envs(os.path.join(args.real, 'MANIFEST.tsv'))
        for name in sorted(envs):
            out.append((name, os.path.join(args.real, name), envs[name]))
    return out


def verdicts(args, spv, env):
    rc_ref, out_ref = run([args.reference, '--target-env', env, spv])
    rc_ours, out_ours = run([args.validator, '--target-env', env, spv] +
                            ['--suppress=' + rule for rule in args.suppress])
    return rc_ref, out_ref, rc_ours, out_ours


def measure(args, mods, work, all_instructions):
    label = 'all-instruction' if all_instructions else 'cooperative'
    jobs = []
    for name, spv, env in mods:
        outdir = os.path.join(work, label, os.path.basename(spv))
        cmd = [sys.executable, args.mutator, args.grammar, spv, outdir, '--max', str(args.max),
               '--seed', str(args.seed)]
        if all_instructions:
            cmd.append('--all')
        rc, text = run(cmd)
        if rc != 0:
            sys.exit(f'mutate_spv.py failed on {name}: {text}')
        base = os.path.splitext(os.path.basename(spv))[0]
        with open(os.path.join(outdir, base + '.mutants.tsv')) as log:
            for line in log:
                mutant, desc = line.rstrip('\n').split('\t', 1)
                jobs.append((name, env, os.path.join(outdir, mutant), desc))

    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda j: verdicts(args, j[2], j[1]), jobs))

    agree = total = 0
    aborts, crashes = [], []
    groups = collections.defaultdict(list)  # (direction, opcode) -> [(job, ref, ours)]
    for job, (rc_ref, out_ref, rc_ours, out_ours) in zip(jobs, results):
        if rc_ours not in (0, 1):
            crashes.append((job, rc_ours, out_ours))
        if rc_ref not in (0, 1):
            aborts.append((job, rc_ref, out_ref))
            continue
        total += 1
        if (rc_ref == 0) == (rc_ours == 0):
            agree += 1
            continue
        direction = 'ref-rejects' if rc_ref != 0 else 'ref-accepts'
        groups[(direction, mutated_op(job[3]))].append((job, out_ref, out_ours))

    pct = 100.0 * agree / total if total else 100.0
    print(f'== {label} mutants: {len(mods)} modules, {len(jobs)} mutants, '
          f'{len(aborts)} reference aborts left out')
    print(f'agreement: {agree}/{total} = {pct:.1f}%')
    for direction in ('ref-rejects', 'ref-accepts'):
        keys = sorted((k for k in groups if k[0] == direction), key=lambda k: -len(groups[k]))
        n = sum(len(groups[k]) for k in keys)
        print(f'{direction} (reference {"rejects, coopspv-val accepts" if direction == "ref-rejects" else "accepts, coopspv-val rejects"}): {n}')
        for k in keys:
            print(f'  {k[1]:32} {len(groups[k])}')
            if args.verbose:
                for (name, env, mutant, desc), out_ref, out_ours in groups[k]:
                    print(f'    {os.path.basename(mutant)} [{env}] {desc}')
                    print(f'      ref:  {first_error(out_ref)}')
                    print(f'      ours: {first_error(out_ours)}')
    for (name, env, mutant, desc), rc, out in aborts:
        print(f'reference abort (status {rc}): {os.path.basename(mutant)} [{env}] {desc}: '
              f'{first_error(out)}')
    for (name, env, mutant, desc), rc, out in crashes:
        print(f'COOPSPV-VAL CRASH (status {rc}): {mutant} [{env}] {desc}: {first_error(out)}')
    return not crashes


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--mode', choices=('all', 'coop', 'both', 'valid'), default='both',
                    help='valid: only check that both validators accept the unmutated modules')
    ap.add_argument('--max', type=int, default=30, help='mutants per module (default 30)')
    ap.add_argument('--seed', type=int, default=1, help="mutate_spv.py's seed (default 1)")
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('-v', '--verbose', action='store_true', help='list every disagreement')
    ap.add_argument('--validator', default='bazel-bin/tools/coopspv-val')
    ap.add_argument('--assembler', default='bazel-bin/tools/coopspv-as')
    ap.add_argument('--grammar', default='bazel-bin/source/grammar/merged.core.grammar.json')
    ap.add_argument('--reference', default=os.path.join(SHARED, 'bin/spirv-val'))
    ap.add_argument('--mutator', default=os.path.join(SHARED, 'bin/mutate_spv.py'))
    ap.add_argument('--real', default=os.path.join(SHARED, 'corpus/real-sample'),
                    help='directory of real .spv modules with a MANIFEST.tsv ("" for none)')
    ap.add_argument('--suppress', action='append', default=[], metavar='RULE',
                    help='pass --suppress=RULE to coopspv-val (repeatable)')
    ap.add_argument('--keep', help='write mutants here and keep them (default: a temp dir)')
    args = ap.parse_args()
    for tool in (args.validator, args.assembler, args.grammar, args.reference, args.mutator):
        if not os.path.exists(tool):
            sys.exit(f'missing {tool} (build the tools first; see --help)')

    with tempfile.TemporaryDirectory() as tmp:
        work = args.keep or tmp
        os.makedirs(work, exist_ok=True)
        mods = modules(args, work)
        bad = []
        for name, spv, env in mods:  # The unmutated modules: both must accept them.
            rc_ref, out_ref, rc_ours, out_ours = verdicts(args, spv, env)
            if rc_ref != 0 or rc_ours != 0:
                bad.append(f'{name} [{env}]: reference {rc_ref}, coopspv-val {rc_ours}: '
                           f'{first_error(out_ours if rc_ours else out_ref)}')
        for line in bad:
            print('unmutated module not accepted: ' + line)
        ok = not bad
        if args.mode == 'valid':
            print(f'{len(mods) - len(bad)}/{len(mods)} unmutated modules accepted by both')
            return 0 if ok else 1
        for all_instructions in ((True, False) if args.mode == 'both' else (args.mode == 'all',)):
            ok = measure(args, mods, work, all_instructions) and ok
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
