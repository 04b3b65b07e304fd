#!/usr/bin/env python3
"""Measures how far coopspv-val agrees with the verdicts of SPIRV-Tools' validator unit tests.

A developer tool, not a test: nothing in the build or CI runs it. It reads a data directory
written by SPIRV-Tools' val tests built outside the project with a fixture that records every
module a passing test validates (docs/agreement.md, "SPIRV-Tools' validator tests", says how
to make one):

  <data>/manifest*.tsv   one line per validation of a passing test: hash, target env,
                         validator options ("default" or the non-default ones, comma separated),
                         verdict (valid / invalid), result code, test file, test suite.test,
                         index of the validation in the test, test parameter, first line of
                         SPIRV-Tools' diagnostic
  <data>/spv/<hash>.spv  the module (the hash covers binary, env and options)

Each distinct module is validated by coopspv-val with the test's target environment (and the
options coopspv-val has, where they are not the defaults) and compared with the test's
verdict. Modules of other environments (opencl*, opengl*) and of options coopspv-val lacks are
out of scope and only counted. A crash, a timeout or an unreadable answer of coopspv-val is
counted apart and listed: each is a bug.

  bazel build -c opt //tools:coopspv-val
  utils/spirv_tools_suite.py <data> [--val bazel-bin/tools/coopspv-val] [--jobs 2]
      [--disagreements out.tsv] [--top 40]

Classes, by parsing each binary: GLCompute-only (at least one entry point, all GLCompute),
no entry point, other execution models; cooperative (any capability of the cooperative family
below), orthogonal to those.
"""
import argparse
import collections
import concurrent.futures
import glob
import json
import os
import re
import struct
import subprocess
import sys

ENVS = {'spv1.0', 'spv1.1', 'spv1.2', 'spv1.3', 'spv1.4', 'spv1.5', 'spv1.6', 'vulkan1.0',
        'vulkan1.1', 'vulkan1.1spv1.4', 'vulkan1.2', 'vulkan1.3', 'vulkan1.4'}

# SPIRV-Tools validator options (the fields of its options struct) and coopspv-val's flags.
OPTION_FLAGS = {
    'relax_logical_pointer': '--relax-logical-pointer',
    'before_hlsl_legalization': '--before-hlsl-legalization',
    'relax_block_layout': '--relax-block-layout',
    'uniform_buffer_standard_layout': '--uniform-buffer-standard-layout',
    'scalar_block_layout': '--scalar-block-layout',
    'workgroup_scalar_block_layout': '--workgroup-scalar-block-layout',
    'skip_block_layout': '--skip-block-layout',
    'allow_vulkan_32_bit_bitwise': '--allow-vulkan-32-bit-bitwise',
}
LIMIT_FLAGS = {
    'limit.max_id_bound': '--max-id-bound',
    'limit.max_struct_members': '--max-struct-members',
    'limit.max_function_args': '--max-function-args',
    'limit.max_control_flow_nesting_depth': '--max-control-flow-nesting-depth',
    'limit.max_access_chain_indexes': '--max-access-chain-indexes',
}

# Capabilities of the cooperative family (numbers of the unified SPIR-V grammar).
COOPERATIVE_CAPS = {
    4201: 'CooperativeMatrixLayoutsARM',
    4213: 'Float8CooperativeMatrixEXT',
    4496: 'CooperativeMatrixConversionQCOM',
    5114: 'Int4CooperativeMatrixINTEL',
    5118: 'BFloat16CooperativeMatrixKHR',
    5357: 'CooperativeMatrixNV',
    5394: 'CooperativeVectorNV',
    5425: 'LongVectorEXT',
    5429: 'CooperativeMatrixConversionsEXT',
    5430: 'CooperativeMatrixReductionsNV',
    5431: 'CooperativeMatrixConversionsNV',
    5432: 'CooperativeMatrixPerElementOperationsNV',
    5433: 'CooperativeMatrixTensorAddressingNV',
    5434: 'CooperativeMatrixBlockLoadsNV',
    5435: 'CooperativeVectorTrainingNV',
    5438: 'CooperativeMatrixGetCoordinateEXT',
    5439: 'TensorAddressingNV',
    5447: 'CooperativeMatrixDecodeVectorNV',
    6022: 'CooperativeMatrixKHR',
}
OP_CAPABILITY = 17
OP_ENTRY_POINT = 15
GLCOMPUTE = 5


