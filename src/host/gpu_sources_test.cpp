// The GPU sources: --gpus, nvidia-smi's CSV and the driver version files,
// against the real answers captured on the H200 machine.
#include <gtest/gtest.h>

#include "host/gpu_spec.hpp"
#include "host/host_facts.hpp"
#include "host/nvidia_driver.hpp"
#include "host/nvidia_smi.hpp"
#include "support/golden.hpp"
#include "util/diagnostic.hpp"

namespace tailor {
namespace {

std::string gpu_spec_error(const std::string& spec) {
  try {
    parse_gpu_spec(spec, embedded_kb(), embedded_host_tables());
  } catch (const DiagnosticError& e) {
    return e.diagnostic().render();
  }
  return "accepted\n";
}

TEST(GpuSpec, OneGpuWithDriver) {
  GpuReport r = parse_gpu_spec("9.0:580.65.06", embedded_kb(), embedded_host_tables());
  ASSERT_EQ(r.gpus.size(), 1u);
  EXPECT_EQ(r.gpus[0].sm, "9.0");
  EXPECT_EQ(r.gpus[0].name, "Hopper GPU");
  EXPECT_EQ(r.gpus[0].driver, "580.65.06");
  EXPECT_EQ(r.driver, "580.65.06");
  EXPECT_EQ(r.source, "--gpus");
}

TEST(GpuSpec, SeveralGpusShareTheDriver) {
  GpuReport r = parse_gpu_spec("9.0:580.65.06,sm86", embedded_kb(), embedded_host_tables());
  ASSERT_EQ(r.gpus.size(), 2u);
  EXPECT_EQ(r.gpus[1].index, 1);
  EXPECT_EQ(r.gpus[1].sm, "8.6");
  EXPECT_EQ(r.gpus[1].driver, "580.65.06");
}

TEST(GpuSpec, NoneAndNoDriver) {
  EXPECT_TRUE(parse_gpu_spec("none", embedded_kb(), embedded_host_tables()).gpus.empty());
  GpuReport r = parse_gpu_spec("8.9", embedded_kb(), embedded_host_tables());
  EXPECT_EQ(r.driver, "");
  EXPECT_EQ(r.notes, std::vector<std::string>{"--gpus gave no driver version: driver requirements cannot be checked"});
}

// Issue 47: GPUs by the names people use, drivers by branch.
TEST(GpuSpec, ProductNamesAsPeopleWriteThem) {
  EXPECT_EQ(parse_gpu_spec("H100", embedded_kb(), embedded_host_tables()).gpus.at(0).sm, "9.0");
  EXPECT_EQ(parse_gpu_spec("rtx 4090", embedded_kb(), embedded_host_tables()).gpus.at(0).sm, "8.9");
  EXPECT_EQ(parse_gpu_spec("NVIDIA L40S", embedded_kb(), embedded_host_tables()).gpus.at(0).sm, "8.9");
  GpuReport two = parse_gpu_spec("A100,RTX-3090", embedded_kb(), embedded_host_tables());
  ASSERT_EQ(two.gpus.size(), 2u);
  EXPECT_EQ(two.gpus[1].sm, "8.6");
  EXPECT_EQ(two.system, "");
}

TEST(GpuSpec, IntegratedSystemsNameTheirMachine) {
  GpuReport spark = parse_gpu_spec("GB10", embedded_kb(), embedded_host_tables());
  ASSERT_EQ(spark.gpus.size(), 1u);
  EXPECT_EQ(spark.gpus[0].sm, "12.1");
  EXPECT_EQ(spark.system, "DGX Spark");
  EXPECT_EQ(parse_gpu_spec("GH200,GH200", embedded_kb(), embedded_host_tables()).system, "GH200");
  GpuReport mac = parse_gpu_spec("Apple M3", embedded_kb(), embedded_host_tables());
  EXPECT_TRUE(mac.gpus.empty());
  EXPECT_EQ(mac.system, "Apple M3");
  EXPECT_TRUE(mac.notes.empty());
}

TEST(GpuSpec, DriverBranchIsItsLowestKnownRelease) {
  // CUDA 12.4's minimum driver (NVIDIA CUDA 12.4 release notes, Table 3) is the only 550 release the KB knows.
  GpuReport r = parse_gpu_spec("H100:550", embedded_kb(), embedded_host_tables());
  EXPECT_EQ(r.driver, "550.54.14");
  EXPECT_EQ(r.gpus.at(0).driver, "550.54.14");
  EXPECT_EQ(r.notes, std::vector<std::string>{
                         "driver 550 taken as 550.54.14, the lowest 550 release the knowledge base knows (what CUDA "
                         "12.4 needs); give the full version for an exact answer"});
  // 570.26 is CUDA 12.8's minimum; 580.65.06 CUDA 13.0's (the "580" compat floor is no release).
  EXPECT_EQ(parse_gpu_spec("9.0:570", embedded_kb(), embedded_host_tables()).driver, "570.26");
  EXPECT_EQ(parse_gpu_spec("9.0:580", embedded_kb(), embedded_host_tables()).driver, "580.65.06");
  GpuReport two = parse_gpu_spec("9.0:550.54", embedded_kb(), embedded_host_tables());
  EXPECT_EQ(two.driver, "550.54");
  EXPECT_TRUE(two.notes.empty());
  GpuReport unknown = parse_gpu_spec("9.0:565", embedded_kb(), embedded_host_tables());
  EXPECT_EQ(unknown.driver, "565.0");
  EXPECT_EQ(unknown.notes, std::vector<std::string>{"driver 565: the knowledge base knows no 565 release; taken as "
                                                    "565.0, below every release of it"});
}

TEST(GpuSpec, ErrorsVerbatim) {
  std::string all;
  for (const char* spec : {"9.9:580.65.06", "9.0:abc", "9.0:580.x", "9.0:580.65.06,8.6:570.26", "", "9.0,,8.6",
                           "none,9.0", "H1O0", "DRIVE Thor", "Apple M3:580", "Apple M3,H100", "GH200,DGX Spark"})
    all += std::string("--gpus '") + spec + "'\n" + gpu_spec_error(spec) + "\n";
  test::expect_golden(all, "tests/golden/host/gpus-errors.txt");
}

TEST(NvidiaSmi, ParsesTheH200Answer) {
  auto gpus = parse_nvidia_smi_csv(test::read_file(test::source_path("tests/data/gpu/h200-nvidia-smi-query.csv")));
  ASSERT_EQ(gpus.size(), 1u);
  EXPECT_EQ(gpus[0].index, 0);
  EXPECT_EQ(gpus[0].name, "NVIDIA H200");
  EXPECT_EQ(gpus[0].sm, "9.0");
  EXPECT_EQ(gpus[0].driver, "580.159.04");
  EXPECT_EQ(gpus[0].memory_mib, 143771u);
}

TEST(NvidiaSmi, SeveralGpusCommasInNamesAndMissingMemory) {
  auto gpus = parse_nvidia_smi_csv(
      "0, NVIDIA H100 80GB HBM3, 9.0, 570.26, 81559 MiB\n"
      "1, NVIDIA RTX A6000, Rev 2, 8.6, 570.26, [N/A]\n");
  ASSERT_EQ(gpus.size(), 2u);
  EXPECT_EQ(gpus[1].name, "NVIDIA RTX A6000, Rev 2");
  EXPECT_EQ(gpus[1].sm, "8.6");
  EXPECT_FALSE(gpus[1].memory_mib);
  EXPECT_TRUE(parse_nvidia_smi_csv("No devices were found\n").empty());
}

TEST(NvidiaSmi, MalformedLinesVerbatim) {
  std::string all;
  for (const char* text :
       {"0, NVIDIA H200, 9.0\n", "x, NVIDIA H200, 9.0, 580.159.04, 1 MiB\n",
        "0, NVIDIA H200, [N/A], 580.159.04, 1 MiB\n", "0, A, 9.0, 580.159.04, 1 MiB\n1, B, 9.0, driver, 1 MiB\n"}) {
    try {
      parse_nvidia_smi_csv(text);
      all += "accepted\n";
    } catch (const DiagnosticError& e) {
      all += e.diagnostic().render();
    }
    all += "\n";
  }
  test::expect_golden(all, "tests/golden/host/nvidia-smi-errors.txt");
}

TEST(DriverVersion, FromTheVersionFiles) {
  EXPECT_EQ(parse_driver_version(test::read_file(test::source_path("tests/data/gpu/h200-proc-driver-nvidia-version"))),
            "580.159.04");
  EXPECT_EQ(parse_driver_version("NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 01:15:15 UTC "
                                 "2023\nGCC version:  gcc version 12.2.0\n"),
            "535.104.05");
  EXPECT_EQ(parse_driver_version("580.159.04\n"), "580.159.04");
  EXPECT_EQ(parse_driver_version(""), std::nullopt);
  EXPECT_EQ(parse_driver_version("NVRM version: unknown\n"), std::nullopt);
}

// The early query runs only where detect_host would query this host's GPUs
// without reading anything first; elsewhere detect_host decides as before.
TEST(EarlyGpuQuery, StartsNothingWhereTheOptionsDecide) {
  HostOptions named;
  named.gpus = "none";
  EXPECT_FALSE(EarlyGpuQuery(named).take().has_value());
  HostOptions mac;
  mac.os = Os::darwin;
  EXPECT_FALSE(EarlyGpuQuery(mac).take().has_value());
  HostOptions sample;  // a saved sample may be macOS's sysctl output
  sample.cpuinfo_path = "cpuinfo";
  EXPECT_FALSE(EarlyGpuQuery(sample).take().has_value());
}

TEST(EarlyGpuQuery, ALinuxHostIsQueriedOnce) {
  HostOptions linux_host;
  linux_host.os = Os::gnu_linux;
  EarlyGpuQuery query(linux_host);
  std::optional<GpuReport> report = query.take();
  ASSERT_TRUE(report.has_value());
  EXPECT_TRUE(report->source == "nvml" || report->source == "nvidia-smi" || report->source == "none") << report->source;
  EXPECT_FALSE(query.take().has_value());  // the answer is handed over once
}

}  // namespace
}  // namespace tailor
