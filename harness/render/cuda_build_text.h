#pragma once
// The CUDA build (`measure --cuda-arch`) as text: on the default screen, per architecture, its
// CPU time and the costliest kernels, modules and the header cost per module; with --verbose,
// every module's phases and the kernel table. Everything shown is ranked before it gets here
// (facts/cuda_build_ranking.h).
#include <iosfwd>

#include "facts/cuda_build_ranking.h"

namespace wcp::render {

void render_cuda_build_summary(const CudaBuildRanking& ranking, std::ostream& out);
void render_cuda_build_text(const CudaBuildRanking& ranking, std::ostream& out);

}  // namespace wcp::render
