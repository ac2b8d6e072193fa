#pragma once
/// The one driver rule (issue 56), for check, adopt, generate, recommend, the
/// catalog and verify alike. A build made with CUDA X.Y runs on any driver at
/// or above its major's minor-version compatibility floor (12.x: 525.60.13,
/// 13.x: R580); the toolkit's GA driver is what JIT of its PTX and its new
/// driver features need, never a start-up requirement. A GPU also needs a
/// driver branch that supports it at all (an RTX 5090: R570), and its last
/// branch is a ceiling (a V100: R580). So the floor of a build for a GPU is
/// the higher of the two floors.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kb/cuda_toolkit.hpp"
#include "kb/gpu_arch.hpp"

namespace tailor {

struct DriverFloor {
  Version floor;                 ///< "525.60.13", "570", "580.82.07"
  const GpuArch* gpu = nullptr;  ///< the GPU whose first branch sets it; null: the CUDA major's floor
  std::string why;               ///< "an RTX 5090 (SM120) needs an R570 driver"
  std::string source;
};

/// The CUDA major's minor-version compatibility floor, else the GA minimum; nullopt when neither is recorded.
std::optional<Version> cuda_floor(const CudaToolkit& cuda);

/// The floor of a build of \a cuda for \a gpu (null: for any GPU, the CUDA floor alone).
std::optional<DriverFloor> driver_floor(const CudaToolkit& cuda, const GpuArch* gpu);

/// Whether the written floor \a written ("550", "570.26") is at or above \a floor:
/// a major alone names a branch and is judged by its major.
bool written_floor_meets(std::string_view written, const Version& floor);

/// The driver floor a generated file writes, as a major ("570"), for a build of \a cuda that
/// serves \a gpus: \a team's number (a team's own tree, adopted) where it meets the rule's
/// floor for each GPU, else the highest of the GPUs' floors and, without a team number, the
/// GA driver's major (what JIT of the toolkit's PTX needs: a tree tailor writes says that).
std::string written_floor(const CudaToolkit& cuda, const std::vector<const GpuArch*>& gpus, const std::string& team);

/// "R570" for a branch, "580.82.07" for a release.
std::string driver_text(const Version& v);

/// "an RTX 5090 (SM120)": the GPU's first product with its article.
std::string gpu_phrase(const GpuArch& g);

enum class DriverSupport { supported, too_old, too_new };

/// Whether the driver \a driver runs \a gpu at all: at or above its first branch, at or below its last.
DriverSupport driver_supports(const GpuArch& gpu, const Version& driver);

/// One sentence for a driver outside \a gpu's branches, for messages ("driver 595.58.03 no longer
/// supports Volta: the R580 branch is the last for a V100 (SM70)").
std::string unsupported_text(const GpuArch& gpu, const Version& driver, DriverSupport s);

}  // namespace tailor
