"""Copies m16n32k8_half_half.amber for lower_test.sh's wide-store case. With "row", the
expectation of D (generated for a column-major 16 x 32 store: element (r, c) at c * 16 + r) is
rewritten for a row-major store (element (r, c) at r * 32 + c)."""
import sys

src, dst, layout = sys.argv[1:]
out = []
for line in open(src):
    if layout == "row" and line.startswith("EXPECT d IDX 0 EQ "):
        v = line.split()[5:]
        if len(v) != 512:
            sys.exit("expected 512 values of D, found %d" % len(v))
        line = "EXPECT d IDX 0 EQ " + " ".join(v[c * 16 + r] for r in range(16)
                                                for c in range(32)) + "\n"
    out.append(line)
open(dst, "w").write("".join(out))
