/* A stand-in for the CUDA runtime's registration entry points, for loading a
 * pruned (compacted) library without a GPU: dlopen it after this one
 * (RTLD_GLOBAL) and its constructors hand every __fatBinC_Wrapper_t here.
 * stub_check() then walks each wrapper to its container and through the
 * container's entries, as the driver would, and counts what is sound.
 * Built by src/prune/elf_compact_test.cpp with the system's C compiler. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define MAX_WRAPPERS 4096
static const void* wrappers[MAX_WRAPPERS];
static int registered;

void** __cudaRegisterFatBinary(void* wrapper) {
  if (registered < MAX_WRAPPERS) wrappers[registered] = wrapper;
  registered++;
  return (void**)&wrappers[registered - 1];
}
void __cudaRegisterFatBinaryEnd(void** handle) { (void)handle; }
void __cudaUnregisterFatBinary(void** handle) { (void)handle; }
void __cudaRegisterFunction(void** h, const char* f, char* d, const char* n, int t, void* a, void* b, void* c,
                            void* e, int* s) {
  (void)h, (void)f, (void)d, (void)n, (void)t, (void)a, (void)b, (void)c, (void)e, (void)s;
}
void __cudaRegisterVar(void** h, char* a, char* b, const char* c, int d, size_t e, int f, int g) {
  (void)h, (void)a, (void)b, (void)c, (void)d, (void)e, (void)f, (void)g;
}
void __cudaRegisterLinkedBinary(void* w, void (*cb)(void**), void* a, void (*f)(void**)) {
  (void)w, (void)cb, (void)a, (void)f;
}
void __cudaInitModule(void** h) { (void)h; }
int __cudaLaunchKernel(const void* f, ...) { (void)f; return 0; }
int __cudaPopCallConfiguration(void* a, void* b, void* c, void* d) { (void)a, (void)b, (void)c, (void)d; return 0; }
int __cudaPushCallConfiguration(void) { return 0; }
int __cudaGetKernel(void** k, const void* f) { (void)k, (void)f; return 0; }

static uint64_t u64(const uint8_t* p) { uint64_t v; memcpy(&v, p, 8); return v; }
static uint32_t u32(const uint8_t* p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint16_t u16(const uint8_t* p) { uint16_t v; memcpy(&v, p, 2); return v; }

/* Wrappers registered; *sound: those whose container and entries read right. */
int stub_check(int* sound) {
  *sound = 0;
  for (int i = 0; i < registered && i < MAX_WRAPPERS; i++) {
    const uint8_t* w = wrappers[i];
    if (u32(w) != 0x466243B1u) continue;
    const uint8_t* c;
    memcpy(&c, w + 8, sizeof c);
    if (u32(c) != 0xBA55ED50u || u16(c + 4) != 1 || u16(c + 6) != 16) continue;
    uint64_t payload = u64(c + 8), at = 0;
    int ok = 1;
    while (at < payload && ok) {
      const uint8_t* e = c + 16 + at;
      uint16_t kind = u16(e);
      uint32_t header = u32(e + 4);
      uint64_t size = u64(e + 8);
      if ((kind != 1 && kind != 2 && kind != 8) || header < 64 || header + size > payload - at) ok = 0;
      at += header + size;
    }
    if (ok && at == payload) (*sound)++;
  }
  return registered;
}
