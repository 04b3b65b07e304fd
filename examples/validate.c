/* Validates a SPIR-V module file through the C API of libcoopspv and prints its diagnostics:
 * what a driver does before its shader cache accepts a module. Plain C99.
 *
 *   cc validate.c $(pkg-config --cflags --libs coopspv) -o validate
 *   ./validate [--target-env ENV] module.spv
 *
 * Exit status: 0 the module is valid, 1 it is not, 2 bad arguments or an unreadable file. */
#include <coopspv/coopspv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kExitValid = 0, kExitInvalid = 1, kExitUsage = 2 };

/* Reads a whole file of 32-bit words, swapping them when the magic number says the file's byte
 * order is not the host's. Returns NULL (with a message) when it cannot. */
static uint32_t* read_module(const char* path, size_t* word_count) {
  FILE* f = fopen(path, "rb");
  if (f == NULL) {
    fprintf(stderr, "error: cannot open %s\n", path);
    return NULL;
  }
  size_t capacity = 1024, size = 0;
  unsigned char* bytes = malloc(capacity);
  while (bytes != NULL) {
    size += fread(bytes + size, 1, capacity - size, f);
    if (size < capacity) break;
    unsigned char* grown = realloc(bytes, capacity * 2);
    if (grown == NULL) {
      free(bytes);
      bytes = NULL;
      break;
    }
    bytes = grown;
    capacity *= 2;
  }
  const int read_error = ferror(f);
  fclose(f);
  if (bytes == NULL || read_error || size % 4 != 0) {
    fprintf(stderr, "error: %s: %s\n", path,
            bytes == NULL ? "out of memory"
            : read_error  ? "read error"
                          : "the size is not a multiple of 4 bytes");
    free(bytes);
    return NULL;
  }
  uint32_t* words = (uint32_t*)bytes; /* malloc's memory is aligned for any type. */
  *word_count = size / 4;
  if (*word_count > 0 && words[0] == 0x03022307u) {
    for (size_t i = 0; i < *word_count; ++i) {
      const uint32_t w = words[i];
      words[i] = (w >> 24) | ((w >> 8) & 0xff00u) | ((w << 8) & 0xff0000u) | (w << 24);
    }
  }
  return words;
}

int main(int argc, char** argv) {
  const char* target_env = "vulkan1.3";
  const char* path = NULL;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--target-env") == 0 && i + 1 < argc) {
      target_env = argv[++i];
    } else if (argv[i][0] != '-' && path == NULL) {
      path = argv[i];
    } else {
      path = NULL;
      break;
    }
  }
  if (path == NULL) {
    fprintf(stderr, "usage: %s [--target-env ENV] module.spv\n", argv[0]);
    return kExitUsage;
  }

  coopspv_context* context = coopspv_context_create(target_env);
  if (context == NULL) {
    fprintf(stderr, "error: unknown target environment '%s'\n", target_env);
    return kExitUsage;
  }
  size_t word_count = 0;
  uint32_t* words = read_module(path, &word_count);
  if (words == NULL) {
    coopspv_context_destroy(context);
    return kExitUsage;
  }

  int status = kExitUsage;
  coopspv_result* result = coopspv_validate(context, words, word_count);
  if (result == NULL) {
    fprintf(stderr, "error: out of memory\n");
  } else {
    const size_t count = coopspv_result_diagnostic_count(result);
    for (size_t i = 0; i < count; ++i) {
      const coopspv_diagnostic* d = coopspv_result_diagnostic(result, i);
      printf("%s: %s: %s [%s]\n", d->severity == COOPSPV_SEVERITY_ERROR ? "error" : "warning",
             d->rule_id, d->message, d->clause);
      if (d->has_instruction) printf("  word %u: %s\n", (unsigned)d->word_offset, d->instruction);
    }
    const int valid = coopspv_result_valid(result);
    printf("%s: %s (%s, %zu diagnostic%s)\n", path, valid ? "valid" : "invalid", coopspv_version(),
           count, count == 1 ? "" : "s");
    status = valid ? kExitValid : kExitInvalid;
    coopspv_result_destroy(result);
  }
  free(words);
  coopspv_context_destroy(context);
  return status;
}
