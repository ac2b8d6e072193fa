// The GPU cache: an answer of NVML is reused exactly while the kernel driver's
// files read as they did when it was kept, and a cache that is damaged,
// foreign or unwritable costs a query, never the answer. The driver files are
// those recorded on the H100 machine (tests/data/gpu/h100-proc-*).
#include "host/gpu_cache.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "support/golden.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

namespace fs = std::filesystem;

const std::string kBus = "0000:00:06.0";  // "Bus Location" in the recorded information file

std::string recorded(const std::string& name) { return test::read_file(test::source_path("tests/data/gpu/" + name)); }

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

// A proc root holding the H100 machine's driver files, changed one at a time by the tests.
struct DriverProc {
  test::TempDir dir{"driver-proc"};
  fs::path root() const { return dir.path(); }
  DriverProc() {
    write(root() / "sys/kernel/random/boot_id", recorded("h100-proc-sys-kernel-random-boot_id"));
    write(root() / "driver/nvidia/version", recorded("h100-proc-driver-nvidia-version"));
    write(root() / "driver/nvidia/gpus" / kBus / "information", recorded("h100-proc-driver-nvidia-gpu-information"));
  }
  DriverState state() const {
    auto s = read_driver_state(root());
    EXPECT_TRUE(s) << "the driver files under " << root();
    return s.value_or(DriverState{});
  }
};

// What NVML answered on the H100 machine (the memory is the 80 GB part's).
GpuReport nvml_answer() {
  GpuReport r;
  r.source = "nvml";
  r.driver = "580.159.04";
  r.gpus.push_back({0, "NVIDIA H100 80GB HBM3", "9.0", "580.159.04", 81559});
  return r;
}

void expect_same_gpus(const GpuReport& a, const GpuReport& b) {
  EXPECT_EQ(a.driver, b.driver);
  ASSERT_EQ(a.gpus.size(), b.gpus.size());
  for (size_t i = 0; i < a.gpus.size(); ++i) {
    EXPECT_EQ(a.gpus[i].index, b.gpus[i].index);
    EXPECT_EQ(a.gpus[i].name, b.gpus[i].name);
    EXPECT_EQ(a.gpus[i].sm, b.gpus[i].sm);
    EXPECT_EQ(a.gpus[i].driver, b.gpus[i].driver);
    EXPECT_EQ(a.gpus[i].memory_mib, b.gpus[i].memory_mib);
  }
}

unsigned mode_of(const fs::path& p) {
  struct stat st {};
  EXPECT_EQ(::stat(p.c_str(), &st), 0) << p;
  return st.st_mode & 07777;
}

TEST(GpuCache, ReadsTheDriverStateOfTheRecordedMachine) {
  DriverProc proc;
  DriverState s = proc.state();
  EXPECT_EQ(s.boot_id, "f5bbfcb5-c09b-4450-8af2-09d77aae817a\n");
  EXPECT_EQ(s.version_text.rfind("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04", 0), 0u);
  ASSERT_EQ(s.gpus.size(), 1u);
  EXPECT_NE(s.gpus.at(kBus).find("GPU-319010b6-5d7c-149f-a21d-ed9f6511e18e"), std::string::npos);
}

TEST(GpuCache, NoDriverOrAnUnreadableFileMeansNoState) {
  {
    DriverProc proc;  // the driver's folder gone: no NVIDIA driver loaded
    fs::remove_all(proc.root() / "driver");
    EXPECT_FALSE(read_driver_state(proc.root()));
  }
  {
    DriverProc proc;  // no boot id (not Linux's procfs)
    fs::remove(proc.root() / "sys/kernel/random/boot_id");
    EXPECT_FALSE(read_driver_state(proc.root()));
  }
  {
    DriverProc proc;  // a GPU whose information file is missing
    fs::create_directories(proc.root() / "driver/nvidia/gpus/0000:00:07.0");
    EXPECT_FALSE(read_driver_state(proc.root()));
  }
}

TEST(GpuCache, AKeptAnswerReadsBackInTheSameState) {
  DriverProc proc;
  DriverState s = proc.state();
  auto back = parse_gpu_cache(gpu_cache_text(s, nvml_answer()), s);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->source, "nvml, cached");
  EXPECT_TRUE(back->notes.empty());
  expect_same_gpus(*back, nvml_answer());
  // A GPU whose memory NVML did not give keeps none.
  GpuReport no_memory = nvml_answer();
  no_memory.gpus[0].memory_mib.reset();
  auto again = parse_gpu_cache(gpu_cache_text(s, no_memory), s);
  ASSERT_TRUE(again);
  EXPECT_FALSE(again->gpus[0].memory_mib);
}

