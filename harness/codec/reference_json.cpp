#include "codec/reference_json.h"

#include "codec/json_codec.h"
#include "codec/summary_json.h"

namespace wcp {
namespace {

// The values are the truth; a median without values is not something this tool writes.
std::optional<Summary> read_summary(const json& in, const std::string& stem) {
  return summarize(get<std::vector<double>>(in, stem + "_values", {}));
}

}  // namespace

json reference_to_json(const MachineReference& reference) {
  json samples = json::array();
  for (const auto& sample : reference.samples) {
    samples.push_back({{"after_sample", sample.after_sample},
                       {"builds_ms", sample.builds_ms},
                       {"cost_ms", or_null(sample_cost(sample))},
                       {"failure", sample.failure}});
  }
  json out{{"kind", std::string(to_string(reference.kind))},
           {"name", reference.name},
           {"description", reference.description},
           {"samples", samples},
           {"unavailable", reference.unavailable}};
  put_summary(out, "cost_ms", reference.cost_ms);
  put_summary(out, "cold_units", reference.cold_units);
  return out;
}

MachineReference reference_from_json(const json& in) {
  MachineReference reference;
  const std::string kind = get<std::string>(in, "kind", "");
  const auto parsed = reference_kind_from_string(kind);
  if (!parsed) throw FieldError("unknown reference kind '" + kind + "'");
  reference.kind = *parsed;
  reference.name = get<std::string>(in, "name", "");
  reference.description = get<std::string>(in, "description", "");
  reference.unavailable = get<std::string>(in, "unavailable", "");
  json_fields::each(in, "samples", [&](const json& item, std::size_t) {
    ReferenceSample sample;
    sample.after_sample = get<int>(item, "after_sample", 0);
    sample.builds_ms = get<std::vector<double>>(item, "builds_ms", {});
    sample.failure = get<std::string>(item, "failure", "");
    reference.samples.push_back(std::move(sample));
  });
  reference.cost_ms = read_summary(in, "cost_ms");
  reference.cold_units = read_summary(in, "cold_units");
  return reference;
}

}  // namespace wcp
