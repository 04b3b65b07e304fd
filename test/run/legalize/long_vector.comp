// SPV_EXT_long_vector kernel of test/run/legalize (long_vector.spvasm is its glslang 16 output:
// glslang -V --target-env vulkan1.3 long_vector.comp, disassembled). Long vectors of 8, 5 and
// spec-constant N (specialized to 7 by long_vector.amber) components in Function and Workgroup
// memory: element-wise arithmetic, max, comparisons, selects, conversions, construction.
#version 450 core
#extension GL_EXT_long_vector : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
layout(local_size_x = 4) in;
layout(constant_id = 0) const uint N = 6;
layout(set = 0, binding = 0) buffer In { float x[]; } inb;
layout(set = 0, binding = 1) buffer Out { float y[]; } outb;
shared vector<float, 8> s8[4];
void main() {
  uint base = gl_LocalInvocationID.x * 8;
  vector<float, 8> a;
  vector<float, 8> b;
  for (int i = 0; i < 8; ++i) { a[i] = inb.x[base + i]; b[i] = float(i + 1); }
  vector<float, 8> c = a * b + vector<float, 8>(0.5);
  c = max(c, vector<float, 8>(2.0));
  s8[gl_LocalInvocationID.x] = c;
  barrier();
  vector<float, 8> d = s8[(gl_LocalInvocationID.x + 1) % 4];
  vector<bool, 8> gt = greaterThan(d, c);
  vector<float, 5> e = vector<float, 5>(d[0], d[1], d[2], d[3], d[4]) - 1.0;
  vector<float, N> f;
  for (uint i = 0; i < N; ++i) f[i] = 3.0 + float(i);
  vector<uint, 8> u = vector<uint, 8>(c);
  for (int i = 0; i < 8; ++i) outb.y[base + i] = gt[i] ? d[i] : -c[i];
  for (int i = 0; i < 5; ++i) outb.y[32 + gl_LocalInvocationID.x * 5 + i] = e[i];
  outb.y[52 + gl_LocalInvocationID.x] = f[1] + float(u[7]);
}
