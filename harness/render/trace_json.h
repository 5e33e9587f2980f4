#pragma once
// `measure --trace`: the samples' timelines in the Chrome trace event format, which Perfetto
// (ui.perfetto.dev) and chrome://tracing open. One trace process per sample and pass
// ("sample 2 · cold"), one thread per OS process of that run, a complete slice per module
// build with its hash, device, block_dim, ms and trigger frame as arguments.
#include <vector>

#include <nlohmann/json.hpp>

#include "model/trace.h"

namespace wcp::render {

nlohmann::json trace_to_json(const std::vector<TraceTrack>& tracks);

}  // namespace wcp::render