TEST(GpuCache, AnyChangeOfTheDriverStateIsAMiss) {
  DriverProc proc;
  const DriverState kept = proc.state();
  const std::string text = gpu_cache_text(kept, nvml_answer());
  auto changed = [&](auto change) {
    DriverState now = kept;
    change(now);
    return parse_gpu_cache(text, now);
  };
  EXPECT_FALSE(changed([](DriverState& s) { s.boot_id = "0b5e6c1a-6d0e-4c53-9a55-3c1a1f1f0f00\n"; })) << "a reboot";
  EXPECT_FALSE(changed([](DriverState& s) {
    s.version_text.replace(s.version_text.find("580.159.04"), 10, "580.171.01");
  })) << "another driver";
  EXPECT_FALSE(changed([](DriverState& s) {
    auto& info = s.gpus.at(kBus);
    info.replace(info.find("GPU-319010b6"), 12, "GPU-aaaaaaaa");
  })) << "another GPU in the same slot";
  EXPECT_FALSE(changed([](DriverState& s) { s.gpus.emplace("0000:00:07.0", s.gpus.at(kBus)); })) << "a GPU added";
  EXPECT_FALSE(changed([](DriverState& s) { s.gpus.clear(); })) << "the GPU gone";
}

TEST(GpuCache, OnlyAWholeNvmlAnswerIsKept) {
  DriverProc proc;
  DriverState s = proc.state();
  EXPECT_TRUE(cacheable(nvml_answer(), s));
  auto with = [](auto change) {
    GpuReport r = nvml_answer();
    change(r);
    return r;
  };
  EXPECT_FALSE(cacheable(with([](GpuReport& r) { r.source = "nvidia-smi"; }), s));
  EXPECT_FALSE(cacheable(with([](GpuReport& r) { r.notes.push_back("NVML could not open GPU 1"); }), s));
  EXPECT_FALSE(cacheable(with([](GpuReport& r) { r.gpus.clear(); }), s)) << "fewer GPUs than the driver lists";
  EXPECT_FALSE(cacheable(with([](GpuReport& r) { r.gpus[0].sm.clear(); }), s));
  EXPECT_FALSE(cacheable(with([](GpuReport& r) { r.gpus[0].name.clear(); }), s));
  EXPECT_FALSE(cacheable(with([](GpuReport& r) { r.driver = r.gpus[0].driver = "575.57.08"; }), s))
      << "a driver other than the loaded kernel module's";
}

TEST(GpuCache, ADamagedCacheIsAMissNotAnError) {
  DriverProc proc;
  DriverState s = proc.state();
  const std::string good = gpu_cache_text(s, nvml_answer());
  auto replaced = [&](const std::string& from, const std::string& to) {
    std::string t = good;
    size_t at = t.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return t.replace(at, from.size(), to);
  };
  for (const std::string& text : {
           std::string(),
           good.substr(0, good.size() / 2),
           std::string("[]"),
           std::string("{\"format\": 1}"),
           replaced("\"format\": 1", "\"format\": 2"),
           replaced("\"index\": 0", "\"index\": \"0\""),
           replaced("\"index\": 0", "\"index\": -1"),
           replaced("\"index\": 0", "\"index\": 4294967296"),
           replaced("\"memory_mib\": 81559", "\"memory_mib\": -1"),
           replaced("\"sm\": \"9.0\"", "\"sm\": \"\""),
           replaced("\"sm\": \"9.0\"", "\"sm\": 9.0"),
       }) {
    EXPECT_NO_THROW(EXPECT_FALSE(parse_gpu_cache(text, s)) << text);
  }
}

// A query that counts its calls.
struct CountingQuery {
  int calls = 0;
  GpuReport answer = nvml_answer();
  GpuReport operator()() {
    ++calls;
    return answer;
  }
};

TEST(GpuCache, TheDriverIsAskedOnceWhileItsStateHolds) {
  DriverProc proc;
  test::TempDir home("gpu-cache-home");
  GpuCacheSite site{proc.root(), fs::path(home.path()) / "cache/tailor/gpus.json"};
  CountingQuery q;
  auto query = [&] { return q(); };

  GpuReport first = cached_gpu_query(site, query);
  EXPECT_EQ(q.calls, 1);
  EXPECT_EQ(first.source, "nvml");
  ASSERT_TRUE(fs::is_regular_file(*site.file));
  EXPECT_EQ(mode_of(*site.file), 0600u);
  EXPECT_EQ(mode_of(site.file->parent_path()), 0700u);

  GpuReport second = cached_gpu_query(site, query);
  EXPECT_EQ(q.calls, 1) << "answered from the cache";
  EXPECT_EQ(second.source, "nvml, cached");
  expect_same_gpus(second, first);

  // A reboot: asked again, and the cache now holds the new boot's answer.
  write(proc.root() / "sys/kernel/random/boot_id", "0b5e6c1a-6d0e-4c53-9a55-3c1a1f1f0f00\n");
  EXPECT_EQ(cached_gpu_query(site, query).source, "nvml");
  EXPECT_EQ(q.calls, 2);
  EXPECT_EQ(cached_gpu_query(site, query).source, "nvml, cached");
  EXPECT_EQ(q.calls, 2);
}

