#pragma once
// `bisect --json`: how the bisection ended, the commits it names, every commit visited and, for
// a first bad commit, the structure (counts and module hashes) between it and its parent.
#include <nlohmann/json.hpp>

#include "bisect/bisect_result.h"

namespace wcp::render {

nlohmann::json bisect_to_json(const bisect::BisectResult& result);

}  // namespace wcp::render