def scan(data):
    """(capabilities, execution models of the entry points) of a binary; never raises."""
    caps, models = set(), []
    if len(data) < 20 or len(data) % 4:
        return caps, models
    fmt = '<' if struct.unpack_from('<I', data, 0)[0] == 0x07230203 else '>'
    words = struct.unpack(fmt + '%dI' % (len(data) // 4), data)
    i = 5
    while i < len(words):
        count, op = words[i] >> 16, words[i] & 0xffff
        if count == 0:
            break
        if op == OP_CAPABILITY and count >= 2 and i + 1 < len(words):
            caps.add(words[i + 1])
        elif op == OP_ENTRY_POINT and count >= 2 and i + 1 < len(words):
            models.append(words[i + 1])
        i += count
    return caps, models


def suite_of(test):
    """'Prefix/ValidateFoo.Bar/3' -> 'ValidateFoo'."""
    suite = test.split('.', 1)[0]
    return suite.rsplit('/', 1)[-1]


class Module:
    __slots__ = ('key', 'env', 'options', 'verdict', 'file', 'test', 'param', 'refdiag',
                 'ntests', 'conflict', 'path', 'caps', 'models', 'flags', 'scope', 'result',
                 'rule', 'diag', 'rules')

    @property
    def cls(self):
        if not self.models:
            return 'no-entry-point'
        return 'glcompute' if all(m == GLCOMPUTE for m in self.models) else 'other-models'

    @property
    def coop(self):
        return any(c in COOPERATIVE_CAPS for c in self.caps)


def read_data(data_dir):
    mods = collections.OrderedDict()
    files = sorted(glob.glob(os.path.join(data_dir, 'manifest*.tsv')))
    if not files:
        sys.exit('no manifest*.tsv in %s' % data_dir)
    for name in files:
        with open(name, errors='replace') as f:
            for line in f:
                cols = line.rstrip('\n').split('\t')
                if len(cols) < 9:
                    continue
                cols += [''] * (10 - len(cols))
                key, env, options, verdict, _, tfile, test, _, param, refdiag = cols[:10]
                m = mods.get(key)
                if m is None:
                    m = Module()
                    m.key, m.env, m.options, m.verdict = key, env, options, verdict
                    m.file, m.test, m.param, m.refdiag = tfile, test, param, refdiag
                    m.ntests, m.conflict = 0, False
                    m.path = os.path.join(data_dir, 'spv', key + '.spv')
                    m.result, m.rule, m.diag, m.rules = None, '', '', []
                    mods[key] = m
                elif m.verdict != verdict:
                    m.conflict = True
                m.ntests += 1
    return list(mods.values())


def classify(m):
    """Sets m.scope ('in', or why not) and m.flags."""
    m.flags = []
    if m.conflict:
        m.scope = 'conflicting verdicts'
        return
    if not os.path.exists(m.path):
        m.scope = 'missing binary'
        return
    if m.env not in ENVS:
        m.scope = 'env ' + re.sub(r'[0-9.]+(embedded)?$', '', m.env)
        return
    if m.options != 'default':
        for opt in m.options.split(','):
            name, _, value = opt.partition('=')
            if name in OPTION_FLAGS:
                m.flags.append(OPTION_FLAGS[name])
            elif name in LIMIT_FLAGS:
                m.flags.append('%s=%s' % (LIMIT_FLAGS[name], value))
            else:
                m.scope = 'option ' + name
                return
    m.scope = 'in'


def validate(val, m, timeout):
    cmd = [val, '--json', '--target-env', m.env] + m.flags + [m.path]
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    except subprocess.TimeoutExpired:
        return 'timeout', '', 'timeout after %ss' % timeout, []
    out = p.stdout.decode(errors='replace')
    if p.returncode not in (0, 1):
        err = (p.stderr.decode(errors='replace').strip().splitlines() or [''])[-1]
        return 'crash', '', 'exit %d %s' % (p.returncode, err[:200]), []
    try:
        j = json.loads(out)
    except ValueError:
        return 'crash', '', 'unreadable output (exit %d)' % p.returncode, []
    errors = [d for d in j.get('diagnostics', []) if d.get('severity') == 'error']
    verdict = 'valid' if j.get('valid') else 'invalid'
    if (verdict == 'valid') != (p.returncode == 0):
        return 'crash', '', 'exit %d disagrees with JSON' % p.returncode, []
    rule = errors[0].get('rule', '?') if errors else ''
    diag = ('%s: %s' % (rule, errors[0].get('message', ''))).replace('\t', ' ').replace(
        '\n', ' ')[:300] if errors else ''
    rules = sorted({d.get('rule', '?') for d in errors})
    return verdict, rule, diag, rules


def outcome(m):
    if m.result in ('timeout', 'crash'):
        return m.result
    if m.result == m.verdict:
        return 'agree'
    return 'valid-rejected' if m.verdict == 'valid' else 'invalid-accepted'


def pct(a, n):
    return '%.1f%%' % (100.0 * a / n) if n else '-'


def table_row(label, ms):
    c = collections.Counter(outcome(m) for m in ms)
    n = len(ms)
    return '| %s | %d | %d | %s | %d | %d | %d |' % (
        label, n, c['agree'], pct(c['agree'], n), c['valid-rejected'], c['invalid-accepted'],
        c['crash'] + c['timeout'])


def normalize(diag):
    diag = re.sub(r'^(\S+: )word \d+: ', r'\1', diag)
    return re.sub(r'%[\w.]+', '%x', diag)


def reference_key(diag):
    vuid = re.search(r'VUID-[\w-]+', diag)
    if vuid:
        return vuid.group(0)
    diag = re.sub(r"'[^']*'", "'..'", diag)
    return re.sub(r'\d+\[%?[\w.]*\]|%[\w.]+|\b\d+\b', 'N', diag)[:100] or '(no message)'


def breakdown(title, ms, top):
    dis = [m for m in ms if outcome(m) in ('valid-rejected', 'invalid-accepted')]
    print('\n## %s: %d disagreements\n' % (title, len(dis)))
    if not dis:
        return
    by_suite = collections.defaultdict(collections.Counter)
    for m in dis:
        by_suite[(m.file, suite_of(m.test))][outcome(m)] += 1
    print('By test suite (file, suite: valid-rejected / invalid-accepted):')
    rows = sorted(by_suite.items(), key=lambda kv: -sum(kv[1].values()))
    for (tfile, suite), c in rows[:top]:
        print('  %5d  %-40s %-48s VR %d / IA %d' % (sum(c.values()), tfile, suite,
                                                   c['valid-rejected'], c['invalid-accepted']))
    if len(rows) > top:
        print('  ... %d more suites' % (len(rows) - top))
    rules = collections.Counter(m.rule for m in dis if outcome(m) == 'valid-rejected')
    if rules:
        print('\nValid modules rejected, by the first coopspv rule that fired:')
        for rule, n in rules.most_common(top):
            print('  %5d  %s' % (n, rule))
        if len(rules) > top:
            print('  ... %d more rules' % (len(rules) - top))
    msgs = collections.Counter(normalize(m.diag) for m in dis if outcome(m) == 'valid-rejected')
    if msgs:
        print('\nValid modules rejected, by the first coopspv diagnostic (ids and word offsets '
              'elided):')
        for msg, n in msgs.most_common(top):
            print('  %5d  %s' % (n, msg[:160]))
    refs = collections.Counter(reference_key(m.refdiag) for m in dis
                               if outcome(m) == 'invalid-accepted')
    if refs:
        print('\nInvalid modules accepted, by the VUID SPIRV-Tools names, else its message:')
        for msg, n in refs.most_common(top):
            print('  %5d  %s' % (n, msg[:160]))
    groups = collections.Counter(
        (suite_of(m.test), m.rule if outcome(m) == 'valid-rejected' else 'accepted')
        for m in dis)
    print('\nGroups (test suite, first coopspv rule of a valid module rejected, or "accepted" '
          'for an invalid module accepted):')
    for (suite, rule), n in groups.most_common(top):
        print('  %5d  %-48s %s' % (n, suite, rule))
    if len(groups) > top:
        print('  ... %d more groups' % (len(groups) - top))


def main():
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('data', help='directory with manifest*.tsv and spv/')
    ap.add_argument('--val', default=os.path.join(here, 'bazel-bin', 'tools', 'coopspv-val'),
                    help='coopspv-val binary (default: bazel-bin/tools/coopspv-val)')
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--timeout', type=float, default=30.0, help='seconds per module')
    ap.add_argument('--top', type=int, default=40, help='rows per breakdown')
    ap.add_argument('--limit', type=int, default=0, help='validate only the first n modules')
    ap.add_argument('--disagreements', metavar='FILE',
                    help='write one line per disagreement, crash and timeout to FILE')
    ap.add_argument('--results', metavar='FILE',
                    help='write one line per module in scope (hash, outcome, rules) to FILE')
    args = ap.parse_args()

    mods = read_data(args.data)
    for m in mods:
        classify(m)
    scope = collections.Counter(m.scope for m in mods)
    todo = [m for m in mods if m.scope == 'in']
    if args.limit:
        todo = todo[:args.limit]
    for m in todo:
        with open(m.path, 'rb') as f:
            m.caps, m.models = scan(f.read())

    done = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        futs = {ex.submit(validate, args.val, m, args.timeout): m for m in todo}
        for fut in concurrent.futures.as_completed(futs):
            m = futs[fut]
            m.result, m.rule, m.diag, m.rules = fut.result()
            done += 1
            if done % 2000 == 0:
                print('... %d / %d' % (done, len(todo)), file=sys.stderr)

    print('# coopspv-val against SPIRV-Tools validator tests\n')
    print('%d test validations, %d distinct modules (binary, env, options); %d in scope.' % (
        sum(m.ntests for m in mods), len(mods), len(todo)))
    out = sorted((k, n) for k, n in scope.items() if k != 'in')
    if out:
        print('Out of scope: ' + ', '.join('%s %d' % kv for kv in out) + '.')
    if args.limit:
        print('(--limit %d)' % args.limit)

    default = [m for m in todo if m.options == 'default']
    print('\n| modules | n | agree | % | valid rejected | invalid accepted | crash/timeout |')
    print('|---|---|---|---|---|---|---|')
    print(table_row('all in scope', todo))
    print(table_row('default options', default))
    print(table_row('default options, GLCompute-only', [m for m in default if m.cls == 'glcompute']))
    print(table_row('default options, no entry point',
                    [m for m in default if m.cls == 'no-entry-point']))
    print(table_row('default options, other execution models',
                    [m for m in default if m.cls == 'other-models']))
    print(table_row('default options, cooperative', [m for m in default if m.coop]))
    print(table_row('default options, cooperative GLCompute-only',
                    [m for m in default if m.coop and m.cls == 'glcompute']))
    print(table_row('non-default options (mapped to flags)',
                    [m for m in todo if m.options != 'default']))

    bad = [m for m in todo if outcome(m) in ('crash', 'timeout')]
    print('\n## coopspv-val crashes and timeouts: %d' % len(bad))
    for m in bad:
        print('  %s %s --target-env %s %s  (%s; %s)' % (
            m.result, m.path, m.env, ' '.join(m.flags), m.diag, m.test))

    breakdown('Default options, GLCompute-only',
              [m for m in default if m.cls == 'glcompute'], args.top)
    breakdown('Default options, cooperative', [m for m in default if m.coop], args.top)
    breakdown('All in scope', todo, args.top)

    if args.disagreements:
        with open(args.disagreements, 'w') as f:
            f.write('outcome\texpected\tcoopspv\tclass\tcooperative\tenv\toptions\tmodule\t'
                    'test_file\ttest\ttests\tparam\tcoopspv_first_error\tspirv_tools_diag\n')
            for m in todo:
                o = outcome(m)
                if o == 'agree':
                    continue
                f.write('\t'.join(str(x) for x in (
                    o, m.verdict, m.result, m.cls, 'coop' if m.coop else '-', m.env, m.options,
                    m.path, m.file, m.test, m.ntests, m.param, m.diag, m.refdiag)) + '\n')
    if args.results:
        with open(args.results, 'w') as f:
            for m in todo:
                f.write('\t'.join((m.key, outcome(m), m.cls, 'coop' if m.coop else '-',
                                   m.env, m.options, ','.join(m.rules))) + '\n')


if __name__ == '__main__':
    main()
