#pragma once
// The report's `cuda_build` object and `cuda_compile_cpu_ms` map (schema 16,
// docs/report-schema.md#cuda_build). A figure not measured is null, never 0.
#include <map>
#include <nlohmann/json.hpp>

#include "model/cuda_build.h"
#include "stats/summary.h"

namespace wcp {

nlohmann::json cuda_build_to_json(const CudaBuildRun& run);
// Throws json_fields::FieldError naming the field on a wrong type.
CudaBuildRun cuda_build_from_json(const nlohmann::json& in);

// {"86": {"median":…, "mad":…, "values":[…], "n":…}, …}
nlohmann::json cuda_compile_summaries_to_json(const std::map<int, Summary>& summaries);
std::map<int, Summary> cuda_compile_summaries_from_json(const nlohmann::json& in);

}  // namespace wcp
