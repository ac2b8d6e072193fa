#pragma once
/// CPU features straight from the CPUID instruction (x86 only), so `detect`
/// does not depend on what the kernel chose to print, and the two sources can
/// be cross-checked. Features the OS has not enabled (XCR0 state for AVX and
/// AVX-512 registers) are left out, as the kernel does.

#include <cstdint>
#include <optional>
#include <set>
#include <string>

#include "host/host_tables.hpp"

namespace tailor {

/// The CPUID/XGETBV registers the feature table reads.
struct CpuidRegs {
  std::string vendor;  ///< "GenuineIntel"
  uint32_t max_leaf = 0, max_ext_leaf = 0;
  uint32_t l1_ecx = 0, l1_edx = 0;              ///< leaf 1
  uint32_t l7_ebx = 0, l7_ecx = 0, l7_edx = 0;  ///< leaf 7, subleaf 0
  uint32_t l7s1_eax = 0;                        ///< leaf 7, subleaf 1
  uint32_t e1_ecx = 0, e1_edx = 0;              ///< leaf 0x80000001
  uint64_t xcr0 = 0;                            ///< XGETBV(0); 0 without OSXSAVE
};

/// Executes CPUID on this machine; nullopt on non-x86 builds.
std::optional<CpuidRegs> read_cpuid();

/// The features \a r reports, in /proc/cpuinfo spelling.
std::set<std::string> cpuid_features(const CpuidRegs& r, const HostTables& t);

/// Every feature name cpuid_features can report: the names on which CPUID and
/// /proc/cpuinfo are comparable.
std::set<std::string> cpuid_feature_names(const HostTables& t);

}  // namespace tailor