TEST(GpuCache, WithoutACacheFileOrDriverStateEveryRunAsks) {
  DriverProc proc;
  CountingQuery q;
  auto query = [&] { return q(); };
  GpuCacheSite no_file{proc.root(), std::nullopt};  // --no-cache, or no HOME
  cached_gpu_query(no_file, query);
  cached_gpu_query(no_file, query);
  EXPECT_EQ(q.calls, 2);

  test::TempDir home("gpu-cache-home");
  DriverProc no_driver;
  fs::remove_all(no_driver.root() / "driver");
  GpuCacheSite site{no_driver.root(), fs::path(home.path()) / "tailor/gpus.json"};
  cached_gpu_query(site, query);
  cached_gpu_query(site, query);
  EXPECT_EQ(q.calls, 4);
  EXPECT_FALSE(fs::exists(*site.file)) << "nothing to key an answer on";
}

TEST(GpuCache, AnAnswerThatMayNotBeKeptIsNotWritten) {
  DriverProc proc;
  test::TempDir home("gpu-cache-home");
  GpuCacheSite site{proc.root(), fs::path(home.path()) / "tailor/gpus.json"};
  CountingQuery q;
  q.answer.notes.push_back("NVML could not open GPU 1");
  auto query = [&] { return q(); };
  cached_gpu_query(site, query);
  cached_gpu_query(site, query);
  EXPECT_EQ(q.calls, 2);
  EXPECT_FALSE(fs::exists(*site.file));
}

TEST(GpuCache, AStateThatChangesDuringTheQueryKeepsNothing) {
  DriverProc proc;
  test::TempDir home("gpu-cache-home");
  GpuCacheSite site{proc.root(), fs::path(home.path()) / "tailor/gpus.json"};
  auto upgrading = [&] {
    write(proc.root() / "driver/nvidia/version",
          "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.171.01\n");
    return nvml_answer();
  };
  EXPECT_EQ(cached_gpu_query(site, upgrading).source, "nvml");
  EXPECT_FALSE(fs::exists(*site.file));
}

TEST(GpuCache, ADamagedForeignOrUnwritableCacheCostsAQueryNotTheAnswer) {
  DriverProc proc;
  test::TempDir home("gpu-cache-home");
  const fs::path file = fs::path(home.path()) / "tailor/gpus.json";
  GpuCacheSite site{proc.root(), file};
  CountingQuery q;
  auto query = [&] { return q(); };

  write(file, "{\"format\": 1, \"state\": ");  // damaged: asked, then replaced
  EXPECT_EQ(cached_gpu_query(site, query).source, "nvml");
  EXPECT_EQ(cached_gpu_query(site, query).source, "nvml, cached");
  EXPECT_EQ(q.calls, 1);

  // A link in the cache's place is not followed, even to a good answer.
  const fs::path elsewhere = fs::path(home.path()) / "elsewhere.json";
  fs::rename(file, elsewhere);
  fs::create_symlink(elsewhere, file);
  EXPECT_FALSE(read_gpu_cache_file(file));
  EXPECT_TRUE(read_gpu_cache_file(elsewhere));

  // A file where the cache's folder should be: nothing can be kept, the answer still comes.
  GpuCacheSite blocked{proc.root(), fs::path(home.path()) / "elsewhere.json/tailor/gpus.json"};
  EXPECT_EQ(cached_gpu_query(blocked, query).source, "nvml");
  EXPECT_EQ(cached_gpu_query(blocked, query).source, "nvml");
  EXPECT_EQ(q.calls, 3);
}

TEST(GpuCache, ACacheFileOfAnotherUserIsNotRead) {
  DriverProc proc;
  test::TempDir home("gpu-cache-home");
  const fs::path file = fs::path(home.path()) / "gpus.json";
  DriverState s = proc.state();
  write(file, gpu_cache_text(s, nvml_answer()));
  ASSERT_TRUE(read_gpu_cache_file(file));
  if (::chown(file.c_str(), 65534, 65534) != 0) GTEST_SKIP() << "only root can give a file to another user";
  EXPECT_FALSE(read_gpu_cache_file(file));
}

TEST(GpuCache, TheCacheLivesUnderTheUsersCacheFolder) {
  auto saved = [](const char* name) -> std::optional<std::string> {
    const char* v = std::getenv(name);
    return v ? std::optional<std::string>(v) : std::nullopt;
  };
  const auto xdg = saved("XDG_CACHE_HOME"), home = saved("HOME");
  ::setenv("HOME", "/home/ana", 1);
  ::setenv("XDG_CACHE_HOME", "/var/cache/ana", 1);
  EXPECT_EQ(gpu_cache_path(), fs::path("/var/cache/ana/tailor/gpus.json"));
  ::setenv("XDG_CACHE_HOME", "relative/cache", 1);  // the XDG spec: a relative path is ignored
  EXPECT_EQ(gpu_cache_path(), fs::path("/home/ana/.cache/tailor/gpus.json"));
  ::unsetenv("XDG_CACHE_HOME");
  EXPECT_EQ(gpu_cache_path(), fs::path("/home/ana/.cache/tailor/gpus.json"));
  ::unsetenv("HOME");
  EXPECT_EQ(gpu_cache_path(), std::nullopt);
  for (auto [name, value] : {std::pair{"XDG_CACHE_HOME", xdg}, std::pair{"HOME", home}})
    value ? ::setenv(name, value->c_str(), 1) : ::unsetenv(name);
}

}  // namespace
}  // namespace tailor
