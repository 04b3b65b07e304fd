// test/run/glsl.amber's SHADER ... GLSL FILE: adds 1 to every element.
#version 450
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer Data { uint data[]; };
void main() { data[gl_GlobalInvocationID.x] += 1u; }
