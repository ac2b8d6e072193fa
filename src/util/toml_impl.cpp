// The one translation unit that compiles toml++ (TOML_HEADER_ONLY=0).
#define TOML_IMPLEMENTATION
#include <toml++/toml.h>
